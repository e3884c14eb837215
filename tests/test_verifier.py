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
    assert len(source.splitlines()) <= 75  # the chain, seals, dice, same-dice forks, a report
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
    assert result.stdout.strip().endswith("0 not checked (their seed is not revealed)")


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
