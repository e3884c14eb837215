"""The legal options of an empire: every command it may issue now, each one ``decide`` accepts."""

from __future__ import annotations

from warlog.domain.armageddon_empires.armies import legal_army_orders
from warlog.domain.armageddon_empires.capture import legal_hunts
from warlog.domain.armageddon_empires.challenge_moves import legal_answers
from warlog.domain.armageddon_empires.hand import legal_hand_plays
from warlog.domain.armageddon_empires.movement import legal_moves
from warlog.domain.armageddon_empires.repair import legal_repairs
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.armageddon_empires.stealth import legal_stealth_orders
from warlog.domain.armageddon_empires.turns import legal_turn_orders
from warlog.domain.core.procedure import Decision
from warlog.domain.core.ruleset import Command


def options(state: GameState, decision: Decision, player: str) -> list[Command]:
    """Initiative purchases in the initiative phase; a challenge's answers while one waits for
    the player; in the player's turn: deployments and the draw, hunts, moves to every reachable
    hex, stealth orders, repairs, army orders, and ending the turn (last)."""
    if decision.kind == "initiative":
        return list(legal_turn_orders(state, player))
    if decision.kind == "challenge":
        return legal_answers(state, player)
    return [
        *legal_hand_plays(state, player),
        *legal_hunts(state, player),
        *legal_moves(state, player),
        *legal_stealth_orders(state, player),
        *legal_repairs(state, player),
        *legal_army_orders(state, player),
        *legal_turn_orders(state, player),
    ]
