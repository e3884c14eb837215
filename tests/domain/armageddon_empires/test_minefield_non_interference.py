"""Non-interference of minefields (AE-53): two games that differ only in one side's secrets give
the other side byte-identical answers from every read a player has (events, views at every
seq, legal commands, replay, explain, Events view; ``test_non_interference.reads``).

- Red, the mover, cannot tell where blue's camouflaged minefield lies when its army walks past
  it, nor how much damage the minefield had when its army walks into it.
- Blue, the minefield's empire, cannot tell where red's army went, nor what it holds, when the
  army stays out of the minefield.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.domain.armageddon_empires.helpers import toml
from tests.domain.armageddon_empires.test_minefields import FAR, MINE_CARDS, army, minefield
from tests.domain.armageddon_empires.test_non_interference import KEY, reads
from warlog.arbiter.application import Arbiter
from warlog.domain import rulesets
from warlog.eventstore.memory_store import MemoryStore

#: the minefield's challenges when red's runner and two sprinters walk into it: the runner is
#: wounded 2 (killed), the sprinters take nothing; 2 base damage, which does not remove a
#: minefield of 4 structure points that had 0 or 1 damage before
INTO = [6, 6, 6, 1, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6, 6]


def played(
    tmp: Path, mine_at: str, damage: int, to: str, units: tuple[str, ...], dice: list[int]
) -> Arbiter:
    """Red's army of the runner and ``units`` at 1,0 moves to ``to`` in a game where blue's
    minefield with ``damage`` lies at ``mine_at``; both empires then end their turns."""
    folder = tmp / f"{mine_at}-{damage}-{to}-{len(units)}"
    folder.mkdir()
    path = folder / "ni.toml"  # the scenario's name is the file's: the same in every variant
    armies = army("red-col", "red", "1,0", "runner", *units) + FAR
    path.write_text(
        toml(armies=MINE_CARDS + armies + minefield("blue-mines", "blue", mine_at, damage)),
        encoding="utf-8",
    )
    move = {"type": "move_army", "player": "red", "army": "red-col", "to": to, "dice": dice}
    return red_turn(path, move)


def red_turn(path: Path, command: dict[str, object]) -> Arbiter:
    """A game of the scenario at ``path`` where both buy no initiative dice and red goes first,
    issues ``command`` and ends its turn; then blue ends its turn."""
    arb = Arbiter(
        MemoryStore(), rulesets.get, clock=lambda: "2026-01-01T00:00:00.000Z", seeds=lambda: KEY
    )
    arb.new_game("armageddon-empires", str(path), game="ni", dice="manual")
    for step in [
        {"type": "buy_initiative", "player": "red", "count": 0},
        {"type": "buy_initiative", "player": "blue", "count": 0, "dice": [6, 1]},
        command,
        {"type": "end_turn", "player": "red"},
        {"type": "end_turn", "player": "blue"},
    ]:
        arb.play("ni", json.dumps(step))
    return arb


def test_the_mover_reads_the_same_wherever_the_minefield_it_walks_past_lies(
    tmp_path: Path,
) -> None:
    pair = ("sprinter", "sprinter")
    one = played(tmp_path, "3,2", 0, "5,0", pair, [])
    other = played(tmp_path, "5,3", 1, "5,0", pair, [])
    assert one.view("ni")["state"]["minefields"]["blue-mines"]["at"] == "3,2"
    assert reads(one, "blue") != reads(other, "blue")
    red = reads(one, "red")
    assert red == reads(other, "red")
    assert "blue-mines" not in red and "blue.mines.1" not in red


def test_the_mover_reads_the_same_whatever_damage_the_minefield_it_walked_into_had(
    tmp_path: Path,
) -> None:
    pair = ("sprinter", "sprinter")
    fresh = played(tmp_path, "3,0", 0, "5,0", pair, INTO)
    worn = played(tmp_path, "3,0", 1, "5,0", pair, INTO)
    assert fresh.view("ni")["state"]["damage"]["blue.mines.1"] == 2
    assert worn.view("ni")["state"]["damage"]["blue.mines.1"] == 3
    assert reads(fresh, "blue") != reads(worn, "blue")
    red = reads(fresh, "red")
    assert red == reads(worn, "red")
    # red did learn the minefield and what it did to its army
    assert "blue-mines" in red and "red.runner.1" in red


def test_the_minefield_s_empire_reads_the_same_wherever_an_army_that_missed_it_went(
    tmp_path: Path,
) -> None:
    one = played(tmp_path, "3,0", 0, "2,1", ("sprinter", "sprinter"), [])
    other = played(tmp_path, "3,0", 0, "1,2", ("sprinter",), [])
    assert one.view("ni")["state"]["armies"]["red-col"]["at"] == "2,1"
    assert reads(one, "red") != reads(other, "red")
    blue = reads(one, "blue")
    assert blue == reads(other, "blue")
    assert "red-col" not in blue
