"""A foiled hunt tells the hunted empire nothing of what the hunter saw (AE-21, AE-38; version
24): the same events, of the same shapes, whichever army hunts, however many lone heroes it saw
there, and whether it named its target (which only a Bounty Hunter may do).

Twin games on one key and clock: red's stealthed hunters, red-a beside one of blue's heroes
alone and red-b beside two (red-b holds a Bounty Hunter), sight them as they come; then blue,
unseen, stealths all three, and red hunts with one army or the other, foiled in every twin.
Blue's outputs are compared as the other non-interference tests compare them (``outputs_of``:
every seal and digest blinded)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.domain.armageddon_empires.arena import EMPIRES, toml
from tests.domain.armageddon_empires.helpers import PICK, army_block, begun
from tests.domain.armageddon_empires.test_hidden_setup import outputs_of
from tests.domain.armageddon_empires.test_non_interference import KEY
from tests.forger import forge
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.exchange import export_line
from warlog.arbiter.sources import file_records
from warlog.domain import rulesets
from warlog.domain.armageddon_empires.targets import TARGET_DICE, TARGET_SIDES

#: a unit that may stand in a stealthed army and lets its army name the target (p.30)
SNEAK = """
[[cards]]
kind = "unit"
id = "sneak"
name = "Test Sneak"
attack = 1
defense = 2
hit_points = 2
movement = 3
abilities = ["Stealth 4", "Bounty Hunter 2"]
"""

#: red's stealthed hunters at 1,1 and 4,2, each with a Recce beside it (red-d, red-c, one hex
#: away); blue's three shades (Stealth 5), each alone, one hex from the hunters and out of
#: every Recce's range
ARMIES = (
    army_block("red-a", "red", "1,1", units=("wisp",))
    + "stealthed = true\n"
    + army_block("red-b", "red", "4,2", units=("wisp", "sneak"))
    + "stealthed = true\n"
    + army_block("red-c", "red", "5,2", units=("trooper", "eye"))
    + army_block("red-d", "red", "1,0", units=("trooper", "eye"))
    + army_block("blue-s1", "blue", "1,2", hero="shade")
    + army_block("blue-s2", "blue", "3,3", hero="shade")
    + army_block("blue-s3", "blue", "3,3", hero="shade")
)

#: red's check of a shade where it stops beside a Recce: 5 − range 1 = 4 dice, all successes,
#: against the 3 dice of a hero alone, all failures (R7)
SEEN = [6, 6, 6, 6, 1, 1, 1]

#: blue goes first (no dice bought: the tie-break, red 1 against blue 6); no Recce reaches an
#: enemy army, so the round's checks roll nothing
OPENING: list[dict[str, Any]] = [
    {"type": "buy_initiative", "player": "red", "count": 0},
    {"type": "buy_initiative", "player": "blue", "count": 0, "dice": [1, 6]},
    {"type": "move_army", "player": "blue", "army": "blue-s1", "to": "1,1", "dice": SEEN},
    {"type": "move_army", "player": "blue", "army": "blue-s2", "to": "4,2", "dice": SEEN},
    {"type": "move_army", "player": "blue", "army": "blue-s3", "to": "4,2", "dice": SEEN},
    *(
        {"type": "engage_stealth", "player": "blue", "army": army}
        for army in ("blue-s1", "blue-s2", "blue-s3")
    ),
    {"type": "end_turn", "player": "blue"},
]


def hunted(tmp: Path, name: str, hunt: dict[str, Any], version: str | None = None) -> Arbiter:
    """The game after red's ``hunt`` (its ``target`` "s3": blue-s3's hero), in a game begun under
    ``version`` (default: this one's); the hunt's batch begins at seq ``HUNT_SEQ``."""
    text = toml(ARMIES, empires=SNEAK + EMPIRES)  # the card among the arena's, before its empires
    arb = begun(tmp / f"{name}-{version}", text, KEY, version)
    for command in OPENING:
        arb.play("ni", json.dumps(command))
    red = arb.view("ni", player="red")["state"]
    assert {a: red["armies"][a]["at"] for a in ("blue-s1", "blue-s2", "blue-s3")} == {
        "blue-s1": "1,1",
        "blue-s2": "4,2",
        "blue-s3": "4,2",
    }  # red saw them come; it has not seen them stealth
    if hunt.get("target") == "s3":
        hunt = {**hunt, "target": arb.state("ni").armies["blue-s3"].hero}
    assert arb.head("ni")[0] == HUNT_SEQ - 1
    arb.play("ni", json.dumps(hunt))
    assert "hunt_foiled" in [r.type for r in arb.records_as("ni", "red")]
    return arb


#: the seq of the hunt's ``command_issued``
HUNT_SEQ = 51

RED_A = {"type": "hunt_hero", "player": "red", "army": "red-a"}
RED_B = {"type": "hunt_hero", "player": "red", "army": "red-b"}
NAMED = {**RED_B, "target": "s3"}


def test_blue_is_told_the_same_whichever_army_hunts_and_whether_it_names_its_target(
    tmp_path: Path,
) -> None:
    """Given red's foiled hunt with red-a (one hero seen alone in its hex), with red-b (two), or
    with red-b naming blue-s3's hero (its Bounty Hunter), then every output blue is given is the
    same: since version 24 each hunt rolls a hidden pick, 3 d210, and records its ``target``
    sealed, named or not (AE-21, AE-38); since version 27 the pick is the referee's."""
    one = hunted(tmp_path, "a", {**RED_A, "dice": PICK})
    two = hunted(tmp_path, "b", {**RED_B, "dice": PICK})
    named = hunted(tmp_path, "named", {**NAMED, "dice": PICK})
    assert outputs_of(one, "blue") == outputs_of(two, "blue") == outputs_of(named, "blue")
    as_blue = [(r.type, json.loads(r.data)) for r in two.records_as("ni", "blue", HUNT_SEQ)]
    assert [t for t, _ in as_blue] == ["command_issued", "dice_rolled", "hunt_foiled"]
    command, pick = as_blue[0][1]["command"], as_blue[1][1]
    assert command["target"].keys() == command["army"].keys() == {"sealed"}
    assert pick["faces"].keys() == {"sealed"}
    assert (pick["sides"], pick["hidden"]) == (TARGET_SIDES, True)
    assert "roller" not in pick  # the referee's: no roller is recorded
    # red, the hunter, reads the referee's pick no more than blue does (AE-21, version 27)
    (mine,) = two.records_as("ni", "red", HUNT_SEQ + 1, HUNT_SEQ + 1)
    assert json.loads(mine.data)["faces"].keys() == {"sealed"}


def test_under_version_26_the_hunter_reads_its_own_pick_sealed_for_blue(tmp_path: Path) -> None:
    # given red's hunt with red-b among two heroes in a game begun under version 26
    arb = hunted(tmp_path, "b", {**RED_B, "dice": PICK}, "26")
    # then the pick is red's hidden roll: blue reads it sealed, red its faces (AE-21)
    (theirs,) = arb.records_as("ni", "blue", HUNT_SEQ + 1, HUNT_SEQ + 1)
    (mine,) = arb.records_as("ni", "red", HUNT_SEQ + 1, HUNT_SEQ + 1)
    assert json.loads(theirs.data)["roller"] == "red"
    assert json.loads(theirs.data)["faces"].keys() == {"sealed"}
    assert json.loads(mine.data)["faces"]["value"] == [1] * TARGET_DICE


def test_version_23_tells_blue_how_many_heroes_the_hunter_saw_and_that_it_named_one(
    tmp_path: Path,
) -> None:
    """The leaks version 24 closed, kept in the games begun under 23: a hunt among two heroes
    rolls a public d2 that one among one does not roll, and a named target's hunt keeps a
    ``target`` key that a random one leaves out."""
    one = hunted(tmp_path, "a", RED_A, "23")
    two = hunted(tmp_path, "b", {**RED_B, "dice": [1]}, "23")
    named = hunted(tmp_path, "named", NAMED, "23")
    feeds = {
        name: [(r.type, json.loads(r.data)) for r in arb.records_as("ni", "blue", HUNT_SEQ)]
        for name, arb in (("one", one), ("two", two), ("named", named))
    }
    assert outputs_of(one, "blue") != outputs_of(two, "blue")
    assert outputs_of(two, "blue") != outputs_of(named, "blue")
    kinds = {name: [kind for kind, _ in feed] for name, feed in feeds.items()}
    assert kinds["one"] == kinds["named"] == ["command_issued", "hunt_foiled"]
    assert feeds["two"][1] == (
        "dice_rolled",
        {"sides": 2, "faces": [1], "purpose": "capture kill target", "roller": "red"},
    )
    assert "target" not in feeds["two"][0][1]["command"]
    assert feeds["named"][0][1]["command"]["target"].keys() == {"sealed"}


@pytest.mark.parametrize("hunt", [RED_B, NAMED])
def test_a_hunt_of_version_24_audits_clean_every_seal_opened(
    tmp_path: Path, hunt: dict[str, Any]
) -> None:
    # the target recorded at its default (null) is the arbiter's form, its seal where the rules
    # put it, and the hidden pick's faces re-derive
    arb = hunted(tmp_path, "audit", {**hunt, "dice": PICK})
    report = audit_records(arb.export_records("ni", opened=True), rulesets.get)
    assert report.findings == []
    assert report.proved.batches_rederived > 0 and not report.proved.rules_stopped_at


def test_a_hunt_of_version_24_recorded_without_its_target_is_not_the_arbiters_form(
    tmp_path: Path,
) -> None:
    # given red's random hunt under version 24, its export opened, forged by a careful forger
    # into the form version 23 recorded (no `target` key: the form that told blue no Bounty
    # Hunter was named), every seal and the chain recomputed
    arb = hunted(tmp_path, "forged", {**RED_B, "dice": PICK})
    source = tmp_path / "hunt.jsonl"
    source.write_text("".join(export_line(r) + "\n" for r in arb.export_records("ni", opened=True)))

    def drop_target(events: list[dict[str, Any]]) -> None:
        del events[HUNT_SEQ - 1]["data"]["command"]["target"]

    forged = forge(source, tmp_path / "forged.jsonl", drop_target)
    # when it is audited, then the hunt's command is found not in the form the arbiter records
    report = audit_records(file_records(str(forged)), rulesets.get)
    assert [(f.seq, f.check) for f in report.findings] == [(HUNT_SEQ, "rules")]
    assert report.findings[0].message == (
        "the recorded command is not in the form the arbiter records"
    )
