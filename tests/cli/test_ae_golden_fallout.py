"""Seed 002's collateral damage and WMD (manual p.31–32) as golden games through the CLI, with a
referee's dice: a Collateral 60% 4 Atk missile whose die hits one army on a 6 and spares another
on a 7, and a Hydrogen Bomb 10, 15 whose radiation is 15 less a random 1..resistance."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_ae_golden_examples import Table
from warlog.projections.replay import WITHHELD

#: blue's stronghold at 4,1 with two armies in its hex: the Warden (fate 3, resistance 4) with
#: the Bulwark (defence 3, resistance 5, 20 hit points), and the Lancers (defence 2, 3 hit
#: points); red holds the missiles at its stronghold at 0,0
FALLOUT = """# Seed 002's collateral damage and WMD (manual p.31-32), as a scenario of its own.
name = "p31-fallout"
max_rounds = 3
public_setup = true

[map]
width = 6
height = 3
rows = [
  ". . . . . .",
  ". . . . . .",
  ". . . . . .",
]

[[cards]]
kind = "facility"
id = "hold"
name = "Hold"
defense = 2
structure = 9
abilities = ["HQ", "Supply"]

[[cards]]
kind = "attack"
id = "cinder-rocket"
name = "Cinder Rocket"
craft = "missile"
attack = 3
defense = 1
fate = 0
hit_points = 1
range = 6
ap = 2
abilities = ["Collateral 60% 4 Atk"]

[[cards]]
kind = "attack"
id = "sunbreaker"
name = "Sunbreaker Warhead"
craft = "missile"
attack = 8
defense = 1
fate = 0
hit_points = 1
range = 6
ap = 4
abilities = ["Hydrogen Bomb 10, 15"]

[[cards]]
kind = "unit"
id = "lancers"
name = "Lancers"
attack = 3
defense = 2
hit_points = 3
movement = 2

[[cards]]
kind = "unit"
id = "bulwark"
name = "Bulwark"
attack = 1
defense = 3
hit_points = 20
movement = 1
resistance = 5

[[cards]]
kind = "hero"
id = "warden"
name = "The Warden"
fate = 3
wounds = 20
movement = 2
resistance = 4

[[empires]]
id = "red"
name = "The Launchers"
hand = ["cinder-rocket", "sunbreaker"]

[[empires]]
id = "blue"
name = "The Targets"

[[bases]]
id = "red-hold"
empire = "red"
kind = "stronghold"
at = "0,0"
card = "hold"

[[bases]]
id = "blue-hold"
empire = "blue"
kind = "stronghold"
at = "4,1"
card = "hold"

[[armies]]
id = "blue-guard"
empire = "blue"
at = "4,1"
hero = "warden"
units = ["bulwark"]

[[armies]]
id = "blue-line"
empire = "blue"
at = "4,1"
units = ["lancers"]
"""


def opened(tmp: Path) -> Table:
    """Red's turn: neither side bought initiative; the tie goes to red (6 to 1). Nothing is in
    reach of anyone's observation, so the round's hidden checks roll no dice."""
    t = Table(tmp, FALLOUT, "p31")
    t.play(type="buy_initiative", player="red", count=0)
    t.play(type="buy_initiative", player="blue", count=0, dice=[6, 1])
    return t


def collateral_rolled(t: Table) -> int:
    """Red's Cinder Rocket strikes 4,1 (p.31): the seq of its collateral dice."""
    # blue, asked from the ground though it has no gunner there (AE-41), launches nothing; the
    # missile's 3 dice against the Hold's defence 2: 2 successes to 1 = 1 damage
    t.play(type="play_attack_card", player="red", card="red.cinder-rocket.1", at="4,1")
    t.play(type="ground_to_air_challenge", player="blue", dice=[6, 6, 1, 6, 1])
    # blue has no fate to spend: it accepts at once (AE-20); red's accept ends the challenge,
    # and the hidden d10 of each army in the hex, by id, rolls in the same command:
    # blue-guard 6 (≤ 6: hit), blue-hold's empty garrison 3, blue-line 7 (> 6: spared)
    t.play(type="accept_challenge", player="red", dice=[6, 3, 7])
    return t.seq_of("collateral_rolled")


