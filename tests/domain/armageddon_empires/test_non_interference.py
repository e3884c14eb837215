"""Non-interference (AE-7, AE-17, AE-20): two games that differ only in blue's secrets (where its
stealthed army stands and goes, which cards its hand holds) give red byte-identical answers from
every read a player has: its events, its view at every seq, its legal commands, its replay, the
explanation of every event and its Events-view tab.

Both games are played through the application with the same key, clock and commands (manual
dice: the referee's faces, sealed for every player). A seal's hash differs where the sealed
values differ; it tells nothing to whoever lacks the key (a salted commitment, docs/log-format.md),
so the comparison replaces each closed seal, and the chain hashes over them, by a placeholder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.domain.armageddon_empires.arena import toml
from tests.domain.armageddon_empires.helpers import PICK, army_block, begun
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.reports import legal_report
from warlog.domain import rulesets
from warlog.domain.armageddon_empires.costs import HUNT_HERO_AP
from warlog.domain.core.errors import InputError, WarlogError
from warlog.domain.core.seal import is_seal
from warlog.eventstore.memory_store import MemoryStore

KEY = bytes(range(32))

#: red's hunters next to blue's hero alone (fate 0: only a tactic card could help it)
NEAR = army_block("red-hunt", "red", "1,1", units=("trooper", "eye")) + army_block(
    "blue-pawn", "blue", "2,1", hero="pawn"
)

#: blue's hands: tactic cards, or none (the same size)
HANDS = {
    "tactics": '["t-fate", "t-again"]',
    "units": '["trooper", "trooper"]',
}

#: where blue's stealthed army may stand and where it goes: out of red's sight, in the far east
GHOST_MOVES = [("5,0", "6,0"), ("6,1", "5,1"), ("5,2", "6,2"), ("4,0", "5,0"), ("6,2", "6,1")]


def empires(hand: str) -> str:
    return f"""
[[empires]]
id = "red"
name = "Red"
hand = ["t-dice"]

[[empires]]
id = "blue"
name = "Blue"
hand = {hand}
"""


def commands(ghost_to: str) -> list[dict[str, Any]]:
    """The same script in every variant but blue's move of its stealthed army (sealed)."""
    return [
        {"type": "buy_initiative", "player": "red", "count": 0},
        # the initiative tie-break, then red's check of blue-pawn (3 dice against 3)
        {"type": "buy_initiative", "player": "blue", "count": 0, "dice": [6, 1, 6, 6, 6, 1, 1, 1]},
        {"type": "move_army", "player": "red", "army": "red-hunt", "to": "2,1"},
        # the hunt's hidden pick (AE-21), then, as the challenge waits for it (AE-37), red's
        # roll: hunter 1 + 2 // 2 + (5 − 0 − 1) = 6 dice; the pawn: fate 0, no dice
        {"type": "hunt_hero", "player": "red", "army": "red-hunt", "dice": PICK},
        {"type": "roll", "player": "red", "dice": [6, 5, 4, 1, 1, 1]},
        {"type": "accept_challenge", "player": "blue"},
        {"type": "accept_challenge", "player": "red"},
        {"type": "end_turn", "player": "red"},
        {"type": "move_army", "player": "blue", "army": "blue-ghost", "to": ghost_to},
        {"type": "end_turn", "player": "blue"},
        {"type": "buy_initiative", "player": "red", "count": 0},
        {"type": "buy_initiative", "player": "blue", "count": 0, "dice": [6, 1]},
    ]


def played(tmp: Path, ghost: tuple[str, str], hand: str) -> Arbiter:
    """A game of the variant, played through the application."""
    armies = NEAR + army_block("blue-ghost", "blue", ghost[0], units=("wisp",))
    folder = tmp / f"{ghost[0]}-{len(hand)}-{hash(hand) % 1000}"
    folder.mkdir(exist_ok=True)
    path = folder / "ni.toml"  # the scenario's name is the file's: the same in every variant
    path.write_text(toml(armies + "stealthed = true\n", empires=empires(hand)), encoding="utf-8")
    arb = Arbiter(
        MemoryStore(), rulesets.get, clock=lambda: "2026-01-01T00:00:00.000Z", seeds=lambda: KEY
    )
    arb.new_game("armageddon-empires", str(path), game="ni", dice="manual")
    for command in commands(ghost[1]):
        arb.play("ni", json.dumps(command))
    return arb


