"""A WMD strike's radiation dice tell nothing of the other empire's hidden card types (AE-65,
since version 19).

Non-interference: two games of a custom scenario whose set-up is hidden (seed 002's fallout
scenario without ``public_setup``), identical but for the resistance of blue's Bulwark, a unit
type of blue's hidden set-up alone (5, or 7), begun with the same key and played with the same
commands up to red's Sunbreaker Warhead on blue's stronghold (a hex red sees: bases are
public), give red the same answers (``test_hidden_setup.red_outputs``: its feed of
``game_created``, the exported row, its view, and every read of ``reads`` — every record of its
feed, the sides and number of its ``dice_rolled`` rows among them, and ``explain`` of every
event), every 64-hex digest blinded. Under version 18 the same pair differs: the radiation rolls'
sides are the catalogue's resistances, 4 and 5 or 4 and 7.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.cli.test_ae_golden_fallout import FALLOUT
from tests.domain.armageddon_empires.helpers import begun
from tests.domain.armageddon_empires.test_hidden_setup import red_outputs
from tests.domain.armageddon_empires.test_non_interference import KEY, reads
from tests.test_verifier import run as verify_run
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.exchange import export_line
from warlog.domain import rulesets
from warlog.domain.armageddon_empires.radiation import RADIATION_SIDES

BULWARK = "resistance = 5\n"


def hidden(bulwark: int) -> str:
    """Seed 002's fallout scenario, its set-up hidden, blue's Bulwark of resistance ``bulwark``."""
    text = FALLOUT.replace("public_setup = true\n", "")
    assert text.count(BULWARK) == 1
    return text.replace(BULWARK, f"resistance = {bulwark}\n")


def struck(tmp: Path, bulwark: int, version: str | None = None) -> Arbiter:
    """The game ``ni`` of ``hidden(bulwark)`` begun under ``version`` (default: this one), key
    ``KEY``, auto dice: no initiative bought (blue ends its turn if it has the first), then red's
    Sunbreaker Warhead on blue's stronghold at 4,1; blue fires nothing from the ground."""
    arb = begun(tmp / f"{bulwark}-{version}", hidden(bulwark), KEY, version, dice="auto")
    for player in ("red", "blue"):
        arb.play("ni", json.dumps({"type": "buy_initiative", "player": player, "count": 0}))
    if arb.view("ni")["state"]["current"] == "blue":
        arb.play("ni", json.dumps({"type": "end_turn", "player": "blue"}))
    hand = arb.view("ni", None, "red")["state"]["empires"]["red"]["hand"]
    warhead = next(c for c in hand if c.startswith("red.sunbreaker."))  # numbered at random
    strike = {"type": "play_attack_card", "player": "red", "card": warhead, "at": "4,1"}
    arb.play("ni", json.dumps(strike))
    arb.play("ni", json.dumps({"type": "ground_to_air_challenge", "player": "blue"}))
    return arb


def radiation_sides(arb: Arbiter) -> list[int]:
    """The sides of the radiation rolls in red's feed."""
    rows = [json.loads(r.data) for r in arb.records_as("ni", "red") if r.type == "dice_rolled"]
    return [d["sides"] for d in rows if "radiation" in d.get("purpose", "")]


def damage(arb: Arbiter) -> dict[str, Any]:
    return dict(arb.view("ni")["state"]["damage"])


def test_red_reads_the_same_whatever_the_resistance_of_blue_s_hidden_type(
    tmp_path: Path,
) -> None:
    five, seven = struck(tmp_path, 5), struck(tmp_path, 7)
    # the games differ, for the referee and for blue: the Bulwarks took other radiation
    assert damage(five) != damage(seven)
    assert reads(five, "blue") != reads(seven, "blue")
    # and red's feed holds the 25 radiation rolls of version 19 in both, each once per empire
    # since version 21 (AE-66)
    by_empire = [sides for sides in RADIATION_SIDES for _ in ("red", "blue")]
    assert radiation_sides(five) == radiation_sides(seven) == by_empire
    # and nothing red is given differs
    assert red_outputs(five) == red_outputs(seven)


def test_a_game_of_version_18_shows_red_the_resistance_of_blue_s_hidden_type(
    tmp_path: Path,
) -> None:
    """The leak AE-65 closes, kept in the games begun under version 18."""
    five, seven = struck(tmp_path, 5, "18"), struck(tmp_path, 7, "18")
    assert (radiation_sides(five), radiation_sides(seven)) == ([4, 5], [4, 7])
    assert red_outputs(five)["every read"] != red_outputs(seven)["every read"]


def test_a_game_of_version_19_with_a_wmd_revealed_audits_clean_and_the_verifier_passes_it(
    tmp_path: Path,
) -> None:
    arb = struck(tmp_path, 7, "19")
    assert radiation_sides(arb) == list(RADIATION_SIDES)
    arb.reveal("ni")
    auditor = audit_records(arb.export_records("ni"), rulesets.get)
    assert auditor.findings == [] and auditor.revealed
    assert auditor.rules == "armageddon-empires version 19"
    export = tmp_path / "v19.jsonl"
    export.write_text("".join(export_line(r) + "\n" for r in arb.export_records("ni")))
    verified = verify_run(export)
    assert verified.returncode == 0, verified.stdout
    assert ", 0 seals still closed" in verified.stdout
