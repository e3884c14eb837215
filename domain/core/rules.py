"""``Rules``: the half of every ruleset that is the same for all, derived from one pending decision.

A ruleset subclasses ``Rules[State, Command]`` and writes what is its own: ``next`` (what the
game waits for, or the automatic step to take), ``seats``, ``evolve``, the ``handlers`` of its
commands, its legal ``options`` and its views. Everything else is derived here, once:

- ``decide`` refuses anything that is not one of the ruleset's commands
  (``input/bad_command``; a JSON command of an unknown type never gets this far: the
  application's parser refuses it with ``unknown_command``), admits the command (``admit``),
  runs its handler in a folding ``Batch`` and then
  the procedure engine until the game waits for someone again;
- ``admit`` is the one owner of the checks every command meets first: an unknown player
  (``input/unknown_player``), a finished game (``rules/game_over``), a command that does not
  answer what the game waits for (``rules/decision_pending`` inside a procedure,
  ``rules/wrong_phase`` otherwise, or the ruleset's ``closed_answer`` for an answer its rules
  close now) and a player the game does not wait for (``rules/not_your_turn``, worded by
  ``not_waiting_for``);
- ``legal_commands``, ``active_players`` and ``is_terminal`` read the same decision;
- ``invariants`` holds none unless the ruleset declares its own.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Self, TypeVar

import msgspec

from warlog.domain.core.batch import Batch
from warlog.domain.core.dice import Dice
from warlog.domain.core.errors import InputError, RulesError, quoted
from warlog.domain.core.events import Event
from warlog.domain.core.invariants import Violation
from warlog.domain.core.procedure import Decision, Next, run
from warlog.domain.core.ruleset import Command
from warlog.domain.core.seal import Secret, compact
from warlog.domain.core.summary import Summary, Table

S = TypeVar("S")
C = TypeVar("C", bound=Command)

#: a command's handler: emits the events the command causes into the batch, or raises
#: RulesError; automatic steps after it are the engine's
Handler = Callable[[Batch[Any], Any], None]


def unknown_player(player: str, seats: Sequence[str]) -> InputError:
    """The one error for a player who does not play the game (exit 1)."""
    return InputError(
        f"unknown player {quoted(player)}; this game's players are {', '.join(seats)}",
        "input/unknown_player",
    )


def unknown_command(ruleset: str, kind: object, known: Sequence[str]) -> InputError:
    """The one error for a command type the ruleset does not have (exit 1)."""
    what = 'has no "type"' if kind is None else f"has unknown type {quoted(str(kind))}"
    return InputError(
        f"command {what}; {ruleset} knows: {', '.join(known)}", "input/unknown_command"
    )


class Rules(abc.ABC, Generic[S, C]):
    """The shared half of a ruleset (module doc). Subclasses set the class attributes of the
    ``Ruleset`` protocol and ``handlers``, and implement the abstract methods."""

    name: ClassVar[str]
    version: ClassVar[str]
    #: the earlier versions this warlog still plays, for the games begun under them
    #: (``at_version`` returns each); none by default
    kept_versions: ClassVar[tuple[str, ...]] = ()
    event_types: ClassVar[tuple[type[Event], ...]]
    #: none by default; a subclass that makes ``evolve`` apply one of them must leave it out
    inert_events: ClassVar[frozenset[str]] = frozenset()
    command_type: ClassVar[Any]
    state_type: ClassVar[type]
    scenario_package: ClassVar[str] = ""
    default_scenario: ClassVar[str] = ""
    round_word: ClassVar[str] = "round"
    seat_word: ClassVar[str] = "player"
    #: none by default: a view that says what the game waits for names its keys
    decision_keys: ClassVar[tuple[str, ...]] = ()
    #: none by default: a ruleset names the command types whose every accepted form its
    #: ``options`` list (the ``Ruleset`` protocol)
    complete_legal: ClassVar[frozenset[str]] = frozenset()
    #: command class -> its handler
    handlers: ClassVar[Mapping[type[Any], Handler]]
    #: commands a later version no longer plays: type -> (the version that retired it, what
    #: the game asks instead), so that a game of that version or later refuses one for what it
    #: is, not as a command that must wait
    retired_commands: ClassVar[Mapping[str, tuple[int, str]]] = {}

    # ------------------------------------------------------------------ the ruleset's own

    @abc.abstractmethod
    def next(self, state: S) -> Next:
        """What comes next: the decision the game waits for, an automatic step, or None once
        the game is over (``procedure.Stack`` builds this from frames and the turn sequence)."""

    @abc.abstractmethod
    def seats(self, state: S) -> Sequence[str]:
        """The game's players, in seat order."""

    @abc.abstractmethod
    def evolve(self, state: S, event: Event) -> S:
        """The state after a ruleset event (core events never reach it)."""

    @abc.abstractmethod
    def options(self, state: S, decision: Decision, player: str) -> list[C]:
        """The commands with which ``player`` (one of ``decision.players``) may answer it, each
        accepted by ``decide`` as it is (those that roll carry no dice)."""

    def choose(self, state: S, player: str, legal: Sequence[C]) -> C:
        """The deterministic autoplay policy; by default the first legal command (a ruleset
        overrides it with play worth watching)."""
        return legal[0]

    def set_up(self, batch: Batch[S]) -> None:
        """Emit the events that open a game (a deal of secret starting hands); none by default.
        The batch's dice derive from the game's key."""

    def recorded_scenario(self, scenario: Any) -> dict[str, Any]:
        """The scenario as ``game_created`` records it: by default its fields as they are (a
        ruleset whose hidden set-up needs another shape writes its own)."""
        out: dict[str, Any] = msgspec.to_builtins(scenario)
        return out

    def hidden_setup(self, scenario: Any) -> list[Secret]:
        """The secrets of the recorded scenario: ``(path inside its recorded form
        (``recorded_scenario``), entitled player or None)``; none by default."""
        return []

    def summary(self, view: dict[str, Any], player: str | None) -> Summary:
        """A plain summary of any view: its top-level values (a ruleset writes a better one)."""
        rows = [[key, compact(value)[:80]] for key, value in view.items()]
        return Summary(headline=self.name, waiting="", tables=[Table("state", ["", ""], rows)])

    def result(self, state: S) -> str:
        """How the game ended, in a phrase (for the game-over refusal); "" while it goes on."""
        return ""

    def at_version(self, version: str) -> Self | None:
        """Itself at its own version; None for any other (a ruleset that still plays an earlier
        version of itself returns it from here)."""
        return self if version == self.version else None

    def invariants(self, state: S) -> list[Violation]:
        """The invariants ``state`` breaks (none by default): a ruleset declares what must hold
        after every command's batch in its ``invariants.py`` and returns it from here."""
        return []

    def not_waiting_for(self, state: S, decision: Decision, command: C) -> RulesError:
        """The refusal of a command from a player the game does not wait for now
        (``rules/not_your_turn``). A ruleset may say more precisely why, e.g. that the player
        has already answered a simultaneous choice."""
        return RulesError(
            f"{command.player} cannot {command.type_name()} now: the game waits for "
            f"{decision.waiting}",
            "rules/not_your_turn",
        )

    def closed_answer(self, state: S, decision: Decision, command: C) -> RulesError | None:
        """The ruleset's own refusal of ``command``, from a player ``decision`` waits for, when
        it is not one of ``decision.answers`` because the rules close it now (a unit that may
        not evade a charge), naming why and the rule; None (the default) keeps the generic
        ``rules/decision_pending`` or ``rules/wrong_phase`` line. The refusal goes only to the
        player who sent the command, so it may name only what that player may know (its own
        pieces, what it faces), never anything its view does not show."""
        return None

    # ------------------------------------------------------------------ derived here, once

    def decision(self, state: S) -> Decision | None:
        """What the game waits for; None once it is over, and in the middle of a command's
        batch when an automatic step comes next (a replay may look at any event)."""
        found = self.next(state)
        return found if isinstance(found, Decision) else None

    def is_terminal(self, state: S) -> bool:
        return self.next(state) is None

    def active_players(self, state: S) -> list[str]:
        decision = self.decision(state)
        return [] if decision is None else list(decision.players)

    def check_player(self, state: S, player: str) -> None:
        seats = self.seats(state)
        if player not in seats:
            raise unknown_player(player, seats)

    def admit(self, state: S, command: C) -> Decision:
        """The decision ``command`` answers; the errors of the module doc otherwise."""
        self.check_player(state, command.player)
        found = self.next(state)
        if found is not None and not isinstance(found, Decision):
            raise RuntimeError(f"{self.name}: an automatic step is pending between commands")
        decision = found
        if decision is None:
            ended = self.result(state)
            why = f" ({ended})" if ended else ""
            raise RulesError(f"the game is over{why}; fork it to play on", "rules/game_over")
        kind = command.type_name()
        retired = self.retired_commands.get(kind)
        if retired is not None and (played := self.played_version(state)) >= retired[0]:
            raise RulesError(
                f"{kind} is not played under version {played} of these rules (since version "
                f"{retired[0]}): {retired[1]}",
                "rules/not_in_this_version",
            )
        if kind not in decision.answers:
            waited_for = command.player in decision.players
            closed = self.closed_answer(state, decision, command) if waited_for else None
            if closed is not None:
                raise closed
            if decision.procedure and waited_for:
                raise RulesError(
                    f"{kind} is not an answer open now: the game waits for {decision.waiting} "
                    f"({', '.join(decision.answers)})",
                    "rules/decision_pending",
                )
            if decision.procedure:
                raise RulesError(
                    f"{kind} must wait: the game waits for {decision.waiting} first",
                    "rules/decision_pending",
                )
            raise RulesError(
                f"{kind} is not possible now: the game waits for {decision.waiting} "
                f"({', '.join(decision.answers)})",
                "rules/wrong_phase",
            )
        if command.player not in decision.players:
            raise self.not_waiting_for(state, decision, command)
        return decision

    def played_version(self, state: S) -> int:
        """The version of these rules ``state``'s game plays under: the ``rules_version`` its
        state records (``initial_state`` records this one's), or this one where it keeps none."""
        version = getattr(state, "rules_version", None)
        return version if isinstance(version, int) else int(self.version)

    def begin(self, state: S, dice: Dice) -> list[Event]:
        """The events opening the game (``set_up``), run on until it waits for someone."""
        batch: Batch[S] = Batch(dice, state, self.evolve)
        self.set_up(batch)
        run(batch, self.next)
        return batch.events

    def decide(self, state: S, command: C, dice: Dice) -> list[Event]:
        """The events ``command`` causes (its ``command_issued`` is the engine's): admitted,
        handled in a folding batch, then run on until the game waits for someone again."""
        handler = self.handlers.get(type(command))
        if handler is None:
            raise InputError(f"not a {self.name} command: {command!r}", "input/bad_command")
        self.admit(state, command)
        batch: Batch[S] = Batch(dice, state, self.evolve)
        handler(batch, command)
        run(batch, self.next)
        return batch.events

    def legal_commands(self, state: S, player: str) -> list[C]:
        """What ``player`` may do now: the options of the decision, if it waits for them."""
        self.check_player(state, player)
        decision = self.decision(state)
        if decision is None or player not in decision.players:
            return []
        return self.options(state, decision, player)


R = TypeVar("R", bound=Rules[Any, Any])


def every_version(latest: R) -> dict[str, R]:
    """``latest`` and, for each of its ``kept_versions``, a variant of it at that version, by
    version: a game begun under a kept version plays on under it and its log re-derives, each
    rule that changed since asking the state's ``rules_version`` (the variant differs in its
    ``version`` alone, which its ``initial_state`` records)."""
    cls = type(latest)
    out = {latest.version: latest}
    for version in latest.kept_versions:
        doc = f"Version {version} of {cls.__name__}, kept for the games begun under it."
        variant = type(f"{cls.__name__}{version}", (cls,), {"version": version, "__doc__": doc})
        out[version] = variant()
    return out
