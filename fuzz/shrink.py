"""Shrinking the recorded prefix: after Hypothesis has shrunk a failure's generated steps, look
for an earlier fork point (fewer events of the source) from which it still fails.

Hypothesis orders examples by their choices, fewest first, so it ends with the fewest generated
steps from a fork point those steps still fail from, often late in the source. This pass tries
the fork points before it, earliest first, while time is left: first the steps the fixture
would replay (those from the first one the failure depends on) at each, then, for a failure of
a single step, the first ``LEGAL_PER_POINT`` commands legal at each. The first that fails the
same check wins; the pass gives up after ``ATTEMPTS`` examples. Then ``without_refused`` drops
the refused steps the fixture would replay that the failure does not need.
"""

from __future__ import annotations

import time

import msgspec

from warlog.fuzz.checks import Failure
from warlog.fuzz.example import Example, Step, forked
from warlog.fuzz.report import Tally
from warlog.fuzz.search import Trace, key_of
from warlog.fuzz.sources import Source, Sources

#: the most examples the pass runs (each a fork point and one or more steps)
ATTEMPTS = 200
#: the legal commands tried at each fork point for a one-step failure (the first ones listed)
LEGAL_PER_POINT = 8


def earlier(
    holder: Sources, group: list[Source], trace: Trace, tally: Tally, until: float
) -> Trace:
    """``trace``, or the same failure from the earliest fork point found before ``until``
    (time.monotonic) that still fails the same check."""
    source = group[trace.source]
    # the steps the fixture replays (those before ``since`` only lead the game to where they
    # start: an earlier fork point may lead there, or somewhere like it, by itself)
    steps = [p.step for p in trace.played[trace.since :]]
    steps += [trace.failing.step] if trace.failing else []
    most = tally.examples + ATTEMPTS
    points = [at for at in source.ends if at < trace.at]
    for at in points:  # the same steps, from each earlier fork point
        if time.monotonic() > until or tally.examples >= most:
            return trace
        found = _attempt(holder, group, trace, at, steps, tally)
        if found is not None:
            return found
    if len(steps) == 1:  # one step: the first few commands legal at each earlier fork point
        for at in points:
            if time.monotonic() > until or tally.examples >= most:
                break
            found = _each_legal(holder, group, trace, at, tally, until, most)
            if found is not None:
                return found
    return trace


def without_refused(
    holder: Sources, group: list[Source], trace: Trace, tally: Tally, until: float
) -> Trace:
    """``trace`` without the refused steps the fixture would replay (those from ``since``, the
    failing one aside) that its failure does not need: all of them at once if it still fails
    the same check without them, else each one, the last first, while time is left. A refused
    step appends nothing, so it is seldom needed, but Hypothesis may keep one whose draws the
    steps after it were made of."""
    kept = list(trace.played)
    refused = [i for i in range(trace.since, len(kept)) if not kept[i].accepted]
    # at most one example more than the refused steps; dropped one at a time, the last first,
    # so that the indices of those before it still name them in the shorter trace
    tries = [refused] + [[i] for i in reversed(refused)] if len(refused) > 1 else [refused]
    for dropped in tries if refused else []:
        if time.monotonic() > until:
            break
        steps = [p.step for i, p in enumerate(trace.played) if i not in dropped]
        steps += [trace.failing.step] if trace.failing else []
        found = _attempt(holder, group, trace, trace.at, steps, tally)
        if found is not None and len(found.played) < len(trace.played):
            if len(dropped) == len(refused):
                return found
            trace = found
    return trace


def _each_legal(
    holder: Sources,
    group: list[Source],
    trace: Trace,
    at: int,
    tally: Tally,
    until: float,
    most: int,
) -> Trace | None:
    source = group[trace.source]
    try:
        first = Example(forked(holder, source, at, key_of(trace.key, source)), tally)
    except Failure:
        return None  # the fork point itself fails another way: not this failure
    legal = [c for p in sorted(first.legal) for c in first.legal[p]]
    for command in legal[:LEGAL_PER_POINT]:
        if time.monotonic() > until or tally.examples >= most:
            return None
        step = Step("legal", msgspec.json.encode(command).decode())
        found = _attempt(holder, group, trace, at, [step], tally)
        if found is not None:
            return found
    return None


def _attempt(
    holder: Sources, group: list[Source], trace: Trace, at: int, steps: list[Step], tally: Tally
) -> Trace | None:
    """The trace of ``steps`` played from ``at``, if they fail ``trace``'s check."""
    tally.examples += 1
    tally.shrinking += 1
    source = group[trace.source]
    example: Example | None = None
    try:
        example = Example(forked(holder, source, at, key_of(trace.key, source)), tally)
        for step in steps:
            example.run(step)
        example.finish()
    except Failure as failure:
        if failure.check == trace.check:
            return Trace.of(trace.source, at, trace.key, example, failure)
    return None
