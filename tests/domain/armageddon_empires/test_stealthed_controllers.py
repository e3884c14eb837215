"""A Forward Air Controller that an Air-To-Ground pool leaves out because its army is stealthed
(AE-42) is recorded with the challenge's opening since version 20, sealed for the striker, and
explained to it and to a referee; the defender learns nothing of it.

Red's hawk strikes blue-a's Test Plate at 3,2 (``air_helpers``' skies); red's Spotter Team
(a Forward Air Controller) stands there in red-eyes, stealthed. Non-interference: games of a
custom scenario whose set-up is hidden, begun with the same key and played with the same
commands (auto dice), that differ only in red's stealthed army — in the hex, in the hex under
another id, elsewhere, or none — give blue the same answers (``test_non_interference.reads``:
its feed, its views after every event, its legal commands, the replay, ``explain`` of every
event and its Events view; and the exported rows), every 64-hex digest blinded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.domain.armageddon_empires.air_helpers import (
    AIR_CARDS,
    BASES,
    ROWS,
    SPOTTER_CARD,
    SPOTTERS,
    empires,
    launch,
    skies,
    spotters,
)
from tests.domain.armageddon_empires.helpers import army_block, begun, only, toml
from tests.domain.armageddon_empires.test_non_interference import KEY, reads
from tests.given_when_then import Given
from tests.test_verifier import run as verify_run
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.exchange import export_line
from warlog.domain import rulesets
from warlog.domain.armageddon_empires.challenge_events import ChallengeOpened, StealthedController
from warlog.domain.armageddon_empires.commands import PlayAttackCard
from warlog.domain.armageddon_empires.sighting_events import StealthDropped
from warlog.domain.core.seal import secrets_of
from warlog.fuzz.noninterference import blinded
from warlog.projections.replay import WITHHELD

LEFT_OUT = (
    "Forward Air Controller red.spotter.1 in the stealthed army red-eyes does not count: a "
    "stealthed army does not give itself away (p.46; AE-42)"
)


def opening(g: Given, dice: int) -> ChallengeOpened:
    """Red's hawk strikes a unit of blue-a, blue holding its fire: the Air-To-Ground opening."""
    events = launch(
        g, PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit"), dice=[1] * dice
    )
    return only(events, ChallengeOpened)


def test_version_20_records_and_explains_the_controller_its_stealthed_army_leaves_out() -> None:
    # given red's Spotter Team stealthed in blue-a's hex
    g = skies(["hawk"], [], more=SPOTTERS)
    # when the hawk strikes blue-a
    opened = opening(g, 5)
    # then the pool is the hawk's attack alone, as since version 14 ...
    assert [t.value for t in opened.challenge.attacker.pool.terms] == [4]
    # ... and the opening records the controller left out, and its army, sealed for red
    assert opened.stealthed_controllers == (StealthedController("red.spotter.1", "red-eyes"),)
    assert secrets_of(opened, version=20) == [("stealthed_controllers", "red")]
    assert opened.explain().splitlines()[-1] == LEFT_OUT
    # and blue, to whom it stays sealed, is told the challenge as before
    without = opened.explain_sealed(frozenset({"stealthed_controllers"}))
    assert without == opened.explain().removesuffix(f"\n{LEFT_OUT}")
    assert opened.explain_sealed(frozenset({"challenge.attacker"})) is None


@pytest.mark.parametrize("controllers", ["counted", "none"])
def test_version_20_records_the_field_empty_when_no_controller_is_left_out(
    controllers: str,
) -> None:
    # given red's Spotter Team in the hex with its army out of stealth, or no controller at all
    g = skies(["hawk"], [], more=SPOTTERS if controllers == "counted" else "")
    if controllers == "counted":
        g.events(StealthDropped(empire="red", army="red-eyes", ap_cost=0))
    # when the hawk strikes blue-a
    opened = opening(g, 8 if controllers == "counted" else 5)
    # then the field is there, empty, and sealed all the same: its presence tells nothing
    assert opened.stealthed_controllers == ()
    assert "stealthed_controllers" in json.loads(msgspec.json.encode(opened))
    assert secrets_of(opened, version=20) == [("stealthed_controllers", "red")]
    assert "does not count" not in opened.explain()


def test_version_19_records_nothing_new() -> None:
    # given the same strike in a game of version 19
    g = skies(["hawk"], [], more=SPOTTERS, version=19)
    # when the hawk strikes blue-a
    opened = opening(g, 5)
    # then its opening is as version 19 wrote it: the challenge alone, nothing sealed
    assert opened.stealthed_controllers is msgspec.UNSET
    assert list(json.loads(msgspec.json.encode(opened))) == ["type", "challenge"]
    assert msgspec.json.encode(opened) == msgspec.json.encode(
        ChallengeOpened(challenge=opened.challenge)
    )
    assert secrets_of(opened, version=19) == []
    assert "does not count" not in opened.explain()


