"""Shooting (p.42): the Shooting Dice Penalties (a halving each) and Bonuses, hits on 5–6, the
range table (p.43), the Killing Zone first, armour, the command test when hit, and who may shoot
when (p.27)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from tests.domain.heroic_battles.helpers import (
    engaged,
    game,
    phase,
    pool_of,
    proving_ground,
    wounded,
)
from tests.given_when_then import Given, one, tags
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.scenario import Scenario


def skirmish(*setup: ev.Event) -> Given:
    """Red's skirmishers' shooting after movement."""
    return game(*setup, *phase("skirmish", "red"))


def red_shooting(*setup: ev.Event, scenario: Scenario | None = None) -> Given:
    """The shooting phase, after blue (the defender, first to shoot) passed."""
    g = game(*setup, *phase("shooting"), scenario=scenario)
    g.when(c.EndShooting(player="blue"), dice=[])
    return g


def shoot(shooter: str, target: str, distance: int = 1, **kw: object) -> c.Shoot:
    return c.Shoot(player="red", shooter=shooter, target=target, distance=distance, **kw)  # type: ignore[arg-type]


NO_HIT = [3, 3, 3, 3, 3, 3]


# -- Shooting Dice Penalties: halve for each that applies ------------------------------------------


def test_a_unit_shoots_with_its_shooting_dice_and_hits_on_5_or_6() -> None:
    g = skirmish()
    events = g.when(shoot("red-skirmishers", "blue-scouts"), dice=[4, 5, 6, 1, 2, 6])
    pool = pool_of(events, "red-skirmishers")
    assert (pool.build(), pool.hits) == ("6 Shooting Dice", 3)


def test_a_brutal_shooter_still_hits_only_on_5_or_6() -> None:
    """Shooting (p.42) hits "on 5s and 6s"; Brutal's 4, 5, 6 is the sheet's Melee and Single
    Combat rule. Given red's Brutal champion with its bow, when it shoots a 4, then it misses."""
    g = skirmish()
    events = g.when(shoot("red-champion", "blue-scouts", distance=3), dice=[4])
    pool = pool_of(events, "red-champion")
    assert (pool.hit_on, pool.hits) == (5, 0)


def test_half_stamina_or_less_halves_the_shooting_dice() -> None:
    g = skirmish(wounded("red-skirmishers", 1))
    pool = pool_of(g.when(shoot("red-skirmishers", "blue-scouts"), dice=[3] * 3), "red-skirmishers")
    assert pool.build() == "6 Shooting Dice; half stamina or less → 3"


def test_overhead_fire_halves_the_shooting_dice() -> None:
    g = skirmish()
    pool = pool_of(
        g.when(shoot("red-skirmishers", "blue-scouts", overhead=True), dice=[3] * 3),
        "red-skirmishers",
    )
    assert pool.build() == "6 Shooting Dice; overhead fire → 3"


def test_a_target_in_range_outside_the_killing_zone_halves_the_shooting_dice() -> None:
    g = skirmish()
    command = shoot(
        "red-skirmishers", "blue-scouts", in_killing_zone=False, none_in_killing_zone=True
    )
    pool = pool_of(g.when(command, dice=[3] * 3), "red-skirmishers")
    assert pool.build() == "6 Shooting Dice; outside the Killing Zone → 3"


def test_an_obscured_target_halves_the_shooting_dice() -> None:
    g = skirmish()
    pool = pool_of(
        g.when(shoot("red-skirmishers", "blue-scouts", obscured=True), dice=[3] * 3),
        "red-skirmishers",
    )
    assert pool.build() == "6 Shooting Dice; obscured → 3"


def test_every_penalty_halves_again_but_never_below_one_die() -> None:
    g = skirmish(wounded("red-skirmishers", 1))
    command = shoot(
        "red-skirmishers",
        "blue-scouts",
        overhead=True,
        obscured=True,
        in_killing_zone=False,
        none_in_killing_zone=True,
    )
    pool = pool_of(g.when(command, dice=[3]), "red-skirmishers")
    assert pool.build() == (
        "6 Shooting Dice; half stamina or less → 3; overhead fire → 1; "
        "outside the Killing Zone → 1; obscured → 1"
    )


