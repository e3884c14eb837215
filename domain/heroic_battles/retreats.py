"""Retreating (pp.47–48, 59–60) as a procedure, one unit or hero after the other:

a unit on its last stamina point (or Brittle with 2 or less, p.68) tests or breaks (HB-32); then
its owner declares what the ½ ST move straight back runs into (HB-11): nothing; a friendly unit,
pushed back, both testing or losing 1 stamina (a Steadfast unit does not test, p.70); enemy
troops, impassable terrain or a combat, stopping a Blade's Length away and losing 1 stamina; or
the table edge, leaving the table destroyed.
"""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, reject
from warlog.domain.core.procedure import Decision, Step
from warlog.domain.heroic_battles import casualties, command_test, pieces, rulings, tables
from warlog.domain.heroic_battles import commands as cmd
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.state import GameState, Hero, RetreatFrame, Unit
from warlog.domain.heroic_battles.values import PendingTest, RetreatOrder


def must_test(unit: Unit) -> bool:
    """A unit retreating on its last stamina point (Brittle: 2 or less) tests or breaks (HB-32)."""
    return rulings.break_test(unit.stamina, pieces.has(unit, "brittle"))


def friends(state: GameState, pid: str) -> list[Unit]:
    """The friendly units a retreat may run into: on the table, not the retreater, not in a
    melee (retreating into a combat is ``blocked``)."""
    p = pieces.find(state, pid)
    return [
        u
        for u in state.units.values()
        if u.force == p.force and not u.gone and u.id != pid and not pieces.in_melee(state, u.id)
    ]


def retreat_next(state: GameState, frame: RetreatFrame) -> Decision | Step:
    order = frame.orders[0]
    p = pieces.piece(state, order.unit)
    if p is None or p.gone:
        return lambda batch: batch.emit(ev.RetreatCancelled(unit=order.unit))
    if order.stage == "start":
        return lambda batch: _start(batch, order)
    options = ("clear", "blocked", "off_table", *(f"friends:{u.id}" for u in friends(state, p.id)))
    return Decision(
        players=(p.force,),
        kind="retreat",
        answers=("declare_retreat",),
        waiting=f"{p.force} to declare what the retreat of {p.id} runs into",
        procedure="retreat",
        options=options,
        about={"unit": p.id, "distance": tables.half_st(order.half_st)},
    )


def _start(batch: Batch[GameState], order: RetreatOrder) -> None:
    batch.emit(ev.RetreatBegan(unit=order.unit, half_st=order.half_st))
    unit = batch.state.units.get(order.unit)
    if unit is not None and must_test(unit):
        reason = (
            "Brittle, retreating with 2 stamina or less"
            if unit.stamina > tables.LAST_STAMINA
            else "retreating on its last stamina point"
        )
        rough = command_test.in_rough(batch.state, unit.id)
        test = command_test.pending(batch.state, unit, "break", [reason], rough=rough)
        command_test.call(batch, [test])


def declare_problem(state: GameState, c: cmd.DeclareRetreat) -> RulesError | None:
    frame = state.frames[-1]
    assert isinstance(frame, RetreatFrame)
    order = frame.orders[0]
    if c.unit != order.unit:
        return reject(f"{order.unit} retreats now, not {c.unit}", "bad_choice")
    if c.into not in rulings.RETREAT_OUTCOMES:  # pragma: no cover - the Literal refuses it
        return reject(f"a retreat runs into {', '.join(rulings.RETREAT_OUTCOMES)}", "bad_choice")
    if c.into == "friends":
        allowed = {u.id for u in friends(state, c.unit)}
        if c.friend not in allowed:
            return reject(
                f"{c.friend or 'no friend'} is not a friendly unit {c.unit} can retreat into "
                "(enemy troops, impassable terrain or a unit in a melee block the retreat: "
                "declare 'blocked'; HB-11)",
                "bad_retreat",
            )
    elif c.friend:
        return reject("a friend is named only for a retreat into friends", "bad_retreat")
    if c.rough:
        if c.into != "friends":
            return reject(
                "rough terrain is declared only for a retreat into friends, whose units then "
                "test (HB-36)",
                "bad_retreat",
            )
        testers = {c.unit} if c.unit in state.units else set()
        friend = state.units.get(c.friend)
        if friend is not None and not pieces.has(friend, "steadfast"):
            testers.add(friend.id)
        strangers = [u for u in c.rough if u not in testers]
        if strangers:
            return reject(
                f"{', '.join(strangers)} takes no test in this retreat (a hero never tests, a "
                "Steadfast unit retreated into does not): rough terrain is declared only for a "
                "unit that tests (HB-36)",
                "bad_retreat",
            )
    return None


def declare(batch: Batch[GameState], c: cmd.DeclareRetreat) -> None:
    state = batch.state
    problem = declare_problem(state, c)
    if problem is not None:
        raise problem
    command_test.check_rough_declared(state, bool(c.rough), "a retreat into friends")
    frame = state.frames[-1]
    assert isinstance(frame, RetreatFrame)
    order = frame.orders[0]
    p = pieces.find(state, c.unit)
    batch.emit(ev.UnitRetreated(unit=c.unit, half_st=order.half_st, into=c.into, friend=c.friend))
    if c.into == "friends":
        tests: list[PendingTest] = []
        reason = f"{c.unit} retreated into {c.friend}"
        if isinstance(p, Unit):
            rough = p.id in c.rough
            tests.append(
                command_test.pending(batch.state, p, "retreated_into", [reason], rough=rough)
            )
        friend = batch.state.units[c.friend]
        if not pieces.has(friend, "steadfast"):
            rough = friend.id in c.rough
            tests.append(
                command_test.pending(batch.state, friend, "retreated_into", [reason], rough=rough)
            )
        command_test.call(batch, tests)
    elif c.into == "blocked":
        casualties.lose_stamina(
            batch,
            c.unit,
            tables.RETREAT_BLOCKED_STAMINA,
            f"its retreat was blocked: it stops a Blade's Length away ({tables.RETREATING})",
            "retreat",
            "",
        )
    elif c.into == "off_table":
        reason = f"it retreated off the table ({tables.RETREATING})"
        if isinstance(p, Hero):
            casualties.kill_hero(batch, p.id, "retreat", "")
        else:
            casualties.remove_unit(batch, p.id, reason, "fled")
