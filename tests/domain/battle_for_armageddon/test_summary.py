"""The summary `warlog state` prints: a combat being resolved, and what the Imperials build
with, as a player reads them in the recorded game."""

from __future__ import annotations

from tests.recorded import recorded


def test_a_combat_being_resolved_and_the_build_points_are_in_the_summary() -> None:
    arb, game = recorded("battle-for-armageddon", "bfa-golden")
    # the orks' attack on infernus waits for their reroll: odds, roll and result are shown
    (combat,) = [
        t for t in arb.summary(game, 74, "imperials").tables if t.title.startswith("combat")
    ]
    assert combat.title == "combat at infernus"
    assert combat.rows == [["orks", "ashen_steppe", "13", "7", "1:1", "2", "AS", "-"]]
    # the imperials' build phase: the track and the points to spend, public to both sides
    sides = {r[0]: r for r in arb.summary(game, 97, "orks").tables[0].rows}
    assert sides["imperials"][3] == "8 hives and factories, build track 18, 4 points to spend"
    assert sides["orks"][3] == "-"
