"""A Batch collects the events ``decide`` produces and turns dice requests into ``dice_rolled``."""

from __future__ import annotations

from warlog.domain.core.dice import Dice
from warlog.domain.core.events import DiceRolled, Event


class Batch:
    """The events of one decision, in order. ``roll`` records each roll where it happens."""

    def __init__(self, dice: Dice) -> None:
        self.events: list[Event] = []
        self._dice = dice

    def emit(self, *events: Event) -> None:
        self.events.extend(events)

    def roll(self, count: int, sides: int = 6, *, purpose: str, roller: str = "") -> list[int]:
        """Roll ``count`` dice and record them; a pool of 0 dice rolls nothing and records nothing."""
        if count <= 0:
            return []
        faces = self._dice.faces(len(self.events), count, sides)
        self.events.append(DiceRolled(sides=sides, faces=faces, purpose=purpose, roller=roller))
        return faces
