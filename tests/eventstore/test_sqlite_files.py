"""The SQLite store's file: its schema, and every way the file can be wrong.

Each file problem is one line of StoreError (exit 1) and leaves the file's bytes as they were.
Permission tests need a user that file modes bind: under root (which ignores them) they run in
a child process as ``nobody``. Lock, disk-full and race tests use real second connections and
processes.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import resource
import shutil
import signal
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlite_utils

from warlog.domain.core.errors import ConflictError, StoreError, WarlogError
from warlog.eventstore import sqlite_store
from warlog.eventstore.chain import GENESIS, link
from warlog.eventstore.records import GameInfo, Pending
from warlog.eventstore.sqlite_file import SCHEMA_VERSION
from warlog.eventstore.sqlite_store import SQLiteStore

AT = "2024-05-01T12:00:00.000Z"
NOBODY = 65534
FORK = multiprocessing.get_context("fork")


def pending(n: int, **fields: Any) -> Pending:
    return Pending("thing_happened", json.dumps({"n": n, **fields}, separators=(",", ":")), AT)


def make_db(path: Path, events: int = 3) -> Path:
    """A closed warlog database with game ``g`` of ``events`` events."""
    with SQLiteStore(path, create=True) as store:
        store.create_game(GameInfo("g", "test"), [pending(1)])
        if events > 1:
            store.append("g", [pending(n) for n in range(2, events + 1)], 1)
    return path


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused(call: Callable[[], object]) -> StoreError:
    """The StoreError ``call`` raises, checked to be one line."""
    with pytest.raises(StoreError) as caught:
        call()
    error = caught.value
    assert error.exit_code == 1
    assert str(error) and "\n" not in str(error)
    return error


# ---------------------------------------------------------------------- running elsewhere


def outcome(fn: Callable[..., object], *args: Any) -> tuple[str, ...]:
    """``("ok", repr(result))`` or ``(error class, code, message)``: picklable, comparable."""
    try:
        return ("ok", repr(fn(*args)))
    except WarlogError as exc:
        return (type(exc).__name__, exc.code, str(exc))
    except BaseException as exc:
        return ("crash", type(exc).__name__, repr(exc))


def _child(
    conn: Any,
    fn: Callable[..., object],
    args: tuple[Any, ...],
    user: int | None,
    reach: Path | None,
) -> None:
    if user is not None:
        try:
            os.setgroups([])
            os.setgid(user)
            os.setuid(user)
        except OSError as exc:
            conn.send(("skip", f"cannot become user {user}: {exc}"))
            return
    if reach is not None and not os.access(reach, os.X_OK):  # e.g. a TMPDIR private to root
        conn.send(("skip", f"user {user} cannot reach {reach}"))
        return
    conn.send(outcome(fn, *args))
    conn.close()


Child = tuple[Any, Any]  # (process, the end of the pipe its outcome arrives on)


def start_child(
    fn: Callable[..., object], *args: Any, user: int | None = None, reach: Path | None = None
) -> Child:
    """Start ``fn(*args)`` in a forked process, optionally as ``user`` (who must be able to
    ``reach`` that directory, or the child answers "skip")."""
    receiver, sender = FORK.Pipe(duplex=False)
    process = FORK.Process(target=_child, args=(sender, fn, args, user, reach))
    process.start()
    sender.close()
    return process, receiver


def finish(child: Child) -> tuple[str, ...]:
    """The outcome of a started child, once it has answered."""
    process, receiver = child
    try:
        if not receiver.poll(60):
            pytest.fail("the child process did not answer within 60 s")
        return tuple(receiver.recv())
    finally:
        process.join(10)
        if process.is_alive():
            process.kill()


def in_child(fn: Callable[..., object], *args: Any) -> tuple[str, ...]:
    """Run ``fn(*args)`` in a forked process; its outcome."""
    return finish(start_child(fn, *args))


def permissions_bind(path: Path) -> bool:
    """Whether this process is refused writing to ``path`` now that its mode forbids it."""
    try:
        with open(path, "r+b"):
            return False
    except PermissionError:
        return True


def as_bound_user(path: Path, fn: Callable[..., object], *args: Any) -> tuple[str, ...]:
    """``fn``'s outcome for a user that ``path``'s mode binds: this one, or ``nobody`` if we
    are root (found by trying to write, not by asking who we are)."""
    if permissions_bind(path):
        return outcome(fn, *args)
    if not hasattr(os, "setuid"):
        pytest.skip("file modes do not bind this user and it cannot become another")
    result = finish(start_child(fn, *args, user=NOBODY, reach=path.parent))
    if result[0] == "skip":
        pytest.skip(result[1])
    return result


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory another user can reach (pytest's own tmp_path is private to its user)."""
    path = Path(tempfile.mkdtemp(prefix="warlog-test-"))
    path.chmod(0o755)
    yield path
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            os.chmod(os.path.join(root, name), 0o700)
    path.chmod(0o700)
    shutil.rmtree(path)


