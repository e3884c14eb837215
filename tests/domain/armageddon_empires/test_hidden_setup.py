"""The hidden set-up of a custom scenario (AE-61, since version 15): ``game_created``, which every
player holds, tells neither empire how many armies and minefields the other starts with. Each
empire's armies and its minefields are two lists under it in the recorded scenario, each sealed
whole for it, empty or not; before version 15 each entry had a seal of its own at the top level,
and the other empire counted them.

Non-interference: two games whose scenarios differ only in blue's armies and minefields far from
red (one army and no minefield, or three armies and two minefields), begun with the same key and
played with the same commands, give red byte-identical answers: its feed of ``game_created``
(its own values opened), the chained row as the export holds it, its view as ``warlog state --as
red --json`` prints it, and every read of ``test_non_interference.reads`` through the first
round's initiative and observation. The digests of blue's seals differ, and so do the chain
hashes over them: each commits to blue's secret under the game's key and tells nothing without
it (docs/log-format.md), so the comparison blinds every 64-hex digest, as the fuzzer's does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.command import succeeded as cli_ok
from tests.domain.armageddon_empires.helpers import (
    ARMIES,
    army_block,
    begun,
    revealed_clean,
    toml,
    verified_and_imported,
)
from tests.domain.armageddon_empires.test_minefields import MINE_CARDS, minefield
from tests.domain.armageddon_empires.test_non_interference import KEY, reads
from tests.forger import forge
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.exchange import export_line
from warlog.arbiter.sources import file_records
from warlog.cli import render
from warlog.domain import rulesets
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.scenario_checks import parse_scenario
from warlog.domain.core.errors import InputError
from warlog.fuzz.noninterference import blinded

#: red's camouflaged minefield, beside its two armies (``helpers.ARMIES``: red-a, red-b, blue-a)
RED_MINES = minefield("red-mines", "red", "1,3")

#: blue's extra set-up, far from red: nothing, or two more armies and two minefields
FEW = ""
MANY = (
    army_block("blue-b", "blue", "6,4", units=("trooper",))
    + army_block("blue-c", "blue", "7,4", units=("trooper", "trooper"))
    + minefield("blue-m1", "blue", "5,5")
    + minefield("blue-m2", "blue", "7,3", damage=1)
)


def text(blue: str) -> str:
    """A custom scenario: its set-up not declared public (since version 16 its hidden cards are
    numbered at random, AE-62)."""
    return toml(armies=MINE_CARDS + ARMIES + RED_MINES + blue, public_setup=False)


def played(tmp: Path, blue: str, version: str | None = None) -> Arbiter:
    """The game of red's set-up and ``blue``'s, begun under ``version`` (default: this one)
    with the key ``KEY`` and dice that derive from it; both empires buy no initiative dice, and
    the round's first observation rolls."""
    folder = tmp / f"{len(blue)}-{version}"
    arb = begun(folder, text(blue), KEY, version, dice="auto")
    for command in [
        {"type": "buy_initiative", "player": "red", "count": 0},
        {"type": "buy_initiative", "player": "blue", "count": 0},
    ]:
        arb.play("ni", json.dumps(command))
    return arb


def created_as(arb: Arbiter, player: str | None) -> dict[str, Any]:
    """``game_created``'s data as ``player``'s feed gives it (None: the export's chained row)."""
    records = arb.records_as("ni", player, 1, 1) if player else arb.export_records("ni")
    data: dict[str, Any] = json.loads(next(iter(records)).data)
    return data


def outputs_of(arb: Arbiter, player: str) -> dict[str, str]:
    """What ``player`` is given, each as the text it is handed, every 64-hex digest blinded."""
    feed = next(iter(arb.records_as("ni", player, 1, 1)))
    row = next(iter(arb.export_records("ni")))
    state = json.dumps(render.builtins(arb.view("ni", None, player)), ensure_ascii=False)
    return {
        "its feed of game_created": blinded(json.loads(export_line(feed))),
        "the exported game_created row": blinded(json.loads(export_line(row))),
        f"state --as {player} --json": blinded(json.loads(state)),
        "every read": blinded(json.loads(reads(arb, player))),
    }


def red_outputs(arb: Arbiter) -> dict[str, str]:
    """What red is given (``outputs_of``)."""
    return outputs_of(arb, "red")


def test_red_reads_the_same_however_many_armies_and_minefields_blue_starts_with(
    tmp_path: Path,
) -> None:
    few, many = played(tmp_path, FEW), played(tmp_path, MANY)
    # the games differ, for the referee and for blue
    referee = [arb.view("ni")["state"] for arb in (few, many)]
    assert [len(s["armies"]) - len(s["bases"]) for s in referee] == [3, 5]
    assert [len(s["minefields"]) for s in referee] == [1, 3]
    assert reads(few, "blue") != reads(many, "blue")
    # and nothing red is given does
    assert red_outputs(few) == red_outputs(many)
    # the export holds two seals per empire, whatever they hold, and no list at the top level
    for arb in (few, many):
        scenario = created_as(arb, None)["scenario"]
        assert "armies" not in scenario and "minefields" not in scenario
        for empire in scenario["empires"]:
            assert empire["armies"].keys() == empire["minefields"].keys() == {"sealed"}


