"""Rules outside combat pinned where a mutation review found them untested: which hero earns a
charge's reputation (HB-6), the counter charge's conditions (HB-23), a Non-Combatant leaving a
melee, retreats off the table and into friends in rough terrain, and the HB-38 version gate."""

from __future__ import annotations

import functools

from tests.domain.heroic_battles.helpers import PROVING_GROUND, engaged, gained, game, lost
from tests.given_when_then import of, one, tags
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.scenario import Scenario, parse_scenario
from warlog.domain.heroic_battles.values import RetreatOrder

#: blue's movement phase follows red's (the sheet's turn sequence, p.27)
BLUE_MOVES = (
    ev.PhaseEnded(phase="movement", force="red"),
    ev.PhaseBegan(phase="movement", force="blue"),
)


def charge(unit: str, target: str, player: str = "red", **kw: bool) -> c.Charge:
    return c.Charge(player=player, unit=unit, target=target, facing="front", **kw)


@functools.cache
def legendary_champion() -> Scenario:
    """The proving ground with the Red Champion a Legendary Hero (level 4), above the Red Lord."""
    text = PROVING_GROUND.read_text()
    old = 'id = "red-champion"\nname = "Red Champion"\nlevel = 1\n'
    assert old in text
    return parse_scenario(text.replace(old, old.replace("level = 1", "level = 4")).encode())


# -- which hero earns a charge's reputation (p.23; HB-6) -------------------------------------------


def test_the_army_commander_earns_the_charge_tokens_though_a_hero_of_higher_level_charges_too() -> (
    None
):
    """Given the level-4 Red Champion joined to red-warriors beside the level-3 Army Commander,
    when red-warriors charge, then the Red Lord earns every token, "the Army Commander charges"
    among them (sheet p.23: only 1 Hero per Unit; HB-6: the Army Commander first)."""
    g = game(
        ev.HeroJoined(hero="red-champion", unit="red-warriors", action=1),
        scenario=legendary_champion(),
    )
    events = g.when(charge("red-warriors", "blue-horde"), dice=[])
    assert "the Army Commander charges" in gained(events, "red")
    assert {e.who for e in of(events, ev.ReputationGained)} == {"red-lord"}


def test_of_two_heroes_charging_with_a_unit_the_higher_level_earns_the_tokens() -> None:
    """Given the level-1 Blue Priest joined to blue-horde beside the level-2 Blue Proud, when
    blue-horde charges, then Blue Proud earns the tokens (sheet p.23: only 1 Hero per Unit; HB-6:
    else the highest level), whichever joined first."""
    g = game(*BLUE_MOVES, ev.HeroJoined(hero="blue-priest", unit="blue-horde", action=1))
    events = g.when(charge("blue-horde", "red-brutes", player="blue"), dice=[])
    assert gained(events, "blue") == [
        "a hero charges into combat",
        "a hero charges into the first combat of the game",
    ]
    assert {e.who for e in of(events, ev.ReputationGained)} == {"blue-proud"}


def test_a_version_3_game_gives_the_first_combat_token_to_a_hero_joining_it() -> None:
    """Given a game begun under version 3 (the first with HB-38) and the first combat begun by a
    unit without a hero, when a hero charges into it, then it earns the first-combat token
    (sheet p.23: once per game)."""
    g = game(version="3")
    g.when(charge("red-brutes", "blue-steadfast"), dice=[])
    events = g.when(charge("red-warriors", "blue-steadfast"), dice=[])
    assert "a hero charges into the first combat of the game" in gained(events, "red")


# -- counter charges (HB-23) ------------------------------------------------------------------------


def test_no_counter_charge_against_a_charge_across_a_barrier() -> None:
    """Given red-brutes charging blue-scouts (Counter Charge) to the front across a barrier, when
    the charge's test passes, then the scouts may evade or receive it, not counter charge (HB-23:
    open terrain only)."""
    g = game()
    g.when(charge("red-brutes", "blue-scouts", barrier=True), dice=[5, 5])
    assert g.ruleset.decision(g.state).answers == ("evade", "receive_charge")


def test_a_unit_already_in_a_melee_neither_evades_nor_counter_charges() -> None:
    """Given blue-scouts (Evade, Counter Charge) in a melee with red-riders, when red-brutes
    charge them to the front in the open, then the charge joins that melee with no answer asked
    (HB-22, HB-23: not in a melee)."""
    g = game(*engaged("red-riders", "blue-scouts"))
    events = g.when(charge("red-brutes", "blue-scouts"), dice=[])
    assert tags(events) == ["charge_declared", "charge_contacted"]
    assert one(events, ev.ChargeContacted).joined


# -- leaving a unit in melee (p.23; HB-5) ------------------------------------------------------------


def test_a_non_combatant_hero_leaves_a_unit_in_melee_without_losing_a_token() -> None:
    """Given the Blue Priest (Non-Combatant) with blue-warriors in a melee, when he leaves the
    unit, then he leaves the melee and blue loses no Reputation Token (sheet p.23: "Hero leaves a
    Unit while in combat (unless they have the Non-Combatant Trait)" -1)."""
    g = game(
        ev.HeroJoined(hero="blue-priest", unit="blue-warriors", action=1),
        *engaged("red-brutes", "blue-warriors"),
        *BLUE_MOVES,
    )
    events = g.when(c.LeaveUnit(player="blue", hero="blue-priest"), dice=[])
    assert one(events, ev.HeroLeft).in_melee
    assert lost(events, "blue") == []
    assert g.state.forces["blue"].tokens == game().state.forces["blue"].tokens


# -- retreats (pp.47–48) ------------------------------------------------------------------------------


def test_a_hero_retreating_off_the_table_is_killed_whatever_its_stamina() -> None:
    """Given Blue Proud, unattached with 2 stamina, retreating, when blue declares the retreat
    runs off the table, then he is killed (sheet pp.47-48: "Units and Heroes retreating from the
    table are destroyed")."""
    order = RetreatOrder(unit="blue-proud", half_st=1, cause="shooting")
    g = game(
        ev.HeroLeft(hero="blue-proud", unit="blue-horde", in_melee=False),
        ev.RetreatsOrdered(orders=[order]),
        ev.RetreatBegan(unit="blue-proud", half_st=1),
    )
    assert g.state.heroes["blue-proud"].stamina == 2
    events = g.when(c.DeclareRetreat(player="blue", unit="blue-proud", into="off_table"), dice=[])
    assert one(events, ev.HeroKilled) == ev.HeroKilled(hero="blue-proud", cause="retreat")
    assert g.state.heroes["blue-proud"].gone


def test_a_retreating_unit_declared_in_rough_terrain_tests_on_2d6_as_it_runs_into_friends() -> None:
    """Given blue-warriors retreating into blue-horde, when blue declares the warriors in rough
    terrain, then the warriors test on 2D6 and the horde on 1D6 (sheet p.26: any test in rough
    terrain on 2D6, the lower; pp.47-48: both units test; HB-36)."""
    order = RetreatOrder(unit="blue-warriors", half_st=1, cause="shooting")
    g = game(ev.RetreatsOrdered(orders=[order]), ev.RetreatBegan(unit="blue-warriors", half_st=1))
    events = g.when(
        c.DeclareRetreat(
            player="blue", unit="blue-warriors", into="friends", friend="blue-horde",
            rough=["blue-warriors"],
        ),
        dice=[4, 4],
    )  # fmt: skip
    tests = one(events, ev.CommandTestsCalled).tests
    assert [(t.unit, t.dice) for t in tests] == [("blue-warriors", 2), ("blue-horde", 1)]
