"""One example driven step by step: what it counts of a step that fails a check."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import msgspec
import pytest
from msgspec.structs import replace

from tests.fuzz import planted as plants
from tests.fuzz.test_planted_bugs import recorded
from warlog.arbiter import snapshots
from warlog.arbiter.autoplay import autoplay
from warlog.arbiter.fold import Folded
from warlog.domain.battle_for_armageddon import commands as cmd
from warlog.domain.battle_for_armageddon.events import TurnBegan
from warlog.domain.battle_for_armageddon.state import GameState
from warlog.domain.core.dice import Dice
from warlog.domain.core.events import Event
from warlog.domain.core.ruleset import Command, Notice
from warlog.fuzz import sources
from warlog.fuzz.checks import Failure
from warlog.fuzz.example import Example, Start, Step, forked
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


#: the planted name the rules below are registered under (its recorded game is the fixed rules')
PLANTED = "bfa-planted-referee-view"


class InvariantsCrash(plants.PinnedBattle):
    """Invariants that raise on every state."""

    name: ClassVar[str] = PLANTED

    def invariants(self, state: GameState) -> list[str]:
        raise ZeroDivisionError("planted: no counter to count")


class NobodyToAnswer(plants.PinnedBattle):
    """A game that waits for nobody before it is over."""

    name: ClassVar[str] = PLANTED

    def active_players(self, state: GameState) -> list[str]:
        return []


class NothingToDo(plants.PinnedBattle):
    """A side the game waits for with no legal command."""

    name: ClassVar[str] = PLANTED

    def legal_commands(self, state: GameState, player: str) -> list[Command]:
        return []


@pytest.mark.parametrize(
    ("rules", "check", "message"),
    [
        (InvariantsCrash, "crash", "ZeroDivisionError: planted: no counter to count at "),
        (NobodyToAnswer, "dead_end", "the game is not over but waits for nobody ("),
        (NothingToDo, "dead_end", "the game waits for "),
    ],
)
def test_a_state_at_rest_that_crashes_or_waits_in_vain_fails_from_the_example_s_start(
    tmp_path: Path, rules: type[plants.PinnedBattle], check: str, message: str
) -> None:
    """Given rules whose invariants raise, or that wait for nobody, or for a side with no legal
    command, when an example is forked from a game of them, then it fails that check at once,
    from its first step (since 0), saying why."""
    with (
        loaded(PLANTED, tmp_path, rules()) as (holder, src, tally),
        pytest.raises(Failure) as failed,
    ):
        Example(forked(holder, src, src.ends[0], b"\1" * 32), tally, twins=False)
    assert (failed.value.check, failed.value.since) == (check, 0)
    assert failed.value.message.startswith(message), failed.value.message
    if rules is InvariantsCrash:
        assert failed.value.message.endswith(" in invariants"), failed.value.message
    if rules is NothingToDo:
        assert failed.value.message.endswith(" has no legal command"), failed.value.message


#: while set, each evolve stamps the state with how many evolves ran before it (the plant)
_STAMPING: list[int] = [0]


class StampingEvolve(plants.PinnedBattle):
    """An ``evolve`` that hangs on how often it was called in the process (once the test sets
    it going): the live state and the state replayed from the log differ."""

    name: ClassVar[str] = PLANTED

    def evolve(self, state: GameState, event: Event) -> GameState:
        out = super().evolve(state, event)
        if _STAMPING[0]:
            _STAMPING[0] += 1
            out = replace(out, rebuilds=_STAMPING[0])
        return out


def onward(example: Example) -> Step:
    """The last legal command of the first side the example's game waits for (the end of its
    set-up or phase, where it may end them: the game moves on)."""
    player = sorted(example.legal)[0]
    return Step("legal", msgspec.json.encode(example.legal[player][-1]).decode())


def test_a_live_state_that_is_not_the_state_replayed_from_the_log_fails_the_replay_check(
    tmp_path: Path,
) -> None:
    """Given rules whose evolve hangs on something besides the state and the event, when an
    accepted command is played, then the replay check fails, naming the field that differs,
    and the replay is counted as compared."""
    with loaded(PLANTED, tmp_path, StampingEvolve()) as (holder, src, tally):
        example = Example(forked(holder, src, src.ends[0], b"\1" * 32), tally, twins=False)
        _STAMPING[0] = 1
        try:
            with pytest.raises(Failure) as failed:
                example.run(onward(example))
        finally:
            _STAMPING[0] = 0
    assert failed.value.check == "replay"
    assert failed.value.message.startswith(
        "the live state is not the state replayed from the log: rebuilds"
    ), failed.value.message
    assert tally.replays_compared == 1


@pytest.mark.parametrize(
    ("reads", "message"),
    [
        ("nothing", "the snapshot written at seq {head} cannot be read"),
        ("a turn later", "the snapshot at seq {head} is not the replayed state: turn"),
    ],
)
def test_a_snapshot_written_during_a_step_is_read_back_and_compared_with_the_replayed_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reads: str, message: str
) -> None:
    """Given snapshots that read back as nothing, or a turn later than written, when an example
    is played on until a command's events take its log past 64 events (a snapshot written at
    that command's head), then the snapshot check fails at that step, naming its seq."""
    decode = snapshots.decode

    def broken(state_type: type, blob: bytes, initial: Any) -> Folded | None:
        found = decode(state_type, blob, initial)
        if found is None or reads == "nothing":
            return None
        found.state = replace(found.state, turn=found.state.turn + 1)
        return found

    name = PLANTED
    with loaded(name, tmp_path, plants.fixed(name)) as (holder, src, tally):
        example = Example(forked(holder, src, src.ends[0], b"\1" * 32), tally, twins=False)
        monkeypatch.setattr(snapshots, "decode", broken)
        with pytest.raises(Failure) as failed:
            for _ in range(60):
                example.run(onward(example))
        head = example.arb.head(example.game)[0]
    assert failed.value.check == "snapshot"
    assert failed.value.message.startswith(message.format(head=head)), failed.value.message
    assert tally.snapshots_checked == 1


