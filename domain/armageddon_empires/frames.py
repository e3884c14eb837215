"""The procedures that nest on the core engine's stack in Armageddon Empires (p.28, p.30–34).

A Capture Kill (p.30) holds a challenge: its frame lies under the challenge's, and reads the
challenge's outcome once it is resolved. A battle (p.33–34) holds its ground combat, sniper and
retreat challenges, and the Capture Kills of the heroes its loser leaves alone; an engagement is
the choice of the army that walked into enemy armies (attack, delay, siege). Values only: the
events carry whole frames, so that ``explain`` on any of them prints all of it.
"""

from typing import Literal

import msgspec

from warlog.domain.armageddon_empires.cards import Craft
from warlog.domain.armageddon_empires.challenge import Challenge, Outcome, Pool
from warlog.domain.core.procedure import Frame


class CaptureKill(Frame, frozen=True, kw_only=True, tag="capture_kill", tag_field="frame"):
    """A Capture Kill in progress (p.30; R2, R4): the hunter's army and hex, the target hero,
    the capture threshold's parts, and the outcome of its challenge once resolved."""

    hunter: str
    army: str
    at: str
    target: str
    target_army: str
    target_empire: str
    #: the target's dice pool as built when the challenge opened (R4; AE-21)
    target_pool: int
    #: the largest Bounty Hunter X among the hunter's cards in the hex (R4; p.30)
    bounty_hunter: int = 0
    outcome: Outcome | None = None
    #: opened by a battle's end for a hero its loser left alone (p.34; AE-33), not by a hunt
    battle: int = 0

    @property
    def threshold(self) -> int:
        """R4: the target's total dice pool − the single largest Bounty Hunter X in the hex."""
        return self.target_pool - self.bounty_hunter


class Assassination(Frame, frozen=True, kw_only=True, tag="assassination", tag_field="frame"):
    """An assassination attempt in progress (p.28, p.45, p.16; AE-71): the assassin card and its
    empire, the hex, the target hero, his army and empire, the assassin's level X and whether it
    is a Slayer, and the outcome of its challenge once resolved. It names no army of the
    assassin's: the attempt shows the target's empire the assassin, not the army it hides in."""

    empire: str
    assassin: str
    at: str
    target: str
    target_army: str
    target_empire: str
    #: the assassin's Assassin X: its dice (p.45; AE-71)
    level: int
    #: the assassin's Slayer: a single wound kills (p.45)
    slayer: bool = False
    outcome: Outcome | None = None


EngageChoice = Literal["attack", "delay", "siege"]


class Engagement(Frame, frozen=True, kw_only=True, tag="engagement", tag_field="frame"):
    """An army walked into a hex with enemy armies that can fight (p.33): its empire chooses to
    attack now, to delay the attack to the end of its turn, or — where an enemy stronghold or
    outpost stands — to lay siege (AE-25)."""

    empire: str
    army: str
    at: str
    #: the choices open: attack and delay always, siege where an enemy base stands
    choices: tuple[EngageChoice, ...]


BattleStage = Literal["setup", "commit", "choose", "round", "retreat", "end"]
StrikeKind = Literal["attack", "double", "area", "breakthrough", "multi", "sniper"]
NextRoundChoice = Literal["continue", "retreat_army", "retreat_all"]


class BattleSide(msgspec.Struct, frozen=True, kw_only=True):
    """One empire's part in a battle (p.33; R13; AE-26, AE-27)."""

    empire: str
    #: its armies in the battle: those that stood unstealthed in the hex when it began and the
    #: stealthed ones that joined at set-up (p.33)
    armies: tuple[str, ...]
    #: it has answered the set-up (p.33)
    ready: bool = False
    #: the army in the fight now, and the units of it its owner placed in the back row (R13)
    fighting: str | None = None
    back: tuple[str, ...] = ()
    #: the armies committed so far, in order: the order of p.33, chosen one army at a time
    fought: tuple[str, ...] = ()
    #: armies out of the fight: retreated, or garrisons that "retreated" (p.34); their
    #: survivors wait for the battle's result
    out: tuple[str, ...] = ()
    #: rounds the army in the fight has fought (a Trickster may retreat before its first, p.34)
    rounds: int = 0
    #: the last enemy army that engaged this side (its retreat challenges' pool, R8; AE-28)
    last_enemy: str | None = None
    #: it retreated all its armies: it has lost (p.34)
    gave_up: bool = False


class Strike(msgspec.Struct, frozen=True, kw_only=True):
    """A unit's attack in progress in a battle round (p.34): the targets struck so far, the
    attack points it has left (Multi-targeting), and the follow-up it may make now."""

    unit: str
    #: the cards struck so far, in order
    targets: tuple[str, ...] = ()
    #: the row of its first target ("front" or "back", R13)
    row: str = "front"
    #: the last strike dealt damage (Breakthrough Attack needs a hit, p.34)
    hit: bool = False
    #: attack points left for further targets (Multi-targeting, p.34)
    points: int = 0
    #: the follow-up strike open now, "" for none
    follow: str = ""


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """What the challenge open above a battle is about: a unit's strike at a card, or the
    retreat of a unit (``by`` is then the pursuing empire)."""

    kind: StrikeKind | Literal["retreat"]
    card: str
    by: str
    strength: int = 0


class RetreatItem(msgspec.Struct, frozen=True, kw_only=True):
    """A unit that must face a retreat challenge (p.34; R8) and the pursuers' pool against it."""

    unit: str
    army: str
    pool: Pool


