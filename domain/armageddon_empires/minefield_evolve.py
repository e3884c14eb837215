"""evolve for minefields (AE-52..AE-55, AE-67): the army's losses, what its empire now knows,
the minefield's own loss or removal (an independent one's kept out of play for the empires
that knew it), and the minefields Engineers lay and lift. Applies only; every check lives in
``minefields.py`` and ``engineers.py``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from warlog.domain.armageddon_empires import changes
from warlog.domain.armageddon_empires.cards import INDEPENDENT
from warlog.domain.armageddon_empires.minefield_events import (
    MinefieldLaid,
    MinefieldLifted,
    MinefieldsChecked,
    MinefieldsReported,
)
from warlog.domain.armageddon_empires.state import GameState, Minefield
from warlog.domain.core.events import Event


def _checked(state: GameState, e: MinefieldsChecked) -> GameState:
    attack = e.attack
    if attack is None:
        return state
    mine = state.minefields[attack.minefield]
    if attack.independent is True and attack.removed:  # AE-67: it knows it spent
        state = _forgotten(state, mine, e.empire)
    elif e.empire not in mine.known_to:
        mine = replace(mine, known_to=(*mine.known_to, e.empire))
        state = replace(state, minefields={**state.minefields, mine.id: mine})
    state = changes.see(state, e.empire, (attack.card,))
    for challenge in attack.challenges:
        if not challenge.damage:
            continue
        if not challenge.destroyed:
            state = changes.hidden_damage(state, challenge.card, challenge.damage, challenge.total)
            continue
        state = changes.hidden_loss(state, challenge.card)  # face down (AE-49, AE-53)
    return state


def _reported(state: GameState, e: MinefieldsReported) -> GameState:
    loss = e.loss
    if loss is None:
        return state
    if not loss.removed:
        if not loss.lost:
            return state
        return replace(state, damage={**state.damage, loss.card: loss.total})
    if e.controller == INDEPENDENT:  # AE-67: out of play; who knew it keeps it in view
        return _out_of_play(state, state.minefields[loss.minefield])
    minefields = {k: m for k, m in state.minefields.items() if k != loss.minefield}
    return changes.discard(replace(state, minefields=minefields), loss.card)


def _out_of_play(state: GameState, mine: Minefield) -> GameState:
    """An independent minefield spent or lifted (AE-67): kept, marked removed, its card out of
    play with it, no damage kept."""
    mine = replace(mine, removed=True)
    damage = {c: d for c, d in state.damage.items() if c != mine.card}
    return replace(state, minefields={**state.minefields, mine.id: mine}, damage=damage)


def _forgotten(state: GameState, mine: Minefield, empire: str) -> GameState:
    """``empire`` knows the independent minefield ``mine`` gone (AE-67): its army spent it or
    its Engineers lifted it; it leaves that empire's view."""
    known = tuple(k for k in mine.known_to if k != empire)
    return replace(state, minefields={**state.minefields, mine.id: replace(mine, known_to=known)})


def _laid(state: GameState, e: MinefieldLaid) -> GameState:
    state = changes.spend(state, e.empire, e.ap_cost)
    state, _ = changes.without_card(state, e.card)
    mine = Minefield(e.minefield, e.empire, e.at, e.card)
    return replace(state, minefields={**state.minefields, mine.id: mine})


def _lifted(state: GameState, e: MinefieldLifted) -> GameState:
    state = changes.spend(state, e.empire, e.ap_cost)
    gone = e.lifted_by.minefield
    if e.controller == INDEPENDENT:  # AE-67: whether or not the other empire's spent it
        state = _out_of_play(state, state.minefields[gone])
        return _forgotten(state, state.minefields[gone], e.empire)
    minefields = {k: m for k, m in state.minefields.items() if k != gone}
    return changes.discard(replace(state, minefields=minefields), e.lifted_by.card)


APPLY: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    MinefieldsChecked: _checked,
    MinefieldsReported: _reported,
    MinefieldLaid: _laid,
    MinefieldLifted: _lifted,
}
