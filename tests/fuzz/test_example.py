"""One example driven step by step: what it counts of a step that fails a check."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace

from tests.fuzz import planted as plants
from tests.fuzz.test_planted_bugs import recorded
from warlog.arbiter import snapshots
from warlog.arbiter.autoplay import autoplay
from warlog.arbiter.fold import Folded
from warlog.domain.battle_for_armageddon.events import TurnBegan
from warlog.fuzz import sources
from warlog.fuzz.checks import Failure
from warlog.fuzz.example import Example, Step, forked
from warlog.fuzz.report import Tally
from warlog.fuzz.sources import Source, Sources


@contextmanager
def loaded(name: str, tmp: Path, rules: Any) -> Iterator[tuple[Sources, Source, Tally]]:
    """The recorded game of the planted ruleset ``name`` loaded as a fuzz source while ``rules``
    are registered under that name, and an empty tally for it."""
    source = recorded(name, tmp)
    with plants.registered(name, rules):
        holder = sources.load([str(source)], lambda: pytest.fail("no database"))
        (src,) = holder.sources
        yield holder, src, Tally(name, {src.name: src.ruleset.version}, [])


def test_a_step_that_fails_a_check_is_counted_and_its_events_covered(tmp_path: Path) -> None:
    name = "bfa-planted-turn"
    with loaded(name, tmp_path, plants.PLANTED[name]()) as (holder, src, tally):
        for at in reversed(src.ends):  # a fork point where one side may end the phase
            example = Example(forked(holder, src, at, b"\1" * 32), tally, twins=False)
            idle = [p for p in example.seats if p not in example.legal]
            if example.answers and "end_phase" in example.answers and idle:
                break
        before, _ = example.arb.head(example.game)
        step = Step("wrong_player", json.dumps({"type": "end_phase", "player": idle[0]}))
        with pytest.raises(Failure) as failed:
            example.run(step)
        assert failed.value.check == "outcome"
        appended = example.arb.head(example.game)[0] - before
    # the plant accepted it: counted as accepted, its events in the coverage
    assert tally.accepted == 1 and tally.refused == tally.crashed == 0
    assert tally.expected == {"refused": 1}
    assert appended and sum(tally.reached.values()) == appended
    assert tally.reached.get("phase_ended") == 1


def test_the_referee_s_view_is_rendered_at_the_end_of_each_example(tmp_path: Path) -> None:
    """Given rules whose summary crashes only as the referee reads it, when an example of a
    game of them ends, then the views check fails, naming the referee's view."""
    name = "bfa-planted-referee-view"
    with loaded(name, tmp_path, plants.PLANTED[name]()) as (holder, src, tally):
        example = Example(forked(holder, src, src.ends[0], b"\1" * 32), tally, twins=False)
        with pytest.raises(Failure) as failed:
            example.finish()
    assert failed.value.check == "views"
    assert failed.value.message.startswith(
        'the view as the referee: KeyError: "planted: the referee\'s summary"'
    ), failed.value.message


def test_the_end_of_an_example_compares_the_state_from_its_newest_snapshot_with_the_live_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given an example forked where the game keeps a snapshot past its start, and snapshots
    that read back a turn later than they were written (a broken encoding), when the example
    ends, then the snapshot check fails naming what differs, the snapshot counted as checked."""
    name = "bfa-planted-referee-view"
    with loaded(name, tmp_path, plants.fixed(name)) as (holder, src, tally):
        for at in reversed(src.ends):
            example = Example(forked(holder, src, at, b"\1" * 32), tally, twins=False)
            newest = example.arb.snapshot(example.game, example.arb.head(example.game)[0])
            if newest is not None and newest.seq > 1:
                break
        decode = snapshots.decode

        def a_turn_later(state_type: type, blob: bytes, initial: Any) -> Folded | None:
            found = decode(state_type, blob, initial)
            if found is not None:
                found.state = replace(found.state, turn=found.state.turn + 1)
            return found

        monkeypatch.setattr(snapshots, "decode", a_turn_later)
        with pytest.raises(Failure) as failed:
            example.finish()
    assert failed.value.check == "snapshot"
    assert failed.value.message.startswith(
        "the state from the newest snapshot and its tail is not the live state: "
    ), failed.value.message
    assert "turn" in failed.value.message
    assert tally.snapshots_checked == 1


def test_an_example_s_game_keeps_a_snapshot_each_time_its_log_passes_64_events(
    tmp_path: Path,
) -> None:
    """Given an example forked near the start of a recorded game, when it is played on for a few
    hundred events, then a snapshot is written (for the example to check) at the head of every
    command whose events take the log past a multiple of 64, and besides those only at round
    starts: snapshots within examples of a few dozen commands."""
    name = "bfa-planted-referee-view"
    round_began = TurnBegan.__struct_config__.tag
    with loaded(name, tmp_path, plants.fixed(name)) as (holder, src, tally):
        example = Example(forked(holder, src, src.ends[0], b"\1" * 32), tally, twins=False)
        arb, game, vault = example.arb, example.game, example.vault
        assert vault is not None
        already = len(vault.written)
        passed: list[int] = []
        rounds: list[int] = []
        head = arb.head(game)[0]
        while head < 4 * 64:
            before = head
            assert autoplay(arb, game, 1) == 1
            head = arb.head(game)[0]
            if head // 64 > before // 64:
                passed.append(head)
            if any(r.type == round_began for r in arb.records(game, before + 1, head)):
                rounds.append(head)
    assert len(passed) == 4  # past 64, 128, 192 and 256
    assert sorted(vault.written[already:]) == sorted({*passed, *rounds})
