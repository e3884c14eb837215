"""Non-interference of independent minefields (AE-67, since version 23): games that differ only
in their independent minefields (none, or one here or there, fresh or worn, of one card or a
stronger one) give each empire byte-identical outputs until an army of that empire walks into
one: its feed of ``game_created`` (the independent lists sealed for every player), the exported
row, its view as ``warlog state --as`` prints it, every read of ``test_non_interference.reads``
(records, views at every seq, legal commands, replay, explain, Events view), and the refusals of
the same orders; every 64-hex digest blinded (``test_hidden_setup.outputs_of``).

- Nobody walks in: neither empire can tell whether, where or how strong the minefields are.
- Red walks in: blue, which never does, still cannot tell.
- Red walked in and left, and blue's army then spent it: red cannot tell whether blue did.

The scenarios' set-up is hidden (AE-61..AE-64), as a custom scenario's is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.domain.armageddon_empires.helpers import begun, toml
from tests.domain.armageddon_empires.test_engineers import ARMIES as ENGINEERS
from tests.domain.armageddon_empires.test_engineers import EMPIRES
from tests.domain.armageddon_empires.test_hidden_setup import outputs_of
from tests.domain.armageddon_empires.test_independent_minefields import independent
from tests.domain.armageddon_empires.test_minefield_non_interference import INTO
from tests.domain.armageddon_empires.test_minefields import COLUMN, FAR, MINE_CARDS, army
from tests.domain.armageddon_empires.test_non_interference import KEY, reads, refusal
from warlog.arbiter.application import Arbiter
from warlog.fuzz.noninterference import blinded

#: a stronger minefield card than the test's ``mines`` (Minefield 5, structure 4)
HEAVY = """
[[cards]]
kind = "facility"
id = "heavy-mines"
name = "Test Heavy Mines"
defense = 0
structure = 6
abilities = ["Minefield 8"]
"""

#: the round's opening: no initiative bought, red first (the referee's tie-break dice)
OPENING = [
    {"type": "buy_initiative", "player": "red", "count": 0},
    {"type": "buy_initiative", "player": "blue", "count": 0, "dice": [6, 1]},
]


def game_of(tmp: Path, variant: str, armies: str, mines: str) -> Arbiter:
    """The game ``ni`` of a hidden set-up of ``armies`` and the independent ``mines``, begun
    through the application with the key ``KEY``, manual dice."""
    text = toml(armies=MINE_CARDS + HEAVY + armies + mines, empires=EMPIRES, public_setup=False)
    return begun(tmp / variant, text, KEY)


def played(arb: Arbiter, commands: list[dict[str, Any]]) -> Arbiter:
    for command in commands:
        arb.play("ni", json.dumps(command))
    return arb


def move(player: str, army_id: str, to: str, dice: list[int] | None = None) -> dict[str, Any]:
    return {"type": "move_army", "player": player, "army": army_id, "to": to, "dice": dice or []}


def end(player: str) -> dict[str, Any]:
    return {"type": "end_turn", "player": player}


#: orders an empire is refused alike whatever lies where: a lift by an army without an
#: Engineer, a lift where it knows of none, a move beyond its army's reach
REFUSED = {
    "red": [
        {"type": "lift_minefield", "player": "red", "army": "red-foot"},
        {"type": "lift_minefield", "player": "red", "army": "red-eng"},
        move("red", "red-foot", "7,0"),
    ],
    "blue": [
        {"type": "lift_minefield", "player": "blue", "army": "blue-a"},
        {"type": "lift_minefield", "player": "blue", "army": "blue-eng"},
        move("blue", "blue-a", "0,5"),
    ],
}


def given(arb: Arbiter, player: str) -> dict[str, Any]:
    """Everything ``player`` is given, and its refusals of ``REFUSED``."""
    return {**outputs_of(arb, player), "refused": [refusal(arb, c) for c in REFUSED[player]]}


#: the independent minefields of the first twins: none, a fresh one, a worn stronger one, two
ELSEWHERE = {
    "none": "",
    "fresh": independent("ridge", "3,2"),
    "strong": independent("crag", "5,3", damage=2, card="heavy-mines"),
    "two": independent("ridge", "4,4") + independent("crag", "2,2", card="heavy-mines"),
}


def test_neither_empire_can_tell_whether_where_or_how_strong_the_minefields_no_army_met_are(
    tmp_path: Path,
) -> None:
    # given twins that differ only in their independent minefields, off every army's road
    games = {
        name: played(
            game_of(tmp_path, name, ENGINEERS, mines),
            [
                *OPENING,
                move("red", "red-foot", "1,1"),
                end("red"),
                move("blue", "blue-a", "5,5"),
                end("blue"),
                *OPENING,
            ],
        )
        for name, mines in ELSEWHERE.items()
    }
    # the games do differ, for the referee
    states = {n: json.dumps(arb.view("ni")["state"]["minefields"]) for n, arb in games.items()}
    assert len(set(states.values())) == len(ELSEWHERE)
    # and nothing either empire is given does
    for player in ("red", "blue"):
        outputs = [given(arb, player) for arb in games.values()]
        assert all(out == outputs[0] for out in outputs[1:]), player
        assert "ridge" not in json.dumps(outputs[0]) and "crag" not in json.dumps(outputs[0])


def test_blue_cannot_tell_that_red_walked_into_an_independent_minefield(tmp_path: Path) -> None:
    # given twins with the ridge on red's road at 3,0, fresh or worn, or none
    twins = {"none": ("", []), "fresh": (independent("ridge", "3,0"), INTO)}
    twins["worn"] = (independent("ridge", "3,0", damage=1), INTO)
    games = {
        name: game_of(tmp_path, name, COLUMN + FAR, mines) for name, (mines, _) in twins.items()
    }
    # red's outputs are the same until its column walks in
    before = [given(played(arb, OPENING), "red") for arb in games.values()]
    assert before[0] == before[1] == before[2]
    # when red's column walks through 3,0 (into the ridge, which kills its runner)
    for name, arb in games.items():
        walk = [move("red", "red-col", "5,0", twins[name][1]), end("red"), end("blue"), *OPENING]
        played(arb, walk)
    assert games["fresh"].view("ni")["state"]["armies"]["red-col"]["at"] == "3,0"
    assert games["none"].view("ni")["state"]["armies"]["red-col"]["at"] == "5,0"
    assert given(games["none"], "red") != given(games["fresh"], "red")
    # then blue, which walked into none, is given the same in all three
    blue = [given(arb, "blue") for arb in games.values()]
    assert blue[0] == blue[1] == blue[2]
    assert "ridge" not in json.dumps(blue[0])


def test_red_cannot_tell_whether_blue_spent_the_independent_minefield_red_walked_into(
    tmp_path: Path,
) -> None:
    # given red's sapper walked into the ridge (1 structure point left) and out of it again
    runner = army("blue-col", "blue", "6,0", "runner")
    mines = independent("ridge", "3,0", damage=3)
    start = [
        *OPENING,
        move("red", "red-eng", "3,0"),
        end("red"),
        end("blue"),
        *OPENING,
        move("red", "red-eng", "2,0"),
        end("red"),
    ]
    # when blue's runner walks into it and spends it (5 − 0, killed there), or goes elsewhere
    orders = {"spent": move("blue", "blue-col", "3,0", [6] * 5 + [1])}
    orders["elsewhere"] = move("blue", "blue-col", "5,1")
    games = {
        name: played(
            game_of(tmp_path, name, ENGINEERS + runner, mines),
            [*start, order, end("blue"), *OPENING],
        )
        for name, order in orders.items()
    }
    ridge = {n: arb.view("ni")["state"]["minefields"]["ridge"] for n, arb in games.items()}
    assert ridge["spent"]["removed"] is True and "removed" not in ridge["elsewhere"]
    assert given(games["spent"], "blue") != given(games["elsewhere"], "blue")
    # then red, which still sees the ridge as it knew it, is given the same in both (AE-67)
    red = given(games["spent"], "red")
    assert red == given(games["elsewhere"], "red")
    assert games["spent"].view("ni", player="red")["state"]["minefields"]["ridge"]["at"] == "3,0"


def test_red_cannot_tell_whether_blue_walked_into_the_independent_minefield_red_knows(
    tmp_path: Path,
) -> None:
    # given red's sapper walked into the ridge and out of it again, and blue's runner far off
    runner = army("blue-col", "blue", "5,1", "runner")
    start = [
        *OPENING,
        move("red", "red-eng", "3,0"),
        end("red"),
        end("blue"),
        *OPENING,
        move("red", "red-eng", "1,1"),
        end("red"),
    ]
    # when blue's runner walks into the ridge and survives it (every die a 1), or goes elsewhere
    orders = {"walked in": move("blue", "blue-col", "3,0", [1] * 6)}
    orders["elsewhere"] = move("blue", "blue-col", "6,1")
    games = {
        name: played(
            game_of(tmp_path, name, ENGINEERS + runner, independent("ridge", "3,0")),
            [*start, order, end("blue"), *OPENING],
        )
        for name, order in orders.items()
    }
    assert games["walked in"].view("ni")["state"]["minefields"]["ridge"]["known_to"] == [
        "red",
        "blue",
    ]
    # then red's view of the ridge names red alone among those who know it, and red is given
    # the same in both (AE-67: what the other empire's armies did to it is that empire's)
    ridge = games["walked in"].view("ni", player="red")["state"]["minefields"]["ridge"]
    assert ridge["known_to"] == ["red"]
    assert given(games["walked in"], "red") == given(games["elsewhere"], "red")


#: red's lone runner at 1,0 and blue's scouts at 0,1, which sight it in the round's window
WATCHED = (
    army("red-run", "red", "1,0", "runner")
    + army("red-foot", "red", "0,4", None, "trooper")
    + army("blue-eye", "blue", "0,1", None, "scout", "scout")
    + army("blue-a", "blue", "6,5", None, "trooper")
)


def told(arb: Arbiter, player: str) -> str:
    """What ``player`` is told of the game: every read of ``reads`` (its records, its view
    after each event, which inside a batch is the batch's end, its replay, whose changes fall
    on batch ends, the explanation of each event, its Events view) and its view now."""
    return blinded({**json.loads(reads(arb, player)), "now": arb.view("ni", player=player)})


@pytest.mark.parametrize("version", [None, "24"], ids=["latest", "24"])
def test_blue_cannot_tell_that_the_army_it_lost_from_sight_was_destroyed_by_a_minefield(
    tmp_path: Path, version: str | None
) -> None:
    # given twins in which blue sights red's runner in the round's window (the tie-break, then
    # blue's checks of red's garrison and the runner, 2 dice each against 3)
    twins = {"ridge": (independent("ridge", "4,0"), [6] * 5 + [1]), "none": ("", [])}
    games = {}
    for name, (mines, faces) in twins.items():
        text = toml(armies=MINE_CARDS + WATCHED + mines, empires=EMPIRES, public_setup=False)
        arb = begun(tmp_path / name, text, KEY, version=version)
        sighted = {**OPENING[1], "dice": [6, 1] + [6, 6, 1, 1, 1] * 2}
        played(arb, [OPENING[0], sighted])
        assert "red-run" in arb.view("ni", player="blue")["state"]["armies"]
        # when the runner walks out of blue's sight to 4,0 (beyond its scouts' range: no check),
        # where the ridge kills it, or where there is none
        games[name] = played(arb, [move("red", "red-run", "4,0", faces)])
    assert "red-run" not in games["ridge"].view("ni")["state"]["armies"]
    assert games["none"].view("ni")["state"]["armies"]["red-run"]["at"] == "4,0"
    # then under version 25 blue is told the same of both: it lost the runner from its sight
    # (AE-17; AE-53, AE-67: what the minefield did is red's), and its views at every seq and
    # its replay show the runner gone at the end of the move's batch in both, not at the
    # minefield's check in one; version 24 listed it lost only when it walked on
    same = told(games["ridge"], "blue") == told(games["none"], "blue")
    assert same is (version is None)
    lost = [
        json.loads(r.data)["lost"]["value"]
        for r in games["ridge"].records_as("ni", "blue")
        if r.type == "armies_sighted" and json.loads(r.data)["observer"] == "blue"
    ]
    assert lost[-1] == ([] if version else ["red-run"])
