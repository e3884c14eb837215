"""The ruleset seam: what the rule-agnostic application needs from a set of rules.

``Ruleset[S, C]`` is the protocol, generic over the ruleset's state ``S`` and command ``C``; the
application, the audit, the fold and the projections are written against it, and mypy checks
every ruleset registered (``RULESET: Ruleset[GameState, AnyCommand] = ...``) and every user.
Most of a ruleset's members are derived once for all in ``domain/core/rules.py``'s ``Rules``
base; a ruleset writes its scenario, state, commands, events, ``evolve``, the handlers of its
commands, what comes next (``next``), its legal options and its views.
"""

from collections.abc import Sequence
from typing import Annotated, Any, ClassVar, Protocol, TypeVar

import msgspec

from warlog.domain.core.dice import Dice
from warlog.domain.core.events import Event
from warlog.domain.core.invariants import Violation
from warlog.domain.core.procedure import Decision
from warlog.domain.core.seal import Hidden
from warlog.domain.core.summary import Summary

S = TypeVar("S")
C = TypeVar("C")


class Command(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    forbid_unknown_fields=True,
    omit_defaults=True,
):
    """Base of every command: who issues it and, in a manual-dice game, the faces it rolls.

    The faces a referee types are sealed from every player (``Hidden()``): they may have picked
    something secret, and each roll is shown to the players as its own ``dice_rolled`` event.
    """

    player: str
    dice: Annotated[tuple[int, ...], Hidden()] = ()

    @classmethod
    def type_name(cls) -> str:
        return str(cls.__struct_config__.tag)


class Notice(msgspec.Struct, frozen=True):
    """An entry of the in-game Events view (R9): shown to ``empire`` for ``duration`` rounds."""

    empire: str
    text: str
    duration: int = 1


def notify(players: Sequence[str], text: str, duration: int = 1) -> list[Notice]:
    """The same Events-view entry for each of ``players`` (news everyone at the table sees)."""
    return [Notice(empire=p, text=text, duration=duration) for p in players]