def closed(value: Any) -> Any:
    """``value`` with every closed seal replaced by a placeholder (opened ones kept)."""
    if is_seal(value) and len(value) == 1:
        return {"sealed": "…"}
    if isinstance(value, dict):
        return {k: closed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [closed(v) for v in value]
    return value


def reads(arb: Arbiter, player: str) -> str:
    """Everything ``player`` may read of the game, as one JSON text."""
    head, _ = arb.head("ni")
    out: dict[str, Any] = {
        "records": [
            {"seq": r.seq, "type": r.type, "at": r.at, "data": closed(json.loads(r.data))}
            for r in arb.records_as("ni", player)
        ],
        "views": [arb.view("ni", at=seq, player=player) for seq in range(1, head + 1)],
        "legal": arb.legal("ni", player),
        "replay": [closed(step) for step in arb.replay("ni", player=player)],
        "explain": [closed(arb.explain("ni", seq, player)) for seq in range(1, head + 1)],
        "events_view": [
            [entry.seq, entry.round, entry.duration, entry.text]
            for entry in arb.events_view("ni", player).tabs(player, show_all=True)[player]
        ],
    }
    return json.dumps(out, sort_keys=True, ensure_ascii=False, default=str)


def test_red_reads_the_same_whatever_blue_s_stealthed_army_and_hand_are(tmp_path: Path) -> None:
    base = played(tmp_path, GHOST_MOVES[0], HANDS["tactics"])
    other = played(tmp_path, GHOST_MOVES[1], HANDS["units"])
    # the games do differ, for the referee and for blue
    assert reads(base, "blue") != reads(other, "blue")
    assert base.view("ni")["state"]["armies"]["blue-ghost"]["at"] == "6,0"
    # and red's reads do not
    red = reads(base, "red")
    assert red == reads(other, "red")
    assert "blue-ghost" not in red and "blue.wisp" not in red
    # blue was asked to answer the hunt in both games, though it held no tactic card in one
    kinds = [
        json.loads(r.data) for r in base.records_as("ni", "red") if r.type == "challenge_accepted"
    ]
    assert [k["automatic"] for k in kinds] == [False, False]


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    ghost=st.sampled_from(GHOST_MOVES[1:]),
    hand=st.sampled_from(sorted(HANDS.values())),
)
def test_non_interference_for_any_hidden_position_and_hand(
    tmp_path: Path, ghost: tuple[str, str], hand: str
) -> None:
    base = reads(played(tmp_path, GHOST_MOVES[0], HANDS["tactics"]), "red")
    assert reads(played(tmp_path, ghost, hand), "red") == base


#: red's hunters share badlands 2,1 with blue's hero alone and two stealthed blue armies
SHARED_HEX = (
    army_block("red-hunt", "red", "2,1", units=("trooper", "eye"))
    + army_block("blue-pawn", "blue", "2,1", hero="pawn")
    + army_block("blue-ghost", "blue", "2,1", units=("wisp", "wisp"))
    + "stealthed = true\n"
    + army_block("blue-shade", "blue", "2,1", units=("wisp",))
    + "stealthed = true\n"
)

#: blue goes first (the tie-break), then red's round checks: the stealthed armies stay hidden
#: (2 dice halved against stealth, all failures), the pawn is seen (4 successes against 0)
ROUND_ONE = [
    *(1, 6),  # the tie-break
    *(1, 1, 6, 6, 6, 6),  # blue-ghost
    *(6, 6, 6, 6, 1, 1, 1),  # blue-pawn
    *(1, 1, 6, 6, 6, 6),  # blue-shade
]


def joined(tmp: Path, receiver: str, version: str | None = None) -> Arbiter:
    """Blue moves a stealthed wisp, sealed for red, into ``receiver``: its hero alone
    (``blue-pawn``, which then holds a unit) or its other stealthed army (``blue-shade``).
    ``version``: the game begun under that version of the rules (default: this one's)."""
    text = toml(SHARED_HEX, empires=empires('["trooper"]'))
    arb = begun(tmp / f"{receiver}-{version}", text, KEY, version)
    for command in [*wisp_into(receiver), {"type": "end_turn", "player": "blue"}]:
        arb.play("ni", json.dumps(command))
    return arb


