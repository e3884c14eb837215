"""The summary of a fuzz run says what was checked and how often, never that a check held: a run
whose only failure is a crash does not claim "no crash", and its counts add up."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from warlog.domain.core.errors import InputError
from warlog.fuzz import run
from warlog.fuzz.checks import Failure
from warlog.fuzz.report import Found, Report, Tally, summary_text


def test_the_examples_hypothesis_cut_short_are_counted_and_said_to_be_checked_but_their_end() -> (
    None
):
    """Given a search asked for 300 examples that ran 380, 80 of them cut short by Hypothesis
    (out of draws: their steps were checked, their end was not), before its budget ran out,
    when it is summed up, then the summary says how many were cut short; with none, it says
    nothing of it."""
    tally = Tally("battle-for-armageddon", {"g.jsonl": "5"}, [], examples=380, planned=300)
    tally.stopped, tally.cut_short = "budget", 80
    first = summary_text(Report(1, ["g.jsonl"], [tally], [], 1.0)).splitlines()[0]
    assert first.startswith(
        "battle-for-armageddon (version 5): 380 of 300 examples (80 of them cut short by "
        "Hypothesis, out of draws: their steps checked, not their end; the budget ran out "
        "first), "
    )
    tally.examples, tally.cut_short = 68, 0
    first = summary_text(Report(1, ["g.jsonl"], [tally], [], 1.0)).splitlines()[0]
    assert first.startswith("battle-for-armageddon (version 5): 68 of 300 examples (the budget")


def test_a_run_that_found_a_crash_counts_the_crashed_steps_and_claims_no_crash() -> None:
    tally = Tally(
        "battle-for-armageddon",
        {"g.jsonl": "3"},
        ["counter_moved"],
        examples=12,
        first_failure=9,
        shrinking=3,
        tried={"legal": 40, "mutated": 2},
        expected={"accepted": 40, "either": 2},
        accepted=36,
        refused=1,
        crashed=5,
        finished=8,
    )
    crash = Found(
        "battle-for-armageddon", "crash", "ZeroDivisionError: x", "out/bfa-crash-1", 9, 1, "crash"
    )
    text = summary_text(Report(1, ["g.jsonl"], [tally], [crash], 1.0))
    lines = text.splitlines()
    assert lines[0].endswith(", 42 commands tried (36 accepted, 1 refused, 5 crashed) in 0.0 s")
    assert "no crash" not in text
    assert "must be accepted (40 steps)" in lines[6] and "is checked (2 steps)" in lines[6]
    assert "(8 examples reached their end)" in lines[10]
    assert lines[11] == "  failed: crash (below)"
    assert lines[12:14] == ["1 failure:", "  [battle-for-armageddon] crash: ZeroDivisionError: x"]


def recorded_after(
    monkeypatch: Any, tmp_path: Path, failures: list[Failure | Exception | None]
) -> tuple[Found, int]:
    """The failure ``_record`` reports for a written failure whose replays give ``failures``
    in turn (another exception: the replay raises it), and how many times it replayed it."""
    written = run.fixture.Written(tmp_path / "bfa-audit-1.json", events=9, steps=1)
    monkeypatch.setattr(run.fixture, "write", lambda *args: written)
    outcomes, calls = iter(failures), []

    def replay(path: str) -> Any:
        calls.append(path)
        outcome = next(outcomes)
        if isinstance(outcome, Exception) and not isinstance(outcome, Failure):
            raise outcome
        return SimpleNamespace(failure=outcome)

    monkeypatch.setattr(run.fixture, "replay", replay)
    trace = SimpleNamespace(check="audit", message="x", unfinished="")
    group = [SimpleNamespace(ruleset=SimpleNamespace(name="battle-for-armageddon"))]
    report = Report(1, [], [], [], 0.0)
    found = run._record(None, group, trace, tmp_path, 1, report)  # type: ignore[arg-type]
    return found, len(calls)


def test_a_failure_is_called_reproduced_only_once_it_failed_each_of_three_replays(
    monkeypatch: Any, tmp_path: Path
) -> None:
    """Given a written failure whose replay fails its check twice, then passes, when the run
    records it, then it is replayed three times and is not called reproduced; one that fails
    all three times is."""
    twice = [Failure("audit", "x"), Failure("audit", "x"), None]
    found, replays = recorded_after(monkeypatch, tmp_path, twice)
    assert replays == 3 and not found.reproduced
    found, replays = recorded_after(monkeypatch, tmp_path, [Failure("audit", "x")] * 3)
    assert replays == 3 and found.reproduced


def test_a_failure_that_does_not_fail_each_time_it_is_replayed_is_not_called_reproduced(
    monkeypatch: Any, tmp_path: Path
) -> None:
    """Given a written failure whose replay fails its check, then passes, then fails again
    (something outside the log decides it), when the run records it, then it is replayed until
    it first does not fail, and reported as flaky, not reproduced."""
    flaky = [Failure("audit", "x"), None, Failure("audit", "x")]
    found, replays = recorded_after(monkeypatch, tmp_path, flaky)
    assert replays == 2
    assert found.replayed == "" and not found.reproduced
    assert "(replayed, it did NOT fail" in summary_text(Report(1, [], [], [found], 1.0))


def test_a_failure_whose_replay_raises_is_reported_with_why_it_could_not_be_replayed(
    monkeypatch: Any, tmp_path: Path
) -> None:
    """Given a written failure whose replay raises, warlog's own error (its line, code and all)
    or any other (a bug in warlog, where it was raised), when the run records it, then it is
    replayed once, not called reproduced, and the summary says why it could not be replayed."""
    refused = InputError("the fixture is gone", "input/unreadable")
    found, replays = recorded_after(monkeypatch, tmp_path, [refused])
    assert replays == 1 and not found.reproduced
    assert found.unreplayed == "error[input/unreadable]: the fixture is gone"
    found, replays = recorded_after(monkeypatch, tmp_path, [KeyError("steps")])
    assert replays == 1 and not found.reproduced
    assert found.unreplayed.startswith("KeyError: 'steps' at test_report.py:"), found.unreplayed
    assert found.unreplayed.endswith(" in replay (a bug in warlog)"), found.unreplayed
    text = summary_text(Report(1, [], [], [found], 1.0))
    assert f"(it could not be replayed: {found.unreplayed})" in text


def test_exactly_the_examples_asked_for_are_not_said_to_count_discarded_ones() -> None:
    tally = Tally("battle-for-armageddon", {"g.jsonl": "5"}, [], examples=300, planned=300)
    first = summary_text(Report(1, ["g.jsonl"], [tally], [], 1.0)).splitlines()[0]
    assert first.startswith(
        "battle-for-armageddon (version 5): 300 of 300 examples (the examples ran out first), "
    )


def test_the_versions_of_the_sources_are_named_in_the_order_of_the_rules() -> None:
    """Given sources played under versions 10, 2 and 9 of one ruleset, when the run is summed
    up, then the versions are named in their order (2, 9, 10), not as text sorts them."""
    versions = {"a.jsonl": "10", "b.jsonl": "2", "c.jsonl": "9", "d.jsonl": "2"}
    tally = Tally("armageddon-empires", versions, [], examples=1, planned=1)
    first = summary_text(Report(1, list(versions), [tally], [], 1.0)).splitlines()[0]
    assert first.startswith("armageddon-empires (versions 2, 9, 10): 1 of 1 examples")


def test_a_written_pair_is_said_to_hold_the_source_to_its_fork_point_and_the_commands_after() -> (
    None
):
    """Given a pair whose log holds the source to seq 79 and 15 generated commands, with one
    step to replay, found again by a later run (kept as the run with seed 1 wrote it), its
    shrinking stopped by its time, when the run is summed up, then its line says what the log
    holds besides the step, that the pair was kept, and that the shrinking stopped short."""
    found = Found("heroic-battles", "invariants", "movement_actions: x", "out/hb-1", 163, 1,
                  "invariants", fork_at=79, commands=15, kept=True, kept_seed=1,
                  unfinished="dropping commands: its time ran out")  # fmt: skip
    lines = summary_text(Report(2, [], [], [found], 1.0)).splitlines()
    assert lines[1:5] == [
        "  [heroic-battles] invariants: movement_actions: x",
        "    out/hb-1.jsonl (163 events: the source to seq 79, then 15 generated commands) and "
        ".json (1 step to replay)",
        "    (the same pair as the run with seed 1 wrote there: kept as it was)",
        "    shrinking stopped short (dropping commands: its time ran out): the pair may hold "
        "more than the failure needs",
    ]


def test_an_interrupted_run_with_no_failure_says_the_interruption_cut_a_step_short() -> None:
    """Given a run interrupted by Ctrl-C with no failure found, one accepted step of which was
    cut before its checks ran, when it is summed up, then the counts after every accepted step
    say the interruption cut that step short, and never that a check failed on it."""
    tally = Tally(
        "armageddon-empires",
        {"edges.jsonl": "28"},
        [],
        examples=12,
        accepted=1649,
        rederived=1648,
        replays_compared=1648,
        stopped="interrupted",
    )
    text = summary_text(Report(9, ["edges.jsonl"], [tally], [], 5.0))
    assert (
        ": 1648 batches: one per accepted step, but for the 1 the interruption cut short)" in text
    )
    assert "(1648 states: one per accepted step, but for the 1 the interruption cut short)" in text
    assert "failed first" not in text
