"""Shrinking a failure: the refused steps a written failure would replay, when the failure does
not need them, are dropped (a rules developer reads every step of a shrunk log)."""

from __future__ import annotations

import time
from pathlib import Path

import msgspec

from tests.fuzz import planted as plants
from tests.fuzz.test_planted_bugs import recorded
from warlog.arbiter.application import Arbiter
from warlog.domain import rulesets
from warlog.domain.battle_for_armageddon import commands as cmd
from warlog.eventstore.memory_store import MemoryStore
from warlog.fuzz import shrink, sources
from warlog.fuzz.checks import Failure
from warlog.fuzz.example import Example, Step, forked
from warlog.fuzz.report import Tally
from warlog.fuzz.search import Trace, key_of

#: a side the game does not wait for may end the phase: the outcome check fails on it
NAME = "bfa-planted-turn"


def tally() -> Tally:
    return Tally(NAME, {}, [])


def text(command: object) -> str:
    return msgspec.json.encode(command).decode()


def test_a_refused_step_the_failure_does_not_need_is_dropped(tmp_path: Path) -> None:
    """Given a failure of the planted bug (the Orks end the Imperials' phase) found after a
    deployment refused out of turn and a command refused as bad input, whose fixture would
    replay every step from the fork point (as a leak's does from the step its twin was made
    at), when it is shrunk, then it replays the failing step alone and fails the same check;
    the refused step that fails is kept."""
    log = str(recorded(NAME, tmp_path))
    with plants.registered(NAME, plants.PLANTED[NAME]()):
        holder = sources.load([log], lambda: Arbiter(MemoryStore(), rulesets.get))
        (source,) = holder.sources
        for at in source.ends:  # a fork point where the Imperials may end the phase
            start = Example(forked(holder, source, at, key_of(0, source)), tally())
            ending = [c for c in start.legal.get("imperials", []) if isinstance(c, cmd.EndPhase)]
            if ending:
                break
        steps = [
            Step("wrong_player", text(cmd.Deploy(player="orks", counter="x", to="y"))),
            Step("malformed", '{"type": "no_such_command"}'),
            Step("wrong_player", text(msgspec.structs.replace(ending[0], player="orks"))),
        ]
        example = Example(forked(holder, source, at, key_of(0, source)), tally())
        try:
            for step in steps:
                example.run(step)
        except Failure as failure:
            trace = Trace.of(0, at, 0, example, failure)
        assert trace.check == "outcome" and [p.accepted for p in trace.played] == [False, False]
        trace = msgspec.structs.replace(trace, since=0)
        shrunk = shrink.without_refused(
            holder, holder.sources, trace, tally(), time.monotonic() + 60
        )
        assert (shrunk.check, shrunk.played, shrunk.since) == ("outcome", [], 0)
        assert shrunk.failing is not None and shrunk.failing.step == steps[2]
