"""The Armageddon Empires ruleset: the value the application is handed (``RULESET``)."""

from __future__ import annotations

from typing import Any, ClassVar

from warlog.domain.armageddon_empires import scenario as scenarios
from warlog.domain.armageddon_empires import setup, views
from warlog.domain.armageddon_empires.commands import AnyCommand
from warlog.domain.armageddon_empires.decide import decide
from warlog.domain.armageddon_empires.events import EVENT_TYPES, RoundBegan
from warlog.domain.armageddon_empires.evolve import evolve
from warlog.domain.armageddon_empires.legal import active_players, legal_commands
from warlog.domain.armageddon_empires.scenario import Scenario
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.armageddon_empires.victory import is_terminal
from warlog.domain.core.dice import Dice
from warlog.domain.core.events import Event, GameCreated
from warlog.domain.core.ruleset import Command, Notice


class ArmageddonEmpires:
    """Hexes, empires, cards, armies, bases, supply and the round of turns (no battles yet)."""

    name: ClassVar[str] = "armageddon-empires"
    version: ClassVar[str] = "1"
    event_types: ClassVar[tuple[type[Event], ...]] = EVENT_TYPES
    command_type: ClassVar[Any] = AnyCommand
    state_type: ClassVar[type] = GameState
    scenario_package: ClassVar[str] = "warlog.domain.armageddon_empires.scenarios"
    default_scenario: ClassVar[str] = "cinder-and-glass"

    def parse_scenario(self, data: bytes) -> Scenario:
        return scenarios.parse_scenario(data)

    def scenario_from_builtins(self, obj: dict[str, Any]) -> Scenario:
        return scenarios.scenario_from_builtins(obj)

    def players(self, scenario: Scenario) -> list[str]:
        return [e.id for e in scenario.empires]

    def initial_state(self, scenario: Scenario) -> GameState:
        return setup.initial_state(scenario)

    def decide(self, state: GameState, command: Any, dice: Dice) -> list[Event]:
        return decide(state, command, dice)

    def evolve(self, state: GameState, event: Event) -> GameState:
        return evolve(state, event)

    def legal_commands(self, state: GameState, player: str) -> list[Command]:
        return legal_commands(state, player)

    def is_terminal(self, state: GameState) -> bool:
        return is_terminal(state)

    def view(self, state: GameState, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def visible_event(self, event: Event, player: str) -> Event | None:
        return views.visible_event(event, player)

    def notices(self, before: GameState, after: GameState, event: Event) -> list[Notice]:
        return views.notices(before, after, event)

    def round_of(self, state: GameState) -> int:
        return state.round

    def is_round_start(self, event: Event) -> bool:
        """``round_began``, and ``game_created``, which begins round 1."""
        return isinstance(event, RoundBegan | GameCreated)

    def active_players(self, state: GameState) -> list[str]:
        return active_players(state)


RULESET = ArmageddonEmpires()
