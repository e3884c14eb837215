"""The Battle for Armageddon ruleset: the value registered as ``battle-for-armageddon``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from msgspec.structs import replace

from warlog.domain.battle_for_armageddon import autoplay, invariants, summary, views
from warlog.domain.battle_for_armageddon import scenario as scenarios
from warlog.domain.battle_for_armageddon.commands import BfaCommand
from warlog.domain.battle_for_armageddon.decide import HANDLERS
from warlog.domain.battle_for_armageddon.decisions import NEXT
from warlog.domain.battle_for_armageddon.events import EVENT_TYPES
from warlog.domain.battle_for_armageddon.evolve import evolve
from warlog.domain.battle_for_armageddon.legal import COMPLETE, options
from warlog.domain.battle_for_armageddon.rules import PLAYERS
from warlog.domain.battle_for_armageddon.scenario import Scenario
from warlog.domain.battle_for_armageddon.setup import initial_state
from warlog.domain.battle_for_armageddon.state import GameState
from warlog.domain.battle_for_armageddon.turn_events import TurnBegan
from warlog.domain.core.errors import RulesError, reject
from warlog.domain.core.events import Event
from warlog.domain.core.invariants import Violation
from warlog.domain.core.procedure import Decision, Next
from warlog.domain.core.rules import Handler, Rules, every_version
from warlog.domain.core.ruleset import Command, Notice, Ruleset
from warlog.domain.core.summary import Summary


class BattleForArmageddon(Rules[GameState, Command]):
    """Games Workshop's 1992 area game: stacks of counters, one d6 on an odds-ratio table."""

    name: ClassVar[str] = "battle-for-armageddon"
    #: 2: sealed hidden values; 3: a combat's summary names only what that combat did
    #: (``results.COMBAT_SUMMARY_SINCE``); 4: a special card is played as the first copy of
    #: its kind not yet played (``specials.PLAYED_BY_KIND_SINCE``, BFA-28); 5: any number of
    #: fortifications stack (``rules.FORTIFICATIONS_STACK_SINCE``, BFA-9) and one destroyed by its
    #: stack's retreat cites Special Units (``results.SPECIAL_UNITS_CITED_SINCE``); 6: a reroll
    #: names the counter whose ability allowed it (``combat.REROLL_LEADER_NAMED_SINCE``, BFA-14);
    #: 7: a scenario's Marine Chapters are Imperial and start "later", and no Ork counter starts
    #: "later" (``rules.MARINE_CHAPTERS_IMPERIAL_SINCE``, BFA-29), and a supply check names the
    #: chapters that flipped (``supply.FLIPS_NAMED_SINCE``, BFA-13); 8: a READY counter may be
    #: placed over the stacking limits, lost at the end of the Imperials' next movement phase if
    #: its stack is still over them (``rules.BUILD_OVERSTACK_SINCE``, BFA-12, BFA-2), and a
    #: scenario's fortification has defence 0 (``rules.FORTIFICATION_NO_DEFENCE_SINCE``, BFA-30)
    version: ClassVar[str] = "8"
    kept_versions: ClassVar[tuple[str, ...]] = ("7", "6", "5", "4", "3", "2")
    event_types: ClassVar[tuple[type[Event], ...]] = EVENT_TYPES
    command_type: ClassVar[Any] = BfaCommand
    state_type: ClassVar[type] = GameState
    scenario_package: ClassVar[str] = "warlog.domain.battle_for_armageddon.scenarios"
    default_scenario: ClassVar[str] = "second-war"
    round_word: ClassVar[str] = "turn"
    seat_word: ClassVar[str] = "side"
    #: the view\'s "pending" (``views.view``)
    decision_keys: ClassVar[tuple[str, ...]] = ("pending",)
    handlers: ClassVar[Mapping[type[Any], Handler]] = HANDLERS
    complete_legal: ClassVar[frozenset[str]] = COMPLETE

    def parse_scenario(self, data: bytes) -> Scenario:
        """The scenario file ``data``, checked as this version checks it: a new game's (the
        latest), or an older warlog's for a game begun under a kept version."""
        return scenarios.parse_scenario(data, int(self.version))

    def scenario_from_builtins(self, obj: dict[str, Any]) -> Scenario:
        """The recorded scenario of a game begun under this version, checked as it was then."""
        return scenarios.scenario_from_builtins(obj, int(self.version))

    def players(self, scenario: Scenario) -> list[str]:
        return list(PLAYERS)

    def initial_state(self, scenario: Scenario) -> GameState:
        return replace(initial_state(scenario), rules_version=int(self.version))

    def at_version(self, version: str) -> BattleForArmageddon | None:
        """Itself at its own version (a subclass too), or a kept one for the games begun under
        it (``VERSIONS``)."""
        return self if version == self.version else VERSIONS.get(version)

    def next(self, state: GameState) -> Next:
        return NEXT(state)

    def seats(self, state: GameState) -> Sequence[str]:
        return PLAYERS

    def evolve(self, state: GameState, event: Event) -> GameState:
        return evolve(state, event)

    def options(self, state: GameState, decision: Decision, player: str) -> list[Command]:
        return options(state, decision, player)

    def choose(self, state: GameState, player: str, legal: Sequence[Command]) -> Command:
        return autoplay.choose(state, player, list(legal))

    def result(self, state: GameState) -> str:
        return state.result

    def invariants(self, state: GameState) -> list[Violation]:
        return invariants.violations(state)

    def not_waiting_for(self, state: GameState, decision: Decision, command: Command) -> RulesError:
        if decision.kind == "strategy" and command.player in state.choices:
            return reject(f"the {command.player} have already chosen this turn", "already_chosen")
        return super().not_waiting_for(state, decision, command)

    def view(self, state: GameState, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def summary(self, view: dict[str, Any], player: str | None) -> Summary:
        return summary.summary(view, player)

    def notices(self, before: GameState, after: GameState, event: Event) -> list[Notice]:
        return views.notices(before, after, event)

    def round_of(self, state: GameState) -> int:
        return state.turn

    def is_round_start(self, event: Event) -> bool:
        return isinstance(event, TurnBegan)


LATEST = BattleForArmageddon()
#: every version this warlog plays, by version
VERSIONS: dict[str, BattleForArmageddon] = every_version(LATEST)
RULESET: Ruleset[GameState, Command] = LATEST
