"""Risk to Heroes (p.46, pp.56–57) by hits taken, its re-roll (HB-29), the Hero Death table in
combat (p.57; HB-13), heroes killed by shooting (HB-14) and heroes whose unit is lost (HB-16)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from tests.domain.heroic_battles.helpers import (
    declare,
    engaged,
    fighting,
    game,
    lost,
    phase,
    proving_ground,
    wounded,
)
from tests.given_when_then import Given, of, one
from warlog.domain.core.events import Event
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.tables import risk_dice


def king_hit(hits: int) -> tuple[Given, list[Event]]:
    """Red's warriors and lord (3 Mighty Deeds: 18 dice) put ``hits`` on the blue warriors,
    whose king is at risk; blue hits nothing."""
    g = game(*engaged("red-warriors", "blue-warriors"), *fighting())
    g.when(declare("red", deeds={"red-lord": 3}), dice=[])
    red = [6] * hits + [3] * (18 - hits)
    events = g.when(declare("blue"), dice=red + [3] * 14)
    return g, events


@pytest.mark.parametrize(
    ("hits", "dice"),
    [
        (1, 1),
        (3, 1),
        (4, 2),
        (6, 2),
        (7, 3),
        (9, 3),
        (10, 4),
        (12, 4),
        (13, 5),
        (15, 5),
        (16, 6),
        (18, 6),
    ],
)
def test_a_hero_rolls_a_die_for_every_three_hits_its_unit_took_up_to_six(
    hits: int, dice: int
) -> None:
    g, events = king_hit(hits)
    at_risk = one(events, ev.HeroesAtRisk)
    assert [(e.hero, e.hits) for e in at_risk.entries] == [("blue-king", hits)]
    awaited = one(events, ev.DiceAwaited)
    assert (awaited.roller, awaited.dice) == ("blue", dice) == ("blue", risk_dice(hits))
    events = g.when(c.Roll(player="blue"), dice=[3] * dice)
    assert len(one(events, ev.RiskRolled).faces) == dice


def test_no_hit_no_risk() -> None:
    _, events = king_hit(0)
    assert one(events, ev.HeroesAtRisk).entries == []
    assert risk_dice(0) == 0


def test_each_1_rolled_costs_the_hero_a_stamina_point() -> None:
    g, _ = king_hit(5)
    events = g.when(c.Roll(player="blue"), dice=[1, 4])
    rolled = one(events, ev.RiskRolled)
    assert (rolled.ones, rolled.rerollable) == (1, True)
    events = g.when(c.AcceptRisk(player="blue", hero="blue-king"), dice=[])
    assert one(events, ev.RiskResolved).stamina_lost == 1
    assert g.state.heroes["blue-king"].stamina == 1


def test_a_hero_re_rolls_one_1_for_a_mighty_deed_and_a_reputation_token() -> None:
    g, _ = king_hit(5)
    g.when(c.Roll(player="blue"), dice=[1, 1])
    events = g.when(c.RerollRisk(player="blue", hero="blue-king"), dice=[5])
    assert one(events, ev.RiskRerolled).explain() == (
        "blue-king re-rolls a 1 with a Mighty Deed (Mighty Deeds, p.28; HB-29): 5, saved"
    )
    assert lost(events, "blue") == [
        (1, "a hero uses a Mighty Deed to re-roll a Risk to Heroes result")
    ]
    assert one(events, ev.RiskResolved).stamina_lost == 1  # one 1 stands: once per roll
    assert g.state.heroes["blue-king"].deeds == 1


def test_only_the_hero_at_risk_answers() -> None:
    g, _ = king_hit(5)
    g.when(c.Roll(player="blue"), dice=[1, 1])
    g.when_rejected(c.RerollRisk(player="blue", hero="blue-proud"), code="rules/bad_choice")


# -- Hero Death in Combat (p.57) --------------------------------------------------------------------


def king_dies(roll: int) -> tuple[Given, list[Event]]:
    g, _ = king_hit(5)
    g.when(c.Roll(player="blue"), dice=[1, 1])
    return g, g.when(c.AcceptRisk(player="blue", hero="blue-king"), dice=[roll])


@pytest.mark.parametrize("roll", [1, 2, 3])
def test_on_1_to_3_the_hero_is_food_for_ravens_and_costs_its_whole_reputation(roll: int) -> None:
    g, events = king_dies(roll)
    assert one(events, ev.HeroKilled).cause == "melee"
    died = one(events, ev.HeroDeathRolled)
    assert (died.roll, died.outcome) == (roll, "food_for_ravens")
    assert lost(events, "blue")[0][0] == 3  # the Blue King's Reputation
    assert g.state.heroes["blue-king"].gone == "killed"


@pytest.mark.parametrize("roll", [4, 5])
def test_on_4_or_5_a_famous_death_costs_one_token_less(roll: int) -> None:
    _, events = king_dies(roll)
    assert one(events, ev.HeroDeathRolled).outcome == "famous_death"
    assert lost(events, "blue")[0][0] == 2


def test_on_6_the_dying_hero_strikes_a_final_blow_the_enemy_saves_on_4_or_more() -> None:
    g, events = king_dies(6)
    died = one(events, ev.HeroDeathRolled)
    assert (died.outcome, died.target) == ("final_blow", "red-warriors")
    assert lost(events, "blue")[0][0] == 2  # HB-13: one less, as a famous death
    events = g.when(c.Roll(player="red"), dice=[3])
    blow = one(events, ev.FinalBlowStruck)
    assert (blow.target, blow.roll, blow.saved) == ("red-warriors", 3, False)
    assert blow.explain() == (
        "blue-king's final blow at red-warriors: 1D6 3 (4+ saves) → 1 stamina point lost "
        "(Hero Death in Combat, p.57)"
    )
    assert one(events, ev.StaminaLost).explain() == (
        "red-warriors loses 1 stamina point: blue-king's final blow (Hero Death in Combat, p.57; "
        "HB-13)"
    )
    assert g.state.units["red-warriors"].stamina == 3
    g2, _ = king_dies(6)
    saved = one(g2.when(c.Roll(player="red"), dice=[4]), ev.FinalBlowStruck)
    assert saved.explain() == (
        "blue-king's final blow at red-warriors: 1D6 4 (4+ saves) → no effect "
        "(Hero Death in Combat, p.57)"
    )


def test_a_famous_death_of_a_hero_of_reputation_1_costs_no_token_and_records_no_loss() -> None:
    """Given the Blue King with a Reputation of 1, killed at risk in melee, when his Hero Death
    roll is a 4 (a famous death: one token less, HB-13), then blue loses nothing and no loss of 0
    tokens is recorded."""
    sc = proving_ground()
    blue = sc.forces[1]
    heroes = [replace(h, reputation=1) if h.id == "blue-king" else h for h in blue.heroes]
    g = game(
        *engaged("red-warriors", "blue-warriors"),
        *fighting(),
        scenario=replace(sc, forces=[sc.forces[0], replace(blue, heroes=heroes)]),
    )
    g.when(declare("red", deeds={"red-lord": 3}), dice=[])
    g.when(declare("blue"), dice=[6] * 5 + [3] * 13 + [3] * 14)
    g.when(c.Roll(player="blue"), dice=[1, 1])
    events = g.when(c.AcceptRisk(player="blue", hero="blue-king"), dice=[4])
    assert one(events, ev.HeroDeathRolled).outcome == "famous_death"
    assert [e for e in of(events, ev.ReputationLost) if e.who == "blue-king"] == []


# -- outside combat and lost units --------------------------------------------------------------------


def red_shoots(*setup: Event) -> Given:
    g = game(*setup, *phase("shooting"))
    g.when(c.EndShooting(player="blue"), dice=[])
    return g


def test_a_hero_killed_by_shooting_costs_its_whole_reputation_with_no_roll() -> None:
    g = red_shoots()
    events = g.when(
        c.Shoot(player="red", shooter="red-archers", target="blue-priest", distance=2),
        dice=[5, 5, 5] + [3] * 6,
    )
    killed = one(events, ev.HeroKilled)
    assert (killed.hero, killed.cause) == ("blue-priest", "shooting")
    assert not of(events, ev.HeroDeathRolled)
    assert lost(events, "blue") == [(1, "blue-priest is killed")]


def test_a_hero_whose_unit_is_shot_down_survives_on_its_own_for_a_token() -> None:
    g = red_shoots(wounded("blue-warriors", 3))
    g.when(
        c.Shoot(player="red", shooter="red-archers", target="blue-warriors", distance=2),
        dice=[5, 5, 5] + [3] * 6,
    )
    events = g.when(c.Roll(player="blue"), dice=[3])  # the king's Risk to Heroes
    assert one(events, ev.UnitDestroyed).unit == "blue-warriors"
    assert one(events, ev.HeroUnattached) == ev.HeroUnattached(
        hero="blue-king", unit="blue-warriors"
    )
    assert lost(events, "blue") == [
        (2, "blue-warriors is destroyed"),
        (1, "blue-king's unit is destroyed but the hero survives"),
    ]


def test_a_hero_whose_unit_is_cut_down_in_a_melee_that_goes_on_fights_on_without_loss() -> None:
    g = game(*engaged("red-brutes", "blue-warriors"), wounded("blue-warriors", 3), *fighting())
    g.when(declare("red"), dice=[])
    g.when(declare("blue"), dice=[4, 4, 4] + [3] * 7 + [3] * 8)  # blue at half: 6 + 2
    events = g.when(c.Roll(player="blue"), dice=[3])  # the king's Risk to Heroes
    unattached = one(events, ev.HeroUnattached)
    assert unattached.combat == "melee-1"
    assert lost(events, "blue") == [(2, "blue-warriors is destroyed")]
    decided = one(events, ev.MeleeDecided)
    assert decided.outcome == "fighting_victory"  # the king still stands in the melee


def test_in_movement_an_attached_hero_may_leave_and_a_dead_one_is_offered_nothing() -> None:
    """Given the Red Champion shot dead and the Red Lord attached to red's warriors, when legal
    lists red's movement, then the only hero command is the Red Lord leaving his unit."""
    g = game(ev.HeroKilled(hero="red-champion", cause="shooting"))
    heroes = [
        x
        for x in g.ruleset.legal_commands(g.state, "red")
        if isinstance(x, c.LeaveUnit | c.JoinUnit)
    ]
    assert heroes == [c.LeaveUnit(player="red", hero="red-lord")]
