"""A scenario's Marine Chapters and the counters that arrive later.

BFA-29 (version 7): a scenario's Marine Chapters are Imperial and start "later", and no Ork counter
starts "later"; a game begun under version 6 keeps the checks its scenario passed, so that one with
an Ork chapter loads, plays, replays, audits, imports and forks as before. An Ork counter that
starts "later" in such a game arrives in the READY box, from where the Imperial Drop Pod lands it
among Imperials: version 7 refuses such a scenario, and a kept version plays on as it was."""

from __future__ import annotations

import importlib.resources
import json

import msgspec
import pytest

from tests.domain.battle_for_armageddon.helpers import PROVING_GROUND, game, in_phase
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.autoplay import autoplay
from warlog.domain import rulesets
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.ruleset import RULESET, VERSIONS
from warlog.domain.battle_for_armageddon.scenario import parse_scenario, scenario_from_builtins
from warlog.domain.battle_for_armageddon.special_card_events import SpecialCardDrawn
from warlog.domain.battle_for_armageddon.turn_events import ReinforcementsArrived
from warlog.domain.core.dice import DiceSpec, commitment_of
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import GameCreated
from warlog.eventstore.memory_store import MemoryStore

KEY = bytes(range(32))
#: a chapter of the Orks' own, set up in Kroozer Crater (Ork Territory, empty in second-war)
ORK_CHAPTER = """
[[counter_types]]
id = "ork_chapter"
name = "Ork Chapter"
side = "orks"
attack = 5
defence = 4
move = 3
role = "chapter"
reduced_name = "Ork Detachment"
reduced_attack = 2
reduced_defence = 2
reduced_move = 3

[[counters]]
id = "mad-marines"
type = "ork_chapter"
start = "kroozer_crater"
"""
BLOOD_ANGELS = 'id = "blood_angels"\ntype = "marine_chapter"\nname = "Blood Angels"\n'
GOFFS_BOYZ_3 = 'id = "goffs-boyz-3"\ntype = "boyz"\ntribe = "goffs"\n'


def second_war_text() -> str:
    path = importlib.resources.files(RULESET.scenario_package).joinpath("second-war.toml")
    return path.read_text()


def changed(old: str, new: str) -> str:
    text = second_war_text()
    assert text.count(old) == 1, old
    return text.replace(old, new)


#: (what the custom scenario does, its text, the one line version 7 refuses it with)
BROKEN = [
    (
        "an Ork chapter",
        second_war_text() + ORK_CHAPTER,
        "bad scenario: $.counter_types[16].side: Marine Chapters are Imperial "
        "(rules: Special Units; BFA-29)",
    ),
    (
        "a chapter set up on the map",
        changed(BLOOD_ANGELS + 'start = "later"\narrives = 3', BLOOD_ANGELS + 'start = "hades"'),
        "bad scenario: $.counters[34].start: a Marine Chapter starts 'later', entering the "
        "READY box on its arrival turn (rules: Special Units; BFA-29)",
    ),
    (
        "a chapter set aside",
        changed(BLOOD_ANGELS + 'start = "later"\narrives = 3', BLOOD_ANGELS + 'start = "aside"'),
        "bad scenario: $.counters[34].start: a Marine Chapter starts 'later', entering the "
        "READY box on its arrival turn (rules: Special Units; BFA-29)",
    ),
    (
        "an Ork counter arriving later",
        changed(
            GOFFS_BOYZ_3 + 'start = "fire_wastes_north"',
            GOFFS_BOYZ_3 + 'start = "later"\narrives = 2',
        ),
        "bad scenario: $.counters[41].start: the Orks set up all their counters in Ork "
        "Territory, none 'later' (rules: Setup; BFA-29)",
    ),
]


@pytest.mark.parametrize(("what", "text", "refusal"), BROKEN, ids=[b[0] for b in BROKEN])
def test_version_7_refuses_a_scenario_whose_marines_are_not_imperial_arrivals(
    what: str, text: str, refusal: str
) -> None:
    # given a custom scenario breaking BFA-29, when a game of it would begin under version 7
    for parse in (RULESET.parse_scenario, parse_scenario):
        with pytest.raises(InputError) as info:
            parse(text.encode())
        # then it is refused naming the field and the rule
        assert (info.value.code, str(info.value)) == ("input/bad_scenario", refusal)


