"""The Combat Results Table: odds columns, die modifiers and the seven results.

The table is seed 003's, cell for cell; the odds and the clamping are the digest's Rulings.
"""

from __future__ import annotations

from typing import Final

from warlog.domain.battle_for_armageddon.rules import DIE_MAX, DIE_MIN

#: seed 003 "Combat Results Table": the columns, attacker:defender
COLUMNS: Final = ("1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1")
#: seed 003 "Combat Results Table": row = the d6 roll, one result per column
TABLE: Final[dict[int, tuple[str, ...]]] = {
    1: ("AE", "AE", "AR", "AR", "AS", "AS", "EX", "EX", "DR", "DW"),
    2: ("AE", "AR", "AR", "AS", "AS", "EX", "EX", "DR", "DW", "DE"),
    3: ("AR", "AR", "AS", "AS", "EX", "EX", "DR", "DW", "DE", "DE"),
    4: ("AR", "AS", "AS", "EX", "EX", "DR", "DW", "DE", "DE", "DE"),
    5: ("AS", "AS", "EX", "EX", "DR", "DW", "DE", "DE", "DE", "DE"),
    6: ("AS", "EX", "EX", "DR", "DW", "DE", "DE", "DE", "DE", "DE"),
}
#: seed 003: the result definitions
RESULTS: Final[dict[str, str]] = {
    "AE": "Attacker Eliminated",
    "AR": "Attacker Routed",
    "AS": "Attacker Stopped",
    "EX": "Exchange",
    "DW": "Defender Withdraws",
    "DR": "Defender Routed",
    "DE": "Defender Eliminated",
}
#: the best odds on the table; anything better reads this column
BEST_ODDS: Final = 7
#: the worst odds on the table; anything worse reads this column
WORST_ODDS: Final = 4


def odds_column(attack: int, defence: int) -> str:
    """The CRT column for attack total against defence total (BFA-24).

    A >= D: floor(A / D):1, at most 7:1. A < D: 1:ceil(D / A) (rounded in the defender's
    favour), at least 1:4. BFA-3: a defence of 0 reads 7:1; an attack of 0 reads 1:4.
    """
    if defence <= 0:
        return f"{BEST_ODDS}:1"
    if attack <= 0:
        return f"1:{WORST_ODDS}"
    if attack >= defence:
        return f"{min(attack // defence, BEST_ODDS)}:1"
    return f"1:{min(-(-defence // attack), WORST_ODDS)}"


def clamp_roll(modified: int) -> int:
    """BFA-25: the modified roll is clamped to 1..6."""
    return max(DIE_MIN, min(DIE_MAX, modified))


def result(column: str, roll: int) -> str:
    """The table's result for a column and a (clamped) roll; ValueError for an unknown column."""
    return TABLE[clamp_roll(roll)][COLUMNS.index(column)]
