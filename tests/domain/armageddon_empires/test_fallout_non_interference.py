"""Non-interference of collateral damage and WMD (AE-49): two games that differ only in what
blue's army out of red's sight holds — Lancers or a Bulwark, with a different pool, different
dice and a different fate — give red byte-identical answers from every read a player has: the
same events in the same shapes (the hidden rolls and blue's results sealed), the same views,
the same legal commands, the same Events view."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_ae_golden_fallout import FALLOUT
from tests.domain.armageddon_empires.test_non_interference import KEY, reads
from warlog.arbiter.application import Arbiter
from warlog.domain import rulesets
from warlog.eventstore.memory_store import MemoryStore

OPENING = [
    {"type": "buy_initiative", "player": "red", "count": 0},
    {"type": "buy_initiative", "player": "blue", "count": 0, "dice": [6, 1]},
]


def played(tmp: Path, line: str, commands: list[dict[str, object]]) -> Arbiter:
    folder = tmp / line
    folder.mkdir(exist_ok=True)
    path = folder / "ni.toml"  # the scenario's name is the file's: the same in both games
    text = FALLOUT.replace('units = ["lancers"]', f'units = ["{line}"]')
    path.write_text(text, encoding="utf-8")
    arb = Arbiter(
        MemoryStore(), rulesets.get, clock=lambda: "2026-01-01T00:00:00.000Z", seeds=lambda: KEY
    )
    arb.new_game("armageddon-empires", str(path), game="ni", dice="manual")
    for command in [*OPENING, *commands]:
        arb.play("ni", json.dumps(command))
    return arb


def collateral(last: list[int]) -> list[dict[str, object]]:
    """The missile misses the Hold; every army is hit; blue-line's card loses everything."""
    return [
        {
            "type": "play_attack_card",
            "player": "red",
            "card": "red.cinder-rocket.1",
            "at": "4,1",
        },
        {"type": "ground_to_air_challenge", "player": "blue", "dice": [1, 1, 1, 1, 1]},
        {"type": "accept_challenge", "player": "blue"},
        {"type": "accept_challenge", "player": "red", "dice": [1, 1, 1]},
        {"type": "roll", "player": "red", "dice": [1] * 14 + last},
        {"type": "end_turn", "player": "red"},
    ]


def test_red_reads_the_same_whatever_blue_s_unseen_army_suffers_from_collateral_damage(
    tmp_path: Path,
) -> None:
    # the Lancers: 4 dice against defence 2, destroyed; the Bulwark: 4 against 3, 4 damage
    lancers = played(tmp_path, "lancers", collateral([6, 6, 6, 6, 1, 1]))
    bulwark = played(tmp_path, "bulwark", collateral([6, 6, 6, 6, 1, 1, 1]))
    assert lancers.view("ni")["state"]["empires"]["blue"]["face_down"] == ["blue.lancers.1"]
    assert bulwark.view("ni")["state"]["damage"]["blue.bulwark.2"] == 4
    assert reads(lancers, "blue") != reads(bulwark, "blue")
    red = reads(lancers, "red")
    assert red == reads(bulwark, "red")
    assert "blue.lancers" not in red and "blue.bulwark" not in red


def test_red_reads_the_same_whatever_blue_s_unseen_army_suffers_from_a_hydrogen_bomb(
    tmp_path: Path,
) -> None:
    guard = [1] * 26  # the Warden and the Bulwark of blue-guard: nothing
    lancers = played(
        tmp_path,
        "lancers",
        [
            {
                "type": "play_attack_card",
                "player": "red",
                "card": "red.sunbreaker.1",
                "at": "4,1",
            },
            {
                "type": "ground_to_air_challenge",
                "player": "blue",
                # the Lancers: 15 radiation, destroyed; then the 25 radiation rolls (AE-65): a
                # die of the d64 for the Warden (resistance 4), of the d25 for the Bulwark (5)
                "dice": [*guard, *([1] * 12), 1, 1],
            },
        ],
    )
    bulwark = played(
        tmp_path,
        "bulwark",
        [
            {
                "type": "play_attack_card",
                "player": "red",
                "card": "red.sunbreaker.1",
                "at": "4,1",
            },
            {
                "type": "ground_to_air_challenge",
                "player": "blue",
                # the Warden's die of the d64, then the d25's two Bulwarks': this one's showing
                # 5, so 15 − 5 = 10 (AE-65)
                "dice": [*guard, *([1] * 13), 1, 1, 5],
            },
        ],
    )
    assert reads(lancers, "blue") != reads(bulwark, "blue")
    assert reads(lancers, "red") == reads(bulwark, "red")


#: red's Scout one hex west of blue's stronghold: red sights blue's armies there (R7)
EYE = """
[[cards]]
kind = "unit"
id = "scout"
name = "Scout"
attack = 1
defense = 1
hit_points = 1
movement = 4
abilities = ["Recce S3, R1"]

[[armies]]
id = "red-eye"
empire = "red"
at = "3,1"
units = ["scout"]
"""


def sighted(tmp: Path, name: str, roll: list[int]) -> Arbiter:
    folder = tmp / name
    folder.mkdir()
    path = folder / "ni.toml"
    path.write_text(FALLOUT + EYE, encoding="utf-8")
    arb = Arbiter(
        MemoryStore(), rulesets.get, clock=lambda: "2026-01-01T00:00:00.000Z", seeds=lambda: KEY
    )
    arb.new_game("armageddon-empires", str(path), game="ni", dice="manual")
    for command in [
        {"type": "buy_initiative", "player": "red", "count": 0},
        # the tie, then red's checks: it sights both of blue's armies
        {"type": "buy_initiative", "player": "blue", "count": 0,
         "dice": [6, 1, 6, 6, 1, 1, 1, 6, 6, 1, 1, 1]},
        {"type": "play_attack_card", "player": "red", "card": "red.cinder-rocket.1", "at": "4,1"},
        {"type": "ground_to_air_challenge", "player": "blue", "dice": [6, 6, 1, 6, 1]},
        {"type": "accept_challenge", "player": "red", "dice": [6, 3, 7]},
        {"type": "roll", "player": "red", "dice": roll},
    ]:  # fmt: skip
        arb.play("ni", json.dumps(command))
    return arb


def test_red_never_sees_the_damage_collateral_dealt_to_an_army_it_has_in_sight(
    tmp_path: Path,
) -> None:
    # the Bulwark of blue-guard, in red's sight, takes 3 in one game and 2 in the other (AE-49)
    three = sighted(tmp_path, "three", [6, 1, 1, 1, 6, 6, 6, 6, 6, 6, 6, 1, 1, 6])
    two = sighted(tmp_path, "two", [6, 1, 1, 1, 6, 6, 6, 6, 6, 6, 1, 1, 1, 6])
    assert "blue-guard" in three.view("ni", player="red")["state"]["armies"]
    assert three.view("ni", player="blue")["state"]["damage"]["blue.bulwark.1"] == 3
    assert two.view("ni", player="blue")["state"]["damage"]["blue.bulwark.1"] == 2
    assert reads(three, "red") == reads(two, "red")
    assert "blue.bulwark.1" not in three.view("ni", player="red")["state"]["damage"]
