"""The PostgreSQL log: the store contract in one PostgreSQL database that several arbiter
processes, on several machines, share.

Schema (``EVENTS_SCHEMA``, version 1; created and upgraded by the store itself), the same rows
as the SQLite store's:

- ``meta(key PRIMARY KEY, value)``: ``app = warlog``, ``schema_version``.
- ``games(game PRIMARY KEY, ruleset, parent REFERENCES games, fork_at)``: the catalogue.
- ``events(game, seq, type, data, at, prev, hash, PRIMARY KEY (game, seq))``: a game's *own*
  events (a fork's 1..fork_at are read through its parent, never copied); ``data`` is ``text``,
  never ``jsonb``, so that it keeps the exact bytes the chain hashes. The primary key is the
  optimistic-concurrency check between processes: two appends deciding on one head both insert
  the same ``(game, seq)``, and the second waits for the first and fails (ConflictError, exit 5;
  the server's 409), nothing appended.

Nothing secret is in these tables: keys, openings, snapshots and seat tokens are in the vault's
own tables (``postgres_vault.py``). Every batch committed is announced on the channel
``warlog:<schema>`` (``pg_notify`` in the same transaction, so only at commit) with the payload
``[origin, game, first, last]``: ``follow`` turns those of other processes into calls, which is
how a server's live feeds learn of events another server appended.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Callable, Iterator, Sequence
from itertools import starmap
from typing import Any

from warlog.domain.core.errors import InputError, StoreError, WarlogError
from warlog.eventstore.chain import GENESIS
from warlog.eventstore.lineage import (
    Segment,
    bad_from_seq,
    catalogue_row,
    chain_records,
    check_fork_at,
    check_info,
    conflict,
    empty_batch,
    first_missing,
    game_exists,
    lineage,
    missing_event,
    owner_of,
    parent_head,
    read_parts,
    unknown_game,
)
from warlog.eventstore.postgres_database import PostgresDatabase, Schema, psycopg_module
from warlog.eventstore.postgres_follow import Follower
from warlog.eventstore.records import GameInfo, Pending, Record
from warlog.eventstore.store import Closing

EVENTS_SCHEMA = Schema(
    "warlog",
    "meta",
    {
        1: (
            "CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL)",
            "CREATE TABLE games (game text PRIMARY KEY, ruleset text NOT NULL,"
            " parent text REFERENCES games (game), fork_at bigint)",
            "CREATE TABLE events (game text NOT NULL, seq bigint NOT NULL, type text NOT NULL,"
            " data text NOT NULL, at text NOT NULL, prev text NOT NULL, hash text NOT NULL,"
            " PRIMARY KEY (game, seq))",
        ),
    },
)

#: rows read per query while streaming a long stretch of one game
CHUNK = 10_000

_HEAD = "SELECT seq, hash FROM events WHERE game = %s ORDER BY seq DESC LIMIT 1"
_READ = (
    "SELECT seq, type, data, at, prev, hash FROM events"
    " WHERE game = %s AND seq BETWEEN %s AND %s ORDER BY seq"
)
_READ_ROWS = "SELECT seq, type, data, hash FROM events WHERE game = %s AND seq BETWEEN %s AND %s ORDER BY seq"
#: ``_READ_ROWS`` leaving out the rows of the types given, except the row whose seq is given (the
#: last of the whole read: a fold ends on its seq and hash)
_READ_ROWS_SKIP = (
    "SELECT seq, type, data, hash FROM events WHERE game = %s AND seq BETWEEN %s AND %s"
    " AND (type <> ALL(%s::text[]) OR seq = %s) ORDER BY seq"
)
#: the rows of a read's part, counted on the primary key: a read that leaves rows out checks
#: that none is missing (a deleted row would go unseen in the rows it does not fetch)
_COUNT = "SELECT count(*) FROM events WHERE game = %s AND seq BETWEEN %s AND %s"
_SEQS = "SELECT seq FROM events WHERE game = %s AND seq BETWEEN %s AND %s ORDER BY seq"
#: a batch's rows and its announcement in one statement (a data-modifying WITH always runs)
_APPEND = (
    "WITH appended AS (INSERT INTO events (game, seq, type, data, at, prev, hash)"
    " SELECT %s, * FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::text[], %s::text[],"
    " %s::text[])) SELECT pg_notify(%s, %s)"
)
_INFO = "SELECT game, ruleset, parent, fork_at FROM games"
#: each game's first own row, looked up by the primary key game by game (the LIMIT keeps the
#: planner from joining the whole of ``events`` to the catalogue)
_FIRST_ROWS = (
    "SELECT g.game, e.seq, e.type, e.data FROM games AS g CROSS JOIN LATERAL (SELECT seq, type,"
    " data FROM events WHERE game = g.game AND seq = coalesce(g.fork_at, 0) + 1 LIMIT 1) AS e"
)


class PostgresStore(Closing):
    """A ``Store`` in the PostgreSQL database at ``dsn`` (a ``postgresql://`` URI).

    ``create``: make the schema if the database has none yet (an older one is always
    upgraded). StoreError (exit 1) if the server or the database cannot be used.
    """

    def __init__(self, dsn: str, *, create: bool = False) -> None:
        self.dsn = dsn
        self._db = PostgresDatabase(dsn, EVENTS_SCHEMA)
        self.path = self._db.name  # what messages call it (no password)
        #: this store's mark on its notifications: its own are not announced back to it
        self.origin = secrets.token_hex(8)
        self._infos: dict[str, GameInfo] = {}  # catalogue rows never change once written
        self._lineages: dict[str, list[Segment]] = {}
        #: per game, an event this store has seen, ``(seq, hash)``: the head it last knew
        self._seen: dict[str, tuple[int, str]] = {}
        self._follower: Follower | None = None
        self._conn = self._db.connect(create=create)
        with self._db.guard():
            row = self._conn.execute("SELECT current_schema()").fetchone()
        self.channel = f"warlog:{row[0] if row else 'public'}"

    def __repr__(self) -> str:
        return f"PostgresStore({self.path!r})"

    def close(self) -> None:
        if self._follower is not None:
            self._follower.close()
            self._follower = None
        with contextlib.suppress(Exception):
            self._conn.close()

    # ------------------------------------------------------------------ the log

    def create_game(self, info: GameInfo, first: Sequence[Pending]) -> list[Record]:
        """Register ``info.game`` and append ``first`` after GENESIS or the fork point, in one
        transaction; a fork writes one catalogue row, whatever its fork point.

        ConflictError (code ``store/game_exists``) if the game exists, even if another process
        creates it at the same moment; UnknownGame for an unknown parent; InputError for an
        empty ``first``, a bad event or a fork point outside 1..head.
        """
        check_info(info)
        if not first:
            raise empty_batch(info.game)
        errors = psycopg_module().errors
        try:
            with self._transaction() as conn:
                if conn.execute("SELECT 1 FROM games WHERE game = %s", (info.game,)).fetchone():
                    raise game_exists(info.game)
                start, prev = 0, GENESIS
                if info.parent is not None and info.fork_at is not None:
                    check_fork_at(info, parent_head(info, self._head))
                    start, prev = info.fork_at, self._hash_at(info.parent, info.fork_at)
                records = chain_records(info.game, first, start, prev)
                conn.execute(
                    "INSERT INTO games (game, ruleset, parent, fork_at) VALUES (%s, %s, %s, %s)",
                    (info.game, info.ruleset, info.parent, info.fork_at),
                )
                conn.execute(_APPEND, self._append_params(info.game, records))
        except errors.UniqueViolation:  # created meanwhile by another process
            raise game_exists(info.game) from None
        self._seen[info.game] = (records[-1].seq, records[-1].hash)
        return records

    def append(self, game: str, batch: Sequence[Pending], expected_seq: int) -> list[Record]:
        """Append ``batch`` after ``expected_seq`` atomically; the new records. When the store
        has seen event ``expected_seq`` (the Arbiter reads the head before it decides), that is
        one statement, one round trip; otherwise a transaction reads the head first.

        ConflictError (nothing appended) if the head is elsewhere or a racing writer took the
        same seq; UnknownGame; InputError for an empty batch or a bad event; StoreError.
        """
        if not batch:
            raise empty_batch(game)
        errors = psycopg_module().errors
        known = self._seen.get(game)
        try:
            if known is not None and known[0] == expected_seq:
                # event ``expected_seq`` exists with that hash (rows never change): chain on
                # it and insert in one statement; if the head has moved past it, the primary
                # key refuses the first row, and the statement appends nothing
                records = chain_records(game, batch, *known)
                with self._guard():
                    self._connection().execute(_APPEND, self._append_params(game, records))
            else:
                with self._transaction() as conn:
                    row = conn.execute(_HEAD, (game,)).fetchone()
                    if row is None:
                        raise unknown_game(game)
                    if row[0] != expected_seq:
                        raise conflict(game, row[0], expected_seq)
                    records = chain_records(game, batch, row[0], row[1])
                    conn.execute(_APPEND, self._append_params(game, records))
        except errors.UniqueViolation:  # another process appended the same seq first
            raise conflict(game, self._head_or(game, expected_seq + 1), expected_seq) from None
        self._seen[game] = (records[-1].seq, records[-1].hash)
        return records

    def read(self, game: str, from_seq: int = 1, to_seq: int | None = None) -> Iterator[Record]:
        """The records ``from_seq``..``to_seq``, streamed in seq order along the lineage (a
        query per segment and per ``CHUNK`` rows, none held open between them) and clamped to
        the head at the time of the call.

        UnknownGame and InputError (from_seq < 1) are raised here, StoreError also while
        iterating.
        """
        return self._stream(self._plan(game, from_seq, to_seq), _READ, Record)

    def read_rows(
        self,
        game: str,
        from_seq: int = 1,
        to_seq: int | None = None,
        *,
        skip: frozenset[str] = frozenset(),
    ) -> Iterator[tuple[int, str, str, str]]:
        """``(seq, type, data, hash)`` of the records ``read`` yields, as plain tuples; those
        whose type is in ``skip`` are left out by the SELECT, except the last of the range.
        Leaving rows out, it first counts each part's rows: StoreError (``store/corrupt``)
        naming the first event the database has no row for."""
        parts = self._plan(game, from_seq, to_seq)
        if not skip or not parts:
            return self._stream(parts, _READ_ROWS, None)
        self._check_whole(game, parts)
        last = parts[-1][2]  # every row of the range is there: its last seq is its last row
        return self._stream(parts, _READ_ROWS_SKIP, None, (sorted(skip), last))

    def _check_whole(self, game: str, parts: list[tuple[str, int, int]]) -> None:
        """StoreError (``store/corrupt``) naming the first event of ``parts`` that has no row.
        Its own statements, as the rows' chunks are: a part's range lies at or below the head
        it was planned on, and warlog neither deletes nor rewrites a row and appends only above
        the head, so the count and the SELECTs after it see the same rows of the range."""
        with self._guard():
            conn = self._connection()
            for owner, lo, hi in parts:
                row = conn.execute(_COUNT, (owner, lo, hi)).fetchone()
                if row is None or row[0] != hi - lo + 1:
                    seqs = (int(found[0]) for found in conn.execute(_SEQS, (owner, lo, hi)))
                    raise missing_event(game, first_missing(seqs, lo))

    def head(self, game: str) -> tuple[int, str]:
        """``(seq, hash)`` of the game's last event. UnknownGame."""
        with self._guard():
            return self._head(game)

    def info(self, game: str) -> GameInfo:
        """The catalogue row. UnknownGame."""
        with self._guard():
            return self._info(game)

    def games(self) -> list[GameInfo]:
        """Every game, sorted by id (code point order, as the other stores), with its lineage."""
        with self._guard():
            rows = self._connection().execute(f'{_INFO} ORDER BY game COLLATE "C"').fetchall()
        return [catalogue_row(row, self.path) for row in rows]

    def first_rows(self) -> dict[str, tuple[int, str, str]]:
        """``game -> (seq, type, data)`` of the first event each game stores itself, in one
        SELECT."""
        with self._guard():
            rows = self._connection().execute(_FIRST_ROWS).fetchall()
        return {game: (int(seq), type_, data) for game, seq, type_, data in rows}

    def lineage(self, game: str) -> list[Segment]:
        """The segments holding the game's events, oldest first (``lineage.lineage``)."""
        with self._guard():
            return list(self._segments(game))

    # ------------------------------------------------------------------ other processes

    def follow(
        self, on_append: Callable[[str, int, int], None], on_gap: Callable[[], None]
    ) -> None:
        """From now until ``close``: ``on_append(game, first, last)`` for every batch another
        process (another store) commits to this database, soon after its commit, and
        ``on_gap()`` whenever some may have been missed (the listening connection was lost and
        is back). Both are called on a thread of the store's own and must not raise."""
        if self._follower is None:
            self._follower = Follower(self.dsn, self.channel, self.origin, on_append, on_gap)

    # ------------------------------------------------------------------ inside

    def _connection(self) -> Any:
        """The connection, made again if the last one was lost (the server restarted)."""
        if self._conn.closed or self._conn.broken:
            self._conn = self._db.connect(create=False)
        return self._conn

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn a psycopg failure inside into the database's one-line StoreError."""
        psycopg = psycopg_module()
        try:
            yield
        except psycopg.errors.UniqueViolation:
            raise
        except psycopg.DataError as exc:  # text PostgreSQL cannot hold (a NUL character)
            raise InputError(
                f"{' '.join(str(exc).split())}; nothing appended", "input/bad_event"
            ) from None
        except psycopg.Error as exc:
            raise self._db.error(exc) from None

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Any]:
        """One transaction; rolled back on any error, which propagates (a psycopg one as its
        StoreError or InputError, but a UniqueViolation as itself: the caller words it)."""
        conn = self._connection()
        # pipelined: BEGIN rides with the first query, the inserts, the announcement and COMMIT
        # go in one round trip
        with self._guard(), conn.pipeline(), conn.transaction():
            yield conn

    def _append_params(self, game: str, records: list[Record]) -> tuple[Any, ...]:
        """``_APPEND``'s parameters: the rows of ``records`` as columns, and the announcement
        of their batch."""
        payload = json.dumps([self.origin, game, records[0].seq, records[-1].seq])
        return (
            game,
            [r.seq for r in records],
            [r.type for r in records],
            [r.data for r in records],
            [r.at for r in records],
            [r.prev for r in records],
            [r.hash for r in records],
            self.channel,
            payload,
        )

    def _plan(self, game: str, from_seq: int, to_seq: int | None) -> list[tuple[str, int, int]]:
        """``(owner, lo, hi)`` for each lineage segment the read covers; UnknownGame,
        InputError (from_seq < 1)."""
        if from_seq < 1:
            raise bad_from_seq(game, from_seq)
        with self._guard():
            segments = self._segments(game)
            # clamped to the head of now, a stated end too: events appended after the call
            # are not the read's, whichever store holds the game
            head = self._head(game)[0]
            hi = head if to_seq is None else min(to_seq, head)
        return read_parts(segments, from_seq, hi)

    def _head(self, game: str) -> tuple[int, str]:
        row = self._connection().execute(_HEAD, (game,)).fetchone()
        if row is None:  # every game has at least one event of its own
            raise unknown_game(game)
        head = self._seen[game] = (int(row[0]), str(row[1]))
        return head

    def _head_or(self, game: str, default: int) -> int:
        try:
            return self.head(game)[0]
        except WarlogError:
            return default

    def _info(self, game: str) -> GameInfo:
        info = self._infos.get(game)
        if info is None:
            row = self._connection().execute(f"{_INFO} WHERE game = %s", (game,)).fetchone()
            if row is None:
                raise unknown_game(game)
            info = self._infos[game] = catalogue_row(row, self.path)
        return info

    def _segments(self, game: str) -> list[Segment]:
        segments = self._lineages.get(game)
        if segments is None:
            segments = self._lineages[game] = lineage(game, self._info, self._head, self.path)
        return segments

    def _hash_at(self, game: str, seq: int) -> str:
        owner = owner_of(self._segments(game), seq)
        row = (
            self._connection()
            .execute("SELECT hash FROM events WHERE game = %s AND seq = %s", (owner, seq))
            .fetchone()
        )
        if row is None:
            raise StoreError(
                f"{self.path}: game {owner} has no event {seq} (the log has a gap)", "store/corrupt"
            )
        return str(row[0])

    def _stream(
        self, parts: list[tuple[str, int, int]], query: str, row: Any, more: tuple[Any, ...] = ()
    ) -> Iterator[Any]:
        """The rows of ``query`` over each part, ``CHUNK`` at a time, made into ``row`` (None:
        plain tuples); ``more``: the query's parameters after ``(owner, lo, hi)``."""
        for owner, lo, hi in parts:
            while lo <= hi:
                top = min(hi, lo + CHUNK - 1)
                with self._guard():
                    rows = self._connection().execute(query, (owner, lo, top, *more)).fetchall()
                yield from (rows if row is None else starmap(row, rows))
                lo = top + 1
