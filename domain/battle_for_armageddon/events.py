"""Events: everything that happens in a game of Battle for Armageddon, past tense, no floats.

Events carrying arithmetic explain it (``explain()``): the odds from the totals, the die and its
modifiers, the build points from the sites, the supply rolls.
"""

from typing import Annotated, Literal

import msgspec

from warlog.domain.battle_for_armageddon.crt import BEST_ODDS, RESULTS, WORST_ODDS
from warlog.domain.battle_for_armageddon.rules import (
    ADVANCE_MAX,
    ADVANCE_MIN_MOVE,
    BUILD_IMPERIAL,
    BUILD_ORK,
    COMBAT_PHASE,
    COMBAT_RESULTS_TABLE,
    FIRST_TURN_BUILD_DIVISOR,
    FORTIFICATION_MULTIPLIER,
    LAST_TURN,
    MOVEMENT_PHASE,
    RETREATING,
    RUINS_PER_ORK_REBUILD,
    SEQUENCE_OF_PLAY,
    SETUP,
    SPECIAL_UNITS,
    STARTING_HAND,
    STRATEGY_CARDS_CHOSEN,
    SUPPLY,
    SUPPLY_LOSS_MAX_FACE,
    TERRAIN_EFFECTS,
    VICTORY_CONDITIONS,
)
from warlog.domain.core.events import Event
from warlog.domain.core.seal import Hidden
from warlog.domain.core.summary import plural

CombatSide = Literal["attacker", "defender"]
StepKind = Literal["loss", "eliminate", "retreat", "advance"]


class Step(msgspec.Struct, frozen=True):
    """One step of applying a combat result, to one side's stack in one area (carried by
    ``result_stood``; the combat in progress keeps the steps still to apply)."""

    kind: StepKind
    side: CombatSide
    area: str


class Modifier(msgspec.Struct, frozen=True):
    """One modifier to the CRT die, with the rule that gives it."""

    name: str
    value: int


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


#: the name ``combat.modifiers`` gives the die modifier of a special card played this phase (the
#: card itself is not kept with the modifier: the ``special_card_played`` before names it)
SPECIAL_CARD_MODIFIER = "special card"


def _modifier_words(name: str) -> str:
    """A die modifier as a player reads it, with its rule (the others carry theirs)."""
    if name == SPECIAL_CARD_MODIFIER:
        return "a special card played this combat phase, BFA-11"
    return name


def _areas(n: int) -> str:
    return f"{n} area" if n == 1 else f"{n} areas"


#: what each step of applying a combat result does, as ``result_stood`` tells it (BFA-4)
_STEP_WORDS: dict[str, str] = {
    "loss": "loses a counter",
    "eliminate": "is eliminated",
    "retreat": "retreats",
}

#: what each special card's effect does when played (BFA-11, BFA-19, BFA-22), ``{v}`` its value
_EFFECT_WORDS: dict[str, str] = {
    "reconstruction": "the smoking ruins in the chosen area, with no Ork counter on them, flip back "
    "(BFA-19)",
    "drop_pod": "a READY Marine reinforcement lands in any open area and counts as moved (BFA-22)",
    "forced_march": "+{v} Move for counters that move after it this phase",
    "barrage": "+{v} to the player's CRT rolls for the rest of this combat phase",
    "extra_build_points": "+{v} build points in this build phase",
    "extra_rebuild": "+{v} Ork rebuilds in this build phase",
}


# -- set-up and the turn -------------------------------------------------------------------------


class CounterDeployed(Event, frozen=True, tag="counter_deployed"):
    counter: str
    area: str

    def explain(self) -> str:
        return (
            f"{self.counter} is set up in {self.area}: the Ork player sets up in Ork Territory, "
            f"within stacking ({SETUP}; BFA-18)"
        )


class SetupEnded(Event, frozen=True, tag="setup_ended"):
    def explain(self) -> str:
        return (
            f"set-up is over: each player is dealt a starting hand of {STARTING_HAND} Special "
            f"Cards ({SETUP}; BFA-10)"
        )


class TurnBegan(Event, frozen=True, tag="turn_began"):
    """The first event of a game turn (the clock of the Events view)."""

    turn: int

    def explain(self) -> str:
        return (
            f"turn {self.turn} of {LAST_TURN} begins with its Strategy Segment ({SEQUENCE_OF_PLAY})"
        )