class Ruleset(Protocol[S, C]):
    """The rules of one game. Every method is pure: no I/O, no clock, no ``random``."""

    name: ClassVar[str]
    version: ClassVar[str]
    #: the earlier versions this warlog still plays, for the games begun under them
    kept_versions: ClassVar[tuple[str, ...]]
    #: the ruleset's own event classes (core events are added by the engine)
    event_types: ClassVar[tuple[type[Event], ...]]
    #: the tags of those of its events that ``evolve`` leaves the state unchanged (a report for
    #: the players whose outcome another event applies): a replay skips them unread
    inert_events: ClassVar[frozenset[str]]
    #: the msgspec tagged union of its commands, for decoding
    command_type: ClassVar[Any]
    #: the Struct type of its state, for snapshots
    state_type: ClassVar[type]
    #: the importable package holding its bundled ``*.toml`` scenarios
    scenario_package: ClassVar[str]
    #: the bundled scenario ``new`` uses when none is named
    default_scenario: ClassVar[str]
    #: the game's own words for its clock and its players ("round"/"turn", "empire"/"side")
    round_word: ClassVar[str]
    seat_word: ClassVar[str]
    #: the keys of its ``view`` that say what the game waits for: a replay shows them, between
    #: two events of one command's batch, as that batch found them (the game waits for nothing
    #: new until the batch ends)
    decision_keys: ClassVar[tuple[str, ...]]
    #: the command types whose legal list is complete: every command of such a type the rules
    #: accept now is one ``legal_commands`` lists (compared as JSON, a field given its default
    #: the same as one left out; ``warlog fuzz`` never gives a command ``dice``), so one
    #: accepted though not listed is a bug in ``decide`` or in ``legal_commands`` (``warlog
    #: fuzz`` checks it); a type whose legal list offers only some accepted forms (a declared
    #: measure, one of interchangeable counters, a list in any order) is left out
    complete_legal: ClassVar[frozenset[str]]

    def parse_scenario(self, data: bytes) -> Any:
        """Decode TOML bytes into the typed scenario; InputError names the bad field's path."""
        ...

    def scenario_from_builtins(self, obj: dict[str, Any]) -> Any:
        """The typed scenario from its recorded (JSON) form in ``game_created``."""
        ...

    def players(self, scenario: Any) -> list[str]:
        """The players (empires, sides) of a scenario, in seat order."""
        ...

    def initial_state(self, scenario: Any) -> S:
        """The state before the first command."""
        ...

    def recorded_scenario(self, scenario: Any) -> dict[str, Any]:
        """The typed scenario as ``game_created`` records it (JSON builtins): what
        ``scenario_from_builtins`` reads back and the paths of ``hidden_setup`` point into."""
        ...

    def hidden_setup(self, scenario: Any) -> list[tuple[str, str | None]]:
        """The secrets of the recorded scenario (sealed in ``game_created``): ``(path inside its
        recorded form, ``recorded_scenario``, the player entitled to it or None)``, e.g.
        ``("empires.0.hand", "red")``."""
        ...

    def begin(self, state: S, dice: Dice) -> list[Event]:
        """The events that open a game, in ``game_created``'s batch (a deal of secret starting
        hands); the dice derive from the game's key in both dice modes."""
        ...

    def decide(self, state: S, command: C, dice: Dice) -> list[Event]:
        """The events the command causes; InputError for an unknown player, RulesError (exit 3)
        when the rules reject it now."""
        ...

    def evolve(self, state: S, event: Event) -> S:
        """The state after the event. Applies only; every check belongs to ``decide``."""
        ...

    def decision(self, state: S) -> Decision | None:
        """What the game waits for now; None once it is over."""
        ...

    def legal_commands(self, state: S, player: str) -> Sequence[C]:
        """Commands ``player`` may issue now (those that roll carry no dice); InputError for an
        unknown player."""
        ...

    def is_terminal(self, state: S) -> bool: ...

    def result(self, state: S) -> str:
        """How the game ended, in a phrase; "" while it goes on."""
        ...

    def active_players(self, state: S) -> list[str]:
        """Who must act now (for ``legal`` without a player)."""
        ...

    def invariants(self, state: S) -> list[Violation]:
        """What ``state`` (at rest: after a whole command's batch) breaks of what must always
        hold, each broken invariant named; empty when all hold."""
        ...

    def at_version(self, version: str) -> "Ruleset[Any, Any] | None":
        """This ruleset as it was at ``version`` (the one a game's ``game_created`` records), if
        this warlog still plays it: a game plays on, and its log is re-derived, under the rules
        it began with. None for a version it no longer knows."""
        ...

    def check_player(self, state: S, player: str) -> None:
        """InputError (``input/unknown_player``) unless ``player`` plays this game."""
        ...

    def choose(self, state: S, player: str, legal: Sequence[C]) -> C:
        """The ruleset's deterministic autoplay policy: one of ``legal`` (not empty) for
        ``player`` (the demo, recorded fixtures and benchmarks play with it)."""
        ...

    def view(self, state: S, player: str | None) -> dict[str, Any]:
        """The state as ``player`` sees it (None: the referee's full view), as JSON builtins."""
        ...

    def summary(self, view: dict[str, Any], player: str | None) -> Summary:
        """A summary a person can read of ``view`` (what ``view(state, player)`` returned)."""
        ...

    def notices(self, before: S, after: S, event: Event) -> list[Notice]:
        """Events-view entries the event posts (R9)."""
        ...

    def round_of(self, state: S) -> int:
        """The current round of turns (1-based), the clock of the Events view."""
        ...

    def is_round_start(self, event: Event) -> bool:
        """True for the event that begins a round (snapshots are taken there)."""
        ...


#: a ruleset of any state and command, as the application holds one it was handed by name
AnyRuleset = Ruleset[Any, Any]
