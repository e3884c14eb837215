"""``export -o FILE`` writes the file whole or not at all, and never over the database's own
files: a slip of one character must not destroy the games or their keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.command import one_line, run


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "w.db"
    assert run(path, "new", "armageddon-empires", "--game", "g")[0] == 0
    return path


@pytest.mark.parametrize("name", ["w.db", "w.db.keys", "w.db-wal", "w.db-shm"])
def test_an_export_over_the_database_s_own_files_is_refused_and_they_stay(
    db: Path, name: str
) -> None:
    """Given a database and its key file, when the game is exported onto one of their files,
    then it is one line, exit 1, and the games and their keys are as they were."""
    head = run(db, "head", "g")[1]
    sizes = {p.name: p.stat().st_size for p in db.parent.iterdir()}
    status, out, err = run(db, "export", "g", "-o", str(db.parent / name))
    assert (status, out) == (1, "")
    assert "is the database's own file" in one_line(err, "input/unwritable")
    assert {p.name: p.stat().st_size for p in db.parent.iterdir()} == sizes
    assert run(db, "head", "g")[1] == head
    assert run(db, "state", "g", "--as", "red")[0] == 0  # the key file still opens the seals


def test_an_export_is_written_whole_and_a_failed_one_leaves_nothing_behind(
    db: Path, tmp_path: Path
) -> None:
    out = tmp_path / "g.jsonl"
    out.write_text("an older export\n", encoding="utf-8")
    assert run(db, "export", "g", "-o", str(out))[0] == 0
    assert out.read_text(encoding="utf-8") == run(db, "export", "g")[1]
    status, _, err = run(db, "export", "g", "-o", str(tmp_path / "missing" / "g.jsonl"))
    assert status == 1
    assert one_line(err, "input/unwritable").endswith("No such file or directory")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".warlog-export-")]


def test_an_export_over_a_private_file_keeps_it_private(db: Path, tmp_path: Path) -> None:
    """Given a referee's record at mode 0600, when `export --open -o` writes it again, then it
    is still 0600 (the file that replaced it was made world-readable)."""
    record = tmp_path / "ref.jsonl"
    record.write_text("", encoding="utf-8")
    record.chmod(0o600)
    assert run(db, "export", "g", "--open", "-o", str(record))[0] == 0
    assert record.stat().st_mode & 0o777 == 0o600
    assert record.read_text(encoding="utf-8") == run(db, "export", "g", "--open")[1]
