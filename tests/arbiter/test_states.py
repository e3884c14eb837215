"""The fold/snapshot cache an Arbiter holds: folds held, snapshots kept, checked and trusted."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from tests.arbiter.conftest import play, roll
from tests.eventstore.conftest import SEED, fixed_clock
from tests.toy import SCENARIO, rulesets
from warlog.arbiter.application import Arbiter
from warlog.arbiter.fold import Folded
from warlog.arbiter.states import States, version_key
from warlog.eventstore.sqlite_store import SQLiteStore
from warlog.eventstore.sqlite_vault import SQLiteVault, vault_path


def test_the_fold_at_the_head_is_held_until_another_writer_moves_the_log_on(
    arb: Arbiter, race: str
) -> None:
    # given the game folded at its head
    states = arb.states
    held = states.folded(race)
    assert states.folded(race) is held
    # when another arbiter on the same store and vault appends a batch
    other = Arbiter(arb.store, rulesets, vault=arb.vault)
    play(other, race, 1)
    # then the fold held is no longer the head's, and the new head is the log's fold
    head, head_hash = arb.store.head(race)
    moved = states.folded(race)
    assert moved is not held and (moved.seq, moved.hash) == (head, head_hash)
    assert moved.state == states.fold_log(race).state


def test_a_snapshot_is_kept_when_a_batch_crosses_every_k_events_and_reads_as_the_log_folds(
    arb: Arbiter, race: str
) -> None:
    # given snapshots every 4 events and batches of 4 after game_created (1, 5, 9, 13 end them)
    ruleset = arb.ruleset_of(race)
    found = arb.vault.latest_snapshot(arb.store.lineage(race), 13, version_key(ruleset))
    assert found is not None
    # then a new process's cache starts from it, and it is the fold of the log's prefix
    fresh = States(arb.store, arb.vault, rulesets)
    snapshot = fresh.snapshot(race, 13)
    assert snapshot is not None and snapshot.seq == found[0]
    prefix = fresh.fold_records(ruleset, arb.store.read(race, 1, snapshot.seq))
    assert (snapshot.hash, snapshot.state) == (prefix.hash, prefix.state)


def test_a_snapshot_that_is_not_the_fold_of_the_log_is_named_by_check_snapshots(
    arb: Arbiter, race: str
) -> None:
    # given every kept snapshot agrees with the log
    checked, differing = arb.states.check_snapshots(race)
    assert checked >= 2 and differing == []
    # when the snapshot at the head is replaced by one with another state
    head = arb.states.folded(race)
    other = arb.states.folded(race, 1)
    arb.states.keep_snapshot(race, Folded(head.seq, head.hash, head.meta, other.state))
    # then it is the one named
    assert arb.states.check_snapshots(race) == (checked, [head.seq])


def test_a_new_process_reads_a_young_game_from_its_snapshot_at_seq_1(
    arb: Arbiter, race: str
) -> None:
    # given the snapshot at seq 1 the game's creation wrote
    version = version_key(arb.ruleset_of(race))
    found = arb.vault.latest_snapshot(arb.store.lineage(race), 1, version)
    assert found is not None and found[0] == 1
    # then a new cache's fold after game_created is it, initial state included
    created = States(arb.store, arb.vault, rulesets).created(race)
    assert created is not None and created.seq == 1 and created.initial is created.state
    assert created.state == arb.states.folded(race, 1).state


def test_a_snapshot_whose_event_the_log_holds_with_another_hash_is_not_used(
    arb: Arbiter, race: str
) -> None:
    """Given a snapshot at seq 9 whose MAC checks but whose hash is not the log's event 9
    (kept for another log of the same game id: a key file beside another database), when a
    new process reads the game at 10, then it folds from the log: a snapshot is a cache the
    log must still hold (ARCHITECTURE.md, "Storage notes")."""
    at_9, at_1 = arb.states.folded(race, 9), arb.states.folded(race, 1)
    arb.states.keep_snapshot(race, Folded(9, "f" * 64, at_9.meta, at_1.state))
    fresh = States(arb.store, arb.vault, rulesets)
    assert fresh.snapshot(race, 10) is None
    assert (
        fresh.folded(race, 10).state
        == fresh.fold_records(arb.ruleset_of(race), arb.store.read(race, 1, 10)).state
    )


def played_on_elsewhere(tmp_path: Path) -> tuple[Arbiter, Folded, Arbiter]:
    """An arbiter holding g1's fold at its head, 13, and another on the same database after it
    lost 10..13 (a backup restored, to be played on elsewhere): the first, the fold it holds,
    the other."""
    path = tmp_path / "warlog.db"
    scenario = tmp_path / "race.toml"
    scenario.write_bytes(SCENARIO)
    arb = Arbiter(
        SQLiteStore(path, create=True),
        rulesets,
        vault=SQLiteVault(vault_path(path), create=True),
        clock=fixed_clock(),
        seeds=lambda: SEED,
    )
    game = arb.new_game("dice-race", str(scenario), game="g1")
    play(arb, game, 3)
    held = arb.folded(game)
    with contextlib.closing(sqlite3.connect(path)) as raw, raw:
        raw.execute("DELETE FROM events WHERE game = 'g1' AND seq > 9")
    return arb, held, Arbiter(SQLiteStore(path), rulesets, vault=SQLiteVault(vault_path(path)))


def test_the_fold_held_at_the_head_gives_way_when_the_log_holds_another_event_at_that_seq(
    tmp_path: Path,
) -> None:
    """Given an arbiter holding g1's fold at its head, 13, when the database loses 10..13 and
    another process plays another batch there (a backup restored and played on), so that the
    log's event 13 is another one, then the arbiter folds the log, not the fold it held:
    every cache gives way to the log (``States.folded``)."""
    arb, held, other = played_on_elsewhere(tmp_path)
    game = "g1"
    state = other.state(game)
    other.play(game, roll(state.players[state.turn], 1))
    head = arb.store.head(game)
    assert head[0] == held.seq == 13 and head[1] != held.hash
    folded = arb.folded(game)
    assert (folded.seq, folded.hash) == head and folded.state == other.state(game)
    assert folded.state != held.state


def test_a_held_fold_gives_way_when_the_log_replaced_under_it_has_grown_past_it(
    tmp_path: Path,
) -> None:
    """Given an arbiter holding g1's fold at 13, when the database loses 10..13 and another
    process plays on past 13 (a backup restored and played on), then neither a read at 13 nor
    one at the head starts from the fold it held: each is the log's."""
    arb, held, other = played_on_elsewhere(tmp_path)
    game = "g1"
    for _ in range(2):
        state = other.state(game)
        other.play(game, roll(state.players[state.turn], 1))
    assert other.store.head(game)[0] > held.seq == 13
    at_13 = arb.folded(game, 13)
    assert at_13.hash != held.hash
    assert at_13.state == other.folded(game, 13).state
    assert arb.folded(game).state == other.state(game)