# ---------------------------------------------------------------------- in a hidden set-up

#: a Recce of red's beside blue-a, from which it sights blue-a at the round's start
FAR_EYE = """
[[cards]]
kind = "unit"
id = "far-eye"
name = "Test Far Eye"
attack = 1
defense = 1
hit_points = 2
movement = 2
abilities = ["Recce S9, R3"]
"""
ARMIES = army_block("blue-a", "blue", "3,2", units=("plate",)) + army_block(
    "red-a", "red", "2,2", units=("far-eye",)
)

THERE = spotters()
TWINS = {
    "in the hex under another id": spotters("red-owl", "3,2"),
    "elsewhere": spotters("red-eyes", "7,4"),
    "none": "",
}


def struck(tmp: Path, red: str, version: str | None = None) -> Arbiter:
    """The game ``ni`` of red's ``red`` armies, its set-up hidden, key ``KEY``, auto dice, begun
    under ``version`` (default: this one): no
    initiative bought (blue ends its turn if it has the first), then red's hawk strikes a unit
    of blue-a (sighted at the round's start), blue fires nothing from the ground, and every
    side of the Air-To-Ground challenge accepts."""
    text = toml(
        ROWS,
        armies=AIR_CARDS + SPOTTER_CARD + FAR_EYE + ARMIES + red,
        bases=BASES.replace("{garrison}", "[]"),
        empires=empires(["hawk"], []),
        resources="",
        public_setup=False,
    )
    arb = begun(tmp / f"{abs(hash(red)) % 10**6}-{version}", text, KEY, version, dice="auto")
    for player in ("red", "blue"):
        arb.play("ni", json.dumps({"type": "buy_initiative", "player": player, "count": 0}))
    if arb.view("ni")["state"]["current"] == "blue":
        arb.play("ni", json.dumps({"type": "end_turn", "player": "blue"}))
    hand = arb.view("ni", None, "red")["state"]["empires"]["red"]["hand"]
    hawk = next(c for c in hand if c.startswith("red.hawk."))  # numbered at random (AE-62)
    strike = {"type": "play_attack_card", "player": "red", "card": hawk, "at": "3,2"}
    arb.play("ni", json.dumps({**strike, "aim": "unit"}))
    arb.play("ni", json.dumps({"type": "ground_to_air_challenge", "player": "blue"}))
    while (state := arb.view("ni")["state"])["awaited"] == "challenge":
        accept = {"type": "accept_challenge", "player": state["active"][0]}
        arb.play("ni", json.dumps(accept))
    return arb


def opened_at(arb: Arbiter) -> int:
    """The seq of the game's Air-To-Ground opening."""
    (seq,) = [r.seq for r in arb.export_records("ni") if r.type == "challenge_opened"]
    return seq


def blue_outputs(arb: Arbiter) -> dict[str, str]:
    """What blue is given, each as the text it is handed, every 64-hex digest blinded."""
    rows = [json.loads(export_line(r)) for r in arb.export_records("ni")]
    return {
        "every read": blinded(json.loads(reads(arb, "blue"))),
        "the exported rows": blinded(rows),
    }


@pytest.mark.parametrize("twin", sorted(TWINS))
def test_blue_reads_the_same_whatever_stealthed_controllers_red_has(
    tmp_path: Path, twin: str
) -> None:
    there, other = struck(tmp_path, THERE), struck(tmp_path, TWINS[twin])
    # the games differ, for red: its own opening names the controller in one only
    assert reads(there, "red") != reads(other, "red")
    # and nothing blue is given differs
    assert blue_outputs(there) == blue_outputs(other)


def test_the_striker_and_a_referee_read_why_the_controller_did_not_count(tmp_path: Path) -> None:
    arb = struck(tmp_path, THERE)
    seq = opened_at(arb)
    spotter = next(
        u for u in arb.view("ni", None, "red")["state"]["armies"]["red-eyes"]["units"]
    )  # numbered at random (AE-62)
    line = (
        f"Forward Air Controller {spotter} in the stealthed army red-eyes does not count: a "
        "stealthed army does not give itself away (p.46; AE-42)"
    )
    red, referee, blue = (arb.explain("ni", seq, p) for p in ("red", None, "blue"))
    assert red["rule"].splitlines()[-1] == line and referee["rule"] == red["rule"]
    assert red["data"]["stealthed_controllers"]["value"] == [{"card": spotter, "army": "red-eyes"}]
    # blue is told the challenge as before, without the line, and sees the value sealed
    assert blue["rule"] != WITHHELD
    assert blue["rule"] == red["rule"].removesuffix(f"\n{line}")
    assert list(blue["data"]["stealthed_controllers"]) == ["sealed"]
    assert blue["procedure"] == red["procedure"] == {"name": "challenge 1", "began": seq}


