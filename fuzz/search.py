"""Hypothesis searching one ruleset's sources for failures and shrinking each one it finds.

An example is a choice of source and fork point, a key for the fork's new dice, a number of
steps and the steps themselves, every one a Hypothesis draw: the same seed gives the same
examples, and a failure shrinks to fewer steps, earlier fork points (fewer events of the
source) and simpler commands. Each check that fails is its own failure (its own exception type),
so that a run reports one shrunk example per check. Hypothesis keeps no database, prints nothing
(the report is ``warlog fuzz``'s own) and draws from the seed alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import tempfile
import time
from collections.abc import Callable, Iterator

import msgspec
from hypothesis import (
    HealthCheck,
    Phase,
    Verbosity,
    configuration,
    given,
    reject,
    settings,
    target,
)
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.control import current_build_context
from hypothesis.errors import Flaky, StopTest
from hypothesis.internal.conjecture import providers

from warlog.fuzz.checks import CHECKS, Failure
from warlog.fuzz.example import Example, Played, forked
from warlog.fuzz.report import Tally
from warlog.fuzz.sources import Source, Sources
from warlog.fuzz.strategies import draw_step, pick


class Trace(msgspec.Struct):
    """A failing example, as run: where it forked, its key, the steps it played (the failing
    one last unless the check failed at the example's end), and what failed."""

    source: int
    at: int
    key: int
    played: list[Played]
    #: the failing step as drawn, and the rolls it made before failing
    failing: Played | None
    check: str
    message: str
    #: the index of the first step a fixture must replay (the log is cut before it)
    since: int
    #: why shrinking it stopped before it was done ("": it was not cut short), e.g.
    #: "dropping commands: its time ran out"
    unfinished: str = ""

    @classmethod
    def of(cls, source: int, at: int, key: int, example: Example | None, failure: Failure) -> Trace:
        """The trace of ``example`` (None: it failed as it started) failing with ``failure``."""
        played = list(example.played) if example is not None else []
        since = len(played) if failure.since is None else failure.since
        return cls(
            source, at, key, played, _failing(example), failure.check, failure.message, since
        )


class Budget(msgspec.Struct):
    """When the search stops: ``search_until`` (time.monotonic) for new examples; shrinking
    what it found may go on for ``shrinking`` seconds from the first failure, until
    ``shrink_until`` (set then)."""

    search_until: float
    shrinking: float
    shrink_until: float = 0.0


#: the most examples Hypothesis may run to shrink what a ruleset's search found (besides the time
#: ``Budget`` gives it), so that the same seed shrinks to the same failure on any machine
MOST_SHRINKS = 60


class _OutOfTime(BaseException):
    """Ends the search when its time is up and nothing failed (a BaseException, so that
    Hypothesis passes it through rather than counting a failure)."""


#: one exception type per check, so that Hypothesis shrinks a failure of each
_FAILED: dict[str, type[Exception]] = {
    check: type(f"Failed_{check}", (Exception,), {}) for check in CHECKS
}


def key_of(n: int, source: Source) -> bytes:
    """The 32-byte key of an example's new dice, from its drawn number and the source it forks
    (its last event's hash): a source written by an earlier fuzz run reveals the key of its own
    example, which an example forking it must not use again (every seal would open)."""
    return hashlib.sha256(f"warlog fuzz dice {n} {source.tip}".encode()).digest()


def search(
    sources: Sources,
    group: list[Source],
    tally: Tally,
    *,
    examples: int,
    steps: int,
    seed: int,
    budget: Budget,
    progress: Callable[[int], None] | None = None,
) -> list[Trace]:
    """Search ``group`` (sources of one ruleset) for failures; one shrunk trace per check that
    failed, in the order of ``CHECKS``. ``tally`` counts what ran."""
    found: dict[str, Trace] = {}
    started = time.monotonic()
    shrunk_before = tally.shrinking

    def test(data: st.DataObject) -> None:
        final = current_build_context().is_final
        now = time.monotonic()
        if found and not budget.shrink_until:
            budget.shrink_until = now + budget.shrinking
        if not final and now > (budget.shrink_until if found else budget.search_until):
            if not found:
                tally.stopped = "budget"
                raise _OutOfTime  # Hypothesis may report it as flaky data: either way it stops
            reject()  # out of time to shrink: every further attempt counts for nothing
        if not final and found and tally.shrinking - shrunk_before >= MOST_SHRINKS:
            reject()
        tally.examples += 1
        tally.shrinking += bool(found)
        if progress is not None:
            progress(tally.examples)
        which = pick(data, range(len(group)))
        source = group[which]
        at = pick(data, source.ends)
        key = data.draw(st.integers(0, 2**32 - 1))
        count = data.draw(st.integers(1, steps))
        before = dict(tally.reached)
        example: Example | None = None
        try:
            example = Example(forked(sources, source, at, key_of(key, source)), tally)
            for _ in range(count):
                example.run(draw_step(data, example, source))
            example.finish()
        except StopTest:  # out of draws: Hypothesis ends the example here
            tally.cut_short += 1
            raise
        except Failure as failure:
            tally.first_failure = tally.first_failure or tally.examples
            tally.stopped = "failure"
            found[failure.check] = Trace.of(which, at, key, example, failure)
            raise _FAILED[failure.check](failure.message) from None
        finally:
            target(_rarity(before, tally.reached), label="rare event types")

    run = settings(
        database=None,
        max_examples=examples,
        deadline=None,
        derandomize=False,
        phases=[Phase.generate, Phase.target, Phase.shrink],
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=True,
        print_blob=False,
        verbosity=Verbosity.quiet,
    )(hypothesis_seed(seed)(given(st.data())(test)))
    # what failed is in ``found``: Hypothesis re-raises it, or its time ran out; anything else
    # is the fuzzer's own error, which is not a verdict on the rules and must not pass unseen
    try:
        with _isolated():
            run()
    except _OutOfTime:
        pass
    except KeyboardInterrupt:  # Ctrl-C: the search ends as if its time were up
        tally.stopped = INTERRUPTED
    except Exception as exc:
        if not _expected(exc, bool(found) or tally.stopped == "budget"):
            raise
    tally.seconds += time.monotonic() - started
    traces = [found[check] for check in CHECKS if check in found]
    if tally.stopped == INTERRUPTED:  # what Hypothesis had shrunk them to by then
        traces = [cut_short(t, "interrupted while Hypothesis shrank it") for t in traces]
    return traces


#: ``Tally.stopped`` of a search or shrinking ended by Ctrl-C (a KeyboardInterrupt)
INTERRUPTED = "interrupted"


def cut_short(trace: Trace, why: str) -> Trace:
    """``trace``, said to be shrunk no further than it is because of ``why``."""
    return msgspec.structs.replace(
        trace, unfinished="; ".join(w for w in (trace.unfinished, why) if w)
    )


def _expected(exc: BaseException, stopping: bool) -> bool:
    """``exc`` is how a search ends: a check's failure (Hypothesis re-raises it, or a group of
    them), the search's time running out, or Hypothesis calling either flaky while it stops
    (``stopping``: something was found, or the budget ran out)."""
    if isinstance(exc, (_OutOfTime, *_FAILED.values())):
        return True
    if isinstance(exc, Flaky) and stopping:
        return True
    if isinstance(exc, BaseExceptionGroup):
        return all(_expected(e, stopping) for e in exc.exceptions)
    return False


@contextlib.contextmanager
def _isolated() -> Iterator[None]:
    """The search kept apart from where it runs: Hypothesis's home directory (where it caches
    what it reads of local source files) in a temporary folder, so that nothing is written where
    the user works; and no draw of the constants Hypothesis reads from the modules loaded (a
    choice of theirs would depend on which modules the process happens to hold: the same seed
    must give the same examples from the command line, a test suite or a REPL). The second is
    an internal of Hypothesis: where it is missing, draws are left as they are."""
    home = vars(configuration).get("__hypothesis_home_directory")
    provider = getattr(providers, "HypothesisProvider", None)
    constant = getattr(provider, "_maybe_draw_constant", None)
    with tempfile.TemporaryDirectory(prefix="warlog-fuzz-") as folder:
        configuration.set_hypothesis_home_dir(folder)
        if constant is not None:
            provider._maybe_draw_constant = _no_constant  # type: ignore[union-attr]
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(home)
            if constant is not None:
                provider._maybe_draw_constant = constant  # type: ignore[union-attr]


def _no_constant(self: object, *args: object, **kwargs: object) -> None:
    return None


def _failing(example: Example | None) -> Played | None:
    """The step that was being played when the check failed (None if none was)."""
    if example is None:
        return None
    step = example.current
    if step is None:
        return None
    return Played(
        step,
        accepted=False,
        expect=example.current_expect,
        dice=[(s, list(f)) for s, f in example.rolled],
    )


def _rarity(before: dict[str, int], after: dict[str, int]) -> float:
    """How rare the event types an example reached were: each type it appended counts
    ``1 / (1 + how many the run had appended before)``."""
    return sum(1.0 / (1 + before.get(t, 0)) for t, n in after.items() if n > before.get(t, 0))
