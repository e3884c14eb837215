"""How `state` prints its tables: a long cell wraps within its column, and nothing is cut."""

from __future__ import annotations

import click

from warlog.cli.render import CELL_WIDTH, table_text
from warlog.domain.core.summary import Table


def test_a_long_cell_wraps_within_its_column_and_loses_nothing() -> None:
    cards = ", ".join(f"red.card-{n}.1" for n in range(12))
    hand = f"12 cards ({cards})"
    assert len(hand) > CELL_WIDTH
    text = click.unstyle(
        table_text(Table("empires", ["empire", "hand", "deck"], [["red", hand, "9"]]))
    )
    head, lines = text.splitlines()[1], text.splitlines()[2:]
    assert len(lines) > 1 and all(len(line) <= 2 + 6 + 2 + CELL_WIDTH + 2 + 4 for line in lines)
    # the hand's words, read down its column, are the whole cell; the row's other cells once
    start, end = head.index("hand"), head.index("deck")
    assert " ".join(line[start:end].strip() for line in lines) == hand
    assert lines[0].split()[0] == "red" and lines[0].split()[-1] == "9"
    assert "…" not in text
