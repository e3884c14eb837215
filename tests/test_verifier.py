"""docs/verify.py: the stand-alone verifier the log-format page prints, on exported games."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.eventstore.test_audit import race_game
from warlog.arbiter.exchange import export_line

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_verifier_on_the_page_is_the_file_and_short() -> None:
    page = (DOCS / "log-format.md").read_text()
    block = re.search(r"```python\n(.*?)```", page, re.S)
    assert block is not None
    source = (DOCS / "verify.py").read_text()
    assert block.group(1) == source
    assert len(source.splitlines()) <= 80  # the chain, seals, dice, same-dice forks, a report
    assert set(re.findall(r"^import (.*?)(?:  #.*)?$", source, re.M)) == {
        "hashlib, hmac, json, sys"
    }


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("export") / "game.jsonl"
    records = race_game(tmp_path_factory, [3, 3, 2, 3, 1, 3, 3, 3, 3, 3])
    path.write_text("".join(export_line(r) + "\n" for r in records))
    return path


def run(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(DOCS / "verify.py"), str(path)], capture_output=True, text=True
    )


def test_the_verifier_passes_an_exported_game_and_rederives_its_dice(export: Path) -> None:
    result = run(export)
    assert result.returncode == 0
    assert result.stdout.startswith("chain intact; 10 dice and ")
    assert result.stdout.strip().endswith(
        "0 not checked (their seed is not revealed, or their value stays sealed)"
    )


def test_the_verifier_names_an_altered_event(export: Path, tmp_path: Path) -> None:
    lines = export.read_text().splitlines()
    event = json.loads(lines[4])
    event["data"]["forged"] = 1
    lines[4] = json.dumps(event)
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join(lines) + "\n")
    result = run(forged)
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == "seq 5: the chain is broken here"


def test_the_verifier_catches_forged_dice_even_with_a_recomputed_chain(
    export: Path, tmp_path: Path
) -> None:
    from tests.eventstore.tamper import rechain
    from warlog.arbiter.exchange import parse_lines
    from warlog.eventstore.records import Record

    records = list(parse_lines(export.read_text().splitlines()))
    i = next(i for i, r in enumerate(records) if r.type == "dice_rolled")
    data = json.loads(records[i].data)
    data["faces"] = [7 - f for f in data["faces"]]
    records[i] = Record(
        records[i].seq,
        records[i].type,
        json.dumps(data, separators=(",", ":")),
        records[i].at,
        "",
        "",
    )
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(export_line(r) + "\n" for r in rechain(records)))
    result = run(forged)
    assert result.returncode == 1
    assert f"seq {records[i].seq}: these faces do not come from the revealed seed" in result.stdout


def test_an_empty_file_is_not_an_intact_chain(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = run(empty)
    assert (result.returncode, result.stdout.strip()) == (1, "the file holds no event")


def test_a_roll_forged_after_a_same_dice_fork_is_named(tmp_path: Path) -> None:
    """Given a same-dice fork (its game_forked publishes the parent's revealed seed) whose first
    roll after the fork was forged and the chain made whole again, when the verifier reads its
    export, then that roll is named: the fork's rolls derive from the seed already public."""
    from tests.eventstore.conftest import fixed_clock
    from tests.eventstore.tamper import rechain
    from tests.toy import SCENARIO
    from warlog.arbiter.application import Arbiter
    from warlog.domain import rulesets
    from warlog.eventstore.memory_store import MemoryStore
    from warlog.eventstore.records import Record

    rulesets.register("dice-race", "tests.toy:RULESET")
    try:
        (tmp_path / "race.toml").write_bytes(SCENARIO)
        arb = Arbiter(MemoryStore(), rulesets.get, clock=fixed_clock(), seeds=lambda: bytes(32))
        game = arb.new_game("dice-race", str(tmp_path / "race.toml"), game="g1")
        for player in ("red", "blue"):
            arb.play(game, json.dumps({"type": "roll", "player": player, "count": 2}))
        at = arb.store.head(game)[0]
        arb.reveal(game)
        fork = arb.fork(game, at, new_game="g2", dice="same")
        arb.play(fork, json.dumps({"type": "roll", "player": "red", "count": 2}))
        records = list(arb.export_records(fork))
    finally:
        rulesets.unregister("dice-race")
    path = tmp_path / "fork.jsonl"
    path.write_text("".join(export_line(r) + "\n" for r in records))
    assert run(path).returncode == 0
    rolled = next(r for r in records if r.type == "dice_rolled" and r.seq > at)
    data = json.loads(rolled.data)
    data["faces"] = [data["faces"][0] % 6 + 1, *data["faces"][1:]]
    forged = [
        Record(r.seq, r.type, json.dumps(data, separators=(",", ":")), r.at, "", "")
        if r is rolled
        else r
        for r in records
    ]
    path.write_text("".join(export_line(r) + "\n" for r in rechain(forged)))
    result = run(path)
    assert result.returncode == 1
    assert f"seq {rolled.seq}: these faces do not come from the revealed seed" in result.stdout
