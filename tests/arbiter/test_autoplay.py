"""Autoplay: a game played on by its ruleset's policy, as many commands as asked and no more."""

from __future__ import annotations

from warlog.arbiter.application import Arbiter
from warlog.arbiter.autoplay import autoplay


def test_autoplay_plays_as_many_commands_as_asked_and_says_how_many(
    arb: Arbiter, race: str
) -> None:
    """Given a dice race three commands in, when it is autoplayed for 3 commands, then 3 more
    commands are in its log and 3 is the number told (the demo and the recorded fixtures are
    made with it)."""
    issued = [r.type for r in arb.records(race)].count("command_issued")
    assert autoplay(arb, race, 3) == 3
    assert [r.type for r in arb.records(race)].count("command_issued") == issued + 3
