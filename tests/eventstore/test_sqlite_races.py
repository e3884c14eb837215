"""Racing writers on one SQLite file, in real processes: two appending at the same head (one
wins, one conflicts), several creating the same database at once, a primary-key clash and a
game another process created (conflicts), and a game a locked database refuses, which leaves
nothing in the key file. The set-up: ``sqlite_helpers``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.eventstore.sqlite_helpers import FORK, finish, make_db, pending, refused, start_child
from warlog.domain.core.errors import ConflictError
from warlog.eventstore import sqlite_store
from warlog.eventstore.chain import GENESIS, link
from warlog.eventstore.records import GameInfo
from warlog.eventstore.sqlite_store import SQLiteStore


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
