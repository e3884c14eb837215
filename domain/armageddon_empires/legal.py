"""legal_commands: every command an empire may issue now, each one ``decide`` accepts."""

from __future__ import annotations

from warlog.domain.armageddon_empires.armies import legal_army_orders
from warlog.domain.armageddon_empires.hand import legal_hand_plays
from warlog.domain.armageddon_empires.movement import legal_moves
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.armageddon_empires.turns import legal_turn_orders
from warlog.domain.armageddon_empires.victory import is_terminal
from warlog.domain.core.ruleset import Command


def legal_commands(state: GameState, player: str) -> list[Command]:
    """Initiative purchases in the initiative phase; in the player's turn: deployments and the
    draw, moves to every reachable hex, army orders, and ending the turn (last)."""
    if is_terminal(state) or player not in state.empires:
        return []
    turn = legal_turn_orders(state, player)
    if state.phase != "turns" or state.current != player:
        return list(turn)
    return [
        *legal_hand_plays(state, player),
        *legal_moves(state, player),
        *legal_army_orders(state, player),
        *turn,
    ]


def active_players(state: GameState) -> list[str]:
    """Who may act now: the empires still to buy initiative, or the one whose turn it is."""
    if is_terminal(state):
        return []
    if state.phase == "initiative":
        return [e for e in state.seats if e not in state.bids]
    return [state.current] if state.current else []
