"""Commands: every choice the rules give a player, as a tagged, frozen msgspec Struct.

JSON examples::

    {"type": "choose_strategy", "player": "orks", "cards": ["movement-combat", "combat-build"]}
    {"type": "move", "player": "orks", "counter": "goffs-boyz-1", "to": "stygies_gorge"}
    {"type": "attack", "player": "orks", "target": "acheron", "stacks": ["death_mire"]}
    {"type": "take_loss", "player": "imperials", "counter": "ig-3"}
    {"type": "retreat", "player": "imperials", "counter": "hdf-3", "to": "hemlock_valley"}
    {"type": "advance", "player": "orks", "counters": ["goffs-boyz-1"]}
"""

from typing import Annotated, Union

from warlog.domain.core.ruleset import Command
from warlog.domain.core.seal import Hidden


class Deploy(Command, frozen=True, tag="deploy"):
    """Set-up: the Ork player places one of his counters in an area of Ork Territory."""

    counter: str
    to: str


class EndSetup(Command, frozen=True, tag="end_setup"):
    """Set-up is over: hands are dealt and turn 1 begins."""


class ChooseStrategy(Command, frozen=True, tag="choose_strategy"):
    """Strategy segment: two strategy cards, in the order they will be played (sealed for the
    opponent)."""

    cards: Annotated[list[str], Hidden(owner="player")]


class Move(Command, frozen=True, tag="move"):
    """Movement phase: one counter moves to an area within its Move."""

    counter: str
    to: str


class Attack(Command, frozen=True, tag="attack"):
    """Combat phase: the stacks in ``stacks`` (areas adjacent to ``target``) attack it together."""

    target: str
    stacks: list[str]


class Reroll(Command, frozen=True, tag="reroll"):
    """Ghazghkull or Dante in the combat: roll the CRT die again (the new result stands)."""


class KeepResult(Command, frozen=True, tag="keep_result"):
    """Decline the reroll the leader allows."""


class TakeLoss(Command, frozen=True, tag="take_loss"):
    """The owner picks which counter of the stack is lost."""

    counter: str


class Retreat(Command, frozen=True, tag="retreat"):
    """A retreating counter goes one area, to ``to``."""

    counter: str
    to: str


class Advance(Command, frozen=True, tag="advance"):
    """After EX, DW, DR or DE: up to 3 attacking counters with Move 2+ enter the vacated area
    (an empty list stays put)."""

    counters: list[str]


class Build(Command, frozen=True, tag="build"):
    """Imperial build phase: buy a counter (set aside or destroyed) onto the production track."""

    counter: str


class FinishBuilding(Command, frozen=True, tag="finish_building"):
    """Imperial build phase: stop buying (unspent points are lost); the track moves on."""


class Place(Command, frozen=True, tag="place"):
    """Imperial build phase: a READY counter goes onto a hive or factory."""

    counter: str
    to: str


class Rebuild(Command, frozen=True, tag="rebuild"):
    """Ork build phase: a destroyed counter returns on a garrisoned ruin or an Ork supply area."""

    counter: str
    to: str


class PlaySpecial(Command, frozen=True, tag="play_special"):
    """Play a special card from the hand; ``area`` and ``counter`` when its effect needs them."""

    card: str
    area: str = ""
    counter: str = ""


class EndPhase(Command, frozen=True, tag="end_phase"):
    """The phasing player is done with the current phase."""


BfaCommand = Union[  # noqa: UP007 - msgspec decodes a typing.Union of tagged Structs
    Deploy,
    EndSetup,
    ChooseStrategy,
    Move,
    Attack,
    Reroll,
    KeepResult,
    TakeLoss,
    Retreat,
    Advance,
    Build,
    FinishBuilding,
    Place,
    Rebuild,
    PlaySpecial,
    EndPhase,
]
COMMAND_TYPES: tuple[type[Command], ...] = BfaCommand.__args__  # type: ignore[attr-defined]
