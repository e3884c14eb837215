"""Scenario files: TOML into typed Structs; a bad file names the bad field's path."""

from __future__ import annotations

import tomllib

import msgspec
import pytest

from tests.domain.armageddon_empires.helpers import ARMIES, BASES, EMPIRES, ROWS, toml
from warlog.domain.armageddon_empires.abilities import Rated, Recce
from warlog.domain.armageddon_empires.cards import HeroCard, UnitCard
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.scenario_checks import bundled, bundled_names, parse_scenario
from warlog.domain.core.errors import InputError

BUNDLED = "cinder-and-glass"


def rejected(text: str) -> str:
    with pytest.raises(InputError) as info:
        parse_scenario(text)
    assert info.value.code == "input/bad_scenario"
    return info.value.message


def test_the_test_scenario_decodes_into_typed_structs() -> None:
    sc = parse_scenario(toml())
    assert isinstance(sc.cards[0], HeroCard)
    assert isinstance(sc.cards[3], UnitCard)
    assert sc.map.width == 8 and sc.map.height == 6


def test_a_wrong_type_names_its_path() -> None:
    msg = rejected(toml().replace("max_rounds = 3", 'max_rounds = "three"'))
    assert "$.max_rounds" in msg


def test_a_misspelt_field_names_its_path() -> None:
    msg = rejected(toml().replace("hit_points = 2\nmovement = 2", "hitpoints = 2\nmovement = 2", 1))
    assert "hitpoints" in msg and "$.cards[3]" in msg


def test_an_unknown_card_kind_is_refused() -> None:
    msg = rejected(toml().replace('kind = "unit"\nid = "trooper"', 'kind = "tank"\nid = "trooper"'))
    assert "$.cards[3]" in msg and "tank" in msg


def test_an_unknown_card_in_an_army_names_the_army_and_unit_index() -> None:
    msg = rejected(toml(armies=ARMIES.replace('units = ["scout"]', 'units = ["scout", "x"]')))
    assert msg == "bad scenario: $.armies[1].units[1]: unknown card 'x'"


def test_an_unknown_ability_names_the_card_path_and_the_text() -> None:
    msg = rejected(toml().replace('"Raider 1"', '"Raider 1", "Laser Eyes 3"'))
    assert (
        msg
        == "bad scenario: $.cards[2].abilities[1]: card 'runner': unknown ability 'Laser Eyes 3'"
    )


def test_a_row_of_the_wrong_width_names_the_row() -> None:
    msg = rejected(toml([*ROWS[:2], ". . .", *ROWS[3:]]))
    assert msg == "bad scenario: $.map.rows[2]: 3 hexes for a map 8 hexes wide"


def test_an_unknown_terrain_token_names_the_row_and_the_hex() -> None:
    msg = rejected(toml([*ROWS[:1], ". x . . . . . .", *ROWS[2:]]))
    assert msg == "bad scenario: $.map.rows[1]: 'x' (hex 1,1) is not in the legend"


def test_a_hex_off_the_map_names_its_field() -> None:
    msg = rejected(toml(armies=ARMIES.replace('at = "6,5"', 'at = "9,9"')))
    assert msg == "bad scenario: $.armies[2].at: hex 9,9 is not on the map"


def test_a_malformed_hex_names_its_field() -> None:
    msg = rejected(toml(armies=ARMIES.replace('at = "6,5"', 'at = "six"')))
    assert msg.startswith("bad scenario: $.armies[2].at: bad hex 'six'")


def test_an_army_of_nine_units_breaks_the_limit() -> None:
    nine = ", ".join(['"trooper"'] * 9)
    msg = rejected(toml(armies=ARMIES.replace('units = ["scout"]', f"units = [{nine}]")))
    assert "$.armies[1].units" in msg


def test_a_hero_in_the_units_list_is_refused() -> None:
    msg = rejected(toml(armies=ARMIES.replace('units = ["scout"]', 'units = ["guide"]')))
    assert msg == "bad scenario: $.armies[1].units[0]: 'guide' is a hero card, not a unit"


def test_each_empire_needs_exactly_one_stronghold_with_hq() -> None:
    msg = rejected(
        toml(
            bases=BASES.replace(
                'kind = "outpost"\nat = "0,4"\ncard = "camp"',
                'kind = "stronghold"\nat = "0,4"\ncard = "keep"',
            )
        )
    )
    assert "empire 'red' has 2 strongholds" in msg
    msg = rejected(
        toml(
            bases=BASES.replace(
                'kind = "stronghold"\nat = "0,0"\ncard = "keep"',
                'kind = "stronghold"\nat = "0,0"\ncard = "camp"',
            )
        )
    )
    assert msg.startswith("bad scenario: $.bases[0].card: a stronghold's card has HQ")


