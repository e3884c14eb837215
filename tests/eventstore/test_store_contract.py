"""The store contract: every backend numbers, links, refuses, forks and caches alike.

One test class, run against each store (``store`` is parametrised); a new backend joins by
adding itself to ``STORES``. The PostgreSQL stores each get a schema of their own in the
session's throwaway cluster (tests/postgres_cluster.py).
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.postgres_cluster import Cluster
from warlog.domain.core.errors import (
    ConflictError,
    InputError,
    StoreError,
    UnknownGame,
    WarlogError,
)
from warlog.eventstore.chain import GENESIS, link
from warlog.eventstore.memory_store import MemoryStore
from warlog.eventstore.postgres_store import PostgresStore
from warlog.eventstore.records import GameInfo, Pending, Record
from warlog.eventstore.sqlite_store import SQLiteStore
from warlog.eventstore.store import Store

AT = "2024-05-01T12:00:00.000Z"
STORES = ["memory", "sqlite", "postgres"]


def pending(n: int, type_: str = "thing_happened") -> Pending:
    return Pending(type_, json.dumps({"n": n}, separators=(",", ":"), ensure_ascii=False), AT)


def batch(*ns: int) -> list[Pending]:
    return [pending(n) for n in ns]


def numbers(records: Iterator[Record] | list[Record]) -> list[int]:
    """The ``n`` each record's data carries (what the test wrote), in order."""
    return [json.loads(r.data)["n"] for r in records]


def assert_chain(records: list[Record], prev: str = GENESIS, first_seq: int = 1) -> None:
    """Contiguous seqs from ``first_seq``, each prev the hash before, each hash recomputable."""
    for offset, record in enumerate(records):
        assert record.seq == first_seq + offset
        assert record.prev == prev
        assert record.hash == link(record.prev, record.seq, record.type, record.at, record.data)
        prev = record.hash


def one_line(error: WarlogError) -> str:
    text = str(error)
    assert text and "\n" not in text
    return text


def new_game(store: Store, game: str = "g", events: int = 1, *, ruleset: str = "test") -> None:
    """A game with events carrying n = 1..events (the first batch is event 1 alone)."""
    store.create_game(GameInfo(game=game, ruleset=ruleset), batch(1))
    if events > 1:
        store.append(game, batch(*range(2, events + 1)), 1)


def fork(store: Store, game: str, parent: str, at: int, *ns: int) -> list[Record]:
    info = GameInfo(game=game, ruleset="test", parent=parent, fork_at=at)
    return store.create_game(info, batch(*(ns or (1000,))))


class StoreFactory:
    """Fresh stores of one kind: SQLite ones each in their own file under ``root``, PostgreSQL
    ones each in their own schema of ``cluster``."""

    def __init__(self, kind: str, root: Path, cluster: Cluster | None = None) -> None:
        self.kind = kind
        self.root = root
        self.cluster = cluster
        self._count = itertools.count()
        self._opened: list[SQLiteStore | PostgresStore] = []

    def __call__(self) -> Store:
        if self.kind == "memory":
            return MemoryStore()
        store: SQLiteStore | PostgresStore
        if self.kind == "postgres":
            assert self.cluster is not None
            store = PostgresStore(self.cluster.new_schema(), create=True)
        else:
            store = SQLiteStore(self.root / f"warlog-{next(self._count)}.db", create=True)
        self._opened.append(store)
        return store

    def stored_event_rows(self, store: Store) -> int:
        """How many event rows the backend holds (forks must not copy their prefix)."""
        if isinstance(store, SQLiteStore):
            with sqlite3.connect(store.path) as raw:
                return int(raw.execute("SELECT count(*) FROM events").fetchone()[0])
        if isinstance(store, PostgresStore):
            import psycopg

            with psycopg.connect(store.dsn) as raw:
                row = raw.execute("SELECT count(*) FROM events").fetchone()
                assert row is not None
                return int(row[0])
        assert isinstance(store, MemoryStore)
        return sum(len(own) for own in store._events.values())

    def delete_row(self, store: Store, game: str, seq: int) -> None:
        """Take event ``seq`` out of what ``game`` stores itself, as a hand in the database
        would (a damaged log)."""
        if isinstance(store, SQLiteStore):
            with sqlite3.connect(store.path) as raw:
                raw.execute("DELETE FROM events WHERE game = ? AND seq = ?", (game, seq))
            raw.close()
        elif isinstance(store, PostgresStore):
            import psycopg

            with psycopg.connect(store.dsn) as raw:
                raw.execute("DELETE FROM events WHERE game = %s AND seq = %s", (game, seq))
        else:
            assert isinstance(store, MemoryStore)
            own = store._events[game]
            own.remove(next(r for r in own if r.seq == seq))

    def close(self) -> None:
        for store in self._opened:
            store.close()


