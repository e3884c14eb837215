"""Replay: a game walked event by event, each step with its explanation and what it changed."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from warlog.domain.core.events import BATCH_STARTS, CORE_TAGS, Event
from warlog.domain.core.fold import evolve_event
from warlog.domain.core.ruleset import AnyRuleset
from warlog.domain.core.seal import seals_in
from warlog.eventstore.records import Record
from warlog.projections.changes import changes

#: what ``explain`` says of an event whose rule would tell a reader a value sealed from them
WITHHELD = "(withheld: this event holds values sealed from you)"

_Step = tuple[Record, tuple[Record, Event]]


def explained(event: Event, shown: Any) -> str | None:
    """The rule ``event`` explains to a reader shown its data as ``shown``: all of it, or where
    a seal stays closed to the reader what the event says without the values sealed
    (``Event.explain_sealed``); None when it cannot say it: the rule is withheld."""
    closed = frozenset(path for path, seal in seals_in(shown) if len(seal) == 1)
    return event.explain_sealed(closed) if closed else event.explain()


def _with_batch_ends(steps: Iterable[_Step], last_ends: bool) -> Iterator[tuple[_Step, bool]]:
    """Each step, and whether it ends its batch (the next record starts one; for the last,
    ``last_ends``: the range may stop inside a batch)."""
    it = iter(steps)
    current = next(it, None)
    while current is not None:
        following = next(it, None)
        ends = last_ends if following is None else following[0].type in BATCH_STARTS
        yield current, ends
        current = following


def replay_steps(
    ruleset: AnyRuleset,
    state: Any,
    steps: Iterable[_Step],
    player: str | None,
    last_ends: bool = True,
    anchor: Any = None,
) -> Iterator[dict[str, Any]]:
    """Each step from the state ``state`` (None before the first event): the record as the
    reader may see it (``shown``) and the clear event the rules fold. Yields its seq, type and
    data as shown, the rule it explains (withheld where a seal stays closed to the reader), and
    what it changed in the reader's view (``player``; None: the referee's full view).

    A player sees a batch whole: what it changed is shown on its last event, the earlier ones
    changing nothing of their own (their order could tell what the rules hide), and a range
    that stops inside a batch shows no changes for that batch's events. The referee's changes
    are shown event by event."""
    if player is not None:
        yield from _batch_by_batch(ruleset, state, steps, player, last_ends, anchor)
        return
    # what the game waits for (``Ruleset.decision_keys``), between two events of a batch, is as
    # the batch found it
    decision_keys = ruleset.decision_keys
    before_view: Any = ruleset.view(state, player) if state is not None else {}
    if anchor is not None and isinstance(before_view, dict):
        # the range starts inside a batch: what the game waits for is as that batch found it
        anchored = ruleset.view(anchor, player)
        for key in decision_keys:
            if key in anchored:
                before_view[key] = anchored[key]
    for (shown, (_, event)), batch_ends in _with_batch_ends(steps, last_ends):
        state = evolve_event(ruleset, state, event)
        after_view = ruleset.view(state, player) if state is not None else {}
        if not batch_ends and isinstance(after_view, dict) and isinstance(before_view, dict):
            # between two events of a batch the game waits for nothing yet: what it waits for
            # changes, as a player sees it, from one batch's end to the next
            for key in decision_keys:
                if key in before_view:
                    after_view[key] = before_view[key]
        data = json.loads(shown.data)
        rule = explained(event, data)
        yield {
            "seq": shown.seq,
            "type": shown.type,
            "data": data,
            "explain": WITHHELD if rule is None else rule,
            "changes": changes(before_view, after_view)
            if shown.type not in CORE_TAGS or shown.seq == 1
            else [],
        }
        before_view = after_view


def _batch_by_batch(
    ruleset: AnyRuleset,
    state: Any,
    steps: Iterable[_Step],
    player: str,
    last_ends: bool,
    anchor: Any,
) -> Iterator[dict[str, Any]]:
    """``replay_steps`` for a player: the view is read at batch ends only (``anchor``, the
    state at the end of the batch before the range, when the range starts inside a batch)."""
    start = anchor if anchor is not None else state
    before_view: Any = ruleset.view(start, player) if start is not None else {}
    for (shown, (_, event)), batch_ends in _with_batch_ends(steps, last_ends):
        state = evolve_event(ruleset, state, event)
        data = json.loads(shown.data)
        rule = explained(event, data)
        shown_changes: list[str] = []
        if batch_ends:
            after_view = ruleset.view(state, player) if state is not None else {}
            shown_changes = changes(before_view, after_view)
            before_view = after_view
        yield {
            "seq": shown.seq,
            "type": shown.type,
            "data": data,
            "explain": WITHHELD if rule is None else rule,
            "changes": shown_changes,
        }
