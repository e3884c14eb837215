"""Audit: a clean game audits clean; every forgery of an exported game is caught."""

from __future__ import annotations

import gc
import json
import weakref

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.eventstore.conftest import SEED, fixed_clock
from tests.eventstore.tamper import forgeries, is_legal_game, rechain
from tests.toy import RULESET, SCENARIO, rulesets
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.exchange import export_line, parse_lines
from warlog.domain.core.events import BATCH_STARTS, CORE_TAGS
from warlog.eventstore.codec import Codec
from warlog.eventstore.memory_store import MemoryStore
from warlog.eventstore.records import Record


def race_game(tmp_path_factory: pytest.TempPathFactory, counts: list[int]) -> list[Record]:
    path = tmp_path_factory.mktemp("race") / "race.toml"
    path.write_bytes(SCENARIO)
    arbiter = Arbiter(MemoryStore(), rulesets, clock=fixed_clock(), seeds=lambda: SEED)
    game = arbiter.new_game("dice-race", str(path), game="g1")
    for count in counts:
        state = arbiter.state(game)
        if state.winner:
            break
        arbiter.play(
            game, json.dumps({"type": "roll", "player": state.players[state.turn], "count": count})
        )
    arbiter.reveal(game)
    return [r for r in parse_lines(export_line(r) for r in arbiter.records(game))]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> list[Record]:
    return race_game(tmp_path_factory, [3, 1, 2, 3, 3, 2, 1, 3, 3, 3, 3, 3, 3, 3])


TAGS = sorted(set(Codec.for_ruleset(RULESET).tags) | CORE_TAGS)


def test_an_untouched_game_audits_clean(game: list[Record]) -> None:
    auditor = audit_records(game, rulesets)
    assert auditor.findings == []
    assert auditor.revealed


def test_an_altered_event_is_named_by_its_seq(game: list[Record]) -> None:
    forged = list(game)
    r = forged[6]
    forged[6] = Record(r.seq, r.type, r.data.replace("}", ',"x":1}'), r.at, r.prev, r.hash)
    findings = audit_records(forged, rulesets).findings
    assert findings[0].seq == 7 and findings[0].check == "chain"


def test_a_dropped_event_is_named_by_its_seq(game: list[Record]) -> None:
    forged = game[:4] + game[5:]
    findings = audit_records(forged, rulesets).findings
    # in seq order: first the consequence missing from its batch at seq 5, then the gap
    assert (findings[0].seq, findings[0].check) == (5, "rules")
    assert [(f.seq, f.check) for f in findings[1:3]] == [(6, "chain"), (6, "sequence")]
    assert "seq 5 missing" in findings[2].message
    # one gap, one finding: the events after it are numbered on from the seq they state
    assert [f.line() for f in findings if f.check == "sequence"] == [
        "seq 6 [sequence]: seq 5 missing: the log jumps to 6"
    ]


def test_forged_faces_with_a_recomputed_chain_fail_the_dice_check(game: list[Record]) -> None:
    i = next(i for i, r in enumerate(game) if r.type == "dice_rolled")
    data = json.loads(game[i].data)
    data["faces"] = [7 - f for f in data["faces"]]
    forged = list(game)
    forged[i] = Record(
        game[i].seq, "dice_rolled", json.dumps(data, separators=(",", ":")), game[i].at, "", ""
    )
    findings = audit_records(rechain(forged), rulesets).findings
    assert {f.check for f in findings} >= {"dice"}
    assert any(f.seq == game[i].seq for f in findings)


def test_findings_are_collected_not_stopped_at_the_first(game: list[Record]) -> None:
    forged = list(game)
    for i in (3, 8):
        r = forged[i]
        forged[i] = Record(r.seq, r.type, r.data.replace("}", ',"x":1}'), r.at, r.prev, r.hash)
    assert [f.seq for f in audit_records(forged, rulesets).findings if f.check == "chain"][:2] == [
        4,
        9,
    ]


def test_audit_from_a_seq_still_checks_the_whole_chain(game: list[Record]) -> None:
    forged = list(game)
    r = forged[2]
    forged[2] = Record(r.seq, r.type, r.data.replace("}", ',"x":1}'), r.at, r.prev, r.hash)
    findings = audit_records(forged, rulesets, from_seq=10).findings
    assert any(f.seq == 3 and f.check == "chain" for f in findings)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_every_forgery_with_the_chain_left_as_it_was_is_caught(
    game: list[Record], data: st.DataObject
) -> None:
    _, forged = data.draw(forgeries(game, TAGS))
    # a prefix ending at a batch end is a shorter legal log: only the player's receipt (`warlog head`)
    # can tell it was cut, so the chain and the rules cannot be asked to
    assert audit_records(forged, rulesets).findings or is_batch_end_prefix(forged, game)


