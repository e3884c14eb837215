"""The vault contract: keys, openings, snapshots and seat tokens kept beside the log, never in it.

One test class, run against each vault (the in-memory one, the SQLite key file and the
PostgreSQL vault tables, in a schema of their own in the session's throwaway cluster).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.eventstore.sqlite_helpers import (
    Hooked,
    as_bound_user,
    hook_connections,
    keep_a_key,
    once,
    raising,
    sqlite_error,
)
from warlog.domain.core.errors import ConflictError, StoreError
from warlog.eventstore.lineage import Segment
from warlog.eventstore.postgres_vault import PostgresVault
from warlog.eventstore.records import GameInfo, Pending
from warlog.eventstore.sqlite_store import SQLiteStore
from warlog.eventstore.sqlite_vault import VAULT_SCHEMA_VERSION, SQLiteVault, vault_path
from warlog.eventstore.vault import MemoryVault, Opening, SeatToken, Vault

SEED = bytes(range(32))
COMMITMENT = hashlib.sha256(SEED).hexdigest()


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def vault(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Vault]:
    if request.param == "memory":
        yield MemoryVault()
        return
    opened: SQLiteVault | PostgresVault
    if request.param == "postgres":
        opened = PostgresVault(request.getfixturevalue("postgres").new_schema(), create=True)
    else:
        opened = SQLiteVault(vault_path(tmp_path / "w.db"), create=True)
    yield opened
    opened.close()


def opening(hash_: str, seq: int = 2) -> Opening:
    return Opening(hash_, "g", seq, '{"card":"red.x.1"}', {"card": "red"})


LINE: list[Segment] = [("g", 1, None)]


class TestVaultContract:
    def test_discard_forgets_a_key_and_openings_and_nothing_else(self, vault: Vault) -> None:
        # given a key and three openings, when a refused game's key and two openings are
        # discarded, then those are gone and the third stays
        vault.put_key(COMMITMENT, SEED, "g")
        vault.put_openings([opening("a" * 64, 2), opening("b" * 64, 3), opening("c" * 64, 4)])
        vault.discard(COMMITMENT, ["a" * 64, "b" * 64])
        assert vault.key(COMMITMENT) is None
        assert vault.opening("a" * 64) is None and vault.opening("b" * 64) is None
        assert vault.clears_between("g", 1, 9) == {"c" * 64: '{"card":"red.x.1"}'}
        vault.discard(None, [])  # nothing to take back: nothing happens
        assert vault.opening("c" * 64) is not None

    def test_a_key_is_found_by_its_commitment_and_never_replaced(self, vault: Vault) -> None:
        vault.put_key(COMMITMENT, SEED, "g")
        vault.put_key(COMMITMENT, b"x" * 32, "g")  # a second writer cannot replace it
        assert vault.key(COMMITMENT) == SEED
        assert vault.key("0" * 64) is None

    def test_a_key_that_is_not_the_seed_committed_to_is_refused_as_corrupt(
        self, vault: Vault
    ) -> None:
        # given a damaged store, which holds another seed under the commitment
        vault.put_key(COMMITMENT, b"x" * 32, "g")
        # when the key is read, then it is refused, never handed to the dice
        with pytest.raises(StoreError, match="is not the seed committed to") as refused:
            vault.key(COMMITMENT)
        assert refused.value.code == "store/corrupt"

    def test_openings_are_found_by_the_events_hash(self, vault: Vault) -> None:
        vault.put_openings([opening("a" * 64), opening("b" * 64, seq=3)])
        assert vault.opening("a" * 64) == opening("a" * 64)
        assert vault.opening("b" * 64) == opening("b" * 64, seq=3)
        assert vault.opening("c" * 64) is None

    def test_clear_forms_are_found_many_at_once(self, vault: Vault) -> None:
        vault.put_openings([opening(f"{i:064x}", seq=i) for i in range(1, 1200)])
        wanted = [f"{i:064x}" for i in range(0, 1300, 3)]
        found = vault.clears(wanted)
        assert set(found) == {f"{i:064x}" for i in range(3, 1200, 3)}
        assert set(found.values()) == {'{"card":"red.x.1"}'}
        assert vault.clears([]) == {}
        openings = vault.openings(wanted)
        assert set(openings) == set(found)
        assert all(openings[h] == opening(h, seq=int(h, 16)) for h in openings)
        assert vault.openings([]) == {}

    def test_clear_forms_are_read_as_a_range_of_one_games_events(self, vault: Vault) -> None:
        """Given openings of two games, one kept twice (a hash appended under another game
        replaces its opening), then a range read gives each game's own, by hash, and nothing
        outside the range."""
        vault.put_openings([opening(f"{i:064x}", seq=i) for i in range(1, 40)])
        other = Opening("f" * 64, "h", 5, '{"card":"blue.y.1"}', {"card": "blue"})
        vault.put_openings([other, Opening(f"{7:064x}", "h", 7, '{"card":"red.x.1"}', {})])
        assert vault.clears_between("g", 3, 9) == {
            f"{i:064x}": '{"card":"red.x.1"}' for i in (3, 4, 5, 6, 8, 9)
        }
        assert vault.clears_between("h", 1, 100) == {
            "f" * 64: '{"card":"blue.y.1"}',
            f"{7:064x}": '{"card":"red.x.1"}',
        }
        assert vault.clears_between("g", 40, 50) == {}
        assert vault.clears_between("nobody", 1, 50) == {}

    def test_the_latest_snapshot_is_the_newest_at_or_before_the_seq(self, vault: Vault) -> None:
        vault.put_snapshot("g", 4, "v1", b"four")
        vault.put_snapshot("g", 8, "v1", b"eight")
        assert vault.latest_snapshot(LINE, 3, "v1") is None
        assert vault.latest_snapshot(LINE, 4, "v1") == (4, b"four")
        assert vault.latest_snapshot(LINE, 7, "v1") == (4, b"four")
        assert vault.latest_snapshot(LINE, 99, "v1") == (8, b"eight")

    def test_snapshots_are_kept_per_version_and_overwritten(self, vault: Vault) -> None:
        vault.put_snapshot("g", 4, "v1", b"old rules")
        vault.put_snapshot("g", 6, "v2", b"new rules")
        vault.put_snapshot("g", 6, "v2", b"newer")
        assert vault.latest_snapshot(LINE, 10, "v1") == (4, b"old rules")
        assert vault.latest_snapshot(LINE, 10, "v2") == (6, b"newer")
        assert vault.latest_snapshot(LINE, 10, "v3") is None

    def test_a_fork_uses_its_parents_snapshots_up_to_the_fork_point(self, vault: Vault) -> None:
        vault.put_snapshot("p", 3, "v1", b"p3")
        vault.put_snapshot("p", 8, "v1", b"p8")
        fork: list[Segment] = [("p", 1, 5), ("f", 6, None)]
        assert vault.latest_snapshot(fork, 10, "v1") == (3, b"p3")  # never the parent's 8
        vault.put_snapshot("f", 7, "v1", b"f7")
        assert vault.latest_snapshot(fork, 10, "v1") == (7, b"f7")
        assert vault.latest_snapshot([("p", 1, None)], 10, "v1") == (8, b"p8")

    def test_a_fork_read_below_its_fork_point_uses_no_parent_snapshot_after_that_seq(
        self, vault: Vault
    ) -> None:
        """Given a fork of p at 5 and p's snapshots at 2 and 4, when the fork's state at 3 is
        looked for, then it starts from 2: a snapshot after the seq asked for would be taken
        as the state at that seq (its MAC and its hash in the log both check)."""
        vault.put_snapshot("p", 2, "v1", b"p2")
        vault.put_snapshot("p", 4, "v1", b"p4")
        fork: list[Segment] = [("p", 1, 5), ("f", 6, None)]
        assert vault.latest_snapshot(fork, 3, "v1") == (2, b"p2")
        assert vault.latest_snapshot(fork, 1, "v1") is None

    def test_a_seat_token_is_found_by_its_id(self, vault: Vault) -> None:
        red, blue = SeatToken("id1", "g", "red", "a" * 64), SeatToken("id2", "g", "blue", "b" * 64)
        vault.put_tokens([red, blue])
        assert vault.token("id1") == red
        assert vault.token("id2") == blue
        assert vault.token("id3") is None

    def test_a_seat_token_is_never_replaced_and_a_batch_is_all_or_none(self, vault: Vault) -> None:
        vault.put_tokens([SeatToken("id1", "g", "red", "a" * 64)])
        with pytest.raises(ConflictError):
            vault.put_tokens(
                [SeatToken("id2", "h", "red", "c" * 64), SeatToken("id1", "h", "blue", "d" * 64)]
            )
        assert vault.token("id1") == SeatToken("id1", "g", "red", "a" * 64)
        assert vault.token("id2") is None


def test_a_version_1_key_file_gains_the_tokens_table_and_keeps_its_keys(tmp_path: Path) -> None:
    """Given a key file written before seat tokens existed (schema 1), when it is opened, then
    it is brought to the current schema and its keys and openings are still there."""
    path = version_1_key_file(tmp_path)
    again = SQLiteVault(path)
    assert again.key(COMMITMENT) == SEED
    again.put_tokens([SeatToken("id1", "g", "red", "a" * 64)])
    assert again.token("id1") == SeatToken("id1", "g", "red", "a" * 64)
    again.close()
    conn = sqlite3.connect(path)
    version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    assert version == (str(VAULT_SCHEMA_VERSION),)
    conn.close()


def version_1_key_file(tmp_path: Path) -> str:
    """The path of a key file holding ``SEED`` under ``COMMITMENT`` as schema 1 wrote it: no
    seat tokens, no openings index."""
    path = vault_path(tmp_path / "w.db")
    old = SQLiteVault(path, create=True)
    old.put_key(COMMITMENT, SEED, "g")
    old.close()
    conn = sqlite3.connect(path)
    conn.execute("DROP INDEX openings_by_seq")
    conn.execute("DROP TABLE tokens")
    conn.commit()
    conn.close()
    mark_schema(path, "1")
    return path


def mark_schema(path: str, version: str) -> None:
    """Write ``version`` as the key file's schema version, as another warlog would have."""
    import sqlite3

    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (version,))
    conn.commit()
    conn.close()


