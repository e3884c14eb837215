"""Munitions, collateral damage and WMD (p.22, p.31–32; R14; AE-44..AE-49).

Red's missiles and aircraft fly from its HQ at 0,0; blue's HQ stands at 4,2 (plains everywhere)
with a Hardened bunker, its garrison, and blue's field army blue-a in the same hex. Attack cards
here have no fate and blue's cards no Anti-Missile, so the dice a test types are those that
matter: the missile's challenge, then the hidden dice (AE-37: each roll waits for red's ``roll``).
"""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from tests.domain.armageddon_empires.air_helpers import ROWS, accept_all, launch
from tests.domain.armageddon_empires.helpers import (
    army_block,
    base_block,
    only,
    scenario,
    sight,
    start_turns,
)
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.air_events import AirStrikeAdvanced, AirStrikeEnded
from warlog.domain.armageddon_empires.battle_events import BaseRazed
from warlog.domain.armageddon_empires.challenge_events import CardDamaged
from warlog.domain.armageddon_empires.commands import GroundToAirChallenge, PlayAttackCard
from warlog.domain.armageddon_empires.fallout import collateral_hit
from warlog.domain.armageddon_empires.fallout_events import (
    CollateralRolled,
    FalloutSuffered,
    WmdDetonated,
)
from warlog.domain.armageddon_empires.radiation import RADIATION_SIDES, prime_of
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.sighting_events import StealthEngaged
from warlog.domain.armageddon_empires.views import view
from warlog.domain.core.events import DiceRolled, Event

CARDS = """
[[cards]]
kind = "attack"
id = "scorch"
name = "Test Scorch"
craft = "missile"
attack = 2
defense = 1
fate = 0
hit_points = 1
range = 6
ap = 1
abilities = ["Collateral 60% 2 Atk"]

[[cards]]
kind = "attack"
id = "sleet"
name = "Test Sleet"
craft = "missile"
attack = 2
defense = 1
fate = 0
hit_points = 1
range = 6
ap = 1
abilities = ["Collateral 65% 2 Atk"]

[[cards]]
kind = "attack"
id = "nova"
name = "Test Nova"
craft = "missile"
attack = 6
defense = 1
fate = 0
hit_points = 1
range = 6
ap = 1
abilities = ["Hydrogen Bomb 10, 15"]

[[cards]]
kind = "attack"
id = "hawk"
name = "Test Hawk"
craft = "aircraft"
attack = 2
defense = 2
fate = 0
hit_points = 2
range = 6
ap = 1

[[cards]]
kind = "munition"
id = "pod"
name = "Test Pod"
damage = 2
fits = ["aircraft", "helo"]

[[cards]]
kind = "unit"
id = "titan"
name = "Test Titan"
attack = 1
defense = 2
hit_points = 20
movement = 1
resistance = 4
abilities = ["Composite Armor -1"]

[[cards]]
kind = "unit"
id = "plate"
name = "Test Plate"
attack = 1
defense = 1
hit_points = 20
movement = 1

[[cards]]
kind = "unit"
id = "flak"
name = "Test Flak"
attack = 1
defense = 1
hit_points = 2
movement = 1
abilities = ["Anti-Missile 2"]

[[cards]]
kind = "hero"
id = "seer"
name = "Test Seer"
fate = 2
wounds = 20
movement = 2

[[cards]]
kind = "facility"
id = "bunker"
name = "Test Bunker"
defense = 1
structure = 30
resistance = 3
abilities = ["Hardened"]

[[cards]]
kind = "facility"
id = "vault"
name = "Test Vault"
defense = 1
structure = 30
abilities = ["HQ", "Supply", "Hardened"]
"""


def bases(blue_card: str = "keep", garrison: tuple[str, ...] = ("plate",)) -> str:
    return base_block("red-hq", "red", "0,0") + base_block(
        "blue-hq", "blue", "4,2", card=blue_card, facilities=("bunker",), garrison=garrison
    )


