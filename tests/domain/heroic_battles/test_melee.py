"""Melee (pp.50–62): the Combat Dice Penalties (the sheet prints no page on them) and Bonuses
(p.55), hits on 5–6 or 4–6 for Brutal, 1s re-rolled with a Charging or Winning marker, the Support
Saves table, stamina, the outcome (HB-8), retreats, pursue or hold (HB-10) and disengaging
(HB-24)."""

from __future__ import annotations

from msgspec.structs import replace

from tests.domain.heroic_battles.helpers import (
    declare,
    engaged,
    fighting,
    gained,
    game,
    phase,
    pool_of,
    rolling,
    with_hero_trait,
    wounded,
)
from tests.domain.heroic_battles.test_movement import with_trait
from tests.given_when_then import Given, of, one, tags
from warlog.domain.core.events import Event
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.pieces import combat_of
from warlog.domain.heroic_battles.state import MeleeFrame
from warlog.domain.heroic_battles.tables import MELEE


def melee(*setup: Event, version: str = "") -> Given:
    """Red's melee phase, melee-1 about to be declared (red first), under the latest rules or
    the kept ``version``."""
    return game(*setup, *fighting(), version=version)


def fought(
    g: Given, red: c.DeclareMelee | None = None, blue: c.DeclareMelee | None = None
) -> list[Event]:
    """Both sides declare (nothing, unless given) and the dice are rolled, every die a 3."""
    g.when(red or declare("red"), dice=[])
    return rolling(g, blue or declare("blue"))


# -- Combat Dice Penalties (halve the unit's dice for each) ---------------------------------------


def test_a_unit_at_half_stamina_or_less_fights_with_half_its_dice() -> None:
    g = melee(*engaged("red-brutes", "blue-steadfast"), wounded("blue-steadfast", 2))
    pool = pool_of(fought(g), "blue-steadfast")
    assert pool.build() == "12 Combat Dice; half stamina or less → 6; +1D6 Big → 7"


def test_a_secondary_fighting_unit_fights_with_half_its_dice_and_its_hero_with_all_of_his() -> None:
    g = melee(
        *engaged("red-brutes", "blue-steadfast"),
        *engaged("red-warriors", "blue-steadfast", joined=True),
    )
    events = fought(g)
    assert pool_of(events, "red-warriors").build() == "12 Combat Dice; Secondary Fighting Unit → 6"
    assert pool_of(events, "red-lord").build() == "3 Level dice of red-lord"
    assert pool_of(events, "red-brutes").build() == "8 Combat Dice; +2D6 Spears as Tribute → 10"


def test_a_unit_in_rough_terrain_fights_with_half_its_dice_unless_agile() -> None:
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    events = fought(g, red=declare("red", rough=["red-brutes"]))
    assert pool_of(events, "red-brutes").build() == (
        "8 Combat Dice; in rough terrain → 4; +2D6 Spears as Tribute → 6"
    )
    g = melee(*engaged("red-skirmishers", "blue-steadfast"))
    events = fought(g, red=declare("red", rough=["red-skirmishers"]))
    assert pool_of(events, "red-skirmishers").build() == "6 Combat Dice"


def test_a_unit_engaged_in_its_flank_or_rear_fights_with_half_its_dice() -> None:
    g = melee(*engaged("red-brutes", "blue-steadfast", facing="flank"))
    pool = pool_of(fought(g), "blue-steadfast")
    assert pool.build() == "12 Combat Dice; engaged in the flank or rear → 6; +1D6 Big → 7"


def flanked_then_the_flanker_destroyed(version: str = "") -> Given:
    """red-riders charged blue-steadfast in the flank, red-brutes joined it from the front, and
    red-riders were destroyed before the melee was fought."""
    return game(
        *engaged("red-riders", "blue-steadfast", facing="flank"),
        *engaged("red-brutes", "blue-steadfast", joined=True),
        ev.UnitDestroyed(unit="red-riders", reason="test set-up", how="destroyed"),
        *fighting(),
        version=version,
    )