def test_a_version_2_key_file_gains_the_range_index_and_keeps_its_openings(
    tmp_path: Path,
) -> None:
    """Given a key file written before openings were read by range (schema 2, no index on
    (game, seq)), when it is opened, then it gains the index and its openings read as a range."""
    import sqlite3

    path = vault_path(tmp_path / "w.db")
    old = SQLiteVault(path, create=True)
    old.put_openings([opening("a" * 64, seq=2), opening("b" * 64, seq=5)])
    old.close()
    conn = sqlite3.connect(path)
    conn.execute("DROP INDEX openings_by_seq")
    conn.commit()
    conn.close()
    mark_schema(path, "2")
    again = SQLiteVault(path)
    assert again.clears_between("g", 1, 4) == {"a" * 64: opening("a" * 64).clear}
    again.close()
    conn = sqlite3.connect(path)
    indexes = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert "openings_by_seq" in indexes
    conn.close()


def test_a_key_file_set_back_to_version_2_with_its_index_still_opens(tmp_path: Path) -> None:
    """Given a version-3 key file marked version 2 again (for an older warlog) that kept its
    range index, when it is opened, then it is brought to version 3 without an error."""
    path = vault_path(tmp_path / "w.db")
    old = SQLiteVault(path, create=True)
    old.put_openings([opening("a" * 64, seq=2)])
    old.close()
    mark_schema(path, "2")
    again = SQLiteVault(path)
    assert again.clears_between("g", 1, 4) == {"a" * 64: opening("a" * 64).clear}
    again.close()


