"""The card catalogue of a custom scenario (AE-64, since version 18): ``game_created``, which
every player holds, records in the clear only the card types the public part of the scenario
uses (the bases' cards and facilities); each empire's other types are a list under it, sealed
whole for it, empty or not; a type nobody uses is left out. Before version 18 the whole
catalogue was in the clear, so a type that neither red's set-up nor a base used was blue's.
Since version 18 too a game whose set-up is hidden checks every move for minefields (AE-54),
whatever its catalogue, so that the first move does not tell whether a minefield type exists.

Non-interference: games whose scenarios differ only in the card type of blue's garrison (a type
of blue's own, ``glass-choristers``, or one red uses too) and in whether the catalogue defines
``glass-choristers`` at all, begun with the same key and played with the same commands, give
red the same answers (``test_hidden_setup.red_outputs``: its feed, the exported row, its view
and every read), every 64-hex digest blinded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.command import succeeded as cli_ok
from tests.domain.armageddon_empires.helpers import (
    ARMIES,
    BASES,
    EMPIRES,
    army_block,
    base_block,
    begun,
    revealed_clean,
    toml,
    verified_and_imported,
)
from tests.domain.armageddon_empires.test_hidden_setup import created_as, forged_audit, red_outputs
from tests.domain.armageddon_empires.test_minefields import MINE_CARDS, minefield
from tests.domain.armageddon_empires.test_non_interference import KEY, reads
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.domain import rulesets
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.scenario_checks import parse_scenario
from warlog.domain.core.errors import InputError

#: a unit type that only blue's garrison may use
CHORISTERS = """
[[cards]]
kind = "unit"
id = "glass-choristers"
name = "Glass Choristers"
attack = 2
defense = 3
hit_points = 2
movement = 2
"""

#: both empires buy no initiative dice; blue ends its turn if it has the first; red-b moves
MOVES = [
    {"type": "buy_initiative", "player": "red", "count": 0},
    {"type": "buy_initiative", "player": "blue", "count": 0},
    {"type": "move_army", "player": "red", "army": "red-b", "to": "1,1"},
]

#: every card type of ``helpers.CARDS``, in its order
ALL_CARDS = [
    "captain",
    "guide",
    "runner",
    "trooper",
    "scout",
    "ghost",
    "wagon",
    "keep",
    "camp",
    "depot",
    "dart",
]
#: the types red's hidden set-up uses (``helpers.EMPIRES``, ``BASES``, ``ARMIES``), in that order
RED_CARDS = ["captain", "guide", "trooper", "scout", "depot", "dart"]


def custom(garrison: str, defined: bool = True, public_setup: bool = False, extra: str = "") -> str:
    """The test scenario with ``garrison`` in blue's stronghold and ``glass-choristers`` in
    the catalogue if ``defined``; its set-up hidden unless ``public_setup``."""
    bases = BASES + f'garrison = ["{garrison}"]\n'  # blue-hq is the last base
    armies = ARMIES + (CHORISTERS if defined else "") + extra
    return toml(bases=bases, armies=armies, public_setup=public_setup)


#: blue's garrison holds a type of its own; a type red uses too, the catalogue defining
#: glass-choristers all the same (padded), or not at all
OWN, PADDED, SHARED = custom("glass-choristers"), custom("trooper"), custom("trooper", False)


def played(tmp: Path, name: str, text: str, version: str | None = None) -> Arbiter:
    """The game ``ni`` of ``text`` begun under ``version`` (default: this one) with the key
    ``KEY`` and auto dice, after ``MOVES``."""
    arb = begun(tmp / f"{name}-{version}", text, KEY, version, dice="auto")
    for command in MOVES:
        if command["player"] == "red" and arb.view("ni")["state"]["current"] == "blue":
            arb.play("ni", json.dumps({"type": "end_turn", "player": "blue"}))
        arb.play("ni", json.dumps(command))
    return arb


def ids(cards: list[dict[str, Any]]) -> list[str]:
    return [card["id"] for card in cards]


def test_red_reads_the_same_whether_blue_garrisons_a_type_of_its_own_or_one_red_uses(
    tmp_path: Path,
) -> None:
    own, padded, shared = (
        played(tmp_path, name, text)
        for name, text in (("own", OWN), ("padded", PADDED), ("shared", SHARED))
    )
    # the games differ, for the referee and for blue
    garrisons = [
        arb.view("ni")["state"]["armies"]["blue-hq-garrison"]["units"][0] for arb in (own, shared)
    ]
    assert garrisons[0].startswith("blue.glass-choristers.")
    assert garrisons[1].startswith("blue.trooper.")
    assert reads(own, "blue") != reads(shared, "blue")
    # red-b has moved in each
    assert all(arb.view("ni")["state"]["armies"]["red-b"]["at"] == "1,1" for arb in (own, shared))
    # and nothing red is given does
    assert red_outputs(own) == red_outputs(padded) == red_outputs(shared)
    assert "glass-choristers" not in reads(own, "red")


def test_a_game_of_version_17_shows_red_the_type_only_blue_uses(tmp_path: Path) -> None:
    """The leak AE-64 closes, kept in the games begun under version 17: the catalogue is in the
    clear, and glass-choristers, which neither red nor a base uses, is blue's."""
    own, shared = played(tmp_path, "own", OWN, "17"), played(tmp_path, "shared", SHARED, "17")
    assert (
        red_outputs(own)["its feed of game_created"]
        != (red_outputs(shared)["its feed of game_created"])
    )
    assert ids(created_as(own, "red")["scenario"]["cards"]) == [*ALL_CARDS, "glass-choristers"]