def test_p31_collateral_60_percent_hits_the_army_that_rolls_6_and_spares_the_one_that_rolls_7(
    tmp_path: Path,
) -> None:
    t = opened(tmp_path)
    rolled = collateral_rolled(t)
    assert t.rule(rolled) == [
        "air strike 1: Collateral 60% 4 Atk — one hidden die per army in 4,1 (p.31; AE-45, AE-46):",
        "- blue-guard: 6 — hit",
        "- blue-hold-garrison: 3 — hit",
        "- blue-line: 7 — spared",
    ]
    # the challenges wait for their own command (AE-37): 4 dice against each card of blue-guard,
    # the Warden's fate 3 (1 success to 3 successes: nothing) and the Bulwark's defence 3
    # (4 successes to 1: 3 damage)
    assert json.loads(t.ok("legal", "p31", "--json"))["type"] == "roll"
    t.play(type="roll", player="red", dice=[6, 1, 1, 1, 6, 6, 6, 6, 6, 6, 6, 1, 1, 6])
    suffered = [e for e in t.events() if e["type"] == "fallout_suffered"]
    blue = next(e["seq"] for e in suffered if e["data"]["empire"] == "blue")
    assert t.rule(blue, "--as", "blue") == [
        "air strike 1: collateral damage on blue's cards (hidden, p.31; AE-49):",
        "- blue.warden.1: 1 success on 4 dice [6, 1, 1, 1] against 3 successes on its pool "
        "3 = 3 (fate of The Warden, p.31) [6, 6, 6]: 0 damage; 0 of 20",
        "- blue.bulwark.1: 4 successes on 4 dice [6, 6, 6, 6] against 1 success on its pool "
        "3 = 3 (defense of Bulwark) [1, 1, 6]: 3 damage; 3 of 20",
    ]
    # red may not read what its missile did to blue's armies: the rule is withheld
    assert t.rule(blue, "--as", "red") == ["(withheld: this event holds values sealed from you)"]
    assert t.view("blue")["damage"] == {"blue.hold.1": 1, "blue.bulwark.1": 3}
    assert t.view("red")["damage"] == {"blue.hold.1": 1}
    assert "no findings" in t.ok("audit", "p31")


def test_p31_hydrogen_bomb_10_15_radiation_is_15_less_a_random_1_to_resistance(
    tmp_path: Path,
) -> None:
    t = opened(tmp_path)
    # the Hold is not Hardened: destroyed, and blue's stronghold with it. The hidden dice, by
    # army and card: the Warden 10 dice against fate 3, the Bulwark 10 against defence 3, the
    # Lancers 10 against defence 2; then the 25 radiation rolls of version 19 (AE-65), d64, d81,
    # d25, …, d97, each a die for every card whose resistance its prime divides: the Warden's
    # (resistance 4) on the d64, the Bulwark's (5) on the d25, none on the others
    warden = [1] * 10 + [1, 1, 1]  # 0 − 0 = 0
    bulwark = [6, 6] + [1] * 8 + [6, 1, 1]  # 2 − 1 = 1
    lancers = [6, 6, 6] + [1] * 7 + [1, 1]  # 3 − 0 = 3: its 3 hit points, destroyed
    t.play(type="play_attack_card", player="red", card="red.sunbreaker.1", at="4,1")
    t.play(type="ground_to_air_challenge", player="blue", dice=warden + bulwark + lancers + [4, 3])
    detonated = t.seq_of("wmd_detonated")
    assert t.rule(detonated) == [
        "air strike 1: Hydrogen Bomb 10, 15 on 4,1 (p.31–32; AE-48)",
        "- destroyed, not Hardened: blue.hold.1",
        "- every other card in the hex faces a hidden WMD challenge (p.31)",
    ]
    blue = next(
        e["seq"]
        for e in t.events()
        if e["type"] == "fallout_suffered" and e["data"]["empire"] == "blue"
    )
    assert t.rule(blue, "--as", "blue") == [
        "air strike 1: the WMD on blue's cards (hidden, p.31; AE-49):",
        "- blue.warden.1: 0 successes on 10 dice [1, 1, 1, 1, 1, 1, 1, 1, 1, 1] against "
        "0 successes on its pool 3 = 3 (fate of The Warden, p.31) [1, 1, 1]: 0 damage; "
        "radiation 15 − 4 (a random 1..4, its resistance, from its radiation dice, AE-65: "
        "d64 4: (4 − 1) mod 4 = 3; 1 + 3 = 4) = 11; 11 of 20",
        "- blue.bulwark.1: 2 successes on 10 dice [6, 6, 1, 1, 1, 1, 1, 1, 1, 1] against "
        "1 success on its pool 3 = 3 (defense of Bulwark) [6, 1, 1]: 1 damage; "
        "radiation 15 − 3 (a random 1..5, its resistance, from its radiation dice, AE-65: "
        "d25 3: (3 − 1) mod 5 = 2; 1 + 2 = 3) = 12; 13 of 20",
        "- blue.lancers.1: 3 successes on 10 dice [6, 6, 6, 1, 1, 1, 1, 1, 1, 1] against "
        "0 successes on its pool 2 = 2 (defense of Lancers) [1, 1]: 3 damage; 3 of 3 — "
        "destroyed and discarded (AE-24)",
    ]
    assert t.view("blue")["damage"] == {"blue.warden.1": 11, "blue.bulwark.1": 13}
    red = t.view("red")
    assert (
        "blue-hold" not in red["bases"]
        and "blue.lancers.1" not in red["empires"]["blue"]["discard"]
    )
    # blue's stronghold is gone: it is eliminated at the end of red's turn (p.15)
    t.play(type="end_turn", player="red")
    ended = t.seq_of("game_ended")
    assert t.events()[-1]["data"] == {"reason": "blue lost the HQ (p.15)", "winner": "red"}
    assert ended == t.events()[-1]["seq"]
    assert t.ok("legal", "p31", "--json").strip() == ""
    assert "no findings" in t.ok("audit", "p31")