def empires(red: list[str]) -> str:
    return f"""
[[empires]]
id = "red"
name = "Red"
resources = {{ humans = 9, materials = 9, energy = 9 }}
hand = {red!r}
deck = ["trooper"]

[[empires]]
id = "blue"
name = "Blue"
resources = {{ humans = 9, materials = 9, energy = 9 }}
deck = ["trooper"]
""".replace("'", '"')


def struck(red: list[str], version: str | None = None, more: str = "", **kw: Any) -> Given:
    """Red's turn; blue-a (the titan led by the seer) stands in blue's HQ hex, sighted. A game
    begun under ``version`` of the rules (default: this one); ``more``: further armies."""
    armies = army_block("blue-a", "blue", "4,2", hero="seer", units=("titan",))
    armies += army_block("red-a", "red", "0,1", units=("trooper",)) + more
    parts = {"armies": CARDS + armies, "bases": bases(**kw), "empires": empires(red)}
    ruleset = RULESET if version is None else RULESET.at_version(version)
    assert ruleset is not None
    g = Given(ruleset, scenario(ROWS, resources="", **parts))
    return sight(start_turns(g), "red", "blue-a")


def held_prisoner(g: Given, hero: str, base: str) -> Given:
    """``hero``, alone in his army, held prisoner at ``base`` (as a capture leaves him, AE-21)."""
    armies = {k: a for k, a in g.state.armies.items() if a.hero != hero}
    held = replace(g.state.bases[base], prisoners=(hero,))
    g.state = replace(g.state, armies=armies, bases={**g.state.bases, base: held})
    return g


def fallout_of(events: list[Event], empire: str) -> FalloutSuffered:
    return next(e for e in events if isinstance(e, FalloutSuffered) and e.empire == empire)


# ---------------------------------------------------------------------- munitions


def test_a_munition_adds_its_damage_to_a_hit_and_is_spent() -> None:
    g = struck(["hawk", "pod"])
    # the titan is the only unit in sight: hawk's 2 dice against its defence 2: 2 successes to
    # 0 = 2, + 2 for the pod = 4, − 1 Composite Armor = 3 (AE-44)
    launch(
        g,
        PlayAttackCard(player="red", card="red.hawk.1", at="4,2", aim="unit", munition="red.pod.1"),
        dice=[6, 6, 1, 1],
    )
    events = accept_all(g)
    hit = only(events, CardDamaged)
    assert (hit.card, hit.amount) == ("blue.titan.1", 3)
    ended = only(events, AirStrikeEnded)
    assert (ended.raw, ended.modifier, ended.damage) == (2, 1, 3)
    red = g.state.empires["red"]
    assert "red.pod.1" in red.discard and "red.pod.1" not in red.hand
    assert "red.hawk.1" in red.hand


def test_a_munition_is_spent_on_a_miss_too_and_must_fit_the_card() -> None:
    g = struck(["nova", "hawk", "pod"])
    g.when_rejected(
        PlayAttackCard(player="red", card="red.nova.1", at="4,2", munition="red.pod.1"),
        code="rules/munition_does_not_fit",
    )
    g.when_rejected(
        PlayAttackCard(
            player="red", card="red.hawk.1", at="4,2", aim="unit", munition="red.nova.1"
        ),
        code="rules/not_a_munition",
    )
    err = g.when_rejected(
        PlayAttackCard(player="red", card="red.hawk.1", at="4,2", aim="unit", munition="red.pod.2"),
        code="rules/not_in_hand",
    )
    assert str(err) == "munition 'red.pod.2' is not in red's hand"
    launch(
        g,
        PlayAttackCard(player="red", card="red.hawk.1", at="4,2", aim="unit", munition="red.pod.1"),
        dice=[1, 1, 6, 6],
    )
    events = accept_all(g)
    assert not any(isinstance(e, CardDamaged) for e in events)
    assert "red.pod.1" in g.state.empires["red"].discard


# ---------------------------------------------------------------------- collateral damage


