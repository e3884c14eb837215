"""The summary of a fuzz run says what was checked and how often, never that a check held: a run
whose only failure is a crash does not claim "no crash", and its counts add up."""

from __future__ import annotations

from warlog.fuzz.report import Found, Report, Tally, summary_text


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
    assert "must be accepted (40 steps)" in lines[4] and "is checked (2 steps)" in lines[4]
    assert "(8 examples reached their end)" in lines[8]
    assert lines[9] == "  failed: crash (below)"
    assert lines[10:12] == ["1 failure:", "  [battle-for-armageddon] crash: ZeroDivisionError: x"]
