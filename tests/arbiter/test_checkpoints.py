"""Checkpoints of a recorded game: each recorded value of the referee's view is compared."""

from __future__ import annotations

import json

from warlog.arbiter.application import Arbiter
from warlog.arbiter.checkpoints import check_checkpoints


def test_a_checkpoint_the_replay_does_not_reproduce_is_named_with_both_values(
    arb: Arbiter, race: str
) -> None:
    """Given the dice race's view at 13 and checkpoints recorded there, when one of them
    records a score the replay does not reach and another a path the view lacks, then each is
    named with the value found and the value recorded; the values the replay reproduces pass
    (what ``tests/test_fixtures.py`` holds every recorded game to)."""
    view = arb.view(race, 13)["state"]
    red = view["scores"]["red"]
    kept = [{"seq": 13, "expect": {"scores.red": red, "turn": view["turn"]}}]
    assert check_checkpoints(arb, race, json.dumps(kept)) == []
    wrong = [{"seq": 13, "expect": {"scores.red": red + 5, "scores.green": 0}}]
    assert check_checkpoints(arb, race, json.dumps(wrong)) == [
        f"seq 13: scores.red is {red}, recorded {red + 5}",
        "seq 13: scores.green is None, recorded 0",
    ]
