"""Reading a game's log: ranges of events, a reader's forms, the engine's meta, progress."""

from __future__ import annotations

import json

import pytest

from tests.toy import rulesets
from warlog.arbiter.application import Arbiter
from warlog.arbiter.autoplay import autoplay
from warlog.arbiter.reads import (
    NO_CLEAR_FORMS,
    PROGRESS_EVERY,
    check_from,
    check_range,
    counted,
    engine_meta,
    forms,
    meta_before,
)
from warlog.arbiter.sealing import PUBLIC, REFEREE
from warlog.domain import rulesets as bundled
from warlog.domain.core.errors import InputError, StoreError
from warlog.domain.core.seal import seals_in
from warlog.eventstore.memory_store import MemoryStore
from warlog.eventstore.vault import MemoryVault


def test_a_range_of_events_must_lie_in_the_game_and_in_order(arb: Arbiter, race: str) -> None:
    check_range(arb.store, race, 1, 13)
    check_range(arb.store, race, 5, None)
    with pytest.raises(InputError, match="--to 4 must be between --from 5 and 13"):
        check_range(arb.store, race, 5, 4)
    with pytest.raises(InputError, match=r"game g1 has events 1\.\.13; --from 14 is outside them"):
        check_range(arb.store, race, 14, None)
    with pytest.raises(InputError, match=r"log\.jsonl has events 1\.\.3; --from 0 is outside"):
        check_from(0, 3, "log.jsonl")


def test_a_long_read_tells_its_progress_every_so_many_records_and_at_the_end() -> None:
    told: list[int] = []
    n = 2 * PROGRESS_EVERY + 7
    assert list(counted(range(n), told.append)) == list(range(n))
    assert told == [PROGRESS_EVERY, 2 * PROGRESS_EVERY, n]
    assert list(counted([], told.append)) == [] and told[-1] == 0


def test_the_forms_of_a_tail_of_the_log_are_the_tail_of_the_whole_logs_forms(
    arb: Arbiter, race: str
) -> None:
    for reader in ("red", "blue", REFEREE, PUBLIC):
        whole = list(forms(arb, race, reader, 1, None))
        assert list(forms(arb, race, reader, 6, 9)) == whole[5:9]
    # a tail past every lineage event starts from the head's meta, sparing a fold at its start
    head = arb.folded(race)
    assert meta_before(arb, race, 1, head) is None
    assert meta_before(arb, race, 6, head) is head.meta


def test_the_engine_meta_is_read_without_the_key_file(arb: Arbiter, race: str) -> None:
    meta, head = engine_meta(Arbiter(arb.store, rulesets, vault=MemoryVault()), race)
    assert head == 13
    folded = arb.folded(race)
    assert (meta.players, meta.dice) == (folded.meta.players, folded.meta.dice)


def test_the_public_form_of_a_log_handed_out_without_its_key_file_keeps_every_seal_closed() -> None:
    """Given a Battle for Armageddon game of 6 commands before its reveal, when its database is
    read without the key file (an export handed to the public), then the public forms are
    those the arbiter gives with its key: every seal closed, none asked of the key file; a
    player's read is refused, as it needs the key file to open the player's own values."""
    arb = Arbiter(MemoryStore(), bundled.get, seeds=lambda: bytes(range(32)))
    game = arb.new_game("battle-for-armageddon", game="g")
    autoplay(arb, game, 6)
    public = list(forms(arb, game, PUBLIC, 1, None))
    assert any(seals_in(json.loads(record.data)) for record in public)
    keyless = Arbiter(arb.store, bundled.get, vault=MemoryVault())
    assert list(forms(keyless, game, PUBLIC, 1, None)) == public
    # a player's read is refused: its own sealed values would stay closed to it
    with pytest.raises(StoreError) as refused:
        list(forms(keyless, game, "orks", 1, None))
    assert refused.value.code in NO_CLEAR_FORMS
