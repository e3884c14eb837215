"""An assassination attempt tells the target's empire the attempt and the assassin, nothing of
the assassin's side's secrets (AE-71; version 27): the army it hides in, what else that army
holds, and whether a Master Assassin named his target or the rules picked the only one.

Twin games on one key and clock: blue's Quarry walks into 1,1, where red's Master Assassin
hides in a stealthed army, and red's Recce next door sights him; in red's turn the assassin
makes his attempt, 3 successes against none, and kills him. The twins differ in red's secrets
alone: its army's name and whether a wisp stands in it, and whether the command names the
target. Blue's outputs are compared as the other non-interference tests compare them
(``outputs_of``: every seal and digest blinded)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.domain.armageddon_empires.arena import EMPIRES, toml
from tests.domain.armageddon_empires.helpers import PICK, army_block, begun
from tests.domain.armageddon_empires.test_hidden_setup import outputs_of
from tests.domain.armageddon_empires.test_non_interference import KEY
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.domain import rulesets
from warlog.fuzz.noninterference import Twin

MASTER = """
[[cards]]
kind = "hero"
id = "master"
name = "Test Master"
fate = 0
wounds = 2
movement = 3
abilities = ["Assassin 3", "Master Assassin", "Stealth 4"]
"""

#: an assassin who is no Master Assassin: among several heroes his target is picked
KNIFE = """
[[cards]]
kind = "hero"
id = "knife"
name = "Test Knife"
fate = 0
wounds = 2
movement = 3
abilities = ["Assassin 3", "Stealth 4"]
"""

#: red's check of the Quarry where he stops beside its Recce: 5 − range 1 = 4 dice, all
#: successes, against the 3 dice of a hero alone, all failures (R7)
SEEN = [6, 6, 6, 6, 1, 1, 1]


def armies(army: str, wisp: bool) -> str:
    """Red's Master Assassin in the stealthed ``army`` at 1,1 (with a wisp or not), red's Recce
    at 1,0, and blue's Quarry alone at 1,2, out of every Recce's range."""
    hidden = army_block(army, "red", "1,1", hero="master", units=("wisp",) if wisp else ())
    return (
        hidden
        + "stealthed = true\n"
        + army_block("red-d", "red", "1,0", units=("trooper", "eye"))
        + army_block("blue-q", "blue", "1,2", hero="quarry")
    )


def attempted(tmp: Path, name: str, army: str, wisp: bool, named: bool) -> Arbiter:
    """The game after red's attempt and its challenge's end."""
    arb = begun(tmp / name, toml(armies(army, wisp), empires=MASTER + EMPIRES), KEY)
    attempt: dict[str, Any] = {"type": "assassinate", "player": "red", "card": "red.master.1"}
    if named:
        attempt["target"] = "blue.quarry.1"
    commands: list[dict[str, Any]] = [
        {"type": "buy_initiative", "player": "red", "count": 0},
        {"type": "buy_initiative", "player": "blue", "count": 0, "dice": [1, 6]},
        {"type": "move_army", "player": "blue", "army": "blue-q", "to": "1,1", "dice": SEEN},
        {"type": "end_turn", "player": "blue"},
        {**attempt, "dice": PICK},
        {"type": "roll", "player": "red", "dice": [6, 6, 6, 1, 1, 1, 1]},
        {"type": "accept_challenge", "player": "blue"},
        {"type": "accept_challenge", "player": "red"},
    ]
    for command in commands:
        arb.play("ni", json.dumps(command))
    return arb


def test_blue_is_told_the_same_whatever_army_hides_the_assassin_and_whether_he_named_it(
    tmp_path: Path,
) -> None:
    """Given red's Master Assassin's attempt on blue's Quarry, from red-a alone naming him, from
    red-x with a wisp naming him, or from red-x with a wisp leaving him to the rules, then every
    output blue is given is the same, and the Quarry is dead in each."""
    games = [
        attempted(tmp_path, "a", "red-a", wisp=False, named=True),
        attempted(tmp_path, "x", "red-x", wisp=True, named=True),
        attempted(tmp_path, "xr", "red-x", wisp=True, named=False),
    ]
    for arb in games:
        assert "blue.quarry.1" in arb.state("ni").empires["blue"].discard
    # the twins differ for red, which reads its own army and command
    assert outputs_of(games[0], "red") != outputs_of(games[1], "red")
    blue = [outputs_of(arb, "blue") for arb in games]
    assert blue[0] == blue[1] == blue[2]
    feed = [(r.type, json.loads(r.data)) for r in games[2].records_as("ni", "blue")]
    kinds = [kind for kind, _ in feed]
    assert "assassination_began" in kinds and "assassination_ended" in kinds
    command = next(d for k, d in feed if k == "command_issued" and "card" in d["command"])
    assert command["command"]["card"].keys() == command["command"]["target"].keys() == {"sealed"}
    began = next(d for k, d in feed if k == "assassination_began")
    assert began["candidates"].keys() == began["chosen_by"].keys() == {"sealed"}
    assert "red-x" not in json.dumps(feed) and "red.wisp" not in json.dumps(feed)


def test_an_assassination_audits_clean_every_seal_opened(tmp_path: Path) -> None:
    arb = attempted(tmp_path, "audit", "red-x", wisp=True, named=False)
    report = audit_records(arb.export_records("ni", opened=True), rulesets.get)
    assert report.findings == []
    assert report.proved.batches_rederived > 0 and not report.proved.rules_stopped_at


def test_blue_is_told_the_same_target_whatever_red_s_secret_draws_among_two_heroes(
    tmp_path: Path,
) -> None:
    """Given twin games on one key: red's Knife (no Master Assassin) hides at 1,1, blue's two
    Quarries walk in and red's Recce sights both; in the twin every secret draw of red's shows
    other faces, as ``warlog fuzz``'s twin does. When the Knife makes his attempt, then blue is
    given the same outputs in both: the pick among the two heroes is the referee's roll since
    version 27, not a draw of red's (AE-71, ``targets.REFEREE_PICKS_SINCE``)."""
    scenario = toml(
        army_block("red-a", "red", "1,1", hero="knife", units=("wisp",))
        + "stealthed = true\n"
        + army_block("red-d", "red", "1,0", units=("trooper", "eye"))
        + army_block("blue-q", "blue", "1,2", hero="quarry")
        + army_block("blue-r", "blue", "1,2", hero="quarry"),
        empires=KNIFE + EMPIRES,
    )
    twin = Twin("blue", since=0)
    real = begun(tmp_path / "real", scenario, KEY)
    other = begun(tmp_path / "twin", scenario, KEY, dice_filter=twin.dice)
    commands: list[dict[str, Any]] = [
        {"type": "buy_initiative", "player": "red", "count": 0},
        {"type": "buy_initiative", "player": "blue", "count": 0, "dice": [1, 6]},
        {"type": "move_army", "player": "blue", "army": "blue-q", "to": "1,1", "dice": SEEN},
        {"type": "move_army", "player": "blue", "army": "blue-r", "to": "1,1", "dice": SEEN},
        {"type": "end_turn", "player": "blue"},
        {"type": "assassinate", "player": "red", "card": "red.knife.1", "dice": PICK},
        {"type": "roll", "player": "red", "dice": [6, 6, 6, 1, 1, 1, 1]},
    ]
    for command in commands:
        first = real.head("ni")[0]
        real.play("ni", json.dumps(command))
        twin.real = [e for _, e in real.events("ni", first + 2)]
        other.play("ni", json.dumps(command))
    began = [e for _, e in real.events("ni") if e.type_name() == "assassination_began"]
    assert len(began) == 1 and began[0].candidates == ("blue.quarry.1", "blue.quarry.2")
    assert outputs_of(real, "blue") == outputs_of(other, "blue")