def test_each_empire_receives_its_own_card_types_opened_and_the_public_ones_in_the_clear(
    tmp_path: Path,
) -> None:
    arb = played(tmp_path, "own", OWN)
    exported = created_as(arb, None)["scenario"]
    assert ids(exported["cards"]) == ["keep", "camp"]  # the bases' cards
    assert [e["cards"].keys() for e in exported["empires"]] == [{"sealed"}, {"sealed"}]
    for player, own, other in (("red", 0, 1), ("blue", 1, 0)):
        empires = created_as(arb, player)["scenario"]["empires"]
        assert empires[own]["cards"].keys() == {"sealed", "value", "salt"}
        assert empires[other]["cards"].keys() == {"sealed"}
    red = created_as(arb, "red")["scenario"]["empires"][0]["cards"]["value"]
    assert ids(red) == RED_CARDS
    blue = created_as(arb, "blue")["scenario"]["empires"][1]["cards"]["value"]
    assert ids(blue) == ["trooper", "glass-choristers"]
    assert blue[1]["name"] == "Glass Choristers"  # the whole card, its stats and abilities


def test_an_empire_whose_hidden_set_up_uses_only_public_types_has_its_empty_list_sealed(
    tmp_path: Path,
) -> None:
    """Blue's deck holds a camp, the type of red's outpost: public, so not listed again."""
    text = toml(
        empires=EMPIRES.split('hand = ["trooper"]')[0] + 'deck = ["camp"]\n',
        armies=ARMIES.split('[[armies]]\nid = "blue-a"')[0],
        public_setup=False,
    )
    arb = begun(tmp_path / "empty", text, KEY, dice="auto")
    blue = created_as(arb, "blue")["scenario"]["empires"][1]["cards"]
    assert blue.keys() == {"sealed", "value", "salt"} and blue["value"] == []
    assert created_as(arb, "red")["scenario"]["empires"][1]["cards"].keys() == {"sealed"}


def test_a_custom_game_of_version_18_revealed_audits_clean_round_trips_and_forks(
    tmp_path: Path,
) -> None:
    db, path, export = tmp_path / "w.db", tmp_path / "custom.toml", tmp_path / "v18.jsonl"
    path.write_text(OWN, encoding="utf-8")
    cli_ok(db, "new", "armageddon-empires", "--scenario", str(path), "--game", "v18")
    for command in MOVES:
        now = json.loads(cli_ok(db, "state", "v18", "--json"))["state"]["current"]
        if command["player"] == "red" and now == "blue":
            cli_ok(db, "play", "v18", json.dumps({"type": "end_turn", "player": "blue"}))
        cli_ok(db, "play", "v18", json.dumps(command))
    rows = revealed_clean(db, "v18", export)
    empires = rows[0]["data"]["scenario"]["empires"]
    assert [ids(e["cards"]["value"]) for e in empires] == [
        RED_CARDS,
        ["trooper", "glass-choristers"],
    ]  # opened by the reveal
    # the log imports into another database as the same game, and a fork plays on
    verified_and_imported(db, "v18", export)
    at = [r["seq"] for r in rows if r["type"] == "command_issued"][-1] - 1  # before the move
    cli_ok(db, "fork", "v18", "--at", str(at), "--game", "f18")
    cli_ok(db, "play", "f18", json.dumps(MOVES[-1]))
    assert "no findings" in cli_ok(db, "audit", "f18")