def test_collateral_60_percent_hits_an_army_on_a_6_and_spares_it_on_a_7() -> None:
    assert [collateral_hit(60, face, 10) for face in (1, 6, 7, 10)] == [True, True, False, False]
    # AE-45: 65 % is rolled on a d100
    assert [collateral_hit(65, face, 100) for face in (65, 66)] == [True, False]


def test_collateral_damage_strikes_every_card_of_each_army_hit_hidden_from_the_other_side() -> None:
    g = struck(["scorch"])
    # a d2 picks the keep; the missile's 2 dice against its defence 5: a miss
    launch(g, PlayAttackCard(player="red", card="red.scorch.1", at="4,2"), dice=[1])
    events = accept_all(
        g,
        [1] * 7,
        [6, 7],  # armies by id: blue-a rolls 6 (hit), blue-hq's garrison 7 (spared)
        # blue-a's cards: the seer (2 dice vs fate 2) and the titan (2 dice vs defence 2)
        [6, 6, 1, 1, 6, 6, 6, 1],
    )
    rolled = only(events, CollateralRolled)
    assert [(r.army, r.face, r.hit) for r in rolled.rolls] == [
        ("blue-a", 6, True),
        ("blue-hq-garrison", 7, False),
    ]
    # each hidden roll once per empire, red's (no army in the hex) recorded empty (AE-66)
    hidden = [e for e in events if isinstance(e, DiceRolled) and e.hidden]
    assert [(d.sides, len(d.faces)) for d in hidden] == [(10, 0), (10, 2), (6, 0), (6, 8)]
    blue = fallout_of(events, "blue")
    # the seer: 2 − 0 = 2 wounds; the titan: 2 − 1 = 1, − 1 Composite Armor = 0 (AE-29)
    assert [(h.card, h.damage) for h in blue.hits] == [("blue.seer.1", 2), ("blue.titan.1", 0)]
    assert fallout_of(events, "red").hits == ()
    assert g.state.damage["blue.seer.1"] == 2 and g.state.collateral == ()
    assert "red.scorch.1" in g.state.empires["red"].discard


#: a munition that loads collateral damage onto an aircraft (AE-44, AE-45)
NAPALM = """
[[cards]]
kind = "munition"
id = "napalm"
name = "Test Napalm"
fits = ["aircraft"]
abilities = ["Collateral 60% 2 Atk"]
"""


def test_collateral_damage_follows_a_strike_that_finds_its_target_gone() -> None:
    # given red's hawk loaded with napalm, aimed at a unit of blue-a, which red sighted, and
    # which has since engaged stealth unseen
    g = struck(["hawk", "napalm"], more=NAPALM)
    g.events(StealthEngaged(empire="blue", army="blue-a", level=1, ap_cost=0))
    aimed = PlayAttackCard(
        player="red", card="red.hawk.1", at="4,2", aim="unit", munition="red.napalm.1"
    )
    # when it arrives: the titan is no longer there (AE-42), and the armies' dice roll (7s)
    events = launch(g, aimed, dice=[7, 7])
    # then its collateral damage strikes the hex all the same (p.31; AE-46)
    why = [e.why for e in events if isinstance(e, AirStrikeAdvanced)]
    assert why[-1] == (
        "blue.titan.1 is no longer there (AE-42); then collateral damage on the armies of the "
        "hex (p.31; AE-46)"
    )
    rolled = only(events, CollateralRolled)
    assert [(r.army, r.hit) for r in rolled.rolls] == [
        ("blue-a", False),
        ("blue-hq-garrison", False),
    ]


