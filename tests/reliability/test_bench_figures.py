"""The benchmark's verdicts: each row is judged PASS or MISS against its target on the ratio the
table prints, so that what a reader sees and the verdict beside it never disagree."""

from __future__ import annotations

import pytest

from bench.figures import Row, table


@pytest.mark.parametrize(
    ("ratio", "target", "verdict"),
    [
        (0.7, ">= 0.7", "PASS"),
        (0.69, ">= 0.7", "MISS"),
        (0.6496, ">= 0.65", "PASS"),  # printed 0.65
        (0.6449, ">= 0.65", "MISS"),  # printed 0.64
        (1.5, "<= 1.5", "PASS"),
        (1.51, "<= 1.5", "MISS"),
        (1.504, "<= 1.5", "PASS"),  # printed 1.50
        (3.8, "", ""),
        (None, ">= 0.7", ""),
    ],
)
def test_a_row_is_judged_on_the_ratio_it_prints(
    ratio: float | None, target: str, verdict: str
) -> None:
    # given a row with its ratio and target
    row = Row("a measure", "1 ev/s", "2 ev/s", ratio, target)
    # when the table prints it, then its verdict follows the printed ratio
    assert row.verdict == verdict
    (line,) = table([row])[2:]
    shown = "" if ratio is None else f"{ratio:.2f}"
    assert line == f"| a measure | 1 ev/s | 2 ev/s | {shown} | {target} | {verdict} |"
