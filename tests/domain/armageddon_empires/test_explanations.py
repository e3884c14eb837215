"""Why each event happened, in the cases a rule's common wording gets wrong: walked over the
recorded game (3,215 events), every such event explains what the rules did in its own case."""

from __future__ import annotations

import pytest

from tests.recorded import clear_events, recorded
from warlog.arbiter.application import Arbiter
from warlog.domain.armageddon_empires.challenge_events import CaptureKillBegan, CardDamaged
from warlog.domain.armageddon_empires.events import ArmyMoved
from warlog.domain.core.events import Event


@pytest.fixture(scope="module")
def game() -> tuple[Arbiter, str]:
    return recorded("armageddon-empires", "ae-golden")


@pytest.fixture(scope="module")
def golden(game: tuple[Arbiter, str]) -> list[Event]:
    return clear_events(*game)[1]


def test_a_move_into_an_unseen_army_at_its_destination_enters_the_hex(golden: list[Event]) -> None:
    entered = [e for e in golden if isinstance(e, ArmyMoved) and e.contact and e.contact == e.to]
    assert entered, "the recorded game has such a move"
    for e in entered:
        text = e.explain()
        assert f"at {e.to}, its destination, and entered the hex" in text
        assert "stopped short" not in text


def test_a_capture_kill_after_a_battle_is_no_hunt(golden: list[Event]) -> None:
    after = [e for e in golden if isinstance(e, CaptureKillBegan) and e.frame.battle]
    hunts = [e for e in golden if isinstance(e, CaptureKillBegan) and not e.frame.battle]
    assert after and hunts, "the recorded game has both"
    for e in after:
        text = e.explain()
        assert f"is left alone after battle {e.frame.battle}" in text and "(p.34; AE-33)" in text
        assert " hunts " not in text and " AP (R11; AE-21)" not in text
    for e in hunts:
        assert " hunts " in e.explain() and "AP (R11; AE-21)" in e.explain()


def test_damage_taken_outside_a_challenge_names_no_challenge(golden: list[Event]) -> None:
    outside = [e for e in golden if isinstance(e, CardDamaged) and not e.challenge]
    assert outside, "the recorded game has a helo's launch damage"
    assert all("in challenge" not in e.explain() for e in outside)


def test_the_events_view_tells_both_empires_of_a_base_captured_and_a_battle_s_end(
    game: tuple[Arbiter, str],
) -> None:
    # given the recorded game, in which bases fall (red-gate, then red's HQ) and battles end
    arb, gid = game
    entries = arb.events_view(gid).entries
    records = {r.seq: r for r in clear_events(arb, gid)[0]}
    captured = [e for e in entries if records[e.seq].type == "base_captured"]
    ended = [e for e in entries if records[e.seq].type == "battle_ended"]
    # then each capture is news to both empires for 2 rounds, each battle's end to both its sides
    assert captured and {(e.empire, e.duration) for e in captured} == {("red", 2), ("blue", 2)}
    assert any("captures red's red-keep" in e.text for e in captured)
    assert ended and all(e.duration == 1 and " wins; " in e.text for e in ended)
    assert {e.empire for e in ended} == {"red", "blue"}
