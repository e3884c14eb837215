"""Shrinking what Hypothesis found: fewer generated commands, an earlier fork point (fewer
events of the source), no refused step the failure does not need.

Hypothesis orders examples by their choices, fewest first, but stops shrinking after
``search.MOST_SHRINKS`` examples: a failure may still hold generated commands it does not need,
each of which a written pair would hold (in its log, or as a step to replay). ``fewer`` drops
them: delta debugging over every generated command from the fork point (those the log would
hold and those the ``.json`` would replay), each candidate an example from the same fork point,
on the same key, that must fail the same check. ``earlier`` then tries the fork points before
the one found, earliest first: first the steps the fixture would replay (those from the first
one the failure depends on) at each, then, for a failure of a single step, at each fork point
before the one kept, the commands legal there of the failing command's type (``LEGAL_PER_POINT``
at most), then the first ``LEGAL_PER_POINT`` of any type. The first that fails the same check
wins. Then ``without_refused`` drops the refused steps the fixture would replay that the failure
does not need. Each pass runs at most ``ATTEMPTS`` examples, and none once the shrinking's time
is out or the run is interrupted (Ctrl-C: ``search.INTERRUPTED``, the smallest trace found so
far kept); a pass stopped so says so in the trace (``Trace.unfinished``), and the summary with
it.
"""

from __future__ import annotations

import time

import msgspec

from warlog.fuzz.checks import Failure, command_type
from warlog.fuzz.example import Example, Step, forked
from warlog.fuzz.report import Tally
from warlog.fuzz.search import INTERRUPTED, Trace, cut_short, key_of
from warlog.fuzz.sources import Source, Sources

#: the most examples each pass runs (each a fork point and one or more steps)
ATTEMPTS = 200
#: the legal commands tried at each fork point for a one-step failure (the first ones listed)
LEGAL_PER_POINT = 8


def fewer(holder: Sources, group: list[Source], trace: Trace, tally: Tally, until: float) -> Trace:
    """``trace`` with as few of its generated commands as still fail the same check from its
    fork point, on its key: delta debugging (ddmin) over all of them, the failing one included,
    removing a part at a time (halves, then quarters, ... down to single commands) while what is
    left still fails. It stops after ``ATTEMPTS`` examples or at ``until`` (time.monotonic),
    saying so in ``unfinished``."""
    steps = _steps_of(trace)
    most = tally.examples + ATTEMPTS
    parts = 2
    while len(steps) >= 2:
        size = -(-len(steps) // parts)  # parts of ``size``, the last maybe shorter
        chunks = [range(i, min(i + size, len(steps))) for i in range(0, len(steps), size)]
        for chunk in chunks:
            stopped = _stopped(tally, most, until)
            if stopped:
                return cut_short(trace, f"dropping commands: {stopped}")
            kept = [s for i, s in enumerate(steps) if i not in chunk]
            found = _attempt(holder, group, trace, trace.at, kept, tally)
            if found is not None:  # it may fail before its last step: fewer still
                trace = msgspec.structs.replace(found, unfinished=trace.unfinished)
                steps = _steps_of(trace)
                parts = max(parts - 1, 2)
                break
        else:
            if parts >= len(steps):
                break  # no single command can go
            parts = min(2 * parts, len(steps))
    return trace


def _steps_of(trace: Trace) -> list[Step]:
    """Every generated command of ``trace``, the failing one included."""
    return [p.step for p in trace.played] + ([trace.failing.step] if trace.failing else [])


def _stopped(tally: Tally, most: int | None, until: float) -> str:
    """Why a pass must stop now ("": it may go on): interrupted, out of time, or (``most``)
    out of examples."""
    if tally.stopped == INTERRUPTED:
        return "interrupted"
    if time.monotonic() > until:
        return "its time ran out"
    if most is not None and tally.examples >= most:
        return f"{ATTEMPTS} examples run"
    return ""


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
    # and the last commands of the failing command's type, all of them, where the log holds
    # some too (the moves of a unit, say, that the failing move follows: from a fork point
    # before the commands that led to them, they may be all the failure needs)
    run = _last_of_its_type(_steps_of(trace))
    tried = [steps] + ([run] if len(run) > len(steps) else [])
    most = tally.examples + ATTEMPTS
    points = [at for at in source.ends if at < trace.at]
    best = trace
    for at in points:  # the same steps, from each earlier fork point
        found = None
        for candidate in tried:
            stopped = _stopped(tally, most, until)
            if stopped:
                return cut_short(trace, f"earlier fork points: {stopped}")
            found = _attempt(holder, group, trace, at, candidate, tally)
            if found is not None:
                break
        if found is not None:
            best = msgspec.structs.replace(found, unfinished=trace.unfinished)
            break
    if len(steps) != 1:
        return best
    # one step: commands legal at the fork points before the one kept, those of the failing
    # command's type first (the bug is likely in what that type does), at every point, before
    # any other: a budget spent on other commands at the first points would leave the later
    # ones untried
    wanted = command_type(steps[0].text)
    before = [at for at in points if at < best.at]
    for same in (True, False):
        for at in before:
            stopped = _stopped(tally, most, until)
            if stopped:
                return cut_short(best, f"earlier fork points: {stopped}")
            found = _each_legal(holder, group, trace, at, tally, until, most, wanted, same)
            if found is not None:
                return msgspec.structs.replace(found, unfinished=trace.unfinished)
    return best


def _last_of_its_type(steps: list[Step]) -> list[Step]:
    """The last steps of ``steps`` whose command is of the type of the last one (none if that
    names no type)."""
    wanted = command_type(steps[-1].text) if steps else None
    if wanted is None:
        return []
    n = 0
    while n < len(steps) and command_type(steps[-1 - n].text) == wanted:
        n += 1
    return steps[len(steps) - n :]


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
        stopped = _stopped(tally, None, until)
        if stopped:
            return cut_short(trace, f"dropping refused steps: {stopped}")
        steps = [p.step for i, p in enumerate(trace.played) if i not in dropped]
        steps += [trace.failing.step] if trace.failing else []
        found = _attempt(holder, group, trace, trace.at, steps, tally)
        if found is not None and len(found.played) < len(trace.played):
            found = msgspec.structs.replace(found, unfinished=trace.unfinished)
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
    wanted: object,
    same: bool,
) -> Trace | None:
    """The first of the commands legal at ``at`` whose type is ``wanted`` (``same``), or is not,
    ``LEGAL_PER_POINT`` at most, that fails ``trace``'s check alone."""
    source = group[trace.source]
    try:
        first = Example(forked(holder, source, at, key_of(trace.key, source)), tally)
    except Failure:
        return None  # the fork point itself fails another way: not this failure
    except KeyboardInterrupt:
        tally.stopped = INTERRUPTED
        return None
    texts = [msgspec.json.encode(c).decode() for p in sorted(first.legal) for c in first.legal[p]]
    chosen = [t for t in texts if (command_type(t) == wanted) == same]
    for text in chosen[:LEGAL_PER_POINT]:
        if _stopped(tally, most, until):
            return None
        found = _attempt(holder, group, trace, at, [Step("legal", text)], tally)
        if found is not None:
            return found
    return None


def _attempt(
    holder: Sources, group: list[Source], trace: Trace, at: int, steps: list[Step], tally: Tally
) -> Trace | None:
    """The trace of ``steps`` played from ``at``, if they fail ``trace``'s check (None, and the
    shrinking marked interrupted, on Ctrl-C)."""
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
    except KeyboardInterrupt:
        tally.stopped = INTERRUPTED
    return None
