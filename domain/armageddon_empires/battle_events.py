"""The events of engagements, battles, retreats and the fall of bases (p.26, p.33–34; stable tags).

Every step of a battle carries the whole battle as it stands after it (both sides, the stage,
the round, whose unit acts, what its open challenge is about), so that ``explain`` on any of
them says where the battle is. Never imports ``state.py``.
"""

from typing import Annotated, Any, Literal

import msgspec

from warlog.domain.armageddon_empires.frames import (
    Battle,
    BattleSide,
    EngageChoice,
    Engagement,
    NextRoundChoice,
    StrikeKind,
)
from warlog.domain.core.events import Event
from warlog.domain.core.rolls import AwaitedRoll
from warlog.domain.core.seal import Hidden
from warlog.domain.core.summary import plural


def in_battle(event: Any) -> str:
    """``part_of`` for the events of a battle."""
    battle = event.battle
    return f"battle {battle if isinstance(battle, int) else battle.number}"


def lineup(battle: Battle) -> str:
    """The two sides of a battle in a line: who fights with what now."""
    parts = []
    for side in battle.sides:
        now = f", {side.fighting} fighting" if side.fighting else ""
        out = f", out: {', '.join(side.out)}" if side.out else ""
        parts.append(f"{side.empire}: {', '.join(side.armies) or 'no army'}{now}{out}")
    return "; ".join(parts)


class BattleStep(Event, frozen=True):
    """Base of the events that move a battle on: each carries the battle after it."""

    battle: Battle

    part_of = in_battle

    def where(self) -> str:
        b = self.battle
        return f"{b.name} at {b.at}, round {b.round}, stage {b.stage} ({lineup(b)})"


class RollAwaited(Event, frozen=True, tag="roll_awaited"):
    """The next roll waits for its roller's command: how far the last command got depended on
    its own dice, so a referee could not have counted these dice before it (AE-37)."""

    awaiting: AwaitedRoll

    def explain(self) -> str:
        return (
            f"the game waits for {self.awaiting.text()}: every die a command rolls is counted "
            "before any is rolled, so this roll is a command of its own (AE-37)"
        )


class RollCalled(Event, frozen=True, tag="roll_called"):
    """The awaited roll is called: the step that waited rolls in this batch (AE-37)."""

    roller: str
    what: str

    def explain(self) -> str:
        return f"{self.roller} rolls for {self.what} (AE-37)"


class EngagementOffered(Event, frozen=True, tag="engagement_offered"):
    """An army walked into enemy armies that can fight (p.33): its empire chooses how to engage
    (AE-25)."""

    engagement: Engagement

    def explain(self) -> str:
        e = self.engagement
        return (
            f"{e.army} of {e.empire} stands with enemy armies at {e.at}: {e.empire} may "
            f"{', '.join(e.choices)} (p.33; AE-25)"
        )


class EngagementChosen(Event, frozen=True, tag="engagement_chosen"):
    """How the army engages (p.33; AE-25): attack now, delay to the end of the turn (p.33:
    Delay Attack), or lay siege to the enemy base (p.26, p.33)."""

    empire: str
    army: str
    at: str
    choice: EngageChoice

    def explain(self) -> str:
        what = {
            "attack": "attacks at once",
            "delay": "delays the attack to the end of its turn, when every delayed battle is "
            "fought (Delay Attack, p.33)",
            "siege": "lays siege: the base gives no supply and no range to attack cards while a "
            "combat-capable enemy army stands in its hex (p.26; AE-35)",
        }[self.choice]
        return f"{self.army} of {self.empire} at {self.at} {what} (AE-25)"


class DelayedBattlesCalled(Event, frozen=True, tag="delayed_battles_called"):
    """An empire ends its turn with attacks it delayed: every delayed battle is fought now, then
    the turn ends (Delay Attack, p.33)."""

    empire: str
    hexes: tuple[str, ...]

    def explain(self) -> str:
        return (
            f"{self.empire} ends its turn: first the battles it delayed are fought, at "
            f"{', '.join(self.hexes)} (Delay Attack, p.33; AE-36)"
        )


