"""The Battle for Armageddon ruleset: the value registered as ``battle-for-armageddon``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from warlog.domain.battle_for_armageddon import scenario as scenarios
from warlog.domain.battle_for_armageddon import view as views
from warlog.domain.battle_for_armageddon.commands import BfaCommand
from warlog.domain.battle_for_armageddon.decide import decide
from warlog.domain.battle_for_armageddon.events import EVENT_TYPES, TurnBegan
from warlog.domain.battle_for_armageddon.evolve import evolve
from warlog.domain.battle_for_armageddon.legal import legal_commands
from warlog.domain.battle_for_armageddon.pending import pending
from warlog.domain.battle_for_armageddon.rules import PLAYERS
from warlog.domain.battle_for_armageddon.scenario import Scenario
from warlog.domain.battle_for_armageddon.state import State, initial_state
from warlog.domain.core.dice import Dice
from warlog.domain.core.events import Event
from warlog.domain.core.ruleset import Command, Notice


class BattleForArmageddon:
    """Games Workshop's 1992 area game: stacks of counters, one d6 on an odds-ratio table."""

    name: ClassVar[str] = "battle-for-armageddon"
    version: ClassVar[str] = "1"
    event_types: ClassVar[tuple[type[Event], ...]] = EVENT_TYPES
    command_type: ClassVar[Any] = BfaCommand
    state_type: ClassVar[type] = State
    scenario_package: ClassVar[str] = "warlog.domain.battle_for_armageddon.scenarios"
    default_scenario: ClassVar[str] = "second-war"

    def parse_scenario(self, data: bytes) -> Scenario:
        return scenarios.parse_scenario(data)

    def scenario_from_builtins(self, obj: dict[str, Any]) -> Scenario:
        return scenarios.scenario_from_builtins(obj)

    def players(self, scenario: Scenario) -> list[str]:
        return list(PLAYERS)

    def initial_state(self, scenario: Scenario) -> State:
        return initial_state(scenario)

    def decide(self, state: State, command: Command, dice: Dice) -> list[Event]:
        return decide(state, command, dice)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def legal_commands(self, state: State, player: str) -> Sequence[Command]:
        return legal_commands(state, player)

    def is_terminal(self, state: State) -> bool:
        return state.stage == "over"

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def visible_event(self, event: Event, player: str) -> Event | None:
        return views.visible_event(event, player)

    def notices(self, before: State, after: State, event: Event) -> list[Notice]:
        return views.notices(before, after, event)

    def round_of(self, state: State) -> int:
        return state.turn

    def is_round_start(self, event: Event) -> bool:
        return isinstance(event, TurnBegan)

    def active_players(self, state: State) -> list[str]:
        p = pending(state)
        return [] if p is None else list(p.players)


RULESET = BattleForArmageddon()