def test_a_card_destroyed_by_collateral_damage_lies_face_down_for_the_other_empire() -> None:
    g = struck(["scorch"], garrison=("trooper",))
    launch(g, PlayAttackCard(player="red", card="red.scorch.1", at="4,2"), dice=[1])
    # blue-a spared (7), the garrison hit (1): 2 successes to 0 against the trooper's defence
    # 3 = 2 damage, its 2 hit points
    accept_all(g, [1] * 7, [7, 1], [6, 6, 1, 1, 1])
    blue = g.state.empires["blue"]
    assert blue.face_down == ("blue.trooper.1",) and "blue.trooper.1" in blue.discard
    assert "blue.trooper.1" not in view(g.state, "red")["empires"]["blue"]["discard"]
    assert "blue.trooper.1" not in view(g.state, "red")["instances"]
    assert "blue.trooper.1" in view(g.state, "blue")["empires"]["blue"]["face_down"]
    assert "collateral" not in view(g.state, "red")


def test_a_missile_shot_down_does_no_collateral_damage() -> None:
    g = struck(["scorch"], garrison=("flak",))
    # blue fires its flak (Anti-Missile) first: 1 success to 0 destroys the scorch
    g.when(PlayAttackCard(player="red", card="red.scorch.1", at="4,2"))
    g.when(GroundToAirChallenge(player="blue", gunner="blue.flak.1"), dice=[6, 6, 1])
    events = accept_all(g)
    assert not any(isinstance(e, CollateralRolled | FalloutSuffered) for e in events)
    assert not only(events, AirStrikeEnded).survived


# ---------------------------------------------------------------------- WMD
#
# The dice of a WMD, counted before any is rolled (AE-37), in the order rolled: in the open, each
# Hardened facility left (the base's own card first): 10 dice, then its defence (1 + plains 0);
# then the d3 of the bunker's resistance 3. Hidden: every card of every army, by army id (blue-a:
# the seer against its fate 2, the titan against its defence 2; the garrison: the plate against
# 1): 10 dice, then its pool; then the 25 radiation rolls of version 19 (AE-65), a d64, a d81, …,
# a d97, each with one die for every exposed card whose resistance its prime divides (the
# titan's 4: a die of the d64 alone).

MISS = [1] * 10


def radiation_faces(*cards: tuple[int, int]) -> list[int]:
    """The faces of the 25 hidden radiation rolls (AE-65) that give the exposed cards, each
    ``(resistance, roll)`` in order, the random 1..resistance ``roll``: on each roll whose prime
    divides the card's resistance, a face whose face − 1 leaves the remainder roll − 1
    (``radiation.radiation_roll``)."""
    return [
        (r - 1) % sides + 1
        for sides in RADIATION_SIDES
        for res, r in cards
        if res >= 2 and res % prime_of(sides) == 0
    ]


def _nova_on_the_hardened_vault() -> list[int]:
    """The dice of red's nova on blue's HQ, a Hardened vault: the vault's challenge, 3 − 0 = 3,
    not halved for a Hardened facility (R14); the bunker's, 10 − 0 = 10, and its radiation 15 −
    2; the seer and the titan missed; the garrison's plate 5 − 0 = 5, halved for the garrison of
    a Hardened base: 2; the titan's radiation 15 − 1."""
    vault, bunker, bunker_radiation = [6, 6, 6] + [1] * 7 + [1], [6] * 10 + [1], [2]
    seer, titan = [*MISS, 1, 1], [*MISS, 1, 1]
    plate, titan_radiation = [6] * 5 + [1] * 5 + [1], radiation_faces((4, 1))
    return vault + bunker + bunker_radiation + seer + titan + plate + titan_radiation


def test_a_hydrogen_bomb_spares_hardened_facilities_and_the_garrison_of_a_hardened_base() -> None:
    g = struck(["nova"], blue_card="vault")
    events = launch(
        g,
        PlayAttackCard(player="red", card="red.nova.1", at="4,2"),
        dice=_nova_on_the_hardened_vault(),
    )
    detonated = only(events, WmdDetonated)
    assert detonated.destroyed == ()
    # the vault: 3 + 15 (resistance 0: nothing taken off, AE-47); the bunker: 10 + 13
    assert [(h.card, h.damage, h.total) for h in detonated.hits] == [
        ("blue.vault.1", 3, 18),
        ("blue.bunker.1", 10, 23),
    ]
    blue = {h.card: h for h in fallout_of(events, "blue").hits}
    assert (blue["blue.seer.1"].damage, blue["blue.seer.1"].total) == (0, 15)
    assert blue["blue.titan.1"].total == 14
    plate_hit = blue["blue.plate.1"]
    assert (plate_hit.damage, plate_hit.radiation, plate_hit.total) == (2, None, 2)
    assert "R14" in plate_hit.note
    assert g.state.damage["blue.vault.1"] == 18 and g.state.damage["blue.plate.1"] == 2
    assert "red.nova.1" in g.state.empires["red"].discard


