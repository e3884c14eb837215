"""The handlers of the commands: each checks what only it can check and emits its events.

Whose turn, which phase and whether a combat's choice comes first are checked before a handler
runs, once, by the core (``Rules.admit``, from ``decisions.py``); after it, the core procedure
engine runs the combat on until the next choice. Pure: no I/O, no clock, no ``random`` (dice
come in); a handler raises RulesError (exit 3) with a stable ``rules/...`` code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warlog.domain.battle_for_armageddon import (
    board,
    build,
    combat,
    movement,
    results,
    specials,
    turns,
)
from warlog.domain.battle_for_armageddon import commands as cmd
from warlog.domain.battle_for_armageddon.combat_events import Advanced, ResultKept
from warlog.domain.battle_for_armageddon.decisions import decision
from warlog.domain.battle_for_armageddon.state import GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import reject
from warlog.domain.core.procedure import Decision
from warlog.domain.core.rules import Handler


def _choice(state: GameState) -> Decision:
    """The combat's choice the command answers (``Rules.admit`` checked that it is one)."""
    found = decision(state)
    assert found is not None and found.procedure == "combat"
    return found


def _deploy(batch: Batch[GameState], c: cmd.Deploy) -> None:
    turns.deploy(batch, c)


def _end_setup(batch: Batch[GameState], c: cmd.EndSetup) -> None:
    turns.end_setup(batch)


def _choose(batch: Batch[GameState], c: cmd.ChooseStrategy) -> None:
    turns.choose(batch, c)


def _move(batch: Batch[GameState], c: cmd.Move) -> None:
    movement.move(batch, c)


def _attack(batch: Batch[GameState], c: cmd.Attack) -> None:
    combat.declare(batch, c)


def _reroll(batch: Batch[GameState], c: cmd.Reroll) -> None:
    combat.roll_crt(batch, c.player, reroll=True)


def _keep(batch: Batch[GameState], c: cmd.KeepResult) -> None:
    batch.emit(ResultKept(player=c.player))


def _take_loss(batch: Batch[GameState], c: cmd.TakeLoss) -> None:
    n = _choice(batch.state)
    if c.counter not in n.options:
        raise reject(
            f"{board.counter_named(batch.state, c.counter)} cannot be taken as the loss in "
            f"{n.about['area']}; "
            f"choose one of {', '.join(n.options)}",
            "bad_choice",
        )
    state = batch.state
    assert state.combat is not None
    results.apply_loss(batch, state.combat.steps[0], c.counter)


def _retreat(batch: Batch[GameState], c: cmd.Retreat) -> None:
    n = _choice(batch.state)
    if c.counter != n.about["counter"]:
        raise reject(
            f"{n.about['counter']} retreats next, not "
            f"{board.counter_named(batch.state, c.counter)}",
            "bad_choice",
        )
    if c.to not in n.options:
        raise reject(
            f"{n.about['counter']} cannot retreat to {board.area_named(batch.state, c.to)}; it "
            f"may go to {', '.join(n.options)}",
            "bad_choice",
        )
    results.apply_retreat(batch, c.counter, n.about["area"], c.to)


def _advance(batch: Batch[GameState], c: cmd.Advance) -> None:
    problem = results.advance_problem(batch.state, list(c.counters))
    if problem is not None:
        raise problem
    assert batch.state.combat is not None
    batch.emit(Advanced(counters=list(c.counters), to=batch.state.combat.target))


def _build(batch: Batch[GameState], c: cmd.Build) -> None:
    build.build(batch, c)


def _finish(batch: Batch[GameState], c: cmd.FinishBuilding) -> None:
    build.finish_building(batch)


def _place(batch: Batch[GameState], c: cmd.Place) -> None:
    build.place(batch, c)


def _rebuild(batch: Batch[GameState], c: cmd.Rebuild) -> None:
    build.rebuild(batch, c)


def _special(batch: Batch[GameState], c: cmd.PlaySpecial) -> None:
    specials.play(batch, c)


def _end_phase(batch: Batch[GameState], c: cmd.EndPhase) -> None:
    turns.end_phase(batch)


#: every command of Battle for Armageddon and its handler
HANDLERS: Mapping[type[Any], Handler] = {
    cmd.Deploy: _deploy,
    cmd.EndSetup: _end_setup,
    cmd.ChooseStrategy: _choose,
    cmd.Move: _move,
    cmd.Attack: _attack,
    cmd.Reroll: _reroll,
    cmd.KeepResult: _keep,
    cmd.TakeLoss: _take_loss,
    cmd.Retreat: _retreat,
    cmd.Advance: _advance,
    cmd.Build: _build,
    cmd.FinishBuilding: _finish,
    cmd.Place: _place,
    cmd.Rebuild: _rebuild,
    cmd.PlaySpecial: _special,
    cmd.EndPhase: _end_phase,
}
