"""Replay: a game walked event by event, each step with its explanation and what it changed."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from warlog.domain.core.events import CORE_TAGS
from warlog.domain.core.fold import evolve_event
from warlog.domain.core.ruleset import AnyRuleset
from warlog.eventstore.codec import Codec
from warlog.eventstore.records import Record
from warlog.projections.changes import changes


def replay_steps(
    ruleset: AnyRuleset, codec: Codec, state: Any, records: Iterable[Record]
) -> Iterator[dict[str, Any]]:
    """Each record from the state ``state`` (None before the first event): its seq, type and
    data, the rule it explains, and what it changed in the referee's full view (a ruleset
    event's changes; the scenario's initial state for ``game_created``)."""
    before_view: Any = ruleset.view(state, None) if state is not None else {}
    for record in records:
        event = codec.decode(record.type, record.data)
        state = evolve_event(ruleset, state, event)
        after_view = ruleset.view(state, None) if state is not None else {}
        yield {
            "seq": record.seq,
            "type": record.type,
            "data": json.loads(record.data),
            "explain": event.explain(),
            "changes": changes(before_view, after_view)
            if record.type not in CORE_TAGS or record.seq == 1
            else [],
        }
        before_view = after_view
