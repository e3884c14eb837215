"""The edges source (fixtures/edges/): re-recorded byte for byte, and fuzzed, it reaches
Armageddon Empires' rare rules that the demo's game does not within the default examples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import warlog.fixtures.record_edges as record_edges_module
from tests.fuzz.test_planted_bugs import fuzzed
from warlog.fixtures.record_edges import LOG, record_edges

#: the rare event types the edges source stands near (docs/fuzzing.md, "Sources near the rare
#: rules"): a WMD, collateral damage, an assault and one that finds nobody, a base razed, the
#: three ends of a Capture Kill, a minefield laid and lifted, a repair
RARE = (
    "wmd_detonated",
    "base_razed",
    "fallout_suffered",
    "collateral_rolled",
    "assault_ordered",
    "empty_armies_destroyed",
    "battle_averted",
    "capture_kill_began",
    "hero_captured",
    "hero_killed",
    "hero_escaped",
    "minefield_laid",
    "minefield_lifted",
    "card_repaired",
)


def test_recording_the_edges_game_again_writes_the_same_bytes(tmp_path: Path) -> None:
    again = record_edges(tmp_path / LOG.name)
    assert again.read_bytes() == LOG.read_bytes()


def test_fuzzing_the_edges_game_reaches_every_rare_rule_and_finds_nothing(tmp_path: Path) -> None:
    # the examples run out long before the budget: the seed decides what is reached, not the
    # machine's speed (7 s on an idle machine, more on a loaded one)
    status, out = fuzzed(LOG, tmp_path / "failures", examples=300, budget=300, seed="3")
    assert status == 0, out
    report = json.loads(out)
    assert report["found"] == []
    [tally] = report["tallies"]
    assert tally["versions"] == {str(LOG): "23"}  # recorded under version 23
    never = [kind for kind in RARE if not tally["reached"].get(kind)]
    assert never == []
    assert tally["twin_steps"] > 0  # non-interference ran on the hidden set-up's draws


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


def test_the_source_holds_a_walk_into_its_independent_minefield() -> None:
    # given the recorded source, revealed: every seal opened
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
