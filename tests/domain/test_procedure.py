"""The procedure engine (``core.procedure``): frames pushed, popped and replaced on top; the top
frame's procedure acting before the turn sequence; ``run`` taking automatic steps until a
decision or the end, and calling a step that never ends a bug."""

from __future__ import annotations

import msgspec
import pytest

from warlog.domain.core.batch import Batch
from warlog.domain.core.dice import ManualDice
from warlog.domain.core.events import Event
from warlog.domain.core.procedure import (
    MAX_AUTOMATIC_STEPS,
    Decision,
    Frame,
    Next,
    Stack,
    pop,
    push,
    replace_top,
    run,
)


class Battle(Frame, frozen=True):
    round: int = 1


class Challenge(Frame, frozen=True):
    attacker: str = ""


class Ticked(Event, frozen=True, tag="ticked"):
    pass


class Game(msgspec.Struct, frozen=True):
    frames: tuple[Frame, ...] = ()
    ticks: int = 0


def _tick(state: Game, event: Event) -> Game:
    return msgspec.structs.replace(state, ticks=state.ticks + 1)


def _waiting(kind: str) -> Decision:
    return Decision(players=("red",), kind=kind, answers=(kind,), waiting=f"red's {kind}")


#: the battle's procedure, the challenge's and the turn sequence each wait for a decision of
#: their own kind, so that which one acts shows in what comes next
STACK: Stack[Game] = Stack(
    lambda state: state.frames,
    {
        Battle: lambda state, frame: _waiting(f"battle round {frame.round}"),
        Challenge: lambda state, frame: _waiting(f"challenge by {frame.attacker}"),
    },
    lambda state: _waiting("movement"),
)


def _kind(found: Next) -> str:
    assert isinstance(found, Decision)
    return found.kind


def test_the_top_frame_acts_first_and_the_turn_sequence_once_no_procedure_is_in_progress() -> None:
    # given a challenge begun inside a battle
    battle = push((), Battle(round=2))
    both = push(battle, Challenge(attacker="red.lancers"))
    assert both == (Battle(round=2), Challenge(attacker="red.lancers"))
    # then the challenge, on top, acts first
    assert _kind(STACK(Game(frames=both))) == "challenge by red.lancers"
    # when the challenge ends, the battle below it acts again
    assert pop(both) == battle
    assert _kind(STACK(Game(frames=pop(both)))) == "battle round 2"
    # and once the battle ends too, the turn sequence does
    assert pop(pop(both)) == ()
    assert _kind(STACK(Game(frames=pop(pop(both))))) == "movement"


def test_replacing_the_top_frame_keeps_the_frames_below_it() -> None:
    frames = (Battle(round=1), Challenge(attacker="red.lancers"))
    assert replace_top(frames, Challenge(attacker="blue.horde")) == (
        Battle(round=1),
        Challenge(attacker="blue.horde"),
    )
    assert replace_top((Battle(round=1),), Battle(round=2)) == (Battle(round=2),)


def test_run_takes_automatic_steps_until_the_game_waits_for_a_decision() -> None:
    # given a game that ticks on by itself three times, then waits for red
    def next_(state: Game) -> Next:
        if state.ticks < 3:
            return lambda batch: batch.emit(Ticked())
        return _waiting("movement")

    batch: Batch[Game] = Batch(ManualDice([]), Game(), _tick)
    # when it is run on, then it stops at red's decision after the three steps
    assert run(batch, next_) == _waiting("movement")
    assert batch.events == [Ticked(), Ticked(), Ticked()] and batch.state.ticks == 3
    # and a finished game is run to nothing
    assert run(Batch(ManualDice([]), Game(), _tick), lambda state: None) is None


def test_a_step_that_never_ends_its_procedure_is_reported_as_a_bug() -> None:
    batch: Batch[Game] = Batch(ManualDice([]), Game(), _tick)
    with pytest.raises(RuntimeError, match=f"{MAX_AUTOMATIC_STEPS} automatic steps without end"):
        run(batch, lambda state: lambda batch: batch.emit(Ticked()))
    assert len(batch.events) == MAX_AUTOMATIC_STEPS