def test_the_flank_penalty_ends_with_the_last_enemy_that_charged_there() -> None:
    """HB-37 (Combat Dice Penalties, version 3): a unit is engaged in the flank only while an
    enemy that charged it there fights; with only a front enemy left it fights with its whole
    dice."""
    g = flanked_then_the_flanker_destroyed()
    assert g.state.combats[0].flanked == () and g.state.combats[0].flankers == ()
    assert pool_of(fought(g), "blue-steadfast").build() == "12 Combat Dice; +1D6 Big → 13"


def test_the_flank_penalty_stays_while_another_flanker_fights() -> None:
    """HB-37: two enemies charged it in the flank; one is destroyed, the other still halves it."""
    g = game(
        *engaged("red-riders", "blue-steadfast", facing="flank"),
        *engaged("red-brutes", "blue-steadfast", facing="rear", joined=True),
        ev.UnitDestroyed(unit="red-riders", reason="test set-up", how="destroyed"),
        *fighting(),
    )
    assert g.state.combats[0].flankers == (("blue-steadfast", "red-brutes"),)
    pool = pool_of(fought(g), "blue-steadfast")
    assert pool.build() == "12 Combat Dice; engaged in the flank or rear → 6; +1D6 Big → 7"


def test_a_version_2_game_keeps_the_flank_penalty_after_its_flanker_is_gone() -> None:
    """Version 2 kept the penalty until the unit itself left the melee, and plays on so."""
    g = flanked_then_the_flanker_destroyed(version="2")
    pool = pool_of(fought(g), "blue-steadfast")
    assert pool.build() == "12 Combat Dice; engaged in the flank or rear → 6; +1D6 Big → 7"


# -- Combat Dice Bonuses (p.55) -----------------------------------------------------------------------


def test_each_hero_fighting_adds_a_die_per_level_and_one_per_mighty_deed() -> None:
    g = melee(*engaged("red-warriors", "blue-steadfast"))
    events = fought(g, red=declare("red", deeds={"red-lord": 2}))
    assert pool_of(events, "red-lord").build() == "3 Level dice of red-lord; +2D6 Mighty Deeds → 5"
    assert one(events, ev.DeedsSpent) == ev.DeedsSpent(
        hero="red-lord", deeds=2, purpose="combat dice in melee-1"
    )
    assert g.state.heroes["red-lord"].deeds == 1


def test_a_big_hero_adds_a_die_to_his_combat_dice() -> None:
    """Given the Red Lord made Big, when he fights with a Mighty Deed, then his dice are his
    level, the deed and 1D6 for Big (Combat Dice table: "Unit or Hero has the Big/Towering
    trait 1D6/2D6")."""
    big_lord = with_hero_trait("red-lord", "big")
    g = game(*engaged("red-warriors", "blue-steadfast"), *fighting(), scenario=big_lord)
    events = fought(g, red=declare("red", deeds={"red-lord": 1}))
    assert pool_of(events, "red-lord").build() == (
        "3 Level dice of red-lord; +1D6 Mighty Deed → 4; +1D6 Big → 5"
    )


def test_spears_as_tribute_adds_two_dice_only_at_full_stamina() -> None:
    g = melee(*engaged("red-brutes", "blue-steadfast"), wounded("red-brutes", 1))
    assert pool_of(fought(g), "red-brutes").build() == "8 Combat Dice"


def test_an_impetuous_unit_at_full_stamina_with_a_charging_marker_adds_a_die() -> None:
    g = game(
        *phase("movement", "blue"),
        *engaged("blue-horde", "red-brutes"),
        *fighting(force="blue"),
    )
    g.when(declare("blue"), dice=[])
    events = rolling(g, declare("red"))
    assert pool_of(events, "blue-horde").build() == "8 Combat Dice; +1D6 Impetuous → 9"
    assert pool_of(events, "blue-proud").build() == "2 Level dice of blue-proud"


