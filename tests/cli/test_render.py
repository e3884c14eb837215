"""How text is printed: `state`'s tables (a long cell wraps, nothing is cut), `replay`'s steps."""

from __future__ import annotations

import click

from warlog.cli.render import CELL_WIDTH, replay_text, table_text
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


def test_replay_calls_the_first_event_the_scenario_s_initial_state_and_lists_later_changes() -> (
    None
):
    """Given replay's steps for event 1 (the game created: every key of the view is new) and
    event 2, when they are printed, then event 1 is called the scenario's initial state instead
    of listing its changes, and event 2 lists each change under its line (README, "Commands and
    exit codes": replay walks the game "with what each changed")."""
    first = {"seq": 1, "type": "game_created", "data": {}, "explain": "", "changes": ["a: added 1"]}
    second = {"seq": 2, "type": "scored", "data": {}, "explain": "", "changes": ["a: 1 → 2"]}
    assert replay_text(first).splitlines()[1:] == ["        (the scenario's initial state)"]
    assert replay_text(second).splitlines()[1:] == ["        a: 1 → 2"]
