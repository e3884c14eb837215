"""evolve for a card's creation (AE-73): applies only; ``research`` decides."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from warlog.domain.armageddon_empires import changes
from warlog.domain.armageddon_empires.cards import CardInstance
from warlog.domain.armageddon_empires.research_events import ResearchAttempted
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.events import Event


def _attempted(state: GameState, e: ResearchAttempted) -> GameState:
    """The price paid, the hero's attempt of this turn made, his challenge counted (no fate
    spent in it), and the card created into the hand."""
    emp = state.empires[e.empire]
    emp = replace(
        emp,
        ap=emp.ap - e.ap_cost,
        resources=emp.resources.minus(e.paid),
        researched=(*emp.researchers, e.hero),
    )
    state = replace(changes.with_empire(state, emp), challenges=e.challenge.number)
    if e.created is None:
        return state
    instances = {**state.instances, e.created: CardInstance(card=e.card, owner=e.empire)}
    state = replace(state, instances=instances)
    emp = state.empires[e.empire]
    state = changes.with_empire(state, replace(emp, hand=(*emp.hand, e.created)))
    return changes.see(state, e.empire, (e.created,))


APPLY: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    ResearchAttempted: _attempted,
}