class HighestFaces:
    """Dice that roll their highest face whatever the seed says: loaded dice."""

    def __init__(self, dice: Dice) -> None:
        self._dice = dice

    def faces(self, offset: int, count: int, sides: int) -> list[int]:
        self._dice.faces(offset, count, sides)
        return [sides] * count


def with_loaded_dice(start: Start) -> Start:
    """``start`` whose arbiter rolls ``HighestFaces`` instead of the dice its key commits to."""
    return lambda dice_filter: start(
        lambda dice: HighestFaces(dice_filter(dice) if dice_filter else dice)
    )


def test_rolls_that_are_not_the_committed_dice_fail_the_audit_once_the_key_is_revealed(
    tmp_path: Path,
) -> None:
    """Given an example whose arbiter rolls loaded dice, not those its key commits to, when it
    is played until a step after the first rolls dice and then ends, then the audit fails once
    the key is revealed, naming the roll, and the failure is shown from the step that rolled."""
    name = PLANTED
    with loaded(name, tmp_path, plants.fixed(name)) as (holder, src, tally):
        start = with_loaded_dice(forked(holder, src, src.ends[0], b"\1" * 32))
        example = Example(start, tally, twins=False)
        player = sorted(example.legal)[0]  # a deployment first: a step that rolls nothing
        first = Step("legal", msgspec.json.encode(example.legal[player][0]).decode())
        assert not example.run(first).dice
        rolled = None
        for index in range(1, 60):
            if example.run(onward(example)).dice:
                rolled = index
                break
        assert rolled is not None
        with pytest.raises(Failure) as failed:
            example.finish()
    assert failed.value.check == "audit"
    assert failed.value.since == rolled == 1
    assert failed.value.message.startswith("seq "), failed.value.message
    assert "[dice]: the faces are not the ones the seed revealed" in failed.value.message
    assert failed.value.message.endswith("found: [10])"), failed.value.message  # a d10 rolled 10


#: per type of command, how many times the rules below decided one (the planted dependency)
_DECIDED: dict[type, int] = {}


class CrashOnTheThirdDecision(plants.PinnedBattle):
    """A ``decide`` that counts the commands it decided, per type, since the test cleared the
    count, and raises on the third deployment or end of set-up: the real game decides it, the
    audit re-derives it, and only a game played alongside (a twin) raises."""

    name: ClassVar[str] = PLANTED

    def decide(self, state: GameState, command: Command, dice: Any) -> list[Event]:
        kind = type(command)
        _DECIDED[kind] = _DECIDED.get(kind, 0) + 1
        if kind in (cmd.Deploy, cmd.EndSetup) and _DECIDED[kind] == 3:
            raise ZeroDivisionError("planted: the third decision")
        return super().decide(state, command, dice)