def test_a_key_file_of_a_newer_warlog_asks_for_an_upgrade(tmp_path: Path) -> None:
    """Given a key file of a schema version newer than this warlog's, when it is opened, then
    it is refused in one line that says to upgrade warlog, and left as it was."""
    path = vault_path(tmp_path / "w.db")
    vault = SQLiteVault(path, create=True)
    vault.put_openings([opening("a" * 64, seq=2)])
    vault.close()
    mark_schema(path, str(VAULT_SCHEMA_VERSION + 1))
    before = Path(path).read_bytes()
    with pytest.raises(StoreError) as caught:
        SQLiteVault(path).key(COMMITMENT)
    assert caught.value.code == "store/schema_version"
    assert "upgrade warlog" in caught.value.line() and "\n" not in caught.value.line()
    assert Path(path).read_bytes() == before


@pytest.mark.parametrize(
    ("key", "value"),
    [("schema_version", "three"), ("app", "someone-else")],
    ids=["version-not-a-number", "another-application"],
)
def test_a_key_file_whose_meta_is_not_warlogs_is_refused_untouched(
    tmp_path: Path, key: str, value: str
) -> None:
    """Given a key file whose schema version is no number, or whose application is another's
    at warlog's very version, when it is opened, then it is refused in one line (exit 1) and
    left as it was: its keys are read only under the schema check."""
    import sqlite3

    path = vault_path(tmp_path / "w.db")
    vault = SQLiteVault(path, create=True)
    vault.put_key(COMMITMENT, SEED, "g")
    vault.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = ? WHERE key = ?", (value, key))
    conn.commit()
    conn.close()
    before = Path(path).read_bytes()
    with pytest.raises(StoreError) as caught:
        SQLiteVault(path).key(COMMITMENT)
    assert (caught.value.code, caught.value.exit_code) == ("store/not_warlog", 1)
    assert caught.value.line() == f"error[store/not_warlog]: {path} is not a warlog key file"
    assert Path(path).read_bytes() == before


