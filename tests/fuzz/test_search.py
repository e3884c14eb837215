"""Hypothesis searching a ruleset's sources: what it traces of the failure it finds."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.fuzz.test_command import BFA
from warlog.fuzz import search, sources
from warlog.fuzz.checks import Failure
from warlog.fuzz.example import Step
from warlog.fuzz.report import Tally


def test_a_failure_is_traced_to_the_source_whose_fork_failed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Given two sources of one ruleset, and examples that fail only when they fork the second,
    when the search finds the failure, then its trace names the second source (the pair is
    written from the game that failed, not the first of its ruleset)."""
    holder = sources.load([BFA, BFA], lambda: pytest.fail("no database"))
    first, second = holder.sources

    class Forking:
        """An example that fails at its first step when it forks ``second``."""

        def __init__(self, start: Any, tally: Tally) -> None:
            self.source, self.played, self.current, self.current_expect = start, [], None, ""
            self.rolled: list[Any] = []

        def run(self, step: Step) -> None:
            self.current = step
            if self.source is second:
                raise Failure("crash", "planted: the second source fails")

        def finish(self) -> None:
            pass

    monkeypatch.setattr(search, "forked", lambda _h, source, _at, _key: source)
    monkeypatch.setattr(search, "Example", Forking)
    monkeypatch.setattr(search, "draw_step", lambda *_: Step("legal", "{}"))
    tally = Tally("battle-for-armageddon", {}, [])
    budget = search.Budget(time.monotonic() + 30, 5)
    (trace,) = search.search(
        holder, [first, second], tally, examples=20, steps=1, seed=1, budget=budget
    )
    assert (trace.check, trace.source) == ("crash", 1)
