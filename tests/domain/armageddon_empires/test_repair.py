"""Repair and healing (p.34; R11; AE-22): where each kind of card is mended, and what it costs;
a captured base's facilities by the empire that holds it (AE-60)."""

from __future__ import annotations

import msgspec
import pytest

from tests.domain.armageddon_empires.arena import BASES, EMPIRES, arena, begin, toml
from tests.domain.armageddon_empires.helpers import army_block, only, sight, standing_in, with_ap
from tests.domain.armageddon_empires.test_capture_kill import QUARRY, hunt_to_the_end, spotted
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.battle_events import BaseCaptured
from warlog.domain.armageddon_empires.challenge_events import CardDamaged, CardRepaired
from warlog.domain.armageddon_empires.challenge_moves import damage
from warlog.domain.armageddon_empires.commands import EndTurn, EngageStealth, RepairCard
from warlog.domain.armageddon_empires.costs import REPAIR_AP, REPAIR_COST
from warlog.domain.armageddon_empires.ruleset import RULESET, VERSIONS
from warlog.domain.armageddon_empires.scenario_checks import parse_scenario
from warlog.domain.armageddon_empires.sighting_events import StealthEngaged
from warlog.domain.core.errors import InputError
from warlog.domain.core.seal import secrets_of

AT_HOME = army_block("red-home", "red", "0,3", hero="shade", units=("wisp",))


def hurt(g: Given, card: str, amount: int = 1) -> Given:
    owner = g.state.instances[card].owner
    return g.events(
        CardDamaged(
            card=card,
            owner=owner,
            amount=amount,
            total=amount,
            limit=9,
            destroyed=False,
            challenge=1,
        )
    )


def test_a_unit_at_its_base_is_repaired_to_full_for_the_ap_and_materials() -> None:
    g = hurt(begin(arena(AT_HOME)), "red.wisp.1")
    ap, stock = g.state.empires["red"].ap, g.state.empires["red"].resources
    repaired = only(g.when(RepairCard(player="red", card="red.wisp.1")), CardRepaired)
    assert (repaired.repaired, repaired.ap_cost, repaired.paid) == (1, REPAIR_AP, REPAIR_COST)
    assert g.state.damage == {} and g.state.empires["red"].ap == ap - REPAIR_AP
    assert g.state.empires["red"].resources == stock.minus(REPAIR_COST)
    assert secrets_of(repaired) == [("card", "red"), ("repaired", "red")]


def test_a_hero_away_from_a_base_or_in_a_stealthed_army_is_not_healed() -> None:
    g = hurt(begin(arena()), "red.captain.1")  # red-hunt stands in the field
    g.when_rejected(RepairCard(player="red", card="red.captain.1"), code="rules/not_at_base")
    g2 = hurt(begin(arena(AT_HOME)), "red.shade.1")
    g2.when(EngageStealth(player="red", army="red-home"))
    g2.when_rejected(RepairCard(player="red", card="red.shade.1"), code="rules/stealthed")


def test_a_facility_is_repaired_unless_its_hex_is_disputed() -> None:
    g = hurt(begin(arena()), "red.sniffer.1")
    assert RepairCard(player="red", card="red.sniffer.1") in RULESET.legal_commands(g.state, "red")
    standing_in(g, "blue-quarry", "0,0")
    g.when_rejected(RepairCard(player="red", card="red.sniffer.1"), code="rules/hex_disputed")


@pytest.mark.parametrize("version", ["24", "23"])
def test_since_version_24_a_hex_stays_disputed_while_its_empire_saw_the_army_there(
    version: str,
) -> None:
    """AE-5, AE-56: given blue's shade alone (no siege: it cannot fight) in red's hq hex, seen
    there by red, when it engages stealth, sealed for red, then since version 24 red's repair of
    the hq's facility is still refused, the hex disputed by what red saw until the round ends;
    version 23 accepted it at once, telling red of the stealth."""
    g = begin(arena(army_block("blue-lone", "blue", "4,3", hero="shade")))
    g.ruleset = VERSIONS[version]
    g.state = msgspec.structs.replace(g.state, rules_version=int(version))
    hurt(standing_in(g, "blue-lone", "0,0"), "red.sniffer.1")
    g.events(StealthEngaged(empire="blue", army="blue-lone", level=5, ap_cost=0))
    repair = RepairCard(player="red", card="red.sniffer.1")
    if version == "24":
        g.when_rejected(repair, code="rules/hex_disputed")
    else:
        assert only(g.when(repair), CardRepaired).card == "red.sniffer.1"


