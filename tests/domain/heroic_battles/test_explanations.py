"""Why each event happened, as a referee reads it: the explanation says what the rules did in the
case at hand (a hero shooting, a melee left with no fighter, a Drilled unit's test, a Fearsome
winner's retreat), not the common case's rule."""

from __future__ import annotations

import msgspec

from tests.domain.heroic_battles.helpers import (
    BLUE_MOVES,
    declare,
    engaged,
    game,
    pool_of,
    rolling,
)
from tests.domain.heroic_battles.test_charges import charge
from tests.domain.heroic_battles.test_melee import melee
from tests.domain.heroic_battles.test_shooting import shoot, skirmish
from tests.given_when_then import of, one
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles import rulings
from warlog.domain.heroic_battles.rulings import FIRST_COMBAT_REASON
from warlog.domain.heroic_battles.values import Loss, RetreatOrder, Term


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
    g = game(*BLUE_MOVES)
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


# -- the referee's findings: the rule each number follows, in a player's words ---------------------


def test_the_first_combat_token_cites_hb_6_and_hb_38() -> None:
    # given no combat yet, when the Red Lord's unit charges the Blue King's
    events = game().when(charge("red-warriors", "blue-warriors"), dice=[])
    first = next(e for e in of(events, ev.ReputationGained) if e.reason == FIRST_COMBAT_REASON)
    # then the token cites p.23, HB-6 (one hero per charging unit) and HB-38 (once, the first)
    assert first.explain() == (
        "red gain 1 Reputation Token: red-lord: a hero charges into the first combat of the game "
        "(Gaining or Losing Reputation, p.23; HB-6: one hero per charging unit, the Army "
        "Commander, else the highest level; HB-38: once per game, to the first hero to charge "
        "into it)"
    )
    # and a token that is not a charge's cites neither
    drawn = ev.ReputationGained(
        force="red", tokens=1, reason="a hero draws a round of single combat", who="red-lord"
    )
    assert drawn.explain().endswith("(Gaining or Losing Reputation, p.23)")
    # the other charge gains of p.23 cite HB-6 alone: HB-38 is the first combat's
    for reason in (
        rulings.CHARGE_REASON,
        rulings.COMMANDER_UNIT_REASON,
        rulings.COMMANDER_CHARGES_REASON,
    ):
        gained = ev.ReputationGained(force="red", tokens=1, reason=reason, who="red-lord")
        assert gained.explain() == (
            f"red gain 1 Reputation Token: red-lord: {reason} (Gaining or Losing Reputation, "
            "p.23; HB-6: one hero per charging unit, the Army Commander, else the highest level)"
        )


def test_a_flank_charge_names_the_flanker_and_how_long_the_penalty_lasts() -> None:
    events = game().when(charge("red-brutes", "blue-horde", facing="rear"), dice=[])
    assert (
        "; blue-horde is engaged in its rear by red-brutes (a unit fights on half dice while an "
        "enemy that charged it there still fights: Combat Dice Penalties, Melee pp.50–62; HB-37; "
        "a hero's dice are never halved, HB-18)" in one(events, ev.ChargeContacted).explain()
    )


def test_a_flanked_units_dice_cite_the_penalty_where_the_sheet_has_it_and_hb_37() -> None:
    g = melee(*engaged("red-brutes", "blue-steadfast", facing="flank"))
    g.when(declare("red"), dice=[])
    events = rolling(g, declare("blue"))
    dice = {e.pool.owner: e.explain() for e in of(events, ev.CombatDiceRolled)}
    assert dice["blue-steadfast"].endswith(
        "(Combat Dice Penalties, Melee pp.50–62; Combat Dice Bonuses, p.55; HB-18; HB-37, since "
        "version 3: a flank or rear engagement halves the dice while an enemy that charged there "
        "still fights)"
    )
    assert "HB-37" not in dice["red-brutes"] and "p.57" not in dice["red-brutes"]


def test_arithmetic_reads_as_a_player_says_it_and_a_cause_of_death_in_words() -> None:
    damage = ev.MeleeDamage(
        combat="melee-1",
        losses=[Loss(unit="blue-warriors", hits=5, legendary=0, armour=3, stamina_lost=1)],
    )
    text = damage.explain()
    assert text.startswith(
        "blue-warriors: 5 ÷ Armour 3, rounded down = 1 stamina point lost (leftover hits are "
        "lost; Melee, pp.50–62"
    )
    assert "//" not in text and "HB-12" not in text  # no Legendary Weapon hit: no HB-12
    assert ev.HeroKilled(hero="red-lord", cause="single_combat").explain() == (
        "red-lord is killed in single combat: the Hero Death table is rolled (Hero Death in "
        "Combat, p.57)"
    )
    assert ev.HeroKilled(hero="red-lord", cause="shooting").explain() == (
        "red-lord is killed by shooting (no Hero Death roll outside combat, HB-14)"
    )


