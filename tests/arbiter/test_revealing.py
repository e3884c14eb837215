"""Revealing a game's key: refused while games sharing its hidden history keep secrets, and only
once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.eventstore.conftest import SEED, fixed_clock
from tests.toy import SCENARIO, rulesets
from warlog.arbiter.application import Arbiter
from warlog.arbiter.revealing import LIVE_FORKS, revealing
from warlog.domain.core.errors import InputError
from warlog.eventstore.chain import link
from warlog.eventstore.memory_store import MemoryStore
from warlog.eventstore.records import Record


def test_a_reveal_publishes_the_key_in_force_on_the_head(arb: Arbiter, race: str) -> None:
    folded, event = revealing(arb, race, despite_live_forks=False)
    assert folded is arb.folded(race) and event.seed == SEED.hex()
    assert arb.store.head(race)[0] == 13  # nothing appended yet: the Arbiter appends it


def test_a_reveal_is_refused_while_a_fork_shares_hidden_history_unless_the_organiser_says_so(
    arb: Arbiter, race: str
) -> None:
    # given a fork f1 of g1, still being played
    arb.fork(race, 9, new_game="f1")
    # when g1 is revealed, then it is refused, naming f1, and nothing is appended
    with pytest.raises(InputError, match="f1 shares hidden history with g1") as refused:
        arb.reveal(race)
    assert refused.value.code == LIVE_FORKS and arb.store.head(race)[0] == 13
    # unless the organiser says so; and then only once
    revealed = arb.reveal(race, despite_live_forks=True)
    assert (revealed.seq, revealed.seed) == (14, SEED.hex())
    with pytest.raises(InputError, match="already revealed at seq 14") as again:
        revealing(arb, race, despite_live_forks=True)
    assert again.value.code == "input/already_revealed"


def test_a_refused_reveal_names_the_forks_and_the_copies_each_with_what_it_shares(
    arb: Arbiter, race: str
) -> None:
    """Given f1, a fork of g1, and c1 and c2, imported from g1's open record, all still being
    played, when g1 is revealed, then the one line names f1 for the hidden history it shares
    and the copies for the key they share, and nothing is appended."""
    arb.fork(race, 9, new_game="f1")
    for copy in ("c1", "c2"):
        records = list(arb.export_records(race, opened=True))
        arb.import_records(records, copy, despite_live_forks=True)
    with pytest.raises(InputError) as refused:
        arb.reveal(race)
    assert refused.value.message.startswith(
        "f1 shares hidden history with g1 and c1 and c2 share their key with it, all still "
        "being played: revealing g1 would tell their secrets; nothing revealed"
    )
    assert refused.value.code == LIVE_FORKS and arb.store.head(race)[0] == 13


def test_a_log_forged_to_play_by_a_live_forks_key_cannot_publish_it(
    arb: Arbiter, race: str, tmp_path: Path
) -> None:
    """Given f1, a fork of g1 still being played, and h1 imported from a forged log: a game
    made elsewhere (its own key, which no game here holds) followed by a copy of f1's
    game_forked, so that h1 plays by f1's key, which this vault holds; when h1 is revealed,
    then it is refused naming f1, and f1's seed is not published."""
    arb.fork(race, 9, new_game="f1")
    scenario = tmp_path / "race.toml"
    scenario.write_bytes(SCENARIO)
    elsewhere = Arbiter(MemoryStore(), rulesets, clock=fixed_clock(), seeds=lambda: b"e" * 32)
    made = elsewhere.new_game("dice-race", str(scenario), game="e1")
    (first,) = elsewhere.export_records(made)
    claimed = json.loads(next(arb.records("f1", 10, 10)).data)  # f1's game_forked
    data = json.dumps({**claimed, "parent": made, "at": 1}, separators=(",", ":"))
    at, prev = first.at, first.hash
    forged = Record(2, "game_forked", data, at, prev, link(prev, 2, "game_forked", at, data))
    arb.import_records([first, forged], "h1", despite_live_forks=True)
    with pytest.raises(InputError, match=r"^f1 shares its key with h1 and is still") as refused:
        arb.reveal("h1")
    assert refused.value.code == LIVE_FORKS and arb.store.head("h1")[0] == 2
