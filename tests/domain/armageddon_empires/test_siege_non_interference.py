"""A besieger's stealth does not show in the besieged empire's supply, refusals or reports (AE-35,
AE-56; version 24): an empire judges its base's siege by what it has seen there this round.

Twin games on one key and clock (manual dice): blue's two wisps walk into red's garrisoned
outpost red-camp, where red sees them by contact, and lay siege; then blue engages the stealth
of that army (``blue-w``) or of another far away (``blue-x``), sealed for red either way, and
ends its turn. Red's outputs are compared as the other non-interference tests compare them
(``outputs_of``: every seal and digest blinded), and so are the refusals of its orders that read
the siege."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.domain.armageddon_empires.arena import BASES, toml
from tests.domain.armageddon_empires.helpers import army_block, begun
from tests.domain.armageddon_empires.test_hidden_setup import outputs_of
from tests.domain.armageddon_empires.test_non_interference import KEY
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.domain import rulesets
from warlog.domain.core.errors import WarlogError

ARMIES = (
    army_block("red-a", "red", "0,0", units=("trooper",))
    + army_block("blue-w", "blue", "1,3", units=("wisp", "wisp"))
    + army_block("blue-x", "blue", "5,0", units=("wisp", "wisp"))
)
#: red's outpost red-camp (0,3) holds a garrison, and its card is damaged: red may repair it
#: unless the hex is besieged or disputed (p.34)
CAMP = BASES.replace(
    'card = "camp"\n', 'card = "camp"\ngarrison = ["trooper"]\ndamage = { camp = 1 }\n', 1
)


def besieged(tmp: Path, stealthed: str, version: str | None = None) -> Arbiter:
    """The twin in which blue's ``stealthed`` army engages stealth after blue-w's siege, once
    red's turn has begun, in a game begun under ``version`` (default: this one's)."""
    arb = begun(tmp / f"{stealthed}-{version}", toml(ARMIES, bases=CAMP), KEY, version)
    for command in [
        {"type": "buy_initiative", "player": "red", "count": 0},
        # blue first (the tie-break: red 1, blue 6); no Recce reaches an enemy, no check rolls
        {"type": "buy_initiative", "player": "blue", "count": 0, "dice": [1, 6]},
        # blue-w walks into the garrison it has not seen: red sees it by contact (AE-17)
        {"type": "move_army", "player": "blue", "army": "blue-w", "to": "0,3"},
        {"type": "engage", "player": "blue", "choice": "siege"},
        {"type": "engage_stealth", "player": "blue", "army": stealthed},
        {"type": "end_turn", "player": "blue"},
    ]:
        arb.play("ni", json.dumps(command))
    assert arb.view("ni", player="red")["state"]["armies"]["blue-w"]["at"] == "0,3"
    return arb


def refusals(arb: Arbiter) -> list[str]:
    """Red's orders that read the siege: repairing red-camp's card (refused in a disputed or
    besieged hex, p.34), each its refusal's line or "accepted" (then played)."""
    out = []
    for command in [{"type": "repair_card", "player": "red", "card": "red.camp.1"}]:
        try:
            arb.play("ni", json.dumps(command))
            out.append("accepted")
        except WarlogError as exc:
            out.append(exc.line())
    return out


def red_supply(arb: Arbiter) -> dict[str, Any]:
    """Red's last ``supply_traced`` as red's feed gives it."""
    traced = [
        json.loads(r.data)
        for r in arb.records_as("ni", "red")
        if r.type == "supply_traced" and json.loads(r.data)["empire"] == "red"
    ]
    return traced[-1]


def test_red_is_told_the_same_whether_or_not_its_besieger_engaged_stealth(tmp_path: Path) -> None:
    """Given blue-w's siege of red-camp, which red saw laid, when blue stealths blue-w or its
    other army, sealed for red, then every output red is given is the same, its supply and the
    refusal of its repair too: red-camp stays besieged for red, by the army it saw there, until
    the round ends (AE-35, AE-56)."""
    besieger, other = besieged(tmp_path, "blue-w"), besieged(tmp_path, "blue-x")
    assert besieger.state("ni").armies["blue-w"].stealthed
    assert not other.state("ni").armies["blue-w"].stealthed
    assert outputs_of(besieger, "red") == outputs_of(other, "red")
    assert red_supply(besieger)["sources"] == ["red-hq at 0,0"]
    assert (
        refusals(besieger)
        == refusals(other)
        == [
            "error[rules/hex_disputed]: red.camp.1's hex 0,3 is disputed or besieged: no repairs "
            "there (p.34)"
        ]
    )


def test_version_23_shows_red_in_its_supply_and_its_repair_that_the_besieger_stealthed(
    tmp_path: Path,
) -> None:
    """The leak version 24 closed, kept in the games begun under 23: the besieger's stealth ends
    the siege at once, so red's next supply names red-camp again and its repair is accepted,
    though red's view still shows blue-w there, not stealthed."""
    besieger, other = besieged(tmp_path, "blue-w", "23"), besieged(tmp_path, "blue-x", "23")
    assert red_supply(besieger)["sources"] == ["red-hq at 0,0", "red-camp at 0,3"]
    assert red_supply(other)["sources"] == ["red-hq at 0,0"]
    assert outputs_of(besieger, "red") != outputs_of(other, "red")
    assert refusals(besieger) == ["accepted"] and refusals(other) != ["accepted"]


def test_a_siege_of_version_24_audits_clean_every_seal_opened(tmp_path: Path) -> None:
    arb = besieged(tmp_path, "blue-w")
    report = audit_records(arb.export_records("ni", opened=True), rulesets.get)
    assert report.findings == []
    assert report.proved.batches_rederived > 0 and not report.proved.rules_stopped_at
