"""The SQLite file under the store: opening it, its schema, and the one-line error for every
way a file can fail (missing, a directory, unreadable, read-only, locked, full, truncated, not a
database, not ours).

Nothing is written to a file until it is known to be empty or a warlog database, and no
``sqlite3.Error`` leaves here without becoming a StoreError (exit 1). The log operations on an
open file are ``sqlite_store.SQLiteStore``'s.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import time
from pathlib import Path

from warlog.domain.core.errors import StoreError

SCHEMA_VERSION = 2  # 2: snapshots and seeds moved to the key file
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

# primary result codes (https://www.sqlite.org/rescode.html)
PERM, BUSY, LOCKED, READONLY, IOERR, CORRUPT = 3, 5, 6, 8, 10, 11
FULL, CANTOPEN, AUTH, NOTADB = 13, 14, 23, 26
CONSTRAINT_PRIMARYKEY = 1555


class SQLiteFile:
    """The database file at ``path``: ``open`` it (creating the schema if asked) and turn an
    SQLite failure on it into its one-line StoreError (``error``)."""

    def __init__(
        self, path: str, busy_timeout_ms: int = BUSY_TIMEOUT_MS, what: str = "warlog database"
    ) -> None:
        """``what``: the file's name in its errors ("warlog database", "warlog key file")."""
        self.path = path
        self._busy_ms = busy_timeout_ms
        self._what = what

    def open(self, create: bool) -> sqlite3.Connection:
        found = _inspect(self.path, self._what)
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
            raise self.error(exc) from exc
        try:
            if self._schema(conn) == "empty":
                if not create:
                    raise self._missing("empty")
                self._initialise(conn)
            self._use_wal(conn)
        except BaseException as exc:
            conn.close()
            busy = isinstance(exc, sqlite3.Error) and _primary(exc) in (BUSY, LOCKED)
            if found == "missing" and not busy:  # busy: another opener may be making it
                _remove_if_empty(self.path)  # a refused create leaves nothing behind
            if isinstance(exc, sqlite3.Error):
                raise self.error(exc) from exc
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
            if exc.sqlite_errorcode & 0xFF in (BUSY, LOCKED, IOERR, CORRUPT, NOTADB):
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
                import sqlite_utils  # only here: opening an existing file never needs it

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
                db.create_view("event_fields", EVENT_FIELDS_SQL.strip())
                db.table("meta").insert_all(
                    [
                        {"key": "app", "value": APP},
                        {"key": "schema_version", "value": str(SCHEMA_VERSION)},
                    ]
                )
            conn.execute("COMMIT")
        except BaseException:
            rollback(conn)
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
                if primary == READONLY:
                    return  # reads work in the current mode; writes will say "read-only"
                if primary not in (BUSY, LOCKED) or time.monotonic() > deadline:
                    raise
                time.sleep(0.005)

    def _missing(self, found: str) -> StoreError:
        empty = " (the file is empty)" if found == "empty" else ""
        return StoreError(
            f"no warlog database at {self.path}{empty}; create one with `warlog new`",
            "store/missing",
        )

    def error(self, exc: sqlite3.Error) -> StoreError:
        """The one-line StoreError for an SQLite failure on this file."""
        primary = _primary(exc)
        reason = " ".join(str(exc).split()) or type(exc).__name__
        path = self.path
        if primary in (BUSY, LOCKED):
            return StoreError(
                f"database {path} is locked by another process (still busy after "
                f"{self._busy_ms} ms); nothing was written",
                "store/locked",
            )
        if primary == READONLY:
            if getattr(exc, "sqlite_errorname", "") == "SQLITE_READONLY_DIRECTORY":
                reason = "its directory too, and a WAL database needs a -shm file there to be read"
            return StoreError(f"database {path} is read-only ({reason})", "store/read_only")
        if primary == FULL or (primary == IOERR and _write_limited(path)):
            return StoreError(
                f"database {path}: disk full or file size limit reached ({reason}); "
                "nothing was written",
                "store/disk_full",
            )
        if primary == IOERR:
            name = getattr(exc, "sqlite_errorname", "SQLITE_IOERR")
            return StoreError(f"database {path}: I/O error ({reason}, {name})", "store/io")
        if primary in (CORRUPT, NOTADB):
            return StoreError(f"{path} is not a {self._what} ({reason})", "store/corrupt")
        if primary == CANTOPEN:
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
        if primary in (PERM, AUTH):
            return StoreError(f"cannot read database {path} ({reason})", "store/unreadable")
        if reason.startswith("Could not decode to UTF-8 column"):  # a damaged page's text
            column = reason.split("'")[1] if reason.count("'") >= 2 else "a column"
            return StoreError(
                f"{path} is damaged: a stored text ({column!r}) is not UTF-8", "store/corrupt"
            )
        return StoreError(f"database {path}: {reason}", "store/unavailable")


def rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        # the original error is the one to report; SQLite undoes the transaction on close anyway
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def _primary(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def _remove_if_empty(path: str) -> None:
    """Remove the file this open made at ``path`` if it is still empty (no schema written)."""
    with contextlib.suppress(OSError):
        if os.stat(path).st_size == 0:
            os.unlink(path)


def _inspect(path: str, what: str) -> str:
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
        raise StoreError(f"{path} is a directory, not a {what}", "store/not_a_file")
    if not stat.S_ISREG(mode):
        raise StoreError(f"{path} is not a regular file, not a {what}", "store/not_a_file")
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
        raise StoreError(f"{path} is not a {what} (file is not a database)", "store/corrupt")
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
    import shutil  # only here, after a failed write: most processes never need it

    try:
        return shutil.disk_usage(Path(path).absolute().parent).free < 1 << 20
    except OSError:
        return False