#: what calls a battle that may find no enemy to fight: a delayed attack (AE-36), an assault
#: (AE-35)
AvertedCaller = Literal["delayed", "assault"]
#: the rule that fights each only against an enemy that can fight
_CALLER_RULE = {
    "delayed": "a delayed attack, p.33, is fought only against an enemy that can fight; AE-36",
    "assault": "an assault, p.26, is fought only against an enemy that can fight; AE-35",
}


class BattleAverted(Event, frozen=True, tag="battle_averted", omit_defaults=True):
    """A battle called for (a delayed one, AE-36; an assault, AE-35) finds no enemy army that
    can fight in the hex. An engagement on a move (AE-25) never calls one: it is offered only
    where such enemies stand. Since version 21 ``called_by`` records which called it, and its
    explanation cites that one's ruling; before, it is left out (UNSET), the event encoded as it
    was, and the explanation cites both. It is in the clear, as what it records is: the
    ``assault_ordered`` of the same batch, or the turn's ``delayed_battles_called``."""

    empire: str
    at: str
    why: str
    called_by: AvertedCaller | msgspec.UnsetType = msgspec.UNSET

    def explain(self) -> str:
        rule = (
            "a delayed attack, p.33, or an assault, p.26, is fought only against an enemy that "
            "can fight; AE-35, AE-36"
            if isinstance(self.called_by, msgspec.UnsetType)
            else _CALLER_RULE[self.called_by]
        )
        return f"no battle at {self.at} for {self.empire}: {self.why} ({rule})"


class AssaultOrdered(Event, frozen=True, tag="assault_ordered"):
    """Break Siege or Assault Defenses (p.26): an army attacks the enemy in its own hex for 3 AP
    (AE-35)."""

    empire: str
    army: str
    at: str
    ap_cost: int

    def explain(self) -> str:
        return (
            f"{self.army} of {self.empire} assaults the enemy at {self.at} for {self.ap_cost} AP "
            "(Break Siege / Assault Defenses, p.26; AE-35)"
        )


StartedBy = Literal["move", "delayed", "assault"]


class BattleBegan(BattleStep, frozen=True, tag="battle_began"):
    """A battle begins (p.33): the armies of each side that stand unstealthed in the hex take
    part and are seen by the enemy; where a stronghold or outpost stands, empty armies there
    are destroyed (the Empty Armies Rule, p.33)."""

    started_by: StartedBy
    #: empty armies destroyed by the Empty Armies Rule (p.33)
    emptied: tuple[str, ...] = ()

    def begins(self) -> bool:
        return True

    def explain(self) -> str:
        b = self.battle
        how = {
            "move": "moved into the hex",
            "delayed": "delayed its attack to the end of its turn (p.33)",
            "assault": "assaulted in its own hex for 3 AP (p.26; AE-35)",
        }[self.started_by]
        out = (
            f"{b.name} begins at {b.at}: {b.attacker.empire} {how}; taking part: {lineup(b)} "
            "(p.33; AE-26)"
        )
        if self.emptied:
            out += f"; empty armies destroyed: {', '.join(self.emptied)} (Empty Armies Rule, p.33)"
        return out


class EmptyArmiesDestroyed(Event, frozen=True, tag="empty_armies_destroyed"):
    """The Empty Armies Rule (p.33) as a battle begins where a stronghold or outpost stands,
    since version 10: one empire's empty armies in the hex are destroyed. One for each empire,
    whatever the hex held, each sealed for the other empire: which armies, and how many, is its
    own (AE-59). Before version 10 ``battle_began`` named them (``emptied``)."""

    empire: str
    at: str
    armies: Annotated[tuple[str, ...], Hidden(owner="empire")]

    def explain(self) -> str:
        if not self.armies:
            return (
                f"{self.empire} has no empty army at {self.at} to lose "
                "(Empty Armies Rule, p.33; AE-59)"
            )
        return (
            f"{self.empire} loses {plural(len(self.armies), 'empty army', 'empty armies')} at "
            f"{self.at}: {', '.join(self.armies)} (Empty Armies Rule, p.33; AE-59)"
        )