def test_an_impetuous_unit_that_lost_stamina_adds_no_die() -> None:
    g = game(
        *phase("movement", "blue"),
        *engaged("blue-horde", "red-brutes"),
        wounded("blue-horde", 1),
        *fighting(force="blue"),
    )
    assert g.state.units["blue-horde"].charging and g.state.units["blue-horde"].stamina == 3
    g.when(declare("blue"), dice=[])
    events = rolling(g, declare("red"))
    assert pool_of(events, "blue-horde").build() == "8 Combat Dice"


def test_an_impetuous_unit_at_full_stamina_with_a_winning_marker_adds_a_die() -> None:
    """Combat Dice Bonuses (p.55): Impetuous gives 1D6 "at full Stamina with a Charging or
    Winning marker". Given blue's horde won its melee untouched and pursued (the melee goes on),
    when it fights again in red's next melee phase with only its Winning marker, then it adds
    the die and re-rolls its 1s for that marker."""
    g = game(
        *phase("movement", "blue"), *engaged("blue-horde", "red-brutes"), *fighting(force="blue")
    )
    g.when(declare("blue"), dice=[])
    g.when(declare("red"), dice=[5, 5, 5, 5] + [3] * 7 + [3] * 10)  # blue 4 hits, red none
    g.when(c.DeclareRetreat(player="red", unit="red-brutes", into="clear"), dice=[])
    g.when(c.EndShooting(player="blue"), dice=[])
    g.when(c.EndShooting(player="red"), dice=[])  # the turn ends; turn 2 begins
    g.when(c.EndMovement(player="red"), dice=[])
    g.when(c.EndShooting(player="red"), dice=[])  # red's skirmish shooting; its melee next
    horde = g.state.units["blue-horde"]
    assert (horde.winning, horde.charging, horde.stamina) == (True, False, horde.max_stamina)
    pool = pool_of(fought(g), "blue-horde")
    assert (pool.build(), pool.reroll_reason) == (
        "8 Combat Dice; +1D6 Impetuous → 9",
        "Winning marker",
    )


def test_big_and_towering_add_one_and_two_dice() -> None:
    g = melee(*engaged("red-brutes", "blue-giant"))
    assert pool_of(fought(g), "blue-giant").build() == "10 Combat Dice; +2D6 Towering → 12"


# -- hits and re-rolls ------------------------------------------------------------------------------


def test_combat_dice_hit_on_5_or_6_and_brutal_ones_on_4_to_6() -> None:
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    g.when(declare("red"), dice=[])
    faces_red = [4, 4, 5, 6, 3, 3, 3, 3, 2, 2]  # Brutal: 4 hits
    faces_blue = [4, 4, 5, 6, 3, 3, 3, 3, 2, 2, 2, 2, 2]  # 2 hits
    events = g.when(declare("blue"), dice=faces_red + faces_blue)
    assert (pool_of(events, "red-brutes").hits, pool_of(events, "blue-steadfast").hits) == (4, 2)


def test_each_side_declares_its_melee_in_turn_and_the_dice_wait_for_both() -> None:
    # given the melee of red's warriors (the Red Lord with them, 3 Mighty Deeds) and blue's
    g = melee(*engaged("red-warriors", "blue-warriors"))
    # when red declares the lord's Mighty Deed spent on combat dice
    events = g.when(declare("red", deeds={"red-lord": 1}), dice=[])
    # then the declaration is recorded for red alone, nothing is rolled, and blue declares next
    assert events == [ev.MeleeDeclared(combat="melee-1", force="red", deeds={"red-lord": 1})]
    frame = g.state.frames[-1]
    assert isinstance(frame, MeleeFrame) and list(frame.declared) == ["red"]
    assert frame.declared["red"].deeds == {"red-lord": 1}
    assert g.ruleset.decision(g.state).players == ("blue",)
    assert events[0].explain() == (
        f"red in melee melee-1: red-lord spends 1 Mighty Deed on combat dice ({MELEE})"
    )
    # and when blue declares nothing, its declaration says so and the combat dice are rolled
    events = rolling(g, declare("blue"))
    assert events[0] == ev.MeleeDeclared(combat="melee-1", force="blue")
    assert events[0].explain() == f"blue in melee melee-1: nothing declared ({MELEE})"
    assert of(events, ev.CombatDiceRolled)