class ReinforcementsArrived(Event, frozen=True, tag="reinforcements_arrived"):
    """seed 003: Dante and the Marine Chapters enter the READY box on turn 3."""

    turn: int
    counters: list[str]

    def explain(self) -> str:
        return (
            f"turn {self.turn}: {', '.join(self.counters)} enter the READY box of the production "
            "track (rules: Special Units; Dante enters play on turn 3 with the Marine Chapters)"
        )


class StrategyChosen(Event, frozen=True, tag="strategy_chosen"):
    """A player's two strategy cards, in order; sealed for the opponent until each is revealed
    as its action segment begins."""

    player: str
    cards: Annotated[list[str], Hidden(owner="player")]

    def explain(self) -> str:
        return (
            f"the {self.player} secretly choose {' then '.join(self.cards)}: "
            f"{STRATEGY_CARDS_CHOSEN} of their Strategy Cards, revealed one per action segment "
            f"({SEQUENCE_OF_PLAY}; BFA-21)"
        )


class InitiativeDecided(Event, frozen=True, tag="initiative_decided"):
    player: str
    turn: int
    imperial_roll: int = 0
    ork_roll: int = 0
    reason: str = ""

    def explain(self) -> str:
        if not self.imperial_roll:
            return f"turn {self.turn}: the {self.player} have the initiative ({self.reason})"
        return (
            f"turn {self.turn}: Imperial d6 {self.imperial_roll} against Ork d6 {self.ork_roll} → "
            f"the {self.player} have the initiative ({self.reason}; {SEQUENCE_OF_PLAY}"
            f"{'' if '(BFA-1)' in self.reason else '; BFA-1'})"
        )


class SpecialCardDrawn(Event, frozen=True, tag="special_card_drawn"):
    """A special card from the player's deck into his hand; the card and the ``face`` of the
    d``deck_size`` that picked it among the remaining cards (BFA-10) are sealed for the opponent.
    """

    player: str
    card: Annotated[str, Hidden(owner="player")]
    face: Annotated[int, Hidden(owner="player")] = 0
    deck_size: int = 0

    def explain(self) -> str:
        if self.deck_size > 1:
            how = f"d{self.deck_size} {self.face}: card {self.face} of the {self.deck_size} left"
        else:
            how = "the last card of the deck, no roll"
        return f"the {self.player} draw {self.card} ({how}; {SEQUENCE_OF_PLAY}; BFA-10)"


class ActionSegmentBegan(Event, frozen=True, tag="action_segment_began"):
    """The phasing player reveals the strategy card of this segment."""

    segment: int
    player: str
    card: str
    phases: list[str]

    def explain(self) -> str:
        return (
            f"action segment {self.segment}: the {self.player} reveal {self.card} "
            f"({' then '.join(self.phases)}; {SEQUENCE_OF_PLAY})"
        )


class PhaseBegan(Event, frozen=True, tag="phase_began"):
    phase: str
    player: str
    index: int

    def explain(self) -> str:
        which = "first" if self.index == 0 else "second"
        return (
            f"the {self.player}' {self.phase} phase begins: the {which} phase of their Strategy "
            f"Card, in the printed order ({SEQUENCE_OF_PLAY})"
        )


class BuildPointsCounted(Event, frozen=True, tag="build_points_counted"):
    """Imperial build phase: the points to spend, from the hives and factories still standing."""

    points: int
    track: int
    halved: bool
    sites: list[str]

    def explain(self) -> str:
        text = f"build track {self.track} (intact hives and factories: {', '.join(self.sites) or 'none'})"
        if self.halved:
            text += (
                f"; halved on turn 1 (rules: First Turn Surprise; BFA-6): "
                f"{self.track} ÷ {FIRST_TURN_BUILD_DIVISOR}, rounded down = {self.points}"
            )
        return text + f" → {self.points} build points ({BUILD_IMPERIAL})"


class RebuildsCounted(Event, frozen=True, tag="rebuilds_counted"):
    """Ork build phase: one rebuild for each 2 smoking ruins the Orks garrison."""

    rebuilds: int
    ruins: list[str]

    def explain(self) -> str:
        return (
            f"{plural(len(self.ruins), 'garrisoned smoking ruin')} "
            f"({', '.join(self.ruins) or 'none'}) ÷ {RUINS_PER_ORK_REBUILD}, rounded down = "
            f"{plural(self.rebuilds, 'rebuild')} ({BUILD_ORK})"
        )


class PhaseEnded(Event, frozen=True, tag="phase_ended"):
    phase: str
    player: str

    def explain(self) -> str:
        if self.phase == "movement":
            return (
                f"the {self.player}' movement phase ends: stacking limits count from now "
                f"({MOVEMENT_PHASE}; BFA-2)"
            )
        return f"the {self.player}' {self.phase} phase ends ({SEQUENCE_OF_PLAY})"


