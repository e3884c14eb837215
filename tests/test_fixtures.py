"""Recorded games in fixtures/ are golden: each replays, audits clean and meets its checkpoints."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.recorded import FIXTURES, clear_events
from warlog.arbiter.audit import audit_records
from warlog.arbiter.checkpoints import check_checkpoints
from warlog.arbiter.sources import file_records, memory_arbiter
from warlog.domain import rulesets
from warlog.domain.core.events import DiceRevealed, GameCreated
from warlog.fixtures import EDGES, REGRESSIONS

#: the golden games, played to the end with their checkpoints
GAMES = sorted(p for p in FIXTURES.glob("*/*.jsonl") if p.parent.name not in (REGRESSIONS, EDGES))
#: every recorded game: the golden ones and the fuzz's sources near rare rules (edges/)
RECORDED = sorted([*GAMES, *FIXTURES.glob(f"{EDGES}/*.jsonl")])


def test_every_ruleset_has_a_recorded_game() -> None:
    assert {p.parent.name for p in GAMES} >= set(rulesets.names())


@pytest.mark.parametrize("path", GAMES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_recorded_game_replays_audits_clean_and_meets_its_checkpoints(path: Path) -> None:
    records = file_records(str(path))
    auditor = audit_records(records, rulesets.get)
    assert auditor.findings == []
    assert auditor.revealed  # its dice were checked against the revealed seed
    arbiter = memory_arbiter()
    game = arbiter.import_records(records)
    checkpoints = path.with_suffix(".checkpoints.json")
    assert checkpoints.exists()
    assert check_checkpoints(arbiter, game, checkpoints.read_bytes()) == []
    ruleset = arbiter.ruleset_of(game)
    assert ruleset.is_terminal(arbiter.state(game))  # played to the end
    verifier = Path(__file__).resolve().parent.parent / "docs" / "verify.py"
    result = subprocess.run(
        [sys.executable, str(verifier), str(path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_viewer_can_read_a_summary_anywhere_in_a_recorded_game(path: Path) -> None:
    """Given a recorded game, when the referee or any player asks for the state's summary after
    any event, then it names the game's round or turn and holds a table for each side."""
    arbiter = memory_arbiter()
    game = arbiter.import_records(file_records(str(path)))
    ruleset = arbiter.ruleset_of(game)
    head, _ = arbiter.head(game)
    seats = list(ruleset.seats(arbiter.state(game)))
    for at in [*range(1, head, max(1, head // 12)), head]:
        for viewer in [None, *seats]:
            summary = arbiter.summary(game, at, viewer)
            assert summary.headline.startswith(ruleset.round_word.capitalize()), (at, viewer)
            assert summary.tables and all(table.rows for table in summary.tables[:1])


#: a citation a player can look up: a page, a table or section of the rules, or our ruling id
CITATION = re.compile(
    r"\bpp?\.\s?\d|\brules: [A-Z]|\b(?:AE|BFA|HB)-\d+\b|\bR\d+\b"
    r"|\((?:Combat Results Table|Single Combat|Support Saves|Combat Dice Penalties)[;)]"
)
#: events that carry a command or a roll (explained through the event they cause), and the steps
#: of a procedure that only say it moved on (the events around them carry the rule)
UNCITED = {
    "command_issued",
    "dice_rolled",
    "game_created",
    "dice_revealed",
    "game_forked",
    "battle_advanced",
    "unit_destroyed",
}


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_event_of_a_recorded_game_names_the_rule_it_follows(path: Path) -> None:
    """Given a recorded game, when a referee asks why any of its events happened, then the answer
    is not empty, and but for a command, a roll and a procedure's bare steps it cites the rule as
    a player looks it up: the rules' page, table or section, or our ruling id."""
    arbiter = memory_arbiter()
    game = arbiter.import_records(file_records(str(path)))
    records, events = clear_events(arbiter, game)
    silent, uncited = set(), set()
    for record, event in zip(records, events, strict=True):
        text = event.explain()
        if not text and record.type != "command_issued":
            silent.add(record.type)
        elif record.type not in UNCITED and not CITATION.search(text):
            uncited.add((record.type, text))
    assert silent == set()
    assert sorted(uncited) == []
    # the reveal's arithmetic: the published seed hashes to the commitment the game made
    created, revealed = events[0], events[-1]
    assert isinstance(created, GameCreated) and isinstance(revealed, DiceRevealed)
    assert created.dice.commitment is not None
    assert f"committed to as sha256 {created.dice.commitment}" in created.explain()
    assert f"its sha256 is {created.dice.commitment}," in revealed.explain()
