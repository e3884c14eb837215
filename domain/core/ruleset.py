"""The ruleset protocol: what the rule-agnostic application needs from a set of rules.

A ruleset is a value (an instance of a class providing these members) registered by name in
``domain.rulesets``. It is handed to the application; ``eventstore/`` never imports a ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

import msgspec

from warlog.domain.core.dice import Dice
from warlog.domain.core.events import Event


class Command(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    forbid_unknown_fields=True,
    omit_defaults=True,
):
    """Base of every command: who issues it and, in a manual-dice game, the faces it rolls."""

    player: str
    dice: tuple[int, ...] = ()

    @classmethod
    def type_name(cls) -> str:
        return str(cls.__struct_config__.tag)


class Notice(msgspec.Struct, frozen=True):
    """An entry of the in-game Events view (R9): shown to ``empire`` for ``duration`` rounds."""

    empire: str
    text: str
    duration: int = 1


class Ruleset(Protocol):
    """The rules of one game. Every method is pure: no I/O, no clock, no ``random``."""

    name: ClassVar[str]
    version: ClassVar[str]
    #: the ruleset's own event classes (core events are added by the engine)
    event_types: ClassVar[tuple[type[Event], ...]]
    #: the msgspec tagged union of its commands, for decoding
    command_type: ClassVar[Any]
    #: the Struct type of its state, for snapshots
    state_type: ClassVar[type]
    #: the importable package holding its bundled ``*.toml`` scenarios
    scenario_package: ClassVar[str]
    #: the bundled scenario ``new`` uses when none is named
    default_scenario: ClassVar[str]

    def parse_scenario(self, data: bytes) -> Any:
        """Decode TOML bytes into the typed scenario; InputError names the bad field's path."""
        ...

    def scenario_from_builtins(self, obj: dict[str, Any]) -> Any:
        """The typed scenario from its recorded (JSON) form in ``game_created``."""
        ...

    def players(self, scenario: Any) -> list[str]:
        """The players (empires, sides) of a scenario, in seat order."""
        ...

    def initial_state(self, scenario: Any) -> Any:
        """The state before the first command."""
        ...

    def decide(self, state: Any, command: Any, dice: Dice) -> list[Event]:
        """The events the command causes; raises RulesError (exit 3) when it is illegal."""
        ...

    def evolve(self, state: Any, event: Event) -> Any:
        """The state after the event. Applies only; every check belongs to ``decide``."""
        ...

    def legal_commands(self, state: Any, player: str) -> Sequence[Any]:
        """Commands ``player`` may issue now (those that roll carry no dice)."""
        ...

    def is_terminal(self, state: Any) -> bool: ...

    def view(self, state: Any, player: str | None) -> dict[str, Any]:
        """The state as ``player`` sees it (None: the referee's full view), as JSON builtins
        (lists, not tuples: ``msgspec.to_builtins`` keeps tuples, so round-trip through JSON)."""
        ...

    def visible_event(self, event: Event, player: str) -> Event | None:
        """The event as ``player`` may see it: itself, a redacted copy, or None (left out).

        Called for every event, the engine's own too: a ``command_issued`` or ``dice_rolled``
        may carry what the other side must not see (a secret choice, the die that drew a card).
        """
        ...

    def notices(self, before: Any, after: Any, event: Event) -> list[Notice]:
        """Events-view entries the event posts (R9)."""
        ...

    def round_of(self, state: Any) -> int:
        """The current round of turns (1-based), the clock of the Events view."""
        ...

    def is_round_start(self, event: Event) -> bool:
        """True for the event that begins a round (snapshots are taken there)."""
        ...

    def active_players(self, state: Any) -> list[str]:
        """Who may act now (for ``legal`` without ``--player``)."""
        ...
