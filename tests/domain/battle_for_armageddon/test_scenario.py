"""The bundled scenario and the scenario checks (every error names the bad field's path)."""

from __future__ import annotations

import importlib.resources
from collections.abc import Callable
from itertools import permutations
from typing import Any

import msgspec
import pytest

from tests.domain.battle_for_armageddon.helpers import PROVING_GROUND, second_war
from warlog.domain.battle_for_armageddon.ruleset import RULESET
from warlog.domain.battle_for_armageddon.scenario import parse_scenario, scenario_from_builtins
from warlog.domain.core.areagraph import AreaGraph
from warlog.domain.core.errors import InputError

#: seed 003 reference sheet, "Build Points"
SEED_BUILD_TABLE = {
    "Rough Riders": 1,
    "Hive Gangs": 2,
    "Imperial Guard": 2,
    "Fortifications": 2,
    "Assault Corps": 2,
    "Tank Division": 3,
    "Hive Defence Force": 3,
    "Titan Order": 5,
}


def _bundled_text() -> str:
    path = importlib.resources.files(RULESET.scenario_package).joinpath("second-war.toml")
    return path.read_text()


def test_the_bundled_scenario_says_it_is_warlogs_own_invention() -> None:
    header = _bundled_text()[:800]
    assert "warlog's own invention" in header.lower().replace("’", "'") or "OWN INVENTION" in header
    assert "1992" in header


def test_the_bundled_map_has_about_thirty_areas_of_every_terrain() -> None:
    sc = second_war()
    assert 25 <= len(sc.areas) <= 35
    assert {a.terrain for a in sc.areas} == {"clear", "ash_waste", "jungle", "mountains", "sea"}
    assert sc.rivers
    assert any(a.ork_territory for a in sc.areas)
    assert {a.supply for a in sc.areas} >= {"imperials", "orks"}
    graph = AreaGraph({a.id: a.adjacent for a in sc.areas})
    assert graph.problems() == []
    passable = [g for g in graph.components(lambda a: a not in _blocked(sc))]
    assert len(passable) == 1, "every open area is reachable from every other"


def _blocked(sc: object) -> set[str]:
    return {a.id for a in second_war().areas if a.terrain in ("mountains", "sea")}


def test_the_bundled_scenario_has_five_hives_and_several_factories_worth_twenty() -> None:
    sc = second_war()
    hives = [s for s in sc.sites if s.kind == "hive"]
    factories = [s for s in sc.sites if s.kind == "factory"]
    assert len(hives) == 5
    assert len(factories) >= 3
    assert sum(s.defence for s in sc.sites) == 20


def test_every_build_table_type_is_in_the_scenario_at_the_seed_cost() -> None:
    types = {t.name: t for t in second_war().counter_types}
    for name, cost in SEED_BUILD_TABLE.items():
        assert types[name].cost == cost, name
    costed = {t.name for t in second_war().counter_types if t.cost is not None}
    assert costed == set(SEED_BUILD_TABLE)


def test_the_orks_come_in_several_tribes_and_the_marines_arrive_on_turn_3() -> None:
    sc = second_war()
    tribes = {c.tribe for c in sc.counters if c.tribe}
    assert len(tribes) >= 3
    types = {t.id: t for t in sc.counter_types}
    later = [c for c in sc.counters if c.start == "later"]
    assert {types[c.type].role for c in later} == {"chapter", "leader"}
    assert sum(1 for c in later if types[c.type].role == "chapter") == 3
    assert all(c.arrives == 3 for c in later)


def test_the_strategy_cards_are_the_six_ordered_pairs_of_phases() -> None:
    pairs = {tuple(c.phases) for c in second_war().strategy_cards}
    assert pairs == set(permutations(("movement", "combat", "build"), 2))


def test_each_side_has_a_special_deck_with_reconstruction_and_drop_pod() -> None:
    sc = second_war()
    imperial = {c.name for c in sc.special_cards if c.side == "imperials"}
    assert {"Reconstruction", "Imperial Drop Pod"} <= imperial
    assert any(c.side == "orks" for c in sc.special_cards)


def test_the_scenario_round_trips_through_its_recorded_form() -> None:
    sc = second_war()
    assert scenario_from_builtins(msgspec.to_builtins(sc)) == sc


def _broken(old: str, new: str) -> bytes:
    text = PROVING_GROUND.read_text()
    assert old in text
    return text.replace(old, new, 1).encode()


