"""Given-when-then for rule tests: given events, when a command, then events or an error.

    game = Given(RULESET, scenario).events(ArmyMoved(...))
    events = game.when(MoveArmy(player="red", army="a1", to="3,-1"), dice=[6, 5, 1])
    assert events == [...]
    game.when_rejected(MoveArmy(...), code="rules/not_your_turn")

Dice: ``dice=[...]`` feeds exact faces (manual dice, all must be consumed); without it, seeded
dice with a fixed test seed are used.
"""

from __future__ import annotations

from typing import Any, TypeVar

import pytest

from warlog.domain.core.dice import DiceSpec, ManualDice, SeededDice
from warlog.domain.core.errors import WarlogError
from warlog.domain.core.events import Event, GameCreated
from warlog.domain.core.fold import evolve_event

TEST_SEED = bytes(range(32))

E = TypeVar("E", bound=Event)


def created(ruleset: Any, scenario: Any, name: str = "test") -> GameCreated:
    return GameCreated(
        game="test",
        ruleset=ruleset.name,
        version=ruleset.version,
        scenario_name=name,
        scenario=ruleset.recorded_scenario(scenario),
        players=ruleset.players(scenario),
        dice=DiceSpec(mode="auto", stream="test"),
    )


class Given:
    """A game under test: the ruleset, its state, and the events folded so far."""

    def __init__(self, ruleset: Any, scenario: Any) -> None:
        self.ruleset = ruleset
        self.state = ruleset.initial_state(scenario)
        self.history: list[Event] = []

    def events(self, *events: Event) -> Given:
        for event in events:
            self.state = evolve_event(self.ruleset, self.state, event)
            self.history.append(event)
        return self

    def when(self, command: Any, dice: list[int] | None = None, apply: bool = True) -> list[Event]:
        """Decide the command; with ``apply`` (default) fold its events into the state."""
        if dice is not None:
            manual = ManualDice(dice)
            out = self.ruleset.decide(self.state, command, manual)
            manual.check_all_used()
        else:
            out = self.ruleset.decide(self.state, command, SeededDice(TEST_SEED, "test", "", 2))
        if apply:
            self.events(*out)
        return out

    def when_rejected(self, command: Any, code: str, dice: list[int] | None = None) -> WarlogError:
        """Assert the command is rejected with ``code`` and that the state did not change."""
        before = self.state
        with pytest.raises(WarlogError) as info:
            self.when(command, dice=dice, apply=False)
        assert info.value.code == code, f"expected {code}, got {info.value.code}: {info.value}"
        assert self.state is before
        return info.value


# -- reading events ----------------------------------------------------------------------------------


def of(events: list[Event], cls: type[E]) -> list[E]:
    """The events of type ``cls`` among ``events``, in order."""
    return [e for e in events if isinstance(e, cls)]


def one(events: list[Event], cls: type[E]) -> E:
    """The one event of type ``cls`` among ``events`` (fails the test unless exactly one)."""
    found = of(events, cls)
    assert len(found) == 1, f"expected one {cls.__name__}, got {found}"
    return found[0]


def tags(events: list[Event]) -> list[str]:
    """The events' tags, in order."""
    return [e.type_name() for e in events]