def test_a_unit_with_a_charging_marker_re_rolls_its_1s_in_a_roll_of_their_own() -> None:
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    g.when(declare("red"), dice=[])
    events = g.when(declare("blue"), dice=[1, 1, 5] + [3] * 7 + [3] * 13)
    awaited = one(events, ev.DiceAwaited)
    assert (awaited.roller, awaited.dice) == ("red", 2)
    assert "2 × 1 to re-roll (Charging marker)" in pool_of(events, "red-brutes").explain()
    events = g.when(c.Roll(player="red"), dice=[4, 1])
    rerolled = one(events, ev.OnesRerolled)
    assert (rerolled.owner, rerolled.faces, rerolled.hits) == ("red-brutes", [4, 1], 1)
    counted = one(events, ev.MeleeHitsCounted)
    assert counted.scored == {"red": 2, "blue": 0}


def test_no_marker_no_re_roll() -> None:
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    g.when(declare("red"), dice=[])
    events = g.when(declare("blue"), dice=[3] * 10 + [1] * 13)
    assert "to re-roll" not in pool_of(events, "blue-steadfast").explain()
    assert not of(events, ev.DiceAwaited)


# -- Support Saves: each 5 or 6 removes a hit -----------------------------------------------------------


def saves_of(events: list[Event], force: str) -> ev.SupportSavesRolled:
    return next(e for e in of(events, ev.SupportSavesRolled) if e.force == force)


def test_a_skirmisher_or_light_rider_unit_gives_1d6_of_saves() -> None:
    """Support Saves (Melee pp.50–62): "Skirmisher/ Light Rider Unit 1D6 each"."""
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    events = fought(
        g,
        red=declare("red", supports=["red-skirmishers"]),
        blue=declare("blue", supports=["blue-scouts"]),
    )
    assert [(t.label, t.dice) for t in saves_of(events, "red").terms] == [
        ("support red-skirmishers", 1)
    ]
    assert [(t.label, t.dice) for t in saves_of(events, "blue").terms] == [
        ("support blue-scouts", 1)
    ]


def test_a_warrior_heavy_rider_or_monstrosity_unit_gives_2d6_of_saves() -> None:
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    events = fought(g, blue=declare("blue", supports=["blue-warriors", "blue-giant"]))
    assert [(t.label, t.dice) for t in saves_of(events, "blue").terms] == [
        ("support blue-warriors", 2),
        ("support blue-giant", 2),
    ]


def test_holding_a_hill_or_barrier_gives_2d6_of_saves() -> None:
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    events = fought(g, blue=declare("blue", holding=True))
    assert [(t.label, t.dice) for t in saves_of(events, "blue").terms] == [
        ("holding a hill or barrier", 2)
    ]


def test_an_inspiring_hero_not_in_melee_gives_2d6_of_saves_per_mighty_deed() -> None:
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    events = fought(g, blue=declare("blue", inspire={"blue-king": 2}))
    assert [(t.label, t.dice) for t in saves_of(events, "blue").terms] == [
        ("blue-king Inspiring", 4)
    ]
    assert g.state.heroes["blue-king"].deeds == 0


def test_an_inspiring_hero_gives_no_more_mighty_deeds_than_he_has_left() -> None:
    # given blue-king, Inspiring with 2 Mighty Deeds, out of the melee red has declared
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    g.when(declare("red"), dice=[])
    # when blue declares him inspiring with 3, then it is refused, and nothing is spent
    refused = g.when_rejected(declare("blue", inspire={"blue-king": 3}), code="rules/no_deeds")
    assert str(refused) == "blue-king has 2 Mighty Deeds left, not 3"
    assert g.state.heroes["blue-king"].deeds == 2