def test_a_doctored_snapshot_is_passed_over(tmp_path: Path) -> None:
    """Given a snapshot rewritten behind the vault's back, when the newest is asked for, then
    the doctored one fails its MAC and an older intact one is used."""
    vault = SQLiteVault(vault_path(tmp_path / "w.db"), create=True)
    vault.put_snapshot("g", 4, "v1", b"honest")
    vault.put_snapshot("g", 8, "v1", b"honest too")
    vault.close()
    import sqlite3

    conn = sqlite3.connect(vault_path(tmp_path / "w.db"))
    conn.execute("UPDATE snapshots SET state = ? WHERE seq = 8", (b"doctored",))
    conn.commit()
    conn.close()
    again = SQLiteVault(vault_path(tmp_path / "w.db"))
    assert again.latest_snapshot(LINE, 10, "v1") == (4, b"honest")


def test_the_key_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    vault = SQLiteVault(vault_path(tmp_path / "w.db"), create=True)
    vault.put_key(COMMITMENT, SEED, "g")
    mode = stat.S_IMODE(os.stat(vault_path(tmp_path / "w.db")).st_mode)
    assert mode == 0o600


def test_nothing_secret_reaches_the_events_database(tmp_path: Path) -> None:
    """Given a game whose key and an opening are kept, then the events database file holds
    neither the seed nor the clear value: only the key file does."""
    db = tmp_path / "w.db"
    store = SQLiteStore(db, create=True)
    store.create_game(
        GameInfo("g", "test"), [Pending("thing", '{"card":{"sealed":"' + "a" * 64 + '"}}', "x")]
    )
    vault = SQLiteVault(vault_path(db), create=True)
    vault.put_key(COMMITMENT, SEED, "g")
    vault.put_openings(
        [Opening("a" * 64, "g", 1, '{"card":"red.secret-weapon.1"}', {"card": "red"})]
    )
    store.close()
    vault.close()
    events_bytes = b"".join(
        p.read_bytes() for p in tmp_path.iterdir() if not p.name.startswith("w.db.keys")
    )
    keys_bytes = b"".join(
        p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("w.db.keys")
    )
    for secret in (SEED, b"secret-weapon"):
        assert secret not in events_bytes
        assert secret in keys_bytes


def test_a_missing_key_file_is_one_clear_error_and_is_not_created(tmp_path: Path) -> None:
    vault = SQLiteVault(vault_path(tmp_path / "w.db"))
    assert not vault.available()
    with pytest.raises(StoreError) as caught:
        vault.key(COMMITMENT)
    assert caught.value.code == "store/no_key_file"
    assert "\n" not in caught.value.line()
    assert not Path(vault_path(tmp_path / "w.db")).exists()


# ------------------------------------------------------------------ the key file's faults and races


def _a_second_vault_keeps_the_seed(path: str) -> None:
    """What another process opening the key file at that moment does: keep the game's seed."""
    other = SQLiteVault(path, create=True)
    other.put_key(COMMITMENT, SEED, "g")
    other.close()