def test_a_revealed_version_20_game_audits_clean_and_re_derives_the_controllers(
    tmp_path: Path,
) -> None:
    arb = struck(tmp_path, THERE, "20")
    arb.reveal("ni")
    auditor = audit_records(arb.export_records("ni"), rulesets.get)
    assert auditor.findings == [] and auditor.revealed
    assert auditor.rules == "armageddon-empires version 20"
    assert not auditor.proved.rules_stopped_at
    rows: list[dict[str, Any]] = [json.loads(export_line(r)) for r in arb.export_records("ni")]
    (opened,) = [r["data"] for r in rows if r["type"] == "challenge_opened"]
    assert [c["army"] for c in opened["stealthed_controllers"]["value"]] == ["red-eyes"]
    export = tmp_path / "v20.jsonl"
    export.write_text("".join(export_line(r) + "\n" for r in arb.export_records("ni")))
    verified = verify_run(export)
    assert verified.returncode == 0, verified.stdout
    assert ", 0 seals still closed" in verified.stdout


def test_version_20_records_every_left_out_controller_in_the_hex_and_none_elsewhere() -> None:
    # given two stealthed armies of red's, each with a Spotter Team, in blue-a's hex (3,2), and
    # two more of red's Spotter Teams at 7,4, one stealthed and one not
    elsewhere = spotters("red-far", "7,4") + army_block(
        "red-open", "red", "7,4", units=("spotter",)
    )
    g = skies(["hawk"], [], more=SPOTTERS + spotters("red-owl", "3,2") + elsewhere)
    # when the hawk strikes blue-a
    opened = opening(g, 5)
    # then the pool is the hawk's attack alone: no controller of the hex counts, none elsewhere
    assert [t.value for t in opened.challenge.attacker.pool.terms] == [4]
    # and both controllers the hex's stealth leaves out are recorded, in the armies' order, each
    # explained; neither of those at 7,4
    assert [s.army for s in opened.stealthed_controllers] == ["red-eyes", "red-owl"]
    assert [line for line in opened.explain().splitlines() if "does not count" in line] == [
        s.text() for s in opened.stealthed_controllers
    ]


def test_the_opening_is_told_to_the_defender_only_when_the_controllers_alone_are_sealed() -> None:
    # given a version-20 opening
    opened = opening(skies(["hawk"], [], more=SPOTTERS), 5)
    # then sealed values other than the controllers, alone or beside them, withhold the rule
    both = frozenset({"stealthed_controllers", "challenge.attacker"})
    assert opened.explain_sealed(both) is None
    assert opened.explain_sealed(frozenset()) is None
    assert opened.explain_sealed(frozenset({"stealthed_controllers"})) is not None


def test_the_defender_is_not_pointed_at_the_sealed_launch_that_began_the_strike(
    tmp_path: Path,
) -> None:
    # given red's hawk launched from a place sealed for red (version 12 on), then its target
    # picked in the open
    arb = struck(tmp_path, THERE)
    types = {r.type: r.seq for r in arb.export_records("ni")}
    launched, picked = types["air_strike_launched_sealed"], types["air_target_picked"]
    # when red and blue ask why the target was picked
    red, blue = (arb.explain("ni", picked, p) for p in ("red", "blue"))
    # then both read the rule; red is pointed at the launch, blue, from whom it is withheld, not
    assert red["procedure"] == {"name": "air strike 1", "began": launched}
    assert blue["rule"] == red["rule"] != WITHHELD
    assert arb.explain("ni", launched, "blue")["rule"] == WITHHELD
    assert "procedure" not in blue


def test_a_referee_s_replay_withholds_nothing_and_a_command_says_where_its_rules_are(
    tmp_path: Path,
) -> None:
    # given the struck game; when the referee replays it
    steps = list(struck(tmp_path, THERE).replay("ni", 1, None, None))
    # then no step is withheld, and a command's says it is a player's order, whose rules are
    # cited on the events it caused
    assert WITHHELD not in [s["explain"] for s in steps]
    orders = [s for s in steps if s["type"] == "command_issued"]
    assert orders and all(
        s["explain"]
        == f"{s['data']['player']}'s order ({s['data']['command']['type']}): a command is a "
        "player's order, not a rule; the rules that decide it are cited on the events it "
        "caused, the rest of its batch"
        for s in orders
    )
