"""evolve for the air war (p.19, p.30–31): applies only; every check lives in ``air_strike.py``
and the modules it names."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from warlog.domain.armageddon_empires import changes
from warlog.domain.armageddon_empires.air_events import (
    AirStrikeAdvanced,
    AirStrikeEnded,
    AirStrikeLaunched,
    AirStrikeLaunchedSealed,
    AirTargetPicked,
    InterceptAnswered,
)
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.events import Event
from warlog.domain.core.procedure import pop, push, replace_top


def _face_up(state: GameState, card: str) -> GameState:
    for other in state.seats:  # an attack card is played face up (p.30)
        state = changes.see(state, other, (card,))
    return state


def _launched(state: GameState, e: AirStrikeLaunched) -> GameState:
    s = e.strike
    emp = state.empires[s.empire]
    emp = replace(emp, ap=emp.ap - e.ap_cost, resources=emp.resources.minus(e.paid))
    state = changes.with_empire(state, emp)
    state = replace(state, frames=push(state.frames, s), air_strikes=s.number)
    state = _face_up(state, s.card)
    return _face_up(state, s.munition) if s.munition else state


def _intercept_answered(state: GameState, e: InterceptAnswered) -> GameState:
    state = replace(state, frames=replace_top(state.frames, e.strike))
    if e.card is None:
        return state
    emp = state.empires[e.empire]
    if e.owed:
        emp = replace(emp, ap_owed=emp.ap_owed + e.ap_cost)
    else:
        emp = replace(emp, ap=emp.ap - e.ap_cost)
    state = changes.with_empire(state, replace(emp, resources=emp.resources.minus(e.paid)))
    return _face_up(state, e.card)


def _advanced(state: GameState, e: AirStrikeAdvanced | AirTargetPicked) -> GameState:
    return replace(state, frames=replace_top(state.frames, e.strike))


def _ended(state: GameState, e: AirStrikeEnded) -> GameState:
    state = replace(state, frames=pop(state.frames))
    munition = e.strike.munition
    if munition:  # spent whether or not it hit (p.31; AE-44)
        state, _ = changes.without_card(state, munition)
        state = changes.discard(state, munition)
    if not e.spent:
        return state
    state, _ = changes.without_card(state, e.strike.card)
    return changes.discard(state, e.strike.card)


APPLY: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    AirStrikeLaunched: _launched,
    AirStrikeLaunchedSealed: _launched,
    InterceptAnswered: _intercept_answered,
    AirStrikeAdvanced: _advanced,
    AirTargetPicked: _advanced,
    AirStrikeEnded: _ended,
}
