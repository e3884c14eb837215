"""The raw baselines: the same rows, the same hashing and the same file, without warlog.

Each baseline is what a careful programmer would write with ``sqlite3``, ``hashlib`` and
``msgspec`` alone, on a file whose schema ``SQLiteStore`` created (so both sides write the same
``WITHOUT ROWID`` table, in WAL mode, with SQLite's default ``synchronous=FULL``). Appends keep
the optimistic-concurrency read of the head, as any correct appender must.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from warlog.domain.core.events import CORE_EVENTS
from warlog.eventstore.records import Pending

INSERT = "INSERT INTO events (game, seq, type, data, at, prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?)"
HEAD = "SELECT seq, hash FROM events WHERE game = ? ORDER BY seq DESC LIMIT 1"
GENESIS = "0" * 64


def connect(path: Path) -> sqlite3.Connection:
    """A connection as the store makes one: autocommit (explicit BEGIN), 5 s busy timeout."""
    return sqlite3.connect(path, isolation_level=None, timeout=5.0)


def rows_of(game: str, batch: Sequence[Pending], seq: int, prev: str) -> list[tuple[Any, ...]]:
    """The ``events`` rows of ``batch`` after ``seq`` (hash ``prev``): the contract's chain."""
    sha256 = hashlib.sha256
    rows = []
    for p in batch:
        seq += 1
        hash_ = sha256(f"{prev}\n{seq}\n{p.type}\n{p.at}\n{p.data}".encode()).hexdigest()
        rows.append((game, seq, p.type, p.data, p.at, prev, hash_))
        prev = hash_
    return rows


def create(conn: sqlite3.Connection, game: str, ruleset: str, first: Sequence[Pending]) -> None:
    """Register ``game`` and insert its first batch in one transaction."""
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO games (game, ruleset) VALUES (?, ?)", (game, ruleset))
    conn.executemany(INSERT, rows_of(game, first, 0, GENESIS))
    conn.execute("COMMIT")


def append(conn: sqlite3.Connection, game: str, batch: Sequence[Pending], expected: int) -> int:
    """Insert ``batch`` after ``expected`` in one transaction; the new head seq."""
    conn.execute("BEGIN IMMEDIATE")
    seq, prev = conn.execute(HEAD, (game,)).fetchone()
    if seq != expected:
        conn.execute("ROLLBACK")
        raise RuntimeError(f"head moved: {seq} != {expected}")
    rows = rows_of(game, batch, seq, prev)
    conn.executemany(INSERT, rows)
    conn.execute("COMMIT")
    return int(rows[-1][1])


def decoders(ruleset: Any) -> dict[str, msgspec.json.Decoder[Any]]:
    """One typed msgspec decoder per event tag (the core events and the ruleset's own)."""
    return {
        cls.type_name(): msgspec.json.Decoder(cls) for cls in (*CORE_EVENTS, *ruleset.event_types)
    }


def replay(
    conn: sqlite3.Connection,
    game: str,
    decode: dict[str, msgspec.json.Decoder[Any]],
    table: str = "events",
) -> int:
    """SELECT the game's rows in seq order, decode each into its typed event, fold trivially
    (count them); the count."""
    count = 0
    last: Any = None
    for type_, data in conn.execute(
        f"SELECT type, data FROM {table} WHERE game = ? ORDER BY seq", (game,)
    ):
        last = decode[type_].decode(data)
        count += 1
    assert last is not None
    return count


def scan(conn: sqlite3.Connection, game: str, table: str) -> int:
    """Read the game's (type, data) rows in seq order and nothing else; the count."""
    count = 0
    for _ in conn.execute(f"SELECT type, data FROM {table} WHERE game = ? ORDER BY seq", (game,)):
        count += 1
    return count


def clear_copy(
    conn: sqlite3.Connection, games: Sequence[str], clear: Callable[[str, int, str, str], str]
) -> None:
    """Copy ``events`` into ``events_clear`` (``WITHOUT ROWID``, as warlog's) with each row's
    data in its clear form, ``clear(game, seq, data, hash)``: every sealed value in place, as the
    fold needs it. The raw replay decodes these rows, so that it is typed-decodable and does
    the least work any replay must do."""
    columns = (
        "game TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, "
        "at TEXT NOT NULL, prev TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (game, seq)"
    )
    conn.execute(f"CREATE TABLE events_clear ({columns}) WITHOUT ROWID")
    conn.execute("BEGIN")
    for game in games:
        rows = conn.execute("SELECT * FROM events WHERE game = ? ORDER BY seq", (game,))
        conn.executemany(
            "INSERT INTO events_clear VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (g, seq, t, clear(g, seq, data, h), at, prev, h)
                for g, seq, t, data, at, prev, h in rows
            ],
        )
    conn.execute("COMMIT")


def interleaved_copies(conn: sqlite3.Connection, batches: dict[str, list[int]]) -> None:
    """Copy ``events`` into ``events_rowid`` (a rowid table with a (game, seq) primary-key index)
    and ``events_clustered`` (``WITHOUT ROWID``, as warlog's), inserting the games' command
    batches round-robin, as a tournament appends them (``batches``: each game's batch sizes)."""
    columns = (
        "game TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, "
        "at TEXT NOT NULL, prev TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (game, seq)"
    )
    conn.execute(f"CREATE TABLE events_rowid ({columns})")
    conn.execute(f"CREATE TABLE events_clustered ({columns}) WITHOUT ROWID")
    rows = {
        game: conn.execute("SELECT * FROM events WHERE game = ? ORDER BY seq", (game,)).fetchall()
        for game in batches
    }
    starts = {game: 0 for game in batches}
    conn.execute("BEGIN")
    for i in range(max(len(sizes) for sizes in batches.values())):
        for game, sizes in batches.items():
            if i < len(sizes):
                chunk = rows[game][starts[game] : starts[game] + sizes[i]]
                starts[game] += sizes[i]
                for table in ("events_rowid", "events_clustered"):
                    conn.executemany(f"INSERT INTO {table} VALUES (?, ?, ?, ?, ?, ?, ?)", chunk)
    conn.execute("COMMIT")
