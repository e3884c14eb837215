"""decide: the events a command causes, or RulesError. Pure; never touches the state it reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from warlog.domain.armageddon_empires import armies, hand, movement, turns
from warlog.domain.armageddon_empires.commands import (
    BuyInitiative,
    CreateArmy,
    DeployCard,
    DisbandArmy,
    DrawCard,
    EndTurn,
    MoveArmy,
    TransferCards,
)
from warlog.domain.armageddon_empires.guards import require_empire
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.dice import Dice
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import Event

_DECIDE: dict[type, Callable[[GameState, Any, Dice], list[Event]]] = {
    BuyInitiative: turns.decide_buy,
    EndTurn: turns.decide_end_turn,
    CreateArmy: lambda s, c, d: armies.decide_create(s, c),
    DisbandArmy: lambda s, c, d: armies.decide_disband(s, c),
    TransferCards: lambda s, c, d: armies.decide_transfer(s, c),
    MoveArmy: movement.decide_move,
    DrawCard: hand.decide_draw,
    DeployCard: lambda s, c, d: hand.decide_deploy(s, c),
}


def decide(state: GameState, command: Any, dice: Dice) -> list[Event]:
    """The events ``command`` causes (its ``command_issued`` is the engine's).

    Raises RulesError (exit 3) with a ``rules/…`` code when the rules forbid it now, and
    InputError for a command of another ruleset.
    """
    handler = _DECIDE.get(type(command))
    if handler is None:
        raise InputError(f"not an Armageddon Empires command: {command!r}", "input/bad_command")
    require_empire(state, command.player)
    return handler(state, command, dice)
