"""Non-interference of the air war (AE-7, AE-20, AE-40): two games that differ only in blue's hand
— an Air To Air card that could intercept, or a unit card — give red byte-identical answers from
every read a player has, when blue lets the strike pass: the intercept window is offered to blue
in both, so being asked tells red nothing of blue's hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.domain.armageddon_empires.air_helpers import AIR_CARDS, ARMIES, BASES, ROWS, empires
from tests.domain.armageddon_empires.arena import MORE_CARDS
from tests.domain.armageddon_empires.helpers import army_block, begun, toml
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
    {"type": "intercept", "player": "blue"},
    # launching no Ground-To-Air challenge leads to the d2 that picks the facility struck (the
    # bunker) ...
    {"type": "ground_to_air_challenge", "player": "blue", "dice": [2]},
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


#: AE-42: red's eye (Recce S5, R1) beside blue-a, blue-far out of its sight; blue's wisps stealth
STEALTH_ARMIES = (
    army_block("blue-a", "blue", "3,2", units=("wisp",))
    + army_block("blue-far", "blue", "7,4", units=("wisp",))
    + army_block("red-a", "red", "2,2", units=("eye",))
)


def stealth_played(tmp: Path, army: str, version: str | None = None) -> Arbiter:
    """Red sights blue-a at the round's start; blue, first to play, stealths ``army`` (sealed
    for red: which army, and its level) and ends its turn. ``version``: the game is begun under
    that version of the rules, as an older warlog would have begun it (default: this one's)."""
    text = toml(
        ROWS,
        armies=AIR_CARDS + MORE_CARDS + STEALTH_ARMIES,
        bases=BASES.replace("{garrison}", "[]"),
        empires=empires(["hawk"], []),
        resources="",
    )
    arb = begun(tmp / f"{army}-{version}", text, KEY, version)
    script = [
        {"type": "buy_initiative", "player": "red", "count": 0},
        # the tie-break (blue first), then red's check of blue-a: 4 observation dice (Recce S5,
        # R1 at range 1) against its 3 detection dice, 4 successes against 0: sighted
        {
            "type": "buy_initiative",
            "player": "blue",
            "count": 0,
            "dice": [1, 6, 6, 6, 6, 6, 1, 1, 1],
        },
        {"type": "engage_stealth", "player": "blue", "army": army},
        {"type": "end_turn", "player": "blue"},
    ]
    for command in script:
        arb.play("ni", json.dumps(command))
    return arb


def test_an_air_strike_s_targets_tell_red_nothing_of_what_blue_did_since_red_sighted_them(
    tmp_path: Path,
) -> None:
    """AE-42: red's targets are blue-a as red sighted it, whichever army blue stealthed since."""
    sighted_one = stealth_played(tmp_path, "blue-a")
    other_one = stealth_played(tmp_path, "blue-far")
    assert sighted_one.view("ni")["state"]["armies"]["blue-a"]["stealthed"]
    assert not other_one.view("ni")["state"]["armies"]["blue-a"]["stealthed"]
    red = reads(sighted_one, "red")
    assert red == reads(other_one, "red")
    strike = {"type": "play_attack_card", "player": "red", "card": "red.hawk.1", "at": "3,2"}
    assert {**strike, "aim": "unit"} in sighted_one.legal("ni", "red")
    # the strike is accepted in both; only when the card arrives, past blue's Ground-To-Air
    # window, does red learn blue-a is gone
    records = sighted_one.play("ni", json.dumps({**strike, "aim": "unit"}))
    records += sighted_one.play(
        "ni", json.dumps({"type": "ground_to_air_challenge", "player": "blue"})
    )
    why = [json.loads(r.data)["why"] for r in records if r.type == "air_strike_advanced"]
    assert why[-1] == "blue.wisp.1 is no longer there (AE-42)"
    assert sighted_one.view("ni")["state"]["damage"] == {}
    assert "red.hawk.1" in sighted_one.view("ni")["state"]["empires"]["red"]["hand"]


#: AE-41: an army of blue's in the hex red strikes, never sighted by red: with an Anti-Air unit
#: (blue.flak.1), or with a unit that has none; or the Anti-Air army elsewhere, out of the strike
GUNNER_THERE = army_block("blue-flak", "blue", "4,2", units=("flak",))
NO_GUNNER = {
    "a unit without Anti-Air": army_block("blue-flak", "blue", "4,2", units=("plate",)),
    "the army elsewhere": army_block("blue-flak", "blue", "7,4", units=("flak",)),
}

#: red's hawk strikes a random facility of blue's HQ at 4,2; blue launches no Ground-To-Air
#: challenge; the d2 picks the bunker, then the hawk's 4 dice against its defence 1
HELD_FIRE = [
    {"type": "buy_initiative", "player": "red", "count": 0},
    {"type": "buy_initiative", "player": "blue", "count": 0, "dice": [6, 1]},
    {
        "type": "play_attack_card",
        "player": "red",
        "card": "red.hawk.1",
        "at": "4,2",
        "aim": "facility",
    },
    {"type": "ground_to_air_challenge", "player": "blue", "dice": [2]},
    {"type": "roll", "player": "red", "dice": [6, 6, 1, 1, 1]},
    # the bunker has no fate and blue no card: blue accepts at once (AE-20)
    {"type": "accept_challenge", "player": "red"},
    {"type": "end_turn", "player": "red"},
]


def gunner_game(tmp: Path, army: str, version: str | None = None) -> Arbiter:
    """Red's strike on blue's HQ, with blue's ``army`` (an ``[[armies]]`` table) unseen; blue
    has an empty hand, so that the intercept window lets the strike pass. ``version``: the
    game begun under that version of the rules (default: this one's)."""
    text = toml(
        ROWS,
        armies=AIR_CARDS + ARMIES + army,
        bases=BASES.replace("{garrison}", "[]"),
        empires=empires(["hawk"], []),
        resources="",
    )
    return begun(tmp / f"{abs(hash(army)) % 10**6}-{version}", text, KEY, version)


@pytest.mark.parametrize("variant", sorted(NO_GUNNER))
def test_red_reads_the_same_whether_an_unseen_gunner_that_holds_its_fire_stands_there_or_not(
    tmp_path: Path, variant: str
) -> None:
    """AE-41 (since version 13): blue is asked from the ground whatever the hex holds, and
    nothing public names a gunner that does not fire."""
    there = gunner_game(tmp_path, GUNNER_THERE)
    absent = gunner_game(tmp_path, NO_GUNNER[variant])
    for arb in (there, absent):
        for command in HELD_FIRE[:3]:
            arb.play("ni", json.dumps(command))
    # blue is asked in both games, and offered its gunner in one only
    for arb in (there, absent):
        assert arb.view("ni", player="red")["state"]["awaited"] == "ground_to_air_challenge"
    fire = {"type": "ground_to_air_challenge", "player": "blue", "gunner": "blue.flak.1"}
    assert fire in there.legal("ni", "blue") and fire not in absent.legal("ni", "blue")
    # red reads the same in the window, and once blue has held its fire and the strike is over
    assert reads(there, "red") == reads(absent, "red")
    for arb in (there, absent):
        for command in HELD_FIRE[3:]:
            arb.play("ni", json.dumps(command))
    assert there.view("ni")["state"]["damage"] == {"blue.bunker.1": 1}
    assert reads(there, "blue") != reads(absent, "blue")
    red = reads(there, "red")
    assert red == reads(absent, "red")
    assert "blue-flak" not in red and "blue.flak" not in red


def test_version_12_named_the_unseen_gunner_to_the_striker(tmp_path: Path) -> None:
    """The leak version 13 closes: the same game begun under version 12 names blue's unsighted
    flak to red in the Ground-To-Air window, in its public event and in what the game waits
    for (blue's chance to fire it)."""
    arb = gunner_game(tmp_path, GUNNER_THERE, version="12")
    records = [r for command in HELD_FIRE[:3] for r in arb.play("ni", json.dumps(command))]
    assert "blue.flak.1" in arb.view("ni", player="red")["state"]["waiting"]
    advanced = [json.loads(r.data) for r in records if r.type == "air_strike_advanced"]
    assert advanced[-1]["strike"]["gunners"] == ["blue.flak.1"]
    assert "blue.flak.1" in reads(arb, "red")
