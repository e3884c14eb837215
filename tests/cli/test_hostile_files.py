"""Export files made to break the reader: a recorded command or a ruleset that cannot be, a
device that never ends, a line without end. Each is one line with the contract's exit code,
never warlog's own bug, and nothing is imported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cli.command import one_line, run
from tests.forger import forge


@pytest.fixture
def exported(tmp_path: Path) -> tuple[Path, Path]:
    """A database with an Armageddon Empires game of one command, revealed (every value in the
    clear, so that every recorded command is read), and its export."""
    db = tmp_path / "h.db"
    assert run(db, "new", "armageddon-empires", "--game", "a1")[0] == 0
    assert run(db, "play", "a1", '{"type": "buy_initiative", "player": "red", "count": 1}')[0] == 0
    assert run(db, "reveal", "a1", "--yes")[0] == 0
    out = tmp_path / "a1.jsonl"
    assert run(db, "export", "a1", "-o", str(out))[0] == 0
    return db, out


def _command_forged(events: list[dict[str, Any]]) -> None:
    issued = next(e for e in events if e["type"] == "command_issued")
    issued["data"]["command"]["type"] = "no_such_command"


def _ruleset_forged(events: list[dict[str, Any]]) -> None:
    events[0]["data"]["ruleset"] = []


FORGERIES = {"command": _command_forged, "ruleset": _ruleset_forged}
READERS = [("replay", "{file}"), ("import", "{file}", "--chain-only", "--game", "f1")]


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
@pytest.mark.parametrize("reader", READERS, ids=[r[0] for r in READERS])
def test_a_re_chained_export_holding_what_cannot_be_is_refused_exit_4(
    exported: tuple[Path, Path], tmp_path: Path, forgery: str, reader: tuple[str, ...]
) -> None:
    """Given an export re-chained after its recorded command's type, or its ruleset, was made
    into something that cannot be, when it is replayed or imported chain-only, then it is one
    line, exit 4 (a broken log, as audit and a full import say), not warlog's own bug, and no
    game is added."""
    db, source = exported
    forged = forge(source, tmp_path / f"{forgery}.jsonl", FORGERIES[forgery])
    games = run(db, "games")[1]
    status, _, err = run(db, *(a.format(file=forged) for a in reader))
    assert status == 4
    assert one_line(err, "import/broken_log")
    assert run(db, "games")[1] == games


def test_a_device_is_not_read_as_an_export(exported: tuple[Path, Path]) -> None:
    db, _ = exported
    status, _, err = run(db, "replay", "/dev/zero")
    assert status == 1
    assert one_line(err, "input/not_a_file") == (
        "error[input/not_a_file]: /dev/zero is a device, not an export file (a regular file or "
        "a pipe)"
    )


def test_a_line_without_end_is_refused_before_it_fills_memory(
    exported: tuple[Path, Path], tmp_path: Path
) -> None:
    db, _ = exported
    endless = tmp_path / "endless.jsonl"
    endless.write_text("a" * (4 * 1024 * 1024 + 10), encoding="utf-8")
    status, _, err = run(db, "audit", str(endless))
    assert status == 1
    assert "line 1 is longer than 4,194,304 characters" in one_line(err, "input/not_a_file")


def test_an_export_path_through_a_file_is_one_line_exit_1(
    exported: tuple[Path, Path], tmp_path: Path
) -> None:
    db, _ = exported
    games = run(db, "games")[1]
    (tmp_path / "notes.txt").write_text("not a folder\n", encoding="utf-8")
    status, _, err = run(db, "import", str(tmp_path / "notes.txt" / "a1.jsonl"))
    assert status == 1
    assert one_line(err, "input/unreadable").endswith("a1.jsonl: Not a directory")
    assert run(db, "games")[1] == games
