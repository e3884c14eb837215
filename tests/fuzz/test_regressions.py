"""Every failure ``warlog fuzz`` found and that was fixed stays fixed: each pair in
fixtures/regressions/ (``NAME.jsonl``, the log up to the failing step, and ``NAME.json``, the
steps and the check that failed) audits clean and replays with every check passing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from warlog.arbiter.audit import audit_records
from warlog.arbiter.sources import file_records
from warlog.domain import rulesets
from warlog.fuzz.checks import CHECKS
from warlog.fuzz.fixture import replay

FOLDER = Path(__file__).resolve().parent.parent.parent / "fixtures" / "regressions"
PAIRS = sorted(FOLDER.glob("*.json"))


def test_the_regressions_folder_holds_complete_pairs() -> None:
    assert PAIRS, "fixtures/regressions/ holds no regression"
    assert {p.stem for p in PAIRS} == {p.stem for p in FOLDER.glob("*.jsonl")}


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.stem)
def test_a_regression_log_audits_clean_and_its_failing_step_now_passes_every_check(
    pair: Path,
) -> None:
    fixture = json.loads(pair.read_text(encoding="utf-8"))
    assert fixture["check"] in CHECKS
    auditor = audit_records(file_records(str(pair.with_suffix(".jsonl"))), rulesets.get)
    assert auditor.findings == [] and auditor.revealed
    replayed = replay(str(pair))
    assert replayed.notes == []
    assert replayed.failure is None, f"{replayed.failure.check}: {replayed.failure.message}"