@pytest.fixture(params=STORES)
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreFactory]:
    cluster = request.getfixturevalue("postgres") if request.param == "postgres" else None
    factory = StoreFactory(request.param, tmp_path, cluster)
    yield factory
    factory.close()


@pytest.fixture
def store(stores: StoreFactory) -> Store:
    return stores()


class TestStoreContract:
    # ------------------------------------------------------------------ the chain

    def test_the_first_event_follows_genesis_and_every_hash_recomputes_with_link(
        self, store: Store
    ) -> None:
        first = store.create_game(GameInfo("g", "test"), batch(1, 2))
        assert [r.seq for r in first] == [1, 2]
        assert first[0].prev == GENESIS == "0" * 64
        assert_chain(first)
        assert list(store.read("g")) == first

    def test_append_after_the_head_numbers_and_links_the_batch(self, store: Store) -> None:
        new_game(store, events=3)
        appended = store.append("g", batch(4, 5), 3)
        records = list(store.read("g"))
        assert [r.seq for r in appended] == [4, 5]
        assert records[3:] == appended
        assert numbers(records) == [1, 2, 3, 4, 5]
        assert_chain(records)

    def test_the_stored_fields_are_exactly_the_pending_ones(self, store: Store) -> None:
        odd = Pending("ünïcode_happened", '{"name":"Ægir","n":1}', "2024-05-01T12:00:00.123Z")
        store.create_game(GameInfo("g", "test"), [odd])
        (record,) = store.read("g")
        assert (record.type, record.data, record.at) == (odd.type, odd.data, odd.at)

    # ------------------------------------------------------------------ concurrency

    def test_append_on_a_stale_head_conflicts_and_appends_nothing(self, store: Store) -> None:
        new_game(store, events=3)
        before = list(store.read("g"))
        with pytest.raises(ConflictError) as caught:
            store.append("g", batch(9, 9), 2)
        assert caught.value.code == "store/conflict"
        assert caught.value.exit_code == 5
        assert one_line(caught.value) == (
            "game g has moved on: head is 3, expected 2; nothing appended, retry"
        )
        assert list(store.read("g")) == before

    def test_append_ahead_of_the_head_conflicts_too(self, store: Store) -> None:
        new_game(store, events=2)
        with pytest.raises(ConflictError):
            store.append("g", batch(9), 5)
        assert store.head("g")[0] == 2

    def test_two_writers_deciding_on_the_same_head_one_wins(self, stores: StoreFactory) -> None:
        store = stores()
        new_game(store, events=2)
        head = store.head("g")[0]
        store.append("g", batch(3), head)
        with pytest.raises(ConflictError):
            store.append("g", batch(33), head)
        assert numbers(store.read("g")) == [1, 2, 3]

    def test_a_batch_with_a_bad_event_appends_nothing(self, store: Store) -> None:
        new_game(store, events=2)
        bad = Pending("thing_happened", b'{"n":5}', AT)  # type: ignore[arg-type]
        with pytest.raises(InputError) as caught:
            store.append("g", [pending(3), pending(4), bad], 2)
        assert "event 5" in one_line(caught.value)
        assert numbers(store.read("g")) == [1, 2]
        store.append("g", batch(3), 2)
        assert_chain(list(store.read("g")))

    @pytest.mark.parametrize("field", ["type", "at"])
    def test_an_event_whose_type_or_at_is_not_text_appends_nothing(
        self, store: Store, field: str
    ) -> None:
        """A stored row's type and at are text, as its data is (ARCHITECTURE.md, "Events and
        the log"): one that is not is refused before anything is stored (SQLite would keep the
        number 5 as the text '5' without a word)."""
        new_game(store, events=2)
        good = pending(4)
        fields: dict[str, object] = {"type": good.type, "data": good.data, "at": good.at}
        bad = Pending(**{**fields, field: 5})  # type: ignore[arg-type]
        with pytest.raises(InputError) as caught:
            store.append("g", [pending(3), bad], 2)
        assert caught.value.code == "input/bad_event" and "event 4" in one_line(caught.value)
        assert numbers(store.read("g")) == [1, 2]

    def test_an_empty_batch_is_refused(self, store: Store) -> None:
        new_game(store)
        with pytest.raises(InputError) as caught:
            store.append("g", [], 1)
        assert caught.value.code == "input/empty_batch"
        with pytest.raises(InputError):
            store.create_game(GameInfo("h", "test"), [])
        assert [i.game for i in store.games()] == ["g"]

    # ------------------------------------------------------------------ reading

    @pytest.mark.parametrize(
        ("from_seq", "to_seq", "expected"),
        [
            (1, None, [1, 2, 3, 4, 5, 6]),
            (4, None, [4, 5, 6]),
            (1, 3, [1, 2, 3]),
            (3, 3, [3]),
            (5, 2, []),
            (5, 100, [5, 6]),
            (7, None, []),
            (1, 0, []),
        ],
    )
    def test_read_returns_the_range_asked_for_clamped_to_the_head(
        self, store: Store, from_seq: int, to_seq: int | None, expected: list[int]
    ) -> None:
        new_game(store, events=6)
        assert numbers(store.read("g", from_seq, to_seq)) == expected

    def test_read_rows_are_the_records_seq_type_data_and_hash_along_the_lineage(
        self, store: Store
    ) -> None:
        new_game(store, events=6)
        fork(store, "f", "g", 4, 7, 8)
        for game, lo, hi in [
            ("g", 1, None),
            ("g", 2, 5),
            ("f", 1, None),
            ("f", 3, 6),
            ("f", 5, 99),
        ]:
            rows = list(store.read_rows(game, lo, hi))
            assert rows == [(r.seq, r.type, r.data, r.hash) for r in store.read(game, lo, hi)]
            assert rows
        with pytest.raises(InputError):
            store.read_rows("g", 0)
        with pytest.raises(UnknownGame):
            store.read_rows("nope")

    def test_read_rows_can_leave_out_types_but_always_ends_on_the_last_row(
        self, store: Store
    ) -> None:
        store.create_game(GameInfo(game="g", ruleset="test"), batch(1))
        store.append("g", [pending(2, "inert"), pending(3), pending(4, "inert")], 1)
        store.append("g", [pending(5, "inert"), pending(6, "inert")], 4)
        store.create_game(
            GameInfo(game="f", ruleset="test", parent="g", fork_at=4), [pending(7, "inert")]
        )
        skip = frozenset({"inert", "never"})
        for game, lo, hi, expected in [
            ("g", 1, None, [1, 3, 6]),
            ("g", 2, 5, [3, 5]),
            ("g", 2, 2, [2]),
            ("g", 1, 99, [1, 3, 6]),
            ("f", 1, None, [1, 3, 7]),  # the last row only: not the end of the parent's part
            ("f", 2, 4, [3, 4]),
        ]:
            rows = list(store.read_rows(game, lo, hi, skip=skip))
            assert [json.loads(data)["n"] for _, _, data, _ in rows] == expected, (game, lo, hi)
            full = {r.seq: (r.seq, r.type, r.data, r.hash) for r in store.read(game, lo, hi)}
            assert all(row == full[row[0]] for row in rows)
            assert rows[-1][0] == max(full)

    def test_a_read_that_leaves_rows_out_names_the_first_row_missing_from_its_range(
        self, stores: StoreFactory
    ) -> None:
        """Given a game of 8 events, every other one of a type read_rows may leave out, whose
        rows 3 (left out) and 6 (read) were deleted from the database, when its rows are read
        leaving that type out, then each range holding a missing row is one StoreError
        (store/corrupt) naming the first missing row of that range, and a range without one
        reads as before; a read of every row gives what is there (its reader checks each seq:
        the audit reports a gap as a finding)."""
        store = stores()
        store.create_game(GameInfo(game="g", ruleset="test"), batch(1))
        store.append("g", [pending(n, "inert" if n % 2 else "thing") for n in range(2, 9)], 1)
        stores.delete_row(store, "g", 3)
        stores.delete_row(store, "g", 6)
        skip = frozenset({"inert"})
        for lo, hi, missing in [(1, None, 3), (2, 3, 3), (3, 3, 3), (4, 8, 6), (5, 6, 6)]:
            with pytest.raises(StoreError) as caught:
                store.read_rows("g", lo, hi, skip=skip)
            assert caught.value.code == "store/corrupt"
            assert one_line(caught.value) == (
                f"game g has no event {missing} (the log has a gap): the database is damaged"
            )
        for lo, hi, read in [(1, 2, [1, 2]), (4, 5, [4, 5]), (7, None, [8])]:
            assert [row[0] for row in store.read_rows("g", lo, hi, skip=skip)] == read
        assert [row[0] for row in store.read_rows("g")] == [1, 2, 4, 5, 7, 8]

    @pytest.mark.parametrize(("owner", "deleted"), [("g", 2), ("g", 4), ("f", 6)])
    def test_a_read_of_a_fork_that_leaves_rows_out_names_a_row_missing_from_either_part(
        self, stores: StoreFactory, owner: str, deleted: int
    ) -> None:
        """Given a fork f at 4 of a game g of 5 events (f's own events 5..7), when a row of its
        parent's part (one read, or its fork point) or of its own was deleted, then a read of
        f leaving rows out names that row as f's (store/corrupt), the read of the parent's
        part too; a range before the missing row still reads."""
        store = stores()
        store.create_game(GameInfo(game="g", ruleset="test"), batch(1))
        store.append("g", [pending(n, "inert") for n in range(2, 6)], 1)
        fork(store, "f", "g", 4, 5, 6, 7)
        stores.delete_row(store, owner, deleted)
        skip = frozenset({"inert"})
        with pytest.raises(StoreError) as caught:
            store.read_rows("f", skip=skip)
        assert one_line(caught.value) == (
            f"game f has no event {deleted} (the log has a gap): the database is damaged"
        )
        assert caught.value.code == "store/corrupt"
        assert [row[0] for row in store.read_rows("f", 1, deleted - 1, skip=skip)][-1] == (
            deleted - 1
        )

    def test_read_below_seq_one_is_refused(self, store: Store) -> None:
        new_game(store)
        with pytest.raises(InputError):
            store.read("g", 0)

    def test_read_streams_and_stops_at_the_head_it_was_called_at(self, store: Store) -> None:
        new_game(store, events=4)
        stream = store.read("g")
        assert iter(stream) is stream  # an iterator, not a list built up front
        assert next(stream).seq == 1
        store.append("g", batch(5), 4)
        assert [r.seq for r in stream] == [2, 3, 4]
        assert [r.seq for r in store.read("g")] == [1, 2, 3, 4, 5]

    def test_a_stream_left_half_read_does_not_block_appends(self, store: Store) -> None:
        new_game(store, events=3)
        stream = store.read("g")
        next(stream)
        store.append("g", batch(4), 3)
        del stream
        store.append("g", batch(5), 4)
        assert store.head("g")[0] == 5

    def test_head_is_the_last_seq_and_its_hash(self, store: Store) -> None:
        new_game(store, events=3)
        last = list(store.read("g"))[-1]
        assert store.head("g") == (3, last.hash)

    # ------------------------------------------------------------------ catalogue

    @pytest.mark.parametrize(
        "call",
        [
            lambda s: s.append("nope", batch(1), 0),
            lambda s: s.read("nope"),
            lambda s: s.head("nope"),
            lambda s: s.info("nope"),
            lambda s: s.lineage("nope"),
        ],
        ids=["append", "read", "head", "info", "lineage"],
    )
    def test_an_unknown_game_is_refused_naming_it(
        self, store: Store, call: Callable[[Store], object]
    ) -> None:
        new_game(store)
        with pytest.raises(UnknownGame) as caught:
            call(store)
        assert caught.value.code == "input/unknown_game"
        assert caught.value.exit_code == 1
        assert "'nope'" in one_line(caught.value)

    def test_creating_a_game_that_exists_conflicts_and_changes_nothing(self, store: Store) -> None:
        new_game(store, events=2)
        with pytest.raises(ConflictError) as caught:
            store.create_game(GameInfo("g", "other"), batch(7))
        assert caught.value.code == "store/game_exists"
        assert store.info("g") == GameInfo("g", "test")
        assert numbers(store.read("g")) == [1, 2]

    @pytest.mark.parametrize(
        "info",
        [
            GameInfo("g", "test", parent="ghost", fork_at=1),
            GameInfo("g", "test", parent="g", fork_at=9),
        ],
        ids=["unknown-parent", "fork-point-past-the-head"],
    )
    def test_creating_a_game_that_exists_conflicts_before_anything_else_is_checked(
        self, store: Store, info: GameInfo
    ) -> None:
        """Given a game g, when g is created again as a fork that is wrong besides, then the
        refusal is the conflict (store/game_exists, exit 5) every store gives first, not the
        fork's error, and g is unchanged: the id decides before the fork point is looked at."""
        new_game(store, events=2)
        with pytest.raises(ConflictError) as caught:
            store.create_game(info, batch(7))
        assert caught.value.code == "store/game_exists" and caught.value.exit_code == 5
        assert store.info("g") == GameInfo("g", "test")
        assert numbers(store.read("g")) == [1, 2]

    def test_a_game_whose_first_batch_holds_a_bad_event_is_not_created(self, store: Store) -> None:
        """Nothing is stored of a refused creation, not even its catalogue row: the id stays
        free, and the catalogue lists no game without events."""
        bad = Pending("thing_happened", b'{"n":2}', AT)  # type: ignore[arg-type]
        with pytest.raises(InputError) as caught:
            store.create_game(GameInfo("g", "test"), [pending(1), bad])
        assert caught.value.code == "input/bad_event"
        assert store.games() == []
        new_game(store, events=2)
        assert numbers(store.read("g")) == [1, 2]

    def test_a_game_needs_an_id(self, store: Store) -> None:
        with pytest.raises(InputError):
            store.create_game(GameInfo("", "test"), batch(1))

    def test_a_game_needs_a_ruleset_name(self, store: Store) -> None:
        with pytest.raises(InputError) as caught:
            store.create_game(GameInfo("g", ""), batch(1))
        assert (caught.value.code, caught.value.message) == (
            "input/bad_ruleset",
            "game g needs a ruleset name",
        )
        assert store.games() == []

    def test_first_rows_are_the_first_event_each_game_stores_itself(self, store: Store) -> None:
        # given two games and forks (one of a fork), each appended to after its cut
        new_game(store, "b", events=3)
        new_game(store, "a", events=2)
        fork(store, "c", "b", 2, 20, 21)
        fork(store, "d", "c", 3, 30)
        # then each game's first own event is read in one go: seq 1, or the one after the cut
        data = '{{"n":{}}}'.format
        assert store.first_rows() == {
            "a": (1, "thing_happened", data(1)),
            "b": (1, "thing_happened", data(1)),
            "c": (3, "thing_happened", data(20)),
            "d": (4, "thing_happened", data(30)),
        }

    def test_games_lists_every_game_with_its_lineage(self, store: Store) -> None:
        new_game(store, "b", events=3)
        new_game(store, "a")
        fork(store, "c", "b", 2)
        fork(store, "d", "c", 3)
        assert store.games() == [
            GameInfo("a", "test"),
            GameInfo("b", "test"),
            GameInfo("c", "test", parent="b", fork_at=2),
            GameInfo("d", "test", parent="c", fork_at=3),
        ]
        assert store.info("d") == GameInfo("d", "test", parent="c", fork_at=3)

    # ------------------------------------------------------------------ forks

    def test_a_fork_shares_the_parents_prefix_and_continues_its_chain(self, store: Store) -> None:
        new_game(store, "p", events=5)
        parent = list(store.read("p"))
        own = fork(store, "f", "p", 3, 100, 101)
        assert [r.seq for r in own] == [4, 5]
        assert own[0].prev == parent[2].hash
        records = list(store.read("f"))
        assert records[:3] == parent[:3]
        assert numbers(records) == [1, 2, 3, 100, 101]
        assert_chain(records)
        assert store.head("f") == (5, own[-1].hash)

    def test_a_fork_and_its_parent_go_their_own_ways(self, store: Store) -> None:
        new_game(store, "p", events=3)
        fork(store, "f", "p", 2, 100)
        store.append("p", batch(4, 5), 3)
        store.append("f", batch(101), 3)
        assert numbers(store.read("p")) == [1, 2, 3, 4, 5]
        assert numbers(store.read("f")) == [1, 2, 100, 101]
        assert numbers(store.read("f", 2, 3)) == [2, 100]
        with pytest.raises(ConflictError):
            store.append("f", batch(9), 5)  # the parent's head is not the fork's
        assert_chain(list(store.read("f")))

    def test_a_fork_of_a_fork_reads_through_both_parents(self, store: Store) -> None:
        new_game(store, "a", events=5)
        fork(store, "b", "a", 3, 30, 31, 32)  # b: 1 2 3 30 31 32
        fork(store, "c", "b", 5, 50)  # above b's fork point: 1 2 3 30 31 50
        fork(store, "d", "b", 2, 20)  # below it: skips b entirely
        assert numbers(store.read("c")) == [1, 2, 3, 30, 31, 50]
        assert numbers(store.read("c", 3, 5)) == [3, 30, 31]
        assert numbers(store.read("d")) == [1, 2, 20]
        for game in "abcd":
            assert_chain(list(store.read(game)))
        assert list(store.read("c"))[:5] == list(store.read("b"))[:5]

    @pytest.mark.parametrize("where", ["one", "head"])
    def test_a_fork_at_one_or_at_the_head(self, store: Store, where: str) -> None:
        new_game(store, "p", events=4)
        at = 1 if where == "one" else 4
        fork(store, "f", "p", at, 100)
        assert numbers(store.read("f")) == [*range(1, at + 1), 100]
        assert_chain(list(store.read("f")))

    @pytest.mark.parametrize("at", [0, -1, 5])
    def test_a_fork_point_outside_the_parent_is_refused(self, store: Store, at: int) -> None:
        new_game(store, "p", events=4)
        with pytest.raises(InputError) as caught:
            fork(store, "f", "p", at)
        assert "1..4" in one_line(caught.value)
        assert [i.game for i in store.games()] == ["p"]

    def test_a_fork_of_an_unknown_game_is_refused(self, store: Store) -> None:
        with pytest.raises(UnknownGame) as caught:
            fork(store, "f", "ghost", 1)
        assert "'ghost'" in one_line(caught.value)
        assert store.games() == []

    @pytest.mark.parametrize(
        "info", [GameInfo("f", "test", parent="p"), GameInfo("f", "test", fork_at=1)]
    )
    def test_a_fork_needs_both_parent_and_fork_point(self, store: Store, info: GameInfo) -> None:
        new_game(store, "p", events=2)
        with pytest.raises(InputError):
            store.create_game(info, batch(1))

    def test_creating_a_fork_writes_only_its_own_events(self, stores: StoreFactory) -> None:
        store = stores()
        new_game(store, "p", events=2)
        store.append("p", batch(*range(3, 3001)), 2)
        costs = []
        for name, at in [("early", 1), ("late", 3000), ("middle", 1500)]:
            before = stores.stored_event_rows(store)
            fork(store, name, "p", at, 100, 101)
            costs.append(stores.stored_event_rows(store) - before)
        assert costs == [2, 2, 2]
        assert numbers(store.read("late", 2999)) == [2999, 3000, 100, 101]

    # ------------------------------------------------------------------ lineage

    def test_the_lineage_names_where_each_stretch_of_a_fork_is_stored(self, store: Store) -> None:
        new_game(store, "p", events=10)
        fork(store, "f", "p", 5, 100, 101)
        fork(store, "ff", "f", 6, 200)
        assert store.lineage("p") == [("p", 1, None)]
        assert store.lineage("f") == [("p", 1, 5), ("f", 6, None)]
        assert store.lineage("ff") == [("p", 1, 5), ("f", 6, 6), ("ff", 7, None)]

    # ------------------------------------------------------------------ any history

    @settings(
        max_examples=30,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(
        steps=st.lists(
            st.tuples(
                st.sampled_from(["append", "fork", "stale"]), st.integers(0, 99), st.integers(1, 4)
            ),
            max_size=25,
        )
    )
    def test_any_history_of_appends_and_forks_keeps_every_log_whole(
        self, stores: StoreFactory, steps: list[tuple[str, int, int]]
    ) -> None:
        store = stores()
        model: dict[str, list[int]] = {"g0": [1]}  # the n values each game's log should read
        store.create_game(GameInfo("g0", "test"), batch(1))
        counter = itertools.count(2)
        for action, pick, size in steps:
            game = sorted(model)[pick % len(model)]
            head = len(model[game])
            if action == "append":
                ns = [next(counter) for _ in range(size)]
                store.append(game, batch(*ns), head)
                model[game] = [*model[game], *ns]
            elif action == "stale":
                with pytest.raises(ConflictError):
                    store.append(game, batch(next(counter)), head - 1)
            else:
                at = 1 + pick % head
                name = f"g{len(model)}"
                n = next(counter)
                fork(store, name, game, at, n)
                model[name] = [*model[game][:at], n]
        for game, expected in model.items():
            records = list(store.read(game))
            assert numbers(records) == expected
            assert_chain(records)
            assert store.head(game) == (len(expected), records[-1].hash)


@pytest.mark.parametrize("kind", ["memory", "sqlite", "postgres"])
def test_a_read_to_a_seq_past_the_head_stops_at_the_head_it_was_called_at(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Given a read of 1..100 of a game of 4 events, when the game is appended to before the
    read is iterated, then it gives 1..4: a read is clamped to the head at the time of the call
    (each store's ``read``), whether or not its end is stated, as
    ``test_read_streams_and_stops_at_the_head_it_was_called_at`` pins for an open end."""
    cluster = request.getfixturevalue("postgres") if kind == "postgres" else None
    stores = StoreFactory(kind, tmp_path, cluster)
    try:
        store = stores()
        new_game(store, events=4)
        stream = store.read("g", 1, 100)
        store.append("g", batch(5), 4)
        assert [r.seq for r in stream] == [1, 2, 3, 4]
    finally:
        stores.close()


def test_a_memory_store_counts_its_games_in_its_repr() -> None:
    store = MemoryStore()
    new_game(store, events=2)
    assert repr(store) == "MemoryStore(<1 games>)"
