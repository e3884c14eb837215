"""What a mutation review of ``challenge_moves.py`` found untested: the AP owed up to its cap
exactly (AE-19), and the version from which a card's open damage hides what hidden challenges
dealt it (AE-49), each pinned at its boundary."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from tests.domain.armageddon_empires.arena import arena, begin, open_challenge, side
from tests.domain.armageddon_empires.helpers import only
from tests.domain.armageddon_empires.test_open_damage import struck
from warlog.domain.armageddon_empires.challenge_events import TacticPlayed
from warlog.domain.armageddon_empires.challenge_moves import OPEN_TOTAL_SINCE
from warlog.domain.armageddon_empires.commands import PlayTactic
from warlog.domain.armageddon_empires.costs import MAX_AP_OWED, TACTIC_AP
from warlog.domain.armageddon_empires.ruleset import RULESET

BLUE_HERO = "blue.quarry.1"  # fate 4


def test_an_empire_may_owe_up_to_the_cap_exactly_so_a_tactic_that_reaches_it_is_played() -> None:
    # given red's turn, blue defending and owing one tactic short of the cap (AE-19: at most 6,
    # the AP of the last of two initiative places, R10 p.11)
    g = begin(arena())
    blue = replace(g.state.empires["blue"], ap_owed=MAX_AP_OWED - TACTIC_AP)
    g.state = replace(g.state, empires={**g.state.empires, "blue": blue})
    open_challenge(g, side("red", [6, 6]), side("blue", [1, 1], hero=BLUE_HERO))
    # then the tactic card is among blue's answers, and when blue plays it
    tactic = PlayTactic(player="blue", card="blue.t-again.1")
    assert tactic in RULESET.legal_commands(g.state, "blue")
    played = only(g.when(tactic, dice=[6, 6]), TacticPlayed)
    # then it is owed, and blue owes the cap exactly
    assert played.owed and g.state.empires["blue"].ap_owed == MAX_AP_OWED


def test_from_version_12_exactly_open_damage_leaves_out_what_hidden_challenges_dealt() -> None:
    # given blue's plated with 1 damage from a hidden challenge, in a game of version 12, the
    # first of AE-49 (a card's card_damaged tells the damage taken in the open alone)
    assert OPEN_TOTAL_SINCE == 12
    g, seen = struck(hidden=1, version=OPEN_TOTAL_SINCE)
    _, whole = struck(hidden=0, version=OPEN_TOTAL_SINCE)
    # when red's lancer deals it 2 in the open, then red's event tells 2 of 4, the same bytes as
    # for an unhurt card: the hidden damage stays blue's secret
    assert (seen.amount, seen.total, seen.limit) == (2, 2, 4)
    assert msgspec.json.encode(seen) == msgspec.json.encode(whole)
    assert RULESET.view(g.state, "red")["damage"]["blue.plated.1"] == 2