@pytest.mark.parametrize(
    ("old", "new", "path"),
    [
        ('terrain = "clear"', 'terrain = "swamp"', "$.areas[0].terrain"),
        (
            'adjacent = ["plain_a", "hive_b"]',
            'adjacent = ["plain_a", "hive_b", "nowhere"]',
            "$.areas[0].adjacent[2]",
        ),
        (
            'adjacent = ["plain_a", "hive_b"]',
            'adjacent = ["plain_a", "hive_b", "ork_c"]',
            "$.areas[0].adjacent[2]",
        ),
        ('areas = ["plain_a", "river_a"]', 'areas = ["plain_a", "ork_c"]', "$.rivers[0].areas"),
        ("defence = 2\n", "defence = 3\n", "$.sites"),
        ('kind = "factory"', 'kind = "hive"', "$.sites"),
        (
            'tribe = "goffs"\nstart = "ork_a"',
            'tribe = "goffs"\nstart = "plain_a"',
            "$.counters[12].start",
        ),
        (
            'tribe = "goffs"\nstart = "ork_a"',
            'tribe = "snakebites"\nstart = "ork_a"',
            "$.counters[12].tribe",
        ),
        ('type = "imperial_guard"', 'type = "battle_titan"', "$.counters[0].type"),
        (
            'phases = ["movement", "combat"]',
            'phases = ["movement", "movement"]',
            "$.strategy_cards[0].phases",
        ),
        ('effect = "extra_rebuild"', 'effect = "drop_pod"', "$.special_cards[4].effect"),
        ('id = "ig-2"', 'id = "ig-1"', "$.counters[1].id"),
        ('id = "ig-2"', 'id = "IG 2"', "$.counters[1].id"),
        (
            'adjacent = ["plain_a", "hive_b"]',
            'adjacent = ["plain_a", "-hive"]',
            "$.areas[0].adjacent[1]",
        ),
        # the map (seed 003: Setting Up, Supply)
        ('supply = "imperials"\n', "", "$.areas: no supply area for the imperials"),
        (
            'supply = "orks"\nork_territory = true',
            'supply = "orks"',
            "$.areas[3].supply: Ork supply areas lie in Ork Territory",
        ),
        # hives and factories
        (
            'area = "factory_f"',
            'area = "mount_c"',
            "$.sites[5].area: a factory cannot stand in mountains",
        ),
        (
            'area = "factory_f"',
            'area = "ork_b"',
            "$.sites[5].area: a factory cannot stand in Ork Territory",
        ),
        (
            'area = "factory_f"',
            'area = "hive_e"',
            "$.sites[5].area: area 'hive_e' already holds a hive or factory",
        ),
        # counter types (seed 003: Build, Special Units)
        (
            "cost = 1\nproduction = 1",
            "cost = 1",
            "$.counter_types[0]: cost and production go together",
        ),
        (
            'name = "Ork Boyz"\n',
            'name = "Ork Boyz"\ncost = 1\nproduction = 1\n',
            "$.counter_types[8].cost: only Imperial counters are bought with build points",
        ),
        (
            "defence = 0\nmove = 0",
            "defence = 0\nmove = 1",
            "$.counter_types[3].role: fortifications are Imperial and have Move 0",
        ),
        (
            'reduced_name = "Space Marine Detachment"\n',
            "",
            "$.counter_types[5].reduced_name: a chapter needs its detachment side",
        ),
        (
            'role = "chapter"\n',
            'role = "chapter"\ncost = 3\nproduction = 2\n',
            "$.counter_types[5].cost: Marine Chapters cannot be rebuilt (rules: Special Units)",
        ),
        (
            'name = "Ork Boyz"\n',
            'name = "Ork Boyz"\nability = "reroll"\n',
            "$.counter_types[8].ability: only leaders have special abilities",
        ),
        # counters and where they start (seed 003: Setting Up, Stacking)
        (
            'id = "ig-1"\ntype = "imperial_guard"\n',
            'id = "ig-1"\ntype = "imperial_guard"\narrives = 2\n',
            "$.counters[0].arrives: only a counter that starts 'later' has an arrival turn",
        ),
        (
            "arrives = 3",
            "arrives = 0",
            "$.counters[10].arrives: a counter that starts 'later' needs",
        ),
        (
            'id = "ghazghkull"\ntype = "ghazghkull"\n',
            'id = "ghazghkull"\ntype = "ghazghkull"\ntribe = "goffs"\n',
            "$.counters[19].tribe: only normal Ork counters belong to a tribe",
        ),
        (
            'id = "ig-1"\ntype = "imperial_guard"\n',
            'id = "ig-1"\ntype = "imperial_guard"\nstart = "nowhere"\n',
            "$.counters[0].start: unknown area 'nowhere'",
        ),
        (
            'id = "ig-1"\ntype = "imperial_guard"\n',
            'id = "ig-1"\ntype = "imperial_guard"\nstart = "mount_c"\n',
            "$.counters[0].start: no counter may stand in mountains",
        ),
        (
            'id = "fort-1"\ntype = "fortifications"\n',
            'id = "fort-1"\ntype = "fortifications"\nstart = "plain_a"\n',
            "$.counters[6].start: fortifications stand on a hive or factory",
        ),
        (
            'id = "ig-1"\ntype = "imperial_guard"\n',
            'id = "ig-1"\ntype = "imperial_guard"\nstart = "ork_a"\n',
            "$.counters[12].start: Imperial and Ork counters both in 'ork_a'",
        ),
        (
            'tribe = "goffs"\nstart = "ork_c"',
            'tribe = "goffs"\nstart = "ork_a"',
            "$.counters[15].start: more than 3 counters stacked in 'ork_a'",
        ),
        # cards
        (
            'effect = "barrage"\nvalue = 1',
            'effect = "barrage"\nvalue = 0',
            "$.special_cards[2].value: 'barrage' needs a value of 1 or more",
        ),
    ],
)
def test_a_bad_scenario_is_refused_naming_the_field(old: str, new: str, path: str) -> None:
    with pytest.raises(InputError) as info:
        parse_scenario(_broken(old, new))
    assert info.value.code == "input/bad_scenario"
    assert path in str(info.value)


