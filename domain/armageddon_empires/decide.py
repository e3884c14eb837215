"""The handlers of the commands: each checks what only it can check and emits its events.

Whose turn it is and which phase the round is in are checked before a handler runs, once, by the
core (``Rules.admit``, from ``decisions.py``). Pure; never touches the state it reads.
"""

from __future__ import annotations

from collections.abc import Mapping
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
from warlog.domain.core.rules import Handler

#: every command of Armageddon Empires and its handler
HANDLERS: Mapping[type[Any], Handler] = {
    BuyInitiative: turns.buy_initiative,
    EndTurn: turns.end_turn,
    CreateArmy: armies.create_army,
    DisbandArmy: armies.disband_army,
    TransferCards: armies.transfer_cards,
    MoveArmy: movement.move_army,
    DrawCard: hand.draw_card,
    DeployCard: hand.deploy_card,
}
