"""The SQLite log: one WAL-mode file holding the events and the game catalogue.

Schema (version 2, see ``sqlite_file.SCHEMA_VERSION``; created with sqlite-utils except ``events``):

- ``meta(key PRIMARY KEY, value)``: ``app = warlog``, ``schema_version = 2``.
- ``games(game PRIMARY KEY, ruleset, parent REFERENCES games, fork_at)``: the catalogue.
- ``events(game, seq, type, data, at, prev, hash, PRIMARY KEY (game, seq)) WITHOUT ROWID``: a
  game's *own* events; a fork's 1..fork_at are read through its parent, never copied. The
  primary key is the last guard of the optimistic-concurrency check.
Nothing secret is in this file: seeds, the clear form of sealed values and snapshots (which hold
hidden state) are in the key file beside it (``sqlite_vault.py``), so the database itself can be
handed to every player.
- view ``event_fields``: every game's events along its lineage with the JSON fields a referee
  asks about (``player``, ``command``), e.g. ``sqlite-utils warlog.db "select * from
  event_fields where game = 'ae-1' and command = 'move_army'"``.

Opening the file, the schema and the one-line StoreError (exit 1) for every failure of the file
are ``sqlite_file.SQLiteFile``'s; no ``sqlite3.Error`` leaves this module.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator, Sequence
from itertools import starmap
from typing import Any

from warlog.domain.core.errors import StoreError, UnknownGame, WarlogError
from warlog.eventstore.chain import GENESIS, link
from warlog.eventstore.lineage import (
    Segment,
    bad_event,
    bad_from_seq,
    catalogue_row,
    check_fork_at,
    check_info,
    conflict,
    empty_batch,
    first_missing,
    game_exists,
    head_row,
    lineage,
    missing_event,
    owner_of,
    parent_head,
    read_parts,
    unknown_game,
)
from warlog.eventstore.records import GameInfo, Pending, Record
from warlog.eventstore.sqlite_file import (
    BUSY_TIMEOUT_MS,
    CONSTRAINT_PRIMARYKEY,
    SQLiteFile,
    rollback,
)
from warlog.eventstore.store import Closing

_HEAD = "SELECT seq, hash FROM events WHERE game = ? ORDER BY seq DESC LIMIT 1"
_READ = (
    "SELECT seq, type, data, at, prev, hash FROM events"
    " WHERE game = ? AND seq BETWEEN ? AND ? ORDER BY seq"
)
_READ_ROWS = (
    "SELECT seq, type, data, hash FROM events WHERE game = ? AND seq BETWEEN ? AND ? ORDER BY seq"
)
#: ``_READ_ROWS`` leaving out the rows of the types ``{kinds}`` (``:k0, :k1, ...``), except the
#: row at ``:last``: for the read's last segment its ``:hi`` (a fold ends on its seq and hash);
#: -1 for the others. ``:last`` is a value: as a subquery in the condition it cost a third of
#: the SELECT
_READ_ROWS_SKIP = (
    "SELECT seq, type, data, hash FROM events WHERE game = :game AND seq BETWEEN :lo AND :hi"
    " AND (type NOT IN ({kinds}) OR seq = :last) ORDER BY seq"
)
#: the rows of a read's part, counted on the primary key: a read that leaves rows out checks
#: that none is missing (a deleted row would go unseen in the rows it does not fetch)
_COUNT = "SELECT count(*) FROM events WHERE game = ? AND seq BETWEEN ? AND ?"
_SEQS = "SELECT seq FROM events WHERE game = ? AND seq BETWEEN ? AND ? ORDER BY seq"
#: each game's first own row: ``CROSS JOIN`` keeps the catalogue the outer loop, so that each
#: row is one look-up of the primary key, never a scan of ``events``
_FIRST_ROWS = (
    "SELECT g.game, e.seq, e.type, e.data FROM games AS g CROSS JOIN events AS e"
    " ON e.game = g.game AND e.seq = coalesce(g.fork_at, 0) + 1"
)
_INSERT = "INSERT INTO events (game, seq, type, data, at, prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?)"
_INSERT_GAME = "INSERT INTO games (game, ruleset, parent, fork_at) VALUES (?, ?, ?, ?)"


class SQLiteStore(Closing):
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
        self._file = SQLiteFile(self.path, busy_timeout_ms)
        self._infos: dict[str, GameInfo] = {}  # catalogue rows never change once written
        self._lineages: dict[str, list[Segment]] = {}
        self._conn = self._file.open(create)

    def __repr__(self) -> str:
        return f"SQLiteStore({self.path!r})"

    def close(self) -> None:
        with self._guard():
            self._conn.close()

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
            if exc.sqlite_errorcode == CONSTRAINT_PRIMARYKEY:  # created meanwhile elsewhere
                raise game_exists(info.game) from exc
            raise self._file.error(exc) from exc
        except sqlite3.Error as exc:
            raise self._file.error(exc) from exc
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
                seq, hash_ = head_row(row, game, self.path)
                if seq != expected_seq:
                    raise conflict(game, seq, expected_seq)
                records, rows = _link(game, batch, seq, hash_)
                conn.executemany(_INSERT, rows)
        except sqlite3.IntegrityError as exc:
            raise self._lost_race(game, expected_seq, exc) from exc
        except sqlite3.Error as exc:
            raise self._file.error(exc) from exc
        return records

    def read(self, game: str, from_seq: int = 1, to_seq: int | None = None) -> Iterator[Record]:
        """The records ``from_seq``..``to_seq``, streamed in seq order along the lineage (one
        SELECT per segment) and clamped to the head at the time of the call.

        UnknownGame and InputError (from_seq < 1) are raised here, StoreError also while
        iterating.
        """
        return self._stream([(_READ, part) for part in self._plan(game, from_seq, to_seq)], Record)

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
            return self._stream([(_READ_ROWS, part) for part in parts], None)
        self._check_whole(game, parts)
        last = parts[-1][2]  # every row of the range is there: its last seq is its last row
        kinds = {f"k{i}": kind for i, kind in enumerate(sorted(skip))}
        query = _READ_ROWS_SKIP.format(kinds=", ".join(f":{k}" for k in kinds))
        selects = [
            (
                query,
                {
                    "game": o,
                    "lo": lo,
                    "hi": hi,
                    "last": -1 if i < len(parts) - 1 else last,
                    **kinds,
                },
            )
            for i, (o, lo, hi) in enumerate(parts)
        ]
        return self._stream(selects, None)

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

    def _check_whole(self, game: str, parts: list[tuple[str, int, int]]) -> None:
        """StoreError (``store/corrupt``) naming the first event of ``parts`` that has no row.
        Its own statements, not the rows': a part's range lies at or below the head it was
        planned on, and warlog neither deletes nor rewrites a row and appends only above the
        head, so the count and the SELECT after it see the same rows of the range."""
        with self._guard():
            for owner, lo, hi in parts:
                if self._conn.execute(_COUNT, (owner, lo, hi)).fetchone()[0] != hi - lo + 1:
                    seqs = (row[0] for row in self._conn.execute(_SEQS, (owner, lo, hi)))
                    raise missing_event(game, first_missing(seqs, lo))

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
        return [catalogue_row(row, self.path) for row in rows]

    def first_rows(self) -> dict[str, tuple[int, str, str]]:
        """``game -> (seq, type, data)`` of the first event each game stores itself, in one
        SELECT."""
        with self._guard():
            rows = self._conn.execute(_FIRST_ROWS).fetchall()
        return {game: (seq, type_, data) for game, seq, type_, data in rows}

    def lineage(self, game: str) -> list[Segment]:
        """The segments holding the game's events, oldest first (``lineage.lineage``)."""
        with self._guard():
            return list(self._segments(game))

    # ------------------------------------------------------------------ inside: rows

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn any SQLite failure inside into this file's one-line StoreError."""
        try:
            yield
        except sqlite3.Error as exc:
            raise self._file.error(exc) from exc

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
            rollback(conn)
            raise

    def _head(self, game: str) -> tuple[int, str]:
        row = self._conn.execute(_HEAD, (game,)).fetchone()
        if row is None:  # every game has at least one event of its own
            raise unknown_game(game)
        return head_row(row, game, self.path)

    def _info(self, game: str) -> GameInfo:
        info = self._infos.get(game)
        if info is None:
            row = self._conn.execute(
                "SELECT game, ruleset, parent, fork_at FROM games WHERE game = ?", (game,)
            ).fetchone()
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
        row = self._conn.execute(
            "SELECT hash FROM events WHERE game = ? AND seq = ?", (owner, seq)
        ).fetchone()
        if row is None:
            raise StoreError(
                f"{self.path}: game {owner} has no event {seq} (the log has a gap)", "store/corrupt"
            )
        return str(row[0])

    def _stream(self, selects: Sequence[tuple[str, Any]], row: Any) -> Iterator[Any]:
        """The rows of each ``(query, parameters)`` in turn, made into ``row`` (None: plain
        tuples)."""
        conn = self._conn
        try:
            for query, parameters in selects:
                cursor = conn.execute(query, parameters)
                # rows through ``fetchone``, not the cursor itself: a read left unfinished is
                # closed when it is collected, and ``yield from`` closes the iterator it reads,
                # which for a cursor whose connection is closed meanwhile (a command's error
                # ends it) raises a second error on stderr, after the command's one line
                rows = iter(cursor.fetchone, None)
                try:
                    yield from (rows if row is None else starmap(row, rows))
                finally:
                    with contextlib.suppress(sqlite3.Error):  # a read left unfinished at exit
                        cursor.close()
        except sqlite3.Error as exc:
            raise self._file.error(exc) from exc

    def _lost_race(self, game: str, expected_seq: int, exc: sqlite3.IntegrityError) -> WarlogError:
        """A primary-key clash on ``events``: another writer took the seq first."""
        if getattr(exc, "sqlite_errorcode", None) != CONSTRAINT_PRIMARYKEY:
            return self._file.error(exc)
        try:
            head = self._head(game)[0]
        except (sqlite3.Error, UnknownGame):
            head = expected_seq
        return conflict(game, head, expected_seq)


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