@pytest.mark.parametrize(("what", "text", "refusal"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_game_begun_under_version_6_or_before_keeps_its_scenario(
    what: str, text: str, refusal: str
) -> None:
    for version in ("6", "5", "2"):
        then = VERSIONS[version]
        scenario = then.parse_scenario(text.encode())
        recorded = then.recorded_scenario(scenario)
        assert then.scenario_from_builtins(recorded) == scenario
        with pytest.raises(InputError, match="BFA-29"):
            scenario_from_builtins(recorded)  # the latest rules' check


def test_the_published_scenarios_are_accepted_under_every_version() -> None:
    bundled = importlib.resources.files(RULESET.scenario_package)
    files = [f for f in bundled.iterdir() if f.name.endswith(".toml")]
    assert [f.name for f in files] == ["second-war.toml"]
    for data in (files[0].read_bytes(), PROVING_GROUND.read_bytes()):
        for ruleset in VERSIONS.values():
            ruleset.parse_scenario(data)


def begun_under_6(text: str) -> Arbiter:
    """An Arbiter (in memory) holding the game ``old``, begun by a warlog of version 6 on the
    scenario ``text``: what a stored game of version 6 is."""
    then = VERSIONS["6"]
    scenario = then.parse_scenario(text.encode())
    created = GameCreated(
        game="old",
        ruleset=RULESET.name,
        version="6",
        scenario_name="ork-chapter",
        scenario=then.recorded_scenario(scenario),
        players=then.players(scenario),
        dice=DiceSpec(mode="auto", stream="old", commitment=commitment_of(KEY)),
    )
    arb = Arbiter(MemoryStore(), rulesets.get, clock=lambda: "2026-01-01T00:00:00.000Z")
    arb.create(created, KEY)
    return arb


def test_a_version_6_game_with_an_ork_chapter_loads_plays_audits_imports_and_forks() -> None:
    # given a game of version 6 with an Ork chapter, played to its end by the autoplayer
    arb = begun_under_6(second_war_text() + ORK_CHAPTER)
    autoplay(arb, "old", 5000)
    assert arb.ruleset_of("old").version == "6"
    state = arb.state("old")
    assert state.result and state.rules_version == 6
    assert arb.replay_agrees("old")
    lost = [seq for seq, e in arb.events("old") if getattr(e, "counter", "") == "mad-marines"]
    assert lost and all(arb.explain("old", seq)["rule"] for seq in lost)
    # when it is revealed, exported and audited, then imported and forked by this warlog
    arb.reveal("old")
    records = list(arb.export_records("old", opened=True))
    auditor = audit_records(records, rulesets.get)
    assert auditor.findings == []
    assert auditor.rules == "battle-for-armageddon version 6"
    other = Arbiter(MemoryStore(), rulesets.get)
    assert other.import_records(records, game="copy") == "copy"
    assert other.ruleset_of("copy").version == "6"
    # (forked at the end of the batch of the chapter's first event: it is still on the map)
    cut = next(r.seq for r in arb.records("old", lost[0]) if r.type == "command_issued") - 1
    fork = arb.fork("old", cut, new_game="again")
    assert arb.state(fork).counters["mad-marines"].location not in ("removed", "pool")
    # then the fork plays on under version 6
    assert arb.ruleset_of(fork).version == "6"
    arb.play(fork, json.dumps(arb.legal(fork)[0]))
    assert arb.audit(fork).findings == []


def test_a_version_6_game_keeps_its_drop_pod_landing_an_ork_counter_that_started_later() -> None:
    """Given a version-6 game whose Ork counter sunz-2 started "later" and is now READY, when
    the Imperials look for their Drop Pod's landings, then it is offered beside their own
    Marines: the drop pod lands any READY counter that started "later" (``drop_pod_counters``),
    and among Imperials it breaks one side per area. Kept versions play on as they were; version
    7 refuses such a scenario (BFA-29), so no new game reaches it."""
    text = PROVING_GROUND.read_text()
    old = 'id = "sunz-2"\ntype = "boyz"\ntribe = "evil_sunz"\nstart = "ork_b"'
    assert old in text
    later = text.replace(old, old.replace('"ork_b"', '"later"\narrives = 3'))
    scenario = VERSIONS["6"].parse_scenario(later.encode())
    g = game(*in_phase("imperials", "movement", turn=3), scenario=scenario, version="6")
    g.events(
        SpecialCardDrawn(player="imperials", card="drop-pod-1"),
        ReinforcementsArrived(turn=3, counters=["blood_angels", "dante", "sunz-2"]),
    )
    plays = [
        x for x in RULESET.legal_commands(g.state, "imperials") if isinstance(x, c.PlaySpecial)
    ]
    assert {x.counter for x in plays} == {"blood_angels", "dante", "sunz-2"}
    with pytest.raises(InputError, match=r"\$\.counters\[\d+\]\.start: the Orks set up .*BFA-29"):
        RULESET.parse_scenario(later.encode())


def test_the_ork_chapter_is_refused_through_the_recorded_form_of_a_version_7_game() -> None:
    """An import's or a hand-made log's game_created of version 7 is checked as a file is."""
    scenario = VERSIONS["6"].parse_scenario((second_war_text() + ORK_CHAPTER).encode())
    with pytest.raises(InputError, match=r"\$\.counter_types\[16\]\.side: .*BFA-29"):
        RULESET.scenario_from_builtins(msgspec.to_builtins(scenario))
