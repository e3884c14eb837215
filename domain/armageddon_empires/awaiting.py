"""Rolls that wait for their own command in Armageddon Empires (AE-37; ``core.rolls``).

A battle, a retreat, an air strike and a minefield open one challenge after another, and a
challenge may end inside the very command that opened it (both sides accepting at once, AE-20).
Whether the next one then opens in the same command would depend on the dice that command
rolled, and a referee typing manual dice could not count them beforehand. So a procedure step
that is about to roll, in a batch that has already rolled, records ``roll_awaited`` and stops;
the game waits for the roller's ``roll``, in whose batch the step rolls first.
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.battle_events import RollAwaited, RollCalled
from warlog.domain.armageddon_empires.commands import Roll
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.procedure import Decision
from warlog.domain.core.rolls import AwaitedRoll, roll_decision, roll_waits

#: the command that answers an awaited roll
ROLL_ANSWERS: tuple[str, ...] = (Roll.type_name(),)


def may_roll(
    batch: Batch[GameState], roller: str, what: str, dice: int, *, hidden: bool = False
) -> bool:
    """True if the step may roll its ``dice`` now; otherwise ``roll_awaited`` is recorded (the
    size of a hidden roll is not told) and the step must emit nothing more."""
    if not roll_waits(batch, dice, hidden=hidden):
        return True
    told = 0 if hidden else dice
    batch.emit(RollAwaited(awaiting=AwaitedRoll(roller=roller, what=what, dice=told)))
    return False


def awaited(state: GameState) -> Decision | None:
    """The roll the game waits for, if it waits for one."""
    return None if state.awaiting is None else roll_decision(state.awaiting, ROLL_ANSWERS)


def roll(batch: Batch[GameState], cmd: Roll) -> None:
    """``roll_called``: the step that waited takes its turn in this batch (AE-37)."""
    awaiting = batch.state.awaiting
    assert awaiting is not None, "admitted only while a roll is awaited"
    batch.emit(RollCalled(roller=cmd.player, what=awaiting.what))