class Battle(Frame, frozen=True, kw_only=True, tag="battle", tag_field="frame"):
    """A battle in progress in hex ``at`` (p.33–34; R13): the side that started it, the side it
    fell on, the stage, the round, whose unit acts, and what its open challenge is about."""

    number: int
    at: str
    attacker: BattleSide
    defender: BattleSide
    stage: BattleStage = "setup"
    #: rounds fought so far in this battle
    round: int = 0
    #: the side whose units act first this round (R13) and the side to act next
    first: str = ""
    to_act: str = ""
    #: units that have acted this round (each at most once, R13)
    acted: tuple[str, ...] = ()
    strike: Strike | None = None
    pending: Pending | None = None
    #: the outcome of the challenge that just resolved, for the battle's next step
    outcome: Outcome | None = None
    #: "choose": the empires still to choose after this round; ``before_round``: a Trickster's
    #: choice before its army's first round (p.34)
    choosing: tuple[str, ...] = ()
    before_round: bool = False
    #: the retreat challenges still to come, in order (p.34)
    retreats: tuple[RetreatItem, ...] = ()
    winner: str | None = None
    #: armies of the loser whose lone hero has faced the winner's Capture Kill (p.34; AE-33)
    hunted: tuple[str, ...] = ()

    def side(self, empire: str) -> BattleSide:
        return self.attacker if empire == self.attacker.empire else self.defender

    def enemy(self, empire: str) -> BattleSide:
        return self.defender if empire == self.attacker.empire else self.attacker

    def with_side(self, side: BattleSide) -> "Battle":
        if side.empire == self.attacker.empire:
            return msgspec.structs.replace(self, attacker=side)
        return msgspec.structs.replace(self, defender=side)

    @property
    def sides(self) -> tuple[BattleSide, BattleSide]:
        return (self.attacker, self.defender)

    @property
    def name(self) -> str:
        return f"battle {self.number}"


Aim = Literal["unit", "facility"]
#: "fallout": after the Air-To-Ground challenge, collateral damage or a WMD (p.31–32; AE-45..AE-49)
AirStage = Literal["intercept", "ground", "strike", "fallout", "done"]


class AirStrike(Frame, frozen=True, kw_only=True, tag="air_strike", tag_field="frame"):
    """An attack card played on hex ``at`` (p.30–31; AE-39..AE-43): the intercept window, the
    Ground-To-Air challenges from the hex, then the Air-To-Ground challenge against its target.
    The card stays in its owner's hand while it flies: destroyed, it is discarded; a missile is
    spent once it has struck."""

    number: int
    empire: str
    card: str
    craft: Craft
    at: str
    #: what a card without Precision Targeting strikes: a random unit or a random facility
    aim: Aim
    stage: AirStage = "intercept"
    #: the card struck: named with Precision Targeting, else picked at random before the strike
    target: str | None = None
    #: the empires still to be asked in the window open now, in seat order: the intercept
    #: window's (AE-40), and since version 13 the Ground-To-Air window's, the first asked until
    #: it launches no more challenges (AE-41)
    to_ask: tuple[str, ...] = ()
    #: the Anti-Air or Anti-Missile cards of the hex still to challenge (AE-41); before version
    #: 13 only: since, no public field names a gunner that has not fired
    gunners: tuple[str, ...] = ()
    #: since version 13, the gunners that have fired at this strike, in order: each showed
    #: itself firing (AE-41); left out of the encoding before version 13 (UNSET), so that the
    #: events of earlier games stay as they were recorded
    fired: tuple[str, ...] | msgspec.UnsetType = msgspec.UNSET
    #: the card that challenges the attack card now (an interceptor or a gunner), "" for none
    challenger: str = ""
    #: the outcome of the challenge that just resolved, for the strike's next step
    outcome: Outcome | None = None
    #: the munition loaded onto the card from the hand (p.22, p.31; AE-44), "" for none
    munition: str = ""
    #: collateral damage: the hidden die of each army in the hex has been rolled (AE-46)
    collateral_rolled: bool = False

    @property
    def name(self) -> str:
        return f"air strike {self.number}"

    @property
    def fired_gunners(self) -> tuple[str, ...]:
        """``fired``, none while it is unset (a game begun before version 13)."""
        return () if isinstance(self.fired, msgspec.UnsetType) else self.fired


class SabotageMission(Frame, frozen=True, kw_only=True, tag="sabotage", tag_field="frame"):
    """A sabotage in progress (p.29, p.45, p.48; AE-72): the saboteur card and its empire, the
    enemy base's hex, the facility sabotaged and the empire that holds it, what the saboteur
    prints and the hex's Counter Intel, and the outcome of its challenge once resolved. The
    army the saboteur stands in is not named: the base's empire is not shown it (AE-72)."""

    empire: str
    saboteur: str
    at: str
    base: str
    target: str
    target_empire: str
    #: the saboteur's Saboteur X: its dice (p.45)
    level: int
    #: the saboteur prints Demolitionist: one point of damage destroys the facility (p.45; R14)
    demolitionist: bool = False
    #: the saboteur is a unit: a duel's surplus is damage to its hit points, not wounds
    unit: bool = False
    #: the Counter Intel facility of the hex with the highest level, "" for none, and that level:
    #: the facility's fate, in a duel (p.29, p.48)
    counter_intel: str = ""
    intel_level: int = 0
    outcome: Outcome | None = None

    @property
    def name(self) -> str:
        return f"sabotage of {self.target}"


#: every kind of frame that can be on the stack (a tagged union, for snapshots)
AnyFrame = (
    Challenge | CaptureKill | Engagement | Battle | AirStrike | Assassination | SabotageMission
)
