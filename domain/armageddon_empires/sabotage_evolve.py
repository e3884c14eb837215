"""evolve for sabotage (p.29, p.45; AE-72): applies only; every check lives in ``sabotage.py``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from warlog.domain.armageddon_empires.changes import see, spend, with_empire
from warlog.domain.armageddon_empires.sabotage_events import SabotageBegan, SabotageEnded
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.events import Event
from warlog.domain.core.procedure import pop, push


def _sabotage_began(state: GameState, e: SabotageBegan) -> GameState:
    """The AP spent, the saboteur marked for this turn, the mission on the stack; the base's
    empire sees the saboteur card it faces (not its army, AE-72)."""
    f = e.frame
    state = spend(state, f.empire, e.ap_cost)
    emp = state.empires[f.empire]
    state = with_empire(state, replace(emp, sabotaged=(*emp.sabotaged_cards, f.saboteur)))
    state = replace(state, frames=push(state.frames, f))
    return see(state, f.target_empire, (f.saboteur,))


def _sabotage_ended(state: GameState, e: SabotageEnded) -> GameState:
    return replace(state, frames=pop(state.frames))


APPLY: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    SabotageBegan: _sabotage_began,
    SabotageEnded: _sabotage_ended,
}
