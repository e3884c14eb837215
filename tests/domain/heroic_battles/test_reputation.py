"""Gaining or Losing Reputation (p.23): every row of the table this version plays, as the event
it posts, and the Events view showing each with the turn it happened in."""

from __future__ import annotations

import pytest

from tests.domain.heroic_battles.helpers import (
    declare,
    engaged,
    fighting,
    gained,
    game,
    lost,
    phase,
    wounded,
)
from tests.given_when_then import one
from warlog.arbiter.application import Arbiter
from warlog.domain import rulesets
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev
from warlog.eventstore.memory_store import MemoryStore

# -- gains ------------------------------------------------------------------------------------------------


def test_gain_a_hero_charges_into_combat() -> None:
    g = game(*engaged("red-brutes", "blue-horde"))
    events = g.when(c.Charge(player="red", unit="red-champion", target="blue-steadfast"), dice=[])
    assert gained(events, "red") == ["a hero charges into combat"]


def test_gain_a_hero_charges_into_the_first_combat_of_the_game_once() -> None:
    g = game()
    events = g.when(c.Charge(player="red", unit="red-champion", target="blue-steadfast"), dice=[])
    assert "a hero charges into the first combat of the game" in gained(events, "red")


def test_gain_a_hero_charges_the_enemy_army_commanders_unit() -> None:
    g = game(*engaged("red-brutes", "blue-horde"))
    events = g.when(c.Charge(player="red", unit="red-champion", target="blue-warriors"), dice=[])
    assert gained(events, "red") == [
        "a hero charges into combat",
        "a hero charges the enemy Army Commander's unit",
    ]


def test_gain_the_army_commander_charges() -> None:
    g = game(*engaged("red-brutes", "blue-horde"))
    events = g.when(c.Charge(player="red", unit="red-warriors", target="blue-steadfast"), dice=[])
    assert gained(events, "red") == ["a hero charges into combat", "the Army Commander charges"]


def test_gain_a_hero_takes_on_a_higher_level_hero_in_single_combat() -> None:
    g = game(*engaged("red-champion", "blue-horde"), *phase("melee", "red"))
    g.when(c.Challenge(player="red", hero="red-champion", opponent="blue-proud"), dice=[])
    events = g.when(c.AcceptChallenge(player="blue", hero="blue-proud"), dice=[])
    assert gained(events, "red") == ["a hero takes on a higher-level hero in single combat"]


def test_gain_a_hero_draws_or_wins_a_round_of_single_combat() -> None:
    g = game(*engaged("red-champion", "blue-horde"), *phase("melee", "red"))
    g.when(c.Challenge(player="red", hero="red-champion", opponent="blue-proud"), dice=[])
    g.when(c.AcceptChallenge(player="blue", hero="blue-proud"), dice=[])
    g.when(c.SpendDeeds(player="red", hero="red-champion", deeds=0), dice=[])
    events = g.when(c.SpendDeeds(player="blue", hero="blue-proud", deeds=0), dice=[3, 3, 3, 3])
    assert (
        gained(events, "red") == gained(events, "blue") == ["a hero draws a round of single combat"]
    )
    g.when(c.SpendDeeds(player="red", hero="red-champion", deeds=0), dice=[])
    events = g.when(c.SpendDeeds(player="blue", hero="blue-proud", deeds=0), dice=[4, 3, 3, 3])
    assert gained(events, "red") == ["a hero wins a round of single combat"]


def test_gain_an_unattached_hero_wins_a_round_of_combat_against_an_enemy_unit() -> None:
    g = game(*engaged("red-champion", "blue-steadfast"), *fighting())
    g.when(declare("red"), dice=[])
    events = g.when(declare("blue"), dice=[5] + [3] * 13)
    assert gained(events, "red") == [
        "an unattached hero wins a round of combat against an enemy unit"
    ]


@pytest.mark.parametrize(("version", "gains"), [("2", 1), ("1", 0)])
def test_gain_an_unattached_hero_wins_against_a_unit_it_destroys(version: str, gains: int) -> None:
    """Given the Red Lord, unattached, in melee with blue-scouts (2 stamina, armour 1), when its
    three hits destroy the scouts, then red gains the token of an unattached hero winning
    against an enemy unit (p.23) since version 2; version 1 paid it only while a unit of the
    loser was left in the melee."""
    g = game(
        ev.HeroLeft(hero="red-lord", unit="red-warriors", in_melee=False),
        *engaged("red-lord", "blue-scouts"),
        *fighting(),
        version=version,
    )
    g.when(declare("red"), dice=[])
    events = g.when(declare("blue"), dice=[6, 6, 6] + [3] * 6)
    assert one(events, ev.MeleeDecided).outcome == "destroyed"
    assert (
        gained(events, "red").count(
            "an unattached hero wins a round of combat against an enemy unit"
        )
        == gains
    )


# -- losses ---------------------------------------------------------------------------------------------


def test_lose_the_reputation_points_of_a_unit_destroyed() -> None:
    g = game(wounded("blue-scouts", 1), *phase("shooting"))
    g.when(c.EndShooting(player="blue"), dice=[])
    events = g.when(
        c.Shoot(player="red", shooter="red-archers", target="blue-scouts", distance=3),
        dice=[5, 5, 5] + [3] * 6,
    )
    assert lost(events, "blue") == [(2, "blue-scouts is destroyed")]
    assert one(events, ev.ReputationLost).who == "blue-scouts"


