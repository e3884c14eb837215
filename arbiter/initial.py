"""The scenario and initial state of a game, built once per distinct ``game_created`` and shared.

Building them decodes and checks the whole scenario (for Armageddon Empires, parsing every card's
printed abilities): for a game of a few hundred events that costs more than folding all its
events. Scenarios and states are immutable, so games created alike share them safely.
"""

from __future__ import annotations

from typing import Any

from warlog.domain.core.events import GameCreated
from warlog.domain.core.ruleset import AnyRuleset

_SCENARIOS: dict[tuple[str, str, str], Any] = {}
_STATES: dict[tuple[str, str, str], Any] = {}
_MOST = 64


def scenario_of(ruleset: AnyRuleset, created_data: str, event: GameCreated) -> Any:
    """``ruleset.scenario_from_builtins`` of the scenario in ``event`` (row data ``created_data``);
    InputError if it is not a valid scenario, as the ruleset says."""
    key = (ruleset.name, ruleset.version, created_data)
    scenario = _SCENARIOS.get(key)
    if scenario is None:
        if len(_SCENARIOS) >= _MOST:
            _SCENARIOS.clear()
        scenario = _SCENARIOS[key] = ruleset.scenario_from_builtins(event.scenario)
    return scenario


def initial_state(ruleset: AnyRuleset, created_data: str, event: GameCreated) -> Any:
    """``ruleset.initial_state`` of the scenario in ``event``, built once per distinct event."""
    key = (ruleset.name, ruleset.version, created_data)
    state = _STATES.get(key)
    if state is None:
        if len(_STATES) >= _MOST:
            _STATES.clear()
        state = _STATES[key] = ruleset.initial_state(scenario_of(ruleset, created_data, event))
    return state


def share(ruleset: AnyRuleset, created_data: str, scenario: Any, state: Any) -> None:
    """Keep the scenario and initial state a game was just created with (its ``game_created``
    stored as ``created_data``), built by the caller, for the games created alike."""
    key = (ruleset.name, ruleset.version, created_data)
    if len(_STATES) >= _MOST:
        _SCENARIOS.clear()
        _STATES.clear()
    _SCENARIOS[key], _STATES[key] = scenario, state


def built(ruleset: AnyRuleset, created_data: str) -> Any:
    """The initial state of ``game_created`` data ``created_data`` if this process built it
    already, else None."""
    return _STATES.get((ruleset.name, ruleset.version, created_data))


def forget() -> None:
    """Drop every shared scenario and state: what is built next is built afresh. For a process
    that ran rules it does not trust (the fuzzer, replaying a failure as a fresh process would:
    an ``evolve`` that mutates its state in place changes a shared initial state under every
    game created alike)."""
    _SCENARIOS.clear()
    _STATES.clear()
