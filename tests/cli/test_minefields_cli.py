"""A minefield hit through the CLI in a manual-dice game (p.32; AE-50..AE-53): the referee types
the minefield's dice into the move, each side's explain shows its own report and withholds the
other's, and the game audits clean once the seed is revealed."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tests.cli.test_ae_golden_examples import Table
from tests.domain.armageddon_empires.helpers import toml
from tests.domain.armageddon_empires.test_minefields import FAR, MINE_CARDS, army, minefield
from warlog.cli.main import cli

SCENARIO = toml(
    armies=MINE_CARDS
    + army("red-col", "red", "1,0", "runner", "sprinter", "mailed")
    + FAR
    + minefield("blue-mines", "blue", "3,0")
)

#: the hero, then the units in the order of their ids (AE-63): runner: Minefield 5
#: [6, 6, 6, 1, 1] = 3 against fate 1 [6] = 1: 2 wounds, killed; mailed: [6, 6, 1, 1, 1] = 2
#: against defence 1 [6]: 1 damage − Composite Armor 1 = 0; sprinter: [1, 1, 1, 1, 1] = 0
#: against defence 2 [1, 1]: no damage; the minefield loses 2 + 1 + 0 = 3 of its 4
DICE = [6, 6, 6, 1, 1, 6, 6, 6, 1, 1, 1, 6, 1, 1, 1, 1, 1, 1, 1]


def test_a_minefield_hit_with_the_referee_s_dice(tmp_path: Path) -> None:
    t = Table(tmp_path, SCENARIO, "mines")
    t.play(type="buy_initiative", player="red", count=0)
    t.play(type="buy_initiative", player="blue", count=0, dice=[6, 1])
    move = {"type": "move_army", "player": "red", "army": "red-col", "to": "5,0"}
    short = CliRunner().invoke(
        cli, ["--db", t.db, "play", "mines", json.dumps({**move, "dice": DICE[:-1]})]
    )
    assert short.exit_code != 0 and "19" in short.stderr and "18" in short.stderr
    t.play(**move, dice=DICE)
    checked = t.seq_of("minefields_checked")
    assert t.rule(checked, "--as", "red") == [
        "red-col walks into minefield blue-mines (blue.mines.1, Minefield 5) at 3,0 and stops "
        "there at once (p.32; AE-51): a hidden Minefield Attack Challenge per card, no fate on "
        "either side (p.32; AE-52)",
        "- red.runner.1: minefield 5 = 5 (Minefield 5 of Test Mines, AE-50) rolled "
        "[6, 6, 6, 1, 1] = 3 successes; red.runner.1 1 = 1 (fate of Test Runner, p.16) rolled "
        "[6] = 1 success: 3 − 1 = 2 damage; 2 of 1 — destroyed and discarded (AE-24)",
        "- red.mailed.1: minefield 5 = 5 (Minefield 5 of Test Mines, AE-50) rolled "
        "[6, 6, 1, 1, 1] = 2 successes; red.mailed.1 1 = 1 (defense of Test Mailed) rolled "
        "[6] = 1 success: 2 − 1 = 1 damage -1 (Composite Armor -1, AE-29) = 0; 0 of 3",
        "- red.sprinter.1: minefield 5 = 5 (Minefield 5 of Test Mines, AE-50) rolled "
        "[1, 1, 1, 1, 1] = 0 successes; red.sprinter.1 2 = 2 (defense of Test Sprinter) rolled "
        "[1, 1] = 0 successes: no damage (the minefield must have more, R5)",
    ]
    reported = t.seq_of("minefields_reported")
    assert t.rule(reported, "--as", "blue") == [
        "minefield blue-mines (blue.mines.1) at 3,0 is walked into and loses 3 (the base damage "
        "of its challenges, p.32; AE-52): 3 of 4"
    ]
    # each side's report is withheld from the other
    assert t.rule(checked, "--as", "blue") != t.rule(checked, "--as", "red")
    assert "blue.mines.1" not in json.dumps(t.rule(checked, "--as", "blue"))
    assert "red.runner.1" not in json.dumps(t.rule(reported, "--as", "red"))
    red = t.view("red")
    assert red["armies"]["red-col"]["at"] == "3,0"
    assert red["minefields"]["blue-mines"]["at"] == "3,0" and "blue.mines.1" not in red["damage"]
    assert t.view("blue")["damage"]["blue.mines.1"] == 3
    t.ok("reveal", "mines")
    t.ok("audit", "mines")


#: red's column of the runner, a sprinter and the mailed unit, and the independent minefield
#: ``ridge`` at 3,0, which no empire controls (AE-67)
INDEPENDENT = toml(
    armies=MINE_CARDS
    + army("red-col", "red", "1,0", "runner", "sprinter", "mailed")
    + FAR
    + '\n[[minefields]]\nid = "ridge"\nat = "3,0"\ncard = "mines"\n'
)


def test_an_independent_minefield_hit_with_the_referee_s_dice_tells_no_empire_its_loss(
    tmp_path: Path,
) -> None:
    t = Table(tmp_path, INDEPENDENT, "ridge")
    t.play(type="buy_initiative", player="red", count=0)
    t.play(type="buy_initiative", player="blue", count=0, dice=[6, 1])
    t.play(type="move_army", player="red", army="red-col", to="5,0", dice=DICE)
    checked = t.seq_of("minefields_checked")
    # red is told what it walked into, as for an empire's minefield (AE-53, AE-67)
    assert t.rule(checked, "--as", "red")[0] == (
        "red-col walks into independent minefield ridge (ridge.mines, Minefield 5) at 3,0 and "
        "stops there at once (p.32; AE-51): a hidden Minefield Attack Challenge per card, no "
        "fate on either side (p.32; AE-52); no empire controls it (AE-67)"
    )
    # blue is told none of its minefields was walked into; the ridge's loss is the referee's
    ours, nobody = checked + 1, checked + 2
    assert t.rule(ours, "--as", "blue") == ["no minefield of blue was walked into (p.32; AE-53)"]
    assert t.rule(nobody) == [
        "independent minefield ridge (ridge.mines) at 3,0 is walked into and loses 3 (the base "
        "damage of its challenges, p.32; AE-52): 3 of 4; no empire is told (AE-67)"
    ]
    for player in ("red", "blue"):  # sealed for every player
        assert t.rule(nobody, "--as", player) == [
            "(withheld: this event holds values sealed from you)"
        ]
    assert "ridge" not in json.dumps(t.view("blue"))
    t.ok("reveal", "ridge")
    t.ok("audit", "ridge")


def test_a_new_game_refuses_an_independent_minefield_at_a_base_in_one_line(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(INDEPENDENT.replace('at = "3,0"\ncard = "mines"', 'at = "0,0"\ncard = "mines"'))
    result = CliRunner().invoke(
        cli, ["--db", str(tmp_path / "w.db"), "new", "armageddon-empires", "--scenario", str(path)]
    )
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "error[input/bad_scenario]: bad scenario: $.minefields[0].at: hex 0,0 holds base "
        "'red-hq'; a minefield stands in the open (p.32; AE-50)\n"
    )