class BattleAdvanced(BattleStep, frozen=True, tag="battle_advanced"):
    """The battle moves on to its next stage (p.33–34): the armies in the fight, a round to
    begin, a side without an army left, a lone hero to hunt."""

    why: str

    def explain(self) -> str:
        b = self.battle
        # ``why`` is recorded; the reason that both sides fight on names no page of its own
        why = self.why if self.why.endswith(")") else f"{self.why} (p.33)"
        sides = "; ".join(_side_in_words(side) for side in b.sides)
        return f"{b.name} at {b.at} moves on: {why}. {_stage_in_words(b)}. {sides}"


def _stage_in_words(b: Battle) -> str:
    """What the battle does next, as the manual's battle sequence (p.33–34) says it."""
    fought = f"{plural(b.round, 'round')} fought"
    if b.stage == "setup":
        return "The empires set up their sides: stealthed armies may join (p.33; AE-26)"
    if b.stage == "commit":
        return f"{fought}; each side sends its next army into the fight (p.33; R13; AE-27)"
    if b.stage == "choose":
        return f"{fought}; each side chooses to fight on or retreat before the next round (p.34)"
    if b.stage == "round":
        return f"{fought}; round {b.round + 1} is next (p.33; R13)"
    if b.stage == "retreat":
        return f"{fought}; the retreat challenges are fought (p.34)"
    won = f": {b.winner} wins" if b.winner else ""
    return f"{fought}; the battle is over{won} (p.34)"


def _side_in_words(side: BattleSide) -> str:
    """One side of a battle in words: the army in the fight, the armies it has there."""
    if side.fighting:
        now = f"{side.empire} fights with {side.fighting}"
    else:
        now = f"{side.empire} has no army in the fight"
    out = f"; out of the fight: {', '.join(side.out)}" if side.out else ""
    return f"{now} (its armies in the battle: {', '.join(side.armies) or 'none'}{out})"


class BattleSetUp(BattleStep, frozen=True, tag="battle_set_up"):
    """An empire sets up its side (p.33): the stealthed armies it names destealth and join."""

    empire: str
    joined: tuple[str, ...] = ()

    def explain(self) -> str:
        joined = (
            f"{', '.join(self.joined)} destealth and join (p.33)"
            if self.joined
            else "no stealthed army joins"
        )
        return f"{self.empire} sets up its side of {self.battle.name}: {joined} (AE-26)"


class ArmyCommitted(BattleStep, frozen=True, tag="army_committed"):
    """An empire sends an army into the fight with its rows (p.33; R13; AE-27)."""

    empire: str
    army: str
    front: tuple[str, ...]
    back: tuple[str, ...]

    def explain(self) -> str:
        back = ", ".join(self.back) or "none"
        out = (
            f"{self.empire} commits {self.army} to {self.battle.name}: front row "
            f"{', '.join(self.front) or 'none'}; back row {back} (R13; AE-27)"
        )
        if not self.front:
            out += "; with no front row its back row stands in front (AE-27)"
        return out


class BattleRoundBegan(BattleStep, frozen=True, tag="battle_round_began"):
    """A round of the battle begins: battle initiative is 3 dice each, successes + Aggressive
    X of the army's hero; the higher acts first, ties to the defender (R13)."""

    rolls: dict[str, tuple[int, ...]]
    aggressive: dict[str, int]

    def explain(self) -> str:
        b = self.battle
        parts = []
        for side in b.sides:
            faces = list(self.rolls.get(side.empire, ()))
            won = sum(1 for f in faces if f >= 4)
            agg = self.aggressive.get(side.empire, 0)
            extra = f" + Aggressive {agg} (p.45)" if agg else ""
            parts.append(f"{side.empire} {faces} = {plural(won, 'success', 'successes')}{extra}")
        return (
            f"round {b.round} of {b.name}: initiative {'; '.join(parts)}; {b.first} acts first "
            "(R13: ties go to the defender); the sides then alternate, one unit at a time"
        )