def test_a_game_of_version_14_shows_red_a_seal_for_each_army_and_minefield_of_blue(
    tmp_path: Path,
) -> None:
    """The leak AE-61 closes, kept in the games begun under version 14: the same two games
    differ in red's feed of ``game_created`` by the number of blue's seals."""
    few, many = played(tmp_path, FEW, "14"), played(tmp_path, MANY, "14")
    assert (
        red_outputs(few)["its feed of game_created"]
        != (red_outputs(many)["its feed of game_created"])
    )
    counted = []
    for arb in (few, many):
        scenario = created_as(arb, "red")["scenario"]
        closed = [e for e in scenario["armies"] + scenario["minefields"] if e.keys() == {"sealed"}]
        counted.append((len(scenario["armies"]), len(scenario["minefields"]), len(closed)))
    # red's two armies and its minefield opened; blue's one army, or three and two minefields
    assert counted == [(3, 1, 1), (5, 3, 5)]


def test_each_empire_receives_its_own_armies_and_minefields_opened(tmp_path: Path) -> None:
    arb = played(tmp_path, MANY)
    for player, own, other in (("red", 0, 1), ("blue", 1, 0)):
        empires = created_as(arb, player)["scenario"]["empires"]
        assert empires[own]["armies"].keys() == {"sealed", "value", "salt"}
        assert empires[other]["armies"].keys() == empires[other]["minefields"].keys() == {"sealed"}
    red = created_as(arb, "red")["scenario"]["empires"][0]
    assert [a["id"] for a in red["armies"]["value"]] == ["red-a", "red-b"]
    assert [m["id"] for m in red["minefields"]["value"]] == ["red-mines"]
    blue = created_as(arb, "blue")["scenario"]["empires"][1]
    assert [a["id"] for a in blue["armies"]["value"]] == ["blue-a", "blue-b", "blue-c"]
    assert [(m["id"], m["damage"]) for m in blue["minefields"]["value"]] == [
        ("blue-m1", 0),
        ("blue-m2", 1),
    ]
    few = created_as(played(tmp_path, FEW), "blue")["scenario"]["empires"][1]
    assert few["minefields"]["value"] == []  # sealed all the same


def test_a_game_of_version_15_on_revealed_audits_clean_and_the_stand_alone_verifier_passes_it(
    tmp_path: Path,
) -> None:
    db, path, export = tmp_path / "w.db", tmp_path / "custom.toml", tmp_path / "v15.jsonl"
    path.write_text(text(MANY), encoding="utf-8")
    cli_ok(db, "new", "armageddon-empires", "--scenario", str(path), "--game", "v15")
    for command in [
        {"type": "buy_initiative", "player": "red", "count": 1},
        {"type": "buy_initiative", "player": "blue", "count": 0},
    ]:
        cli_ok(db, "play", "v15", json.dumps(command))
    first = revealed_clean(db, "v15", export)[0]["data"]["scenario"]["empires"]
    assert [len(e["armies"]["value"]) for e in first] == [2, 3]
    verified_and_imported(db, "v15", export)


def forged_audit(tmp_path: Path, blue: str, edit: Any) -> list[str]:
    """The findings of the audit of a revealed version-15 game of ``blue``'s set-up whose
    ``game_created`` scenario a careful forger edited (every opened seal and the chain
    recomputed)."""
    arb = played(tmp_path, blue)
    arb.reveal("ni")
    source = tmp_path / "game.jsonl"
    source.write_text("".join(export_line(r) + "\n" for r in arb.export_records("ni")))

    def edit_scenario(events: list[dict[str, Any]]) -> None:
        edit(events[0]["data"]["scenario"])

    forged = forge(source, tmp_path / "forged.jsonl", edit_scenario)
    return [f.message for f in audit_records(file_records(str(forged)), rulesets.get).findings]


def test_a_scenario_recorded_without_an_empire_s_empty_list_is_not_in_its_canonical_form(
    tmp_path: Path,
) -> None:
    """Each empire's lists are always there, so that their number tells nothing: a log that
    leaves out blue's empty list of minefields reads as the same game, and the audit names it."""

    def drop_blue_minefields(scenario: dict[str, Any]) -> None:
        assert scenario["empires"][1].pop("minefields")["value"] == []

    findings = forged_audit(tmp_path, FEW, drop_blue_minefields)
    assert "the recorded scenario is not in its canonical form" in findings


def test_a_recorded_army_listed_under_the_other_empire_is_refused(tmp_path: Path) -> None:
    def move_blue_c_to_red(scenario: dict[str, Any]) -> None:
        red, blue = (e["armies"]["value"] for e in scenario["empires"])
        red.append(blue.pop())

    findings = forged_audit(tmp_path, MANY, move_blue_c_to_red)
    assert any(
        "$.empires[0].armies[2].empire: 'blue' listed under empire 'red'" in f for f in findings
    )


