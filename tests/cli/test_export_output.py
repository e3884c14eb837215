"""``export -o FILE`` writes the file whole or not at all, and never over the database's own
files: a slip of one character must not destroy the games or their keys."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from tests.cli.command import one_line, run
from tests.cli.test_corrupt_rows import damaged_game


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


def test_an_export_to_a_device_or_a_pipe_is_written_through_it_and_it_stays_one(
    db: Path, tmp_path: Path
) -> None:
    """Given an output that is not a regular file (/dev/null, a named pipe a verifier reads),
    when the game is exported to it, then the export goes through it whole and it is still a
    device or a pipe (it is never replaced by a file of the same name)."""
    assert run(db, "export", "g", "-o", os.devnull) == (0, "", "")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    pipe = tmp_path / "verifier"
    os.mkfifo(pipe)
    read: list[str] = []
    reader = threading.Thread(target=lambda: read.append(pipe.read_text(encoding="utf-8")))
    reader.start()
    assert run(db, "export", "g", "-o", str(pipe))[0] == 0
    reader.join(timeout=10)
    assert read == [run(db, "export", "g")[1]]
    assert stat.S_ISFIFO(pipe.stat().st_mode)


def test_an_export_to_a_full_device_is_one_line_exit_1(db: Path) -> None:
    """Given /dev/full (a device every write to fails, as a full disk's would), when the game
    is exported to it, then it is one line naming why, exit 1, and it is still the device."""
    status, out, err = run(db, "export", "g", "-o", "/dev/full")
    assert (status, out) == (1, "")
    assert one_line(err, "input/unwritable").endswith("No space left on device")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_an_export_whose_file_cannot_take_its_name_leaves_nothing_behind(
    db: Path, tmp_path: Path
) -> None:
    """Given an output name longer than the file system allows, when the export is written
    (its temporary file beside it is made and filled), then the rename fails: one line, exit
    1, and the temporary file is removed."""
    status, out, err = run(db, "export", "g", "-o", str(tmp_path / ("g" * 300)))
    assert (status, out) == (1, "")
    assert one_line(err, "input/unwritable").endswith("File name too long")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.db", "w.db.keys"]


def test_an_export_that_meets_a_damaged_row_keeps_the_older_export_and_no_temporary_file(
    tmp_path: Path,
) -> None:
    """Given a game whose third row's time was damaged into bytes (the game still loads) and
    an older export of it, when the export meets that row after writing two, then it is the
    damaged database's one line (store/corrupt, exit 1), the older export is as it was, and
    no temporary file is left."""
    db = damaged_game(
        tmp_path / "c.db",
        "armageddon-empires",
        "a1",
        "UPDATE events SET at = X'00ff' WHERE game = 'a1' AND seq = 3",
    )
    older = tmp_path / "a1.jsonl"
    older.write_text("an older export\n", encoding="utf-8")
    status, out, err = run(db, "export", "a1", "-o", str(older))
    assert (status, out) == (1, "")
    assert "event 3 (card_dealt)" in one_line(err, "store/corrupt")
    assert older.read_text(encoding="utf-8") == "an older export\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".warlog-export-")]
