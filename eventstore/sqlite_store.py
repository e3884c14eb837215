"""The SQLite log: one WAL-mode file holding the events, the game catalogue, snapshots and seeds.

Schema (version 1, see ``SCHEMA_VERSION``; created with sqlite-utils except ``events``):

- ``meta(key PRIMARY KEY, value)``: ``app = warlog``, ``schema_version = 1``.
- ``games(game PRIMARY KEY, ruleset, parent REFERENCES games, fork_at)``: the catalogue.
- ``events(game, seq, type, data, at, prev, hash, PRIMARY KEY (game, seq)) WITHOUT ROWID``: a
  game's *own* events; a fork's 1..fork_at are read through its parent, never copied. The
  primary key is the last guard of the optimistic-concurrency check.
- ``snapshots(game, version, seq, state)``: a cache, kept under the game that owns event ``seq``.
- ``secrets(game PRIMARY KEY, seed)``: dice seeds, never in ``events``, never exported.
- view ``event_fields``: every game's events along its lineage with the JSON fields a referee
  asks about (``player``, ``command``), e.g. ``sqlite-utils warlog.db "select * from
  event_fields where game = 'ae-1' and command = 'move_army'"``.

Every failure of the file (missing, a directory, unreadable, read-only, locked, full, not a
database, not ours) is a one-line StoreError (exit 1); no ``sqlite3.Error`` leaves this module,
and nothing is written to a file until it is known to be empty or a warlog database.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import stat
import time
from collections.abc import Iterator, Sequence
from itertools import starmap
from pathlib import Path
from types import TracebackType
from typing import Any

import sqlite_utils

from warlog.domain.core.errors import StoreError, UnknownGame, WarlogError
from warlog.eventstore.chain import GENESIS, link
from warlog.eventstore.lineage import (
    Segment,
    bad_event,
    bad_from_seq,
    check_fork_at,
    check_info,
    check_snapshot_seq,
    conflict,
    empty_batch,
    game_exists,
    lineage,
    owner_of,
    parent_head,
    secret_exists,
    unknown_game,
)
from warlog.eventstore.records import GameInfo, Pending, Record

SCHEMA_VERSION = 1
APP = "warlog"
BUSY_TIMEOUT_MS = 5000
SQLITE_HEADER = b"SQLite format 3\x00"

# The one table sqlite-utils cannot create. WITHOUT ROWID keeps each game's rows together in the
# primary-key b-tree, in (game, seq) order: replaying one of 20 interleaved games from a cold
# cache took 120 ms against 300 ms for a rowid table (equal when the pages are cached).
EVENTS_DDL = """
CREATE TABLE IF NOT EXISTS events (
    game TEXT NOT NULL,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    at TEXT NOT NULL,
    prev TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID
"""

# A fork's rows stop at its fork point; walking up the parents gives each game its whole log.
EVENT_FIELDS_SQL = """
WITH RECURSIVE lineage(game, owner, upto) AS (
    SELECT game, game, NULL FROM games
    UNION ALL
    SELECT lineage.game, games.parent,
           CASE WHEN lineage.upto IS NULL OR lineage.upto > games.fork_at
                THEN games.fork_at ELSE lineage.upto END
    FROM lineage JOIN games ON games.game = lineage.owner
    WHERE games.parent IS NOT NULL
)
SELECT lineage.game AS game, e.seq AS seq, e.type AS type, e.at AS at,
       CASE WHEN json_valid(e.data) THEN json_extract(e.data, '$.player') END AS player,
       CASE WHEN json_valid(e.data) THEN json_extract(e.data, '$.command.type') END AS command,
       e.data AS data, e.prev AS prev, e.hash AS hash, e.game AS stored_in
FROM lineage JOIN events AS e
  ON e.game = lineage.owner AND (lineage.upto IS NULL OR e.seq <= lineage.upto)
"""

_HEAD = "SELECT seq, hash FROM events WHERE game = ? ORDER BY seq DESC LIMIT 1"
_READ = (
    "SELECT seq, type, data, at, prev, hash FROM events"
    " WHERE game = ? AND seq BETWEEN ? AND ? ORDER BY seq"
)
_READ_ROWS = (
    "SELECT seq, type, data, hash FROM events WHERE game = ? AND seq BETWEEN ? AND ? ORDER BY seq"
)
_INSERT = "INSERT INTO events (game, seq, type, data, at, prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?)"
_INSERT_GAME = "INSERT INTO games (game, ruleset, parent, fork_at) VALUES (?, ?, ?, ?)"

# primary result codes (https://www.sqlite.org/rescode.html)
_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT = 3, 5, 6, 8, 10, 11
_FULL, _CANTOPEN, _AUTH, _NOTADB = 13, 14, 23, 26
_CONSTRAINT_PRIMARYKEY = 1555


class SQLiteStore:
    """A ``Store`` in the SQLite file at ``path``.

    ``create``: make the file (or initialise an empty one) if there is no warlog database yet.
    StoreError (exit 1) if the file cannot be used; it is then left exactly as it was.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        create: bool = False,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    ) -> None:
        self.path = os.fspath(path)
        self._busy_ms = busy_timeout_ms
        self._infos: dict[str, GameInfo] = {}  # catalogue rows never change once written
        self._lineages: dict[str, list[Segment]] = {}
        self._conn = self._open(create)

    def __repr__(self) -> str:
        return f"SQLiteStore({self.path!r})"

    def close(self) -> None:
        with self._guard():
            self._conn.close()

    def __enter__(self) -> SQLiteStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------------ the log

    def create_game(self, info: GameInfo, first: Sequence[Pending]) -> list[Record]:
        """Register ``info.game`` and append ``first`` after GENESIS or the fork point, in one
        transaction; a fork writes one catalogue row, whatever its fork point.

        ConflictError (code ``store/game_exists``) if the game exists; UnknownGame for an unknown
        parent; InputError for an empty ``first``, a bad event or a fork point outside 1..head.
        """
        check_info(info)
        if not first:
            raise empty_batch(info.game)
        try:
            with self._transaction() as conn:
                if conn.execute("SELECT 1 FROM games WHERE game = ?", (info.game,)).fetchone():
                    raise game_exists(info.game)
                start, prev = 0, GENESIS
                if info.parent is not None and info.fork_at is not None:
                    check_fork_at(info, parent_head(info, self._head))
                    start, prev = info.fork_at, self._hash_at(info.parent, info.fork_at)
                records, rows = _link(info.game, first, start, prev)
                conn.execute(_INSERT_GAME, (info.game, info.ruleset, info.parent, info.fork_at))
                conn.executemany(_INSERT, rows)
        except sqlite3.IntegrityError as exc:
            if exc.sqlite_errorcode == _CONSTRAINT_PRIMARYKEY:  # created meanwhile elsewhere
                raise game_exists(info.game) from exc
            raise self._error(exc) from exc
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        return records

    def append(self, game: str, batch: Sequence[Pending], expected_seq: int) -> list[Record]:
        """Append ``batch`` after ``expected_seq`` in one transaction; the new records.

        ConflictError (nothing appended) if the head is elsewhere or a racing writer took the
        same seq; UnknownGame; InputError for an empty batch or a bad event; StoreError.
        """
        if not batch:
            raise empty_batch(game)
        try:
            with self._transaction() as conn:
                row = conn.execute(_HEAD, (game,)).fetchone()
                if row is None:
                    raise unknown_game(game)
                if row[0] != expected_seq:
                    raise conflict(game, row[0], expected_seq)
                records, rows = _link(game, batch, row[0], row[1])
                conn.executemany(_INSERT, rows)
        except sqlite3.IntegrityError as exc:
            raise self._lost_race(game, expected_seq, exc) from exc
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        return records

    def read(self, game: str, from_seq: int = 1, to_seq: int | None = None) -> Iterator[Record]:
        """The records ``from_seq``..``to_seq``, streamed in seq order along the lineage (one
        SELECT per segment) and clamped to the head at the time of the call.

        UnknownGame and InputError (from_seq < 1) are raised here, StoreError also while
        iterating.
        """
        return self._stream(self._plan(game, from_seq, to_seq), _READ, Record)

    def read_rows(
        self, game: str, from_seq: int = 1, to_seq: int | None = None
    ) -> Iterator[tuple[int, str, str, str]]:
        """``(seq, type, data, hash)`` of the records ``read`` yields, as plain tuples."""
        return self._stream(self._plan(game, from_seq, to_seq), _READ_ROWS, None)

    def _plan(self, game: str, from_seq: int, to_seq: int | None) -> list[tuple[str, int, int]]:
        """``(owner, lo, hi)`` for each lineage segment the read covers; UnknownGame,
        InputError (from_seq < 1)."""
        if from_seq < 1:
            raise bad_from_seq(game, from_seq)
        with self._guard():
            segments = self._segments(game)
            # a stated end bounds the SELECT by itself; otherwise clamp to the head of now
            hi = self._head(game)[0] if to_seq is None else to_seq
        parts = []
        for owner, lo, seg_hi in segments:
            a, b = max(lo, from_seq), hi if seg_hi is None else min(seg_hi, hi)
            if a <= b:
                parts.append((owner, a, b))
        return parts

    def head(self, game: str) -> tuple[int, str]:
        """``(seq, hash)`` of the game's last event. UnknownGame."""
        with self._guard():
            head = self._head(game)
        return head

    def info(self, game: str) -> GameInfo:
        """The catalogue row. UnknownGame."""
        with self._guard():
            info = self._info(game)
        return info

    def games(self) -> list[GameInfo]:
        """Every game, sorted by id, with its lineage (parent, fork_at)."""
        with self._guard():
            rows = self._conn.execute(
                "SELECT game, ruleset, parent, fork_at FROM games ORDER BY game"
            ).fetchall()
        return list(starmap(GameInfo, rows))

    # ------------------------------------------------------------------ caches

    def put_snapshot(self, game: str, seq: int, version: str, state: bytes) -> None:
        """Store (or overwrite) the ``version`` snapshot after event ``seq``, under the game that
        owns that event. UnknownGame; InputError if ``seq`` is not 1..head."""
        with self._guard():
            check_snapshot_seq(game, seq, self._head(game)[0])
            owner = owner_of(self._segments(game), seq)
            self._conn.execute(
                "INSERT OR REPLACE INTO snapshots (game, version, seq, state) VALUES (?, ?, ?, ?)",
                (owner, version, seq, bytes(state)),
            )

    def latest_snapshot(self, game: str, seq: int, version: str) -> tuple[int, bytes] | None:
        """``(seq, state)`` of the newest ``version`` snapshot at or before ``seq`` on the
        game's lineage, or None. UnknownGame."""
        row = None
        with self._guard():
            for owner, lo, hi in reversed(self._segments(game)):
                top = seq if hi is None else min(seq, hi)
                row = None
                if top >= lo:
                    row = self._conn.execute(
                        "SELECT seq, state FROM snapshots WHERE game = ? AND version = ?"
                        " AND seq BETWEEN ? AND ? ORDER BY seq DESC LIMIT 1",
                        (owner, version, lo, top),
                    ).fetchone()
                if row is not None:
                    break
        return None if row is None else (row[0], bytes(row[1]))

    def put_secret(self, game: str, seed: bytes) -> None:
        """Keep the game's dice seed. UnknownGame; ConflictError if a different seed is held."""
        with self._guard(), self._transaction() as conn:
            self._info(game)
            row = conn.execute("SELECT seed FROM secrets WHERE game = ?", (game,)).fetchone()
            if row is None:
                conn.execute("INSERT INTO secrets (game, seed) VALUES (?, ?)", (game, bytes(seed)))
            elif bytes(row[0]) != seed:
                raise secret_exists(game)

    def secret(self, game: str) -> bytes | None:
        """The game's dice seed, or None if this store holds none. UnknownGame."""
        with self._guard():
            self._info(game)
            row = self._conn.execute("SELECT seed FROM secrets WHERE game = ?", (game,)).fetchone()
        return None if row is None else bytes(row[0])

    # ------------------------------------------------------------------ inside: rows

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn any SQLite failure inside into this file's one-line StoreError."""
        try:
            yield
        except sqlite3.Error as exc:
            raise self._error(exc) from exc

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` (writers queue here, up to the busy timeout) ... ``COMMIT``;
        rolled back on any error, which propagates."""
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise

    def _head(self, game: str) -> tuple[int, str]:
        row = self._conn.execute(_HEAD, (game,)).fetchone()
        if row is None:  # every game has at least one event of its own
            raise unknown_game(game)
        return row[0], row[1]

    def _info(self, game: str) -> GameInfo:
        info = self._infos.get(game)
        if info is None:
            row = self._conn.execute(
                "SELECT game, ruleset, parent, fork_at FROM games WHERE game = ?", (game,)
            ).fetchone()
            if row is None:
                raise unknown_game(game)
            info = self._infos[game] = GameInfo(*row)
        return info

    def _segments(self, game: str) -> list[Segment]:
        segments = self._lineages.get(game)
        if segments is None:
            segments = self._lineages[game] = lineage(game, self._info)
        return segments

    def _hash_at(self, game: str, seq: int) -> str:
        owner = owner_of(self._segments(game), seq)
        row = self._conn.execute(
            "SELECT hash FROM events WHERE game = ? AND seq = ?", (owner, seq)
        ).fetchone()
        if row is None:
            raise StoreError(
                f"{self.path}: game {owner} has no event {seq} (the log has a gap)", "store/corrupt"
            )
        return str(row[0])

    def _stream(self, parts: list[tuple[str, int, int]], query: str, row: Any) -> Iterator[Any]:
        """The rows of ``query`` over each part, made into ``row`` (None: plain tuples)."""
        conn = self._conn
        try:
            for owner, lo, hi in parts:
                cursor = conn.execute(query, (owner, lo, hi))
                try:
                    yield from (cursor if row is None else starmap(row, cursor))
                finally:
                    cursor.close()
        except sqlite3.Error as exc:
            raise self._error(exc) from exc

    def _lost_race(self, game: str, expected_seq: int, exc: sqlite3.IntegrityError) -> WarlogError:
        """A primary-key clash on ``events``: another writer took the seq first."""
        if getattr(exc, "sqlite_errorcode", None) != _CONSTRAINT_PRIMARYKEY:
            return self._error(exc)
        try:
            head = self._head(game)[0]
        except (sqlite3.Error, UnknownGame):
            head = expected_seq
        return conflict(game, head, expected_seq)

    # ------------------------------------------------------------------ inside: the file

    def _open(self, create: bool) -> sqlite3.Connection:
        found = _inspect(self.path)
        if found != "sqlite" and not create:
            raise self._missing(found)
        if found == "missing":
            parent = Path(self.path).absolute().parent
            if not parent.is_dir():
                raise StoreError(
                    f"cannot create database {self.path}: no directory {parent}", "store/cantopen"
                )
        mode = "rwc" if found == "missing" else "rw"  # "rw": SQLite never creates the file
        uri = f"{Path(self.path).absolute().as_uri()}?mode={mode}"
        try:
            conn = sqlite3.connect(
                uri, uri=True, timeout=self._busy_ms / 1000, isolation_level=None
            )
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        try:
            if self._schema(conn) == "empty":
                if not create:
                    raise self._missing("empty")
                self._initialise(conn)
            self._use_wal(conn)
        except BaseException as exc:
            conn.close()
            if isinstance(exc, sqlite3.Error):
                raise self._error(exc) from exc
            raise
        return conn

    def _schema(self, conn: sqlite3.Connection) -> str:
        """The schema state, reading only: "empty" (no tables at all) or "warlog".

        StoreError for another application's database or another schema version.
        """
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        if not names:
            return "empty"
        not_ours = StoreError(
            f"{self.path} is not a warlog database (an SQLite file without warlog's tables)",
            "store/not_warlog",
        )
        if not {"meta", "games", "events"} <= names:
            raise not_ours
        try:
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.OperationalError as exc:  # a "meta" table of someone else's shape
            if exc.sqlite_errorcode & 0xFF in (_BUSY, _LOCKED, _IOERR, _CORRUPT, _NOTADB):
                raise
            raise not_ours from exc
        if meta.get("app") != APP:
            raise not_ours
        version = str(meta.get("schema_version"))
        if not version.isdigit() or int(version) != SCHEMA_VERSION:
            newer = version.isdigit() and int(version) > SCHEMA_VERSION
            raise StoreError(
                f"{self.path} has warlog schema version {version}; this warlog reads version "
                f"{SCHEMA_VERSION}" + ("; upgrade warlog" if newer else ""),
                "store/schema_version",
            )
        return "warlog"

    def _initialise(self, conn: sqlite3.Connection) -> None:
        """Create the schema in one transaction (a racing creator makes this a no-op)."""
        self._use_wal(conn)
        conn.execute("BEGIN IMMEDIATE")
        try:
            if self._schema(conn) == "empty":
                db = sqlite_utils.Database(conn, recursive_triggers=False, execute_plugins=False)
                db.table("meta").create(
                    {"key": str, "value": str}, pk="key", not_null={"key", "value"}
                )
                db.table("games").create(
                    {"game": str, "ruleset": str, "parent": str, "fork_at": int},
                    pk="game",
                    not_null={"game", "ruleset"},
                    foreign_keys=[("parent", "games", "game")],
                )
                conn.execute(EVENTS_DDL)
                db.table("snapshots").create(
                    {"game": str, "version": str, "seq": int, "state": bytes},
                    pk=("game", "version", "seq"),
                    not_null={"game", "version", "seq", "state"},
                )
                db.table("secrets").create(
                    {"game": str, "seed": bytes}, pk="game", not_null={"game", "seed"}
                )
                db.create_view("event_fields", EVENT_FIELDS_SQL.strip())
                db.table("meta").insert_all(
                    [
                        {"key": "app", "value": APP},
                        {"key": "schema_version", "value": str(SCHEMA_VERSION)},
                    ]
                )
            conn.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise

    def _use_wal(self, conn: sqlite3.Connection) -> None:
        """Switch to WAL (once per file). The switch needs the file to itself and SQLite does
        not wait for that, so wait here, up to the busy timeout, while other openers read."""
        deadline = time.monotonic() + self._busy_ms / 1000
        while conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                return  # switched, or kept in a mode SQLite insists on: correct, only slower
            except sqlite3.OperationalError as exc:
                primary = exc.sqlite_errorcode & 0xFF
                if primary == _READONLY:
                    return  # reads work in the current mode; writes will say "read-only"
                if primary not in (_BUSY, _LOCKED) or time.monotonic() > deadline:
                    raise
                time.sleep(0.005)

    def _missing(self, found: str) -> StoreError:
        empty = " (the file is empty)" if found == "empty" else ""
        return StoreError(
            f"no warlog database at {self.path}{empty}; create one with `warlog new`",
            "store/missing",
        )

    def _error(self, exc: sqlite3.Error) -> StoreError:
        """The one-line StoreError for an SQLite failure on this file."""
        code = getattr(exc, "sqlite_errorcode", None)
        primary = code & 0xFF if isinstance(code, int) else None
        reason = " ".join(str(exc).split()) or type(exc).__name__
        path = self.path
        if primary in (_BUSY, _LOCKED):
            return StoreError(
                f"database {path} is locked by another process (still busy after "
                f"{self._busy_ms} ms); nothing was written",
                "store/locked",
            )
        if primary == _READONLY:
            if getattr(exc, "sqlite_errorname", "") == "SQLITE_READONLY_DIRECTORY":
                reason = "its directory too, and a WAL database needs a -shm file there to be read"
            return StoreError(f"database {path} is read-only ({reason})", "store/read_only")
        if primary == _FULL or (primary == _IOERR and _write_limited(path)):
            return StoreError(
                f"database {path}: disk full or file size limit reached ({reason}); "
                "nothing was written",
                "store/disk_full",
            )
        if primary == _IOERR:
            name = getattr(exc, "sqlite_errorname", "SQLITE_IOERR")
            return StoreError(f"database {path}: I/O error ({reason}, {name})", "store/io")
        if primary in (_CORRUPT, _NOTADB):
            return StoreError(f"{path} is not a warlog database ({reason})", "store/corrupt")
        if primary == _CANTOPEN:
            folder = os.path.dirname(os.path.abspath(path))
            if os.path.exists(path) and not (
                os.access(path, os.W_OK) and os.access(folder, os.W_OK)
            ):
                return StoreError(
                    f"database {path} is read-only (it or its directory: a WAL database needs to "
                    "write its -wal and -shm files beside it even to be read)",
                    "store/read_only",
                )
            return StoreError(f"cannot open database {path} ({reason})", "store/cantopen")
        if primary in (_PERM, _AUTH):
            return StoreError(f"cannot read database {path} ({reason})", "store/unreadable")
        return StoreError(f"database {path}: {reason}", "store/unavailable")


def _link(
    game: str, batch: Sequence[Pending], seq: int, prev: str
) -> tuple[list[Record], list[tuple[str, int, str, str, str, str, str]]]:
    """The records and the ``events`` rows of ``batch`` after event ``seq`` (hash ``prev``).

    One pass, no I/O: the append path's only Python work besides the SQL. InputError before
    anything is written if an event's type, data or at is not text.
    """
    records = []
    rows = []
    for pending in batch:
        seq += 1
        type_, data, at = pending.type, pending.data, pending.at
        if type(type_) is not str or type(data) is not str or type(at) is not str:
            raise bad_event(game, seq)
        hash_ = link(prev, seq, type_, at, data)
        records.append(Record(seq, type_, data, at, prev, hash_))
        rows.append((game, seq, type_, data, at, prev, hash_))
        prev = hash_
    return records, rows


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        # the original error is the one to report; SQLite undoes the transaction on close anyway
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def _inspect(path: str) -> str:
    """What is at ``path``, without writing: "missing", "empty" (zero bytes) or "sqlite".

    StoreError for a directory, something that is not a file, an unreadable file or a file
    that is not an SQLite database at all.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        raise StoreError(
            f"cannot read database {path} ({exc.strerror})", "store/unreadable"
        ) from exc
    if stat.S_ISDIR(mode):
        raise StoreError(f"{path} is a directory, not a warlog database", "store/not_a_file")
    if not stat.S_ISREG(mode):
        raise StoreError(f"{path} is not a regular file, not a warlog database", "store/not_a_file")
    try:
        with open(path, "rb") as file:
            header = file.read(100)
    except OSError as exc:
        raise StoreError(
            f"cannot read database {path} ({exc.strerror})", "store/unreadable"
        ) from exc
    if not header:
        return "empty"
    if len(header) < 100 or not header.startswith(SQLITE_HEADER):
        raise StoreError(
            f"{path} is not a warlog database (file is not a database)", "store/corrupt"
        )
    _check_length(path, header, os.stat(path).st_size)
    return "sqlite"


def _check_length(path: str, header: bytes, size: int) -> None:
    """StoreError if the file ends inside a page, or is shorter than its header says while no
    write-ahead log could make up the rest: a truncated database reads as healthy until a lost
    page is needed, so refuse it up front. (A checkpoint killed half-way leaves page 1 with the
    new size and the other pages still in the -wal file: that database is whole.)"""
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    header_size_valid = pages > 0 and header[24:28] == header[92:96]  # SQLite file format 1.3.8
    try:
        wal_pending = os.path.getsize(f"{path}-wal") > 0
    except OSError:
        wal_pending = False
    short = header_size_valid and size < pages * page_size and not wal_pending
    if page_size < 512 or size % page_size or short:
        raise StoreError(
            f"{path} is truncated ({size} bytes; its header promises "
            f"{pages} pages of {page_size} bytes)",
            "store/corrupt",
        )


def _write_limited(path: str) -> bool:
    """Whether a failed write is most likely the disk or the process's file size limit."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
        if soft != resource.RLIM_INFINITY:
            return True
    except (ImportError, OSError, ValueError):
        pass
    try:
        return shutil.disk_usage(Path(path).absolute().parent).free < 1 << 20
    except OSError:
        return False