def test_an_aircraft_in_hand_is_repaired_but_never_a_missile() -> None:
    g = hurt(hurt(begin(arena()), "red.kite.1"), "red.dart.1")
    g.when(RepairCard(player="red", card="red.kite.1"))
    g.when_rejected(RepairCard(player="red", card="red.dart.1"), code="rules/not_repairable")


def test_only_a_damaged_card_of_one_s_own_is_repaired() -> None:
    g = hurt(begin(arena()), "blue.quarry.1")
    g.when_rejected(RepairCard(player="red", card="red.sniffer.1"), code="rules/not_damaged")
    g.when_rejected(RepairCard(player="red", card="blue.quarry.1"), code="rules/unknown_card")
    g.when_rejected(RepairCard(player="red", card="nothing"), code="rules/unknown_card")


def test_a_scenario_may_start_cards_damaged_for_a_referee_to_repair() -> None:
    armies = AT_HOME + "damage = { wisp = 1 }\n"
    bases = BASES.replace(
        'facilities = ["sniffer"]', 'facilities = ["sniffer"]\ndamage = { sniffer = 1 }'
    )
    g = begin(arena(armies, bases=bases))
    assert g.state.damage == {"red.wisp.1": 1, "red.sniffer.1": 1}
    repairs = {c.card for c in RULESET.legal_commands(g.state, "red") if isinstance(c, RepairCard)}
    assert repairs == {"red.wisp.1", "red.sniffer.1"}


def test_starting_damage_must_name_a_card_there_and_leave_it_standing() -> None:
    with pytest.raises(InputError, match=r"\$\.armies\[0\]\.damage\.wisp: damage 2: 1 to 1"):
        parse_scenario(toml(AT_HOME + "damage = { wisp = 2 }\n"))
    with pytest.raises(InputError, match="no 'eye' card here"):
        parse_scenario(toml(AT_HOME + "damage = { eye = 1 }\n"))


# -- AE-60: a captured base's facilities are repaired by the empire that holds the base ---------

CAMP_WITH_A_FACILITY = BASES.replace('card = "camp"', 'card = "camp"\nfacilities = ["sniffer"]')
CAMP_REPAIR = "red.sniffer.2"  # the camp's facility, dealt after the HQ's sniffer


def captured_camp(version: str, first: str, blue_army_there: bool) -> Given:
    """Red's outpost red-camp (0,3) and its damaged facility, captured by blue; blue's army
    blue-quarry standing in the camp's hex or away in the field (red has sighted nothing)."""
    scenario = parse_scenario(toml(bases=CAMP_WITH_A_FACILITY))
    g = hurt(begin(Given(VERSIONS[version], scenario), first), CAMP_REPAIR)
    g.events(BaseCaptured(base="red-camp", empire="blue", previous="red", at="0,3"))
    if blue_army_there:
        there = msgspec.structs.replace(g.state.armies["blue-quarry"], at="0,3")
        g.state = msgspec.structs.replace(g.state, armies={**g.state.armies, "blue-quarry": there})
    return g


def test_the_holder_of_a_captured_base_repairs_its_facilities_not_the_empire_that_lost_it() -> None:
    # given red's camp and its damaged facility captured by blue, blue's army there or not
    for blue_army_there in (True, False):
        g = captured_camp(RULESET.version, "red", blue_army_there)
        # when red orders the repair, then it is refused the same way, blue's army or not
        refused = g.when_rejected(RepairCard(player="red", card=CAMP_REPAIR), code="rules/not_held")
        assert str(refused) == (
            "red.sniffer.2 stands at red-camp, which blue now holds: the holder repairs it "
            "(p.34; AE-34, AE-60)"
        )
        assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, RepairCard)]
    # and blue, in its turn, repairs it with its own AP and materials
    g = captured_camp(RULESET.version, "blue", blue_army_there=False)
    assert RepairCard(player="blue", card=CAMP_REPAIR) in RULESET.legal_commands(g.state, "blue")
    repaired = only(g.when(RepairCard(player="blue", card=CAMP_REPAIR)), CardRepaired)
    assert repaired.empire == "blue" and g.state.damage == {}


