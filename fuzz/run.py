"""``warlog fuzz`` as a library call: load the sources, search each ruleset's in its share of the
budget, write each failure as a fixture and replay it at once to make sure it fails again; on
Ctrl-C, stop where it is and keep what was found."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from pathlib import Path

from warlog.arbiter.application import Arbiter
from warlog.domain.core.errors import InputError, WarlogError
from warlog.fuzz import BUDGET, EXAMPLES, OUT, STEPS, fixture, shrink, sources
from warlog.fuzz.example import crash_text
from warlog.fuzz.report import Found, Report, Tally
from warlog.fuzz.search import INTERRUPTED, Budget, Trace, search
from warlog.fuzz.strategies import mutable_types

#: shrinking may go on for this share of the search's time, from the first failure found
SHRINK_SHARE = 0.5

#: told the ruleset being fuzzed, the examples run so far in it and the share of the budget
#: used (0..1)
Progress = Callable[[str, int, float], None]


def fuzz(
    specs: list[str],
    database: Callable[[], Arbiter],
    *,
    budget: float = BUDGET,
    examples: int = EXAMPLES,
    steps: int = STEPS,
    seed: int | None = None,
    out: str = OUT,
    shrinking: float | None = None,
    progress: Progress | None = None,
) -> Report:
    """Fuzz the games ``specs`` names (game ids in ``database()``, export files, folders).
    Once they are loaded, each ruleset is searched in an equal share of what is left of
    ``budget`` seconds (shrinking what it finds may take half as long again, or ``shrinking``
    seconds, from the first failure found) for at most ``examples`` examples of at most
    ``steps`` steps. Ctrl-C (a KeyboardInterrupt) ends the run as the budget running out would:
    the search stops, and so does the shrinking, what was found is written, and the report
    says where it was interrupted (``Report.interrupted``). InputError or IntegrityError for
    sources that cannot be loaded (InputError ``input/interrupted`` when interrupted while
    loading them)."""
    began = time.monotonic()
    seed = secrets.randbelow(2**32) if seed is None else seed
    try:
        holder = sources.load(specs, database)
    except KeyboardInterrupt:
        raise InputError(
            "interrupted while loading the sources: nothing was checked", "input/interrupted"
        ) from None
    searching = time.monotonic()
    groups = list(holder.by_ruleset().items())
    tallies: list[Tally] = []
    found: list[Found] = []
    report = Report(seed, [s.name for s in holder.sources], tallies, found, 0.0)
    report.loading = searching - began
    for i, (name, group) in enumerate(groups):
        if report.interrupted:
            report.unsearched.append(name)
            continue
        share = max(0.0, budget - (time.monotonic() - searching)) / (len(groups) - i)
        now = time.monotonic()
        known = {e.type_name() for source in group for e in source.ruleset.event_types}
        versions = {source.name: source.ruleset.version for source in group}
        complete = {
            kind
            for source in group
            for kind in source.ruleset.complete_legal & mutable_types(source.ruleset)
        }
        tally = Tally(name, versions, sorted(known), planned=examples, complete=sorted(complete))
        tallies.append(tally)

        def told(n: int, name: str = name, ends: float = now + share, share: float = share) -> None:
            """How far the search is: of its time or of its examples, whichever ends it first."""
            if progress is not None:
                spent = 1 - max(0.0, ends - time.monotonic()) / share if share else 1.0
                progress(name, n, max(spent, min(1.0, n / examples) if examples else 1.0))

        shrink_for = share * SHRINK_SHARE if shrinking is None else shrinking
        budget_ = Budget(now + share, shrink_for)
        traces: list[Trace] = []
        try:
            traces = search(
                holder,
                group,
                tally,
                examples=examples,
                steps=steps,
                seed=seed,
                budget=budget_,
                progress=told,
            )
            traces = [_shrunk(holder, group, t, tally, budget_.shrink_until) for t in traces]
        except KeyboardInterrupt:  # between the search's own guards: the same end
            tally.stopped = INTERRUPTED
        if tally.stopped == INTERRUPTED:
            report.interrupted = name
        found += [_record(holder, group, trace, Path(out), seed, report) for trace in traces]
    report.seconds = time.monotonic() - began
    return report


def _shrunk(
    holder: sources.Sources, group: list[sources.Source], trace: Trace, tally: Tally, until: float
) -> Trace:
    """``trace`` after warlog's own shrinking passes (``shrink``): its generated commands cut
    to those it needs, then an earlier fork point (and the commands cut again from there), then
    the refused steps it does not need dropped."""
    if tally.stopped == INTERRUPTED:
        return trace
    trace = shrink.fewer(holder, group, trace, tally, until)
    found = shrink.earlier(holder, group, trace, tally, until)
    if found.at != trace.at:
        found = shrink.fewer(holder, group, found, tally, until)
    return shrink.without_refused(holder, group, found, tally, until)


#: how many times a written failure is replayed at once: reproduced only if it fails its check
#: each time
REPLAYS = 3


def _record(
    holder: sources.Sources,
    group: list[sources.Source],
    trace: Trace,
    out: Path,
    seed: int,
    report: Report,
) -> Found:
    """``trace`` written as a fixture and replayed at once (not once the run is interrupted,
    and Ctrl-C during the replays stops them and the run). What the search found is reported
    even when it cannot be written or replayed: the reason is then said instead."""
    found = Found(
        ruleset=group[0].ruleset.name,
        check=trace.check,
        message=trace.message,
        fixture="",
        events=0,
        steps=0,
        replayed="",
        unfinished=trace.unfinished,
    )
    try:
        written = fixture.write(holder, group, trace, out, seed)
    except Exception as exc:
        found.unwritten = _why(exc)
        return found
    found.fixture, found.events, found.steps = str(written.path), written.events, written.steps
    found.fork_at, found.commands = written.fork_at, written.commands
    found.kept, found.kept_seed = written.kept, written.kept_seed
    for _ in range(REPLAYS):  # a failure that does not come back each time is flaky
        if report.interrupted:
            found.unreplayed = "the run was interrupted"
            return found
        try:
            again = fixture.replay(str(written.path.with_suffix(".json")))
        except KeyboardInterrupt:
            report.interrupted = found.ruleset
            continue
        except Exception as exc:
            found.unreplayed = _why(exc)
            return found
        found.replayed = again.failure.check if again.failure else ""
        if found.replayed != trace.check:
            break
    return found


def _why(exc: Exception) -> str:
    """An error in one line: warlog's own as the command line prints it, any other as a bug."""
    if isinstance(exc, WarlogError):
        return exc.line()
    return f"{crash_text(exc)} (a bug in warlog)"
