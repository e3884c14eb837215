"""The vault of a PostgreSQL log: tables of their own beside the events, never in them.

Schema (``VAULT_SCHEMA``, version 2, ``app = warlog-keys``): ``vault_meta(key, value)`` (with
the MAC key of snapshots), ``vault_keys(commitment PRIMARY KEY, game, seed)``,
``vault_openings(hash PRIMARY KEY, game, seq, clear, owners)`` with the index
``vault_openings_by_seq(game, seq)`` (version 2: a fold reads the openings of a stretch of a
game's log as one range), ``vault_snapshots(game,
version, seq, state, mac)``, ``vault_tokens(id PRIMARY KEY, game, seat, digest)``: the key
file's tables, under names that say what they are. The SQLite key file is a file apart so that
the database can be handed out; here the same split is made with privileges: a role that may
read ``games`` and ``events`` and not the ``vault_`` tables sees what a player may see
(docs/scaling.md).

The vault connects on first use (its own connection), so that what needs no secret works
with a role that cannot read it.

Keys, openings and snapshots are committed without waiting for their WAL to reach the disk
(``synchronous_commit = off`` for their transactions): the arbiter writes them *before* the
events they serve, and the commit of those events, which does wait, flushes the write-ahead log
up to itself, so everything written before it too. A crash can lose only what no committed
event needs yet. Seat tokens are handed to players as soon as they are stored: they wait.
"""

from __future__ import annotations

import hmac
import json
import os
from collections.abc import Sequence
from typing import Any

from warlog.domain.core.errors import ConflictError, StoreError
from warlog.eventstore.lineage import Segment
from warlog.eventstore.postgres_database import PostgresDatabase, Schema, psycopg_module
from warlog.eventstore.vault import (
    Opening,
    SeatToken,
    checked_seed,
    mac_key,
    opening_row,
    snapshot_mac,
)

VAULT_SCHEMA = Schema(
    "warlog-keys",
    "vault_meta",
    {
        1: (
            "CREATE TABLE vault_meta (key text PRIMARY KEY, value text NOT NULL)",
            "CREATE TABLE vault_keys (commitment text PRIMARY KEY, game text NOT NULL,"
            " seed bytea NOT NULL)",
            "CREATE TABLE vault_openings (hash text PRIMARY KEY, game text NOT NULL,"
            " seq bigint NOT NULL, clear text NOT NULL, owners text NOT NULL)",
            "CREATE TABLE vault_snapshots (game text NOT NULL, version text NOT NULL,"
            " seq bigint NOT NULL, state bytea NOT NULL, mac bytea NOT NULL,"
            " PRIMARY KEY (game, version, seq))",
            "CREATE TABLE vault_tokens (id text PRIMARY KEY, game text NOT NULL,"
            " seat text NOT NULL, digest text NOT NULL)",
        ),
        2: ("CREATE INDEX IF NOT EXISTS vault_openings_by_seq ON vault_openings (game, seq)",),
    },
    first_rows=lambda: {"snapshot_mac_key": os.urandom(32).hex()},
    missing="{name} holds no warlog vault (the games' keys and sealed values): only the "
    "arbiter that created its games can play or fold them",
)