def test_the_state_of_a_version_26_game_carries_no_assassins_and_27_s_only_while_some_acted(
    tmp_path: Path,
) -> None:
    """``Empire.assassins`` is left out of the state while no card has made an attempt this
    turn, as ``sabotaged`` is (AE-71, AE-72): a game of version 26 reads as it did."""
    opening: list[dict[str, Any]] = [
        {"type": "buy_initiative", "player": "red", "count": 0},
        {"type": "buy_initiative", "player": "blue", "count": 0, "dice": [1, 6]},
        {"type": "end_turn", "player": "blue"},
    ]
    text = toml(
        army_block("red-d", "red", "1,0", units=("trooper", "eye"))
        + army_block("blue-q", "blue", "1,2", hero="quarry")
    )
    old = begun(tmp_path / "v26", text, KEY, "26")
    # given a game of version 26, begun and in its turns: its state, whole, names no assassins
    assert "assassins" not in json.dumps(old.view("ni"))
    for command in opening:
        old.play("ni", json.dumps(command))
    assert "assassins" not in json.dumps(old.view("ni"))
    # and in version 27 red's state lists the card while its attempt is of this turn
    arb = attempted(tmp_path, "v27", "red-a", wisp=False, named=True)
    assert arb.view("ni", player="red")["state"]["empires"]["red"]["assassins"] == ["red.master.1"]
    assert "assassins" not in arb.view("ni", player="blue")["state"]["empires"]["red"]
    arb.play("ni", json.dumps({"type": "end_turn", "player": "red"}))
    assert "assassins" not in json.dumps(arb.view("ni"))
