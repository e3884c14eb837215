"""Scenario files: TOML into typed Structs; a bad file names the bad field's path."""

from __future__ import annotations

import tomllib

import msgspec
import pytest

from tests.domain.armageddon_empires.helpers import (
    ARMIES,
    BASES,
    EMPIRES,
    RESOURCES,
    ROWS,
    army_block,
    base_block,
    toml,
)
from tests.domain.armageddon_empires.test_minefields import MINE_CARDS, minefield
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


def tactic(effect: str, amount: int | None) -> str:
    """A ``[[cards]]`` table of a tactic card (p.51), appended after ``helpers.CARDS``' eleven."""
    x = "" if amount is None else f"amount = {amount}\n"
    return f'\n[[cards]]\nkind = "tactic"\nid = "t"\nname = "T"\neffect = "{effect}"\n{x}'


def with_facilities(*cards: str) -> str:
    """``helpers.BASES`` with ``cards`` as red-hq's facilities (its keep has level 2)."""
    listed = ", ".join(f'"{c}"' for c in cards)
    return BASES.replace('card = "keep"\n', f'card = "keep"\nfacilities = [{listed}]\n', 1)


#: a second card type with the id of ``helpers.CARDS``' trooper
TROOPER_AGAIN = """
[[cards]]
kind = "unit"
id = "trooper"
name = "Another Trooper"
attack = 1
defense = 1
hit_points = 1
movement = 1
"""


def eight_more_at(at: str) -> str:
    return "".join(army_block(f"red-s{i}", "red", at, units=("trooper",)) for i in range(8))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            toml().replace("height = 6", "height = 5"),
            "$.map.rows: 6 rows for a map 5 hexes high",
        ),
        (
            toml(armies=ARMIES + tactic("reroll_own_pool", 1)),
            "$.cards[11].amount: 'Re-roll Your Dice Pool' takes no X (p.51)",
        ),
        (
            toml(armies=ARMIES + tactic("dice_plus", None)),
            "$.cards[11].amount: dice_plus needs its X, 1 to 10 (p.51)",
        ),
        (
            toml(empires=EMPIRES + "deal = 3\n"),  # blue's deck holds two
            "$.empires[1].deal: 3 cards dealt from a deck of 2",
        ),
        (
            toml(bases=BASES.replace('at = "0,4"\ncard = "camp"', 'at = "0,4"\ncard = "keep"')),
            "$.bases[1].card: 'keep' has HQ, so it is a stronghold, not an outpost",
        ),
        (
            toml(bases=with_facilities("depot", "depot", "depot")),
            "$.bases[0].facilities: 3 facilities, over the 2 slots of level 2 (p.18)",
        ),
        (
            toml(bases=with_facilities("keep")),
            "$.bases[0].facilities[0]: 'keep' is not a facility without HQ",
        ),
        (
            toml(bases=BASES.replace('garrison = ["trooper"]', 'garrison = ["captain", "guide"]')),
            "$.bases[0].garrison: 2 heroes and 0 units; an army holds at most 1 hero and 8 units (p.23)",
        ),
        (
            toml(
                bases=BASES.replace(
                    'garrison = ["trooper"]', "garrison = [" + ", ".join(['"trooper"'] * 9) + "]"
                )
            ),
            "$.bases[0].garrison: 0 heroes and 9 units; an army holds at most 1 hero and 8 units (p.23)",
        ),
        (
            toml(armies=ARMIES.replace('empire = "blue"', 'empire = "green"')),
            "$.armies[2].empire: unknown empire 'green'",
        ),
        (
            # the garrison of red-hq is the first of red's armies at 0,0
            toml(armies=ARMIES + eight_more_at("0,0")),
            "$.armies[10].at: more than 8 armies of one empire in hex 0,0",
        ),
        (
            toml(armies=ARMIES + army_block("red-c", "red", "2,0") + "stealthed = true\n"),
            "$.armies[3].stealthed: every card of a stealthed army has Stealth X (p.27)",
        ),
        (
            toml(
                armies=ARMIES.replace(
                    'units = ["scout"]', 'units = ["scout"]\ndamage = { scout = 0 }'
                )
            ),
            "$.armies[1].damage.scout: damage 0: 1 to 0 (at 1 it is destroyed)",
        ),
        (
            toml(armies=ARMIES + TROOPER_AGAIN),
            "$.cards[11].id: card id 'trooper' is used twice",
        ),
        (
            toml(resources=RESOURCES + '\n[map.legend]\nx = "lava"\n'),
            "$.map.legend.x: unknown terrain 'lava'; known: plains, desert, badlands, forest, "
            "hills, urban, swamp, mountains",
        ),
        (
            toml(empires=EMPIRES.replace('id = "blue"', 'id = "red"')),
            "$.empires[1].id: empire id 'red' is used twice",
        ),
        (
            toml(empires=EMPIRES + "deal = 2\nhand_limit = 2\n"),  # blue's hand holds one
            "$.empires[1].deal: 1 cards in hand and 2 dealt, over hand_limit 2",
        ),
        (
            toml(bases=BASES + base_block("red-hq", "red", "3,3", card="camp", kind="outpost")),
            "$.bases[3].id: id 'red-hq' is used twice",
        ),
        (
            toml(bases=BASES + base_block("red-two", "red", "0,4", card="camp", kind="outpost")),
            "$.bases[3].at: hex 0,4 already holds base 'red-camp'",
        ),
        (
            toml(
                bases=BASES + base_block("green-camp", "green", "3,3", card="camp", kind="outpost")
            ),
            "$.bases[3].empire: unknown empire 'green'",
        ),
        (
            toml(
                bases=BASES + base_block("red-post", "red", "3,3", card="trooper", kind="outpost")
            ),
            "$.bases[3].card: 'trooper' is a unit card, not a facility",
        ),
        (
            toml(bases=BASES.replace('garrison = ["trooper"]', 'garrison = ["depot"]')),
            "$.bases[0].garrison[0]: 'depot' is a facility card; garrisons hold heroes and units",
        ),
        (
            toml(armies=ARMIES + army_block("red-a", "red", "2,0", units=("trooper",))),
            "$.armies[3].id: id 'red-a' is used twice",
        ),
        (
            toml(
                armies=MINE_CARDS
                + ARMIES
                + minefield("m", "blue", "5,5")
                + minefield("m", "blue", "5,4")
            ),
            "$.minefields[1].id: id 'm' is used twice",
        ),
    ],
    ids=[
        "rows-height",
        "whole-pool-tactic-with-x",
        "tactic-without-x",
        "deal-over-deck",
        "outpost-with-hq",
        "facilities-over-slots",
        "facility-with-hq",
        "garrison-of-two-heroes",
        "garrison-of-nine-units",
        "army-of-unknown-empire",
        "ninth-army-beside-a-garrison",
        "empty-stealthed-army",
        "damage-zero",
        "card-id-twice",
        "legend-of-unknown-terrain",
        "empire-id-twice",
        "deal-over-hand-limit",
        "base-id-twice",
        "base-on-a-base",
        "base-of-unknown-empire",
        "base-card-not-a-facility",
        "garrison-of-a-facility",
        "army-id-twice",
        "minefield-id-twice",
    ],
)
def test_a_scenario_breaking_a_rule_is_refused_naming_the_field_and_the_rule(
    text: str, message: str
) -> None:
    """Given a scenario file with one mistake, when it is read, then it is refused with
    ``input/bad_scenario`` naming the bad field and the rule (docs/scenarios.md)."""
    assert rejected(text) == f"bad scenario: {message}"


