"""The manual's worked examples as golden games through the CLI, with a referee's dice, each on a
scenario of its own: the Capture Kill of p.30 and the stealth check of p.27."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from warlog.cli.main import cli

#: p.30: three unit cards (one with Bounty Hunter 2, one with Recce S5, R1) in badlands, with an
#: enemy hero of fate 4 alone in an army in their hex
CAPTURE_KILL = """# The Capture Kill of the manual's p.30, as a scenario of its own.
name = "p30-capture-kill"
max_rounds = 3
public_setup = true

[map]
width = 5
height = 3
rows = [
  ". . . . .",
  ". . b . .",
  ". . . . .",
]

[[cards]]
kind = "facility"
id = "hold"
name = "Hunters' Hold"
defense = 3
structure = 5
abilities = ["HQ", "Supply"]

[[cards]]
kind = "facility"
id = "post"
name = "Way Post"
defense = 2
structure = 3
abilities = ["Supply"]

[[cards]]
kind = "unit"
id = "bounty-riders"
name = "Bounty Riders"
attack = 3
defense = 2
hit_points = 2
movement = 3
abilities = ["Bounty Hunter 2"]

[[cards]]
kind = "unit"
id = "dune-scouts"
name = "Dune Scouts"
attack = 2
defense = 2
hit_points = 2
movement = 4
abilities = ["Recce S5, R1"]

[[cards]]
kind = "unit"
id = "line-troops"
name = "Line Troops"
attack = 3
defense = 3
hit_points = 3
movement = 3

[[cards]]
kind = "hero"
id = "wanderer"
name = "The Wanderer"
fate = 4
wounds = 3
movement = 3

[[empires]]
id = "red"
name = "The Hunters"

[[empires]]
id = "blue"
name = "The Wanderers"

[[bases]]
id = "red-hold"
empire = "red"
kind = "stronghold"
at = "0,0"
card = "hold"

[[bases]]
id = "red-post"
empire = "red"
kind = "outpost"
at = "1,2"
card = "post"

[[bases]]
id = "blue-hold"
empire = "blue"
kind = "stronghold"
at = "4,2"
card = "hold"

[[armies]]
id = "red-hunters"
empire = "red"
at = "2,1"
units = ["bounty-riders", "dune-scouts", "line-troops"]