def test_an_army_in_an_enemy_hex_is_refused_because_a_game_starts_with_no_battle() -> None:
    msg = rejected(toml(armies=ARMIES.replace('at = "6,5"', 'at = "1,0"')))
    assert msg.startswith(
        "bad scenario: $.armies[2].at: hex 1,0 holds a combat-capable army of 'red'"
    )
    assert "a game starts with no battle" in msg


def test_an_army_in_an_enemy_base_is_refused_and_a_stealthed_one_needs_stealth_everywhere() -> None:
    msg = rejected(toml(armies=ARMIES.replace('at = "6,5"', 'at = "0,0"')))
    assert msg.startswith("bad scenario: $.armies[2].at: hex 0,0 holds 'red''s base")
    msg = rejected(toml(armies=ARMIES + "stealthed = true\n"))
    assert msg.startswith("bad scenario: $.armies[2].stealthed: every card of a stealthed army")


def test_an_army_named_like_the_other_empire_s_is_refused() -> None:
    msg = rejected(toml(armies=ARMIES.replace('id = "blue-a"', 'id = "red-z"')))
    assert msg.startswith("bad scenario: $.armies[2].id: 'red-z' belongs to blue")


def test_the_empires_need_known_ids_and_only_two_of_them() -> None:
    msg = rejected(toml(empires=EMPIRES.replace('hand = ["trooper"]', 'hand = ["nope"]')))
    assert msg == "bad scenario: $.empires[1].hand[0]: unknown card 'nope'"
    third = '\n[[empires]]\nid = "green"\nname = "Green"\n'
    assert "exactly 2 empires, found 3" in rejected(toml(empires=EMPIRES + third))


def test_broken_toml_is_a_bad_scenario() -> None:
    assert "not valid TOML" in rejected("name = ")


def test_the_recorded_form_decodes_back_to_the_same_scenario() -> None:
    sc = parse_scenario(toml())
    assert RULESET.scenario_from_builtins(msgspec.to_builtins(sc)) == sc


def test_the_bundled_scenario_is_two_empires_on_a_large_map_with_decks_armies_and_bases() -> None:
    assert BUNDLED in bundled_names()
    sc = bundled(BUNDLED)
    assert min(sc.map.width, sc.map.height) >= 10
    assert RULESET.players(sc) == ["red", "blue"]
    for empire in ("red", "blue"):
        kinds = {b.kind for b in sc.bases if b.empire == empire}
        assert kinds == {"stronghold", "outpost"}
        assert sum(1 for b in sc.bases if b.empire == empire for _ in b.facilities) >= 1
        assert 2 <= sum(1 for a in sc.armies if a.empire == empire) <= 4
        emp = next(e for e in sc.empires if e.id == empire)
        assert not emp.hand and emp.deal == 4 and len(emp.deck) > emp.deal  # dealt (AE-15)
    terrains = {t for row in sc.map.rows for t in row.split()}
    assert len(terrains) >= 6
    assert len(sc.map.resources) >= 6


def test_the_bundled_cards_print_every_listed_ability_form() -> None:
    state = RULESET.initial_state(bundled(BUNDLED))
    printed = {p for entry in state.catalogue.values() for p in entry.spec.abilities}
    for form in [
        "Recce S5, R1",
        "Bounty Hunter 2",
        "Air To Air 5",
        "HARM 5",
        "Collateral 60% 4 Atk",
        "Hydrogen Bomb 10, 15",
        "Composite Armor -1",
        "Trickster 2",
    ]:
        assert form in printed
    mast = state.catalogue["listening-mast"]
    assert mast.abilities[0] == Recce(strength=5, range=3)
    assert Rated("HARM", 5) in state.catalogue["wasp-strike-wing"].abilities


def test_the_bundled_file_says_its_cards_are_warlog_s_own() -> None:
    from importlib.resources import files

    text = (
        files("warlog.domain.armageddon_empires.scenarios").joinpath(f"{BUNDLED}.toml").read_text()
    )
    head = " ".join(text[:800].replace("#", " ").split()).lower()
    assert "warlog's own invention" in head
    assert "none of it is a card of the commercial game" in head


def test_an_unknown_bundled_name_lists_the_known_ones() -> None:
    with pytest.raises(InputError) as info:
        bundled("nowhere")
    assert BUNDLED in info.value.message


def test_a_new_game_s_empires_are_named_apart_from_each_other_s_armies() -> None:
    # an empire 'red-b' beside 'red' would let red name an army 'red-b-1' and learn from
    # "the name is taken" of red-b's unseen armies (AE-17)
    text = toml().replace('"blue"', '"red-b"')
    msg = rejected(text)
    assert msg.startswith("bad scenario: $.empires[1].id: empire id 'red-b' begins like 'red''s")
    # a game already recorded with such names still loads: the check is for new games
    recorded = RULESET.scenario_from_builtins(tomllib.loads(text))
    assert [e.id for e in recorded.empires] == ["red", "red-b"]