@pytest.mark.parametrize(
    ("deploy_first", "message"),
    [
        (False, "in a twin game where the others' draws differ for {watcher}: "),
        (True, "replaying the example in a twin game: "),
    ],
    ids=["the step itself in the twin", "an earlier step replayed in the twin"],
)
def test_a_crash_in_a_twin_game_is_a_crash_from_the_step_the_twin_was_made_at(
    tmp_path: Path, deploy_first: bool, message: str
) -> None:
    """Given rules that crash only the third time they decide a command of a type, when the
    Orks end their set-up (drawing the Imperials' hidden cards: a twin game is made for each
    side, the example's accepted steps replayed in it), after a deployment or not, then the
    example fails the crash check, saying where it crashed, from the step the twin was made at."""
    with loaded(PLANTED, tmp_path, CrashOnTheThirdDecision()) as (holder, src, tally):
        example = Example(forked(holder, src, src.ends[0], b"\1" * 32), tally)
        _DECIDED.clear()  # counted from the example's first step (the source's audit decided too)
        if deploy_first:
            deploy = next(c for c in example.legal["orks"] if isinstance(c, cmd.Deploy))
            example.run(Step("legal", msgspec.json.encode(deploy).decode()))
        end_setup = next(c for c in example.legal["orks"] if isinstance(c, cmd.EndSetup))
        with pytest.raises(Failure) as failed:
            example.run(Step("legal", msgspec.json.encode(end_setup).decode()))
    _DECIDED.clear()
    watcher = example.seats[0]
    assert failed.value.check == "crash", failed.value.message
    assert failed.value.since == int(deploy_first)
    assert failed.value.message.startswith(
        message.format(watcher=watcher) + "ZeroDivisionError: planted: the third decision at "
    ), failed.value.message


class SideViewCrashes(plants.PinnedBattle):
    """A view that raises as a side reads it (the referee's renders)."""

    name: ClassVar[str] = PLANTED

    def view(self, state: GameState, player: str | None) -> dict[str, Any]:
        if player is not None:
            raise KeyError(f"planted: {player}'s view")
        return super().view(state, player)


def test_a_crash_reading_what_a_side_is_given_is_a_crash_naming_the_side(tmp_path: Path) -> None:
    """Given rules whose view raises as a side reads it, when the Orks end their set-up (their
    hidden draws make a twin game for each side, whose views are compared with the real
    game's), then the example fails the crash check, naming the side whose view crashed."""
    with loaded(PLANTED, tmp_path, SideViewCrashes()) as (holder, src, tally):
        example = Example(forked(holder, src, src.ends[0], b"\1" * 32), tally)
        end_setup = next(c for c in example.legal["orks"] if isinstance(c, cmd.EndSetup))
        with pytest.raises(Failure) as failed:
            example.run(Step("legal", msgspec.json.encode(end_setup).decode()))
    watcher = example.seats[0]
    assert failed.value.check == "crash", failed.value.message
    assert failed.value.message.startswith(
        f'reading what {watcher} is given: KeyError: "planted: {watcher}\'s view" at '
    ), failed.value.message


class LeakingNotices(plants.PinnedBattle):
    """An Events view that posts each side, after each event, how many special cards the other
    side holds and which (its feed, views and legal commands tell nothing)."""

    name: ClassVar[str] = PLANTED

    def notices(self, before: GameState, after: GameState, event: Event) -> list[Notice]:
        out = super().notices(before, after, event)
        for side, other in (("orks", "imperials"), ("imperials", "orks")):
            out.append(Notice(side, f"the {other} hold {', '.join(after.hands[other])}"))
        return out


def test_an_events_view_that_differs_with_the_others_draws_fails_the_views_check_at_the_end(
    tmp_path: Path,
) -> None:
    """Given an Events view that tells each side the other's hand, when the Orks end their
    set-up (both sides draw hidden cards: a twin game is made for each, where the other's draws
    differ) and the example ends, then it fails the views check, naming the first side whose
    twin was made and the entry that differs, from the step the twin was made at."""
    with loaded(PLANTED, tmp_path, LeakingNotices()) as (holder, src, tally):
        example = Example(forked(holder, src, src.ends[0], b"\1" * 32), tally)
        end_setup = next(c for c in example.legal["orks"] if isinstance(c, cmd.EndSetup))
        example.run(Step("legal", msgspec.json.encode(end_setup).decode()))
        assert list(example.twins) == ["imperials", "orks"]
        with pytest.raises(Failure) as failed:
            example.finish()
    assert (failed.value.check, failed.value.since) == ("views", 0)
    assert failed.value.message.startswith(
        "imperials's Events view differs when the others' hidden draws differ: "
    ), failed.value.message
    assert ": the orks hold " in failed.value.message, failed.value.message