#: glass-choristers listed before the types it shares with red: blue's list puts it first
CHORISTERS_FIRST = custom("glass-choristers", defined=False).replace(
    "\n[map]", CHORISTERS + "\n[map]", 1
)


def test_a_type_both_empires_use_hiddenly_is_listed_under_both_and_plays(
    tmp_path: Path,
) -> None:
    text = CHORISTERS_FIRST + army_block("blue-b", "blue", "6,4", units=("trooper",))
    arb = played(tmp_path, "first", text)
    red = created_as(arb, "red")["scenario"]["empires"][0]["cards"]["value"]
    blue = created_as(arb, "blue")["scenario"]["empires"][1]["cards"]["value"]
    assert ids(blue) == ["glass-choristers", "trooper"]  # the file's order
    assert [c for c in red if c["id"] == "trooper"] == [c for c in blue if c["id"] == "trooper"]
    # each empire reads it back: its troopers in play, the type in its view's catalogue
    for player in ("red", "blue"):
        view = arb.view("ni", None, player)["state"]
        assert view["catalogue"]["trooper"]["spec"]["hit_points"] == 2
        assert any(c.startswith(f"{player}.trooper.") for c in view["instances"])
    # the scenario read back records again as it was, and the revealed game audits clean
    scenario = parse_scenario(text)
    recorded = RULESET.recorded_scenario(scenario)
    assert RULESET.recorded_scenario(RULESET.scenario_from_builtins(recorded)) == recorded
    arb.reveal("ni")
    assert audit_records(arb.export_records("ni", opened=True), rulesets.get).findings == []


def test_a_type_listed_under_both_empires_must_be_the_same_card() -> None:
    recorded = json.loads(json.dumps(RULESET.recorded_scenario(parse_scenario(SHARED))))
    blue = recorded["empires"][1]["cards"]
    assert ids(blue) == ["trooper"]
    blue[0]["hit_points"] = 3
    with pytest.raises(InputError) as info:
        RULESET.scenario_from_builtins(recorded)
    assert "$.empires[1].cards[0]: card 'trooper' differs from $.empires[0].cards[2]'s" in str(
        info.value
    )


def test_a_public_set_up_keeps_the_whole_catalogue_in_the_clear(tmp_path: Path) -> None:
    text = custom("glass-choristers", public_setup=True)
    arb = played(tmp_path, "public", text)
    scenario = created_as(arb, "red")["scenario"]
    assert ids(scenario["cards"]) == [*ALL_CARDS, "glass-choristers"]
    assert all("cards" not in e for e in scenario["empires"])
    recorded = RULESET.recorded_scenario(parse_scenario(text))
    older = RULESET.at_version("17")
    assert older is not None
    # since version 23 the independent minefields are listed apart, none here (AE-67)
    assert recorded.pop("independent") == {"minefields": []}
    assert recorded == older.recorded_scenario(parse_scenario(text))


def test_version_17_keeps_the_catalogue_in_the_clear_and_mined_from_it(tmp_path: Path) -> None:
    older = RULESET.at_version("17")
    assert older is not None
    scenario = parse_scenario(OWN)
    recorded = older.recorded_scenario(scenario)
    assert ids(recorded["cards"]) == [*ALL_CARDS, "glass-choristers"]
    assert all("cards" not in e for e in recorded["empires"])
    assert older.scenario_from_builtins(recorded) == scenario
    assert ("empires.0.cards", "red") not in older.hidden_setup(scenario)
    assert not older.initial_state(scenario).mined
    assert older.initial_state(parse_scenario(custom("trooper", extra=MINE_CARDS))).mined


def minefield_events(arb: Arbiter) -> list[str]:
    """The types of the events of red-b's move that check for minefields."""
    records = list(arb.export_records("ni"))
    last = max(i for i, r in enumerate(records) if r.type == "command_issued")
    return [r.type for r in records[last:] if r.type.startswith("minefields_")]