class PostgresVault:
    """The Vault in the ``vault_`` tables of the database at ``dsn``; ``create``: make them
    if they do not exist."""

    def __init__(self, dsn: str, *, create: bool = False) -> None:
        self._db = PostgresDatabase(dsn, VAULT_SCHEMA)
        self.path = self._db.name
        self.where = f"the vault of {self.path}"  # how messages name it
        self._create = create
        self._conn: Any = None
        self._mac_key = b""

    def __repr__(self) -> str:
        return f"PostgresVault({self.path!r})"

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def available(self) -> bool:
        try:
            self._connection()
        except StoreError:
            return False
        return True

    # ------------------------------------------------------------------ keys

    def put_key(self, commitment: str, seed: bytes, game: str) -> None:
        self._before_the_events(
            "INSERT INTO vault_keys (commitment, game, seed) VALUES (%s, %s, %s)"
            " ON CONFLICT (commitment) DO NOTHING",
            [(commitment, game, bytes(seed))],
        )

    def key(self, commitment: str) -> bytes | None:
        row = self._one("SELECT seed FROM vault_keys WHERE commitment = %s", (commitment,))
        return checked_seed(commitment, None if row is None else bytes(row[0]), self.where)

    # ------------------------------------------------------------------ openings

    def put_openings(self, openings: Sequence[Opening]) -> None:
        if not openings:
            return
        rows = [
            (o.hash, o.game, o.seq, o.clear, json.dumps(o.owners, separators=(",", ":")))
            for o in openings
        ]
        self._before_the_events(
            "INSERT INTO vault_openings (hash, game, seq, clear, owners)"
            " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (hash) DO UPDATE SET"
            " game = excluded.game, seq = excluded.seq, clear = excluded.clear,"
            " owners = excluded.owners",
            rows,
        )

    def discard(self, commitment: str | None, hashes: Sequence[str]) -> None:
        if commitment is not None:
            self._before_the_events("DELETE FROM vault_keys WHERE commitment = %s", [(commitment,)])
        if hashes:
            self._before_the_events(
                "DELETE FROM vault_openings WHERE hash = %s", [(h,) for h in hashes]
            )

    def opening(self, hash_: str) -> Opening | None:
        row = self._one(
            "SELECT hash, game, seq, clear, owners FROM vault_openings WHERE hash = %s", (hash_,)
        )
        return None if row is None else opening_row(row, self.where)

    def clears(self, hashes: Sequence[str]) -> dict[str, str]:
        return dict(self._select("hash, clear", hashes))

    def clears_between(self, game: str, lo: int, hi: int) -> dict[str, str]:
        conn = self._connection()
        with self._db.guard():
            rows = conn.execute(
                "SELECT hash, clear FROM vault_openings WHERE game = %s AND seq BETWEEN %s AND %s",
                (game, lo, hi),
            ).fetchall()
        return dict(rows)

    def openings(self, hashes: Sequence[str]) -> dict[str, Opening]:
        return {
            row[0]: opening_row(row, self.where)
            for row in self._select("hash, game, seq, clear, owners", hashes)
        }

    def _select(self, columns: str, hashes: Sequence[str]) -> list[tuple[Any, ...]]:
        """``columns`` of the openings of ``hashes`` that the vault holds, in one SELECT."""
        if not hashes:
            return []
        conn = self._connection()
        with self._db.guard():
            return conn.execute(
                f"SELECT {columns} FROM vault_openings WHERE hash = ANY(%s::text[])",
                (list(hashes),),
            ).fetchall()

    # ------------------------------------------------------------------ snapshots

    def put_snapshot(self, owner: str, seq: int, version: str, state: bytes) -> None:
        self._connection()  # the MAC key is read with the schema
        mac = snapshot_mac(self._mac_key, owner, seq, version, bytes(state))
        self._before_the_events(  # a cache: losing one in a crash costs a longer fold
            "INSERT INTO vault_snapshots (game, version, seq, state, mac)"
            " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (game, version, seq) DO UPDATE SET"
            " state = excluded.state, mac = excluded.mac",
            [(owner, version, seq, bytes(state), mac)],
        )

    def latest_snapshot(
        self, segments: Sequence[Segment], seq: int, version: str
    ) -> tuple[int, bytes] | None:
        conn = self._connection()
        with self._db.guard():
            for owner, lo, hi in reversed(segments):
                top = seq if hi is None else min(seq, hi)
                if top < lo:
                    continue
                rows = conn.execute(
                    "SELECT seq, state, mac FROM vault_snapshots WHERE game = %s"
                    " AND version = %s AND seq BETWEEN %s AND %s ORDER BY seq DESC LIMIT 8",
                    (owner, version, lo, top),
                ).fetchall()
                for at, state, mac in rows:
                    want = snapshot_mac(self._mac_key, owner, at, version, bytes(state))
                    if hmac.compare_digest(bytes(mac), want):
                        return int(at), bytes(state)
        return None

    # ------------------------------------------------------------------ seat tokens

    def put_tokens(self, tokens: Sequence[SeatToken]) -> None:
        conn = self._connection()
        psycopg = psycopg_module()
        try:
            with conn.transaction():  # all or none
                conn.cursor().executemany(
                    "INSERT INTO vault_tokens (id, game, seat, digest) VALUES (%s, %s, %s, %s)",
                    [(t.id, t.game, t.seat, t.digest) for t in tokens],
                )
        except psycopg.errors.UniqueViolation:
            raise ConflictError("a seat token id is taken", "store/token_taken") from None
        except psycopg.Error as exc:
            raise self._db.error(exc) from None

    def token(self, id_: str) -> SeatToken | None:
        row = self._one("SELECT id, game, seat, digest FROM vault_tokens WHERE id = %s", (id_,))
        return None if row is None else SeatToken(*row)

    # ------------------------------------------------------------------ the connection

    def _connection(self) -> Any:
        if self._conn is None or self._conn.closed or self._conn.broken:
            try:
                conn = self._db.connect(create=self._create)
            except StoreError as exc:
                raise self._not_held(exc) from None
            try:
                with self._db.guard():
                    meta = self._db.meta(conn) or {}
                self._mac_key = mac_key(meta, self.where)
            except BaseException:
                conn.close()
                raise
            self._conn = conn
        return self._conn

    def _not_held(self, exc: StoreError) -> StoreError:
        """A database without a vault this role may read is a database handed out without its
        key file (``store/no_key_file``): listed, exported and audited, and its games read where
        nothing is sealed, not played; any other failure is itself."""
        if exc.code == "store/missing":
            why = "holds no warlog vault"
        elif exc.code == "store/unreadable":  # permission denied: a players' role
            why = "has a vault this role may not read (permission denied on the vault_ tables)"
        else:
            return exc
        return StoreError(
            f"{self.path} {why}: the games' keys and sealed values live there, and only the "
            "arbiter's role reads them (a role granted meta, games and events can list, export "
            "and audit the games, and read them where nothing is sealed, not play them)",
            "store/no_key_file",
        )

    def _before_the_events(self, query: str, rows: list[tuple[Any, ...]]) -> None:
        """``query`` for each of ``rows`` in one transaction that does not wait for the disk
        (see the module's docstring for why that is safe)."""
        conn = self._connection()
        with self._db.guard(), conn.pipeline(), conn.transaction():  # one round trip
            conn.execute("SET LOCAL synchronous_commit TO off")
            conn.cursor().executemany(query, rows)

    def _one(self, query: str, params: tuple[Any, ...]) -> Any:
        conn = self._connection()
        with self._db.guard():
            return conn.execute(query, params).fetchone()