def test_a_dead_inspiring_hero_inspires_nobody() -> None:
    """Given the Blue King (Inspiring, 2 Mighty Deeds) shot dead, when blue declares him
    inspiring its melee, then it is refused: only a living hero inspires (trait, p.72)."""
    g = melee(
        *engaged("red-brutes", "blue-steadfast"), ev.HeroKilled(hero="blue-king", cause="shooting")
    )
    g.when(declare("red"), dice=[])
    refused = g.when_rejected(declare("blue", inspire={"blue-king": 1}), code="rules/bad_deeds")
    assert str(refused).startswith("blue-king cannot inspire")


def test_a_non_combatant_may_name_no_mighty_deeds_and_none_are_recorded() -> None:
    """Given the Blue Priest (Non-Combatant) in a melee, when blue declares him with 0 Mighty
    Deeds, then the declaration stands and records no deeds (p.73 refuses only deeds spent)."""
    g = melee(*engaged("red-champion", "blue-priest"))
    g.when(declare("red"), dice=[])
    events = g.when(declare("blue", deeds={"blue-priest": 0}), apply=False, dice=None)
    assert one(events, ev.MeleeDeclared).deeds == {}
    refused = g.when_rejected(declare("blue", deeds={"blue-priest": 1}), code="rules/bad_deeds")
    assert str(refused) == (
        "blue-priest is a Non-Combatant: no Mighty Deeds for combat dice (p.73)"
    )


def test_each_save_on_5_or_6_removes_a_hit() -> None:
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    g.when(declare("red"), dice=[])
    red = [5, 5, 5, 5] + [3] * 6  # 4 hits
    blue = [3] * 13  # no hit
    saves = [6, 5, 4, 3]  # blue-warriors and blue-giant in support: 2 saves
    events = g.when(
        declare("blue", supports=["blue-warriors", "blue-giant"]), dice=red + blue + saves
    )
    assert saves_of(events, "blue").saves == 2
    counted = one(events, ev.MeleeHitsCounted)
    assert (counted.scored["red"], counted.saves["blue"], counted.conceded["blue"]) == (4, 2, 2)
    assert "blue-steadfast (blue) takes 4 hits − 2 saved → 2" in counted.explain()


def test_saves_remove_legendary_weapon_hits_first_and_those_cost_a_stamina_point_each() -> None:
    g = melee(*engaged("red-warriors", "blue-steadfast"))
    g.when(declare("red"), dice=[])
    red = [3] * 12 + [6, 6, 6]  # red-warriors no hit; the Red Lord's Legendary Weapon: 3 hits
    blue = [3] * 13
    events = g.when(declare("blue", holding=True), dice=red + blue + [5, 2])
    counted = one(events, ev.MeleeHitsCounted)
    assert (counted.conceded["blue"], counted.legendary_conceded["blue"]) == (2, 2)
    damage = one(events, ev.MeleeDamage)
    assert [(x.unit, x.hits, x.legendary, x.stamina_lost) for x in damage.losses] == [
        ("blue-steadfast", 2, 2, 2)
    ]
    assert (
        "2 Legendary Weapon hits × 1 + (0 ÷ Armour 3, rounded down) = 2 stamina points lost"
        in damage.explain()
    )


def test_saves_fewer_than_the_legendary_weapon_hits_leave_every_plain_hit_standing() -> None:
    g = melee(*engaged("red-warriors", "blue-steadfast"))
    g.when(declare("red"), dice=[])
    red = [5, 5, 5] + [3] * 9 + [6, 6, 3]  # red-warriors 3 hits; the Red Lord's Legendary Weapon 2
    blue = [3] * 13
    events = g.when(declare("blue", holding=True), dice=red + blue + [5, 6])  # 2 saves
    counted = one(events, ev.MeleeHitsCounted)
    assert (counted.scored["red"], counted.legendary["red"], counted.saves["blue"]) == (5, 2, 2)
    # both saves go to the Legendary Weapon hits (HB-12): 3 plain hits and none Legendary stand
    assert (counted.conceded["blue"], counted.legendary_conceded["blue"]) == (3, 0)
    damage = one(events, ev.MeleeDamage)
    assert [(x.unit, x.hits, x.legendary, x.stamina_lost) for x in damage.losses] == [
        ("blue-steadfast", 3, 0, 1)
    ]


