"""The events of observation, fog of war and stealth (past tense; stable tags).

What each side sees of them is independent of the other side's secrets (AE-17): every check
window gives each empire the same events (a hidden roll, ``observation_checked`` and
``armies_sighted``) whatever was checked; the dice, the checks and what was found are sealed
(the checks for every player, what an empire found for that empire alone). Never imports
``state.py``.
"""

from typing import Annotated, Literal

from warlog.domain.armageddon_empires.fog import Check, Sighting
from warlog.domain.core.events import Event
from warlog.domain.core.seal import Hidden

Window = Literal["round", "move"]


class ObservationChecked(Event, frozen=True, tag="observation_checked"):
    """An empire's hidden observation checks of one window (R7; p.27; digest 3.1): the referee's
    record, sealed for every player (a failed check tells nobody anything)."""

    observer: str
    window: Window
    checks: Annotated[tuple[Check, ...], Hidden()]

    def explain(self) -> str:
        head = f"{self.observer}'s hidden observation checks ({self.window} window; R7, p.27)"
        if not self.checks:
            return f"{head}: no enemy army to check (none in reach, or all already in sight)"
        return "\n".join([f"{head}:", *(f"- {c.text()}" for c in self.checks)])


class ArmiesSighted(Event, frozen=True, tag="armies_sighted"):
    """What an empire now sees of the enemy's armies, sealed for that empire alone (AE-17): a
    round window replaces last round's sightings; a move window adds ``seen`` and drops
    ``lost`` (armies that moved or slipped from sight)."""

    observer: str
    window: Window
    seen: Annotated[tuple[Sighting, ...], Hidden(owner="observer")]
    lost: Annotated[tuple[str, ...], Hidden(owner="observer")]

    def explain(self) -> str:
        if not self.seen and not self.lost:
            return f"{self.observer} sights nothing new ({self.window} window; AE-17)"
        lines = [f"{self.observer} sights ({self.window} window; AE-17):"]
        lines += [
            f"- {s.army} of {s.empire} at {s.at} ({s.how}): {s.detail}".rstrip(": ")
            for s in self.seen
        ]
        lines += [f"- {a}: no longer in sight" for a in self.lost]
        return "\n".join(lines)


class StealthEngaged(Event, frozen=True, tag="stealth_engaged"):
    """An army engages stealth (p.23, p.27; AE-23); which is sealed for the other empire."""

    empire: str
    army: Annotated[str, Hidden(owner="empire")]
    level: Annotated[int, Hidden(owner="empire")]
    ap_cost: int

    def explain(self) -> str:
        return (
            f"{self.army} of {self.empire} engages stealth {self.level} (the lowest Stealth X of "
            f"its cards, p.27) for {self.ap_cost} AP (R11; AE-23); it controls no hex (p.27); an "
            "enemy that has sighted it this round keeps that sighting until a fresh check (AE-17)"
        )


class StealthDropped(Event, frozen=True, tag="stealth_dropped"):
    """An army drops stealth by its owner's order (p.27; AE-23); which is sealed for the other
    empire. (Joining a Capture Kill destealths in the open: ``capture_kill_began``, p.30.)"""

    empire: str
    army: Annotated[str, Hidden(owner="empire")]
    ap_cost: int

    def explain(self) -> str:
        return f"{self.army} of {self.empire} drops stealth for {self.ap_cost} AP (p.27; AE-23)"


SIGHTING_EVENT_TYPES: tuple[type[Event], ...] = (
    ObservationChecked,
    ArmiesSighted,
    StealthEngaged,
    StealthDropped,
)
