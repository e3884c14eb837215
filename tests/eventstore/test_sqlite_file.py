"""The SQLite file under the store: every way it can be wrong (missing or empty, not a warlog
database, broken, a directory, unreadable or read-only, locked, on a full disk).

Each file problem is one line of StoreError (exit 1) and leaves the file's bytes as they were.
Permission tests need a user that file modes bind: under root (which ignores them) they run in
a child process as ``nobody``. Lock and disk-full tests use real second connections and
processes; faults a test cannot cause for real at a chosen statement (an I/O error, a disk
filling up at a commit, a lock the file system refuses) are raised there as SQLite raises them,
with its result codes (``Hooked``). The set-up: ``sqlite_helpers``.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import sqlite_utils

from tests.eventstore.sqlite_helpers import (
    FORK,
    Hooked,
    as_bound_user,
    finish,
    hook_connections,
    in_child,
    make_db,
    pending,
    raising,
    refused,
    sha256,
    sqlite_error,
    start_child,
)
from warlog.eventstore.sqlite_file import SCHEMA_VERSION
from warlog.eventstore.sqlite_store import SQLiteStore


def test_a_missing_file_is_refused_and_not_created(tmp_path: Path) -> None:
    path = tmp_path / "warlog.db"
    error = refused(lambda: SQLiteStore(path))
    assert error.code == "store/missing"
    assert str(error) == f"no warlog database at {path}; create one with `warlog new`"
    assert not path.exists()


def test_a_file_in_a_missing_directory_cannot_be_created(tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "warlog.db"
    error = refused(lambda: SQLiteStore(path, create=True))
    assert "no directory" in str(error)
    assert not (tmp_path / "no").exists()


def test_a_zero_length_file_is_empty_and_initialised_only_with_create(tmp_path: Path) -> None:
    path = tmp_path / "warlog.db"
    path.touch()
    assert refused(lambda: SQLiteStore(path)).code == "store/missing"
    assert path.stat().st_size == 0
    make_db(path)
    with SQLiteStore(path) as store:
        assert store.head("g")[0] == 3


def test_an_sqlite_database_without_tables_counts_as_empty(tmp_path: Path) -> None:
    path = tmp_path / "warlog.db"
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA user_version = 0")
    raw.execute("VACUUM")  # a valid one-page database
    raw.close()
    assert path.stat().st_size > 0
    assert refused(lambda: SQLiteStore(path)).code == "store/missing"
    make_db(path)


def _garbage(path: Path) -> None:
    path.write_bytes(b"this is a shopping list, not a database\n" * 200)


def _short(path: Path) -> None:
    path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 20)


def _truncated(path: Path) -> None:
    make_db(path, events=2)
    with SQLiteStore(path) as store:
        store.append("g", [pending(n, pad="x" * 2000) for n in range(3, 60)], 2)
    data = path.read_bytes()
    assert len(data) > 3 * 4096
    path.write_bytes(data[: len(data) // 3])


def _foreign(path: Path) -> None:
    db = sqlite_utils.Database(path)
    db.table("groceries").insert_all([{"item": "eggs", "count": 12}])
    db.close()


def _foreign_meta(path: Path) -> None:
    db = sqlite_utils.Database(path)
    for table in ("meta", "games", "events"):
        db.table(table).insert({"key": "app", "value": "not-warlog"})
    db.close()


def _foreign_meta_shape(path: Path) -> None:
    db = sqlite_utils.Database(path)
    for table in ("meta", "games", "events"):
        db.table(table).insert({"id": 1, "name": "not a key and a value"})
    db.close()


def _newer(path: Path) -> None:
    make_db(path)
    raw = sqlite3.connect(path)
    raw.execute(
        "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),)
    )
    raw.commit()
    raw.close()


@pytest.mark.parametrize("create", [False, True], ids=["open", "create"])
@pytest.mark.parametrize(
    ("spoil", "code", "words"),
    [
        (_garbage, "store/corrupt", "is not a warlog database (file is not a database)"),
        (_short, "store/corrupt", "is not a warlog database (file is not a database)"),
        (
            _truncated,
            "store/corrupt",
            "is truncated (",
        ),
        (_foreign, "store/not_warlog", "is not a warlog database"),
        (_foreign_meta, "store/not_warlog", "is not a warlog database"),
        (_foreign_meta_shape, "store/not_warlog", "is not a warlog database"),
        (_newer, "store/schema_version", "upgrade warlog"),
    ],
    ids=[
        "garbage",
        "short",
        "truncated",
        "foreign",
        "foreign-meta",
        "foreign-meta-shape",
        "newer-schema",
    ],
)
def test_a_file_that_is_not_a_warlog_database_is_refused_untouched(
    tmp_path: Path, spoil: Callable[[Path], None], code: str, words: str, create: bool
) -> None:
    path = tmp_path / "warlog.db"
    spoil(path)
    before = sha256(path)
    error = refused(lambda: SQLiteStore(path, create=create))
    assert error.code == code
    assert words in str(error)
    assert str(path) in str(error)
    assert sha256(path) == before
    assert [p.name for p in tmp_path.iterdir()] == ["warlog.db"]


def test_a_directory_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "warlog.db"
    path.mkdir()
    error = refused(lambda: SQLiteStore(path, create=True))
    assert str(error) == f"{path} is a directory, not a warlog database"
    assert list(path.iterdir()) == []


def test_a_named_pipe_or_a_device_is_refused_without_being_opened(tmp_path: Path) -> None:
    """Given a named pipe (opening it would wait for a writer for ever) or a device as the
    database, then it is one line, store/not_a_file, and the pipe is never opened."""
    pipe = tmp_path / "warlog.db"
    os.mkfifo(pipe)
    for path in (pipe, Path(os.devnull)):
        error = refused(lambda path=path: SQLiteStore(path, create=True))
        assert (error.code, str(error)) == (
            "store/not_a_file",
            f"{path} is not a regular file, not a warlog database",
        )
    assert [p.name for p in tmp_path.iterdir()] == ["warlog.db"]


def test_a_database_path_through_a_file_is_unreadable(tmp_path: Path) -> None:
    """Given a path whose folder is a regular file (``games.txt/warlog.db``), then it is one
    line naming why (store/unreadable), and nothing is created."""
    (tmp_path / "games.txt").write_text("not a folder\n", encoding="utf-8")
    path = tmp_path / "games.txt" / "warlog.db"
    error = refused(lambda: SQLiteStore(path, create=True))
    assert (error.code, str(error)) == (
        "store/unreadable",
        f"cannot read database {path} (Not a directory)",
    )
    assert [p.name for p in tmp_path.iterdir()] == ["games.txt"]


def test_a_database_whose_journal_name_is_too_long_cannot_be_opened(tmp_path: Path) -> None:
    """Given a database name the file system takes but not with "-wal" after it (SQLite's
    write-ahead log beside it), then it is one line, store/cantopen, exit 1, and no empty file
    is left behind."""
    path = tmp_path / ("w" * 250 + ".db")
    error = refused(lambda: SQLiteStore(path, create=True))
    assert (error.code, str(error)) == (
        "store/cantopen",
        f"cannot open database {path} (unable to open database file)",
    )
    assert list(tmp_path.iterdir()) == []


def test_a_log_corrupted_after_opening_is_a_store_error_while_reading(tmp_path: Path) -> None:
    path = make_db(tmp_path / "warlog.db", events=2)
    with SQLiteStore(path) as store:
        store.append("g", [pending(n, pad="x" * 500) for n in range(3, 400)], 2)
    data = bytearray(path.read_bytes())
    assert len(data) > 20 * 4096
    half = len(data) // 2
    data[half:] = b"\xff" * (len(data) - half)  # the later b-tree pages: events rows
    path.write_bytes(bytes(data))
    store = SQLiteStore(path)  # the schema pages are intact, so it opens
    error = refused(lambda: sum(1 for _ in store.read("g")))
    assert error.code == "store/corrupt"
    store.close()


def test_a_closed_store_raises_store_errors(tmp_path: Path) -> None:
    store = SQLiteStore(make_db(tmp_path / "warlog.db"))
    store.close()
    refused(lambda: store.head("g"))
    refused(lambda: store.append("g", [pending(4)], 3))


def _open_and_append(path: Path) -> object:
    with SQLiteStore(path) as store:
        assert [r.seq for r in store.read("g")] == [1, 2, 3]
        return store.append("g", [pending(4)], 3)


def _open_and_read(path: Path) -> object:
    with SQLiteStore(path) as store:
        return store.head("g")


def test_an_unreadable_file_is_refused_untouched(shared_dir: Path) -> None:
    path = make_db(shared_dir / "warlog.db")
    before = sha256(path)
    path.chmod(0o000)
    result = as_bound_user(path, _open_and_read, path)
    assert result[:2] == ("StoreError", "store/unreadable")
    assert result[2] == f"cannot read database {path} (Permission denied)"
    path.chmod(0o600)
    assert sha256(path) == before


def test_a_read_only_file_reads_but_refuses_writes_untouched(shared_dir: Path) -> None:
    path = make_db(shared_dir / "warlog.db")
    shared_dir.chmod(0o777)  # the -shm beside a WAL database must still be writable
    before = sha256(path)
    path.chmod(0o444)
    result = as_bound_user(path, _open_and_append, path)
    assert result[:2] == ("StoreError", "store/read_only")
    assert result[2].startswith(f"database {path} is read-only")
    assert sha256(path) == before
    path.chmod(0o644)
    with SQLiteStore(path) as store:
        assert store.head("g")[0] == 3


def test_a_read_only_file_in_a_read_only_directory_is_refused_untouched(shared_dir: Path) -> None:
    path = make_db(shared_dir / "warlog.db")
    before = sha256(path)
    path.chmod(0o444)
    shared_dir.chmod(0o555)
    result = as_bound_user(path, _open_and_append, path)
    assert result[:2] == ("StoreError", "store/read_only")
    assert f"database {path} is read-only" in result[2]
    assert sha256(path) == before
    assert sorted(p.name for p in shared_dir.iterdir()) == ["warlog.db"]


def test_a_write_locked_database_refuses_appends_after_the_busy_timeout(tmp_path: Path) -> None:
    path = make_db(tmp_path / "warlog.db")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process in the middle of its own append
    try:
        with SQLiteStore(path, busy_timeout_ms=100) as store:
            error = refused(lambda: store.append("g", [pending(4)], 3))
            assert error.code == "store/locked"
            assert str(error).startswith(f"database {path} is locked by another process")
            assert [r.seq for r in store.read("g")] == [1, 2, 3]  # WAL: readers go on reading
            holder.execute("ROLLBACK")
            store.append("g", [pending(4)], 3)
            assert store.head("g")[0] == 4
    finally:
        holder.close()


def test_an_exclusively_locked_database_cannot_be_opened_and_is_untouched(tmp_path: Path) -> None:
    path = make_db(tmp_path / "warlog.db")
    before = sha256(path)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        error = refused(lambda: SQLiteStore(path, busy_timeout_ms=100))
        assert error.code == "store/locked"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert sha256(path) == before


def _hold_write_lock(path: Path, holding: Any, seconds: float) -> object:
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holding.set()
    time.sleep(seconds)
    holder.execute("COMMIT")
    holder.close()
    return None


def test_a_writer_waits_for_a_short_lock_instead_of_failing(tmp_path: Path) -> None:
    path = make_db(tmp_path / "warlog.db")
    holding = FORK.Event()
    holder = start_child(_hold_write_lock, path, holding, 0.3)
    assert holding.wait(30)
    started = time.monotonic()
    with SQLiteStore(path) as store:
        store.append("g", [pending(4)], 3)
        assert store.head("g")[0] == 4
    assert time.monotonic() - started > 0.1  # it waited for the lock rather than failing
    assert finish(holder) == ("ok", "None")


def _append_past_the_size_limit(path: Path, limit: int) -> object:
    with SQLiteStore(path) as store:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # Python ignores it already; be explicit
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
        big = [pending(n, pad="x" * 2000) for n in range(4, 204)]  # ~400 kB: fails mid-batch
        return store.append("g", big, 3)


def test_a_full_disk_fails_the_append_in_one_line_and_appends_nothing(tmp_path: Path) -> None:
    path = make_db(tmp_path / "warlog.db")
    limit = path.stat().st_size + 64 * 1024
    result = in_child(_append_past_the_size_limit, path, limit)
    assert result[:2] == ("StoreError", "store/disk_full")
    assert result[2].startswith(f"database {path}: disk full")
    assert "\n" not in result[2]
    with SQLiteStore(path) as store:
        assert [r.seq for r in store.read("g")] == [1, 2, 3]
        store.append("g", [pending(4)], 3)
        assert store.head("g")[0] == 4


def test_a_database_where_the_file_system_makes_no_file_cannot_be_created() -> None:
    """Given a directory in which no file can be made, whoever asks (/proc: the kernel's own),
    when a database is created there, then SQLite's refusal to open it is one line,
    store/cantopen, and nothing is made."""
    if not os.path.isdir("/proc/self"):
        pytest.skip("no /proc file system here")
    path = f"/proc/warlog-test-{os.getpid()}.db"
    error = refused(lambda: SQLiteStore(path, create=True))
    assert (error.code, str(error)) == (
        "store/cantopen",
        f"cannot open database {path} (unable to open database file)",
    )
    assert not os.path.exists(path)


def _rollback_journal(path: Path) -> None:
    """Take ``path`` out of WAL mode, as ``sqlite-utils disable-wal`` does."""
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA journal_mode = DELETE")
    raw.close()


def test_a_database_out_of_wal_mode_that_may_not_be_written_reads_but_refuses_writes(
    shared_dir: Path,
) -> None:
    """Given a database taken out of WAL mode and made read-only, when a user that file modes
    bind opens it, then it is not switched to WAL (that is a write): its events read, and an
    append is one line, store/read_only, the file untouched."""
    path = make_db(shared_dir / "warlog.db")
    _rollback_journal(path)
    before = sha256(path)
    path.chmod(0o444)
    assert as_bound_user(path, _open_and_read, path)[0] == "ok"
    result = as_bound_user(path, _open_and_append, path)
    assert result[:2] == ("StoreError", "store/read_only")
    assert result[2].startswith(f"database {path} is read-only")
    assert sha256(path) == before


def test_a_database_out_of_wal_mode_is_switched_once_its_writer_is_done(tmp_path: Path) -> None:
    """Given a database out of WAL mode in the middle of another connection's write (SQLite
    refuses the switch to WAL at once then, without waiting on its busy timeout), when the
    store opens it, then it retries until the writer is done, switches the file to WAL and
    reads."""
    path = make_db(tmp_path / "warlog.db")
    _rollback_journal(path)
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writer.execute("BEGIN IMMEDIATE")
    done = threading.Timer(0.2, writer.execute, ("ROLLBACK",))
    done.start()
    try:
        started = time.monotonic()
        with SQLiteStore(path) as store:
            assert [r.seq for r in store.read("g")] == [1, 2, 3]
        assert time.monotonic() - started > 0.1  # it waited for the writer
    finally:
        done.join()
        writer.close()
    check = sqlite3.connect(path)
    assert check.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    check.close()


MIB = 1 << 20


@pytest.mark.parametrize(
    ("statement", "error", "free", "code", "line"),
    [
        (
            "COMMIT",
            sqlite_error("database or disk is full", 13, "SQLITE_FULL"),
            None,
            "store/disk_full",
            "database {path}: disk full or file size limit reached (database or disk is full); "
            "nothing was written",
        ),
        (
            "COMMIT",
            sqlite_error("disk I/O error", 778, "SQLITE_IOERR_WRITE"),
            0,
            "store/disk_full",
            "database {path}: disk full or file size limit reached (disk I/O error); "
            "nothing was written",
        ),
        (
            "COMMIT",
            sqlite_error("disk I/O error", 778, "SQLITE_IOERR_WRITE"),
            100 * MIB,
            "store/io",
            "database {path}: I/O error (disk I/O error, SQLITE_IOERR_WRITE)",
        ),
        (
            "COMMIT",
            sqlite_error("disk I/O error", 778, "SQLITE_IOERR_WRITE"),
            FileNotFoundError(2, "No such file or directory"),
            "store/io",
            "database {path}: I/O error (disk I/O error, SQLITE_IOERR_WRITE)",
        ),
        (
            "BEGIN",
            sqlite_error("access permission denied", 3, "SQLITE_PERM"),
            None,
            "store/unreadable",
            "cannot read database {path} (access permission denied)",
        ),
    ],
    ids=["disk-full", "io-error-disk-nearly-full", "io-error", "io-error-folder-gone", "perm"],
)
def test_a_file_system_fault_at_an_append_is_its_one_line_and_appends_nothing(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    statement: str,
    error: sqlite3.Error,
    free: int | OSError | None,
    code: str,
    line: str,
) -> None:
    """Given the file system failing under an append, each way SQLite reports it at the
    statement that meets it (a full disk: SQLITE_FULL at the commit that writes the pages; a
    failed write: SQLITE_IOERR_WRITE there, which is the disk filling up when less than 1 MiB
    is free beside the file, and an I/O error otherwise, also when the free room cannot be
    read; a lock the file system refuses with EPERM: SQLITE_PERM at BEGIN), when the append
    runs, then it is that fault's one line and code, exit 1, and nothing is appended."""

    def disk_usage(folder: Any) -> SimpleNamespace:
        if isinstance(free, OSError):
            raise free
        assert isinstance(free, int)
        return SimpleNamespace(total=1000 * MIB, used=1000 * MIB - free, free=free)

    monkeypatch.setattr(shutil, "disk_usage", disk_usage)
    path = make_db(tmp_path / "warlog.db")
    with SQLiteStore(path) as store:
        monkeypatch.setattr(store, "_conn", Hooked(store._conn, statement, raising(error)))
        failed = refused(lambda: store.append("g", [pending(4)], 3))
        assert (failed.code, str(failed)) == (code, line.format(path=path))
    with SQLiteStore(path) as store:
        assert [r.seq for r in store.read("g")] == [1, 2, 3]