[[armies]]
id = "blue-wanderer"
empire = "blue"
at = "2,1"
hero = "wanderer"
"""


class Table:
    """A referee at the CLI: one database, commands as JSON, exact exit codes."""

    def __init__(self, tmp: Path, scenario: str, game: str) -> None:
        self.db = str(tmp / "w.db")
        self.game = game
        path = tmp / f"{game}.toml"
        path.write_text(scenario, encoding="utf-8")
        out = self.ok(
            "new", "armageddon-empires", "--scenario", str(path), "--dice", "manual", "--game", game
        )
        assert out.strip() == game

    def ok(self, *args: str) -> str:
        result = CliRunner().invoke(cli, ["--db", self.db, *args])
        assert result.exit_code == 0, result.stderr
        return result.stdout

    def play(self, **command: object) -> str:
        return self.ok("play", self.game, json.dumps(command))

    def events(self, *extra: str) -> list[dict]:  # type: ignore[type-arg]
        text = self.ok("events", self.game, "--json", *extra)
        return [json.loads(line) for line in text.splitlines()]

    def seq_of(self, kind: str) -> int:
        return next(e["seq"] for e in self.events() if e["type"] == kind)

    def rule(self, seq: int, *extra: str) -> list[str]:
        text = self.ok("explain", self.game, str(seq), *extra)
        return [
            line.removeprefix("rule: ") for line in text.splitlines() if line.startswith("rule: ")
        ]

    def view(self, player: str) -> dict:  # type: ignore[type-arg]
        return json.loads(self.ok("state", self.game, "--as", player, "--json"))["state"]


def test_p30_capture_kill_hunter_6_dice_4_against_3_captured_and_3_ap_next_round(
    tmp_path: Path,
) -> None:
    t = Table(tmp_path, CAPTURE_KILL, "p30")
    t.play(type="buy_initiative", player="red", count=0)
    # the tie-break (red 6, blue 1), then red's hidden check of the hero in its hex:
    # 5 − range 0 − badlands 1 = 4 dice against a hero alone's 3 (R7): 2 successes to 0
    t.play(type="buy_initiative", player="blue", count=0, dice=[6, 1, 6, 6, 1, 1, 1, 1, 1])
    assert "blue-wanderer" in t.view("red")["armies"]
    # the hunt rolls red's hidden pick of its target, 3 d210 (AE-21: the only one here); its
    # challenge waits for red's roll (AE-37)
    t.play(type="hunt_hero", player="red", army="red-hunters", dice=[1, 1, 1])
    t.play(type="roll", player="red", dice=[6, 5, 4, 4, 1, 1, 6, 5, 4, 1])
    opened = t.seq_of("challenge_opened")
    assert t.rule(opened) == [
        "challenge 1 opens; the defender acts first (R5)",
        "challenge 1 (capture kill, opposed; round 1)",
        "hunter red-hunters (red) pool 6 = 1 (base, R2) + 1 (3 units ÷ 2, rounded down) + 4 "
        "(Recce S5, R1 of Dune Scouts in red-hunters: 5 − range 0 − badlands 1)",
        "target The Wanderer (blue) pool 4 = 4 (fate of The Wanderer, p.30)",
        "- rolled: hunter red-hunters [6, 5, 4, 4, 1, 1] = 4 successes; target The Wanderer "
        "[6, 5, 4, 1] = 3 successes",
        "dice now: hunter red-hunters [6, 5, 4, 4, 1, 1] = 4 successes; target The Wanderer "
        "[6, 5, 4, 1] = 3 successes",
    ]
    # blue, the defender, has fate to spend and is asked; it accepts. The hunters have no hero
    # (no fate) and an empty hand: they accept automatically (AE-20)
    legal = t.ok("legal", "p30", "--as", "blue", "--json").splitlines()
    assert [json.loads(c)["type"] for c in legal] == ["spend_fate", "accept_challenge"]
    t.play(type="accept_challenge", player="blue")
    captured = t.seq_of("hero_captured")
    assert t.rule(captured) == [
        "hunter 4 > target 3 successes: the hero is caught (R4); capture threshold = target pool "
        "4 − largest Bounty Hunter 2 = 2 (R4, p.30); 4 > 2: captured; blue.wanderer.1 is taken to "
        "red's nearest base red-post at 1,2 (1 hex away; AE-21), which earns +3 AP a round while "
        "it holds him and is not besieged (p.24, p.30; AE-35); blue-wanderer is left empty and "
        "disbanded (AE-24)"
    ]
    # explain on any event of the challenge prints the whole of it
    accepted = [e["seq"] for e in t.events() if e["type"] == "challenge_accepted"]
    assert "(AE-20)" in t.rule(accepted[1])[0] and any(
        "pool 6 = 1 (base, R2)" in r for r in t.rule(accepted[1])
    )
    resolved = t.rule(t.seq_of("challenge_resolved"))
    assert resolved[0] == (
        "challenge 1 ends by 2 accepts in a row (R5): attacker 4 successes, defender 3 "
        "successes: a Capture Kill deals no damage; its verdict, the next event, compares the "
        "successes (p.30; R4)"
    )
    # ... and names the event where the challenge began, for the referee and both players
    opened = t.seq_of("challenge_opened")
    for reader in ([], ["--as", "red"], ["--as", "blue"]):
        text = t.ok("explain", "p30", str(t.seq_of("challenge_resolved")), *reader)
        assert f"part of challenge 1, which began at event {opened}" in text
        report = json.loads(t.ok("explain", "p30", str(accepted[0]), "--json", *reader))
        assert report["procedure"] == {"name": "challenge 1", "began": opened}
    assert "part of challenge 1, which begins here" in t.ok("explain", "p30", str(opened))
    assert t.view("red")["bases"]["red-post"]["prisoners"] == ["blue.wanderer.1"]
    assert t.view("blue")["bases"]["red-post"]["prisoners"] == ["blue.wanderer.1"]
    # the next round: red's turn begins with 12 + 3 AP for the prisoner
    t.play(type="end_turn", player="red")
    t.play(type="end_turn", player="blue")
    t.play(type="buy_initiative", player="red", count=0)
    t.play(type="buy_initiative", player="blue", count=0, dice=[6, 1])
    began = [e for e in t.events() if e["type"] == "turn_began"][-1]
    assert (began["data"]["empire"], began["data"]["ap"]) == ("red", 15)
    assert t.rule(began["seq"]) == [
        "red starts its turn with 15 AP = 12 for initiative place 1 (R10, p.11) + 3 from "
        "prisoner blue.wanderer.1 at red-post (p.24, p.30)"
    ]
    assert "no findings" in t.ok("audit", "p30")


#: p.27: a Recce S6, R1 one hex from an army of stealth 5 standing in the desert
STEALTH = """
name = "p27-stealth"
max_rounds = 2
public_setup = true

