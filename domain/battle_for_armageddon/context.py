"""The working context of one decision: the batch of events so far and the state they lead to.

``decide`` folds each event it emits into a local state (with ``evolve``), so that the steps of a
procedure (a combat result, the end of a segment) read the board as it now stands. The caller's
state is never touched.
"""

from __future__ import annotations

from warlog.domain.battle_for_armageddon.evolve import evolve
from warlog.domain.battle_for_armageddon.state import State
from warlog.domain.core.batch import Batch
from warlog.domain.core.dice import Dice
from warlog.domain.core.errors import RulesError
from warlog.domain.core.events import Event


class Ctx:
    def __init__(self, state: State, dice: Dice) -> None:
        self.state = state
        self.batch = Batch(dice)

    def emit(self, *events: Event) -> None:
        for event in events:
            self.batch.emit(event)
            self.state = evolve(self.state, event)

    def roll(self, count: int, sides: int = 6, *, purpose: str, roller: str) -> list[int]:
        """Roll and record ``count`` d``sides`` (a ``dice_rolled`` event)."""
        return self.batch.roll(count, sides, purpose=purpose, roller=roller)

    @property
    def events(self) -> list[Event]:
        return self.batch.events


def reject(message: str, code: str) -> RulesError:
    """A RulesError (exit 3) with a stable ``rules/...`` code."""
    return RulesError(message, f"rules/{code}")