def test_a_database_locked_as_its_meta_table_is_read_is_locked_not_foreign(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a database out of WAL mode whose meta table is locked past the busy timeout just
    after its table names were read (another connection's commit holding the file: SQLite
    raises SQLITE_BUSY at that SELECT), when the store opens it, then it is one line,
    store/locked, not "not a warlog database", and the file is untouched."""
    path = make_db(tmp_path / "warlog.db")
    _rollback_journal(path)
    before = sha256(path)
    busy = sqlite_error("database is locked", 5, "SQLITE_BUSY")
    hook_connections(monkeypatch, "SELECT key, value FROM meta", raising(busy))
    error = refused(lambda: SQLiteStore(path, busy_timeout_ms=100))
    assert (error.code, str(error)) == (
        "store/locked",
        f"database {path} is locked by another process (still busy after 100 ms); "
        "nothing was written",
    )
    assert sha256(path) == before


def test_a_new_database_on_a_full_disk_is_one_line_and_is_made_once_there_is_room(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a disk that fills up as a new database's schema is written (SQLite raises
    SQLITE_FULL at the commit that writes its pages), when the database is created, then it
    is one line, store/disk_full; what the refused creation left is no warlog database, and
    once there is room the same creation makes one."""
    path = tmp_path / "warlog.db"
    full = sqlite_error("database or disk is full", 13, "SQLITE_FULL")
    hook_connections(monkeypatch, "COMMIT", raising(full))
    error = refused(lambda: SQLiteStore(path, create=True))
    assert (error.code, str(error)) == (
        "store/disk_full",
        f"database {path}: disk full or file size limit reached (database or disk is full); "
        "nothing was written",
    )
    monkeypatch.undo()
    assert refused(lambda: SQLiteStore(path)).code == "store/missing"
    make_db(path)
    with SQLiteStore(path) as store:
        assert [r.seq for r in store.read("g")] == [1, 2, 3]
