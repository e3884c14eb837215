"""The benchmark's verdicts: each row is judged PASS or MISS against its target on its ratio, and
the table prints the ratio rounded towards missing the target, so that a figure never reads as
meeting a target its verdict says it misses."""

from __future__ import annotations

import pytest

from bench.figures import Row, table


@pytest.mark.parametrize(
    ("ratio", "target", "shown", "verdict"),
    [
        (0.7, ">= 0.7", "0.70", "PASS"),
        (0.29, ">= 0.25", "0.29", "PASS"),
        (0.69, ">= 0.7", "0.69", "MISS"),
        (0.6496, ">= 0.65", "0.64", "MISS"),  # 0.65 to two decimals, yet short of 0.65
        (1.5, "<= 1.5", "1.50", "PASS"),
        (1.51, "<= 1.5", "1.51", "MISS"),
        (1.504, "<= 1.5", "1.51", "MISS"),  # 1.50 to two decimals, yet above 1.5
        (3.804, "", "3.80", ""),
        (None, ">= 0.7", "", ""),
    ],
)
def test_a_row_is_judged_on_its_ratio_and_printed_never_to_read_otherwise(
    ratio: float | None, target: str, shown: str, verdict: str
) -> None:
    # given a row with its ratio and target
    row = Row("a measure", "1 ev/s", "2 ev/s", ratio, target)
    # when the table prints it, then the verdict is the ratio's, and the printed figure agrees
    assert row.verdict == verdict
    (line,) = table([row])[2:]
    assert line == f"| a measure | 1 ev/s | 2 ev/s | {shown} | {target} | {verdict} |"
