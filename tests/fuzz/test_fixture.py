"""A failure written as a pair: the log up to the steps that show it, and those steps."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from tests.fuzz import planted as plants
from tests.fuzz.test_planted_bugs import recorded
from warlog.domain.battle_for_armageddon import commands as cmd
from warlog.domain.core.errors import InputError
from warlog.fuzz import fixture, sources
from warlog.fuzz.checks import Failure
from warlog.fuzz.example import Example, Step, forked
from warlog.fuzz.report import Tally
from warlog.fuzz.search import Trace, key_of

#: a side the game does not wait for may end the phase: the outcome check fails on it
NAME = "bfa-planted-turn"
#: the Orks end the phase while the game waits for the Imperials
#: input that is no command, refused
GARBAGE = Step("malformed", "{")
OUT_OF_TURN = Step("wrong_player", json.dumps({"type": "end_phase", "player": "orks"}))


def found_after_garbage_and_a_move(
    holder: sources.Sources, source: sources.Source
) -> tuple[Trace, Step]:
    """The outcome failure of an example that plays ``GARBAGE`` (refused), a move of the
    Imperials (accepted) and ``OUT_OF_TURN`` (accepted by the planted rules); and the move."""
    tally = Tally(NAME, {}, [])
    for at in source.ends:  # a move of the Imperials, after which the Orks end the phase
        start = forked(holder, source, at, key_of(0, source))
        moves = [
            c
            for c in Example(start, tally, twins=False).legal.get("imperials", [])
            if not isinstance(c, cmd.EndPhase)
        ]
        if not moves:
            continue
        move = Step("legal", msgspec.json.encode(moves[0]).decode())
        example = Example(forked(holder, source, at, key_of(0, source)), tally, twins=False)
        example.run(GARBAGE)
        example.run(move)
        try:
            example.run(OUT_OF_TURN)
        except Failure as failure:
            trace = Trace.of(0, at, 0, example, failure)
            assert trace.check == "outcome"
            return trace, move
    raise AssertionError("no fork point where the Imperials move")


def test_a_pair_s_log_holds_the_steps_played_before_the_first_it_replays(tmp_path: Path) -> None:
    """Given a failure found after a refused step and an accepted one that its pair does not
    replay (as a leak's pair replays from the step its twin was made at), when it is written,
    then its log holds the accepted step's command after the fork, and its steps are the
    failing one alone; replayed, it fails the same check."""
    log = str(recorded(NAME, tmp_path))
    with plants.registered(NAME, plants.PLANTED[NAME]()):
        holder = sources.load([log], lambda: pytest.fail("no database"))
        trace, move = found_after_garbage_and_a_move(holder, holder.sources[0])
        trace = msgspec.structs.replace(trace, since=2)
        written = fixture.write(holder, holder.sources, trace, tmp_path / "failures", 1)
        pair = written.path.with_suffix(".json")
        lines = [json.loads(line) for line in pair.with_suffix(".jsonl").read_text().splitlines()]
        issued = [e["data"]["command"] for e in lines[trace.at :] if e["type"] == "command_issued"]
        assert issued == [json.loads(move.text)]
        steps = json.loads(pair.read_text())["steps"]
        assert [s["text"] for s in steps] == [OUT_OF_TURN.text]
        replayed = fixture.replay(str(pair))
        assert replayed.failure is not None and replayed.failure.check == "outcome"


def test_a_step_that_is_no_json_is_kept_as_its_text_alone(tmp_path: Path) -> None:
    """Given a failure whose steps begin with input that is no JSON, when its pair is written,
    then that step keeps its text exactly and has no parsed command, each other step has its
    command parsed beside its text; replayed, the pair fails the same check."""
    log = str(recorded(NAME, tmp_path))
    with plants.registered(NAME, plants.PLANTED[NAME]()):
        holder = sources.load([log], lambda: pytest.fail("no database"))
        trace, move = found_after_garbage_and_a_move(holder, holder.sources[0])
        trace = msgspec.structs.replace(trace, since=0)  # every step replayed
        written = fixture.write(holder, holder.sources, trace, tmp_path / "failures", 1)
        pair = written.path.with_suffix(".json")
        steps = json.loads(pair.read_text())["steps"]
        assert [(s["kind"], s["text"], s.get("command")) for s in steps] == [
            ("malformed", "{", None),
            ("legal", move.text, json.loads(move.text)),
            ("wrong_player", OUT_OF_TURN.text, json.loads(OUT_OF_TURN.text)),
        ]
        replayed = fixture.replay(str(pair))
        assert replayed.failure is not None and replayed.failure.check == "outcome"


def test_the_same_failure_found_by_another_run_keeps_the_pair_the_first_run_wrote(
    tmp_path: Path,
) -> None:
    """Given a failure written to a folder by the run with seed 1, when the run with seed 3
    finds the same failure (the same log and steps, so the same name), then it writes nothing
    over it: the pair is kept as it was, its .json still naming seed 1, and the run is told
    so; and the pair's log and steps are counted: the source to the fork point, then the one
    accepted command its log holds, then the failing step to replay."""
    log = str(recorded(NAME, tmp_path))
    with plants.registered(NAME, plants.PLANTED[NAME]()):
        holder = sources.load([log], lambda: pytest.fail("no database"))
        trace, _ = found_after_garbage_and_a_move(holder, holder.sources[0])
        trace = msgspec.structs.replace(trace, since=2)
        out = tmp_path / "failures"
        first = fixture.write(holder, holder.sources, trace, out, 1)
        again = fixture.write(holder, holder.sources, trace, out, 3)
    assert (first.fork_at, first.commands, first.steps) == (trace.at, 1, 1)
    assert (first.kept, again.kept, again.kept_seed) == (False, True, 1)
    assert again.path == first.path
    assert json.loads(first.path.with_suffix(".json").read_text())["seed"] == 1


def test_the_same_failure_from_the_same_source_named_otherwise_keeps_the_pair(
    tmp_path: Path,
) -> None:
    """Given a failure written by a run that named its source as a path, when a run that names
    the same file otherwise (``DIR/./NAME``) finds the same failure, then the pair is kept, not
    refused as another failure's: the source's spelling is for people, as the seed is."""
    log = str(recorded(NAME, tmp_path))
    spelled = log.replace(str(tmp_path), f"{tmp_path}/.")
    assert spelled != log
    with plants.registered(NAME, plants.PLANTED[NAME]()):
        out = tmp_path / "failures"
        written = []
        for name in (log, spelled):
            holder = sources.load([name], lambda: pytest.fail("no database"))
            trace, _ = found_after_garbage_and_a_move(holder, holder.sources[0])
            written.append(fixture.write(holder, holder.sources, trace, out, 1))
    first, again = written
    assert (first.kept, again.kept, again.path) == (False, True, first.path)


def test_a_pair_of_another_failure_under_the_same_name_is_not_written_over(
    tmp_path: Path,
) -> None:
    """Given a folder whose pair by a failure's name holds something else (edited by hand),
    when the failure is written there, then nothing is written over it and the error says why
    and what to do (exit 1)."""
    log = str(recorded(NAME, tmp_path))
    with plants.registered(NAME, plants.PLANTED[NAME]()):
        holder = sources.load([log], lambda: pytest.fail("no database"))
        trace, _ = found_after_garbage_and_a_move(holder, holder.sources[0])
        out = tmp_path / "failures"
        written = fixture.write(holder, holder.sources, trace, out, 1)
        pair = written.path.with_suffix(".json")
        pair.write_text(pair.read_text().replace('"outcome"', '"crash"'))
        with pytest.raises(InputError) as raised:
            fixture.write(holder, holder.sources, trace, out, 3)
    assert raised.value.exit_code == 1
    assert raised.value.line() == (
        f"error[input/unwritable]: {written.path.with_suffix('.jsonl')} exists and is not this "
        "failure's: nothing written over it (move it away, or give another --out)"
    )
    assert '"crash"' in pair.read_text()
