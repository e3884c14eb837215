"""The Midgard: Heroic Battles ruleset: the value registered as ``heroic-battles``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from msgspec.structs import replace

from warlog.domain.core.errors import RulesError
from warlog.domain.core.events import Event
from warlog.domain.core.invariants import Violation
from warlog.domain.core.procedure import Decision, Next
from warlog.domain.core.rules import Handler, Rules, every_version
from warlog.domain.core.ruleset import Command, Notice, Ruleset
from warlog.domain.core.summary import Summary
from warlog.domain.heroic_battles import autoplay, charges, invariants, summary, views
from warlog.domain.heroic_battles import scenario as scenarios
from warlog.domain.heroic_battles.commands import HbCommand
from warlog.domain.heroic_battles.decide import HANDLERS
from warlog.domain.heroic_battles.decisions import NEXT
from warlog.domain.heroic_battles.events import EVENT_TYPES, TurnBegan
from warlog.domain.heroic_battles.evolve import evolve
from warlog.domain.heroic_battles.legal import COMPLETE, options
from warlog.domain.heroic_battles.scenario import Scenario
from warlog.domain.heroic_battles.setup import initial_state
from warlog.domain.heroic_battles.state import GameState


class HeroicBattles(Rules[GameState, Command]):
    """Reisswitz Press's 2024 rank-and-flank game of heroes and reputation, on a table the
    players measure."""

    name: ClassVar[str] = "heroic-battles"
    #: 2: any command test in rough terrain is on 2D6 (``rulings.ROUGH_TERRAIN_TESTS_SINCE``);
    #: an unattached hero's win over a unit it destroys earns its token
    #: (``rulings.HERO_BEATS_A_DESTROYED_UNIT_SINCE``); 3: the flank or rear penalty ends with
    #: the last enemy that charged there (``rulings.FLANK_LASTS_WHILE_ITS_ENEMY_FIGHTS_SINCE``,
    #: HB-37), and a hero joining the first combat earns its token
    #: (``rulings.FIRST_COMBAT_JOINED_SINCE``, HB-38); 4: a melee's loss says whether it is an
    #: unattached hero's, and its explanation cites HB-15 for that loss alone
    #: (``rulings.UNATTACHED_HERO_LOSS_MARKED_SINCE``)
    version: ClassVar[str] = "4"
    kept_versions: ClassVar[tuple[str, ...]] = ("3", "2", "1")
    event_types: ClassVar[tuple[type[Event], ...]] = EVENT_TYPES
    command_type: ClassVar[Any] = HbCommand
    state_type: ClassVar[type] = GameState
    scenario_package: ClassVar[str] = "warlog.domain.heroic_battles.scenarios"
    default_scenario: ClassVar[str] = "open-field"
    round_word: ClassVar[str] = "turn"
    seat_word: ClassVar[str] = "force"
    #: the view\'s "pending" (``views.view``)
    decision_keys: ClassVar[tuple[str, ...]] = ("pending",)
    handlers: ClassVar[Mapping[type[Any], Handler]] = HANDLERS
    complete_legal: ClassVar[frozenset[str]] = COMPLETE

    def parse_scenario(self, data: bytes) -> Scenario:
        return scenarios.parse_scenario(data)

    def scenario_from_builtins(self, obj: dict[str, Any]) -> Scenario:
        return scenarios.scenario_from_builtins(obj)

    def players(self, scenario: Scenario) -> list[str]:
        return [f.id for f in scenario.forces]

    def initial_state(self, scenario: Scenario) -> GameState:
        return replace(initial_state(scenario), rules_version=int(self.version))

    def at_version(self, version: str) -> HeroicBattles | None:
        """Itself at its own version (a subclass too), or a kept one for the games begun under
        it (``VERSIONS``)."""
        return self if version == self.version else VERSIONS.get(version)

    def next(self, state: GameState) -> Next:
        return NEXT(state)

    def seats(self, state: GameState) -> Sequence[str]:
        return [f.id for f in state.scenario.forces]

    def evolve(self, state: GameState, event: Event) -> GameState:
        return evolve(state, event)

    def options(self, state: GameState, decision: Decision, player: str) -> list[Command]:
        return options(state, decision, player)

    def choose(self, state: GameState, player: str, legal: Sequence[Command]) -> Command:
        return autoplay.choose(state, player, list(legal))

    def result(self, state: GameState) -> str:
        return state.result

    def closed_answer(
        self, state: GameState, decision: Decision, command: Command
    ) -> RulesError | None:
        return charges.closed_answer(state, decision, command)

    def invariants(self, state: GameState) -> list[Violation]:
        return invariants.violations(state)

    def view(self, state: GameState, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def summary(self, view: dict[str, Any], player: str | None) -> Summary:
        return summary.summary(view, player)

    def notices(self, before: GameState, after: GameState, event: Event) -> list[Notice]:
        return views.notices(before, after, event)

    def round_of(self, state: GameState) -> int:
        return max(1, state.turn)

    def is_round_start(self, event: Event) -> bool:
        return isinstance(event, TurnBegan)


LATEST = HeroicBattles()
#: every version this warlog plays, by version
VERSIONS: dict[str, HeroicBattles] = every_version(LATEST)
RULESET: Ruleset[GameState, Command] = LATEST
