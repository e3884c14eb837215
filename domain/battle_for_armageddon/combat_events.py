"""Combat's events (rules: Combat Phase, Combat Results Table, Retreating, Special Units).

The attack declared with its odds, the CRT die with its modifiers, and the result applied step by
step: losses, eliminated stacks, ruined sites, retreats, the advance; tags are stable. Never
imports ``state.py`` (the state keeps ``Step``, the combat in progress's steps still to apply).
"""

from typing import Literal

import msgspec

from warlog.domain.battle_for_armageddon.crt import BEST_ODDS, RESULTS, WORST_ODDS
from warlog.domain.battle_for_armageddon.rules import (
    ADVANCE_MAX,
    ADVANCE_MIN_MOVE,
    BUILD_IMPERIAL,
    COMBAT_PHASE,
    COMBAT_RESULTS_TABLE,
    FORTIFICATION_MULTIPLIER,
    RETREATING,
    SPECIAL_UNITS,
)
from warlog.domain.core.events import Event

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


#: what each step of applying a combat result does, as ``result_stood`` tells it (BFA-4)
_STEP_WORDS: dict[str, str] = {
    "loss": "loses a counter",
    "eliminate": "is eliminated",
    "retreat": "retreats",
}


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
            own, counted = self.fortifications_own_defence(), ""
            if own:
                who = forts[0] if len(forts) == 1 else f"({', '.join(forts)})"
                defence = f"{defence} + {who} {own}"
                counted = (
                    "; BFA-30: a fortification's own defence counts in a game begun under version "
                    "7 or before"
                )
            defence = (
                f"{FORTIFICATION_MULTIPLIER}×({defence} = {self.defence_base}) fortified "
                f"= {self.defence_total} ({named}Fortifications double the defence of the "
                f"counters they are stacked with, {SPECIAL_UNITS}; BFA-9: once, however many "
                f"stand there{counted})"
            )
        else:
            defence = f"{defence} = {self.defence_total}"
        passive = (
            f"; already retreated, not counted: {', '.join(self.passive)} (they do not defend, "
            f"{RETREATING}; they share the defending stack's fate, BFA-20)"
            if self.passive
            else ""
        )
        note = odds_note(self.attack_total, self.defence_total)
        return (
            f"attack {' + '.join(self.attack_parts)} = {self.attack_total} vs defence {defence}"
            f"{passive} → {self.column} ({note}{COMBAT_PHASE}; BFA-24: odds rounded in the "
            "defender's favour)"
        )

    def fortifications(self) -> list[str]:
        """The fortifications among the defenders: the defenders the defence does not count
        (``defence_parts`` names every other defender, with its value)."""
        counted = {part.rpartition(" ")[0] for part in self.defence_parts}
        return [d for d in self.defenders if d not in counted]

    def fortifications_own_defence(self) -> int:
        """What the fortifications' own defence adds to ``defence_base`` beyond the parts named:
        0 since version 8, whose scenarios give a fortification none (BFA-30); a game begun
        under version 7 or before counts what its scenario gives them (``combat.odds``)."""
        named = sum(int(part.rpartition(" ")[2]) for part in self.defence_parts)
        return self.defence_base - named


def odds_note(a: int, d: int) -> str:
    """The odds at the table's edges, ending "; " (empty inside them): a total of 0 (BFA-3),
    odds beyond the last or the first column (BFA-24)."""
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
        note = odds_note(self.attack_total, self.defence_total)
        edge = f" ({note}BFA-24)" if note else ""
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
            f"attack {self.attack_total} vs defence {self.defence_total} → {self.column}"
            f"{edge}; "
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