@pytest.mark.parametrize(
    ("text", "version", "checked"),
    [
        # since version 23 a second report follows, of no empire (AE-67)
        (SHARED, None, ["minefields_checked", "minefields_reported", "minefields_reported"]),
        (SHARED, "22", ["minefields_checked", "minefields_reported"]),
        (custom("trooper", False, public_setup=True), None, []),
        (SHARED, "17", []),
    ],
    ids=["hidden", "version-22", "public", "version-17"],
)
def test_a_hidden_set_up_s_every_move_is_checked_for_minefields_since_version_18(
    tmp_path: Path, text: str, version: str | None, checked: list[str]
) -> None:
    """Given a scenario without any minefield card, when red-b moves, then since version 18 a
    game whose set-up is hidden checks the move for minefields all the same (AE-64), so that
    the first move does not tell whether a minefield type is in the other empire's set-up."""
    arb = played(tmp_path, "mined", text, version)
    assert minefield_events(arb) == checked
    assert arb.view("ni")["state"]["mined"] == bool(checked)


def test_an_empire_s_view_lists_the_catalogue_by_id(tmp_path: Path) -> None:
    """The catalogue stands in the order its recorded lists merge (the public types, then
    red's, then blue's others, each before the next type of its list already merged), which
    hangs on the other empire's sealed list: an empire's view lists it by id, in every
    version."""
    for version in (None, "17"):
        arb = played(tmp_path, "sorted", OWN, version)
        for player in ("red", "blue"):
            listed = list(arb.view("ni", None, player)["state"]["catalogue"])
            assert listed == sorted(listed) and "keep" in listed


def test_a_catalogue_type_moved_into_the_clear_is_not_the_canonical_form(
    tmp_path: Path,
) -> None:
    """A log whose game_created shows one of blue's types at the top level reads as the same
    game, and the audit names it."""

    def show_blue_s_last_type(scenario: dict[str, Any]) -> None:
        scenario["cards"].append(scenario["empires"][1]["cards"]["value"].pop())

    findings = forged_audit(tmp_path, "", show_blue_s_last_type)
    assert "the recorded scenario is not in its canonical form" in findings


def test_a_base_s_facility_type_is_in_the_clear_and_not_under_an_empire(tmp_path: Path) -> None:
    """Given blue's stronghold holding a depot, a type red's hand holds too, when the game is
    created, then the depot is listed in the clear with the bases' cards (bases are public,
    AE-17), and not again under red."""
    text = toml(bases=BASES + 'facilities = ["depot"]\n', armies=ARMIES, public_setup=False)
    arb = begun(tmp_path / "facility", text, KEY, dice="auto")
    assert ids(created_as(arb, None)["scenario"]["cards"]) == ["keep", "camp", "depot"]
    red = created_as(arb, "red")["scenario"]["empires"][0]["cards"]["value"]
    assert ids(red) == [c for c in RED_CARDS if c != "depot"]


@pytest.mark.parametrize(("version", "split"), [("17", False), ("18", True)])
def test_version_18_is_the_first_to_record_a_hidden_set_up_s_card_types_under_each_empire(
    version: str, split: bool
) -> None:
    """AE-64's gate: given blue garrisoning a type of its own, when a game of version 17 or 18
    records the scenario, then version 18, and not 17, keeps only the public types at the top
    level and blue's under blue."""
    recorded = RULESET.at_version(version).recorded_scenario(parse_scenario(OWN))  # type: ignore[union-attr]
    top = ids(recorded["cards"])
    assert ("glass-choristers" not in top) == split
    blue = recorded["empires"][1]
    assert ids(blue.get("cards", [])) == (["trooper", "glass-choristers"] if split else [])


#: two facility types only blue's bases use: a facility of blue-hq and an outpost's card
BLUE_BASE_CARDS = """
[[cards]]
kind = "facility"
id = "tower"
name = "Test Tower"
defense = 1
structure = 2

[[cards]]
kind = "facility"
id = "watch"
name = "Test Watch"
defense = 1
structure = 2
"""


def test_an_empire_has_seen_every_base_s_cards_and_its_own_minefields_from_the_start() -> None:
    """AE-7, AE-17: given blue's bases on types red uses nowhere and red's minefield, when the
    game opens, then red has seen blue's base card and facility (bases are public) and its own
    minefield's card, and blue has not seen red's camouflaged minefield's card."""
    bases = BASES + 'facilities = ["tower"]\n'  # blue-hq is the last base
    bases += base_block("blue-watch", "blue", "5,5", "watch", "outpost")
    armies = ARMIES + MINE_CARDS + BLUE_BASE_CARDS + minefield("red-mines", "red", "1,3")
    state = RULESET.initial_state(parse_scenario(toml(bases=bases, armies=armies)))
    assert {"tower", "watch", "mines"} <= set(state.empires["red"].seen)
    assert "mines" not in state.empires["blue"].seen
