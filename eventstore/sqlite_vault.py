"""The vault of an SQLite log: the key file ``<database>.keys`` beside it, readable by its owner
only (created with mode 0600, or an empty one found made 0600; SQLite gives its -wal and -shm
files the same mode). A key file holding keys that others may open is refused.

Schema (version 3): ``meta(key, value)`` (``app = warlog-keys``, ``schema_version``, the MAC key
of snapshots), ``keys(commitment PRIMARY KEY, game, seed)``, ``openings(hash PRIMARY KEY, game,
seq, clear, owners)`` with the index ``openings_by_seq(game, seq)`` (a fold reads the openings of
a stretch of a game's log as one range), ``snapshots(game, version, seq, state, mac)``,
``tokens(id PRIMARY KEY, game, seat, digest)`` (the seat tokens of the arbiter server, by digest
only). An older file is brought to version 3 when it is opened (version 1 had no ``tokens``,
version 2 no ``openings_by_seq``).

The file is opened on first use, so that what needs no secret (listing events, receipts,
exporting a log) works on a database handed out without its key file.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import sqlite3
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from warlog.domain.core.errors import ConflictError, StoreError
from warlog.eventstore.lineage import Segment
from warlog.eventstore.sqlite_file import BUSY_TIMEOUT_MS, SQLiteFile, rollback
from warlog.eventstore.vault import (
    Opening,
    SeatToken,
    checked_seed,
    mac_key,
    opening_row,
    snapshot_mac,
)

VAULT_APP = "warlog-keys"
VAULT_SCHEMA_VERSION = 3
SUFFIX = ".keys"
#: the key file's mode: readable and writable by its owner only
OWNER_ONLY = 0o600
#: hashes looked up in one SELECT (well under SQLite's limit on parameters)
_IN_MOST = 500

_DDL = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE keys (commitment TEXT PRIMARY KEY, game TEXT NOT NULL, seed BLOB NOT NULL)",
    "CREATE TABLE openings (hash TEXT PRIMARY KEY, game TEXT NOT NULL, seq INTEGER NOT NULL,"
    " clear TEXT NOT NULL, owners TEXT NOT NULL)",
    "CREATE TABLE snapshots (game TEXT NOT NULL, version TEXT NOT NULL, seq INTEGER NOT NULL,"
    " state BLOB NOT NULL, mac BLOB NOT NULL, PRIMARY KEY (game, version, seq)) WITHOUT ROWID",
)
#: the tables of the current schema
_TABLES = ("meta", "keys", "openings", "snapshots", "tokens")
#: what each schema version adds to the one before it
_MIGRATIONS = {
    2: (
        "CREATE TABLE tokens (id TEXT PRIMARY KEY, game TEXT NOT NULL, seat TEXT NOT NULL,"
        " digest TEXT NOT NULL)",
    ),
    3: ("CREATE INDEX IF NOT EXISTS openings_by_seq ON openings (game, seq)",),
}


def vault_path(database: str | os.PathLike[str]) -> str:
    """The key file beside ``database``."""
    return os.fspath(database) + SUFFIX


class SQLiteVault:
    """The Vault in the key file at ``path``; ``create``: make it if it does not exist."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        create: bool = False,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    ) -> None:
        self.path = os.fspath(path)
        self.where = f"the key file {self.path}"  # how messages name it
        self._create = create
        self._file = SQLiteFile(self.path, busy_timeout_ms, what="warlog key file")
        self._busy_ms = busy_timeout_ms
        self._conn: sqlite3.Connection | None = None
        self._mac_key = b""

    def __repr__(self) -> str:
        return f"SQLiteVault({self.path!r})"

    def close(self) -> None:
        if self._conn is not None:
            with self._guard():
                self._conn.close()
            self._conn = None

    def available(self) -> bool:
        return self._conn is not None or os.path.exists(self.path)

    # ------------------------------------------------------------------ keys

    def put_key(self, commitment: str, seed: bytes, game: str) -> None:
        with self._transaction() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO keys (commitment, game, seed) VALUES (?, ?, ?)",
                (commitment, game, bytes(seed)),
            )

    def key(self, commitment: str) -> bytes | None:
        with self._guard():
            row = (
                self._connection()
                .execute("SELECT seed FROM keys WHERE commitment = ?", (commitment,))
                .fetchone()
            )
        if row is None:
            return None
        seed = row[0] if isinstance(row[0], bytes) else b""  # text where a seed is bytes
        return checked_seed(commitment, seed, self.where)

    # ------------------------------------------------------------------ openings

    def put_openings(self, openings: Sequence[Opening]) -> None:
        if not openings:
            return
        rows = [
            (o.hash, o.game, o.seq, o.clear, json.dumps(o.owners, separators=(",", ":")))
            for o in openings
        ]
        with self._transaction() as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO openings (hash, game, seq, clear, owners)"
                " VALUES (?, ?, ?, ?, ?)",
                rows,
            )

    def discard(self, commitment: str | None, hashes: Sequence[str]) -> None:
        with self._transaction() as conn:
            if commitment is not None:
                conn.execute("DELETE FROM keys WHERE commitment = ?", (commitment,))
            conn.executemany("DELETE FROM openings WHERE hash = ?", [(h,) for h in hashes])

    def opening(self, hash_: str) -> Opening | None:
        with self._guard():
            row = (
                self._connection()
                .execute(
                    "SELECT hash, game, seq, clear, owners FROM openings WHERE hash = ?", (hash_,)
                )
                .fetchone()
            )
        return None if row is None else opening_row(row, self.where)

    def clears(self, hashes: Sequence[str]) -> dict[str, str]:
        return dict(self._select("hash, clear", hashes))

    def clears_between(self, game: str, lo: int, hi: int) -> dict[str, str]:
        conn = self._connection()
        with self._guard():
            return dict(
                conn.execute(
                    "SELECT hash, clear FROM openings WHERE game = ? AND seq BETWEEN ? AND ?",
                    (game, lo, hi),
                )
            )

    def openings(self, hashes: Sequence[str]) -> dict[str, Opening]:
        where = self.where
        return {
            row[0]: opening_row(row, where)
            for row in self._select("hash, game, seq, clear, owners", hashes)
        }

    def _select(self, columns: str, hashes: Sequence[str]) -> list[tuple[Any, ...]]:
        """``columns`` of the openings of ``hashes`` that the vault holds, in a few SELECTs."""
        out: list[tuple[Any, ...]] = []
        if not hashes:
            return out
        conn = self._connection()
        with self._guard():
            for i in range(0, len(hashes), _IN_MOST):
                part = hashes[i : i + _IN_MOST]
                marks = ", ".join("?" * len(part))
                query = f"SELECT {columns} FROM openings WHERE hash IN ({marks})"
                out.extend(conn.execute(query, part))
        return out

    # ------------------------------------------------------------------ snapshots

    def put_snapshot(self, owner: str, seq: int, version: str, state: bytes) -> None:
        conn = self._connection()
        mac = snapshot_mac(self._mac_key, owner, seq, version, bytes(state))
        with self._guard():
            conn.execute(
                "INSERT OR REPLACE INTO snapshots (game, version, seq, state, mac)"
                " VALUES (?, ?, ?, ?, ?)",
                (owner, version, seq, bytes(state), mac),
            )

    def latest_snapshot(
        self, segments: Sequence[Segment], seq: int, version: str
    ) -> tuple[int, bytes] | None:
        conn = self._connection()
        with self._guard():
            for owner, lo, hi in reversed(segments):
                top = seq if hi is None else min(seq, hi)
                if top < lo:
                    continue
                rows = conn.execute(
                    "SELECT seq, state, mac FROM snapshots WHERE game = ? AND version = ?"
                    " AND seq BETWEEN ? AND ? ORDER BY seq DESC LIMIT 8",
                    (owner, version, lo, top),
                ).fetchall()
                for at, state, mac in rows:
                    if not isinstance(state, bytes) or not isinstance(mac, bytes):
                        continue  # damaged: passed over, as one whose MAC does not check
                    want = snapshot_mac(self._mac_key, owner, at, version, state)
                    if hmac.compare_digest(bytes(mac), want):
                        return at, bytes(state)
        return None

    # ------------------------------------------------------------------ seat tokens

    def put_tokens(self, tokens: Sequence[SeatToken]) -> None:
        with self._transaction() as conn:
            try:
                conn.executemany(
                    "INSERT INTO tokens (id, game, seat, digest) VALUES (?, ?, ?, ?)",
                    [(t.id, t.game, t.seat, t.digest) for t in tokens],
                )
            except sqlite3.IntegrityError:  # all or none: the transaction is rolled back
                raise ConflictError("a seat token id is taken", "store/token_taken") from None

    def token(self, id_: str) -> SeatToken | None:
        with self._guard():
            row = (
                self._connection()
                .execute("SELECT id, game, seat, digest FROM tokens WHERE id = ?", (id_,))
                .fetchone()
            )
        return None if row is None else SeatToken(*row)

    # ------------------------------------------------------------------ the file

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = self._open()
        return self._conn

    def _open(self) -> sqlite3.Connection:
        exists = os.path.exists(self.path)
        if not exists:
            if not self._create:
                raise StoreError(
                    f"no key file {self.path}: the games' keys and sealed values live there, and "
                    "only the arbiter that created them holds it (a database handed out without "
                    "it can be listed, exported and audited, and its games read where nothing is "
                    "sealed; none can be played)",
                    "store/no_key_file",
                )
            try:  # owner-only from the start: never a moment when others could read it
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, OWNER_ONLY)
                try:
                    os.fchmod(fd, OWNER_ONLY)  # exactly: a umask of 0277 would make it 0400
                finally:
                    os.close(fd)
            except FileExistsError:
                pass  # created meanwhile by another process
            except OSError as exc:
                raise StoreError(
                    f"cannot create the key file {self.path} ({exc.strerror})", "store/cantopen"
                ) from None
        self._owner_only()
        uri = f"{Path(self.path).absolute().as_uri()}?mode=rw"
        try:
            conn = sqlite3.connect(
                uri, uri=True, timeout=self._busy_ms / 1000, isolation_level=None
            )
            conn.execute("PRAGMA journal_mode=WAL")
            self._schema(conn)
        except sqlite3.Error as exc:
            raise self._file.error(exc) from exc
        return conn

    def _owner_only(self) -> None:
        """Make sure only its owner may open the key file and its -wal and -shm (the -wal holds
        the pages last written: keys). One that holds nothing yet (an empty file someone made,
        ``: > warlog.db.keys``) is taken over: made 0600 before a key is written. One that
        already holds keys and that others may open is refused, untouched (StoreError): who
        could read it may know the games' seeds and sealed values, which is the referee's to
        weigh before ``chmod 600`` lets play go on; quietly tightening it would hide that."""
        files = [self.path, f"{self.path}-wal", f"{self.path}-shm"]
        modes: dict[str, os.stat_result] = {}
        for name in files:
            with contextlib.suppress(FileNotFoundError):  # an unreadable one is SQLite's to say
                modes[name] = os.stat(name)
        loose = [name for name in files if name in modes and modes[name].st_mode & 0o077]
        if not loose:
            return
        holds = [n for n in files[:2] if n in modes and modes[n].st_size]
        if holds:
            name = loose[0]
            raise StoreError(
                f"the key file {name} may be opened by others (mode "
                f"{stat.S_IMODE(modes[name].st_mode):o}): it holds the games' secret keys, which "
                f"whoever could read it may know; make it owner-only (chmod 600 {name}) to go on",
                "store/key_file_exposed",
            )
        for name in loose:
            try:
                os.chmod(name, OWNER_ONLY)
            except OSError as exc:
                raise StoreError(
                    f"cannot make the key file {name} owner-only ({exc.strerror})",
                    "store/key_file_exposed",
                ) from None

    def _schema(self, conn: sqlite3.Connection) -> None:
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        if not names:
            with self._immediate(conn):
                if not {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}:
                    for ddl in (*_DDL, *(d for v in sorted(_MIGRATIONS) for d in _MIGRATIONS[v])):
                        conn.execute(ddl)
                    conn.executemany(
                        "INSERT INTO meta (key, value) VALUES (?, ?)",
                        [
                            ("app", VAULT_APP),
                            ("schema_version", str(VAULT_SCHEMA_VERSION)),
                            ("snapshot_mac_key", os.urandom(32).hex()),
                        ],
                    )
        meta = self._meta(conn)
        if meta.get("app") == VAULT_APP and meta.get("schema_version", "").isdigit():
            self._migrate(conn, int(meta["schema_version"]))
            meta = self._meta(conn)
        version = meta.get("schema_version", "")
        if (
            meta.get("app") == VAULT_APP
            and version.isdigit()
            and int(version) > VAULT_SCHEMA_VERSION
        ):
            raise StoreError(
                f"{self.path} is a key file of schema version {version}; this warlog reads "
                f"version {VAULT_SCHEMA_VERSION}; upgrade warlog",
                "store/schema_version",
            )
        if meta.get("app") != VAULT_APP or version != str(VAULT_SCHEMA_VERSION):
            raise StoreError(f"{self.path} is not a warlog key file", "store/not_warlog")
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        missing = sorted(set(_TABLES) - names)
        if missing:
            raise StoreError(
                f"{self.where} is damaged: it has no table {missing[0]}; restore it from a backup",
                "store/corrupt",
            )
        self._mac_key = mac_key(meta, self.where)

    @staticmethod
    def _meta(conn: sqlite3.Connection) -> dict[str, str]:
        try:
            return dict(conn.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.OperationalError:
            return {}

    def _migrate(self, conn: sqlite3.Connection, version: int) -> None:
        """Bring a key file of an older schema ``version`` to the current one (each step in its
        own transaction, rechecked inside it: another process may have migrated meanwhile)."""
        for target in range(version + 1, VAULT_SCHEMA_VERSION + 1):
            with self._immediate(conn):
                if self._meta(conn).get("schema_version") != str(target - 1):
                    continue
                for ddl in _MIGRATIONS[target]:
                    conn.execute(ddl)
                conn.execute(
                    "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(target),)
                )

    @staticmethod
    @contextlib.contextmanager
    def _immediate(conn: sqlite3.Connection) -> Iterator[None]:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            conn.execute("COMMIT")
        except BaseException:
            rollback(conn)
            raise

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            raise self._file.error(exc) from exc

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self._connection()
        with self._guard(), self._immediate(conn):
            yield conn
