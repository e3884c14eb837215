"""evolve for collateral damage and WMD (p.31–32): applies only; every check lives in
``fallout.py``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from warlog.domain.armageddon_empires import changes
from warlog.domain.armageddon_empires.fallout_events import (
    CollateralRolled,
    FalloutHit,
    FalloutSuffered,
    WmdDetonated,
)
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.events import Event
from warlog.domain.core.procedure import replace_top


def _collateral_rolled(state: GameState, e: CollateralRolled) -> GameState:
    hit = tuple(r.army for r in e.rolls if r.hit)
    return replace(state, frames=replace_top(state.frames, e.strike), collateral=hit)


def _is_base_card(state: GameState, card: str) -> bool:
    return any(b.card == card for b in state.bases.values())


def _open_hit(state: GameState, hit: FalloutHit) -> GameState:
    """A facility's result, in the open (bases are public); a base's own card is razed by the
    ``base_razed`` that follows (AE-34)."""
    if not hit.destroyed:
        if not hit.taken:
            return state
        # since version 12 ``total`` is the open part alone (fallout._in_the_open)
        return replace(
            state, damage={**state.damage, hit.card: state.damage.get(hit.card, 0) + hit.taken}
        )
    if _is_base_card(state, hit.card):
        return state
    state, _ = changes.without_card(state, hit.card)
    return changes.discard(state, hit.card)


def _detonated(state: GameState, e: WmdDetonated) -> GameState:
    for card in e.destroyed:
        if not _is_base_card(state, card):
            state, _ = changes.without_card(state, card)
            state = changes.discard(state, card)
    for hit in e.hits:
        state = _open_hit(state, hit)
    return state


def _suffered(state: GameState, e: FalloutSuffered) -> GameState:
    for hit in e.hits:
        if hit.destroyed:
            state = changes.hidden_loss(state, hit.card)
        else:
            state = changes.hidden_damage(state, hit.card, hit.taken, hit.total)
    if e.kind == "collateral" and state.collateral:
        state = replace(state, collateral=())
    return state


APPLY: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    CollateralRolled: _collateral_rolled,
    WmdDetonated: _detonated,
    FalloutSuffered: _suffered,
}
