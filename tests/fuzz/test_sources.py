"""The fuzzer's sources: the recorded games a folder or a list of files names, each imported
into memory under an id of its own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.cli.command import run
from tests.fuzz.test_command import BFA
from warlog.fuzz import sources


def test_a_folder_gives_its_warlog_logs_under_ids_of_their_own_and_nothing_else(
    tmp_path: Path,
) -> None:
    """Given a folder holding a recorded game, the same game again in a subfolder, a .jsonl
    of notes and a .jsonl of bytes that are not UTF-8, when it is fuzzed, then both games are
    sources, in path order, the second under the first's id with -2 after it; the other files
    are passed over."""
    shutil.copy(BFA, tmp_path / "bfa.jsonl")
    (tmp_path / "kept").mkdir()
    shutil.copy(BFA, tmp_path / "kept" / "bfa.jsonl")
    (tmp_path / "notes.jsonl").write_text("to play on friday\n", encoding="utf-8")
    (tmp_path / "noise.jsonl").write_bytes(b"\xff\xfe\x00\n")
    holder = sources.load([str(tmp_path)], lambda: pytest.fail("no database"))
    assert [(s.name, s.game) for s in holder.sources] == [
        (str(tmp_path / "bfa.jsonl"), "bfa-golden"),
        (str(tmp_path / "kept" / "bfa.jsonl"), "bfa-golden-2"),
    ]


def test_the_games_an_example_makes_take_ids_no_source_has(tmp_path: Path) -> None:
    """Given a recorded game whose id is "fuzz" (the stem of the games each example makes),
    then an example's game is "fuzz-2", never the source's own id."""
    db, log = tmp_path / "w.db", tmp_path / "fuzz.jsonl"
    assert run(db, "new", "battle-for-armageddon", "--game", "fuzz")[0] == 0
    assert run(db, "reveal", "fuzz", "--yes")[0] == 0
    assert run(db, "export", "fuzz", "-o", str(log))[0] == 0
    holder = sources.load([str(log)], lambda: pytest.fail("no database"))
    assert [s.game for s in holder.sources] == ["fuzz"]
    assert (holder.free_id("fuzz"), holder.free_id("fuzz-keep")) == ("fuzz-2", "fuzz-keep")
