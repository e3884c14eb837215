"""The fold/snapshot cache an Arbiter holds: folds held, snapshots kept, checked and trusted."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from tests.arbiter.conftest import play, roll
from tests.eventstore.conftest import SEED, fixed_clock
from tests.toy import RULESET, SCENARIO, rulesets
from warlog.arbiter import initial, snapshots
from warlog.arbiter.application import Arbiter
from warlog.arbiter.fold import Folded
from warlog.arbiter.states import States, version_key
from warlog.domain.core.errors import InputError, StoreError
from warlog.eventstore.memory_store import MemoryStore
from warlog.eventstore.sqlite_store import SQLiteStore
from warlog.eventstore.sqlite_vault import SQLiteVault, vault_path
from warlog.eventstore.vault import MemoryVault


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


def kept_snapshots(arb: Arbiter, game: str) -> list[int]:
    """The seqs of the snapshots kept for ``game`` under its rules' version, oldest first."""
    version = version_key(arb.ruleset_of(game))
    lineage = arb.store.lineage(game)
    found = (
        arb.vault.latest_snapshot(lineage, at, version) for at in range(1, arb.head(game)[0] + 1)
    )
    return sorted({f[0] for f in found if f is not None})


def test_a_snapshot_is_kept_at_a_round_start_and_every_k_events_not_after_every_batch(
    tmp_path: Path,
) -> None:
    """Given snapshots every 6 events and a dice race of one-die rolls whose batches end at 5
    (blue's turn), 9 (red's again: round 2 starts), 13 (blue's) and 17 (round 3), when they are
    played, then snapshots are kept at 1 (its creation), at 9 and 17 (round starts) and at 13
    (its batch crosses 12), not after 5 (it crosses nothing, starts no round): a state costs
    O(K) and no more snapshots are written than that (ARCHITECTURE.md, "Storage notes":
    snapshots every K events and at turn starts)."""
    scenario = tmp_path / "race.toml"
    scenario.write_bytes(SCENARIO)
    arb = Arbiter(MemoryStore(), rulesets, clock=fixed_clock(), snapshot_every=6)
    game = arb.new_game("dice-race", str(scenario), game="g1")
    for _ in range(4):
        state = arb.state(game)
        arb.play(game, roll(state.players[state.turn], 1))
    assert arb.head(game)[0] == 17
    assert kept_snapshots(arb, game) == [1, 9, 13, 17]


def test_a_snapshot_filed_under_another_seq_than_the_one_it_holds_is_not_used(
    arb: Arbiter, race: str
) -> None:
    """Given the fold at 13 kept in the vault as the snapshot of event 9 (a damaged or misfiled
    key file row: its MAC checks, and the log holds event 13 with its hash), when a new process
    reads the game at 10, then it does not start from it (that would be the state at 13 told as
    the state at 10): it folds from the log."""
    ruleset = arb.ruleset_of(race)
    at_13 = arb.states.folded(race, 13)
    at_13.initial = arb.states.initial(race)
    arb.vault.put_snapshot(race, 9, version_key(ruleset), snapshots.encode(at_13))
    fresh = States(arb.store, arb.vault, rulesets)
    assert fresh.snapshot(race, 10) is None
    at_10 = fresh.folded(race, 10)
    assert at_10.seq == 10
    assert at_10.state == fresh.fold_records(ruleset, arb.store.read(race, 1, 10)).state


def test_a_snapshot_at_seq_1_whose_event_the_log_holds_with_another_hash_is_not_used(
    arb: Arbiter, race: str
) -> None:
    """Given a snapshot at seq 1 whose MAC checks but whose hash is not the log's event 1 (kept
    for another log of the same game id: a key file beside another database) holding another
    state, when a new process reads the game after its creation, then its state is the one
    ``game_created`` begins, not the snapshot's (``States.created``)."""
    at_1, at_13 = arb.states.folded(race, 1), arb.states.folded(race, 13)
    arb.states.keep_snapshot(race, Folded(1, "f" * 64, at_1.meta, at_13.state))
    fresh = States(arb.store, arb.vault, rulesets)
    created = fresh.created(race)
    assert created is not None and created.state == at_1.state != at_13.state
    assert fresh.folded(race, 1).state == at_1.state


