"""The events of the air war (p.19, p.30–31; AE-39..AE-43; stable tags).

Every step of an air strike carries the whole strike as it stands after it (its card, hex, aim,
stage, target, the empires still to answer the window open now, the gunners still to fire before
version 13 and those that have fired since), so that ``explain`` on any of them says where the
strike is. Never imports ``state.py``.
"""

from typing import Annotated, Any

from warlog.domain.armageddon_empires.frames import AirStrike
from warlog.domain.armageddon_empires.resources import Resources
from warlog.domain.core.events import Event
from warlog.domain.core.seal import Hidden


def in_air_strike(event: Any) -> str:
    """``part_of`` for the events of an air strike."""
    return event.strike.name


class AirStep(Event, frozen=True):
    """Base of the events that move an air strike on: each carries the strike after it."""

    strike: AirStrike

    part_of = in_air_strike

    def where(self) -> str:
        s = self.strike
        target = f", target {s.target}" if s.target else ""
        return f"{s.name}: {s.card} ({s.craft}) of {s.empire} on {s.at}, stage {s.stage}{target}"


class AirStrikeLaunched(AirStep, frozen=True, tag="air_strike_launched"):
    """An attack card is played face up on a hex (p.19, p.30): its AP and resources are paid;
    ``launched_from`` is the base or army its range is measured from (AE-39)."""

    ap_cost: int
    paid: Resources
    launched_from: str
    distance: int
    #: a helo that reaches the hex only from an army takes this damage first (p.19; AE-39)
    launch_damage: int = 0

    def begins(self) -> bool:
        return True

    def explain(self) -> str:
        s = self.strike
        aim = f"aimed at {s.target} (Precision Targeting, p.31)" if s.target else f"at a {s.aim}"
        if s.munition:
            aim += f", loaded with the munition {s.munition} (p.22; AE-44)"
        out = (
            f"{s.empire} plays {s.card} ({s.craft}) on {s.at} {aim} for {self.ap_cost} AP and "
            f"{self.paid.text()}: {self.distance} hexes from {self.launched_from}, within its "
            "range (p.19; AE-39)"
        )
        if self.launch_damage:
            out += (
                f"; a helo launched from an army takes {self.launch_damage} damage first "
                "(p.19; AE-39)"
            )
        if s.to_ask:
            out += f"; the intercept window opens for {', '.join(s.to_ask)} (p.30; AE-40)"
        else:  # only a missile's strike asks nobody (AE-40)
            out += "; missiles are never intercepted (p.30)"
        return out


class AirStrikeLaunchedSealed(
    AirStrikeLaunched, frozen=True, tag="air_strike_launched_sealed", kw_only=True
):
    """``air_strike_launched`` since version 12 (AE-39): the base or army the card flew from and
    its distance are sealed for its empire, so that a launch from an army never names, or rings
    the hex of, an army the other empire has not seen (before, both were public)."""

    #: the launching empire (the strike's), the one entitled to see where it flew from
    empire: str
    launched_from: Annotated[str, Hidden(owner="empire")]
    distance: Annotated[int, Hidden(owner="empire")]


class InterceptAnswered(AirStep, frozen=True, tag="intercept_answered"):
    """An empire answers the intercept window (p.30; AE-40): with an Air To Air card, paid like
    a strike (its AP owed outside its own turn, AE-19), or not at all. ``automatic``: its hand
    was empty, as both sides can see (AE-20)."""

    empire: str
    card: str | None = None
    ap_cost: int = 0
    paid: Resources = Resources()
    owed: bool = False
    automatic: bool = False

    def explain(self) -> str:
        if self.card is None:
            why = " (an empty hand, AE-20)" if self.automatic else ""
            return f"{self.empire} lets {self.strike.name} pass{why} (p.30) ({self.where()})"
        pay = f"{self.ap_cost} AP" + (" owed until its next turn (AE-19)" if self.owed else "")
        return (
            f"{self.empire} intercepts with {self.card} for {pay} and {self.paid.text()} "
            f"(p.30; AE-40) ({self.where()})"
        )


class AirStrikeAdvanced(AirStep, frozen=True, tag="air_strike_advanced"):
    """The strike moves on (p.30–31): the Ground-To-Air window opens, a gunner fires or its
    empire launches no more challenges (AE-41), a challenge against the attack card is over,
    the strike's target is picked, or the strike has nothing to strike."""

    why: str

    def explain(self) -> str:
        return f"{self.strike.name} moves on: {self.why} ({self.where()})"


class AirTargetPicked(AirStep, frozen=True, tag="air_target_picked"):
    """A card without Precision Targeting strikes a target picked at random among
    ``candidates`` (p.31; AE-42): by a die with as many sides, unless there is one."""

    candidates: tuple[str, ...]

    def explain(self) -> str:
        how = (
            "the only one"
            if len(self.candidates) == 1
            else f"by a d{len(self.candidates)} among {', '.join(self.candidates)}"
        )
        return (
            f"{self.strike.name} strikes {self.strike.target}, a random {self.strike.aim}, "
            f"{how} (p.31; AE-42)"
        )


class AirStrikeEnded(AirStep, frozen=True, tag="air_strike_ended"):
    """The strike is over (p.19, p.31): a surviving aircraft or helo is back in the hand (it
    never left it), a missile is spent; a destroyed card is already in the discard pile."""

    survived: bool
    spent: bool
    raw: int = 0
    modifier: int = 0
    modifier_label: str = ""
    damage: int = 0
    #: the strike went on to collateral damage or a WMD, told by the events before this one
    after_fallout: bool = False

    def explain(self) -> str:
        s = self.strike
        if not self.survived:
            fate = "destroyed before it struck (pp.30–31)"
        elif self.spent:
            fate = "a missile, spent (p.19)"
        else:
            fate = "back in its owner's hand (p.19)"
        out = f"{s.name} ends: {s.card} {fate}"
        if s.munition:
            out += f"; its munition {s.munition} is spent (p.31; AE-44)"
        if self.after_fallout:
            out += "; what it struck is told by the events before this one (p.31–32)"
        elif s.target and self.survived:
            out += f"; {s.target} took {self.damage} damage"
            if self.modifier or self.raw != self.damage:
                floor = ", never below 0" if self.raw + self.modifier != self.damage else ""
                out += f" ({self.raw} {self.modifier:+d}: {self.modifier_label}{floor})"
        return out


AIR_EVENT_TYPES: tuple[type[Event], ...] = (
    AirStrikeLaunched,
    AirStrikeLaunchedSealed,
    InterceptAnswered,
    AirStrikeAdvanced,
    AirTargetPicked,
    AirStrikeEnded,
)
