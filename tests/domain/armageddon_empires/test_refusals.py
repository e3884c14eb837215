"""A refused command names what is wrong in the case at hand, as a tournament player reads it
(played on the recorded game forked in red's turn of round 11)."""

from __future__ import annotations

import json

import pytest

from tests.recorded import recorded, refused
from warlog.arbiter.application import Arbiter


@pytest.fixture(scope="module")
def reds_turn() -> tuple[Arbiter, str]:
    arb, game = recorded("armageddon-empires", "ae-golden")
    return arb, arb.fork(game, 2550, dice="new")


def test_a_tactic_card_is_played_in_a_challenge_not_deployed(
    reds_turn: tuple[Arbiter, str],
) -> None:
    arb, game = reds_turn
    card = "red.steady-hands.1"
    assert refused(arb, game, type="deploy_card", player="red", card=card, base="red-keep") == (
        f"rules/not_deployable: {card} is a tactic card: it is played in a challenge "
        "(play_tactic, p.51), not deployed"
    )


def test_an_empty_army_is_told_it_has_no_cards_to_stealth(reds_turn: tuple[Arbiter, str]) -> None:
    arb, game = reds_turn
    fork = arb.fork(game, arb.head(game)[0], dice="new")
    arb.play(
        fork, json.dumps({"type": "create_army", "player": "red", "army": "red-9", "at": "8,1"})
    )
    assert refused(arb, fork, type="engage_stealth", player="red", army="red-9") == (
        "rules/not_stealth_capable: red-9 is empty: an army without cards cannot stealth (p.27)"
    )
