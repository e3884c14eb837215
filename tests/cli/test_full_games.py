"""Whole games through the CLI with manual dice, as a referee plays them: each command that rolls
is first refused with the number of dice it needs, then played with that many faces."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from warlog.arbiter.database import on_database
from warlog.cli.context import open_arbiter
from warlog.cli.main import cli

#: the key of every game here (sha256 of "full game 2"): Armageddon Empires ends in 237
#: commands with the faces below (other keys take up to 3,000)
KEY = bytes.fromhex("1f8fc0fbcb66b21c4c22b6976422e91910c6f340132b07b43863c36761daa7ff")


@pytest.mark.parametrize(
    "ruleset", ["armageddon-empires", "battle-for-armageddon", "heroic-battles"]
)
def test_a_whole_game_is_played_through_the_cli_with_a_referees_dice(
    ruleset: str, tmp_path: Path
) -> None:
    db = str(tmp_path / "w.db")
    runner = CliRunner()

    def warlog(*args: str) -> tuple[int, str, str]:
        result = runner.invoke(cli, ["--db", db, *args])
        return result.exit_code, result.stdout, result.stderr

    # the game's key deals the hands and decks: a fixed one makes the game the same on every run
    # (the referee's faces below are fixed too), and one that ends in a few hundred commands
    with on_database(db, create=True, seeds=lambda: KEY) as arb:
        arb.new_game(ruleset, game="table", dice="manual")
    faces = itertools.cycle([5, 2, 6, 1, 4, 3, 6, 6, 1, 2])
    for _ in range(3000):
        arbiter = open_arbiter(db)
        ruleset_obj = arbiter.ruleset_of("table")
        state = arbiter.state("table")
        if ruleset_obj.is_terminal(state):
            break
        player = ruleset_obj.active_players(state)[0]
        command = ruleset_obj.choose(state, player, ruleset_obj.legal_commands(state, player))
        text = msgspec.json.encode(command).decode()
        status, _, err = warlog("play", "table", text)
        thrown: list[int] = []  # the physical dice, thrown once each, in order
        for _attempt in range(8):  # how many dice a command rolls may depend on the faces
            if not (status == 1 and "input/dice_count" in err):
                break
            needed = int(re.search(r"needs (\d+) di(?:c)?e ", err).group(1))  # type: ignore[union-attr]
            sides = [int(s) for n, s in re.findall(r"(\d+) d(\d+)", err) for _ in range(int(n))]
            assert len(sides) == needed
            thrown += [next(faces) for _ in range(needed - len(thrown))]
            dice = [(face - 1) % s + 1 for face, s in zip(thrown, sides, strict=False)]
            status, _, err = warlog("play", "table", json.dumps({**json.loads(text), "dice": dice}))
        assert status == 0, err
    assert ruleset_obj.is_terminal(arbiter.state("table"))
    status, out, _ = warlog("audit", "table")
    assert status == 0 and "no findings" in out  # before the reveal: any deal the key derives
    assert warlog("reveal", "table", "--yes")[0] == 0  # is not checked yet (AE's hands)
    status, out, _ = warlog("audit", "table")
    assert status == 0 and out.startswith("audit of table: clean (no findings)")