def test_a_hydrogen_bomb_that_destroys_a_facility_of_a_base_left_standing_discards_it() -> None:
    # given blue's bunker already 7 down of its 30: the 23 of the bomb destroy it (AE-24)
    g = struck(["nova"], blue_card="vault")
    g.state = replace(g.state, damage={**g.state.damage, "blue.bunker.1": 7})
    events = launch(
        g,
        PlayAttackCard(player="red", card="red.nova.1", at="4,2"),
        dice=_nova_on_the_hardened_vault(),
    )
    # then it is discarded, and the vault's base, Hardened and standing, keeps no facility
    bunker_hit = only(events, WmdDetonated).hits[1]
    assert (bunker_hit.card, bunker_hit.destroyed) == ("blue.bunker.1", True)
    assert "blue.bunker.1" in g.state.empires["blue"].discard
    assert "blue.bunker.1" not in g.state.damage
    assert g.state.bases["blue-hq"].facilities == ()


def test_a_wmd_s_open_hit_tells_the_damage_seen_not_a_repair_made_out_of_sight() -> None:
    # given blue's vault, dealt 2 in the open and repaired since out of red's sight (AE-49)
    g = struck(["nova"], blue_card="vault")
    g.state = replace(g.state, hidden_damage={"blue.vault.1": -2})
    assert RULESET.view(g.state, "red")["damage"]["blue.vault.1"] == 2
    # when red's nova strikes: the vault takes 3 + 15 as before
    events = launch(
        g,
        PlayAttackCard(player="red", card="red.nova.1", at="4,2"),
        dice=_nova_on_the_hardened_vault(),
    )
    # then the public hit counts from the 2 red saw (20, not 18, which would tell the repair),
    # and the vault has taken 18 in all
    hit = only(events, WmdDetonated).hits[0]
    assert (hit.card, hit.taken, hit.total, hit.destroyed) == ("blue.vault.1", 18, 20, False)
    assert g.state.damage["blue.vault.1"] == 18
    assert RULESET.view(g.state, "red")["damage"]["blue.vault.1"] == 20


def test_a_game_of_version_11_told_a_wmd_s_open_hit_counting_a_repair_made_out_of_sight() -> None:
    # given the same vault, in a game of version 11, when the rolls came with the command
    g = struck(["nova"], version="11", blue_card="vault")
    g.state = replace(g.state, hidden_damage={"blue.vault.1": -2})
    vault, bunker, bunker_radiation = [6, 6, 6] + [1] * 7 + [1], [6] * 10 + [1], [2]
    seer, titan, plate = [*MISS, 1, 1], [*MISS, 1, 1], [6] * 5 + [1] * 5 + [1]
    events = g.when(
        PlayAttackCard(player="red", card="red.nova.1", at="4,2"),
        dice=[*vault, *bunker, *bunker_radiation, *seer, *titan, *plate, 1],
    )
    # then its public total counted everything, 18 (the repair told): its rules, kept (AE-49:
    # the open total since version 12)
    hit = only(events, WmdDetonated).hits[0]
    assert (hit.card, hit.taken, hit.total) == ("blue.vault.1", 18, 18)