def test_overstacked_or_mixed_set_ups_are_refused() -> None:
    data = _broken(
        'id = "sunz-1"\ntype = "boyz"\ntribe = "evil_sunz"\nstart = "ork_b"',
        'id = "sunz-1"\ntype = "boyz"\ntribe = "evil_sunz"\nstart = "ork_c"',
    )
    with pytest.raises(InputError, match=r"\$\.counters\[16\]\.tribe: .*mixed"):
        parse_scenario(data)


def _recorded(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """The proving ground's recorded form (``game_created``), changed by ``change``."""
    obj = msgspec.to_builtins(parse_scenario(PROVING_GROUND.read_bytes()))
    change(obj)
    return obj


def test_a_map_without_ork_territory_is_refused() -> None:
    def no_territory(obj: dict[str, Any]) -> None:
        for area in obj["areas"]:
            area["ork_territory"] = False

    with pytest.raises(InputError, match=r"\$\.areas: no area is in Ork Territory"):
        scenario_from_builtins(_recorded(no_territory))


def test_each_player_needs_two_strategy_cards_to_choose_from() -> None:
    def one_card(obj: dict[str, Any]) -> None:
        del obj["strategy_cards"][1:]

    with pytest.raises(InputError, match=r"\$\.strategy_cards: each player needs at least 2"):
        scenario_from_builtins(_recorded(one_card))


def test_a_special_deck_larger_than_a_die_has_sides_is_refused() -> None:
    """A draw picks the card with one die (BFA-11), and a die has at most 256 sides: the Orks'
    2 cards with 254 more are a full deck, with 255 more one card too many."""

    def deck_of(extra: int) -> Callable[[dict[str, Any]], None]:
        def change(obj: dict[str, Any]) -> None:
            card = next(c for c in obj["special_cards"] if c["id"] == "waaagh-1")
            obj["special_cards"] += [{**card, "id": f"waaagh-x{i}"} for i in range(extra)]

        return change

    assert len(scenario_from_builtins(_recorded(deck_of(254))).special_cards) == 259
    with pytest.raises(InputError, match=r"\$\.special_cards: the orks have 257 special cards"):
        scenario_from_builtins(_recorded(deck_of(255)))


def test_the_orks_cannot_be_set_aside() -> None:
    data = _broken('tribe = "goffs"\nstart = "ork_a"', 'tribe = "goffs"\nstart = "aside"')
    with pytest.raises(InputError, match=r"\$\.counters\[12\]\.start: the Orks set up"):
        parse_scenario(data)


def test_unreadable_toml_is_an_input_error() -> None:
    with pytest.raises(InputError) as info:
        parse_scenario(b"name = [")
    assert info.value.code == "input/bad_scenario"


def test_a_scenario_starting_two_fortifications_in_one_area_is_refused() -> None:
    """BFA-9's scenario check: a set-up starts at most one fortification per area, whatever
    version a game of it begins under (since version 5 more may stack in play)."""
    text = _bundled_text()
    old = 'id = "fort-2"\ntype = "fortifications"\nstart = "hades"'
    assert old in text
    data = text.replace(old, old.replace("hades", "tempestora"), 1).encode()
    with pytest.raises(InputError, match=r"a second fortification in 'tempestora' \(BFA-9\)"):
        parse_scenario(data)