# -- declarations are checked -------------------------------------------------------------------------


def test_supports_deeds_and_inspiration_must_be_the_declaring_sides_to_give() -> None:
    g = melee(
        *engaged("red-warriors", "blue-steadfast"),
        *engaged("red-brutes", "blue-horde", combat="melee-2"),
    )
    g.when_rejected(declare("red", supports=["blue-scouts"]), code="rules/bad_support")
    g.when_rejected(declare("red", supports=["red-brutes"]), code="rules/bad_support")
    g.when_rejected(
        declare("red", supports=["red-archers", "red-archers"]), code="rules/bad_support"
    )
    g.when_rejected(declare("red", deeds={"red-champion": 1}), code="rules/bad_deeds")
    g.when_rejected(declare("red", deeds={"red-lord": 4}), code="rules/no_deeds")
    g.when_rejected(declare("red", inspire={"red-lord": 1}), code="rules/bad_deeds")
    g.when_rejected(declare("red", rough=["blue-steadfast"]), code="rules/bad_choice")
    g.when_rejected(declare("red", combat="melee-2"), code="rules/bad_choice")
    g.when_rejected(declare("blue"), code="rules/not_your_turn")


# -- the outcome (HB-8), retreats, pursue or hold (HB-10) -------------------------------------------


def red_wins(g: Given) -> list[Event]:
    """red-brutes (no 1s) 4 hits against blue-steadfast's none."""
    g.when(declare("red"), dice=[])
    return g.when(declare("blue"), dice=[5, 5, 5, 5] + [3] * 6 + [3] * 13)


def test_more_hits_win_a_fighting_victory_the_loser_retreats_the_winner_takes_a_winning_marker() -> (
    None
):
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    events = red_wins(g)
    decided = one(events, ev.MeleeDecided)
    assert (decided.outcome, decided.winner, decided.loser) == ("fighting_victory", "red", "blue")
    assert decided.scored == {"red": 4, "blue": 0}
    damage = one(events, ev.MeleeDamage)
    assert [(x.unit, x.stamina_lost) for x in damage.losses] == [("blue-steadfast", 1)]
    assert g.state.units["red-brutes"].winning and not g.state.units["red-brutes"].charging
    assert one(events, ev.RetreatsOrdered).orders[0].unit == "blue-steadfast"
    decision = g.ruleset.decision(g.state)
    assert (decision.kind, decision.about["unit"]) == ("retreat", "blue-steadfast")


def test_the_winner_pursues_and_the_melee_goes_on() -> None:
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    red_wins(g)
    g.when(c.DeclareRetreat(player="blue", unit="blue-steadfast", into="clear"), dice=[])
    assert g.ruleset.decision(g.state).kind == "pursuit"
    events = g.when(c.Pursue(player="red"), dice=[])
    assert tags(events)[:2] == ["pursued", "melee_ended"]
    assert combat_of(g.state, "blue-steadfast") is not None


def test_the_winner_holds_its_ground_and_the_melee_ends() -> None:
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    red_wins(g)
    g.when(c.DeclareRetreat(player="blue", unit="blue-steadfast", into="clear"), dice=[])
    g.when(c.HoldGround(player="red"), dice=[])
    assert combat_of(g.state, "red-brutes") is None


def test_an_impetuous_winner_must_pursue() -> None:
    g = game(
        *phase("movement", "blue"), *engaged("blue-horde", "red-brutes"), *fighting(force="blue")
    )
    g.when(declare("blue"), dice=[])
    blue = [5, 5, 5, 5] + [3] * 5 + [3, 3]  # blue-horde 9 dice, blue-proud 2
    events = g.when(declare("red"), dice=blue + [3] * 10)
    assert one(events, ev.MeleeDecided).winner == "blue"
    events = g.when(c.DeclareRetreat(player="red", unit="red-brutes", into="clear"), dice=[])
    pursued = one(events, ev.Pursued)
    assert pursued.forced and "Impetuous" in pursued.explain()