# -- Shooting Dice Bonuses ------------------------------------------------------------------------------


def with_lord_on_the_riders() -> Scenario:
    """The proving ground with the Red Lord carrying javelins, attached to the red riders."""
    sc = proving_ground()
    red = sc.forces[0]
    heroes = [
        replace(h, missile="javelin", attached_to="red-riders") if h.id == "red-lord" else h
        for h in red.heroes
    ]
    return replace(sc, forces=[replace(red, heroes=heroes), sc.forces[1]])


def test_each_hero_shooting_with_a_unit_adds_a_die_after_the_halvings() -> None:
    g = red_shooting(wounded("red-riders", 2), scenario=with_lord_on_the_riders())
    events = g.when(shoot("red-riders", "blue-scouts", obscured=True), dice=[5, 6])
    pool = pool_of(events, "red-riders")
    assert pool.explain() == (
        "5 Shooting Dice; half stamina or less → 2; obscured → 1; +1D6 hero red-lord shooting → 2; "
        "hits on 5–6: [5, 6] → 2 hits"
    )
    assert g.state.heroes["red-lord"].shot and g.state.units["red-riders"].shot


def test_a_single_hit_is_explained_as_one_hit() -> None:
    g = red_shooting(wounded("red-riders", 2), scenario=with_lord_on_the_riders())
    events = g.when(shoot("red-riders", "blue-scouts", obscured=True), dice=[5, 3])
    assert pool_of(events, "red-riders").explain().endswith("hits on 5–6: [5, 3] → 1 hit")


def test_mighty_deeds_of_an_attached_hero_add_a_die_each() -> None:
    g = red_shooting(scenario=with_lord_on_the_riders())
    events = g.when(shoot("red-riders", "blue-scouts", deeds={"red-lord": 2}), dice=[3] * 8)
    assert pool_of(events, "red-riders").build() == (
        "5 Shooting Dice; +1D6 hero red-lord shooting → 6; +2D6 Mighty Deeds of red-lord → 8"
    )
    assert one(events, ev.DeedsSpent).deeds == 2
    assert g.state.heroes["red-lord"].deeds == 1


def test_an_unattached_hero_shoots_its_own_die_and_its_deeds() -> None:
    g = skirmish()
    events = g.when(
        shoot("red-champion", "blue-scouts", distance=3, deeds={"red-champion": 1}), dice=[3, 3]
    )
    assert pool_of(events, "red-champion").build() == (
        "0 Shooting Dice; +1D6 hero red-champion shooting → 1; +1D6 Mighty Deed of red-champion → 2"
    )
    assert one(events, ev.DeedsSpent).deeds == 1
    # no Mighty Deed named 0 is spent, and no event says it was
    events = skirmish().when(
        shoot("red-champion", "blue-scouts", distance=3, deeds={"red-champion": 0}), dice=[3]
    )
    assert tags(events).count("deeds_spent") == 0


def test_shooting_from_behind_the_targets_front_line_adds_a_die() -> None:
    g = skirmish()
    pool = pool_of(
        g.when(shoot("red-skirmishers", "blue-scouts", behind=True), dice=[3] * 7),
        "red-skirmishers",
    )
    assert pool.build() == "6 Shooting Dice; +1D6 behind the target's front line → 7"


def test_a_marksman_adds_a_die() -> None:
    g = red_shooting()
    pool = pool_of(g.when(shoot("red-archers", "blue-scouts"), dice=[3] * 9), "red-archers")
    assert pool.build() == "8 Shooting Dice; +1D6 Marksman → 9"


def test_a_big_target_gives_a_die_and_a_towering_one_two() -> None:
    g = skirmish()
    big = pool_of(
        g.when(shoot("red-skirmishers", "blue-steadfast"), dice=[3] * 7), "red-skirmishers"
    )
    assert big.build() == "6 Shooting Dice; +1D6 target is Big → 7"
    g = skirmish()
    towering = pool_of(
        g.when(shoot("red-skirmishers", "blue-giant"), dice=[3] * 8), "red-skirmishers"
    )
    assert towering.build() == "6 Shooting Dice; +2D6 target is Towering → 8"


# -- ranges and the Killing Zone (HB-1, HB-2) ----------------------------------------------------


