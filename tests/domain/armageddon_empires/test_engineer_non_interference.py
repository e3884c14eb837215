"""Non-interference of the minefields Engineers lay (AE-54): two games that differ only in which
of red's Engineer armies laid which minefield card where give blue byte-identical answers from
every read a player has (``test_non_interference.reads``)."""

from __future__ import annotations

from pathlib import Path

from tests.domain.armageddon_empires.helpers import toml
from tests.domain.armageddon_empires.test_engineers import EMPIRES
from tests.domain.armageddon_empires.test_minefield_non_interference import red_turn
from tests.domain.armageddon_empires.test_minefields import FAR, MINE_CARDS, army
from tests.domain.armageddon_empires.test_non_interference import reads
from warlog.arbiter.application import Arbiter


def laid(tmp: Path, variant: str, lay: dict[str, str]) -> Arbiter:
    """Red's two sapper armies on row 0; red lays ``lay``; both empires end their turns."""
    folder = tmp / variant
    folder.mkdir()
    path = folder / "ni.toml"
    armies = army("red-e1", "red", "2,0", None, "sapper") + army(
        "red-e2", "red", "5,0", None, "sapper"
    )
    path.write_text(toml(armies=MINE_CARDS + armies + FAR, empires=EMPIRES), encoding="utf-8")
    return red_turn(path, {"type": "lay_minefield", "player": "red", **lay})


def test_blue_reads_the_same_whichever_army_laid_which_minefield_card_where(
    tmp_path: Path,
) -> None:
    one = laid(tmp_path, "one", {"army": "red-e1", "card": "red.mines.1"})
    other = laid(tmp_path, "other", {"army": "red-e2", "card": "red.mines.2"})
    assert one.view("ni")["state"]["minefields"]["red.mines.1"]["at"] == "2,0"
    assert other.view("ni")["state"]["minefields"]["red.mines.2"]["at"] == "5,0"
    assert reads(one, "red") != reads(other, "red")
    blue = reads(one, "blue")
    assert blue == reads(other, "blue")
    assert "red.mines" not in blue and "red-e1" not in blue
