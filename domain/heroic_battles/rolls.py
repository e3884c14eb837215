"""Rolls that wait for their own command: every die a command rolls is counted before any of
them is rolled.

A referee typing a physical roll into a command's ``dice`` list must know how many dice to type.
So a procedure step that would roll after this command already rolled (a re-roll of 1s, Risk to
Heroes once the hits are known, the Hero Death table, a final blow, a command test after a
shot…) does not roll: it posts ``dice_awaited`` and the game waits for the roller's ``roll``
command, whose batch makes that roll first. The step is then taken again, in the new batch.
"""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.core.procedure import Decision
from warlog.domain.heroic_battles import commands as cmd
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles import rulings
from warlog.domain.heroic_battles.state import Awaiting, GameState


def may_roll(batch: Batch[GameState], roller: str, dice: int, what: str) -> bool:
    """True if the step may roll its ``dice`` now (this command has rolled nothing yet, or there
    is nothing to roll); otherwise the roll is awaited and the step must stop, emitting nothing
    more."""
    if not rulings.roll_waits(batch.rolled, dice):
        return True
    batch.emit(ev.DiceAwaited(roller=roller, dice=dice, what=what))
    return False


def decision(awaiting: Awaiting) -> Decision:
    """The game waits for ``awaiting.roller``'s roll."""
    return Decision(
        players=(awaiting.roller,),
        kind="roll",
        answers=("roll",),
        waiting=f"{awaiting.roller} to roll {awaiting.dice}D6 ({awaiting.what})",
        procedure="roll",
        about={"dice": str(awaiting.dice), "what": awaiting.what},
    )


def roll(batch: Batch[GameState], c: cmd.Roll) -> None:
    """The awaited roll is made: the step that waited rolls in this batch."""
    awaiting = batch.state.awaiting
    assert awaiting is not None
    batch.emit(ev.DiceCast(roller=awaiting.roller, what=awaiting.what))
