"""Scenarios: the bundled open field (two forces of about 300 points from the published profiles,
labelled with their source) and the checks that name the bad field of a scenario file."""

from __future__ import annotations

import math

import pytest

from tests.domain.heroic_battles.helpers import PROVING_GROUND, open_field
from warlog.domain import rulesets
from warlog.domain.core.errors import InputError
from warlog.domain.heroic_battles.ruleset import RULESET
from warlog.domain.heroic_battles.scenario import parse_scenario

#: the published unit profiles the bundled forces use: (combat, shooting, armour, stamina)
PROFILES = {
    "Warriors: Heavy Infantry": (12, 0, 3, 4),
    "Warriors: Heavy Infantry, Armour 4": (12, 0, 4, 4),
    "Warriors: Heavy Infantry, Armour 2": (12, 0, 2, 4),
    "Heavy Riders: Medium Cavalry": (10, 5, 3, 3),
    "Skirmishers: Shooters, bow": (6, 6, 2, 2),
    "Skirmishers: Shooters, sling": (6, 6, 2, 2),
}


def test_the_open_field_is_bundled_and_the_default() -> None:
    assert rulesets.default_scenario(RULESET) == "open-field"
    assert "open-field" in rulesets.bundled_scenarios(RULESET)


def test_each_force_is_about_300_points_with_heroes_at_most_a_third() -> None:
    for force in open_field().forces:
        heroes = sum(h.points for h in force.heroes)
        total = heroes + sum(u.points for u in force.units)
        assert 280 <= total <= 320, (force.id, total)
        assert heroes * 3 <= total


def test_every_unit_has_its_published_profile_and_says_which() -> None:
    sc = open_field()
    assert "Reisswitz Press" in sc.source and "rulebook" in sc.source
    for force in sc.forces:
        for u in force.units:
            assert PROFILES[u.profile] == (u.combat_dice, u.shooting_dice, u.armour, u.stamina)
            if u.type == "skirmishers":
                assert u.shooting_armour == 3 and set(u.traits) >= {"agile", "evade"}
        for h in force.heroes:
            assert h.stamina == (1 if h.level == 1 else 2)


def test_reputation_is_a_tenth_of_the_points_and_tokens_follow_the_builders_formula() -> None:
    for force in open_field().forces:
        total = 0
        for item in (*force.units, *force.heroes):
            expected = max(1, math.floor(item.points / 10 + 0.5))
            if "army_commander" in getattr(item, "traits", []) and hasattr(item, "level"):
                expected += 1
            assert item.reputation == expected, item.id
            total += item.reputation
        assert force.reputation_tokens == max(8, math.ceil(total / 4))


def bad(text: str, path: str) -> None:
    base = PROVING_GROUND.read_text()
    with pytest.raises(InputError) as info:
        parse_scenario(base.replace(*text.split(" => ")) if " => " in text else base + text)
    assert info.value.code == "input/bad_scenario"
    assert path in info.value.message, info.value.message


def test_a_bad_scenario_names_the_field_at_fault() -> None:
    bad('attacker = "red" => attacker = "green"', "$.attacker")
    bad(
        'attached_to = "red-warriors" => attached_to = "blue-warriors"',
        "$.forces[0].heroes[0].attached_to",
    )
    bad('id = "red-brutes" => id = "red-warriors"', "$.forces[0].units[1].id")
    bad(
        'traits = ["brutal"] => traits = ["brutal", "army_commander"]',
        "$.forces[0].heroes[1].traits",
    )
    bad('missile = "javelin" => missile = ""', "$.forces[0].units[2].missile")
    bad('traits = ["brutal", "spears_as_tribute"] => traits = ["brutal", "sorcery"]', "traits")
    bad(
        'traits = ["towering", "brutal", "fearsome"] => traits = ["towering", "big"]',
        "$.forces[1].units[2].traits",
    )
    bad("turns = 3 => turns = 0", "turns")
    bad('\n[[forces]]\nid = "green"\nname = "Green"\nreputation_tokens = 1\n', "$.forces")


def test_a_bad_scenario_says_why_the_field_is_at_fault() -> None:
    """Each check names the field and the rule it breaks, so a scenario's author can mend it."""
    bad(
        '\n[[forces]]\nid = "green"\nname = "Green"\nreputation_tokens = 1\n',
        "$.forces: a battle has 2 forces, not 3",
    )
    bad(
        'id = "blue"\nname = "Blue" => id = "red"\nname = "Blue"',
        "$.forces[1].id: id 'red' is already a force",
    )
    bad(
        'traits = ["marksman"] => traits = ["marksman", "marksman"]',
        "$.forces[0].units[3].traits: a trait is named twice",
    )
    bad(
        "shooting_dice = 8\n => ",
        "$.forces[0].units[3].shooting_dice: a unit with a bow needs shooting dice",
    )
    bad(
        'traits = ["brutal"] => traits = ["brutal", "brutal"]',
        "$.forces[0].heroes[1].traits: a trait is named twice",
    )
    bad(
        'traits = ["brutal"] => traits = ["mounted", "flying"]',
        "$.forces[0].heroes[1].traits: a hero is Mounted or Flying, not both",
    )


def test_a_force_with_neither_units_nor_heroes_is_refused() -> None:
    base = PROVING_GROUND.read_text()
    empty_blue = base[: base.index('[[forces]]\nid = "blue"')] + (
        '[[forces]]\nid = "blue"\nname = "Blue"\nreputation_tokens = 10\n'
    )
    with pytest.raises(
        InputError, match=r"\$\.forces\[1\]: a force needs at least one unit or hero"
    ):
        parse_scenario(empty_blue)
