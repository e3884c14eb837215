"""Hypothesis searching a ruleset's sources: what it traces of the failure it finds."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.fuzz.test_command import BFA
from warlog.arbiter.sources import file_records
from warlog.fuzz import search, sources
from warlog.fuzz.checks import Failure
from warlog.fuzz.example import Played, Step
from warlog.fuzz.report import Tally


class FailingOn:
    """An example that fails its first step with the check ``checks`` gives the source it forks
    (none: it passes), set by ``failing``."""

    checks: dict[int, str] = {}

    def __init__(self, start: Any, tally: Tally) -> None:
        self.source, self.played, self.current, self.current_expect = start, [], None, ""
        self.rolled: list[Any] = []

    def run(self, step: Step) -> None:
        self.current = step
        check = self.checks.get(id(self.source))
        if check is not None:
            raise Failure(check, f"planted: a {check} failure")

    def finish(self) -> None:
        pass


def twice() -> sources.Sources:
    """The golden game loaded as two sources of one ruleset (``sources.load`` would load it
    once, however often it is named)."""
    holder = sources.empty()
    for name in ("first.jsonl", "second.jsonl"):
        holder.sources.append(sources.add(holder, name, file_records(BFA)))
    return holder


def failing(monkeypatch: pytest.MonkeyPatch, checks: dict[int, str]) -> None:
    """Examples are ``FailingOn`` the sources ``checks`` names by ``id``."""
    monkeypatch.setattr(FailingOn, "checks", checks)
    monkeypatch.setattr(search, "forked", lambda _h, source, _at, _key: source)
    monkeypatch.setattr(search, "Example", FailingOn)
    monkeypatch.setattr(search, "draw_step", lambda *_: Step("legal", "{}"))


def test_a_failure_is_traced_to_the_source_whose_fork_failed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Given two sources of one ruleset, and examples that fail only when they fork the second,
    when the search finds the failure, then its trace names the second source (the pair is
    written from the game that failed, not the first of its ruleset)."""
    holder = twice()
    first, second = holder.sources
    failing(monkeypatch, {id(second): "crash"})
    tally = Tally("battle-for-armageddon", {}, [])
    budget = search.Budget(time.monotonic() + 30, 5)
    (trace,) = search.search(
        holder, [first, second], tally, examples=20, steps=1, seed=1, budget=budget
    )
    assert (trace.check, trace.source) == ("crash", 1)


def test_two_checks_failing_are_each_traced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Given examples that fail one check when they fork one source and another check when
    they fork the other, when the search finds both (Hypothesis reports them together), then
    it traces each, in the order of the checks, and ends without an error of its own."""
    holder = twice()
    first, second = holder.sources
    failing(monkeypatch, {id(first): "views", id(second): "crash"})
    tally = Tally("battle-for-armageddon", {}, [])
    budget = search.Budget(time.monotonic() + 30, 5)
    traces = search.search(
        holder, [first, second], tally, examples=20, steps=1, seed=1, budget=budget
    )
    assert [(t.check, t.source) for t in traces] == [("crash", 1), ("views", 0)]


def test_no_example_is_run_once_the_time_to_shrink_is_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Given no time to shrink what is found, when an example fails, then no example runs after
    it but Hypothesis's final replay of it (counted as shrinking), and its failure is traced
    as found."""
    holder = sources.load([BFA], lambda: pytest.fail("no database"))
    (source,) = holder.sources
    failing(monkeypatch, {id(source): "crash"})
    tally = Tally("battle-for-armageddon", {}, [])
    budget = search.Budget(time.monotonic() + 30, 0)
    (trace,) = search.search(holder, [source], tally, examples=20, steps=1, seed=1, budget=budget)
    assert trace.check == "crash"
    assert (tally.first_failure, tally.examples, tally.shrinking) == (1, 2, 1)


class FailingAsItStarts(FailingOn):
    def __init__(self, start: Any, tally: Tally) -> None:
        raise Failure("dead_end", "planted: the fork point waits for nobody", 0)


class FailingAtItsEnd(FailingOn):
    def run(self, step: Step) -> None:
        self.played.append(Played(step, accepted=True))

    def finish(self) -> None:
        self.current = None
        raise Failure("views", "planted: the referee's view", 0)


@pytest.mark.parametrize(
    ("example", "check"), [(FailingAsItStarts, "dead_end"), (FailingAtItsEnd, "views")]
)
def test_a_failure_outside_any_step_is_traced_with_no_failing_step(
    monkeypatch: pytest.MonkeyPatch, example: type[FailingOn], check: str
) -> None:
    """Given examples that fail as they start (their fork point) or at their end (after every
    step passed), when the search finds it, then its trace has no failing step: the pair
    replays the steps played, if any, from the first."""
    holder = sources.load([BFA], lambda: pytest.fail("no database"))
    (source,) = holder.sources
    failing(monkeypatch, {})
    monkeypatch.setattr(search, "Example", example)
    tally = Tally("battle-for-armageddon", {}, [])
    budget = search.Budget(time.monotonic() + 30, 5)
    (trace,) = search.search(holder, [source], tally, examples=5, steps=1, seed=1, budget=budget)
    assert (trace.check, trace.failing, trace.since) == (check, None, 0)
    assert len(trace.played) == (check == "views")
