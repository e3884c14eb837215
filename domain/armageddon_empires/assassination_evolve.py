"""evolve for an assassination attempt's events (AE-71): applies only; ``assassination`` decides."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from warlog.domain.armageddon_empires import changes
from warlog.domain.armageddon_empires.assassination_events import (
    AssassinationBegan,
    AssassinationEnded,
    AssassinationFoiled,
)
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.events import Event
from warlog.domain.core.procedure import pop, push


def _attempted(state: GameState, empire: str, card: str, ap: int) -> GameState:
    """The empire's AP spent and ``card``'s attempt of this turn made (AE-71)."""
    emp = state.empires[empire]
    return changes.with_empire(
        state, replace(emp, ap=emp.ap - ap, assassins=(*emp.assassin_cards, card))
    )


def _began(state: GameState, e: AssassinationBegan) -> GameState:
    f = e.frame
    state = _attempted(state, f.empire, f.assassin, e.ap_cost)
    state = replace(state, frames=push(state.frames, f))
    return changes.see(state, f.target_empire, (f.assassin,))  # the attempt shows the assassin


def _foiled(state: GameState, e: AssassinationFoiled) -> GameState:
    state = _attempted(state, e.empire, e.card, e.ap_cost)
    seen = {a: s for a, s in state.sightings.get(e.empire, {}).items() if a != e.target_army}
    return replace(state, sightings={**state.sightings, e.empire: seen})


def _ended(state: GameState, e: AssassinationEnded) -> GameState:
    f = e.frame
    state = replace(state, frames=pop(state.frames))
    if not e.wounds:
        return state
    if not e.killed:
        return replace(
            state, damage={**state.damage, f.target: state.damage.get(f.target, 0) + e.wounds}
        )
    state, left = changes.without_card(state, f.target)
    state = changes.discard(changes.forget_card(state, f.target), f.target)
    return changes.left_empty(state, left)


APPLY: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    AssassinationBegan: _began,
    AssassinationFoiled: _foiled,
    AssassinationEnded: _ended,
}
