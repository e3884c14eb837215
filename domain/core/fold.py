"""The fold: a ruleset's state is ``game_created``'s initial state evolved by the ruleset's events.

``evolve_event`` is the one step every reader of a log takes (the application, the audit, the
Events view, replay and the rule tests): the engine's own events (``command_issued``,
``dice_rolled``, ``dice_revealed``, ``game_forked``) change no ruleset state; everything a
command changes is a ruleset event of its batch.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from warlog.domain.core.events import CORE_TAGS, Event, GameCreated
from warlog.domain.core.ruleset import Ruleset

S = TypeVar("S")


def evolve_event(ruleset: Ruleset[S, Any], state: S | None, event: Event) -> S | None:
    """The ruleset state after ``event`` (``state`` is None before ``game_created``, which
    starts from the ruleset's initial state of the recorded scenario)."""
    if isinstance(event, GameCreated):
        return ruleset.initial_state(ruleset.scenario_from_builtins(event.scenario))
    if state is None or event.type_name() in CORE_TAGS:
        return state
    return ruleset.evolve(state, event)


def fold(ruleset: Ruleset[S, Any], events: Iterable[Event], state: S | None = None) -> S | None:
    """The state after all of ``events``, starting from ``state``."""
    for event in events:
        state = evolve_event(ruleset, state, event)
    return state