def test_before_version_11_the_loser_s_refused_repair_told_of_armies_it_had_not_seen() -> None:
    # version 10: red, the card's owner, still ordered the repair, and the answer depended on
    # whether blue's unseen army stood in the hex (why AE-60 changed it)
    there = captured_camp("10", "red", blue_army_there=True)
    away = captured_camp("10", "red", blue_army_there=False)
    there.when_rejected(RepairCard(player="red", card=CAMP_REPAIR), code="rules/hex_disputed")
    away.when(RepairCard(player="red", card=CAMP_REPAIR))


def test_the_holder_repairs_a_captured_base_s_own_card_too_since_version_12() -> None:
    # given red's camp captured by blue, its own card damaged, blue's army there or not
    for blue_army_there in (True, False):
        g = captured_camp(RULESET.version, "red", blue_army_there)
        camp = g.state.bases["red-camp"].card
        hurt(g, camp)
        # when red, whose deck the card came from, orders its repair, then it is refused in the
        # same words whether or not blue's army stands there
        refused = g.when_rejected(RepairCard(player="red", card=camp), code="rules/not_held")
        assert str(refused) == (
            f"{camp} stands at red-camp, which blue now holds: the holder repairs it "
            "(p.34; AE-34, AE-60)"
        )
    # and blue, the holder, repairs it in its turn when the hex is not disputed
    g = captured_camp(RULESET.version, "blue", blue_army_there=False)
    camp = g.state.bases["red-camp"].card
    hurt(g, camp)
    assert RepairCard(player="blue", card=camp) in RULESET.legal_commands(g.state, "blue")
    repaired = only(g.when(RepairCard(player="blue", card=camp)), CardRepaired)
    assert repaired.empire == "blue" and camp not in g.state.damage


def test_a_game_of_version_11_keeps_its_rules_the_base_s_own_card_repaired_by_its_owner() -> None:
    # version 11 looked for the card among the base's facilities only: blue, the holder, was
    # told it has no such card, and red's repair was judged as its own card's
    g = captured_camp("11", "blue", blue_army_there=False)
    camp = g.state.bases["red-camp"].card
    hurt(g, camp)
    g.when_rejected(RepairCard(player="blue", card=camp), code="rules/unknown_card")
    red = captured_camp("11", "red", blue_army_there=True)
    hurt(red, camp)
    red.when_rejected(RepairCard(player="red", card=camp), code="rules/hex_disputed")


# -- AE-49: a repair, sealed for its empire, does not show in the other empire's views ----------


def repaired_in_sight(version: int | None = None, repair: bool = True) -> Given:
    """Red's wisp at its base, 1 damage dealt in the open; blue has the army in sight; red
    repairs it (or not)."""
    g = begin(arena(AT_HOME))
    if version is not None:
        g.state = msgspec.structs.replace(g.state, rules_version=version)
    g = sight(hurt(g, "red.wisp.1"), "blue", "red-home")
    if repair:
        g.when(RepairCard(player="red", card="red.wisp.1"))
    return g


def test_a_repair_does_not_show_in_the_other_empire_s_view_of_the_card() -> None:
    # given red's wisp with 1 damage blue saw dealt, blue sighting its army
    mended, left = repaired_in_sight(), repaired_in_sight(repair=False)
    # when red repairs it, then red sees it whole, and blue sees it as it saw it: the view of
    # its damage is the same whether or not red repaired it (AE-49, since version 12)
    assert RULESET.view(mended.state, "red")["damage"] == {}
    assert RULESET.view(mended.state, "blue")["damage"] == {"red.wisp.1": 1}
    assert RULESET.view(left.state, "blue")["damage"] == {"red.wisp.1": 1}


