"""The SQLite store's file: the warlog schema it creates, what a reopened database reads back,
a read left unfinished when the store closes, and the ``event_fields`` view a referee queries.
The set-up: ``sqlite_helpers``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlite_utils

from tests.eventstore.sqlite_helpers import AT, make_db, pending
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
