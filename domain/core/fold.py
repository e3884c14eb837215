"""The fold: a ruleset's state is ``game_created``'s initial state evolved by the ruleset's events.

The engine's own events (``command_issued``, ``dice_rolled``, ``dice_revealed``, ``game_forked``)
change no ruleset state: everything a command changes is a ruleset event of its batch.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from warlog.domain.core.events import CORE_TAGS, Event, GameCreated


def evolve_event(ruleset: Any, state: Any, event: Event) -> Any:
    """The ruleset state after ``event`` (``state`` is None before ``game_created``)."""
    if isinstance(event, GameCreated):
        return ruleset.initial_state(ruleset.scenario_from_builtins(event.scenario))
    if event.type_name() in CORE_TAGS:
        return state
    return ruleset.evolve(state, event)


def fold(ruleset: Any, events: Iterable[Event], state: Any = None) -> Any:
    """The state after all of ``events``, starting from ``state``."""
    for event in events:
        state = evolve_event(ruleset, state, event)
    return state