[map]
width = 4
height = 3
rows = [
  ". . . .",
  ". . d .",
  ". . . .",
]

[[cards]]
kind = "facility"
id = "hold"
name = "Hold"
defense = 3
structure = 5
abilities = ["HQ", "Supply"]

[[cards]]
kind = "unit"
id = "long-eyes"
name = "Long Eyes"
attack = 1
defense = 1
hit_points = 1
movement = 3
abilities = ["Recce S6, R1"]

[[cards]]
kind = "unit"
id = "veil-walkers"
name = "Veil Walkers"
attack = 2
defense = 2
hit_points = 2
movement = 3
abilities = ["Stealth 5"]

[[empires]]
id = "red"
name = "The Watch"

[[empires]]
id = "blue"
name = "The Veiled"

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
at = "3,2"
card = "hold"

[[armies]]
id = "red-watch"
empire = "red"
at = "1,1"
units = ["long-eyes"]

[[armies]]
id = "blue-veiled"
empire = "blue"
at = "2,1"
units = ["veil-walkers"]
stealthed = true
"""


def test_p27_stealth_two_dice_one_success_against_three_stays_hidden_and_no_view_shows_it(
    tmp_path: Path,
) -> None:
    t = Table(tmp_path, STEALTH, "p27")
    t.play(type="buy_initiative", player="red", count=0)
    # the tie-break (red 6, blue 1), then red's hidden roll: 2 observation dice, 5 stealth dice
    t.play(type="buy_initiative", player="blue", count=0, dice=[6, 1, 5, 2, 6, 5, 4, 1, 1])
    checked = next(
        e
        for e in t.events()
        if e["type"] == "observation_checked" and e["data"]["observer"] == "red"
    )
    assert t.rule(checked["seq"]) == [
        "red's hidden observation checks (round window; R7, p.27):",
        "- blue-veiled at 2,1: observation 2 = 2 (Recce S6, R1 of Long Eyes in red-watch: 6 − "
        "range 1 − desert 0 = 5, halved against stealth (p.27)) rolled [5, 2] = 1 success; "
        "detection 5 = 5 (Stealth 5, the lowest in the army (p.27; R7)) rolled [6, 5, 4, 1, 1] = "
        "3 successes: stays hidden (ties stay hidden, R7)",
    ]
    # neither side's view shows the check, nor red the army
    red, blue = t.view("red"), t.view("blue")
    assert set(red["armies"]) == {"red-watch", "red-hold-garrison"}
    assert red["sightings"] == {"red": {}} and blue["sightings"] == {"blue": {}}
    for view in (red, blue):
        assert "Recce S6" not in json.dumps(view["sightings"]) and "checks" not in view
    # in the log, the dice and the checks are sealed for both; what red found, for red alone
    for player in ("red", "blue"):
        shown = {e["seq"]: e["data"] for e in t.events("--as", player)}
        assert shown[checked["seq"]]["checks"].keys() == {"sealed"}
        assert shown[checked["seq"] - 1]["faces"].keys() == {"sealed"}
        seen = shown[checked["seq"] + 1]["seen"]
        assert seen.keys() == ({"sealed", "value", "salt"} if player == "red" else {"sealed"})
    assert t.rule(checked["seq"], "--as", "red") == [
        "(withheld: this event holds values sealed from you)"
    ]
    assert "no findings" in t.ok("audit", "p27")
