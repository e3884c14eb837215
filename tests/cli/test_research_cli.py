"""A card created through the CLI in a manual-dice game (AE-73, version 28): each refusal is one
line with its code and exit 3, the referee types the hidden dice into the command, the
researcher's explain shows the arithmetic and the other empire's withholds it, and the game
audits clean once the seed is revealed."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tests.cli.command import one_line
from tests.cli.test_ae_golden_examples import Table
from tests.domain.armageddon_empires.helpers import EMPIRES, toml
from tests.domain.armageddon_empires.test_research import CREATORS, KEEP, RESEARCH
from warlog.cli.main import cli

SCENARIO = toml(extra=RESEARCH, empires=CREATORS + EMPIRES, bases=KEEP)
SAGE = "red.sage.1"


def refused(t: Table, command: dict[str, object], code: str) -> str:
    """The one line ``warlog play`` refuses ``command`` with: exit 3, ``code``."""
    result = CliRunner().invoke(cli, ["--db", t.db, "play", t.game, json.dumps(command)])
    assert result.exit_code == 3, result.stderr
    return one_line(result.stderr, code).removeprefix(f"error[{code}]: ")


def test_a_card_created_with_the_referee_s_dice_and_each_refusal_in_one_line(
    tmp_path: Path,
) -> None:
    t = Table(tmp_path, SCENARIO, "lab")
    create = {"type": "create_card", "player": "red", "hero": SAGE}
    # nobody creates before the round's initiative is bought, nor blue in red's turn
    assert refused(t, {**create, "card": "feint"}, "rules/wrong_phase") == (
        "create_card is not possible now: the game waits for round 1's initiative purchase (by "
        "red, blue) (buy_initiative)"
    )
    t.play(type="buy_initiative", player="red", count=0)
    t.play(type="buy_initiative", player="blue", count=0, dice=[6, 1])
    assert refused(t, {**create, "player": "blue", "card": "feint"}, "rules/not_your_turn") == (
        "blue cannot create_card now: the game waits for red's turn"
    )
    assert refused(t, {**create, "card": "shell"}, "rules/not_offered") == (
        "'shell' is not on the research list of red.sage.1's Tactician (Tactician: feint, "
        "nerve; AE-73)"
    )
    assert refused(
        t, {**create, "hero": "red.captain.1", "card": "feint"}, "rules/not_a_creator"
    ) == (
        "red.captain.1 has no Tactician X nor Technologist X; only a hero with one creates cards "
        "(p.45; AE-73)"
    )
    # a hero spends no fate creating a card (AE-73): a cap on it is no field of the command
    capped = json.dumps({**create, "card": "feint", "fate": 1})
    result = CliRunner().invoke(cli, ["--db", t.db, "play", t.game, capped])
    assert result.exit_code == 1
    assert one_line(result.stderr, "input/bad_command") == (
        "error[input/bad_command]: bad command: Object contains unknown field `fate`"
    )
    # the referee types the Sage's 3 dice and the number's 2 d256
    t.play(**create, card="feint", dice=[6, 5, 1, 1, 1])
    attempted = t.seq_of("research_attempted")
    assert t.rule(attempted, "--as", "red")[-1] == (
        "2 successes ≥ threshold 2: created, red.feint.10 into red's hand (ties succeed, p.28; "
        "AE-73)"
    )
    assert t.rule(attempted, "--as", "blue") == [
        "red tries to create a card, paying materials 1 (p.28, p.32; AE-73): which hero, where, "
        "which card, its AP and its dice are its own to see"
    ]
    assert "red.feint.10" in t.view("red")["empires"]["red"]["hand"]
    assert t.view("blue")["empires"]["red"]["hand_size"] == 6
    # the Sage's second try of the turn
    assert refused(t, {**create, "card": "nerve"}, "rules/already_researched") == (
        "red.sage.1 has already tried to create a card this turn (AE-73)"
    )
    t.ok("reveal", "lab")
    t.ok("audit", "lab")