def test_equal_hits_are_a_draw_and_the_melee_goes_on_without_markers() -> None:
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    events = fought(g)
    decided = one(events, ev.MeleeDecided)
    assert (decided.outcome, decided.winner) == ("draw", "")
    assert not of(events, ev.RetreatsOrdered)
    assert combat_of(g.state, "red-brutes") is not None
    assert not g.state.units["red-brutes"].charging and not g.state.units["red-brutes"].winning


def test_a_side_with_no_fighter_left_is_destroyed() -> None:
    g = melee(*engaged("red-brutes", "blue-scouts"), wounded("blue-scouts", 1))
    g.when(declare("red"), dice=[])
    events = g.when(declare("blue"), dice=[5, 5, 5] + [3] * 7 + [3] * 3)  # scouts at half: 3
    destroyed = one(events, ev.UnitDestroyed)
    assert destroyed.unit == "blue-scouts"
    decided = one(events, ev.MeleeDecided)
    assert (decided.outcome, decided.winner) == ("destroyed", "red")
    assert combat_of(g.state, "red-brutes") is None


def test_an_unattached_hero_winning_a_round_against_a_unit_earns_a_token() -> None:
    g = melee(*engaged("red-champion", "blue-steadfast"))
    g.when(declare("red"), dice=[])
    events = g.when(declare("blue"), dice=[4] + [3] * 13)  # Brutal champion: 1 hit
    assert gained(events, "red") == [
        "an unattached hero wins a round of combat against an enemy unit"
    ]


# -- disengaging (HB-24) ------------------------------------------------------------------------------


def test_a_unit_with_disengage_may_leave_a_melee_against_warriors_after_a_test() -> None:
    g = melee(*engaged("red-riders", "blue-steadfast"))
    fought(g)
    decision = g.ruleset.decision(g.state)
    assert (decision.kind, decision.about["unit"]) == ("disengage", "red-riders")
    events = g.when(c.Disengage(player="red", unit="red-riders"), dice=[4])
    assert one(events, ev.Disengaged).explain() == (
        "red-riders disengages: it moves back 1 ST out of the melee (HB-24)"
    )
    assert combat_of(g.state, "red-riders") is None


def test_a_disengage_is_declared_before_its_test_and_a_failed_one_leaves_the_unit_engaged() -> None:
    # given red's riders asked whether they disengage from blue's warriors (HB-24)
    g = melee(*engaged("red-riders", "blue-steadfast"))
    fought(g)
    # when they try and roll a 1
    events = g.when(c.Disengage(player="red", unit="red-riders"), dice=[1])
    # then the attempt is declared first, its command test follows, and the riders count as
    # asked: the one attempt of this melee is spent
    assert events[0] == ev.DisengageDeclared(unit="red-riders")
    assert tags(events)[:2] == ["disengage_declared", "command_tests_called"]
    frame = g.state.frames[0]
    assert isinstance(frame, MeleeFrame) and frame.asked == ("red-riders",)
    assert events[0].explain() == "red-riders attempts to disengage (HB-24)"
    # and, the failed test accepted, the melee ends with the riders still in it
    events = g.when(c.AcceptTest(player="red"), dice=[])
    assert tags(events)[:2] == ["command_test_resolved", "melee_ended"]
    assert combat_of(g.state, "red-riders") is not None


def test_a_unit_that_may_disengage_may_stay_and_the_melee_then_ends_with_it_engaged() -> None:
    # given red's riders asked whether they disengage from blue's warriors
    g = melee(*engaged("red-riders", "blue-steadfast"))
    fought(g)
    assert g.ruleset.decision(g.state).kind == "disengage"
    # when they stay (HB-24)
    events = g.when(c.StayEngaged(player="red", unit="red-riders"))
    # then no test is taken, the melee's fighting ends (the phase with it), and they are still in it
    assert [type(e) for e in events][:2] == [ev.StayedEngaged, ev.MeleeEnded]
    assert events[0].explain() == "red-riders stays in the melee (HB-24)"
    assert combat_of(g.state, "red-riders") is not None
    # and nobody is asked again: a second answer is refused, the melee phase being over
    g.when_rejected(c.StayEngaged(player="red", unit="red-riders"), "rules/wrong_phase")


