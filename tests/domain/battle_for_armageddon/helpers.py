"""Test helpers: the proving-ground scenario, set-up events, and event filters."""

from __future__ import annotations

import functools
import importlib.resources
from pathlib import Path
from typing import TypeVar

from tests.given_when_then import Given
from warlog.domain.battle_for_armageddon.build_events import CounterPlaced
from warlog.domain.battle_for_armageddon.movement_events import CounterEliminated
from warlog.domain.battle_for_armageddon.rules import opponent
from warlog.domain.battle_for_armageddon.ruleset import RULESET, VERSIONS
from warlog.domain.battle_for_armageddon.scenario import Scenario, parse_scenario
from warlog.domain.battle_for_armageddon.turn_events import (
    ActionSegmentBegan,
    InitiativeDecided,
    PhaseBegan,
    StrategyChosen,
    TurnBegan,
)
from warlog.domain.core.events import Event

E = TypeVar("E", bound=Event)

PROVING_GROUND = Path(__file__).with_name("proving_ground.toml")
CARD_STARTING_WITH = {
    "movement": "movement-combat",
    "combat": "combat-movement",
    "build": "build-combat",
}


@functools.cache
def proving_ground() -> Scenario:
    return parse_scenario(PROVING_GROUND.read_bytes())


@functools.cache
def second_war() -> Scenario:
    data = importlib.resources.files(RULESET.scenario_package).joinpath("second-war.toml")
    return parse_scenario(data.read_bytes())


def at(counter: str, area: str) -> CounterPlaced:
    """Set-up: put a counter in an area."""
    return CounterPlaced(counter=counter, area=area, reason="test set-up")


def off(counter: str, to: str = "pool") -> CounterEliminated:
    """Set-up: take a counter off the map."""
    return CounterEliminated(counter=counter, area="", reason="test set-up", to=to)


def in_phase(player: str, phase: str, turn: int = 2) -> list[Event]:
    """The events that open ``player``'s first action segment of ``turn`` on ``phase``."""
    card = CARD_STARTING_WITH[phase]
    other = "combat-build" if card != "combat-build" else "movement-combat"
    spec = next(c for c in proving_ground().strategy_cards if c.id == card)
    return [
        TurnBegan(turn=turn),
        StrategyChosen(player=player, cards=[card, other]),
        StrategyChosen(player=opponent(player), cards=["movement-combat", "combat-movement"]),
        InitiativeDecided(player=player, turn=turn, reason="test"),
        ActionSegmentBegan(segment=1, player=player, card=card, phases=list(spec.phases)),
        PhaseBegan(phase=phase, player=player, index=0),
    ]


#: a card whose second phase is the key, to reach that phase by ending the first one
CARD_ENDING_WITH = {
    "movement": "combat-movement",
    "combat": "movement-combat",
    "build": "movement-build",
}


def before_phase(player: str, phase: str, turn: int = 2) -> list[Event]:
    """The events that open ``player``'s first segment on a card whose second phase is
    ``phase``; ending the first phase (``end_phase``) begins it through decide."""
    card = CARD_ENDING_WITH[phase]
    spec = next(c for c in proving_ground().strategy_cards if c.id == card)
    return [
        TurnBegan(turn=turn),
        StrategyChosen(player=player, cards=[card, "combat-build"]),
        StrategyChosen(player=opponent(player), cards=["movement-combat", "combat-movement"]),
        InitiativeDecided(player=player, turn=turn, reason="test"),
        ActionSegmentBegan(segment=1, player=player, card=card, phases=list(spec.phases)),
        PhaseBegan(phase=spec.phases[0], player=player, index=0),
    ]


def game(*events: Event, scenario: Scenario | None = None, version: str = "") -> Given:
    """A proving-ground game (Ork counters boyz-1 in ork_a, sunz-1 in ork_b) after ``events``,
    under the latest rules or the kept ``version``."""
    ruleset = VERSIONS[version] if version else RULESET
    return Given(ruleset, scenario or proving_ground()).events(*events)
