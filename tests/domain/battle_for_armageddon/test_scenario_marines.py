"""A scenario's Marine Chapters and the counters that arrive later: what a game does with them.

An Ork counter that starts "later" (a chapter or any other) arrives in the READY box, from where
the Imperial Drop Pod lands it among Imperials, in every version so far: pinned below."""

from __future__ import annotations

import pytest

from tests.domain.battle_for_armageddon.helpers import PROVING_GROUND, game, in_phase
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.ruleset import RULESET, VERSIONS
from warlog.domain.battle_for_armageddon.special_card_events import SpecialCardDrawn
from warlog.domain.battle_for_armageddon.turn_events import ReinforcementsArrived


@pytest.mark.xfail(
    strict=True,
    reason="every version: the Imperial Drop Pod lands any READY counter that started 'later', "
    "an Ork one too, among Imperials (one_side_per_area)",
)
def test_the_imperial_drop_pod_never_lands_an_ork_counter() -> None:
    # given a version-6 game whose Ork counter sunz-2 started "later" and is now READY
    text = PROVING_GROUND.read_text()
    old = 'id = "sunz-2"\ntype = "boyz"\ntribe = "evil_sunz"\nstart = "ork_b"'
    assert old in text
    scenario = VERSIONS["6"].parse_scenario(
        text.replace(old, old.replace('"ork_b"', '"later"\narrives = 3')).encode()
    )
    g = game(*in_phase("imperials", "movement", turn=3), scenario=scenario, version="6")
    g.events(
        SpecialCardDrawn(player="imperials", card="drop-pod-1"),
        ReinforcementsArrived(turn=3, counters=["blood_angels", "dante", "sunz-2"]),
    )
    # when the Imperials look for their Drop Pod's landings
    plays = [
        x for x in RULESET.legal_commands(g.state, "imperials") if isinstance(x, c.PlaySpecial)
    ]
    # then only their own Marines may land
    assert {x.counter for x in plays} == {"blood_angels", "dante"}
