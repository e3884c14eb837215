"""Revealing a game's key: refused while its family keeps secrets, and only once."""

from __future__ import annotations

import pytest

from tests.eventstore.conftest import SEED
from warlog.arbiter.application import Arbiter
from warlog.arbiter.revealing import LIVE_FORKS, revealing
from warlog.domain.core.errors import InputError


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
