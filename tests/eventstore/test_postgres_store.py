"""What the PostgreSQL store promises beyond the contract every store keeps: writers in several
processes, a schema it makes and upgrades itself, announcements of appends, one-line errors."""

from __future__ import annotations

import hashlib
import itertools
import json
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import pytest

from tests.postgres_cluster import SUPERUSER, Cluster
from warlog.domain.core.errors import ConflictError, InputError, StoreError, WarlogError
from warlog.eventstore import postgres_store
from warlog.eventstore.postgres_database import PostgresDatabase, Schema, redacted, scrubbed
from warlog.eventstore.postgres_store import EVENTS_SCHEMA, PostgresStore
from warlog.eventstore.postgres_vault import PostgresVault
from warlog.eventstore.records import GameInfo, Pending
from warlog.eventstore.vault import Opening, SeatToken

AT = "2024-05-01T12:00:00.000Z"
SEED = bytes(range(32))


def event(n: int) -> Pending:
    return Pending("thing_happened", f'{{"n":{n}}}', AT)


def raw(dsn: str, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        cursor = conn.execute(query, params)  # type: ignore[arg-type]  # the tests' own text
        return cursor.fetchall() if cursor.description else []


@pytest.fixture
def dsn(postgres: Cluster) -> str:
    return postgres.new_schema()


@pytest.fixture
def opened(dsn: str) -> Iterator[Callable[..., PostgresStore]]:
    stores: list[PostgresStore] = []

    def open_store(create: bool = True) -> PostgresStore:
        stores.append(PostgresStore(dsn, create=create))
        return stores[-1]

    yield open_store
    for store in stores:
        store.close()


def at_once(n: int, work: Callable[[int], Any]) -> list[Any]:
    """``work(i)`` for i in 0..n-1 on n threads released together; each result or error."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = work(i)
        except WarlogError as exc:
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


# ------------------------------------------------------------------ several writers


def test_writers_in_several_connections_deciding_on_one_head_leave_one_winner(
    opened: Callable[..., PostgresStore],
) -> None:
    """Given 6 stores (6 connections, as 6 processes) on one game, when all append at once on
    the head they read (some having seen it, some not), round after round, then exactly one batch is appended each round, the
    others get the conflict (exit 5) with nothing appended, and the chain stays whole."""
    stores = [opened() for _ in range(6)]
    stores[0].create_game(GameInfo("g", "test"), [event(0)])
    for round_ in range(10):
        head = stores[0].head("g")[0]
        for store in stores[1:4]:  # these chain on the head they have seen, in one statement;
            store.head("g")  # the others read it in their append's transaction
        results = at_once(6, lambda i, head=head: stores[i].append("g", [event(i), event(i)], head))
        won = [r for r in results if isinstance(r, list)]
        lost = [r for r in results if isinstance(r, ConflictError)]
        assert len(won) == 1 and len(lost) == 5, results
        assert {e.exit_code for e in lost} == {5}
        assert stores[3].head("g")[0] == 1 + 2 * (round_ + 1)
    records = list(stores[5].read("g"))
    assert [r.seq for r in records] == list(range(1, 22))
    assert all(a.hash == b.prev for a, b in itertools.pairwise(records))


def test_a_game_created_at_once_by_several_writers_exists_once(
    opened: Callable[..., PostgresStore],
) -> None:
    stores = [opened() for _ in range(4)]
    results = at_once(4, lambda i: stores[i].create_game(GameInfo("g", f"r{i}"), [event(i)]))
    lost = [r for r in results if isinstance(r, ConflictError)]
    assert len(lost) == 3 and {e.code for e in lost} == {"store/game_exists"}
    assert len(list(stores[0].read("g"))) == 1


def test_a_writer_that_lost_a_race_is_told_the_head_the_winner_left(
    opened: Callable[..., PostgresStore],
) -> None:
    """Given a store that has seen a game's head (so its append is one statement, the primary
    key its conflict check), when another process appends two events first and it then appends
    on the head it saw, then the conflict names the head now in the log, 3, as the contract's
    stale-head refusal words it ("head is 3, expected 1"; the server's 409), nothing appended;
    and its retry on that head goes through."""
    mine, theirs = opened(), opened()
    mine.create_game(GameInfo("g", "test"), [event(1)])
    theirs.append("g", [event(2), event(3)], 1)
    with pytest.raises(ConflictError) as caught:
        mine.append("g", [event(9)], 1)
    assert str(caught.value) == (
        "game g has moved on: head is 3, expected 1; nothing appended, retry"
    )
    assert [r.seq for r in mine.read("g")] == [1, 2, 3]
    assert mine.append("g", [event(4)], 3)[0].seq == 4


def test_a_read_longer_than_a_query_loses_no_row_where_the_queries_meet(
    opened: Callable[..., PostgresStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given rows read CHUNK at a time (3 here, 10,000 in use) and a fork of a 10-event game at
    7 with 5 events of its own, when the fork is read whole, from 2, and as rows, then every
    event comes once, in order, the chain whole: a read streams a game's whole lineage
    (``PostgresStore.read``), however many queries it takes."""
    monkeypatch.setattr(postgres_store, "CHUNK", 3)
    store = opened()
    store.create_game(GameInfo("p", "test"), [event(n) for n in range(1, 11)])
    store.create_game(
        GameInfo("f", "test", parent="p", fork_at=7), [event(n) for n in range(100, 105)]
    )
    records = list(store.read("f"))
    assert [json.loads(r.data)["n"] for r in records] == [*range(1, 8), *range(100, 105)]
    assert [r.seq for r in records] == list(range(1, 13))
    assert all(a.hash == b.prev for a, b in itertools.pairwise(records))
    assert list(store.read("f", 2)) == records[1:]
    assert list(store.read_rows("f", 2, 11)) == [
        (r.seq, r.type, r.data, r.hash) for r in records[1:11]
    ]


# ------------------------------------------------------------------ the schema


def test_the_schema_is_made_once_however_many_open_it_at_once(
    dsn: str, opened: Callable[..., PostgresStore]
) -> None:
    at_once(5, lambda i: opened())
    opened().create_game(GameInfo("g", "test"), [event(1)])
    opened()  # opening again changes nothing
    assert raw(dsn, "SELECT key, value FROM meta ORDER BY key") == [
        ("app", "warlog"),
        ("schema_version", str(EVENTS_SCHEMA.version)),
    ]
    assert len(list(opened().read("g"))) == 1


def test_an_empty_database_is_not_made_a_warlog_one_without_create(
    dsn: str, opened: Callable[..., PostgresStore]
) -> None:
    with pytest.raises(StoreError) as caught:
        opened(create=False)
    assert caught.value.code == "store/missing"
    assert "warlog new" in caught.value.line() and "\n" not in caught.value.line()
    assert raw(dsn, "SELECT to_regclass('meta')") == [(None,)]
    with pytest.raises(StoreError) as vault_missing:
        PostgresVault(dsn).key("0" * 64)
    # a database without a vault is one handed out without its key file (listed, not folded)
    assert vault_missing.value.code == "store/no_key_file"
    assert "holds no warlog vault" in str(vault_missing.value)


def test_someone_elses_tables_or_a_newer_schema_are_refused_in_one_line(
    postgres: Cluster, opened: Callable[..., PostgresStore], dsn: str
) -> None:
    other = postgres.new_schema()
    raw(other, "CREATE TABLE meta (name text, size int)")
    with pytest.raises(StoreError) as caught:
        PostgresStore(other, create=True)
    assert caught.value.code == "store/not_warlog"
    opened().close()
    raw(dsn, "UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(StoreError) as newer:
        opened()
    assert newer.value.code == "store/schema_version"
    assert "upgrade warlog" in newer.value.line() and "\n" not in newer.value.line()


def test_a_schema_one_version_newer_asks_for_an_upgrade_of_warlog(
    dsn: str, opened: Callable[..., PostgresStore]
) -> None:
    """Given a schema the next warlog wrote (version + 1, the likeliest newer one), when this
    warlog opens it, then store/schema_version and its version mark is left as it was: an
    older warlog never writes over a newer schema (postgres_database: ``_version``)."""
    opened().close()
    newer = str(EVENTS_SCHEMA.version + 1)
    raw(dsn, "UPDATE meta SET value = %s WHERE key = 'schema_version'", (newer,))
    with pytest.raises(StoreError) as caught:
        opened()
    assert caught.value.code == "store/schema_version"
    assert raw(dsn, "SELECT value FROM meta WHERE key = 'schema_version'") == [(newer,)]


def test_a_meta_table_another_application_keeps_is_refused_untouched(dsn: str) -> None:
    """Given a ``meta(key, value)`` table of another application (its app row says so), when a
    store opens the schema, even to create one, then store/not_warlog and nothing is written
    there: warlog's tables are known by their app row, not by their shape."""
    raw(dsn, "CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL)")
    raw(dsn, "INSERT INTO meta VALUES ('app', 'ledger'), ('schema_version', '1')")
    with pytest.raises(StoreError) as caught:
        PostgresStore(dsn, create=True)
    assert caught.value.code == "store/not_warlog"
    assert raw(dsn, "SELECT key, value FROM meta ORDER BY key") == [
        ("app", "ledger"),
        ("schema_version", "1"),
    ]
    assert raw(dsn, "SELECT to_regclass('games')") == [(None,)]


def other_database(postgres: Cluster, options: str) -> str:
    """A new database made with ``options`` (after TEMPLATE template0); its DSN."""
    name = f"o{secrets.token_hex(4)}"
    raw(postgres.dsn(), f'CREATE DATABASE "{name}" TEMPLATE template0 {options}')
    return postgres.dsn(name)


def test_a_database_not_encoded_in_utf8_is_refused_and_left_empty(postgres: Cluster) -> None:
    """Given a LATIN1 database, when a store is made there, then store/encoding in one line
    naming UTF8, and no table is made: the chain hashes the exact text, which a database that
    cannot hold every character would change (docs/scaling.md, "Running warlog on
    PostgreSQL")."""
    latin = other_database(postgres, "ENCODING LATIN1")
    with pytest.raises(StoreError) as caught:
        PostgresStore(latin, create=True)
    assert caught.value.code == "store/encoding" and "UTF8" in caught.value.line()
    assert raw(latin, "SELECT to_regclass('meta')") == [(None,)]


def test_games_are_listed_in_code_point_order_whatever_the_databases_collation(
    postgres: Cluster,
) -> None:
    """Given a database whose collation is a language's (ICU English, where "_z" sorts first
    and "B" after "a"), when games "b", "B", "a", "_z" are listed, then in code point order,
    as the SQLite and in-memory stores list them (``Store.games``)."""
    english = other_database(postgres, "ENCODING UTF8 LOCALE_PROVIDER icu ICU_LOCALE 'en'")
    store = PostgresStore(english, create=True)
    try:
        for game in ("b", "B", "a", "_z"):
            store.create_game(GameInfo(game, "test"), [event(1)])
        assert [info.game for info in store.games()] == ["B", "_z", "a", "b"]
    finally:
        store.close()


def test_an_older_schema_is_brought_up_to_date_once_when_opened(dsn: str) -> None:
    """Given tables of a schema's version 1, when a warlog whose schema has a version 2 opens
    the database (several at once), then version 2's step runs once and the rows stay."""
    steps: dict[int, tuple[str, ...]] = {
        1: (
            "CREATE TABLE t_meta (key text PRIMARY KEY, value text NOT NULL)",
            "CREATE TABLE t_rows (n int)",
        )
    }
    PostgresDatabase(dsn, Schema("test", "t_meta", steps)).connect(create=True).close()
    raw(dsn, "INSERT INTO t_rows VALUES (7)")
    newer = Schema(
        "test", "t_meta", {**steps, 2: ("ALTER TABLE t_rows ADD COLUMN m int DEFAULT 1",)}
    )
    at_once(4, lambda i: PostgresDatabase(dsn, newer).connect(create=False).close())
    assert raw(dsn, "SELECT n, m FROM t_rows") == [(7, 1)]
    assert raw(dsn, "SELECT value FROM t_meta WHERE key = 'schema_version'") == [("2",)]


def test_a_schema_change_waits_for_the_one_in_progress_and_is_not_made_again(dsn: str) -> None:
    """Given a process holding the schema's advisory lock while it makes the schema, when another
    opens the empty database to create it, then the other waits on that lock, and once the first
    has made the schema and let go, reads the schema afresh and makes nothing twice
    (postgres_database: ``ensure_schema``; docs/scaling.md, several arbiters on one database)."""
    import psycopg

    app = f"locktest{secrets.token_hex(4)}"  # a lock of its own: hashtext(app) is database-wide
    schema = Schema(app, "t_meta", {1: ("CREATE TABLE t_meta (key text PRIMARY KEY, value text)",)})
    errors: list[BaseException] = []

    def other() -> None:
        try:
            PostgresDatabase(dsn, schema).connect(create=True).close()
        except BaseException as exc:  # the assertion below says which
            errors.append(exc)

    with psycopg.connect(dsn, autocommit=True) as first:
        first.execute("SELECT pg_advisory_lock(hashtext(%s))", (app,))
        waiting = threading.Thread(target=other)
        waiting.start()
        deadline = time.monotonic() + 30
        while not raw(dsn, "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"):
            assert waiting.is_alive() and time.monotonic() < deadline, "the other did not wait"
            time.sleep(0.02)
        assert raw(dsn, "SELECT to_regclass('t_meta')") == [(None,)]
        PostgresDatabase(dsn, schema).ensure_schema(first, create=True)  # the lock is reentrant
        first.execute("SELECT pg_advisory_unlock(hashtext(%s))", (app,))
    waiting.join(timeout=30)
    assert not waiting.is_alive() and errors == []
    assert raw(dsn, "SELECT key, value FROM t_meta ORDER BY key") == [
        ("app", app),
        ("schema_version", "1"),
    ]


def test_a_version_1_vault_gains_the_range_index_and_keeps_its_openings(dsn: str) -> None:
    """Given vault tables of version 1 (no index on the openings' (game, seq)), when the vault
    is opened, then it gains the index and its openings read as a range."""
    vault = PostgresVault(dsn, create=True)
    vault.put_openings([Opening("a" * 64, "g", 2, '{"card":"red.x.1"}', {"card": "red"})])
    vault.close()
    raw(dsn, "DROP INDEX vault_openings_by_seq")
    raw(dsn, "UPDATE vault_meta SET value = '1' WHERE key = 'schema_version'")
    again = PostgresVault(dsn)
    assert again.clears_between("g", 1, 5) == {"a" * 64: '{"card":"red.x.1"}'}
    again.close()
    assert raw(dsn, "SELECT to_regclass('vault_openings_by_seq') IS NOT NULL") == [(True,)]
    assert raw(dsn, "SELECT value FROM vault_meta WHERE key = 'schema_version'") == [("2",)]


def test_an_upgrade_the_role_may_not_make_says_who_can(dsn: str, postgres: Cluster) -> None:
    """Given a version-1 vault whose tables another role owns, and an arbiter's role granted
    only their rows (docs/scaling.md), when that role opens it, then one line says that the
    tables' owner must run warlog once; after the owner has, the role opens it."""
    vault = PostgresVault(dsn, create=True)
    vault.put_openings([Opening("a" * 64, "g", 2, '{"card":"red.x.1"}', {"card": "red"})])
    vault.close()
    raw(dsn, "DROP INDEX vault_openings_by_seq")
    raw(dsn, "UPDATE vault_meta SET value = '1' WHERE key = 'schema_version'")
    role = f"arbiter_{next(_ROLES)}"
    schema = raw(dsn, "SELECT current_schema()")[0][0]
    raw(dsn, f"CREATE ROLE {role} LOGIN")
    raw(dsn, f'GRANT USAGE ON SCHEMA "{schema}" TO {role}')
    raw(dsn, f'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "{schema}" TO {role}')
    as_role = dsn.replace(f"{SUPERUSER}@", f"{role}@", 1)
    with pytest.raises(StoreError) as caught:
        PostgresVault(as_role).clears_between("g", 1, 2)
    assert caught.value.code == "store/upgrade_needs_owner"
    assert "owner" in caught.value.line() and "\n" not in caught.value.line()
    assert raw(dsn, "SELECT value FROM vault_meta WHERE key = 'schema_version'") == [("1",)]
    owner = PostgresVault(dsn)  # the owner opens it: upgraded
    assert owner.clears_between("g", 1, 2) == {"a" * 64: '{"card":"red.x.1"}'}
    owner.close()
    again = PostgresVault(as_role)
    assert again.clears_between("g", 1, 2) == {"a" * 64: '{"card":"red.x.1"}'}
    again.close()


_ROLES = itertools.count()


# ------------------------------------------------------------------ errors


def test_a_server_that_cannot_be_reached_is_one_line_without_the_password(
    tmp_path: Any,
) -> None:
    dsn = f"postgresql://arbiter:hunter2@/warlog?host={tmp_path}&connect_timeout=2"
    with pytest.raises(StoreError) as caught:
        PostgresStore(dsn)
    line = caught.value.line()
    assert caught.value.code == "store/cantopen" and "\n" not in line
    assert "hunter2" not in line and "postgresql://arbiter@/warlog" in line
    assert redacted("postgresql://a:secret@db.example:5433/w?sslmode=require") == (
        "postgresql://a@db.example:5433/w"
    )


def test_text_postgresql_cannot_hold_is_refused_with_nothing_appended(
    opened: Callable[..., PostgresStore],
) -> None:
    store = opened()
    store.create_game(GameInfo("g", "test"), [event(1)])
    for bad in (Pending("thing", '{"n":"\x00"}', AT), Pending("thing\x00", "{}", AT)):
        with pytest.raises(InputError) as caught:
            store.append("g", [event(2), bad], 1)
        assert caught.value.code == "input/bad_event" and "\n" not in str(caught.value)
        assert store.head("g")[0] == 1


def test_a_game_whose_first_batch_postgresql_cannot_hold_is_not_created(
    opened: Callable[..., PostgresStore],
) -> None:
    """Given a first batch whose second event holds a NUL (text PostgreSQL refuses only when
    it inserts the row), when the game is created, then InputError and nothing is stored, not
    even its catalogue row, as the contract's refused creation promises: the id stays free."""
    store = opened()
    with pytest.raises(InputError) as caught:
        store.create_game(GameInfo("g", "test"), [event(1), Pending("thing", '{"n":"\x00"}', AT)])
    assert caught.value.code == "input/bad_event"
    assert store.games() == []
    assert raw(store.dsn, "SELECT count(*) FROM games") == [(0,)]
    assert store.create_game(GameInfo("g", "test"), [event(1)])[0].seq == 1


def test_a_lost_connection_is_made_again_on_the_next_call(
    dsn: str, opened: Callable[..., PostgresStore]
) -> None:
    store = opened()
    store.create_game(GameInfo("g", "test"), [event(1)])
    pid = store._conn.info.backend_pid
    raw(dsn, "SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(StoreError):  # the call that meets the dead connection says so
        store.append("g", [event(2)], 1)
    assert store.append("g", [event(2)], 1)[0].seq == 2  # and the next one works


# ------------------------------------------------------------------ other processes' appends


def hearing(store: PostgresStore) -> tuple[list[tuple[str, int, int]], threading.Event]:
    """What ``store``'s follower hears of other processes' appends, ``(game, first, last)``,
    and an event set when it hears the first; returned once it listens."""
    heard: list[tuple[str, int, int]] = []
    got = threading.Event()

    def on_append(game: str, first: int, last: int) -> None:
        heard.append((game, first, last))
        got.set()

    store.follow(on_append, lambda: None)
    assert store._follower is not None and store._follower.listening.wait(10)
    return heard, got


def test_follow_announces_other_stores_batches_after_commit_and_not_its_own(
    opened: Callable[..., PostgresStore],
) -> None:
    mine, theirs = opened(), opened()
    heard, got = hearing(mine)
    mine.create_game(GameInfo("g", "test"), [event(1)])  # its own: not announced to it
    theirs.append("g", [event(2), event(3)], 1)
    assert got.wait(10)
    time.sleep(0.2)  # anything else would have arrived by now
    assert heard == [("g", 2, 3)]
    assert [r.seq for r in mine.read("g", 2)] == [2, 3]  # readable once announced


def test_a_follower_hears_nothing_of_another_schemas_appends(
    postgres: Cluster, opened: Callable[..., PostgresStore]
) -> None:
    """Given two warlog schemas in one database (two tournaments), both with a game g, when a
    store of the other schema appends to its g and then one of this schema appends to this g,
    then the follower hears this schema's append only: announcements go on the channel
    ``warlog:<schema>`` (docs/scaling.md, "Several arbiters behind a load balancer")."""
    mine, theirs = opened(), opened()
    elsewhere = PostgresStore(postgres.new_schema(), create=True)
    try:
        heard, got = hearing(mine)
        elsewhere.create_game(GameInfo("g", "test"), [event(1)])
        elsewhere.append("g", [event(2), event(3), event(4)], 1)
        mine.create_game(GameInfo("g", "test"), [event(1)])
        theirs.append("g", [event(2)], 1)
        assert got.wait(10)
        time.sleep(0.2)  # anything else would have arrived by now
        assert heard == [("g", 2, 2)]
    finally:
        elsewhere.close()


def test_a_follower_that_lost_its_connection_says_so_when_it_is_back(
    dsn: str, opened: Callable[..., PostgresStore]
) -> None:
    store = opened()
    gaps = threading.Event()
    store.follow(lambda *_: None, gaps.set)
    follower = store._follower
    assert follower is not None and follower.listening.wait(10)
    raw(
        dsn,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%%'",
        (),
    )
    assert gaps.wait(10)


def follow_after_notes(
    dsn: str, opened: Callable[..., PostgresStore], *payloads: str
) -> list[tuple[str, int, int]]:
    """What a follower hears of another store's append to g after ``payloads`` were NOTIFYed on
    its channel by someone else (any role that can connect may NOTIFY)."""
    mine, theirs = opened(), opened()
    heard, got = hearing(mine)
    mine.create_game(GameInfo("g", "test"), [event(1)])
    for payload in payloads:
        raw(dsn, "SELECT pg_notify(%s, %s)", (mine.channel, payload))
    theirs.append("g", [event(2), event(3)], 1)
    got.wait(10)
    time.sleep(0.2)  # anything else would have arrived by now
    return heard


def test_someone_elses_notes_on_the_channel_are_passed_over(
    dsn: str, opened: Callable[..., PostgresStore]
) -> None:
    """Given NOTIFYs on the store's channel that are not announcements (not JSON, a number, a
    list of two, an object), when another store then appends, then the follower hears that
    append and nothing else: a server's feeds keep learning of other processes' appends
    (docs/scaling.md, "Several arbiters behind a load balancer")."""
    assert follow_after_notes(dsn, opened, "not json", "5", "[1, 2]", '{"a": 1}') == [("g", 2, 3)]


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_note_shaped_like_an_announcement_but_not_one_does_not_stop_the_follower(
    dsn: str, opened: Callable[..., PostgresStore]
) -> None:
    """Given a NOTIFY on the store's channel of four values whose seqs are not numbers (any
    role that can connect may send one, the players' role of docs/scaling.md too), when
    another store then appends, then the follower still hears that append."""
    assert follow_after_notes(dsn, opened, '["someone", "g", "x", null]') == [("g", 2, 3)]


# ------------------------------------------------------------------ nothing secret


def test_nothing_secret_reaches_the_events_tables(dsn: str) -> None:
    """Given a game whose key and an opening are kept, then no row of meta, games or events
    holds the seed or the clear value: only the vault's tables do."""
    store = PostgresStore(dsn, create=True)
    store.create_game(
        GameInfo("g", "test"), [Pending("thing", '{"card":{"sealed":"' + "a" * 64 + '"}}', AT)]
    )
    vault = PostgresVault(dsn, create=True)
    commitment = hashlib.sha256(SEED).hexdigest()
    vault.put_key(commitment, SEED, "g")
    vault.put_openings(
        [Opening("a" * 64, "g", 1, '{"card":"red.secret-weapon.1"}', {"card": "red"})]
    )
    store.close()
    vault.close()

    events = "".join(str(raw(dsn, f"SELECT * FROM {t}")) for t in ("meta", "games", "events"))
    for secret in (SEED.hex(), repr(SEED)[2:-1], "secret-weapon"):
        assert secret not in events
    assert raw(dsn, "SELECT seed FROM vault_keys") == [(SEED,)]
    assert "secret-weapon" in raw(dsn, "SELECT clear FROM vault_openings")[0][0]


def test_a_doctored_snapshot_in_the_vault_tables_is_passed_over(dsn: str) -> None:
    """Given snapshots at 4 and 8, the one at 8 rewritten in vault_snapshots behind the
    vault's back, when the newest at 10 is asked for, then the doctored one fails its MAC and
    the intact 4 is used, as from the SQLite key file (test_vault_contract's
    test_a_doctored_snapshot_is_passed_over): a snapshot is trusted only when its MAC checks."""
    vault = PostgresVault(dsn, create=True)
    vault.put_snapshot("g", 4, "v1", b"honest")
    vault.put_snapshot("g", 8, "v1", b"honest too")
    vault.close()
    raw(dsn, "UPDATE vault_snapshots SET state = %s WHERE seq = 8", (b"doctored",))
    again = PostgresVault(dsn)
    try:
        assert again.latest_snapshot([("g", 1, None)], 10, "v1") == (4, b"honest")
    finally:
        again.close()


def test_a_uri_whose_port_cannot_be_read_is_named_without_any_part_of_it() -> None:
    """Given a database URI whose port is out of range, when a store opens it, then the one
    line names the database as ``postgresql://…``: its parts cannot be told apart safely, so
    none of them, the password least, is shown."""
    with pytest.raises(StoreError) as caught:
        PostgresStore("postgresql://arbiter:hunter2@127.0.0.1:99999/warlog")
    line = caught.value.line()
    assert "\n" not in line and "hunter2" not in line
    assert "database postgresql://… " in line


def test_a_uri_psycopg_cannot_parse_is_one_line_without_the_password() -> None:
    """Given a database URI whose IPv6 host lacks its closing bracket, when a store opens it,
    then the one line shows psycopg's reason with the URI it quotes as ``postgresql://…``: the
    password is never shown (psycopg quotes the URI whole)."""
    with pytest.raises(StoreError) as caught:
        PostgresStore("postgresql://arbiter:hunter2@[::1/warlog")
    assert caught.value.line() == (
        "error[store/unavailable]: database postgresql://…: end of string reached when looking "
        'for matching "]" in IPv6 host address in URI: "postgresql://…"'
    )


def with_settings(dsn: str, **settings: str) -> str:
    """``dsn`` whose sessions run with these server settings (as ``ALTER ROLE … SET`` would
    give them: the database's own behaviour, no stand-in)."""
    parts = urlsplit(dsn)
    query = dict(parse_qsl(parts.query))
    given = [query.get("options", ""), *(f"-c {k}={v}" for k, v in settings.items())]
    query["options"] = " ".join(given).strip()
    return urlunsplit(parts._replace(query=urlencode(query, quote_via=quote)))


def a_game_of_one_event(dsn: str) -> None:
    store = PostgresStore(dsn, create=True)
    store.create_game(GameInfo("g", "test"), [event(1)])
    store.close()


def test_a_database_whose_sessions_are_read_only_refuses_an_append_in_one_line(dsn: str) -> None:
    """Given a database whose sessions may not write (default_transaction_read_only, as on a
    hot standby), when a game is appended to, then it is one line, store/read_only, and
    nothing is appended: the game still reads to its one event."""
    a_game_of_one_event(dsn)
    read_only = with_settings(dsn, default_transaction_read_only="on")
    store = PostgresStore(read_only)
    try:
        with pytest.raises(StoreError) as caught:
            store.append("g", [event(2)], 1)
        assert caught.value.code == "store/read_only"
        assert caught.value.message.startswith(
            f"database {redacted(read_only)} is read-only (cannot execute "
        )
        assert [r.seq for r in store.read("g")] == [1]
    finally:
        store.close()


@pytest.mark.parametrize(
    ("setting", "reason"),
    [
        ("lock_timeout", "canceling statement due to lock timeout"),
        ("statement_timeout", "canceling statement due to statement timeout"),
    ],
)
def test_a_table_locked_past_the_sessions_timeout_is_busy_in_one_line(
    dsn: str, setting: str, reason: str
) -> None:
    """Given the events table locked by another session (a referee's maintenance, say) and
    sessions that wait on it no longer than their lock or statement timeout, when a game is
    appended to, then it is one line, store/locked, naming PostgreSQL's reason, and nothing is
    appended."""
    import psycopg

    a_game_of_one_event(dsn)
    waiting = with_settings(dsn, **{setting: "200ms"})
    store = PostgresStore(waiting)
    holder = psycopg.connect(dsn)
    try:
        holder.execute("LOCK TABLE events IN ACCESS EXCLUSIVE MODE")
        with pytest.raises(StoreError) as caught:
            store.append("g", [event(2)], 1)
        line = caught.value.line()
        assert line.startswith(
            f"error[store/locked]: database {redacted(waiting)} is busy ({reason}"
        )
        assert line.endswith("); nothing was written") and "\n" not in line
        holder.rollback()
        assert [r.seq for r in store.read("g")] == [1]
    finally:
        holder.close()
        store.close()


@pytest.mark.parametrize(
    ("sqlstate", "message"),
    [
        ("disk_full", "could not extend file: No space left on device"),
        ("out_of_memory", "out of memory"),
    ],
)
def test_a_server_out_of_space_refuses_an_append_in_one_line(
    dsn: str, sqlstate: str, message: str
) -> None:
    """Given a server that runs out of disk or memory as a game's rows are inserted (a trigger
    raises PostgreSQL's own SQLSTATE for it, 53100 or 53200, at the insert that would meet
    it), when the game is appended to, then it is one line, store/disk_full, and nothing is
    appended."""
    a_game_of_one_event(dsn)
    raw(
        dsn,
        "CREATE FUNCTION out_of_space() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        f"RAISE EXCEPTION '{message}' USING ERRCODE = '{sqlstate}'; END $$",
    )
    raw(dsn, "CREATE TRIGGER out_of_space BEFORE INSERT ON events EXECUTE FUNCTION out_of_space()")
    store = PostgresStore(dsn)
    try:
        with pytest.raises(StoreError) as caught:
            store.append("g", [event(2)], 1)
        line = caught.value.line()
        assert line.startswith(
            f"error[store/disk_full]: database {redacted(dsn)}: the server is out of space "
            f"({message}"
        )
        assert line.endswith("); nothing was written") and "\n" not in line
        assert [r.seq for r in store.read("g")] == [1]
    finally:
        store.close()


@pytest.mark.parametrize(
    "quoted",
    [
        'URI "postgresql://arbiter:hunter2@[::1/warlog" refused',
        "cannot reach postgres://arbiter:hunter2@db.example/warlog",
    ],
)
def test_a_driver_message_quoting_a_uri_keeps_its_password_out(quoted: str) -> None:
    """Given a driver's message that quotes the URI, whole or another form of it, when it is
    made the one line, then the password is shown as ``…`` wherever it stood."""
    line = scrubbed(quoted, "postgresql://arbiter:hunter2@[::1/warlog", "postgresql://…")
    assert "hunter2" not in line and "…" in line


def test_a_schema_version_that_is_no_number_is_not_ours(
    dsn: str, opened: Callable[..., PostgresStore]
) -> None:
    """Given a warlog schema whose version mark was edited into ``x``, when a store opens it,
    then it is refused as not warlog's (``store/not_warlog``) and the mark is left as it is."""
    opened().close()
    raw(dsn, "UPDATE meta SET value = 'x' WHERE key = 'schema_version'")
    with pytest.raises(StoreError) as caught:
        opened()
    assert caught.value.code == "store/not_warlog"
    assert raw(dsn, "SELECT value FROM meta WHERE key = 'schema_version'") == [("x",)]


def test_a_fork_at_an_event_its_parents_log_has_lost_is_refused_and_creates_nothing(
    dsn: str, opened: Callable[..., PostgresStore]
) -> None:
    """Given a game whose event 2 was deleted (a damaged log), when a fork of it at 2 is
    created, then one StoreError names the gap and nothing is created: the fork's first event
    would chain on a hash that is not there."""
    store = opened()
    store.create_game(GameInfo("g", "test"), [event(n) for n in range(1, 5)])
    raw(dsn, "DELETE FROM events WHERE game = 'g' AND seq = 2")
    with pytest.raises(StoreError) as caught:
        store.create_game(GameInfo("f", "test", parent="g", fork_at=2), [event(100)])
    assert caught.value.code == "store/corrupt"
    assert "game g has no event 2 (the log has a gap)" in caught.value.line()
    assert [info.game for info in store.games()] == ["g"]


def test_a_seat_token_postgresql_cannot_hold_is_one_line_and_none_of_its_batch_is_kept(
    dsn: str,
) -> None:
    """Given a batch of seat tokens, one of them holding a NUL, when the vault keeps them,
    then one StoreError line and no token of the batch is kept; an empty batch keeps
    nothing."""
    vault = PostgresVault(dsn, create=True)
    try:
        vault.put_tokens([])
        red, bad = SeatToken("id1", "g", "red", "a" * 64), SeatToken("id2", "g", "b\0", "b" * 64)
        with pytest.raises(StoreError) as caught:
            vault.put_tokens([red, bad])
        assert "\n" not in caught.value.line()
        assert (vault.token("id1"), vault.token("id2")) == (None, None)
        assert raw(dsn, "SELECT count(*) FROM vault_tokens") == [(0,)]
    finally:
        vault.close()


def test_a_store_and_a_vault_show_their_database_in_their_repr(
    dsn: str, opened: Callable[..., PostgresStore]
) -> None:
    store, vault = opened(), PostgresVault(dsn, create=True)
    try:
        assert repr(store) == f"PostgresStore({store.path!r})"
        assert repr(vault) == f"PostgresVault({vault.path!r})"
        assert "postgresql://" in store.path
    finally:
        vault.close()