def test_a_target_beyond_the_weapons_range_cannot_be_shot() -> None:
    g = skirmish()
    error = g.when_rejected(
        shoot("red-skirmishers", "blue-scouts", distance=2), code="rules/out_of_range"
    )
    assert "javelin reaches 1–1 ST (Shooting Ranges, p.43; HB-1)" in error.message
    g.when_rejected(shoot("red-skirmishers", "blue-scouts", distance=0), code="rules/out_of_range")
    assert pool_of(
        g.when(shoot("red-champion", "blue-scouts", distance=3), dice=[3]), "red-champion"
    )


#: the sheet's Shooting Ranges table (p.43), in ST, written out here so that the test checks
#: the rules' table against the sheet rather than against itself
SHEET_RANGES = {
    "javelin": 1,
    "short_bow": 2,
    "mounted_bow": 2,
    "bow": 3,
    "mounted_elf_bow": 3,
    "sling": 3,
    "boulder": 3,
    "dragons_breath": 3,
    "longbow": 4,
    "crossbow": 4,
    "elf_bow": 4,
    "light_artillery": 4,
    "heavy_artillery": 5,
}


def archers_armed_with(weapon: str) -> Scenario:
    """The proving ground with red's archers carrying ``weapon``."""
    sc = proving_ground()
    red = sc.forces[0]
    units = [replace(u, missile=weapon) if u.id == "red-archers" else u for u in red.units]
    return replace(sc, forces=[replace(red, units=units), sc.forces[1]])


@pytest.mark.parametrize(("weapon", "reach"), SHEET_RANGES.items())
def test_each_weapon_reaches_as_far_as_the_range_table_and_no_further(
    weapon: str, reach: int
) -> None:
    """Shooting Ranges (p.43; HB-1): given red's archers armed with ``weapon``, a target
    ``reach`` ST away is shot at and one a whole ST further is out of range."""
    g = red_shooting(scenario=archers_armed_with(weapon))
    error = g.when_rejected(
        shoot("red-archers", "blue-scouts", distance=reach + 1), code="rules/out_of_range"
    )
    assert f"reaches 1–{reach} ST (Shooting Ranges, p.43" in error.message
    events = g.when(shoot("red-archers", "blue-scouts", distance=reach), dice=[3] * 9)
    assert one(events, ev.ShotsFired).weapon_range == reach


def test_targets_in_the_killing_zone_are_shot_first() -> None:
    g = skirmish()
    g.when_rejected(
        shoot("red-skirmishers", "blue-scouts", in_killing_zone=False),
        code="rules/killing_zone_first",
    )


# -- who may shoot, at whom ----------------------------------------------------------------------------


def test_after_movement_only_skirmishers_light_riders_and_unattached_heroes_shoot() -> None:
    g = skirmish()
    g.when_rejected(shoot("red-archers", "blue-scouts"), code="rules/cannot_shoot")
    g.when_rejected(shoot("red-warriors", "blue-scouts"), code="rules/cannot_shoot")


def test_a_unit_with_a_shot_marker_shoots_no_more_this_turn() -> None:
    g = skirmish()
    g.when(shoot("red-skirmishers", "blue-scouts"), dice=NO_HIT)
    g.when_rejected(shoot("red-skirmishers", "blue-scouts"), code="rules/already_shot")


def test_units_in_melee_neither_shoot_nor_are_shot_at() -> None:
    g = red_shooting(*engaged("red-riders", "blue-horde"))
    g.when_rejected(shoot("red-riders", "blue-scouts"), code="rules/in_melee")
    g.when_rejected(shoot("red-archers", "blue-horde"), code="rules/in_melee")
    g.when_rejected(shoot("red-archers", "blue-king"), code="rules/hero_attached")
    g.when_rejected(shoot("red-archers", "red-warriors"), code="rules/not_an_enemy")
    g.when_rejected(shoot("red-archers", "nobody"), code="rules/unknown_unit")


# -- hits, armour, the command test ----------------------------------------------------------------------


