"""Shrinking a failure: the refused steps a written failure would replay, when the failure does
not need them, are dropped (a rules developer reads every step of a shrunk log)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import msgspec
import pytest

from tests.fuzz import planted as plants
from tests.fuzz.test_planted_bugs import fuzzed, recorded
from warlog.arbiter.application import Arbiter
from warlog.domain import rulesets
from warlog.domain.battle_for_armageddon import commands as cmd
from warlog.eventstore.memory_store import MemoryStore
from warlog.fuzz import shrink, sources
from warlog.fuzz.checks import Failure
from warlog.fuzz.example import Example, Played, Step, forked
from warlog.fuzz.report import Tally
from warlog.fuzz.search import Trace, key_of

#: a side the game does not wait for may end the phase: the outcome check fails on it
NAME = "bfa-planted-turn"


def tally() -> Tally:
    return Tally(NAME, {}, [])


def text(command: object) -> str:
    return msgspec.json.encode(command).decode()


def test_a_refused_step_the_failure_does_not_need_is_dropped(tmp_path: Path) -> None:
    """Given a failure of the planted bug (the Orks end the Imperials' phase) found after a
    deployment refused out of turn and a command refused as bad input, whose fixture would
    replay every step from the fork point (as a leak's does from the step its twin was made
    at), when it is shrunk, then it replays the failing step alone and fails the same check;
    the refused step that fails is kept."""
    log = str(recorded(NAME, tmp_path))
    with plants.registered(NAME, plants.PLANTED[NAME]()):
        holder = sources.load([log], lambda: Arbiter(MemoryStore(), rulesets.get))
        (source,) = holder.sources
        for at in source.ends:  # a fork point where the Imperials may end the phase
            start = Example(forked(holder, source, at, key_of(0, source)), tally())
            ending = [c for c in start.legal.get("imperials", []) if isinstance(c, cmd.EndPhase)]
            if ending:
                break
        steps = [
            Step("wrong_player", text(cmd.Deploy(player="orks", counter="x", to="y"))),
            Step("malformed", '{"type": "no_such_command"}'),
            Step("wrong_player", text(msgspec.structs.replace(ending[0], player="orks"))),
        ]
        example = Example(forked(holder, source, at, key_of(0, source)), tally())
        try:
            for step in steps:
                example.run(step)
        except Failure as failure:
            trace = Trace.of(0, at, 0, example, failure)
        assert trace.check == "outcome" and [p.accepted for p in trace.played] == [False, False]
        trace = msgspec.structs.replace(trace, since=0)
        shrunk = shrink.without_refused(
            holder, holder.sources, trace, tally(), time.monotonic() + 60
        )
        assert (shrunk.check, shrunk.played, shrunk.since) == ("outcome", [], 0)
        assert shrunk.failing is not None and shrunk.failing.step == steps[2]


#: no sources: ``_attempt`` is replaced, nothing is forked
NO_SOURCES: Any = None


def refused(name: str) -> Played:
    return Played(Step("wrong_player", name), accepted=False)


def failing_while(needed: str) -> Callable[..., Trace | None]:
    """An ``_attempt`` whose steps fail the same check only while they hold ``needed`` (a
    refused step whose draws the failure was made of)."""

    def attempt(
        holder: object, group: object, trace: Trace, at: int, steps: list[Step], tally: Tally
    ) -> Trace | None:
        tally.examples += 1
        tally.shrinking += 1
        if needed not in [s.text for s in steps]:
            return None
        played = [Played(s, accepted=False) for s in steps[:-1]]
        return msgspec.structs.replace(trace, played=played, failing=Played(steps[-1], False))

    return attempt


def a_trace(*names: str, since: int = 0) -> Trace:
    return Trace(0, 1, 0, [refused(n) for n in names], refused("fails"), "outcome", "", since)


@pytest.mark.parametrize(
    ("names", "needed", "kept"),
    [(("r0", "r1"), "r0", ["r0"]), (("r0", "r1", "r2"), "r2", ["r2"])],
    ids=["two, the first needed", "three, the last needed"],
)
def test_a_refused_step_the_failure_needs_is_kept_and_each_other_one_dropped(
    monkeypatch: pytest.MonkeyPatch, names: tuple[str, ...], needed: str, kept: list[str]
) -> None:
    """Given a failure after refused steps, one of which it needs (dropping them all at once
    no longer fails), when it is shrunk, then each of the others is dropped in turn, the last
    first, and the needed one is kept: the failure replays it and the failing step only."""
    monkeypatch.setattr(shrink, "_attempt", failing_while(needed))
    trace = a_trace(*names)
    shrunk = shrink.without_refused(NO_SOURCES, [], trace, tally(), time.monotonic() + 60)
    assert [p.step.text for p in shrunk.played] == kept
    assert shrunk.failing is not None and shrunk.failing.step.text == "fails"


def test_the_refused_steps_before_the_fixture_s_first_are_not_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Given a failure whose fixture replays from its second step, both refused, when it is
    shrunk, then only the second is dropped: the first leads the log to where the fixture
    starts."""
    monkeypatch.setattr(shrink, "_attempt", failing_while("fails"))
    trace = a_trace("r0", "r1", since=1)
    shrunk = shrink.without_refused(NO_SOURCES, [], trace, tally(), time.monotonic() + 60)
    assert [p.step.text for p in shrunk.played] == ["r0"]


def test_no_example_is_run_once_the_shrinking_time_is_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Given a failure after refused steps it does not need, when it is shrunk after its
    time ran out, then it comes back as it was, no example run, said to be cut short."""
    monkeypatch.setattr(shrink, "_attempt", failing_while("fails"))
    counted = tally()
    trace = a_trace("r0", "r1")
    shrunk = shrink.without_refused(NO_SOURCES, [], trace, counted, time.monotonic() - 1)
    assert msgspec.structs.replace(shrunk, unfinished="") == trace and counted.shrinking == 0
    assert shrunk.unfinished == "dropping refused steps: its time ran out"


def test_no_earlier_fork_point_is_tried_once_the_shrinking_time_is_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Given a failure found at the last of three fork points that would fail from each, when
    its prefix is shrunk after its time ran out, then it comes back as it was found and no
    example is run; the trace says its shrinking stopped short."""
    monkeypatch.setattr(shrink, "_attempt", failing_while("fails"))
    counted = tally()
    group: Any = [SimpleNamespace(ends=[1, 5, 9], tip="")]
    trace = msgspec.structs.replace(a_trace("r0"), at=9)
    shrunk = shrink.earlier(NO_SOURCES, group, trace, counted, time.monotonic() - 1)
    assert msgspec.structs.replace(shrunk, unfinished="") == trace and counted.examples == 0
    assert shrunk.unfinished == "earlier fork points: its time ran out"


def test_every_failure_the_fuzz_finds_goes_through_without_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given the planted bug and a recorded game, when warlog fuzz finds it, then each failure
    it writes was first stripped of the refused steps it does not need."""
    seen: list[Trace] = []
    real = shrink.without_refused

    def spy(holder: Any, group: Any, trace: Trace, counted: Tally, until: float) -> Trace:
        seen.append(trace)
        return real(holder, group, trace, counted, until)

    monkeypatch.setattr(shrink, "without_refused", spy)
    source = recorded(NAME, tmp_path)
    with plants.registered(NAME, plants.PLANTED[NAME]()):
        plants.forget()
        status, stdout = fuzzed(source, tmp_path / "failures", 40, 60, "4")
    assert status == 4
    assert len(seen) == len(json.loads(stdout)["found"]) > 0


def test_a_one_step_failure_is_tried_with_each_command_legal_at_an_earlier_fork_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a failure of one step at the source's last fork point, which that step shows from
    no earlier one but a command legal at the first fork point does, when the prefix is
    shrunk, then the failure comes back from the first fork point with that legal command."""

    def attempt(
        holder: object, group: object, trace: Trace, at: int, steps: list[Step], counted: Tally
    ) -> Trace | None:
        counted.examples += 1
        if steps[0].kind != "legal":
            return None
        return msgspec.structs.replace(trace, at=at, failing=Played(steps[0], False))

    log = str(recorded(NAME, tmp_path))
    with plants.registered(NAME, plants.fixed(NAME)):
        holder = sources.load([log], lambda: pytest.fail("no database"))
        (source,) = holder.sources
        monkeypatch.setattr(shrink, "_attempt", attempt)
        trace = Trace(0, source.ends[-1], 0, [], refused("fails"), "outcome", "", 0)
        shrunk = shrink.earlier(holder, holder.sources, trace, tally(), time.monotonic() + 60)
    assert shrunk.at == source.ends[0]
    assert shrunk.failing is not None and shrunk.failing.step.kind == "legal"


class FailsAnotherCheck:
    """An example whose every step fails the crash check (and that lists no legal command)."""

    legal: dict[str, list[Any]] = {}

    def __init__(self, start: object, counted: Tally) -> None:
        self.played: list[Played] = []
        self.current: Step | None = None
        self.current_expect = ""
        self.rolled: list[Any] = []

    def run(self, step: Step) -> None:
        self.current = step
        raise Failure("crash", "another failure")

    def finish(self) -> None:
        pass


def test_an_earlier_fork_point_that_fails_another_check_does_not_replace_the_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Given an outcome failure found at the last of three fork points, whose step fails only
    the crash check from the earlier ones, when the prefix is shrunk, then the failure stays
    where it was found: a pair must fail the check it names."""
    monkeypatch.setattr(shrink, "Example", FailsAnotherCheck)
    monkeypatch.setattr(shrink, "forked", lambda *args: None)
    group: Any = [SimpleNamespace(ends=[1, 5, 9], tip="")]
    trace = msgspec.structs.replace(a_trace(), at=9)
    shrunk = shrink.earlier(NO_SOURCES, group, trace, tally(), time.monotonic() + 60)
    assert shrunk == trace


class FailsAsItStarts(FailsAnotherCheck):
    """An example that fails the crash check as it starts (its fork point is no better)."""

    def __init__(self, start: object, counted: Tally) -> None:
        raise Failure("crash", "the fork point fails")


def test_an_earlier_fork_point_that_fails_as_it_starts_is_passed_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Given a one-step outcome failure found at the last of three fork points, which its step
    shows from no earlier one, and earlier fork points whose examples fail the crash check as
    they start, when the prefix is shrunk, then no legal command of theirs is tried and the
    failure stays where it was found."""
    monkeypatch.setattr(shrink, "_attempt", failing_while("never"))
    monkeypatch.setattr(shrink, "Example", FailsAsItStarts)
    monkeypatch.setattr(shrink, "forked", lambda *args: None)
    group: Any = [SimpleNamespace(ends=[1, 5, 9], tip="")]
    trace = msgspec.structs.replace(a_trace(), at=9)
    counted = tally()
    shrunk = shrink.earlier(NO_SOURCES, group, trace, counted, time.monotonic() + 60)
    assert shrunk == trace
    assert counted.examples == 2  # the step itself from each earlier point, no legal command


def failing_with(*needed: str) -> Callable[..., Trace | None]:
    """An ``_attempt`` whose steps fail (on the last of ``needed``, the steps after it never
    played) only while they hold each of ``needed`` in that order."""

    def attempt(
        holder: object, group: object, trace: Trace, at: int, steps: list[Step], counted: Tally
    ) -> Trace | None:
        counted.examples += 1
        texts = [s.text for s in steps]
        held = [t for t in texts if t in needed]
        if held[: len(needed)] != list(needed):
            return None
        last = texts.index(needed[-1])
        played = [Played(s, accepted=True) for s in steps[:last]]
        return msgspec.structs.replace(
            trace, at=at, played=played, failing=Played(steps[last], False), since=last
        )

    return attempt


def test_the_generated_commands_a_failure_does_not_need_are_dropped_from_its_pair(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Given a failure after eight accepted commands (those its log would hold), of which it
    needs the second and the sixth and then the failing one, when its commands are shrunk,
    then those three are all it keeps, in their order, from the same fork point: the log holds
    two generated commands, the pair replays the failing one; the shrinking is not cut short."""
    monkeypatch.setattr(shrink, "_attempt", failing_with("c1", "c5", "fails"))
    names = [f"c{i}" for i in range(8)]
    trace = Trace(0, 7, 0, [Played(Step("legal", n), True) for n in names], refused("fails"),
                  "invariants", "", 8)  # fmt: skip
    shrunk = shrink.fewer(NO_SOURCES, [], trace, tally(), time.monotonic() + 60)
    assert [p.step.text for p in shrunk.played] == ["c1", "c5"]
    assert shrunk.failing is not None and shrunk.failing.step.text == "fails"
    assert (shrunk.at, shrunk.unfinished) == (7, "")


def test_dropping_commands_stops_at_its_limit_of_examples_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Given a failure of many commands and a pass that may run no more example, when its
    commands are shrunk, then it comes back as it was, saying its shrinking stopped short."""
    monkeypatch.setattr(shrink, "_attempt", failing_with("fails"))
    monkeypatch.setattr(shrink, "ATTEMPTS", 0)
    trace = a_trace("r0", "r1", "r2")
    shrunk = shrink.fewer(NO_SOURCES, [], trace, tally(), time.monotonic() + 60)
    assert msgspec.structs.replace(shrunk, unfinished="") == trace
    assert shrunk.unfinished == "dropping commands: 0 examples run"


def test_a_one_step_failure_shown_again_from_a_later_fork_point_is_still_tried_earlier(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a one-step failure at the source's last fork point, whose step shows it again
    from the fork point before (and no earlier), and a command legal at the first fork point
    that shows it too, when the prefix is shrunk, then the failure comes back from the first
    fork point: a later fork point found with the same step does not end the search."""
    log = str(recorded(NAME, tmp_path))
    with plants.registered(NAME, plants.fixed(NAME)):
        holder = sources.load([log], lambda: pytest.fail("no database"))
        (source,) = holder.sources
        second_last = source.ends[-2]

        def attempt(
            holder: object, group: object, trace: Trace, at: int, steps: list[Step], c: Tally
        ) -> Trace | None:
            c.examples += 1
            if steps[0].kind == "legal" or (steps[0].text == "fails" and at == second_last):
                return msgspec.structs.replace(trace, at=at, failing=Played(steps[0], False))
            return None

        monkeypatch.setattr(shrink, "_attempt", attempt)
        trace = Trace(0, source.ends[-1], 0, [], refused("fails"), "outcome", "", 0)
        shrunk = shrink.earlier(holder, holder.sources, trace, tally(), time.monotonic() + 60)
    assert shrunk.at == source.ends[0]
    assert shrunk.failing is not None and shrunk.failing.step.kind == "legal"