class AttackBegan(BattleStep, frozen=True, tag="attack_began"):
    """A unit attacks a card in a Ground Combat Challenge (p.34; R13); a Sniper Attack costs
    1 AP, owed until its next turn outside its own (p.34; AE-19); its challenge opens next."""

    empire: str
    unit: str
    target: str
    kind: StrikeKind
    strength: int
    ap_cost: int = 0
    owed: bool = False

    def explain(self) -> str:
        how = {
            "attack": "attacks",
            "double": "attacks again (Double Attack, p.34)",
            "area": "attacks a second target in the same row (Area Attack, p.34)",
            "breakthrough": "breaks through to the back row at full strength (Breakthrough "
            "Attack, p.34)",
            "multi": f"attacks another target with {self.strength} of its attack points "
            "(Multi-targeting, p.34)",
            "sniper": "takes aim at the enemy hero (Sniper Attack, p.34)",
        }[self.kind]
        out = (
            f"{self.unit} of {self.empire} {how}: {self.target} ({self.battle.name}; AE-29, AE-30)"
        )
        if self.ap_cost:
            rule = "AE-19, AE-58" if self.kind == "sniper" else "AE-19"
            pay = f"owed until its next turn ({rule})" if self.owed else "paid"
            out += f"; {self.ap_cost} AP {pay} (p.34)"
        return out


class AttackEnded(BattleStep, frozen=True, tag="attack_ended"):
    """A strike's challenge is resolved: its damage, less the target's damage modifiers
    (Composite Armor −1 and the like, p.34), and what the unit may do next (AE-30)."""

    empire: str
    unit: str
    target: str
    raw: int
    modifier: int = 0
    modifier_label: str = ""
    damage: int = 0

    def explain(self) -> str:
        if self.raw <= 0:
            out = f"{self.unit}'s strike at {self.target} deals no damage"
        else:
            mod = f" {self.modifier:+d} ({self.modifier_label})" if self.modifier else ""
            floor = ", never below 0" if self.raw + self.modifier != self.damage else ""
            out = (
                f"{self.unit}'s strike at {self.target}: {self.raw} damage{mod} = {self.damage}"
                f"{floor}"
            )
        s = self.battle.strike
        if s is not None and s.follow:
            out += f"; it may strike again ({s.follow}, p.34)"
        return out + f" ({self.battle.name}; R5, AE-29)"


class BattleRoundEnded(BattleStep, frozen=True, tag="battle_round_ended"):
    """No unit of either side can act any more this round, or an army in the fight is no longer
    combat-capable (p.34; R13)."""

    why: str

    def explain(self) -> str:
        return f"round {self.battle.round} of {self.battle.name} ends: {self.why}"


class NextRoundChosen(BattleStep, frozen=True, tag="next_round_chosen"):
    """An empire chooses after a round (or, with a Trickster, before its army's first): continue,
    retreat the army in the fight, or retreat all (p.34; AE-31)."""

    empire: str
    choice: NextRoundChoice
    #: the armies it withdraws
    retreating: tuple[str, ...] = ()
    #: garrisons among them: they never retreat, and fall with the battle (p.34)
    garrisons: tuple[str, ...] = ()
    forced: str = ""

    def explain(self) -> str:
        what = {
            "continue": "continues",
            "retreat_army": "retreats the army in the fight",
            "retreat_all": "retreats all its armies in the battle",
        }[self.choice]
        out = f"{self.empire} {what} ({self.battle.name}, p.34; AE-31)"
        if self.forced:
            out = f"{self.empire} must retreat all: {self.forced} (AE-31)"
        if self.retreating:
            out += f": {', '.join(self.retreating)}"
        if self.garrisons:
            out += (
                f"; the garrison {self.garrisons[0]} never retreats: it leaves the fight and "
                "falls if the battle is lost (p.34)"
                if len(self.garrisons) == 1
                else f"; the garrisons {', '.join(self.garrisons)} never retreat: they leave the "
                "fight and fall if the battle is lost (p.34)"
            )
        if self.battle.retreats:
            out += f"; {plural(len(self.battle.retreats), 'retreat challenge')} to come (R8)"
        return out


class RetreatEnded(BattleStep, frozen=True, tag="retreat_ended"):
    """A retreat challenge is resolved (p.34; R8): its damage with no damage modifiers."""

    unit: str
    damage: int

    def explain(self) -> str:
        if not self.damage:
            return f"{self.unit} gets away unhurt (retreat challenge, p.34)"
        return (
            f"{self.unit} takes {self.damage} damage while retreating: no damage modifier applies "
            "in a retreat challenge (p.34; R8)"
        )