def test_a_scenario_at_each_limit_is_accepted() -> None:
    """Given a scenario at each limit a mistake goes one past, when it is read, then it is
    accepted: the base card's level in facilities (p.18), seven more armies beside a garrison
    (8 a hex, p.23), empires named apart though one's id begins the other's, and a minefield in
    its own empire's army's hex; and a legend token naming a known terrain."""
    parse_scenario(toml(bases=with_facilities("depot", "depot")))
    parse_scenario(toml(resources=RESOURCES + '\n[map.legend]\nx = "forest"\n'))
    seven = eight_more_at("0,0").rsplit("\n[[armies]]", 1)[0]
    parse_scenario(toml(armies=ARMIES + seven))
    sc = parse_scenario(toml().replace('"blue"', '"redder"'))
    assert [e.id for e in sc.empires] == ["red", "redder"]
    own = MINE_CARDS + ARMIES + minefield("red-mines", "red", "1,0")  # red-a stands there
    parse_scenario(toml(armies=own))


def test_a_terrain_that_costs_no_movement_is_refused() -> None:
    """A terrain's move cost is at least 1 (docs/scenarios.md, ``[terrain]``): a free hex would
    let an army cross the map."""
    msg = rejected(toml(extra="\n[terrain.swamp]\nmove = 0\n"))
    assert msg == "bad scenario: Expected `int` >= 1 - at `$.terrain[...].move`"


def test_a_garrison_s_hero_leads_it_and_is_not_one_of_its_units() -> None:
    """AE-8: given red's stronghold garrisoned by a trooper and the captain, when the game
    opens, then its garrison army has the captain as hero and the trooper alone as unit."""
    bases = BASES.replace('garrison = ["trooper"]', 'garrison = ["trooper", "captain"]')
    garrison = RULESET.initial_state(parse_scenario(toml(bases=bases))).armies["red-hq-garrison"]
    assert (garrison.hero, garrison.units) == ("red.captain.1", ("red.trooper.1",))
