"""Non-interference of the air war (AE-7, AE-20, AE-40): two games that differ only in blue's hand
— an Air To Air card that could intercept, or a unit card — give red byte-identical answers from
every read a player has, when blue lets the strike pass: the intercept window is offered to blue
in both, so being asked tells red nothing of blue's hand.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.domain.armageddon_empires.helpers import toml
from tests.domain.armageddon_empires.test_air_war import AIR_CARDS, ARMIES, BASES, ROWS, empires
from tests.domain.armageddon_empires.test_non_interference import KEY, reads
from warlog.arbiter.application import Arbiter
from warlog.domain import rulesets
from warlog.eventstore.memory_store import MemoryStore

COMMANDS = [
    {"type": "buy_initiative", "player": "red", "count": 0},
    {"type": "buy_initiative", "player": "blue", "count": 0, "dice": [6, 1]},
    {
        "type": "play_attack_card",
        "player": "red",
        "card": "red.hawk.1",
        "at": "4,2",
        "aim": "facility",
    },
    # letting it pass leads to the d2 that picks the facility struck (the bunker) ...
    {"type": "intercept", "player": "blue", "dice": [2]},
    # ... and the strike waits for red's roll (AE-37): hawk's 4 dice against its defence 1
    {"type": "roll", "player": "red", "dice": [6, 6, 1, 1, 1]},
    {"type": "accept_challenge", "player": "blue"},
    {"type": "accept_challenge", "player": "red"},
    {"type": "end_turn", "player": "red"},
]


def played(tmp: Path, hand: str) -> Arbiter:
    folder = tmp / hand
    folder.mkdir()
    path = folder / "ni.toml"  # the scenario's name is the file's: the same in both games
    text = toml(
        ROWS,
        armies=AIR_CARDS + ARMIES,
        bases=BASES.replace("{garrison}", "[]"),
        empires=empires(["hawk"], [hand]),
        resources="",
    )
    path.write_text(text, encoding="utf-8")
    arb = Arbiter(
        MemoryStore(), rulesets.get, clock=lambda: "2026-01-01T00:00:00.000Z", seeds=lambda: KEY
    )
    arb.new_game("armageddon-empires", str(path), game="ni", dice="manual")
    for command in COMMANDS:
        arb.play("ni", json.dumps(command))
    return arb


def test_red_reads_the_same_whether_blue_could_intercept_or_not(tmp_path: Path) -> None:
    could = played(tmp_path, "jay")
    could_not = played(tmp_path, "plate")
    # blue was offered the intercept in one game only as far as its own legal commands go
    assert reads(could, "blue") != reads(could_not, "blue")
    red = reads(could, "red")
    assert red == reads(could_not, "red")
    assert "blue.jay" not in red and "blue.plate" not in red
    # the strike did happen: the bunker took 2 halved to 1 (Hardened, R14)
    assert could.view("ni")["state"]["damage"] == {"blue.bunker.1": 1}