def is_batch_end_prefix(forged: list[Record], game: list[Record]) -> bool:
    n = len(forged)
    return forged == game[:n] and (n == len(game) or game[n].type in BATCH_STARTS)


def test_a_log_cut_at_a_batch_end_is_caught_only_against_the_receipt(game: list[Record]) -> None:
    cut = game[:-1]  # the dice_revealed batch dropped
    assert audit_records(cut, rulesets).findings == []
    receipt = (game[-1].seq, game[-1].hash)
    assert (cut[-1].seq, cut[-1].hash) != receipt


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_every_forgery_with_a_recomputed_chain_is_caught_unless_it_is_a_legal_game(
    game: list[Record], data: st.DataObject
) -> None:
    kind, forged = data.draw(forgeries(game, TAGS))
    forged = rechain(forged)
    findings = audit_records(forged, rulesets).findings
    assert findings or is_legal_game(forged, rulesets, SEED), f"{kind} forgery passed the audit"


def test_an_audit_resumed_after_an_event_checks_what_follows_as_a_whole_audit_does(
    game: list[Record],
) -> None:
    """Given a log audited in two parts, the second resumed after a batch end from the fold of the
    first, then it is as clean as the whole; and a forgery after the cut is found at its seq."""
    from warlog.arbiter.audit import Auditor
    from warlog.arbiter.fold import Fold

    cut = next(r.seq for r in game[10:] if r.type in BATCH_STARTS) - 1
    folded = (
        Fold(RULESET)
        .rows(
            ((r.seq, r.type, r.data, r.hash) for r in game[:cut]),
            lambda rows: [Codec.for_ruleset(RULESET).decode(r[1], r[2]) for r in rows],
        )
        .folded
    )
    at = game[cut - 1].at

    def resumed(tail: list[Record]) -> Auditor:
        auditor = Auditor.resume(rulesets, RULESET, Codec.for_ruleset(RULESET), folded, at)
        part = next(i for i, r in enumerate(tail) if i > 3 and r.type in BATCH_STARTS)
        auditor.take(tail[:part])  # in parts, each ending at a batch end
        auditor.take(tail[part:])
        auditor.finish()
        return auditor

    clean = resumed(game[cut:])
    whole = audit_records(game, rulesets)
    assert clean.findings == [] and clean.proved.events == len(game) - cut
    assert (
        clean.proved.dice_verified > 0 and clean.proved.dice_verified <= whole.proved.dice_verified
    )
    assert clean.state == whole._state
    r = game[cut + 2]
    forged = [
        *game[cut : cut + 2],
        Record(r.seq, r.type, r.data.replace("}", ',"x":1}'), r.at, r.prev, r.hash),
        *game[cut + 3 :],
    ]
    assert resumed(forged).findings[0].seq == r.seq


@pytest.mark.parametrize(
    ("proved", "unchecked"),
    [
        ({}, []),
        ({"rules_stopped_at": 7}, ["rules from seq 7"]),
        ({"dice_unverified": 2, "dice_sealed": 3}, ["dice: 5 rolls"]),
        ({"dice_sealed": 1}, ["dice: 1 roll"]),
        ({"seals_closed": 4}, ["sealed values: 4 left sealed"]),
        ({"seals_opened": 5, "salts_verified": 5}, []),
        ({"seals_opened": 5, "salts_verified": 2}, ["salts: 3 not checked"]),
        ({"dice_verified": 9, "dice_typed": 4, "batches_rederived": 3}, []),
    ],
)
def test_what_the_audit_could_not_check_is_named_and_nothing_else(
    proved: dict[str, int], unchecked: list[str]
) -> None:
    """What makes an audit without findings not clean (the CLI's `complete`, the server's
    Warlog-Audit-Complete and Warlog-Audit-Unchecked): each reason, and none for what was
    checked (rolls verified or typed by a referee, salts all checked)."""
    from warlog.arbiter.audit import Proved

    assert Proved(**proved).unchecked() == unchecked


def test_an_audit_is_freed_as_soon_as_it_is_dropped(game: list[Record]) -> None:
    """The checks the Auditor hands its rows to hold the findings list, not the Auditor: no
    reference cycle keeps a finished audit (its fold, every roll and salt kept for the reveal)
    alive until the collector runs."""
    auditor = audit_records(game, rulesets)
    gone = weakref.ref(auditor)
    gc.disable()
    try:
        del auditor
        assert gone() is None
    finally:
        gc.enable()
