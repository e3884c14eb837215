"""The legal options of an empire: every command it may issue now, each one ``decide`` accepts."""

from __future__ import annotations

from warlog.domain.armageddon_empires.armies import legal_army_orders
from warlog.domain.armageddon_empires.hand import legal_hand_plays
from warlog.domain.armageddon_empires.movement import legal_moves
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.armageddon_empires.turns import legal_turn_orders
from warlog.domain.core.procedure import Decision
from warlog.domain.core.ruleset import Command


def options(state: GameState, decision: Decision, player: str) -> list[Command]:
    """Initiative purchases in the initiative phase; in the player's turn: deployments and the
    draw, moves to every reachable hex, army orders, and ending the turn (last)."""
    if decision.kind == "initiative":
        return list(legal_turn_orders(state, player))
    return [
        *legal_hand_plays(state, player),
        *legal_moves(state, player),
        *legal_army_orders(state, player),
        *legal_turn_orders(state, player),
    ]
