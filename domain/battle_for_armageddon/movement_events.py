"""Counters moving and lost (rules: Movement Phase, Terrain Effects, Special Units).

A counter's move, and a counter leaving the map, whether combat or supply took it, or a full
Marine Chapter flipping to its detachment instead; tags are stable. Never imports ``state.py``.
"""

from warlog.domain.battle_for_armageddon.rules import (
    BUILD_IMPERIAL,
    BUILD_ORK,
    MOVEMENT_PHASE,
    POOL,
    SPECIAL_UNITS,
    TERRAIN_EFFECTS,
)
from warlog.domain.core.events import Event


def _areas(n: int) -> str:
    return f"{n} area" if n == 1 else f"{n} areas"


def _where_eliminated(to: str) -> str:
    """Where an eliminated counter goes, in the sheet's words: destroyed, to be rebuilt in a
    build phase if the build table lists it (``pool``), or out of play for good."""
    if to == POOL:
        return (
            "pool: destroyed, off the map; the build phase may rebuild it if the build table "
            f"lists it ({BUILD_IMPERIAL}; {BUILD_ORK})"
        )
    return (
        f"{to}: out of play for good, never rebuilt (leaders, detachments and counters the "
        f"build table does not list; {BUILD_IMPERIAL}: counters not listed cannot be rebuilt)"
    )


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
        return f"{self.counter} in {self.area}: {self.reason} → {_where_eliminated(self.to)}"


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