@pytest.mark.parametrize("hand_full", [False, True], ids=["to-hand", "hand-full"])
def test_a_razed_base_frees_its_prisoners_to_their_hand_or_if_full_to_the_discard(
    hand_full: bool,
) -> None:
    # given red's seer held prisoner in blue's HQ, red's hand full or not
    g = held_prisoner(
        struck(["nova"], more=army_block("red-b", "red", "0,2", hero="seer")),
        "red.seer.1",
        "blue-hq",
    )
    if hand_full:
        red = replace(g.state.empires["red"], hand_limit=1)  # the nova alone fills it
        g.state = replace(g.state, empires={**g.state.empires, "red": red})
    # when red's hydrogen bomb razes the HQ (as above)
    seer = [6, 6, 6] + [1] * 7 + [6, 1]
    events = launch(
        g,
        PlayAttackCard(player="red", card="red.nova.1", at="4,2"),
        dice=[*seer, *MISS, 1, 1, *MISS, 1, *radiation_faces((4, 4))],
    )
    # then he goes free: back to red's hand, or its discard pile when the hand is full (AE-34)
    razed = only(events, BaseRazed)
    assert razed.freed == ("red.seer.1",)
    assert razed.explain().endswith("; freed: red.seer.1")
    red = g.state.empires["red"]
    assert ("red.seer.1" in red.discard, "red.seer.1" in red.hand) == (hand_full, not hand_full)


def test_hydrogen_bomb_10_15_on_a_base_not_hardened_razes_it_and_irradiates_every_card() -> None:
    g = struck(["nova"])
    seer = [6, 6, 6] + [1] * 7 + [6, 1]  # 3 − 1 = 2
    titan = [*MISS, 1, 1]  # 0 − 0 = 0 (no damage modifiers on a WMD challenge, R14)
    plate = [*MISS, 1]
    titan_radiation = radiation_faces((4, 4))  # the d64 shows 4: (4 − 1) mod 4 = 3, + 1
    events = launch(
        g,
        PlayAttackCard(player="red", card="red.nova.1", at="4,2"),
        dice=seer + titan + plate + titan_radiation,
    )
    detonated = only(events, WmdDetonated)
    # the keep is not Hardened: the base is razed, the bunker with it (AE-34, AE-48)
    assert (detonated.destroyed, detonated.hits) == (("blue.keep.1",), ())
    assert only(events, BaseRazed).base == "blue-hq"
    blue = {h.card: h for h in fallout_of(events, "blue").hits}
    # the seer: 2 + the whole 15 (resistance 0, AE-47) = 17 of 20 wounds
    assert (blue["blue.seer.1"].taken, blue["blue.seer.1"].destroyed) == (17, False)
    # the titan: 15 − 4 = 11 of 20 hit points
    radiation = blue["blue.titan.1"].radiation
    assert radiation is not None and (radiation.roll, radiation.damage) == (4, 11)
    assert blue["blue.titan.1"].total == 11
    assert blue["blue.plate.1"].total == 15  # no shelter: its base has fallen
    assert g.state.damage["blue.titan.1"] == 11
    assert "blue-hq" not in g.state.bases


NOVA_ON_BLUE_HQ = PlayAttackCard(player="red", card="red.nova.1", at="4,2")


def test_a_wmd_challenge_the_defence_outscores_deals_nothing_and_radiation_still_comes() -> None:
    # given the titan's challenge 0 − 2, its radiation roll 4 (the base is razed, AE-48)
    g = struck(["nova"])
    seer, titan, plate = [*MISS, 1, 1], [*MISS, 6, 6], [*MISS, 1]
    events = launch(g, NOVA_ON_BLUE_HQ, dice=seer + titan + plate + radiation_faces((4, 4)))
    # then it takes no damage from the challenge, never less (p.31), and 15 − 4 radiation
    titan_hit = {h.card: h for h in fallout_of(events, "blue").hits}["blue.titan.1"]
    assert (titan_hit.damage, titan_hit.total) == (0, 11)
    assert g.state.damage["blue.titan.1"] == 11