def test_open_damage_after_an_unseen_repair_counts_from_what_the_other_empire_saw() -> None:
    # given the wisp repaired out of blue's sight, when it takes 1 in the open, then the event
    # tells 2 of its 2 (what blue saw, plus the new one) and it stands, whole damage 1 of 2
    g = repaired_in_sight()
    hit = damage(g.state, "red.wisp.1", 1, challenge=2)
    assert (hit.amount, hit.total, hit.destroyed) == (1, 2, False)
    g.events(hit)
    assert g.state.damage == {"red.wisp.1": 1}
    assert RULESET.view(g.state, "blue")["damage"] == {"red.wisp.1": 2}


def test_a_game_of_version_11_keeps_its_rules_the_repair_seen_by_whoever_sighted_the_army() -> None:
    mended = repaired_in_sight(version=11)
    assert RULESET.view(mended.state, "blue")["damage"] == {}


def test_the_holder_sees_a_captured_base_s_facility_mended_and_the_empire_that_lost_it_does_not() -> (
    None
):
    # given red's camp captured by blue, its facility damaged 1 in the open, red sighting it
    g = captured_camp(RULESET.version, "blue", blue_army_there=False)
    assert RULESET.view(g.state, "red")["damage"] == {CAMP_REPAIR: 1}
    # when blue, the holder, repairs it out of red's sight, then blue sees it whole and red as
    # it saw it (the hidden part is the holder's, not the deck's empire's)
    g.when(RepairCard(player="blue", card=CAMP_REPAIR))
    assert RULESET.view(g.state, "blue")["damage"] == {}
    assert RULESET.view(g.state, "red")["damage"] == {CAMP_REPAIR: 1}


def test_a_repair_is_ordered_with_exactly_its_ap_left() -> None:
    g = with_ap(hurt(begin(arena(AT_HOME)), "red.wisp.1"), "red", REPAIR_AP)
    assert RepairCard(player="red", card="red.wisp.1") in RULESET.legal_commands(g.state, "red")
    g.when(RepairCard(player="red", card="red.wisp.1"))
    assert g.state.empires["red"].ap == 0


def test_a_repair_needs_its_materials() -> None:
    # R11; AE-22: 1 Materials whatever the card
    poor = EMPIRES.replace(
        "resources = { humans = 9, materials = 9, energy = 5, technology = 1 }",
        "resources = { humans = 9, energy = 5 }",
    )
    g = hurt(begin(arena(AT_HOME, empires=poor)), "red.wisp.1")
    err = g.when_rejected(
        RepairCard(player="red", card="red.wisp.1"), code="rules/not_enough_resources"
    )
    assert str(err).startswith(f"a repair costs {REPAIR_COST.text()}; red has")
    assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, RepairCard)]


def test_a_game_of_version_11_has_its_captured_facilities_repaired_by_the_holder() -> None:
    # AE-60 took effect with version 11 itself: red, who lost the camp, is refused
    g = captured_camp("11", "red", blue_army_there=False)
    g.when_rejected(RepairCard(player="red", card=CAMP_REPAIR), code="rules/not_held")
    blue = captured_camp("11", "blue", blue_army_there=False)
    assert only(blue.when(RepairCard(player="blue", card=CAMP_REPAIR)), CardRepaired).empire == (
        "blue"
    )


def test_a_game_of_version_12_has_a_captured_base_s_own_card_repaired_by_the_holder() -> None:
    # AE-60: since version 12 itself, the base's own card too
    g = captured_camp("12", "blue", blue_army_there=False)
    camp = g.state.bases["red-camp"].card
    hurt(g, camp)
    assert only(g.when(RepairCard(player="blue", card=camp)), CardRepaired).empire == "blue"


def test_a_prisoner_is_not_healed_by_his_empire() -> None:
    # p.34: heroes are healed in an army at a base of their empire; a prisoner is in none
    g = hurt(spotted(), QUARRY)
    hunt_to_the_end(g, [6, 5, 4, 4, 1, 1], [6, 5, 4, 1])
    assert g.state.bases["red-camp"].prisoners == (QUARRY,) and g.state.damage == {QUARRY: 1}
    g.when(EndTurn(player="red"))
    g.when_rejected(RepairCard(player="blue", card=QUARRY), code="rules/not_repairable")
    assert not [c for c in RULESET.legal_commands(g.state, "blue") if isinstance(c, RepairCard)]
