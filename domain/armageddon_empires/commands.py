"""The commands an empire issues, one JSON object each, tagged by ``type`` (imperative names)."""

from __future__ import annotations

from typing import Annotated, Union

import msgspec

from warlog.domain.core.ruleset import Command
from warlog.domain.core.seal import Hidden

ArmyName = Annotated[str, msgspec.Meta(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$")]


class BuyInitiative(Command, frozen=True, tag="buy_initiative"):
    """Buy ``count`` initiative dice for this round (0 allowed); both pools roll once every
    empire has bought (manual p.22; R1; AE-3)."""

    count: Annotated[int, msgspec.Meta(ge=0), Hidden(owner="player")]


class EndTurn(Command, frozen=True, tag="end_turn"):
    """End this empire's turn; unspent AP is lost (R10)."""


class CreateArmy(Command, frozen=True, tag="create_army"):
    """Create the empty army ``army`` in hex ``at``, which holds one of the empire's strongholds
    or outposts (3 AP, manual p.10)."""

    army: ArmyName
    at: str


class DisbandArmy(Command, frozen=True, tag="disband_army"):
    """Disband the empty army ``army`` at one of the empire's strongholds or outposts (p.23)."""

    army: str


class TransferCards(Command, frozen=True, tag="transfer_cards"):
    """Move ``cards`` (heroes, units) from ``from_army`` to ``to_army`` in the same hex."""

    from_army: str
    to_army: str
    cards: Annotated[tuple[str, ...], msgspec.Meta(min_length=1, max_length=9)]


class MoveArmy(Command, frozen=True, tag="move_army"):
    """Move ``army`` to hex ``to`` along the cheapest path its movement points allow (p.23)."""

    army: str
    to: str


class DrawCard(Command, frozen=True, tag="draw_card"):
    """Draw a card at random from the deck into the hand (AE-6)."""


class DeployCard(Command, frozen=True, tag="deploy_card"):
    """Deploy ``card`` from the hand at ``base``: a hero or unit into its garrison, a facility
    into a free facility slot (p.18, p.22, p.48)."""

    card: str
    base: str


COMMAND_TYPES: tuple[type[Command], ...] = (
    BuyInitiative,
    EndTurn,
    CreateArmy,
    DisbandArmy,
    TransferCards,
    MoveArmy,
    DrawCard,
    DeployCard,
)

AnyCommand = Union[  # noqa: UP007 - a typing.Union value for msgspec decoding
    BuyInitiative,
    EndTurn,
    CreateArmy,
    DisbandArmy,
    TransferCards,
    MoveArmy,
    DrawCard,
    DeployCard,
]