def test_a_key_file_another_process_makes_just_before_this_one_is_opened_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given two processes making the key file at once, the other one first between this
    one's look for the file and its creation (the creation, exclusive, then fails with EEXIST:
    the real ``os.open`` raises it here), when this one goes on, then it opens the other's key
    file as it is: owner-only, the other's seed in it, its own kept beside."""
    path = vault_path(tmp_path / "w.db")
    real_open = os.open
    meanwhile = once(lambda: _a_second_vault_keeps_the_seed(path))

    def racing_open(name: Any, flags: int, *args: Any) -> int:
        if os.fspath(name) == path and flags & os.O_EXCL:
            meanwhile()
        return real_open(name, flags, *args)

    monkeypatch.setattr(os, "open", racing_open)
    vault = SQLiteVault(path, create=True)
    other_seed = bytes(32)
    other = hashlib.sha256(other_seed).hexdigest()
    vault.put_key(other, other_seed, "h")
    assert (vault.key(COMMITMENT), vault.key(other)) == (SEED, other_seed)
    vault.close()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_a_key_file_whose_schema_another_process_makes_meanwhile_is_not_made_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given two processes making the key file's schema at once, the other one first between
    this one's look for tables and its write lock, when this one has the lock, then it finds
    the schema made and uses it (no second schema, the other's snapshot MAC key kept)."""
    path = vault_path(tmp_path / "w.db")
    hook_connections(
        monkeypatch, "BEGIN IMMEDIATE", once(lambda: _a_second_vault_keeps_the_seed(path))
    )
    vault = SQLiteVault(path, create=True)
    assert vault.key(COMMITMENT) == SEED
    vault.close()
    monkeypatch.undo()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM meta WHERE key = 'snapshot_mac_key'").fetchone() == (
        1,
    )
    conn.close()


def test_a_key_file_another_process_migrates_meanwhile_is_not_migrated_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a version-1 key file that two processes bring to the current schema at once,
    the other one first between this one's reading of the version and its write lock, when
    this one has the lock, then it skips the step already made and opens the key file."""
    path = version_1_key_file(tmp_path)
    hook_connections(
        monkeypatch, "BEGIN IMMEDIATE", once(lambda: _a_second_vault_keeps_the_seed(path))
    )
    vault = SQLiteVault(path)
    assert vault.key(COMMITMENT) == SEED
    vault.put_tokens([SeatToken("id1", "g", "red", "a" * 64)])
    vault.close()
    monkeypatch.undo()
    conn = sqlite3.connect(path)
    version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    assert version == (str(VAULT_SCHEMA_VERSION),)
    conn.close()


def test_a_key_file_that_cannot_be_made_is_one_line_and_nothing_is_made(shared_dir: Path) -> None:
    """Given a directory a user may not write in, when that user's vault makes its key file
    there, then it is one line, store/cantopen, with the system's reason, and no file is made
    (run as ``nobody`` under root, whom modes do not bind)."""
    path = vault_path(shared_dir / "w.db")
    shared_dir.chmod(0o555)
    result = as_bound_user(shared_dir, keep_a_key, path)
    assert result == (
        "StoreError",
        "store/cantopen",
        f"cannot create the key file {path} (Permission denied)",
    )
    assert list(shared_dir.iterdir()) == []


def test_a_key_file_whose_disk_fills_as_a_key_is_kept_is_one_line_and_keeps_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a key file whose disk fills up as a game's key is kept (SQLite raises
    SQLITE_FULL at the commit that writes it), when the key is put, then it is one line,
    store/disk_full, naming the key file, and the key file holds no key."""
    path = vault_path(tmp_path / "w.db")
    vault = SQLiteVault(path, create=True)
    vault.put_tokens([SeatToken("id1", "g", "red", "a" * 64)])  # the key file is open
    full = sqlite_error("database or disk is full", 13, "SQLITE_FULL")
    monkeypatch.setattr(vault, "_conn", Hooked(vault._conn, "COMMIT", raising(full)))
    with pytest.raises(StoreError) as caught:
        vault.put_key(COMMITMENT, SEED, "g")
    assert (caught.value.code, caught.value.line()) == (
        "store/disk_full",
        f"error[store/disk_full]: database {path}: disk full or file size limit reached "
        "(database or disk is full); nothing was written",
    )
    monkeypatch.undo()
    assert vault.key(COMMITMENT) is None
    vault.close()


def test_a_key_file_vault_shows_its_file_in_its_repr(tmp_path: Path) -> None:
    path = vault_path(tmp_path / "w.db")
    assert repr(SQLiteVault(path)) == f"SQLiteVault({path!r})"
