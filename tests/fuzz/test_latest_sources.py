"""The edges sources of Battle for Armageddon and Midgard (fixtures/edges/): each re-recorded
byte for byte, each under its ruleset's latest version, and each, fuzzed, reaching the rules
random play of the golden games leaves aside, with no failure."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.fuzz.test_planted_bugs import fuzzed
from warlog.fixtures import record_bfa_edges, record_hb_edges

#: source -> its recorder, the version it is recorded under (the ruleset's latest: a new
#: version fails here, to be recorded again), the seed of its fuzz, and the rare event types
#: that fuzz reaches (docs/fuzzing.md, "Sources near the rare rules")
SOURCES: dict[str, tuple[Callable[[Path], Path], Path, str, str, tuple[str, ...]]] = {
    "battle-for-armageddon": (
        record_bfa_edges.record_bfa_edges,
        record_bfa_edges.LOG,
        "7",
        "1",
        # the Marines' arrival, a Drop Pod (BFA-29) and a chapter's flip; Yarrick holding;
        # a cut-off hive's roll; sites ruined and rebuilt; advances
        (
            "reinforcements_arrived",
            "special_card_played",
            "chapter_reduced",
            "retreat_ignored",
            "stack_out_of_supply",
            "site_ruined",
            "site_rebuilt",
            "advanced",
        ),
    ),
    "heroic-battles": (
        record_hb_edges.record_hb_edges,
        record_hb_edges.LOG,
        "4",
        "2",
        # single combat and its ends, disengaging, breaks and their retreats, a final blow
        (
            "challenge_accepted",
            "challenge_refused",
            "single_combat_round",
            "hero_killed",
            "disengage_declared",
            "disengaged",
            "stayed_engaged",
            "retreat_began",
            "retreat_cancelled",
            "final_blow_struck",
        ),
    ),
}


@pytest.mark.parametrize("ruleset", SOURCES)
def test_recording_the_source_again_writes_the_same_bytes(ruleset: str, tmp_path: Path) -> None:
    recorder, log, *_ = SOURCES[ruleset]
    again = recorder(tmp_path / log.name)
    assert again.read_bytes() == log.read_bytes()


@pytest.mark.parametrize("ruleset", SOURCES)
def test_fuzzing_the_source_plays_the_latest_rules_reaches_its_rare_rules_and_finds_nothing(
    ruleset: str, tmp_path: Path
) -> None:
    _, log, version, seed, rare = SOURCES[ruleset]
    # the examples run out long before the budget: the seed decides what is reached, not the
    # machine's speed (about 4 s on an idle machine)
    status, out = fuzzed(log, tmp_path / "failures", examples=300, budget=300, seed=seed)
    assert status == 0, out
    report = json.loads(out)
    assert report["found"] == []
    [tally] = report["tallies"]
    assert tally["ruleset"] == ruleset
    assert tally["versions"] == {str(log): version}
    never = [kind for kind in rare if not tally["reached"].get(kind)]
    assert never == []
