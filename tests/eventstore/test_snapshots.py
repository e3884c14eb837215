"""Snapshots hold only what changed in play: the fields still equal to the initial state's are
left out and taken back from it, and the state read back is the fold of the prefix."""

from __future__ import annotations

import msgspec
import pytest

from tests.eventstore.conftest import fixed_clock
from warlog.arbiter import initial, snapshots
from warlog.arbiter.application import Arbiter
from warlog.arbiter.autoplay import autoplay
from warlog.arbiter.fold import Folded
from warlog.arbiter.states import version_key
from warlog.domain import rulesets as registry
from warlog.eventstore.memory_store import MemoryStore

BUNDLED = ["armageddon-empires", "battle-for-armageddon", "heroic-battles"]


def played(name: str, commands: int = 60) -> tuple[Arbiter, str]:
    arb = Arbiter(
        MemoryStore(),
        registry.get,
        clock=fixed_clock(),
        seeds=lambda: bytes(range(32)),
        snapshot_every=16,
    )
    game = arb.new_game(name, game="g1")
    autoplay(arb, game, commands)
    return arb, game


def builtins(state: object) -> object:
    return msgspec.to_builtins(state)


@pytest.mark.parametrize("name", BUNDLED)
def test_a_state_read_from_a_snapshot_is_the_fold_of_its_prefix(name: str) -> None:
    arb, game = played(name)
    head, _ = arb.head(game)
    ruleset = arb.ruleset_of(game)
    seen = 0
    for at in range(1, head + 1):
        found = arb.vault.latest_snapshot(arb.store.lineage(game), at, version_key(ruleset))
        if found is None or found[0] != at:
            continue
        seen += 1
        fresh = Arbiter(arb.store, registry.get, vault=arb.vault)
        start = snapshots.decode(
            ruleset.state_type, found[1], lambda a=fresh: a.states.initial(game)
        )
        assert start is not None
        full = fresh.fold_records(ruleset, arb.records(game, 1, at))
        assert (start.seq, start.hash) == (full.seq, full.hash)
        assert builtins(start.state) == builtins(full.state)
        assert builtins(start.meta) == builtins(full.meta)
        assert builtins(fresh.state(game, at)) == builtins(full.state)
    assert seen >= 2


@pytest.mark.parametrize("name", BUNDLED)
def test_a_process_that_has_not_built_the_initial_state_reads_it_from_the_snapshot_at_seq_1(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    arb, game = played(name)
    ruleset = arb.ruleset_of(game)
    monkeypatch.setattr(initial, "_STATES", {})  # as in a new process
    monkeypatch.setattr(initial, "_SCENARIOS", {})
    assert Arbiter(arb.store, registry.get, vault=arb.vault).states.initial(game) is not None
    found = arb.vault.latest_snapshot(arb.store.lineage(game), 1, version_key(ruleset))
    assert found is not None and found[0] == 1

    def never(*_: object) -> None:
        raise AssertionError("the initial state was built again")

    monkeypatch.setattr(initial, "_STATES", {})
    monkeypatch.setattr(ruleset, "initial_state", never)
    head, _ = arb.head(game)
    read = Arbiter(arb.store, registry.get, vault=arb.vault).folded(game)
    monkeypatch.undo()
    whole = Arbiter(arb.store, registry.get, vault=arb.vault).fold_log(game)
    assert (read.seq, read.hash) == (head, whole.hash)
    assert builtins(read.state) == builtins(whole.state)


@pytest.mark.parametrize("name", BUNDLED)
def test_a_young_game_is_read_from_the_snapshot_at_seq_1_written_when_it_was_created(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a game just created and a few commands played (no snapshot every N events due yet)
    arb = Arbiter(MemoryStore(), registry.get, clock=fixed_clock(), seeds=lambda: bytes(16))
    game = arb.new_game(name, game="young")
    autoplay(arb, game, 3)
    ruleset = arb.ruleset_of(game)
    version = version_key(ruleset)
    head, _ = arb.head(game)
    found = arb.vault.latest_snapshot(arb.store.lineage(game), 1, version)
    assert found is not None and found[0] == 1

    # when a new process (nothing built) reads the state at the head
    def never(*_: object) -> None:
        raise AssertionError("the scenario was built again")

    monkeypatch.setattr(initial, "_STATES", {})
    monkeypatch.setattr(initial, "_SCENARIOS", {})
    monkeypatch.setattr(ruleset, "scenario_from_builtins", never)
    monkeypatch.setattr(ruleset, "initial_state", never)
    read = Arbiter(arb.store, registry.get, vault=arb.vault).folded(game)
    monkeypatch.undo()

    # then it started from that snapshot and holds the fold of the whole log
    whole = Arbiter(arb.store, registry.get, vault=arb.vault).fold_log(game)
    assert (read.seq, read.hash) == (head, whole.hash)
    assert builtins(read.state) == builtins(whole.state)
    assert builtins(read.meta) == builtins(whole.meta)


def test_an_armageddon_empires_snapshot_leaves_out_the_map_and_the_cards() -> None:
    arb, game = played("armageddon-empires")
    folded = arb.folded(game)
    full = msgspec.msgpack.encode((folded.seq, folded.hash, folded.meta, folded.state))
    whole = snapshots.encode(Folded(folded.seq, folded.hash, folded.meta, folded.state, None))
    assert msgspec.msgpack.decode(whole)[3] == []  # no initial state to compare with: all kept
    blob = snapshots.encode(folded)
    assert len(blob) < len(full) / 2
    _, _, _, left_out, _ = msgspec.msgpack.decode(blob)
    assert left_out  # the fields fixed by the scenario
    for name in left_out:
        assert getattr(folded.state, name) == getattr(folded.initial, name)


def test_a_snapshot_written_whole_before_fields_were_left_out_still_decodes() -> None:
    arb, game = played("battle-for-armageddon", 20)
    folded = arb.folded(game)
    old = msgspec.msgpack.encode((folded.seq, folded.hash, folded.meta, folded.state))
    read = snapshots.decode(type(folded.state), old, lambda: None)
    assert read is not None
    assert builtins(read.state) == builtins(folded.state)


def test_a_snapshot_that_cannot_be_read_is_not_used() -> None:
    arb, game = played("heroic-battles", 20)
    folded = arb.folded(game)
    state_type = type(folded.state)
    assert snapshots.decode(state_type, b"\x93garbage", lambda: folded.initial) is None
    blob = snapshots.encode(folded)
    seq, hash_, meta, left_out, rest = msgspec.msgpack.decode(blob)
    if left_out:  # the initial state cannot be rebuilt: not used
        assert snapshots.decode(state_type, blob, lambda: None) is None
    unknown = msgspec.msgpack.encode((seq, hash_, meta, [*left_out, "no_such_field"], rest))
    assert snapshots.decode(state_type, unknown, lambda: folded.initial) is None