def test_no_disengaging_from_a_melee_with_riders_among_the_enemy() -> None:
    """Given red's riders (Disengage) in a melee against blue's steadfast warriors and blue's
    scouts (riders), when the melee is fought, then they are not asked to disengage: every
    enemy must be Warriors, Skirmishers or Monstrosities (HB-24)."""
    g = melee(
        *engaged("red-riders", "blue-steadfast"), *engaged("blue-scouts", "red-riders", joined=True)
    )
    fought(g)
    assert g.ruleset.decision(g.state).kind != "disengage"


def test_no_disengaging_from_riders() -> None:
    g = melee(*engaged("red-riders", "blue-scouts"))
    fought(g)
    assert g.ruleset.decision(g.state).kind != "disengage"


def test_the_invariants_name_a_flank_without_its_flanker_in_version_3_only() -> None:
    """HB-37's invariants: a version-3 melee flanked by no fighter is a broken state (the fuzzer
    and the state machine check it after every step); version 2 kept such flanks; a flanker pair
    naming a piece not in the melee is broken in every version."""
    from warlog.domain.heroic_battles.invariants import violations

    for version, broken in (("", True), ("2", False)):
        g = game(*engaged("red-brutes", "blue-steadfast"), version=version)
        melee = replace(g.state.combats[0], flanked=("blue-steadfast",), flankers=())
        lines = [v.line() for v in violations(replace(g.state, combats=(melee,)))]
        assert any("melee-1 is flanked by no fighter (HB-37)" in line for line in lines) is broken
        stray = replace(melee, flankers=(("blue-steadfast", "red-riders"),))
        lines = [v.line() for v in violations(replace(g.state, combats=(stray,)))]
        assert any("melee-1 has a flanker of no fighter" in line for line in lines)


def test_the_declarations_offered_name_holding_rough_ground_and_each_possible_support() -> None:
    """Given red's brutes in a melee with blue's steadfast, when legal lists red's declarations,
    then it offers none, holding a hill or barrier, its fighter in rough terrain, and each unit
    out of a melee in support, one by one (HB-35; at most 3 listed)."""
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    assert g.ruleset.legal_commands(g.state, "red") == [
        declare("red"),
        declare("red", holding=True),
        declare("red", rough=["red-brutes"]),
        declare("red", supports=["red-warriors"]),
        declare("red", supports=["red-riders"]),
        declare("red", supports=["red-archers"]),
    ]


def test_two_units_that_may_disengage_are_asked_one_at_a_time_in_the_order_they_fight() -> None:
    """Given red's riders and red's skirmishers (given Disengage) in one melee against blue's
    steadfast warriors, when it is fought, then the riders, first in, are asked first (HB-24):
    the skirmishers' answer is refused until the riders have answered; then it is theirs."""
    g = game(
        *engaged("red-riders", "blue-steadfast"),
        *engaged("red-skirmishers", "blue-steadfast", joined=True),
        *fighting(),
        scenario=with_trait("red-skirmishers", "disengage"),
    )
    fought(g)
    assert g.ruleset.decision(g.state).about["unit"] == "red-riders"
    error = g.when_rejected(c.StayEngaged(player="red", unit="red-skirmishers"), "rules/bad_choice")
    assert "red-riders is asked first, not red-skirmishers" in error.message
    g.when(c.StayEngaged(player="red", unit="red-riders"))
    decision = g.ruleset.decision(g.state)
    assert (decision.kind, decision.about["unit"]) == ("disengage", "red-skirmishers")
    # the riders, once asked, are not asked again
    error = g.when_rejected(c.Disengage(player="red", unit="red-riders"), "rules/bad_choice")
    assert "red-riders may not disengage from melee-1 now (HB-24)" in error.message
    assert of(g.when(c.StayEngaged(player="red", unit="red-skirmishers")), ev.MeleeEnded)
