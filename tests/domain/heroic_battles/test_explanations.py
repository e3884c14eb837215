"""Why each event happened, as a referee reads it: the explanation says what the rules did in the
case at hand (a hero shooting, a melee left with no fighter, a Drilled unit's test, a Fearsome
winner's retreat), not the common case's rule."""

from __future__ import annotations

from tests.domain.heroic_battles.helpers import game
from tests.domain.heroic_battles.test_shooting import shoot, skirmish
from tests.given_when_then import one
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles import rulings
from warlog.domain.heroic_battles.values import RetreatOrder


def test_a_hero_shooting_is_not_said_to_shoot_from_a_killing_zone() -> None:
    g = skirmish()
    events = g.when(shoot("red-champion", "blue-scouts", distance=3), dice=[3])
    text = one(events, ev.ShotsFired).explain()
    assert "a hero, who has no Killing Zone (HB-2): 0 Shooting Dice; +1D6 hero" in text
    assert "its Killing Zone" not in text


def test_a_melee_with_no_fighter_left_on_either_side_ends_with_no_winner() -> None:
    assert rulings.melee_outcome({"red": 3, "blue": 1}, {"red": False, "blue": False}) == (
        "draw",
        "",
    )
    decided = ev.MeleeDecided(
        combat="melee-1", outcome="draw", winner="", loser="", scored={"red": 3, "blue": 1}
    )
    assert decided.explain() == (
        "melee melee-1: hits after saves red 3, blue 1, but neither side has a fighter left: "
        "no winner; the melee ends (HB-8)"
    )


def test_a_drilled_units_barrier_test_says_why_it_rolls_one_die() -> None:
    g = game(
        ev.PhaseEnded(phase="movement", force="red"), ev.PhaseBegan(phase="movement", force="blue")
    )
    events = g.when(c.Move(player="blue", unit="blue-steadfast", barrier=True), dice=[2])
    assert (
        one(events, ev.CommandTestTaken)
        .explain()
        .startswith(
            "blue-steadfast command test (crossing a barrier): 1D6 [2] (one die fewer: a Drilled "
            "unit's first test of its own movement, HB-25): fails"
        )
    )


def test_a_retreat_from_a_fearsome_winner_cites_the_trait_not_the_half_st_rule() -> None:
    far = RetreatOrder(
        unit="blue-warriors", half_st=rulings.FEARSOME_RETREAT_HALF_ST, cause="melee"
    )
    assert ev.RetreatsOrdered(orders=[far]).explain() == (
        "blue-warriors must retreat 1 ST (a Fearsome winner: 1 ST, trait p.66; HB-33)"
    )
    near = RetreatOrder(unit="blue-warriors", half_st=1, cause="melee")
    assert ev.RetreatsOrdered(orders=[near]).explain() == (
        "blue-warriors must retreat ½ ST (Retreating, pp.47–48, 59–60)"
    )