def test_a_card_of_resistance_1_takes_the_radiation_less_1() -> None:
    # given the titan's resistance 1: a random 1..1 needs no die (AE-47, AE-65)
    g = struck(["nova"])
    entry = g.state.catalogue["titan"]
    titan = replace(entry, spec=replace(entry.spec, resistance=1))
    g.state = replace(g.state, catalogue={**g.state.catalogue, "titan": titan})
    seer, titan, plate = [*MISS, 1, 1], [*MISS, 1, 1], [*MISS, 1]
    events = launch(g, NOVA_ON_BLUE_HQ, dice=seer + titan + plate)
    # then it takes 15 − 1 = 14 (p.31–32)
    radiation = {h.card: h for h in fallout_of(events, "blue").hits}["blue.titan.1"].radiation
    assert radiation is not None and (radiation.roll, radiation.damage) == (1, 14)


def test_radiation_that_brings_a_card_to_exactly_its_points_destroys_it() -> None:
    # given the titan's challenge 9 − 0 and its radiation 15 − 4 = 11: 20 of its 20 hit points
    g = struck(["nova"])
    seer, titan, plate = [*MISS, 1, 1], [6] * 9 + [1] + [1, 1], [*MISS, 1]
    events = launch(g, NOVA_ON_BLUE_HQ, dice=seer + titan + plate + radiation_faces((4, 4)))
    # then it is destroyed (p.31–32: a card left with no points is discarded)
    titan_hit = {h.card: h for h in fallout_of(events, "blue").hits}["blue.titan.1"]
    assert (titan_hit.total, titan_hit.limit, titan_hit.destroyed) == (20, 20, True)
    assert "blue.titan.1" in g.state.empires["blue"].discard


def test_the_garrison_of_a_hardened_base_rolls_no_radiation_die() -> None:
    # given a titan (resistance 4) in blue-a and another in the garrison of the Hardened vault
    g = struck(["nova"], blue_card="vault", garrison=("titan",))
    vault, bunker, bunker_radiation = [6, 6, 6] + [1] * 7 + [1], [6] * 10 + [1], [2]
    seer, titan, sheltered = [*MISS, 1, 1], [*MISS, 1, 1], [*MISS, 1, 1]
    # when the nova strikes, the d64 holding one die: blue-a's titan's alone (AE-65; R14)
    events = launch(
        g,
        NOVA_ON_BLUE_HQ,
        dice=vault + bunker + bunker_radiation + seer + titan + sheltered + radiation_faces((4, 1)),
    )
    # then the sheltered titan takes no radiation; the other 15 − 1
    blue = {h.card: h for h in fallout_of(events, "blue").hits}
    garrison = g.state.bases["blue-hq"].garrison
    assert garrison is not None
    (in_garrison,) = g.state.armies[garrison].units
    (in_field,) = g.state.armies["blue-a"].units
    assert blue[in_garrison].radiation is None and blue[in_garrison].total == 0
    assert blue[in_field].total == 14


def test_a_hardened_base_whose_own_card_the_wmd_challenge_destroys_is_razed() -> None:
    # given blue's Hardened vault already dealt 5 of its 30
    g = struck(["nova"], blue_card="vault")
    g.state = replace(g.state, damage={**g.state.damage, "blue.vault.1": 5})
    vault, bunker, bunker_radiation = [6] * 10 + [1], [6] * 10 + [1], [2]
    seer, titan, plate = [*MISS, 1, 1], [*MISS, 1, 1], [*MISS, 1]
    # when the nova's challenge deals it 10, and its radiation 15 (resistance 0): 30 of 30
    events = launch(
        g,
        NOVA_ON_BLUE_HQ,
        dice=vault + bunker + bunker_radiation + seer + titan + plate + radiation_faces((4, 1)),
    )
    # then it is destroyed in the open and the base razed (AE-34, AE-48)
    hit = only(events, WmdDetonated).hits[0]
    assert (hit.card, hit.total, hit.destroyed) == ("blue.vault.1", 30, True)
    assert only(events, BaseRazed).base == "blue-hq"
    assert "blue-hq" not in g.state.bases