def test_a_withheld_step_names_no_procedure_even_to_the_side_that_began_it(
    tmp_path: Path,
) -> None:
    # given red's missile's collateral dice, sealed from both players, rolled in red's strike
    t = opened(tmp_path)
    rolled = collateral_rolled(t)
    # when red asks why they rolled
    report = json.loads(t.ok("explain", "p31", str(rolled), "--json", "--as", "red"))
    # then the rule is withheld, and so is the procedure it is a step of
    assert report["rule"] == WITHHELD
    assert "procedure" not in report


def test_a_step_the_reader_may_read_names_no_beginning_the_reader_may_not(
    tmp_path: Path,
) -> None:
    # given red's Cinder Rocket launched on 4,1: where it was launched from and how far it flew
    # are red's (p.19; AE-39), so blue is told no rule for the launch, which began the strike
    t = opened(tmp_path)
    collateral_rolled(t)
    launched = t.seq_of("air_strike_launched_sealed")
    advanced = next(
        e["seq"] for e in t.events() if e["type"] == "air_strike_advanced" and e["seq"] > launched
    )
    assert (
        json.loads(t.ok("explain", "p31", str(launched), "--json", "--as", "blue"))["rule"]
        == WITHHELD
    )
    # when blue asks why the strike moved on, a step whose rule blue may read
    report = json.loads(t.ok("explain", "p31", str(advanced), "--json", "--as", "blue"))
    # then blue is told its rule but not where the strike began; red and the referee are
    assert report["rule"] != WITHHELD
    assert "procedure" not in report
    for reader in (["--as", "red"], []):
        told = json.loads(t.ok("explain", "p31", str(advanced), "--json", *reader))
        assert told["procedure"] == {"name": "air strike 1", "began": launched}


def test_each_empire_s_hidden_dice_are_said_to_serve_that_empire_s_fallout(
    tmp_path: Path,
) -> None:
    # given red's Cinder Rocket on 4,1 and its collateral challenges, rolled once per empire in
    # the scenario's order (AE-66): red's roll (no card of red's there), blue's, then red's
    # fallout_suffered and blue's
    t = opened(tmp_path)
    collateral_rolled(t)
    t.play(type="roll", player="red", dice=[6, 1, 1, 1, 6, 6, 6, 6, 6, 6, 6, 1, 1, 6])
    events = t.events()

    def seq(kind: str, **data: str) -> int:
        return next(
            e["seq"]
            for e in events
            if e["type"] == kind and all(e["data"].get(k) == v for k, v in data.items())
        )

    suffered = {e: seq("fallout_suffered", empire=e) for e in ("red", "blue")}
    for empire in ("red", "blue"):
        roll = seq("dice_rolled", purpose=f"air strike 1 collateral challenges: {empire}'s")
        # when the referee asks why that empire's dice were rolled
        served = t.rule(roll)[1]
        # then they serve that empire's fallout, not the first event after them
        assert served.startswith(
            f"the roll serves event {suffered[empire]} (fallout_suffered): air strike 1: "
            f"collateral damage on {empire}'s cards (hidden, p.31; AE-49)"
        )
    # and the armies' dice, one roll per empire too, serve the one event that reads them all
    rolled = seq("collateral_rolled")
    for empire in ("red", "blue"):
        roll = seq("dice_rolled", purpose=f"air strike 1 collateral: {empire}'s")
        assert t.rule(roll)[1].startswith(f"the roll serves event {rolled} (collateral_rolled)")
