"""The Combat Results Table, cell for cell against seed 003, and the odds rulings."""

from __future__ import annotations

import pytest

from warlog.domain.battle_for_armageddon.crt import (
    COLUMNS,
    RESULTS,
    clamp_roll,
    odds_column,
    result,
)

# A literal copy of seed 003's "COMBAT RESULTS TABLE" (rows: d6 roll; columns 1:4 … 7:1).
SEED_CRT = """
| 1 | AE | AE | AR | AR | AS | AS | EX | EX | DR | DW |
| 2 | AE | AR | AR | AS | AS | EX | EX | DR | DW | DE |
| 3 | AR | AR | AS | AS | EX | EX | DR | DW | DE | DE |
| 4 | AR | AS | AS | EX | EX | DR | DW | DE | DE | DE |
| 5 | AS | AS | EX | EX | DR | DW | DE | DE | DE | DE |
| 6 | AS | EX | EX | DR | DW | DE | DE | DE | DE | DE |
"""
SEED_COLUMNS = "| 1:4 | 1:3 | 1:2 | 1:1 | 2:1 | 3:1 | 4:1 | 5:1 | 6:1 | 7:1 |"


def _cells() -> list[tuple[int, str, str]]:
    columns = [c.strip() for c in SEED_COLUMNS.strip("| ").split("|")]
    out: list[tuple[int, str, str]] = []
    for line in SEED_CRT.strip().splitlines():
        row = [c.strip() for c in line.strip("| ").split("|")]
        die = int(row[0])
        out.extend((die, col, res) for col, res in zip(columns, row[1:], strict=True))
    return out


CELLS = _cells()


def test_the_seed_table_has_sixty_cells() -> None:
    assert len(CELLS) == 60
    assert list(COLUMNS) == [c.strip() for c in SEED_COLUMNS.strip("| ").split("|")]


@pytest.mark.parametrize(("die", "column", "expected"), CELLS)
def test_every_crt_cell_matches_the_seed(die: int, column: str, expected: str) -> None:
    assert result(column, die) == expected


def test_every_result_has_its_seed_definition() -> None:
    assert set(RESULTS) == {"AE", "AR", "AS", "EX", "DW", "DR", "DE"}
    assert {res for _, _, res in CELLS} == set(RESULTS)


@pytest.mark.parametrize(
    ("attack", "defence", "column"),
    [
        (7, 2, "3:1"),  # 3.5 rounds down
        (2, 7, "1:4"),  # 1:3.5 rounds in the defender's favour
        (1, 5, "1:4"),  # worse than 1:4 reads 1:4
        (1, 9, "1:4"),
        (8, 1, "7:1"),  # better than 7:1 reads 7:1
        (70, 3, "7:1"),
        (3, 3, "1:1"),
        (5, 3, "1:1"),  # 1.67 rounds down
        (6, 3, "2:1"),
        (2, 3, "1:2"),  # 1:1.5 rounds up to 1:2
        (3, 6, "1:2"),
        (3, 7, "1:3"),  # 1:2.33 rounds up to 1:3
        (3, 9, "1:3"),
        (3, 10, "1:4"),
        (14, 2, "7:1"),
        (13, 2, "6:1"),
    ],
)
def test_odds_round_down_for_the_attacker_and_up_for_the_defender(
    attack: int, defence: int, column: str
) -> None:
    assert odds_column(attack, defence) == column


def test_fortification_doubling_moves_the_column() -> None:
    assert odds_column(12, 4) == "3:1"
    assert odds_column(12, 4 * 2) == "1:1"


def test_zero_totals_read_the_end_columns() -> None:
    assert odds_column(5, 0) == "7:1"
    assert odds_column(0, 5) == "1:4"


@pytest.mark.parametrize(("raw", "clamped"), [(-1, 1), (0, 1), (1, 1), (6, 6), (7, 6), (9, 6)])
def test_modified_rolls_are_clamped_to_the_table(raw: int, clamped: int) -> None:
    assert clamp_roll(raw) == clamped
    assert result("1:1", raw) == result("1:1", clamped)


def test_every_result_is_named_as_the_seed_defines_it() -> None:
    """Given the CRT, then each result reads with the name seed 003's result definitions give
    it: a CRT roll's explanation ("→ DW (Defender Withdraws; ...)") is what a referee checks
    against the sheet."""
    assert RESULTS == {
        "AE": "Attacker Eliminated",
        "AR": "Attacker Routed",
        "AS": "Attacker Stopped",
        "EX": "Exchange",
        "DW": "Defender Withdraws",
        "DR": "Defender Routed",
        "DE": "Defender Eliminated",
    }
