"""What a player is given, read for the non-interference tests: the refusals of commands that
must be refused."""

from __future__ import annotations

import pytest

from warlog.arbiter.application import Arbiter
from warlog.domain import rulesets
from warlog.eventstore.memory_store import MemoryStore
from warlog.fuzz.noninterference import refusals


def test_the_refusals_of_commands_one_of_which_is_accepted_fail_naming_it() -> None:
    """Given a new game of Battle for Armageddon, when the refusals of the Orks' ending of
    their set-up (legal) are read, then the reading fails naming the command accepted; a
    command out of turn is refused, with its line."""
    arb = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: b"\1" * 32)
    game = arb.new_game("battle-for-armageddon", game="ni")
    out_of_turn = {"type": "end_setup", "player": "imperials"}
    (line,) = refusals(arb, game, "imperials", [out_of_turn])
    assert line == (
        "error[rules/not_your_turn]: imperials cannot end_setup now: the game waits for the "
        "orks' set-up"
    )
    legal = {"type": "end_setup", "player": "orks"}
    with pytest.raises(AssertionError) as failed:
        refusals(arb, game, "orks", [legal])
    assert str(failed.value) == f"accepted {legal}"