def test_every_full_armour_of_hits_removes_a_stamina_point_and_the_rest_are_lost() -> None:
    g = skirmish()
    events = g.when(shoot("red-skirmishers", "blue-scouts"), dice=[5, 6, 5, 6, 5, 3])
    hits = one(events, ev.HitsTaken)
    assert (hits.hits, hits.armour, hits.stamina_lost) == (5, 3, 1)
    assert "5 ÷ 3, rounded down = 1 stamina point lost (leftover hits are lost" in hits.explain()
    assert g.state.units["blue-scouts"].stamina == 1
    awaited = one(events, ev.DiceAwaited)  # the command test rolls in a command of its own
    assert (awaited.roller, awaited.dice) == ("blue", 1)
    assert g.ruleset.decision(g.state).kind == "roll"
    assert one(g.when(c.Roll(player="blue"), dice=[4]), ev.CommandTestTaken).passed


def test_a_skirmisher_has_its_better_armour_against_shooting() -> None:
    g = game(*phase("skirmish", "blue"))
    events = g.when(
        c.Shoot(player="blue", shooter="blue-scouts", target="red-skirmishers", distance=1),
        dice=[5, 5, 3, 3, 3, 3],
    )
    hits = one(events, ev.HitsTaken)
    assert (hits.hits, hits.armour, hits.stamina_lost) == (2, 3, 0)


def test_a_unit_hit_takes_a_command_test_and_retreats_if_it_fails() -> None:
    g = skirmish()
    g.when(shoot("red-skirmishers", "blue-scouts"), dice=[5, 3, 3, 3, 3, 3])
    events = g.when(c.Roll(player="blue"), dice=[2])
    taken = one(events, ev.CommandTestTaken)
    assert (taken.purpose, taken.reasons, taken.passed) == ("shot", ["hit by missile fire"], False)
    events = g.when(c.AcceptTest(player="blue"), dice=[])
    assert tags(events)[-3:] == ["command_test_resolved", "retreats_ordered", "retreat_began"]
    decision = g.ruleset.decision(g.state)
    assert (decision.kind, decision.about["unit"]) == ("retreat", "blue-scouts")


def test_no_hit_no_command_test() -> None:
    g = skirmish()
    events = g.when(shoot("red-skirmishers", "blue-scouts"), dice=NO_HIT)
    assert tags(events)[-1] == "shooting_ended"
    assert not any(isinstance(e, ev.CommandTestsCalled) for e in events)


def test_a_shot_explains_its_range_killing_zone_and_pool() -> None:
    g = skirmish()
    shot = one(g.when(shoot("red-skirmishers", "blue-scouts"), dice=NO_HIT), ev.ShotsFired)
    assert shot.explain() == (
        "red-skirmishers shoots at blue-scouts, 1 ST away (range 1 ST, Shooting Ranges, p.43), "
        "inside its Killing Zone: 6 Shooting Dice; hits on 5–6: [3, 3, 3, 3, 3, 3] → 0 hits "
        "(Shooting, p.42; HB-18)"
    )


def test_a_shot_must_name_a_target_still_on_the_table() -> None:
    g = skirmish(ev.UnitDestroyed(unit="blue-scouts", reason="test set-up"))
    refused = g.when_rejected(shoot("red-skirmishers", "blue-scouts"), code="rules/gone")
    assert str(refused) == "blue-scouts is no longer on the table (destroyed)"


def test_only_the_shooters_heroes_spend_mighty_deeds_on_it_and_no_more_than_they_have() -> None:
    """Given the Red Lord (3 Mighty Deeds) attached to red's riders, when the riders shoot with
    the Red Champion's deeds, then it is refused (only heroes attached to the shooter, or the
    hero shooting, p.28); with 4 of the lord's, it is refused: he has 3 left."""
    g = red_shooting(scenario=with_lord_on_the_riders())
    refused = g.when_rejected(
        shoot("red-riders", "blue-scouts", deeds={"red-champion": 1}), code="rules/bad_deeds"
    )
    assert str(refused) == (
        "red-champion may not spend Mighty Deeds on red-riders's shooting (only heroes attached "
        "to it, or the hero shooting; Mighty Deeds, p.28)"
    )
    refused = g.when_rejected(
        shoot("red-riders", "blue-scouts", deeds={"red-lord": 4}), code="rules/no_deeds"
    )
    assert str(refused) == "red-lord has 3 Mighty Deeds left, not 4"