class StackOutOfSupply(Event, frozen=True, tag="stack_out_of_supply"):
    """seed 003 "Supply": a stack that cannot trace a line; its saving rolls if it has any."""

    player: str
    area: str
    counters: list[str]
    protection: list[str]
    faces: list[int]
    destroyed: bool

    def explain(self) -> str:
        if not self.protection:
            return (
                f"{self.area}: no supply line, no hive or fortification → destroyed (a full "
                f"Marine Chapter flips to its detachment instead) ({SUPPLY}; BFA-13)"
            )
        rolls = ", ".join(
            f"{p} d6 {f} ({'fails' if f <= SUPPLY_LOSS_MAX_FACE else 'holds'})"
            for p, f in zip(self.protection, self.faces, strict=True)
        )
        verdict = "every roll failed → destroyed" if self.destroyed else "survives"
        return (
            f"{self.area}: no supply line; {rolls} (1–{SUPPLY_LOSS_MAX_FACE} fails); {verdict} "
            f"({SUPPLY}; BFA-13)"
        )


class SupplyChecked(Event, frozen=True, tag="supply_checked"):
    """The supply check after a strategy card: the stacks cut off and the counters lost."""

    player: str
    cut_off: list[str]
    lost: list[str]

    def explain(self) -> str:
        if not self.cut_off:
            return (
                f"after their Strategy Card every {self.player} counter that needs supply traces "
                f"a supply line ({SUPPLY}; BFA-13)"
            )
        return (
            f"{self.player} cut off in {', '.join(self.cut_off)}; "
            f"lost: {', '.join(self.lost) or 'none'} ({SUPPLY}; BFA-13)"
        )


class VictoryChecked(Event, frozen=True, tag="victory_checked"):
    turn: int
    captured: list[str]
    held: list[str]
    ghazghkull_in_play: bool
    result: str

    def explain(self) -> str:
        return (
            f"turn {self.turn}: Orks captured {plural(len(self.captured), 'hive')} "
            f"({', '.join(self.captured) or 'none'}; 3 win); Imperials hold {len(self.held)} of 5 "
            f"({', '.join(self.held) or 'none'}); Ghazghkull "
            f"{'in play' if self.ghazghkull_in_play else 'removed'} → {self.result or 'play on'} "
            f"({VICTORY_CONDITIONS}; BFA-23)"
        )


class GameEnded(Event, frozen=True, tag="game_ended"):
    result: str
    reason: str

    def explain(self) -> str:
        return self.reason


# -- movement, losses ----------------------------------------------------------------------------


class CounterMoved(Event, frozen=True, tag="counter_moved"):
    counter: str
    from_area: str
    to: str
    path: list[str]

    def explain(self) -> str:
        return (
            f"{self.counter} moves {_areas(len(self.path) - 1)}, {' → '.join(self.path)}: at "
            "most its Move (plus a Forced March card's bonus, BFA-11), never into a mountain, a "
            "sea or an area holding an enemy counter (an intact hive or factory is one to the "
            "Orks, BFA-17); ash waste and jungle stop a move "
            f"({MOVEMENT_PHASE}; {TERRAIN_EFFECTS})"
        )


class CounterEliminated(Event, frozen=True, tag="counter_eliminated"):
    """A counter leaves the map for ``to`` (the pool to be rebuilt, or removed for good)."""

    counter: str
    area: str
    reason: str
    to: str

    def explain(self) -> str:
        return f"{self.counter} in {self.area}: {self.reason} → {self.to}"


class ChapterReduced(Event, frozen=True, tag="chapter_reduced"):
    """seed 003: an eliminated Marine Chapter flips to its detachment side."""

    counter: str
    area: str
    reason: str

    def explain(self) -> str:
        return (
            f"{self.counter} in {self.area}: {self.reason} → it flips to its detachment side "
            f"({SPECIAL_UNITS}: Marine Chapters)"
        )


# -- combat --------------------------------------------------------------------------------------