# ---------------------------------------------------------------------- the schema


def test_create_makes_a_wal_database_with_the_warlog_schema(tmp_path: Path) -> None:
    path = make_db(tmp_path / "warlog.db")
    db = sqlite_utils.Database(path)
    assert set(db.table_names()) == {"meta", "games", "events"}  # nothing secret in here
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert "WITHOUT ROWID" in db["events"].schema
    assert db.table("events").pks == ["game", "seq"]
    meta = {row["key"]: row["value"] for row in db["meta"].rows}
    assert meta == {"app": "warlog", "schema_version": str(SCHEMA_VERSION)}
    assert "seed" not in {c.name for c in db["events"].columns}


def test_a_reopened_database_holds_what_was_written(tmp_path: Path) -> None:
    path = make_db(tmp_path / "warlog.db", events=5)
    with SQLiteStore(path) as store:
        records = list(store.read("g"))
        assert [r.seq for r in records] == [1, 2, 3, 4, 5]
        assert records[0].prev == GENESIS
        assert records[4].hash == link(records[4].prev, 5, records[4].type, AT, records[4].data)
        store.append("g", [pending(6)], 5)
    with SQLiteStore(path) as store:
        assert store.head("g")[0] == 6


@pytest.mark.parametrize("read", ["read", "read_rows"])
def test_a_read_left_unfinished_when_the_store_closes_ends_quietly(
    tmp_path: Path, read: str
) -> None:
    # given a read of a game begun and left unfinished (a command failed after its first rows)
    path = make_db(tmp_path / "warlog.db", events=5)
    store = SQLiteStore(path)
    rows = getattr(store, read)("g")
    next(rows)
    # when the store is closed first and the read is then closed (as when it is collected)
    store.close()
    # then it ends without an error: nothing is printed after the command's one line
    rows.close()


def test_the_event_fields_view_lets_a_referee_query_a_forked_game(tmp_path: Path) -> None:
    path = tmp_path / "warlog.db"
    with SQLiteStore(path, create=True) as store:
        command = {"type": "move_army", "army": "a1"}
        store.create_game(GameInfo("g", "test"), [pending(1)])
        store.append("g", [pending(2, player="red", command=command), pending(3)], 1)
        store.append("g", [pending(4, player="blue", command={"type": "pass"})], 3)
        store.create_game(GameInfo("f", "test", parent="g", fork_at=3), [pending(5, player="red")])
    rows = list(
        sqlite_utils.Database(path).query(
            "select seq, player, command, stored_in from event_fields where game = ? order by seq",
            ["f"],
        )
    )
    assert rows == [
        {"seq": 1, "player": None, "command": None, "stored_in": "g"},
        {"seq": 2, "player": "red", "command": "move_army", "stored_in": "g"},
        {"seq": 3, "player": None, "command": None, "stored_in": "g"},
        {"seq": 4, "player": "red", "command": None, "stored_in": "f"},
    ]


# ---------------------------------------------------------------------- missing or empty


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


# ---------------------------------------------------------------------- not ours or broken


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
        (_newer, "store/schema_version", "upgrade warlog"),
    ],
    ids=["garbage", "short", "truncated", "foreign", "foreign-meta", "newer-schema"],
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


# ---------------------------------------------------------------------- permissions


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


# ---------------------------------------------------------------------- locks


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


# ---------------------------------------------------------------------- a full disk


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


# ---------------------------------------------------------------------- racing writers


def _race(path: Path, barrier: Any, expected: int, tag: int) -> object:
    with SQLiteStore(path) as store:
        batch = [pending(tag * 100 + i) for i in range(3)]
        barrier.wait(30)
        return [r.seq for r in store.append("g", batch, expected)]