def wisp_into(receiver: str) -> list[dict[str, Any]]:
    """Round one's initiative bought (blue first, ``ROUND_ONE``), then blue's stealthed wisp
    moved from blue-ghost into ``receiver``: sealed for red."""
    return [
        {"type": "buy_initiative", "player": "red", "count": 0},
        {"type": "buy_initiative", "player": "blue", "count": 0, "dice": ROUND_ONE},
        {
            "type": "transfer_cards",
            "player": "blue",
            "from_army": "blue-ghost",
            "to_army": receiver,
            "cards": ["blue.wisp.1"],
        },
    ]


def refusal(arb: Arbiter, command: dict[str, Any]) -> str:
    try:
        arb.play("ni", json.dumps(command))
    except WarlogError as exc:
        return f"{exc.code}: {exc}"
    raise AssertionError(f"{command} was accepted")


def test_a_hunter_cannot_tell_that_units_secretly_joined_the_hero_it_saw_alone(
    tmp_path: Path,
) -> None:
    """Issue 10's leak (AE-38): a hunter in the hex of a hero it saw alone is offered the same
    hunt, refused the same commands and shown the same game whether or not stealthed units
    joined the hero since; only the hunt itself then finds out."""
    secret = joined(tmp_path, "blue-pawn")
    decoy = joined(tmp_path, "blue-shade")
    assert secret.state("ni").armies["blue-pawn"].units == ("blue.wisp.1",)
    assert decoy.state("ni").armies["blue-pawn"].units == ()
    assert reads(secret, "red") == reads(decoy, "red")
    assert {"type": "hunt_hero", "player": "red", "army": "red-hunt"} in secret.legal("ni", "red")
    for command in [
        {"type": "assault", "player": "red", "army": "red-hunt"},
        {"type": "hunt_hero", "player": "red", "army": "red-hunt", "target": "blue.pawn.1"},
        {"type": "move_army", "player": "red", "army": "red-hunt", "to": "2,1"},
    ]:
        assert refusal(secret, command) == refusal(decoy, command)
    # the hunt: the decoy's hero is hunted; the secret's hunt is foiled and red sees the unit
    hunt = {"type": "hunt_hero", "player": "red", "army": "red-hunt", "dice": PICK}
    foiled = [e.type for e in secret.play("ni", json.dumps(hunt))]
    hunted = [e.type for e in decoy.play("ni", json.dumps(hunt))]
    assert "hunt_foiled" in foiled and "capture_kill_began" not in foiled
    assert "capture_kill_began" in hunted
    assert "challenge_opened" in [e.type for e in decoy.play("ni", ROLL_HUNTERS)]
    assert secret.view("ni", player="red")["state"]["armies"]["blue-pawn"]["units"]


#: red's roll of its hunt's challenge, which waits after the hidden pick (AE-37): hunter 1 +
#: 2 // 2 + (5 − 0 − 1) = 6 dice, the pawn's fate 0
ROLL_HUNTERS = json.dumps({"type": "roll", "player": "red", "dice": [6, 5, 4, 1, 1, 1]})


def referee_plays(tmp: Path, ghost: tuple[str, str]) -> Arbiter:
    """The variant played as a referee does: each command first without its dice, then, told
    how many it needs, with the script's faces padded by 1s (every hidden check fails)."""
    armies = NEAR + army_block("blue-ghost", "blue", ghost[0], units=("wisp",))
    folder = tmp / f"referee-{ghost[0]}-{ghost[1]}"
    folder.mkdir()
    path = folder / "ni.toml"
    path.write_text(toml(armies + "stealthed = true\n", empires=empires(HANDS["units"])), "utf-8")
    arb = Arbiter(
        MemoryStore(), rulesets.get, clock=lambda: "2026-01-01T00:00:00.000Z", seeds=lambda: KEY
    )
    arb.new_game("armageddon-empires", str(path), game="ni", dice="manual")
    for command in commands(ghost[1]):
        faces = list(command.pop("dice", []))
        typed: list[int] = []
        for _ in range(4):  # how many can depend on the faces typed (re-rolls): ask again
            try:
                arb.play("ni", json.dumps({**command, "dice": typed}))
                break
            except InputError as told:  # "this command needs N dice …"
                assert told.code == "input/dice_count"
                needed = int(str(told).split(" needs ")[1].split()[0])
                typed = (faces + [1] * needed)[:needed]
        else:
            raise AssertionError(f"no count of dice settled for {command}")
    return arb


