"""The sources recorded under each ruleset's latest version (fixtures/edges/): each re-recorded
byte for byte, each under its ruleset's latest version, and each, fuzzed with its pinned seeds,
reaching the rules random play of the golden games leaves aside, with no failure; and a
ruleset's sources together reaching every event type a fuzz of its latest version can append."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.fuzz.test_planted_bugs import fuzzed
from warlog.domain import rulesets
from warlog.fixtures import (
    record_bfa_edges,
    record_edges,
    record_hb_edges,
    record_hb_ending,
    record_shadows,
)
from warlog.fixtures.recorder import EDGES


class Latest(NamedTuple):
    """A source, its recorder, the version it is recorded under (its ruleset's latest: a new
    version fails here, to be recorded again), and its fuzz: the seeds, the examples (they run
    out long before the budget: the seed decides what is reached, not the machine's speed) and
    the rare event types its seeds reach between them (docs/fuzzing.md, "Sources near the rare
    rules"). Each seed is a run of its own, and each must find nothing; a second seed is pinned
    only where no single seed reaches every type the source is there for."""

    ruleset: str
    recorder: Callable[[Path], Path]
    log: Path
    version: str
    seeds: tuple[str, ...]
    examples: int
    rare: tuple[str, ...]


SOURCES: dict[str, Latest] = {
    "armageddon-empires-edges": Latest(
        "armageddon-empires",
        record_edges.record_edges,
        record_edges.LOG,
        "28",
        ("9", "8"),
        300,
        # a WMD, collateral damage, an assault and one that finds nobody, a base razed, the
        # three ends of a Capture Kill, a minefield laid and lifted, a repair, a sabotage, an
        # assassination, a card's creation
        (
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
            "sabotage_began",
            "sabotage_ended",
            "assassination_began",
            "assassination_ended",
            "research_attempted",
        ),
    ),
    "armageddon-empires-shadows": Latest(
        "armageddon-empires",
        record_shadows.record_shadows,
        record_shadows.LOG,
        "28",
        ("7",),
        150,
        # stealth engaged and dropped, a hunt and an assassination foiled by it (AE-38, AE-71),
        # an intercept window (AE-40), tactic cards (p.51)
        (
            "stealth_engaged",
            "stealth_dropped",
            "hunt_foiled",
            "assassination_foiled",
            "intercept_answered",
            "tactic_played",
        ),
    ),
    "battle-for-armageddon-edges": Latest(
        "battle-for-armageddon",
        record_bfa_edges.record_bfa_edges,
        record_bfa_edges.LOG,
        "8",
        ("4", "21"),
        300,
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
    "heroic-battles-edges": Latest(
        "heroic-battles",
        record_hb_edges.record_hb_edges,
        record_hb_edges.LOG,
        "4",
        ("3",),
        500,
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
    "heroic-battles-ending": Latest(
        "heroic-battles",
        record_hb_ending.record_hb_ending,
        record_hb_ending.LOG,
        "4",
        ("3",),
        300,
        # the victory check at a turn's end that ends the battle (HB-20, p.27)
        ("victory_checked", "game_ended"),
    ),
}

#: ruleset -> the event types no fuzz of its latest version can append, each with its reason
UNREACHABLE: dict[str, set[str]] = {
    "armageddon-empires": {
        # since version 12 a strike is launched as air_strike_launched_sealed, its launch point
        # sealed (air_launch.LAUNCH_POINT_SEALED_SINCE): only the games of versions 6 to 11
        # write this one
        "air_strike_launched",
        # written by the game's creation alone, before the first fork point, which no example
        # replays: the opening deal (AE-15) and a hidden set-up's numbering (AE-62)
        "card_dealt",
        "cards_numbered",
    },
    "battle-for-armageddon": set(),
    "heroic-battles": set(),
}


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], list[dict[str, Any]]]:
    """A source's fuzz reports (JSON), one for each of its seeds, each status asserted 0: each
    source fuzzed once for every test here, since each fuzz takes seconds."""
    done: dict[str, list[dict[str, Any]]] = {}

    def report(name: str) -> list[dict[str, Any]]:
        if name not in done:
            source = SOURCES[name]
            runs = []
            for seed in source.seeds:
                out = tmp_path_factory.mktemp(f"{name}-{seed}")
                status, stdout = fuzzed(source.log, out, source.examples, 300, seed)
                assert status == 0, stdout
                runs.append(json.loads(stdout))
            done[name] = runs
        return done[name]

    return report


def test_every_source_of_the_edges_folder_is_pinned_here() -> None:
    assert sorted(p.stem for p in EDGES.glob("*.jsonl")) == sorted(SOURCES)
    assert {s.log.stem for s in SOURCES.values()} == set(SOURCES)


@pytest.mark.parametrize("name", SOURCES)
def test_recording_the_source_again_writes_the_same_bytes(name: str, tmp_path: Path) -> None:
    source = SOURCES[name]
    again = source.recorder(tmp_path / source.log.name)
    assert again.read_bytes() == source.log.read_bytes()


@pytest.mark.parametrize("name", SOURCES)
def test_fuzzing_the_source_plays_the_latest_rules_reaches_its_rare_rules_and_finds_nothing(
    name: str, reports: Callable[[str], list[dict[str, Any]]]
) -> None:
    source = SOURCES[name]
    runs = reports(name)
    assert len(runs) == len(source.seeds)
    tallies = []
    for report in runs:
        assert report["found"] == []
        [tally] = report["tallies"]
        assert tally["ruleset"] == source.ruleset
        assert tally["versions"] == {str(source.log): source.version}
        if source.ruleset == "armageddon-empires":
            # non-interference ran on the hidden set-up's draws
            assert tally["twin_steps"] > 0
        tallies.append(tally)
    never = [kind for kind in source.rare if not any(t["reached"].get(kind) for t in tallies)]
    assert never == []


def test_a_second_seed_is_pinned_only_where_the_first_misses_a_type_the_second_reaches(
    reports: Callable[[str], list[dict[str, Any]]],
) -> None:
    for name, source in SOURCES.items():
        if len(source.seeds) < 2:
            continue
        first, *others = (
            [k for k, n in r["tallies"][0]["reached"].items() if n] for r in reports(name)
        )
        assert all(set(other) - set(first) for other in others), name


@pytest.mark.parametrize("ruleset", sorted(UNREACHABLE))
def test_a_ruleset_s_latest_sources_reach_every_event_type_but_those_no_fuzz_can(
    ruleset: str, reports: Callable[[str], list[dict[str, Any]]]
) -> None:
    names = [name for name, source in SOURCES.items() if source.ruleset == ruleset]
    rules = rulesets.get(ruleset)
    # the latest version: each source plays under the version its row names (the test above)
    assert {SOURCES[name].version for name in names} == {rules.version}
    tallies = [tally for name in names for run in reports(name) for tally in run["tallies"]]
    known = {kind.type_name() for kind in rules.event_types}
    assert all(set(tally["known"]) == known for tally in tallies)
    reached = {kind for tally in tallies for kind, count in tally["reached"].items() if count}
    assert known - reached == UNREACHABLE[ruleset]