def test_two_processes_appending_at_the_same_head_one_wins_one_conflicts(tmp_path: Path) -> None:
    path = make_db(tmp_path / "warlog.db", events=1)
    for round_ in range(4):
        head = 1 + 3 * round_
        barrier = FORK.Barrier(2)
        children = [start_child(_race, path, barrier, head, tag) for tag in (1, 2)]
        results = [finish(child) for child in children]
        winners = [r for r in results if r[0] == "ok"]
        losers = [r for r in results if r[0] == "ConflictError"]
        assert len(winners) == 1 and len(losers) == 1, results
        assert winners[0][1] == repr([head + 1, head + 2, head + 3])
        assert losers[0][2] == (
            f"game g has moved on: head is {head + 3}, expected {head}; nothing appended, retry"
        )
    with SQLiteStore(path) as store:
        records = list(store.read("g"))
    assert [r.seq for r in records] == list(range(1, 14))  # no gap, no duplicate
    prev = GENESIS
    for record in records:
        assert record.prev == prev
        assert record.hash == link(prev, record.seq, record.type, record.at, record.data)
        prev = record.hash


def _create_and_start(path: Path, barrier: Any, game: str) -> object:
    barrier.wait(30)
    with SQLiteStore(path, create=True) as store:
        return [r.seq for r in store.create_game(GameInfo(game, "test"), [pending(1)])]


@pytest.mark.parametrize("start", ["missing", "zero-length"])
def test_processes_creating_the_same_database_at_once_all_succeed(
    tmp_path: Path, start: str
) -> None:
    path = tmp_path / "warlog.db"
    if start == "zero-length":
        path.touch()
    barrier = FORK.Barrier(4)
    children = [start_child(_create_and_start, path, barrier, f"g{i}") for i in range(4)]
    assert [finish(child) for child in children] == [("ok", "[1]")] * 4
    with SQLiteStore(path) as store:
        assert [info.game for info in store.games()] == ["g0", "g1", "g2", "g3"]


def test_a_primary_key_clash_from_a_racing_writer_is_a_conflict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = make_db(tmp_path / "warlog.db")
    with SQLiteStore(path) as store:
        # the head check sees the world one event late, as if the racer committed after it
        stale = "SELECT seq - 1, prev FROM events WHERE game = ? ORDER BY seq DESC LIMIT 1"
        monkeypatch.setattr(sqlite_store, "_HEAD", stale)
        with pytest.raises(ConflictError) as caught:
            store.append("g", [pending(3), pending(4)], 2)
        assert caught.value.exit_code == 5
        monkeypatch.undo()
        assert [r.seq for r in store.read("g")] == [1, 2, 3]
        assert store.head("g")[0] == 3


def test_a_game_created_by_a_racing_process_is_a_game_exists_conflict(tmp_path: Path) -> None:
    path = make_db(tmp_path / "warlog.db")
    with SQLiteStore(path) as store:
        assert store.info("g").game == "g"
        with pytest.raises(ConflictError) as caught:
            store.create_game(GameInfo("g", "test"), [pending(1)])
        assert caught.value.code == "store/game_exists"


def test_a_game_the_locked_database_refuses_leaves_nothing_in_the_key_file(tmp_path: Path) -> None:
    """Given a database another process holds write-locked, when a new game is created (and a
    new-dice fork made), then the store refuses it (store/locked) and the key file keeps neither
    its key nor its openings (it kept a seed and every opening of the game it said it had not
    written); once the lock is gone the same id is created, its key and openings kept."""
    from warlog.arbiter.application import Arbiter
    from warlog.domain import rulesets
    from warlog.eventstore.sqlite_vault import SQLiteVault, vault_path

    path = tmp_path / "warlog.db"
    seeds = iter([bytes([n]) * 32 for n in range(1, 9)])
    with SQLiteStore(path, create=True, busy_timeout_ms=100) as store:
        vault = SQLiteVault(vault_path(path), create=True)
        arb = Arbiter(store, rulesets.get, vault=vault, seeds=lambda: next(seeds))
        arb.new_game("armageddon-empires", game="first")
        keys = sqlite3.connect(vault_path(path))

        def held() -> tuple[int, int]:
            return (
                keys.execute("SELECT count(*) FROM keys").fetchone()[0],
                keys.execute("SELECT count(*) FROM openings").fetchone()[0],
            )

        before = held()
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process in the middle of its own append
        try:
            error = refused(lambda: arb.new_game("armageddon-empires", game="second"))
            assert error.code == "store/locked"
            error = refused(lambda: arb.fork("first", at=17, new_game="what-if", dice="new"))
            assert error.code == "store/locked"
            assert held() == before
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        arb.new_game("armageddon-empires", game="second")
        assert held()[0] == before[0] + 1 and held()[1] > before[1]
        assert arb.audit("second").findings == []
        keys.close()
        arb.close()