#: blue's army between red's two in the file, and a minefield of each empire
INTERLEAVED = toml(
    armies=MINE_CARDS
    + army_block("red-a", "red", "1,0", hero="captain", units=("trooper",))
    + army_block("blue-a", "blue", "6,5", units=("trooper",))
    + army_block("red-b", "red", "0,1", units=("trooper", "scout"))
    + minefield("blue-m1", "blue", "5,5")
    + RED_MINES
)


def test_a_scenario_recorded_by_empire_reads_back_with_every_card_numbered_as_before() -> None:
    """Cards are numbered per empire and card type (AE-14): grouping the armies by empire keeps
    each empire's order, so every army and minefield holds the same card ids in both forms."""
    scenario = parse_scenario(INTERLEAVED)
    old = RULESET.at_version("14")
    assert old is not None
    flat = old.scenario_from_builtins(old.recorded_scenario(scenario))
    nested = RULESET.scenario_from_builtins(RULESET.recorded_scenario(scenario))
    assert flat == scenario
    assert [a.id for a in nested.armies] == ["red-a", "red-b", "blue-a"]
    assert RULESET.recorded_scenario(nested) == RULESET.recorded_scenario(scenario)
    before, after = old.initial_state(flat), RULESET.initial_state(nested)
    assert after.instances == before.instances
    # the same cards in each army (since version 17 in the order of their ids, AE-63)
    assert {a.id: (a.hero, sorted(a.units)) for a in after.armies.values()} == {
        a.id: (a.hero, sorted(a.units)) for a in before.armies.values()
    }
    assert after.minefields == before.minefields
    assert before.armies["red-b"].units == ("red.trooper.3", "red.scout.1")
    assert after.armies["red-b"].units == ("red.scout.1", "red.trooper.3")


def test_a_scenario_without_minefields_reads_back_as_it_was_recorded_before() -> None:
    """``minefields`` stays unset in the typed scenario (as a file without any has it), so
    that the same scenario recorded in the form of version 14 keeps its canonical form."""
    scenario = parse_scenario(toml())
    nested = RULESET.scenario_from_builtins(RULESET.recorded_scenario(scenario))
    assert nested == scenario
    assert [e["minefields"] for e in RULESET.recorded_scenario(scenario)["empires"]] == [[], []]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s.update(armies=[]), "$.armies: listed under each empire"),
        (lambda s: s["empires"][1].update(minefields={}), "$.empires[1].minefields: not a list"),
        (
            lambda s: s["empires"].append("green"),
            "Expected `object`, got `str` - at `$.empires[2]`",
        ),
        # a catalogue by empire (AE-64) whose public list is no list, or holds no card
        (lambda s: (s["empires"][0].update(cards=[]), s.update(cards={})), "$.cards: not a list"),
        (
            lambda s: (s["empires"][0].update(cards=[]), s["cards"].append(7)),
            "Expected `object`, got `int` - at `$.cards[15]`",
        ),
    ],
)
def test_a_scenario_recorded_by_empire_refuses_a_list_out_of_place(edit: Any, message: str) -> None:
    recorded = RULESET.recorded_scenario(parse_scenario(INTERLEAVED))
    edit(recorded)
    with pytest.raises(InputError) as info:
        RULESET.scenario_from_builtins(recorded)
    assert message in str(info.value)


def test_a_log_of_a_version_this_warlog_does_not_play_is_not_held_to_version_15_s_form(
    tmp_path: Path,
) -> None:
    """Given a game recorded in the form of version 14 and before (armies and minefields at the
    top level), labelled as a version this warlog does not play (as a warlog before version 6
    wrote it), when it is audited, then the version is reported and its scenario is not said to
    be out of its canonical form: that form is not known here."""
    arb = played(tmp_path, MANY, "14")
    arb.reveal("ni")
    source = tmp_path / "game.jsonl"
    source.write_text("".join(export_line(r) + "\n" for r in arb.export_records("ni")))

    def as_version_5(events: list[dict[str, Any]]) -> None:
        events[0]["data"]["version"] = "5"

    forged = forge(source, tmp_path / "v5.jsonl", as_version_5)
    findings = audit_records(file_records(str(forged)), rulesets.get).findings
    assert [(f.seq, f.check) for f in findings if f.check in ("version", "decode")] == [
        (1, "version")
    ]


@pytest.mark.parametrize(("version", "under"), [("14", False), ("15", True)])
def test_version_15_is_the_first_to_record_each_empire_s_armies_and_minefields_under_it(
    version: str, under: bool
) -> None:
    """AE-61's gate: given blue's many armies and minefields, when a game of version 14 or 15
    records the scenario, then version 15, and not 14, holds them under each empire (one seal
    each) and none at the top level."""
    recorded = RULESET.at_version(version).recorded_scenario(parse_scenario(text(MANY)))  # type: ignore[union-attr]
    assert ("armies" in recorded, "minefields" in recorded) == (not under, not under)
    for empire in recorded["empires"]:
        assert ("armies" in empire and "minefields" in empire) == under
