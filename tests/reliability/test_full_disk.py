"""A writer that runs out of room (a file-size limit) says so in one line and appends nothing.

The writer is a real ``warlog play`` process under ``RLIMIT_FSIZE`` with SIGXFSZ ignored, so
that a write past the limit fails with EFBIG exactly as it does on a full disk. The limit only
stops writes: the process still reads the database (a reader holds it open, so its -wal and -shm
files already exist).
"""

from __future__ import annotations

import resource
import signal
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.reliability.conftest import (
    assert_one_error_line,
    assert_whole_log,
    command,
    make_game,
    records_of,
    sha256,
    warlog,
)


def file_size_limit(limit: int) -> Callable[[], None]:
    def limit_writes() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of death, as on ENOSPC
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))

    return limit_writes


@contextmanager
def reader_holding(db: Path) -> Iterator[None]:
    """Another process's reader keeps the WAL files in place, as a live arbiter's would."""
    conn = sqlite3.connect(db)
    conn.execute("SELECT count(*) FROM events").fetchone()
    try:
        yield
    finally:
        conn.close()


def test_a_write_past_the_size_limit_is_one_line_exit_1_and_nothing_appended(
    tmp_path: Path, scenario: Path
) -> None:
    db = tmp_path / "w.db"
    make_game(db, scenario)
    before = records_of(db)
    main_file = sha256(db)
    with reader_holding(db):
        result = warlog(db, "play", "g", command("red", 0), preexec_fn=file_size_limit(4096))
        assert result.returncode == 1, result
        assert result.stdout == ""
        line = assert_one_error_line(result.stderr, "store/disk_full")
        assert "nothing was written" in line
        assert sha256(db) == main_file
    assert records_of(db) == before
    assert_whole_log(db)


def test_a_stream_of_commands_stops_at_the_limit_with_whole_batches_only(
    tmp_path: Path, scenario: Path
) -> None:
    db = tmp_path / "w.db"
    make_game(db, scenario)
    players = ["red", "blue"]
    commands = "".join(
        command(players[i % 2], 0 if i % 2 == 0 else 3) + "\n" for i in range(3000)
    )  # red rolls one die, blue passes: always legal, and the turn alternates
    with reader_holding(db):
        result = warlog(
            db, "play", "g", "-", "--json", input=commands, preexec_fn=file_size_limit(256 * 1024)
        )
    assert result.returncode == 1, result.stderr[-2000:]
    assert_one_error_line(result.stderr, "store/disk_full")
    records = assert_whole_log(db)
    printed = [line for line in result.stdout.splitlines() if line]
    assert 1 < len(records) < 3000 * 3, "the limit should stop the stream part-way"
    # every event play printed (each printed only after its batch committed) is in the log
    assert len(printed) == len(records) - 1
    for line, record in zip(printed, records[1:], strict=True):
        assert f'"hash": "{record.hash}"' in line
