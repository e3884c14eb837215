"""Playing a command: decided on the dice it is owed, its batch appended on the fold it names."""

from __future__ import annotations

import json

import pytest

from tests.arbiter.conftest import roll
from warlog.arbiter.application import Arbiter
from warlog.arbiter.playing import append_batch, decided
from warlog.domain.core.errors import ConflictError, InputError, StoreError
from warlog.domain.core.events import CommandIssued


def test_a_batch_opens_with_the_command_as_issued_and_rolls_on_the_key_in_force(
    arb: Arbiter, race: str
) -> None:
    ruleset, before = arb.ruleset_of(race), arb.folded(race)
    command = arb.parse_command(ruleset, roll("blue", 2))
    events = decided(ruleset, race, before, command, arb.vault, None)
    assert isinstance(events[0], CommandIssued) and events[0].player == "blue"
    # the same command on the same state rolls the same dice: they derive from the key and seq
    assert decided(ruleset, race, before, command, arb.vault, None) == events
    carried = json.dumps({"type": "roll", "player": "blue", "count": 2, "dice": [6, 6]})
    with pytest.raises(InputError, match="rolls its own dice") as refused:
        decided(ruleset, race, before, arb.parse_command(ruleset, carried), arb.vault, None)
    assert refused.value.code == "input/unexpected_dice"


def test_a_batch_appended_on_a_fold_the_log_has_moved_past_is_a_conflict_and_appends_nothing(
    arb: Arbiter, race: str
) -> None:
    # given red's roll decided on the game at seq 9, which the log has moved past (13)
    ruleset, stale = arb.ruleset_of(race), arb.folded(race, 9)
    command = arb.parse_command(ruleset, roll("red"))
    events = decided(ruleset, race, stale, command, arb.vault, None)
    clock = lambda: "2026-11-22T00:02:00.000Z"  # noqa: E731
    # when it is appended, then it is a conflict and nothing is appended
    with pytest.raises(ConflictError):
        append_batch(arb.states, race, stale, events, command, clock)
    assert arb.store.head(race)[0] == 13
    # blue's, on the head, is appended, and the cache holds the batch's fold as the new head
    before = arb.folded(race)
    command = arb.parse_command(ruleset, roll("blue"))
    events = decided(ruleset, race, before, command, arb.vault, None)
    records = append_batch(arb.states, race, before, events, command, clock)
    assert [r.seq for r in records] == list(range(14, 14 + len(events)))
    assert arb.states.folded(race).state == arb.states.fold_log(race).state


def test_a_batch_whose_openings_the_vault_cannot_keep_is_not_appended(
    arb: Arbiter, race: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a vault that fails to keep a batch's openings (a full disk, say), when a command
    is played, then the vault's error is told and nothing is appended: an event is never
    stored before its opening (``playing``; ARCHITECTURE.md, "Hidden information in the
    log": the arbiter keeps the clear values beside the log)."""

    def full(openings: object) -> None:
        raise StoreError("the key file is full", "store/disk_full")

    monkeypatch.setattr(arb.vault, "put_openings", full)
    state = arb.state(race)
    with pytest.raises(StoreError, match="the key file is full"):
        arb.play(race, roll(state.players[state.turn]))
    assert arb.store.head(race)[0] == 13
