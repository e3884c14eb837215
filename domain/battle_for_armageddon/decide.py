"""decide: check a command against the state and return the events it causes.

Pure: no I/O, no clock, no ``random`` (dice come in). It raises RulesError (exit 3) with a stable
``rules/...`` code for a well-formed command the rules do not allow now, and never mutates the
state it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from warlog.domain.battle_for_armageddon import build, combat, movement, results, specials, turn
from warlog.domain.battle_for_armageddon import commands as cmd
from warlog.domain.battle_for_armageddon.context import Ctx, reject
from warlog.domain.battle_for_armageddon.events import Advanced, ResultKept
from warlog.domain.battle_for_armageddon.rules import IMPERIALS, ORKS, PLAYERS
from warlog.domain.battle_for_armageddon.state import State
from warlog.domain.core.dice import Dice
from warlog.domain.core.events import Event
from warlog.domain.core.ruleset import Command


def _in_play(state: State, c: Command) -> None:
    if state.stage == "over":
        raise reject(f"the game is over ({state.result})", "game_over")
    if c.player not in PLAYERS:
        raise reject(
            f"unknown player {c.player!r}; the players are {', '.join(PLAYERS)}", "unknown_player"
        )


def _in_phase(state: State, c: Command, *phases: str) -> None:
    """The command belongs to the phasing player's own ``phases``, with no combat pending."""
    if state.stage != "action" or state.phase not in phases:
        now = state.phase or state.stage
        raise reject(
            f"{c.type_name()} is for the {' or '.join(phases)} phase, not {now}", "wrong_phase"
        )
    if c.player != state.phasing:
        raise reject(f"it is the {state.phasing}' {state.phase} phase", "not_your_turn")
    if state.combat is not None:
        n = results.need(state)
        who = n.player if n is not None else state.phasing
        raise reject(f"a combat is being resolved: the {who} must decide first", "decision_pending")


def _decision(state: State, c: Command, kind: str) -> results.Need:
    """The combat choice this command answers; RulesError if it is not the one pending."""
    n = results.need(state)
    if n is None or n.kind != kind:
        waiting = f"the game waits for {n.kind}" if n is not None else "no combat is being resolved"
        raise reject(f"{c.type_name()} answers no pending choice ({waiting})", "wrong_phase")
    if c.player != n.player:
        raise reject(f"the {n.player} must decide this, not the {c.player}", "not_your_turn")
    return n


def _deploy(ctx: Ctx, c: cmd.Deploy) -> None:
    _setup(ctx.state, c)
    turn.deploy(ctx, c)


def _end_setup(ctx: Ctx, c: cmd.EndSetup) -> None:
    _setup(ctx.state, c)
    turn.end_setup(ctx)


def _setup(state: State, c: Command) -> None:
    if state.stage != "setup":
        raise reject("set-up is over", "wrong_phase")
    if c.player != ORKS:
        raise reject(
            "the Ork player sets up (the Imperial set-up is fixed, seed 003)", "not_your_turn"
        )


def _choose(ctx: Ctx, c: cmd.ChooseStrategy) -> None:
    if ctx.state.stage != "strategy":
        raise reject("strategy cards are chosen in the strategy segment", "wrong_phase")
    turn.choose(ctx, c)


def _move(ctx: Ctx, c: cmd.Move) -> None:
    _in_phase(ctx.state, c, "movement")
    movement.move(ctx, c)


def _attack(ctx: Ctx, c: cmd.Attack) -> None:
    _in_phase(ctx.state, c, "combat")
    combat.declare(ctx, c)


def _reroll(ctx: Ctx, c: cmd.Reroll) -> None:
    _decision(ctx.state, c, "reroll")
    combat.roll_crt(ctx, c.player, reroll=True)
    results.resolve(ctx)


def _keep(ctx: Ctx, c: cmd.KeepResult) -> None:
    _decision(ctx.state, c, "reroll")
    ctx.emit(ResultKept(player=c.player))
    results.resolve(ctx)


def _take_loss(ctx: Ctx, c: cmd.TakeLoss) -> None:
    n = _decision(ctx.state, c, "loss")
    if c.counter not in n.options:
        raise reject(
            f"{c.counter} cannot be taken as the loss in {n.area}; choose one of {', '.join(n.options)}",
            "bad_choice",
        )
    state = ctx.state
    assert state.combat is not None
    results.apply_loss(ctx, state.combat.steps[0], c.counter)
    results.resolve(ctx)


def _retreat(ctx: Ctx, c: cmd.Retreat) -> None:
    n = _decision(ctx.state, c, "retreat")
    if c.counter != n.counter:
        raise reject(f"{n.counter} retreats next, not {c.counter}", "bad_choice")
    if c.to not in n.options:
        raise reject(
            f"{c.counter} cannot retreat to {c.to}; it may go to {', '.join(n.options)}",
            "bad_choice",
        )
    results.apply_retreat(ctx, c.counter, n.area, c.to)
    results.resolve(ctx)


def _advance(ctx: Ctx, c: cmd.Advance) -> None:
    _decision(ctx.state, c, "advance")
    problem = results.advance_problem(ctx.state, list(c.counters))
    if problem is not None:
        raise reject(problem, "bad_choice")
    assert ctx.state.combat is not None
    ctx.emit(Advanced(counters=list(c.counters), to=ctx.state.combat.target))
    results.resolve(ctx)


def _build(ctx: Ctx, c: cmd.Build) -> None:
    _in_phase(ctx.state, c, "build")
    _imperial(c)
    build.build(ctx, c)


def _finish(ctx: Ctx, c: cmd.FinishBuilding) -> None:
    _in_phase(ctx.state, c, "build")
    _imperial(c)
    if ctx.state.build_step != "buy":
        raise reject("the production track has already moved this phase", "wrong_phase")
    build.finish_building(ctx)


def _place(ctx: Ctx, c: cmd.Place) -> None:
    _in_phase(ctx.state, c, "build")
    _imperial(c)
    build.place(ctx, c)


def _rebuild(ctx: Ctx, c: cmd.Rebuild) -> None:
    _in_phase(ctx.state, c, "build")
    if c.player != ORKS:
        raise reject(
            "Imperial counters are bought with build points (build), not rebuilt", "wrong_phase"
        )
    build.rebuild(ctx, c)


def _imperial(c: Command) -> None:
    if c.player != IMPERIALS:
        raise reject("the Orks rebuild (rebuild); build points are Imperial", "wrong_phase")


def _special(ctx: Ctx, c: cmd.PlaySpecial) -> None:
    _in_phase(ctx.state, c, "movement", "combat", "build")
    specials.play(ctx, c)


def _end_phase(ctx: Ctx, c: cmd.EndPhase) -> None:
    _in_phase(ctx.state, c, "movement", "combat", "build")
    turn.end_phase(ctx)


_HANDLERS: dict[type[Any], Callable[[Ctx, Any], None]] = {
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


def decide(state: State, command: Command, dice: Dice) -> list[Event]:
    """The events ``command`` causes; RulesError (``rules/...``) when the rules forbid it now."""
    _in_play(state, command)
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise reject(
            f"{type(command).__name__} is not a Battle for Armageddon command", "unknown_command"
        )
    ctx = Ctx(state, dice)
    handler(ctx, command)
    return ctx.events
