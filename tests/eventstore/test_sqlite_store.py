"""The SQLite store's file: the warlog schema it creates, what a reopened database reads back,
a read left unfinished when the store closes, the ``event_fields`` view a referee queries, and
a damaged log or catalogue refused rather than read as other events. The set-up:
``sqlite_helpers``.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest
import sqlite_utils

from tests.eventstore.sqlite_helpers import AT, make_db, pending, refused
from warlog.domain.core.errors import ConflictError
from warlog.eventstore.chain import GENESIS, link
from warlog.eventstore.records import GameInfo
from warlog.eventstore.sqlite_file import SCHEMA_VERSION
from warlog.eventstore.sqlite_store import SQLiteStore


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


def damage(path: Path, sql: str) -> None:
    with contextlib.closing(sqlite3.connect(path)) as raw, raw:
        raw.execute(sql)


def test_a_fork_at_an_event_its_parents_log_has_lost_is_refused_and_creates_nothing(
    tmp_path: Path,
) -> None:
    """Given a game whose event 2 was deleted (a damaged log), when a fork of it at 2 is
    created, then one StoreError names the gap and nothing is created: the fork's first event
    would chain on a hash that is not there (ARCHITECTURE.md, "Events and the log": a fork's
    own events continue the chain from the parent's hash at N)."""
    path = make_db(tmp_path / "warlog.db", events=4)
    damage(path, "DELETE FROM events WHERE game = 'g' AND seq = 2")
    with SQLiteStore(path) as store:
        fork = GameInfo("f", "test", parent="g", fork_at=2)
        error = refused(lambda: store.create_game(fork, [pending(100)]))
        assert error.code == "store/corrupt" and "game g has no event 2" in str(error)
        assert [info.game for info in store.games()] == ["g"]


@pytest.mark.parametrize(
    ("own", "fork_at", "wrong"),
    [
        # the fork's own events 5..6 read from 8 on: none of them, and 1..6 from the parent
        (2, 7, "reads events 8..its head of game f, whose last event is 6"),
        # the parent's events read up to 9, one past its last: event 9 would be missing
        (8, 9, "reads events 1..9 of game g, whose last event is 8"),
    ],
    ids=["own-events-before-the-cut", "one-past-the-parents-head"],
)
def test_a_fork_point_the_catalogue_moved_is_refused_rather_than_read_as_other_events(
    tmp_path: Path, own: int, fork_at: int, wrong: str
) -> None:
    """Given a fork f of g at 4 whose catalogue row was then given another fork point, when f
    is read, then one StoreError names its lineage: a read would otherwise give other events,
    or skip one, without a word (``lineage.lineage``)."""
    path = make_db(tmp_path / "warlog.db", events=8)
    with SQLiteStore(path) as store:
        store.create_game(
            GameInfo("f", "test", parent="g", fork_at=4), [pending(n) for n in range(5, 5 + own)]
        )
    damage(path, f"UPDATE games SET fork_at = {fork_at} WHERE game = 'f'")
    with SQLiteStore(path) as store:
        error = refused(lambda: list(store.read("f")))
        assert error.code == "store/corrupt"
        assert f"game f's lineage {wrong} (a fork_at of the catalogue is wrong)" in str(error)


@pytest.mark.parametrize(
    ("sql", "wrong"),
    [
        ("UPDATE events SET hash = CAST(hash AS BLOB) WHERE seq = 3", "a hash that is not text"),
        ("UPDATE events SET seq = 'x' WHERE seq = 3", "seq 'x', not a number"),
    ],
    ids=["hash-a-blob", "seq-text"],
)
def test_a_last_event_whose_seq_or_hash_is_damaged_is_refused_and_nothing_appended(
    tmp_path: Path, sql: str, wrong: str
) -> None:
    """Given a game whose last row holds its hash as bytes or its seq as text, when a batch is
    appended, then one StoreError names the damage and nothing is appended: the batch would
    chain on a prev no verifier can recompute (``lineage.head_row``)."""
    path = make_db(tmp_path / "warlog.db", events=3)
    damage(path, sql)
    with SQLiteStore(path) as store:
        error = refused(lambda: store.append("g", [pending(4)], 3))
        assert error.code == "store/corrupt"
        assert error.message == f"{path} is damaged: game g's last event has {wrong}"
    with contextlib.closing(sqlite3.connect(path)) as raw:
        assert raw.execute("SELECT count(*) FROM events").fetchone() == (3,)


def test_a_game_whose_catalogue_row_was_lost_cannot_be_created_again_over_its_events(
    tmp_path: Path,
) -> None:
    """Given a game g whose catalogue row was deleted, its events left, when a game g is
    created, then it is refused as existing (``store/game_exists``) and nothing is written:
    the new first event would clash with the old one's seq."""
    path = make_db(tmp_path / "warlog.db", events=3)
    damage(path, "DELETE FROM games WHERE game = 'g'")
    with SQLiteStore(path) as store:
        with pytest.raises(ConflictError) as caught:
            store.create_game(GameInfo("g", "test"), [pending(1)])
        assert caught.value.code == "store/game_exists"
        assert store.games() == []
    with contextlib.closing(sqlite3.connect(path)) as raw:
        assert raw.execute("SELECT count(*) FROM events").fetchone() == (3,)


#: a trigger someone added to the database, refusing every new row
CLOSED_LOG = (
    "CREATE TRIGGER closed BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'the log is "
    "closed'); END"
)


def test_a_database_whose_trigger_refuses_rows_is_one_line_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    """Given a database to which a trigger refusing every new event row was added, when a
    batch is appended or a game created, then one StoreError says what the database said
    (``store/unavailable``), not a conflict with another writer, and nothing is written."""
    path = make_db(tmp_path / "warlog.db", events=3)
    damage(path, CLOSED_LOG)
    with SQLiteStore(path) as store:
        for call in (
            lambda: store.append("g", [pending(4)], 3),
            lambda: store.create_game(GameInfo("h", "test"), [pending(1)]),
        ):
            error = refused(call)
            assert (error.code, error.message) == (
                "store/unavailable",
                f"database {path}: the log is closed",
            )
        assert [info.game for info in store.games()] == ["g"]
        assert store.head("g")[0] == 3


def test_a_store_shows_its_file_in_its_repr(tmp_path: Path) -> None:
    path = make_db(tmp_path / "warlog.db")
    with SQLiteStore(path) as store:
        assert repr(store) == f"SQLiteStore({str(path)!r})"
