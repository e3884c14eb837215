"""A Batch: the events one command causes, in order, and the state they lead to.

``decide`` builds its events in a Batch. ``emit`` appends an event and folds it into
``batch.state`` (with the ruleset's ``evolve``), so that every later step of the same decision
reads the board as it now stands; the state ``decide`` was handed is never touched. ``roll``
asks the dice for the faces of the ``dice_rolled`` event at the position it is about to take,
so the seq a die is derived from is exactly the seq it is stored at.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from warlog.domain.core.dice import Dice, check_sides
from warlog.domain.core.events import DiceRolled, Event

S = TypeVar("S")


class Batch(Generic[S]):
    """The events of one decision so far (``events``) and the state after them (``state``)."""

    __slots__ = ("_dice", "_evolve", "events", "state")

    def __init__(self, dice: Dice, state: S, evolve: Callable[[S, Event], S]) -> None:
        self.events: list[Event] = []
        self.state = state
        self._dice = dice
        self._evolve = evolve

    def emit(self, *events: Event) -> None:
        """Append ``events`` and fold each into ``state``."""
        for event in events:
            self.events.append(event)
            self.state = self._evolve(self.state, event)

    @property
    def rolled(self) -> bool:
        """True once this batch has rolled dice. A ruleset whose procedures must count every die
        a command rolls before any is rolled (so that a referee typing manual dice knows how many
        to type) asks this before a roll whose count would depend on faces already rolled."""
        return any(isinstance(e, DiceRolled) for e in self.events)

    def roll(
        self, count: int, sides: int = 6, *, purpose: str, roller: str = "", hidden: bool = False
    ) -> list[int]:
        """Roll ``count`` dice and record them as one ``dice_rolled`` event (a roll changes no
        state: what it decides is the events after it). ``hidden``: the roll picks something
        secret, so its faces are sealed for everyone but ``roller`` (an empty ``roller``: for
        every player). A public pool of 0 dice rolls nothing and records nothing; a hidden roll is
        recorded even with 0 dice, since whether it happened must not tell how many dice it
        had. RulesError for a die the dice contract does not define."""
        if count <= 0 and not hidden:
            return []
        count = max(count, 0)
        check_sides(sides)
        faces = self._dice.faces(len(self.events), count, sides)
        self.events.append(
            DiceRolled(sides=sides, faces=faces, purpose=purpose, roller=roller, hidden=hidden)
        )
        return faces
