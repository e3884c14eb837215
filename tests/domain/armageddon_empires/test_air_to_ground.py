"""The Air-To-Ground challenge and its damage (p.31; AE-42, AE-43): the target picked, the card's
pool with its Forward Air Controllers against the target's, the damage modifiers, and the side
a captured base's holder defends. The set-up: ``air_helpers``.
"""

from __future__ import annotations

from tests.domain.armageddon_empires.air_helpers import (
    AA_FACILITIES,
    BASES,
    BLUE_STOPS,
    SPOTTERS,
    accept_all,
    launch,
    skies,
)
from tests.domain.armageddon_empires.helpers import only
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.air_events import AirStrikeEnded, AirTargetPicked
from warlog.domain.armageddon_empires.battle_events import BaseCaptured
from warlog.domain.armageddon_empires.challenge import Pool
from warlog.domain.armageddon_empires.challenge_events import CardDamaged, ChallengeOpened
from warlog.domain.armageddon_empires.commands import PlayAttackCard, Roll
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.sighting_events import StealthDropped


def test_air_to_ground_gets_no_hero_fate_and_a_hardened_facility_takes_half() -> None:
    g = skies(["harrier"], [])
    events = launch(
        g,
        PlayAttackCard(player="red", card="red.harrier.1", at="4,2", target="blue.bunker.1"),
        dice=[6, 6, 6, 1],
    )
    strike = only(events, ChallengeOpened).challenge
    assert strike.defender is not None and strike.defender.fate_hero is None
    events = accept_all(g)
    # 3 − 0 successes = 3, halved by Hardened (R14) = 1
    assert only(events, CardDamaged).amount == 1
    ended = only(events, AirStrikeEnded)
    assert (ended.raw, ended.damage, ended.survived, ended.spent) == (3, 1, True, False)
    assert "red.harrier.1" in g.state.empires["red"].hand  # back in the hand (p.19)


def test_a_random_unit_target_is_picked_among_the_sighted_armies_and_armor_applies() -> None:
    g = skies(["hawk"], [])
    events = launch(
        g,
        PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit"),
        dice=[6, 6, 6, 6, 1],
    )
    assert only(events, AirTargetPicked).candidates == ("blue.plate.1",)
    events = accept_all(g)
    # 4 − 0 = 4, Composite Armor −1 = 3
    assert only(events, CardDamaged).amount == 3


def strike_on_blue_a(g: Given, dice: int) -> Pool:
    """Red's hawk strikes a unit of blue-a, blue holding its fire: the Air-To-Ground pool."""
    events = launch(
        g, PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit"), dice=[1] * dice
    )
    return only(events, ChallengeOpened).challenge.attacker.pool


def test_a_forward_air_controller_in_the_hex_adds_3_dice_to_air_to_ground() -> None:
    # given red's Spotter Team in blue-a's hex, its army having dropped stealth
    g = skies(["hawk"], [], more=SPOTTERS)
    g.events(StealthDropped(empire="red", army="red-eyes", ap_cost=0))
    # the hawk's attack 4 + 3 = 7 dice against the plate's defence 1
    pool = strike_on_blue_a(g, 8)
    assert [t.value for t in pool.terms] == [4, 3] and pool.size == 7
    assert "Forward Air Controller red.spotter.1, p.46" in pool.text()


def test_a_stealthed_armys_forward_air_controller_does_not_give_it_away() -> None:
    """AE-42 (version 14): a stealthed army's controller adds nothing and is not named: blue,
    which has not sighted the army, reads the strike as if it were elsewhere (version 13 named
    it in the open pool and added its 3 dice)."""
    there = strike_on_blue_a(skies(["hawk"], [], more=SPOTTERS), 5)
    elsewhere = strike_on_blue_a(skies(["hawk"], [], more=SPOTTERS.replace('"3,2"', '"7,4"')), 5)
    assert there == elsewhere and [t.value for t in there.terms] == [4]
    assert (
        "red-eyes" not in RULESET.view(skies(["hawk"], [], more=SPOTTERS).state, "blue")["armies"]
    )
    # a game of version 14 already leaves it out
    assert strike_on_blue_a(skies(["hawk"], [], more=SPOTTERS, version=14), 5) == there
    old = strike_on_blue_a(skies(["hawk"], [], more=SPOTTERS, version=13), 8)
    assert "Forward Air Controller red.spotter.1, p.46" in old.text()


def test_the_holder_of_a_captured_base_defends_its_facility_against_air_to_ground() -> None:
    """AE-42 (version 14): red strikes a facility of its HQ, captured by blue: the Air-To-Ground
    challenge's defender is blue, whose questions (tactic cards, the Defender's Prerogative) are
    its own (version 13 gave the side to the card's owner, red, which then answered both)."""
    for version, defender in ((None, "blue"), (14, "blue"), (13, "red")):
        bases = (
            BASES.replace(
                'at = "0,0"\ncard = "keep"', 'at = "0,0"\ncard = "keep"\nfacilities = ["aabunker"]'
            )
            + '\n[[bases]]\nid = "red-out"\nempire = "red"\nkind = "outpost"\nat = "1,0"\n'
            'card = "camp"\n'
        )
        g = skies(["hawk"], [], more=AA_FACILITIES, bases_text=bases, version=version)
        g.events(BaseCaptured(base="red-hq", empire="blue", previous="red", at="0,0"))
        g.when(PlayAttackCard(player="red", card="red.hawk.1", at="0,0", aim="facility"), dice=[])
        g.when(BLUE_STOPS, dice=[2])  # the die picks the bunker among the HQ's facilities
        events = g.when(Roll(player="red"), dice=[6, 6, 6, 6, 1])
        challenge = only(events, ChallengeOpened).challenge
        assert challenge.defender is not None and challenge.defender.name == (
            "AA Bunker (red.aabunker.1)"
        )
        assert challenge.defender.empire == defender


def test_a_forward_air_controller_in_another_hex_adds_nothing() -> None:
    # given red's Spotter Team, not stealthed, at 7,4, far from blue-a's hex
    g = skies(["hawk"], [], more=SPOTTERS.replace('"3,2"', '"7,4"'))
    g.events(StealthDropped(empire="red", army="red-eyes", ap_cost=0))
    # then the strike on 3,2 rolls the hawk's attack 4 alone: a controller counts in the hex (p.46)
    pool = strike_on_blue_a(g, 5)
    assert [t.value for t in pool.terms] == [4]