def test_check_snapshots_compares_a_snapshot_one_event_before_another(
    arb: Arbiter, race: str
) -> None:
    """Given the snapshots the game kept (1, 5, 9, 13), agreeing with the log, when another is
    kept at 12, the event just before 13's, with a state that is not the log's, then
    ``check_snapshots`` compares it too and names it: each snapshot a read could start from is
    compared, whatever its neighbours."""
    checked, differing = arb.states.check_snapshots(race)
    assert differing == []
    at_12, at_1 = arb.states.folded(race, 12), arb.states.folded(race, 1)
    arb.states.keep_snapshot(race, Folded(12, at_12.hash, at_12.meta, at_1.state))
    assert arb.states.check_snapshots(race) == (checked + 1, [12])


def test_a_log_folded_without_its_game_created_is_corrupt(arb: Arbiter, race: str) -> None:
    """Given the records of a game from its second event on (its ``game_created`` lost), when
    they are folded, then it is StoreError ``store/corrupt`` naming what is missing, not a fold
    without players or dice."""
    ruleset = arb.ruleset_of(race)
    with pytest.raises(StoreError, match="no game_created event") as told:
        arb.states.fold_records(ruleset, arb.store.read(race, 2, 13))
    assert told.value.code == "store/corrupt"


def test_a_game_read_without_its_key_file_says_the_key_file_lacks_its_sealed_values(
    arb: Arbiter,
) -> None:
    """Given an Armageddon Empires game (its ``game_created`` seals the empires' secrets), when
    a process reads it on the same log with a key file that lacks its openings (the events
    database handed out without its key file), then it is the key file's error, ``store/sealed``,
    naming the event, not "the event does not fold" (``store/corrupt``, which sends a referee
    to look for damage)."""
    game = arb.new_game("armageddon-empires", game="ae")
    without = Arbiter(arb.store, rulesets, vault=MemoryVault())
    with pytest.raises(StoreError, match="holds no clear form of event 1") as told:
        without.state(game)
    assert told.value.code == "store/sealed"


def test_games_created_alike_but_for_their_scenario_each_replay_their_own_initial_state(
    arb: Arbiter, tmp_path: Path
) -> None:
    """Given two dice races that differ only by their target (6 and 4), when a process that has
    built no initial state yet replays each from its log (``fold_log``: replay and audit), then
    each begins from its own scenario's state: the initial states shared between games are
    kept per ``game_created`` (``arbiter/initial.py``)."""
    targets = {}
    for name, target in (("g6", 6), ("g4", 4)):
        scenario = tmp_path / f"{name}.toml"
        scenario.write_bytes(SCENARIO.replace(b"target = 6", f"target = {target}".encode()))
        targets[arb.new_game("dice-race", str(scenario), game=name)] = target
    initial.forget()  # a process that has built none
    fresh = Arbiter(arb.store, rulesets, vault=arb.vault)
    assert {game: fresh.fold_log(game).state.target for game in targets} == targets


def test_a_state_is_read_only_after_an_event_of_the_log(arb: Arbiter, race: str) -> None:
    """Given a game of events 1..13, when its state is asked for after event 0 or 14, then it is
    refused, ``input/bad_seq`` (exit 1), naming the events it has: not the state after some
    other event passed off as that one (``warlog state --at``)."""
    for at in (0, 14):
        with pytest.raises(
            InputError, match=rf"has events 1\.\.13; there is no event {at}"
        ) as told:
            arb.states.folded(race, at)
        assert told.value.code == "input/bad_seq"
    assert arb.states.folded(race, 13).seq == 13


def test_a_snapshot_kept_under_one_version_of_the_rules_is_not_read_under_another(
    arb: Arbiter, race: str
) -> None:
    """Given a dice race played under version 1 of its rules, with snapshots kept, when a
    warlog that plays only version 2 reads it (the game's version no longer kept: it is read
    under the rules there are), then no snapshot version 1 folded is started from: the state
    is version 2's fold of the log (ARCHITECTURE.md, "Storage notes": snapshots carry the
    ruleset version)."""

    class DiceRaceV2(type(RULESET)):  # type: ignore[misc]
        version = "2"

    later = DiceRaceV2()
    assert arb.vault.latest_snapshot(arb.store.lineage(race), 13, version_key(RULESET))
    upgraded = States(arb.store, arb.vault, lambda name: later)
    assert upgraded.loaded(race).ruleset is later
    assert upgraded.snapshot(race, 13) is None
    assert upgraded.folded(race).state == upgraded.fold_log(race).state
