"""Counters moving and lost (rules: Movement Phase, Terrain Effects, Special Units).

A counter's move, and a counter leaving the map, whether combat or supply took it, or a full
Marine Chapter flipping to its detachment instead; tags are stable. Never imports ``state.py``.
"""

from warlog.domain.battle_for_armageddon.rules import (
    MOVEMENT_PHASE,
    SPECIAL_UNITS,
    TERRAIN_EFFECTS,
)
from warlog.domain.core.events import Event


def _areas(n: int) -> str:
    return f"{n} area" if n == 1 else f"{n} areas"


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