def test_support_saves_cite_their_box_and_hb_35_and_say_which_hits_they_removed() -> None:
    # given the Red Lord's Legendary Weapon against blue-steadfast, holding a hill
    g = melee(*engaged("red-warriors", "blue-steadfast"))
    g.when(declare("red"), dice=[])
    red = [3] * 12 + [6, 6, 6]  # red-warriors no hit; the Red Lord's Legendary Weapon: 3 hits
    blue = [3] * 13
    # when blue declares (holding a hill: 2 save dice, one 5)
    events = g.when(declare("blue", holding=True), dice=red + blue + [5, 2])
    # then the Legendary hits are flagged where they are rolled
    assert (
        pool_of(events, "red-lord")
        .explain()
        .endswith(
            "→ 3 hits (Legendary Weapon dice: each hit costs 1 stamina whatever the Armour, and "
            "support saves remove these first, HB-12)"
        )
    )
    # the saves cite their box (no supporting unit: no HB-35)
    assert one(events, ev.SupportSavesRolled).explain() == (
        "blue support saves (Support Saves, Melee pp.50–62): 2D6 holding a hill or barrier: "
        "[5, 2] → 1 save on 5–6"
    )
    # and the count says which hits the save removed
    assert one(events, ev.MeleeHitsCounted).explain() == (
        "red-warriors (red) takes 0 hits; blue-steadfast (blue) takes 3 hits (3 from a Legendary "
        "Weapon) − 1 saved, the Legendary Weapon hits first → 2, 2 of them from a Legendary "
        "Weapon (HB-7: every hit lands on the enemy's primary fighter; HB-12: support saves "
        "remove Legendary Weapon hits first)"
    )


def test_support_saves_from_a_supporting_unit_cite_hb_35() -> None:
    saves = ev.SupportSavesRolled(
        combat="melee-1",
        force="blue",
        terms=[Term(label="support blue-scouts", dice=1)],
        faces=[6],
        saves=1,
    )
    assert saves.explain() == (
        "blue support saves (Support Saves, Melee pp.50–62; HB-35: any friendly unit on the table "
        "and not in a melee may be declared in support): 1D6 support blue-scouts: [6] → 1 save "
        "on 5–6"
    )


# -- HB-15 cited for an unattached hero's loss alone (since version 4) -----------------------------


def test_a_units_loss_in_melee_does_not_cite_the_unattached_heroes_ruling() -> None:
    # given red-brutes fighting blue-steadfast, no hero in either
    g = melee(*engaged("red-brutes", "blue-steadfast"))
    g.when(declare("red"), dice=[])
    # when red-brutes score 4 hits and blue-steadfast none
    events = g.when(declare("blue"), dice=[5, 5, 5, 5] + [3] * 6 + [3] * 13)
    damage = one(events, ev.MeleeDamage)
    # then the loss is recorded as a unit's, and its explanation cites no HB-15
    assert [(x.unit, x.hero) for x in damage.losses] == [("blue-steadfast", False)]
    assert damage.explain() == (
        "blue-steadfast: 4 ÷ Armour 3, rounded down = 1 stamina point lost (leftover hits are "
        "lost; Melee, pp.50–62)"
    )


def test_an_unattached_heros_loss_in_melee_cites_hb_15_and_the_units_beside_it_does_not() -> None:
    # given the unattached Red Champion fighting blue-steadfast
    g = melee(*engaged("red-champion", "blue-steadfast"))
    g.when(declare("red"), dice=[])
    # when the Champion scores 1 hit (Brutal: a 4) and blue-steadfast 5
    events = g.when(declare("blue"), dice=[4] + [5] * 5 + [3] * 8)
    damage = one(events, ev.MeleeDamage)
    # then the Champion's loss is an unattached hero's and cites HB-15; the unit's does not
    assert [(x.unit, x.hero) for x in damage.losses] == [
        ("red-champion", True),
        ("blue-steadfast", False),
    ]
    assert damage.explain() == (
        "red-champion, an unattached hero, by its Armour (HB-15): 5 ÷ Armour 3, rounded down = "
        "1 stamina point lost; blue-steadfast: 1 ÷ Armour 3, rounded down = 0 stamina points "
        "lost (leftover hits are lost; Melee, pp.50–62)"
    )


def test_a_version_3_melee_keeps_its_loss_and_its_explanation_as_they_were() -> None:
    # given a game begun under version 3, the Red Champion fighting blue-steadfast
    g = melee(*engaged("red-champion", "blue-steadfast"), version="3")
    g.when(declare("red"), dice=[])
    # when the same dice are rolled
    events = g.when(declare("blue"), dice=[4] + [5] * 5 + [3] * 8)
    damage = one(events, ev.MeleeDamage)
    # then no loss says whose it is (its log encodes as version 3's always did) ...
    assert [x.hero for x in damage.losses] == [None, None]
    assert b"hero" not in msgspec.json.encode(damage)
    # ... and the whole melee cites HB-15, as version 3 explained it
    assert damage.explain() == (
        "red-champion: 5 ÷ Armour 3, rounded down = 1 stamina point lost; blue-steadfast: 1 ÷ "
        "Armour 3, rounded down = 0 stamina points lost (leftover hits are lost; Melee, "
        "pp.50–62; an unattached hero by its Armour, HB-15)"
    )


def test_a_melee_declaration_names_everything_its_side_declared() -> None:
    """Given blue's horde (Blue Proud attached) in a melee with red's brutes, when blue declares
    holding, rough ground, a support, a Mighty Deed and an Inspiring deed, then the declaration
    names each; with every die a 3 nobody loses stamina, and the damage says so (Melee)."""
    g = melee(*engaged("red-brutes", "blue-horde"))
    g.when(declare("red"), dice=[])
    blue = declare(
        "blue",
        holding=True,
        rough=["blue-horde"],
        supports=["blue-scouts"],
        deeds={"blue-proud": 1},
        inspire={"blue-king": 1},
    )
    events = rolling(g, blue)
    assert one(events, ev.MeleeDeclared).explain() == (
        "blue in melee melee-1: supported by blue-scouts; holding a hill or barrier; in rough "
        "terrain: blue-horde; blue-proud spends 1 Mighty Deed on combat dice; blue-king inspires "
        "with 1 Mighty Deed (Melee, pp.50–62)"
    )
    assert one(events, ev.MeleeDamage).explain() == "melee melee-1: no stamina lost"
