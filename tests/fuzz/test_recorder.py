"""The recording of a source near the rare rules (fixtures/recorder.py): a fixed command the
rules no longer allow stops it, naming the step, rather than playing on. Each source's bytes,
version and fuzz: tests/fuzz/test_latest_sources.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import warlog.fixtures.record_edges as record_edges_module
from warlog.fixtures.record_edges import LOG, record_edges


def test_a_step_the_rules_never_allow_stops_the_recording_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a recording whose first step waits for a command no rule ever offers
    monkeypatch.setattr(record_edges_module, "STEPS", [lambda c: False])
    monkeypatch.setattr(record_edges_module, "WAIT_MOST", 5)
    # when it is recorded, then it stops after the quiet commands it may wait, naming the step,
    # and writes nothing
    with pytest.raises(RuntimeError, match="step 1 of 1 was not legal after 5 quiet commands"):
        record_edges(tmp_path / LOG.name)
    assert not (tmp_path / LOG.name).exists()


def test_the_edges_source_holds_a_walk_into_its_independent_minefield() -> None:
    # given the recorded edges source, revealed: every seal opened
    rows = [json.loads(line) for line in LOG.read_text(encoding="utf-8").splitlines()]
    met = [
        row["data"]["attack"]["value"]
        for row in rows
        if row["type"] == "minefields_checked" and row["data"]["attack"]["value"]
    ]
    # then red's post's garrison walked into 'old-wire', no empire's (AE-67), as its
    # scenario says, so that the fuzz forks games that hold it known to red
    assert [(a["minefield"], a["army"], a.get("independent")) for a in met] == [
        ("blue-wire", "red-lifters", None),
        ("red-wire", "blue-lifters", None),
        ("old-wire", "red-r3-1", True),
    ]