def test_a_unit_shot_down_is_removed_citing_the_pages_a_player_reads() -> None:
    # given blue's scouts on their last stamina point, shot at by red's archers
    g = game(wounded("blue-scouts", 1), *phase("shooting"))
    g.when(c.EndShooting(player="blue"), dice=[])
    # when the shot takes the point
    events = g.when(
        c.Shoot(player="red", shooter="red-archers", target="blue-scouts", distance=3),
        dice=[5, 5, 5] + [3] * 6,
    )
    # then its removal names the shooting rule, the reputation its force loses, and HB-16
    assert one(events, ev.UnitDestroyed).explain() == (
        "blue-scouts is removed: shot down by red-archers (Shooting, p.42: Remove Stamina); a "
        "unit with no stamina left is destroyed and its force loses its Reputation Points "
        "(Gaining or Losing Reputation, p.23); what becomes of a hero in it: HB-16"
    )


def test_lose_one_for_a_hero_leaving_a_unit_in_combat_two_for_the_army_commander() -> None:
    g = game(*engaged("red-warriors", "blue-horde"))
    events = g.when(c.LeaveUnit(player="red", hero="red-lord"), dice=[])
    assert lost(events, "red") == [(2, "leaves a unit while it is in combat (the Army Commander)")]


def test_lose_one_for_an_unattached_hero_evading_a_charge_unless_non_combatant() -> None:
    g = game(*phase("movement", "blue"))
    g.when(c.Charge(player="blue", unit="blue-horde", target="red-champion"), dice=[])
    events = g.when(c.Evade(player="red", unit="red-champion"), dice=[])
    assert lost(events, "red") == [(1, "an unattached hero evades a charge")]


def test_lose_one_for_a_mighty_deed_re_rolling_a_risk_to_heroes_result() -> None:
    g = game(*engaged("red-brutes", "blue-warriors"), *fighting())
    g.when(declare("red"), dice=[])
    g.when(declare("blue"), dice=[5] * 10 + [3] * 14)
    g.when(c.Roll(player="blue"), dice=[1, 1, 1, 3])  # the king's Risk to Heroes: 10 hits, 4D6
    events = g.when(c.RerollRisk(player="blue", hero="blue-king"), dice=[6])
    assert (1, "a hero uses a Mighty Deed to re-roll a Risk to Heroes result") in lost(
        events, "blue"
    )


def test_lose_one_when_a_heros_unit_is_destroyed_but_the_hero_survives() -> None:
    g = game(wounded("blue-warriors", 3), *phase("shooting"))
    g.when(c.EndShooting(player="blue"), dice=[])
    g.when(
        c.Shoot(player="red", shooter="red-archers", target="blue-warriors", distance=3),
        dice=[5, 5, 5] + [3] * 6,
    )
    events = g.when(c.Roll(player="blue"), dice=[4])
    assert (1, "blue-king's unit is destroyed but the hero survives") in lost(events, "blue")


def test_lose_one_for_refusing_a_challenge_unless_non_combatant() -> None:
    g = game(*engaged("red-warriors", "blue-warriors"), *phase("melee", "red"))
    g.when(c.Challenge(player="red", hero="red-lord", opponent="blue-king"), dice=[])
    events = g.when(c.RefuseChallenge(player="blue", hero="blue-king"), dice=[])
    assert lost(events, "blue") == [(1, "a hero refuses a challenge to single combat")]


def test_a_force_never_has_fewer_than_no_tokens() -> None:
    g = game(
        ev.ReputationLost(force="blue", tokens=9, due=9, reason="test set-up"),
        wounded("blue-scouts", 1),
        *phase("shooting"),
    )
    g.when(c.EndShooting(player="blue"), dice=[])
    events = g.when(
        c.Shoot(player="red", shooter="red-archers", target="blue-scouts", distance=3),
        dice=[5, 5, 5] + [3] * 6,
    )
    loss = one(events, ev.ReputationLost)
    assert (loss.tokens, loss.due) == (1, 2)
    assert "no fewer than 0, HB-21" in loss.explain()
    assert g.state.forces["blue"].tokens == 0


# -- the Events view -------------------------------------------------------------------------------------


def test_reputation_gained_and_lost_is_shown_in_the_events_view_with_its_turn() -> None:
    arbiter = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: bytes(range(32)))
    game_id = arbiter.new_game("heroic-battles", game="hb")
    arbiter.play(
        game_id,
        '{"type":"charge","player":"saxons","unit":"gedriht-1","target":"comitatus"}',
    )
    view = arbiter.events_view(game_id)
    tabs = view.tabs()
    assert set(tabs) == {"britons", "saxons"}
    texts = [e.text for e in tabs["britons"]]
    assert texts == [e.text for e in tabs["saxons"]]  # nothing on the table is hidden
    assert texts[0] == (
        "turn 1: saxons gain 1 Reputation Token: aelle: a hero charges into combat "
        "(Gaining or Losing Reputation, p.23; HB-6: one hero per charging unit, the Army "
        "Commander, else the highest level)"
    )
    assert len(texts) == 3 and all(e.round == 1 for e in tabs["saxons"])