def test_whether_the_referee_typed_dice_for_blue_s_move_tells_red_nothing(tmp_path: Path) -> None:
    """Given a manual-dice game, when blue's stealthed army ends its move where red's armies
    may check it (the referee types 6 dice, all failing) or out of their reach (no dice), then
    red's reads are the same: the log records every manual command's dice sealed, none too."""
    unseen = referee_plays(tmp_path, ("5,0", "6,0"))
    checked = referee_plays(tmp_path, ("4,0", "3,1"))
    moves = [
        json.loads(r.data)["command"]
        for r in checked.records_as("ni", None)
        if r.type == "command_issued" and "blue-ghost" in r.data
    ]
    assert len(moves[0]["dice"]["value"]) == 6  # the referee did roll for a hidden check
    assert reads(unseen, "red") == reads(checked, "red")
    # and the dice red's legal commands need are told to the referee only
    assert legal_report(unseen, "ni", "red") == legal_report(checked, "ni", "red")
    assert legal_report(checked, "ni", None).dice


def test_a_foiled_hunt_tells_the_hunted_empire_nothing_of_the_hunter_s_army_or_its_hero(
    tmp_path: Path,
) -> None:
    """Given red's hunt of the hero it saw alone, foiled because units joined him unseen, then
    in blue's form of the log the hunt names neither the hunting army, nor its hex, nor the
    hero, nor what red now sees (AE-38, since version 12): blue learns only that a hunt of
    red's was foiled. Red, the hunter, reads them all."""
    secret = joined(tmp_path, "blue-pawn")
    head, _ = secret.head("ni")
    hunt = {"type": "hunt_hero", "player": "red", "army": "red-hunt", "dice": PICK}
    secret.play("ni", json.dumps(hunt))
    as_blue = {r.type: json.loads(r.data) for r in secret.records_as("ni", "blue", head + 1)}
    command = as_blue["command_issued"]["command"]
    assert command["army"].keys() == command["target"].keys() == {"sealed"}  # since 23, AE-38
    foiled = as_blue["hunt_foiled"]
    assert {k for k, v in foiled.items() if isinstance(v, dict) and v.keys() == {"sealed"}} == {
        "army",
        "at",
        "target",
        "target_army",
        "seen",
    }
    assert (foiled["hunter"], foiled["ap_cost"]) == ("red", HUNT_HERO_AP)
    as_red = {r.type: json.loads(r.data) for r in secret.records_as("ni", "red", head + 1)}
    assert (as_red["hunt_foiled"]["army"]["value"], as_red["hunt_foiled"]["at"]["value"]) == (
        "red-hunt",
        "2,1",
    )


def test_a_game_of_version_11_keeps_its_rules_the_foiled_hunt_in_the_clear(tmp_path: Path) -> None:
    secret = joined(tmp_path, "blue-pawn", version="11")
    head, _ = secret.head("ni")
    secret.play("ni", json.dumps({"type": "hunt_hero", "player": "red", "army": "red-hunt"}))
    as_blue = {r.type: json.loads(r.data) for r in secret.records_as("ni", "blue", head + 1)}
    assert as_blue["command_issued"]["command"]["army"] == "red-hunt"
    assert (as_blue["hunt_foiled"]["army"], as_blue["hunt_foiled"]["at"]) == ("red-hunt", "2,1")


@pytest.mark.parametrize("version", [None, "11"])
def test_a_foiled_hunt_audits_clean_under_the_version_it_was_played_by(
    tmp_path: Path, version: str | None
) -> None:
    """The seals a version began to put on (``Hidden.since``) are checked where the game's
    version puts them: the referee's log of either version audits clean."""
    secret = joined(tmp_path, "blue-pawn", version=version)
    hunt = {"type": "hunt_hero", "player": "red", "army": "red-hunt"}
    secret.play("ni", json.dumps(hunt if version else {**hunt, "dice": PICK}))
    report = audit_records(secret.export_records("ni", opened=True), rulesets.get)
    assert report.findings == []
    assert report.proved.batches_rederived > 0
