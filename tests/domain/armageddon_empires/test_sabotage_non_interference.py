"""A sabotage tells the base's empire nothing of what the saboteur's empire holds beyond what the
rules show it (AE-72; version 27): the saboteur card, the facility and the outcome.

Twin games on one key and clock: red's Mole (Saboteur 3) and a trooper walk into blue's
stronghold and lay siege; the Mole sabotages. The twins differ in red's hand (sealed for blue)
and in the faces of the hidden pick, which pick the same facility. Blue's outputs are compared as
the other non-interference tests compare them (``outputs_of``: every seal and digest blinded)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.domain.armageddon_empires.arena import toml
from tests.domain.armageddon_empires.helpers import army_block, begun
from tests.domain.armageddon_empires.test_hidden_setup import outputs_of
from tests.domain.armageddon_empires.test_non_interference import KEY
from tests.domain.armageddon_empires.test_sabotage import AGENTS, BASES, MOLE
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.domain import rulesets

ARMIES = army_block("red-op", "red", "5,3", hero="mole", units=("trooper",))


def empires(hand: str) -> str:
    return f"""
[[empires]]
id = "red"
name = "Red"
resources = {{ humans = 9, materials = 9, energy = 5 }}
hand = {hand}

[[empires]]
id = "blue"
name = "Blue"
resources = {{ humans = 9, materials = 9, energy = 5 }}
hand = ["t-fate"]
"""


def sabotaged(tmp: Path, name: str, hand: str, pick: list[int]) -> Arbiter:
    """The game after red's sabotage of blue's keep (its pick ``pick``), both sides accepting."""
    text = toml(ARMIES, bases=BASES, empires=AGENTS + empires(hand))
    arb = begun(tmp / name, text, KEY)
    commands: list[dict[str, Any]] = [
        {"type": "buy_initiative", "player": "red", "count": 0},
        {"type": "buy_initiative", "player": "blue", "count": 0, "dice": [6, 1]},
        {"type": "move_army", "player": "red", "army": "red-op", "to": "6,3"},
        {"type": "engage", "player": "red", "choice": "siege"},
        {"type": "sabotage", "player": "red", "saboteur": MOLE, "dice": pick},
        {"type": "roll", "player": "red", "dice": [6, 6, 6, 1, 1, 1, 1, 1]},
        {"type": "accept_challenge", "player": "blue"},
        {"type": "accept_challenge", "player": "red"},
    ]
    for command in commands:
        arb.play("ni", json.dumps(command))
    assert "sabotage_ended" in [r.type for r in arb.records_as("ni", "blue")]
    return arb


def test_blue_is_told_the_same_whatever_red_holds_and_whatever_the_pick_s_faces(
    tmp_path: Path,
) -> None:
    # given two games that differ in red's hand and in the faces of the hidden pick, which
    # pick the same facility (0 and 2, modulo 2 facilities)
    one = sabotaged(tmp_path, "one", '["t-dice"]', [1, 1, 1])
    two = sabotaged(tmp_path, "two", '["kite"]', [1, 1, 3])
    # then they differ for red, and every output blue is given is the same
    assert outputs_of(one, "red") != outputs_of(two, "red")
    assert outputs_of(one, "blue") == outputs_of(two, "blue")
    # and blue reads the command's fields and the pick's faces sealed
    feed = [(r.type, json.loads(r.data)) for r in one.records_as("ni", "blue")]
    command = next(
        d["command"]
        for t, d in feed
        if t == "command_issued" and d["command"]["type"] == "sabotage"
    )
    assert command["saboteur"].keys() == command["target"].keys() == {"sealed"}
    pick = next(d for t, d in feed if t == "dice_rolled" and d["purpose"] == "sabotage target")
    assert pick["faces"].keys() == {"sealed"}


def test_a_sabotage_audits_clean_every_seal_opened(tmp_path: Path) -> None:
    arb = sabotaged(tmp_path, "audit", '["t-dice"]', [1, 1, 1])
    report = audit_records(arb.export_records("ni", opened=True), rulesets.get)
    assert report.findings == []
    assert report.proved.batches_rederived > 0 and not report.proved.rules_stopped_at
