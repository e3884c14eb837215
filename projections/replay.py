"""Replay: a game walked event by event, each step with its explanation and what it changed."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from warlog.domain.core.events import CORE_TAGS, Event
from warlog.domain.core.fold import evolve_event
from warlog.domain.core.ruleset import AnyRuleset
from warlog.domain.core.seal import seals_in
from warlog.eventstore.records import Record
from warlog.projections.changes import changes

#: what ``explain`` says of an event whose rule would tell a reader a value sealed from them
WITHHELD = "(withheld: this event holds values sealed from you)"


def replay_steps(
    ruleset: AnyRuleset,
    state: Any,
    steps: Iterable[tuple[Record, tuple[Record, Event]]],
    player: str | None,
) -> Iterator[dict[str, Any]]:
    """Each step from the state ``state`` (None before the first event): the record as the
    reader may see it (``shown``) and the clear event the rules fold. Yields its seq, type and
    data as shown, the rule it explains (withheld where a seal stays closed to the reader), and
    what it changed in the reader's view (``player``; None: the referee's full view)."""
    before_view: Any = ruleset.view(state, player) if state is not None else {}
    for shown, (_, event) in steps:
        state = evolve_event(ruleset, state, event)
        after_view = ruleset.view(state, player) if state is not None else {}
        data = json.loads(shown.data)
        closed = any(len(seal) == 1 for _, seal in seals_in(data))
        yield {
            "seq": shown.seq,
            "type": shown.type,
            "data": data,
            "explain": WITHHELD if closed else event.explain(),
            "changes": changes(before_view, after_view)
            if shown.type not in CORE_TAGS or shown.seq == 1
            else [],
        }
        before_view = after_view