class AttackDeclared(Event, frozen=True, tag="attack_declared"):
    player: str
    target: str
    stacks: list[str]
    attackers: dict[str, str]
    defenders: list[str]
    passive: list[str]
    attack_total: int
    defence_base: int
    defence_total: int
    fortified: bool
    column: str
    attack_parts: list[str]
    defence_parts: list[str]
    #: the target holds leaders only: they are killed without a roll (rules: Special Units)
    alone: bool = False

    def explain(self) -> str:
        if self.alone:
            return f"{self.target}: leaders attacked on their own are killed (rules: Special Units)"
        defence = f"{' + '.join(self.defence_parts) or '0'}"
        if self.fortified:
            forts = self.fortifications()
            named = f"{', '.join(forts)}: " if forts else ""
            defence = (
                f"{FORTIFICATION_MULTIPLIER}×({defence} = {self.defence_base}) fortified "
                f"= {self.defence_total} ({named}Fortifications double the defence of the "
                f"counters they are stacked with, {SPECIAL_UNITS}; BFA-9: once, however many "
                "stand there)"
            )
        else:
            defence = f"{defence} = {self.defence_total}"
        passive = (
            f"; already retreated, not counted: {', '.join(self.passive)} (they do not defend, "
            f"{RETREATING}; they share the defending stack's fate, BFA-20)"
            if self.passive
            else ""
        )
        return (
            f"attack {' + '.join(self.attack_parts)} = {self.attack_total} vs defence {defence}"
            f"{passive} → {self.column} ({self._odds_note()}{COMBAT_PHASE}; BFA-24: odds "
            "rounded in the defender's favour)"
        )

    def fortifications(self) -> list[str]:
        """The fortifications among the defenders: the defenders the defence does not count
        (``defence_parts`` names every other defender, with its value)."""
        counted = {part.rpartition(" ")[0] for part in self.defence_parts}
        return [d for d in self.defenders if d not in counted]

    def _odds_note(self) -> str:
        """The odds at the table's edges: a total of 0 (BFA-3), odds beyond the last or the
        first column (BFA-24)."""
        a, d = self.attack_total, self.defence_total
        if d <= 0:
            return f"a defence of 0 reads {BEST_ODDS}:1, BFA-3; "
        if a <= 0:
            return f"an attack of 0 reads 1:{WORST_ODDS}, BFA-3; "
        if a >= d and a // d > BEST_ODDS:
            return (
                f"{a} ÷ {d}, rounded down = {a // d}:1, capped at the table's last column, "
                f"{BEST_ODDS}:1; "
            )
        if a < d and -(-d // a) > WORST_ODDS:
            return (
                f"{d} ÷ {a}, rounded up = 1:{-(-d // a)}, held at the table's first column, "
                f"1:{WORST_ODDS}; "
            )
        return ""


class CombatRolled(Event, frozen=True, tag="combat_rolled"):
    player: str
    target: str
    attack_total: int
    defence_total: int
    column: str
    die: int
    modifiers: list[Modifier]
    total: int
    result: str
    reroll: bool = False
    #: since version 6, on a reroll: the counter whose ability let the side reroll
    #: (``results.reroll_leader``, BFA-14), by id and printed name; left out of the encoding
    #: otherwise (UNSET), so that the events of earlier games stay as they were recorded
    leader: str | msgspec.UnsetType = msgspec.UNSET
    leader_name: str | msgspec.UnsetType = msgspec.UNSET

    def explain(self) -> str:
        mods = "".join(f" {_signed(m.value)} ({_modifier_words(m.name)})" for m in self.modifiers)
        raw = self.die + sum(m.value for m in self.modifiers)
        clamp = f" = {raw}, clamped to {self.total}" if raw != self.total else f" = {self.total}"
        again = ""
        if self.reroll and isinstance(self.leader, str):
            name = self.leader_name if isinstance(self.leader_name, str) else self.leader
            again = (
                f"; a reroll by {name} ({self.leader}), the {self.player}' leader in the "
                "combat: a leader able to reroll lets his side reroll the CRT die for a combat "
                f"he is in ({SPECIAL_UNITS}; BFA-14: one reroll per combat, the new result "
                "stands)"
            )
        elif self.reroll:
            again = (
                f"; a reroll by the {self.player}' leader: Ghazghkull may reroll a result on the "
                f"CRT for his stack, Dante for any stack he is in ({SPECIAL_UNITS}; BFA-14: one "
                "reroll per combat, the new result stands)"
            )
        return (
            f"attack {self.attack_total} vs defence {self.defence_total} → {self.column}; "
            f"d6 {self.die}{mods}{clamp} → {self.result} ({RESULTS[self.result]}; "
            f"{COMBAT_RESULTS_TABLE}; BFA-25){again}"
        )


class ResultKept(Event, frozen=True, tag="result_kept"):
    player: str

    def explain(self) -> str:
        return (
            f"the {self.player} keep the result: their leader does not reroll the CRT die "
            f"({SPECIAL_UNITS}; BFA-14)"
        )


class ResultStood(Event, frozen=True, tag="result_stood"):
    """The result is final: the steps that apply it, in order."""

    result: str
    steps: list[Step]

    def explain(self) -> str:
        steps = "; ".join(
            f"the attacker may advance into {s.area}"
            if s.kind == "advance"
            else f"the {s.side} in {s.area} {_STEP_WORDS[s.kind]}"
            for s in self.steps
        )
        if not self.result:
            return (
                f"leaders attacked on their own are killed without a roll: {steps} "
                f"({SPECIAL_UNITS}; BFA-15)"
            )
        return (
            f"{self.result} ({RESULTS[self.result]}) stands: {steps} ({COMBAT_RESULTS_TABLE}; "
            "BFA-4: losses, then retreats, then the advance)"
        )


class LossTaken(Event, frozen=True, tag="loss_taken"):
    """One counter lost from a stack (``counter == ""``: none could be taken)."""

    side: str
    area: str
    counter: str
    outcome: str
    to: str = ""

    def explain(self) -> str:
        if not self.counter:
            return (
                f"{self.side} in {self.area}: no counter that counts for stacking to lose "
                f"({COMBAT_RESULTS_TABLE}; BFA-5)"
            )
        return (
            f"{self.side} in {self.area} loses {self.counter}: {self.outcome} "
            f"({COMBAT_RESULTS_TABLE}; BFA-26: the owner chooses among the counters that count "
            "for stacking)"
        )


class StackEliminated(Event, frozen=True, tag="stack_eliminated"):
    side: str
    area: str
    counters: list[str]

    def explain(self) -> str:
        fate = (
            "; its fortification and the counters that already retreated there share its fate "
            "(BFA-20)"
            if self.side == "defender"
            else ""
        )
        return (
            f"the {self.side}'s stack in {self.area} is eliminated (a full Marine Chapter flips "
            f"to its detachment instead): {', '.join(self.counters) or 'nothing was left in it'}"
            f"{fate}; its leaders die only if nothing else of their side is left in the area "
            f"(BFA-15) ({COMBAT_RESULTS_TABLE}; {SPECIAL_UNITS})"
        )


class SiteRuined(Event, frozen=True, tag="site_ruined"):
    """A hive or factory flips to smoking ruins, its defending stack beaten (forced to retreat, or
    eliminated, the survivors retreating); the build track drops by its defence. The event does
    not say which result beat it: the ``combat_rolled`` and ``result_stood`` before it do."""

    site: str
    area: str
    defence: int
    track: int

    def explain(self) -> str:
        where = self.area if self.area != self.site else "its area"
        return (
            f"{self.site} is destroyed and flipped to smoking ruins: the defenders of {where} "
            f"were forced to retreat or eliminated ({SPECIAL_UNITS}: Hives and Factories are "
            "destroyed and flipped to Smoking Ruins if forced to retreat); the build track drops "
            f"by {self.defence} to {self.track}, the site's defence ({BUILD_IMPERIAL})"
        )


class RetreatIgnored(Event, frozen=True, tag="retreat_ignored"):
    """seed 003: all counters stacked with Commissar Yarrick ignore retreat results."""

    side: str
    area: str
    leader: str

    def explain(self) -> str:
        return (
            f"the {self.side}'s stack in {self.area} ignores the retreat: {self.leader} is with "
            f"it ({SPECIAL_UNITS}; BFA-16)"
        )


class CounterRetreated(Event, frozen=True, tag="counter_retreated"):
    counter: str
    from_area: str
    to: str

    def explain(self) -> str:
        return (
            f"{self.counter} retreats one area, {self.from_area} → {self.to}, within stacking "
            "and terrain; it takes no further part in this combat phase: it joins no attack "
            f"(BFA-8) and, should {self.to} be attacked, does not count in its defence and shares "
            f"a beaten stack's fate there ({RETREATING}; BFA-16, BFA-20)"
        )


class RetreatCompleted(Event, frozen=True, tag="retreat_completed"):
    side: str
    area: str

    def explain(self) -> str:
        return f"the {self.side}'s retreat from {self.area} is complete ({RETREATING}; BFA-16)"


class Advanced(Event, frozen=True, tag="advanced"):
    """Attacking counters enter the vacated area (none: the attacker stayed)."""

    counters: list[str]
    to: str

    def explain(self) -> str:
        if not self.counters:
            return f"no attacking counter advances into {self.to} (BFA-7)"
        return (
            f"{', '.join(self.counters)} advance into {self.to}, left empty by the result (EX, "
            f"DW, DR or DE) or by leaders attacked on their own: attacking counters with Move "
            f"{ADVANCE_MIN_MOVE}+, at most {ADVANCE_MAX} that count for stacking (leaders free "
            f"of the {ADVANCE_MAX}) ({COMBAT_RESULTS_TABLE}; BFA-7, BFA-15)"
        )


class CombatEnded(Event, frozen=True, tag="combat_ended"):
    target: str
    result: str
    summary: str

    def explain(self) -> str:
        return f"{self.summary} ({COMBAT_PHASE})"


# -- build and special cards ---------------------------------------------------------------------


class CounterBuilt(Event, frozen=True, tag="counter_built"):
    counter: str
    cost: int
    points_left: int
    spaces: int

    def explain(self) -> str:
        return (
            f"{self.counter} costs {self.cost} (the build table) → {self.points_left} points "
            f"left; it goes {self.spaces} spaces from READY on the production track "
            f"({BUILD_IMPERIAL})"
        )


class ProductionAdvanced(Event, frozen=True, tag="production_advanced"):
    """The production track moves one space towards READY; unspent points are lost."""

    spaces: dict[str, int]
    ready: list[str]
    lost: int

    def explain(self) -> str:
        return (
            f"production track moves one space: READY now {', '.join(self.ready) or 'nothing new'}; "
            f"{self.lost} unspent build points lost (rules: Build Phase)"
        )


class CounterPlaced(Event, frozen=True, tag="counter_placed"):
    counter: str
    area: str
    reason: str
    #: counts as moved this movement phase (drop pod)
    moved: bool = False

    def explain(self) -> str:
        if self.moved:
            return (
                f"{self.counter} lands in {self.area} ({self.reason}): any area open to it, "
                "within stacking; it counts as moved (BFA-22)"
            )
        return (
            f"{self.counter} is placed in {self.area} ({self.reason}): onto an intact hive or "
            f"factory, within stacking ({BUILD_IMPERIAL}; BFA-12)"
        )


class CounterRebuilt(Event, frozen=True, tag="counter_rebuilt"):
    counter: str
    area: str

    def explain(self) -> str:
        return (
            f"{self.counter} is rebuilt in {self.area}: one of this phase's rebuilds, placed on "
            f"a garrisoned smoking ruin or in an Ork supply area, within stacking ({BUILD_ORK})"
        )


class SpecialCardPlayed(Event, frozen=True, tag="special_card_played"):
    player: str
    card: str
    name: str
    effect: str
    value: int = 0
    area: str = ""
    counter: str = ""

    def explain(self) -> str:
        effect = _EFFECT_WORDS.get(self.effect, self.effect).format(v=self.value)
        target = ", ".join(x for x in (self.area, self.counter) if x)
        return (
            f"the {self.player} play {self.name} ({self.card}){' on ' + target if target else ''}"
            f": {effect}; one Special Card per action segment ({SEQUENCE_OF_PLAY}; BFA-11)"
        )


class SiteRebuilt(Event, frozen=True, tag="site_rebuilt"):
    site: str
    area: str
    defence: int
    track: int

    def explain(self) -> str:
        return (
            f"Reconstruction: {self.site} rebuilt; the build track rises by {self.defence} to "
            f"{self.track} ({BUILD_IMPERIAL}; BFA-19)"
        )


EVENT_TYPES: tuple[type[Event], ...] = (
    CounterDeployed,
    SetupEnded,
    TurnBegan,
    ReinforcementsArrived,
    StrategyChosen,
    InitiativeDecided,
    SpecialCardDrawn,
    ActionSegmentBegan,
    PhaseBegan,
    BuildPointsCounted,
    RebuildsCounted,
    PhaseEnded,
    StackOutOfSupply,
    SupplyChecked,
    VictoryChecked,
    GameEnded,
    CounterMoved,
    CounterEliminated,
    ChapterReduced,
    AttackDeclared,
    CombatRolled,
    ResultKept,
    ResultStood,
    LossTaken,
    StackEliminated,
    SiteRuined,
    RetreatIgnored,
    CounterRetreated,
    RetreatCompleted,
    Advanced,
    CombatEnded,
    CounterBuilt,
    ProductionAdvanced,
    CounterPlaced,
    CounterRebuilt,
    SpecialCardPlayed,
    SiteRebuilt,
)
