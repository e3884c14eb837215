"""Special abilities are parsed from their printed form into typed values (digest §9)."""

from __future__ import annotations

import pytest

from warlog.domain.armageddon_empires.abilities import (
    Armor,
    Collateral,
    Flag,
    Rated,
    Recce,
    Wmd,
    has,
    level,
    parse_abilities,
    parse_ability,
)
from warlog.domain.core.errors import InputError


@pytest.mark.parametrize(
    ("printed", "kind", "expected"),
    [
        ("Recce S5, R1", "unit", Recce(strength=5, range=1)),
        ("Bounty Hunter 2", "unit", Rated("Bounty Hunter", 2)),
        ("Air To Air 5", "attack", Rated("Air To Air", 5)),
        ("HARM 5", "attack", Rated("HARM", 5)),
        ("Collateral 60% 4 Atk", "attack", Collateral(percent=60, attack=4)),
        ("Hydrogen Bomb 10, 15", "attack", Wmd("Hydrogen Bomb", 10, 15)),
        ("Composite Armor -1", "unit", Armor("Composite Armor", -1)),
        ("Trickster 2", "hero", Rated("Trickster", 2)),
        ("Barracks", "facility", Flag("Barracks")),
    ],
)
def test_every_printed_form_parses_into_its_typed_value(
    printed: str, kind: str, expected: object
) -> None:
    assert parse_ability(printed, card="c", kind=kind) == expected


def test_hero_and_facility_recce_is_range_first_then_strength() -> None:
    # digest §11.3: "Recce X Y" on heroes and facilities = range X, strength Y
    assert parse_ability("Recce 3 5", kind="facility") == Recce(strength=5, range=3)
    assert parse_ability("Recce 2 4", kind="hero") == Recce(strength=4, range=2)


def test_unit_recce_without_labels_is_refused_as_ambiguous() -> None:
    with pytest.raises(InputError) as info:
        parse_ability("Recce 5 1", card="outriders", kind="unit")
    assert info.value.code == "input/bad_ability"
    assert "Recce S<strength>, R<range>" in info.value.message
    assert "outriders" in info.value.message


def test_labelled_recce_reads_the_same_on_any_card() -> None:
    assert parse_ability("Recce S4, R2", kind="hero") == Recce(strength=4, range=2)
    assert parse_ability("Recce R2 S4", kind="unit") == Recce(strength=4, range=2)


def test_unknown_ability_names_the_text_and_the_card() -> None:
    with pytest.raises(InputError) as info:
        parse_ability("Laser Eyes 3", card="cyborg")
    assert info.value.code == "input/unknown_ability"
    assert info.value.message == "card 'cyborg': unknown ability 'Laser Eyes 3'"


@pytest.mark.parametrize(
    "printed",
    [
        "Bounty Hunter",
        "Barracks 2",
        "Collateral 160% 4 Atk",
        "Hydrogen Bomb 10",
        "Composite Armor 1",
        "Trickster 0",
    ],
)
def test_a_known_ability_printed_wrongly_is_refused_with_an_example(printed: str) -> None:
    with pytest.raises(InputError) as info:
        parse_ability(printed, card="c", kind="unit")
    assert info.value.code == "input/bad_ability"
    assert "e.g." in info.value.message


def test_case_spacing_hyphens_and_old_names_are_forgiven() -> None:
    assert parse_ability("air-to-air  4") == Rated("Air To Air", 4)
    assert parse_ability("ANTI AIR 3") == Rated("Anti-Air", 3)
    # digest §11.7: "Rapid Response" (p.23) is "Rapid Reaction" (p.45, p.46)
    assert parse_ability("Rapid Response") == Flag("Rapid Reaction")


def test_longer_names_win_over_their_prefixes() -> None:
    assert parse_ability("Mutant Regeneration") == Flag("Mutant Regeneration")
    assert parse_ability("Regeneration") == Flag("Regeneration")
    assert parse_ability("Regenerate 2") == Rated("Regenerate", 2)


def test_printed_form_round_trips() -> None:
    for printed in [
        "Recce S5, R1",
        "Bounty Hunter 2",
        "Collateral 60% 4 Atk",
        "Hydrogen Bomb 10, 15",
        "Composite Armor -1",
        "Barracks",
    ]:
        assert parse_ability(printed, kind="unit").printed() == printed


def test_a_card_s_abilities_keep_their_order_and_answer_lookups() -> None:
    abilities = parse_abilities(
        ["Leader 1", "Trickster 2", "Leader 2"], card="marshal", kind="hero"
    )
    assert [a.name for a in abilities] == ["Leader", "Trickster", "Leader"]
    assert level(abilities, "Leader") == 2
    assert level(abilities, "Pathfinder") == 0
    assert has(abilities, "Trickster")


def test_collateral_runs_from_1_to_100_percent() -> None:
    # p.31: a percentage; 100 % hits every army, 0 % is no collateral damage at all
    assert parse_ability("Collateral 100% 4 Atk") == Collateral(percent=100, attack=4)
    assert parse_ability("Collateral 1% 4 Atk") == Collateral(percent=1, attack=4)
    with pytest.raises(InputError, match="not printed as expected"):
        parse_ability("Collateral 0% 4 Atk")


def test_a_longer_printing_is_never_read_as_its_shorter_prefix_with_parameters() -> None:
    # "Sniper" and "Collateral" are printings too (digest §11.7): the longer name wins
    assert parse_ability("Sniper Attack") == Flag("Sniper Attack")
    assert parse_ability("Sniper") == Flag("Sniper Attack")
    assert parse_ability("Collateral Damage 60% 4 Atk") == Collateral(percent=60, attack=4)