class ArmyRetreated(Event, frozen=True, tag="army_retreated"):
    """A beaten army retreats one hex toward its empire's nearest stronghold or outpost (p.34;
    AE-32)."""

    empire: str
    army: str
    origin: str
    to: str
    toward: str
    battle: int

    part_of = in_battle

    def explain(self) -> str:
        toward = f"toward {self.toward}" if self.toward else "(its empire has no base left)"
        return (
            f"{self.army} of {self.empire} retreats {self.origin} → {self.to} {toward}, into a hex "
            "free of enemy bases and of combat-capable enemy armies that are not stealthed (p.34; "
            "AE-32)"
        )


class ArmyDestroyed(Event, frozen=True, tag="army_destroyed"):
    """An army is destroyed and all its cards discarded (p.34): a garrison of the loser, or a
    beaten army with no hex to retreat to (AE-32, AE-33)."""

    empire: str
    army: str
    at: str
    cards: tuple[str, ...]
    why: str
    battle: int

    part_of = in_battle

    def explain(self) -> str:
        cards = ", ".join(self.cards) or "no card"
        return f"{self.army} of {self.empire} at {self.at} is destroyed ({self.why}); discarded: {cards}"


class BaseCaptured(Event, frozen=True, tag="base_captured"):
    """A stronghold or outpost changes hands (p.18, p.34; AE-34): its card and facilities go to
    the captor, a hero in its garrison is taken prisoner there, the captor's own heroes held
    there go free, and the captor raises a new, empty garrison."""

    base: str
    empire: str
    previous: str
    at: str
    taken: tuple[str, ...] = ()
    freed: tuple[str, ...] = ()
    battle: int = 0

    def explain(self) -> str:
        how = f"by winning battle {self.battle}" if self.battle else "undefended (p.18)"
        out = (
            f"{self.empire} captures {self.previous}'s {self.base} at {self.at} {how} (p.34; AE-34)"
        )
        if self.taken:
            out += f"; taken prisoner: {', '.join(self.taken)}"
        if self.freed:
            out += f"; freed and back in hand (or discarded if it is full): {', '.join(self.freed)}"
        return out


class BaseRazed(Event, frozen=True, tag="base_razed"):
    """A base whose own card is destroyed is razed (AE-34): its facilities are discarded, the
    heroes held there go free, and its garrison becomes an army in the field."""

    base: str
    empire: str
    at: str
    facilities: tuple[str, ...]
    freed: tuple[str, ...] = ()

    def explain(self) -> str:
        out = (
            f"{self.base} of {self.empire} at {self.at} is razed: its card is destroyed; "
            f"facilities discarded: {', '.join(self.facilities) or 'none'} (AE-34)"
        )
        if self.freed:
            out += f"; freed: {', '.join(self.freed)}"
        return out


class BattleEnded(BattleStep, frozen=True, tag="battle_ended"):
    """The battle ends (p.34): one side has no combat-capable army left in the fight or has
    retreated all; the winner controls the hex and its facilities."""

    winner: str
    loser: str
    why: str

    def explain(self) -> str:
        return (
            f"{self.battle.name} at {self.battle.at} ends: {self.why}; {self.winner} wins and "
            f"controls the hex and its facilities (p.34; AE-32)"
        )


BATTLE_EVENT_TYPES: tuple[type[Event], ...] = (
    RollAwaited,
    RollCalled,
    EngagementOffered,
    EngagementChosen,
    DelayedBattlesCalled,
    BattleAverted,
    AssaultOrdered,
    BattleBegan,
    EmptyArmiesDestroyed,
    BattleAdvanced,
    BattleSetUp,
    ArmyCommitted,
    BattleRoundBegan,
    AttackBegan,
    AttackEnded,
    BattleRoundEnded,
    NextRoundChosen,
    RetreatEnded,
    ArmyRetreated,
    ArmyDestroyed,
    BaseCaptured,
    BaseRazed,
    BattleEnded,
)
