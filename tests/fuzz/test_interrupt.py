"""Ctrl-C ends ``warlog fuzz`` as its budget running out would: the search stops, and so does
the shrinking, what was found is written, the summary says where it was interrupted, and the
exit status says whether a failure was found (4) or not (1, ``input/interrupted``)."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.fuzz import planted as plants
from tests.fuzz.test_command import HB, warlog
from tests.fuzz.test_planted_bugs import recorded
from warlog.fuzz import run, search, shrink, sources

#: what the terminal is given besides text: the progress bar's colours and its clearing
CONTROLS = re.compile(r"\x1b\[[0-9;]*[A-Za-z]|\r")


def test_ctrl_c_during_the_search_sums_up_what_ran_and_exits_1(tmp_path: Path) -> None:
    """Given a search of Midgard's golden game far longer than the test, on a terminal (its
    progress bar on stderr), when Ctrl-C is pressed once examples are running, then the run
    prints its summary, which says it was interrupted, where and after how many examples, and
    the seed to run them again, with no failure claimed; and it exits 1 with one line saying
    so (as ``play -`` does), nothing written."""
    parent, child = pty.openpty()
    out = tmp_path / "failures"
    command = ["fuzz", HB, "--seed", "1", "--budget", "600", "--examples", "100000"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "warlog", *command, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=child,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    os.close(child)
    shown, deadline = b"", time.monotonic() + 120
    while b" examples" not in shown and time.monotonic() < deadline:  # the bar counts them
        if select.select([parent], [], [], 1)[0]:
            shown += os.read(parent, 4096)
    assert b" examples" in shown, shown
    proc.send_signal(signal.SIGINT)
    stdout, _ = proc.communicate(timeout=120)
    while True:
        try:
            more = os.read(parent, 4096)
        except OSError:  # the terminal's other side is closed: all was read
            break
        if not more:
            break
        shown += more
    os.close(parent)
    assert proc.returncode == 1
    lines = stdout.decode().splitlines()
    counted = re.match(r"heroic-battles \(version 1\): (\d+) of 100000 examples \(", lines[0])
    assert counted and "interrupted)" in lines[0], lines[0]
    examples = int(counted.group(1))
    assert lines[-3:-1] == [
        "no failure found before the interruption",
        f"interrupted (Ctrl-C) in heroic-battles after {examples} examples; --seed 1 runs the "
        "same examples again",
    ]
    assert lines[-1].startswith("seed 1; ")
    errors = [line for line in CONTROLS.sub("\n", shown.decode()).splitlines() if "error[" in line]
    assert errors == [
        f"error[input/interrupted]: interrupted in heroic-battles after {examples} examples: no "
        "failure found in what ran"
    ]
    assert not out.exists()


NAME = "bfa-planted-mutation"


def interrupted_after_the_first_failure(monkeypatch: pytest.MonkeyPatch, draws: int) -> None:
    """Ctrl-C pressed as the search draws its ``draws``-th step after its first failure
    (while Hypothesis shrinks it)."""
    after: list[int] = []

    def draw_step(data: Any, example: Any, source: Any) -> Any:
        if example.tally.first_failure:
            after.append(1)
            if len(after) == draws:
                raise KeyboardInterrupt
        return drawn(data, example, source)

    drawn = search.draw_step
    monkeypatch.setattr(search, "draw_step", draw_step)


def test_ctrl_c_after_a_failure_was_found_writes_it_not_fully_shrunk_and_exits_4(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a planted bug (an evolve that changes the state it is handed) found at the first
    example, when Ctrl-C is pressed while Hypothesis shrinks it, then the failure found so far
    is written to --out as a normal run writes it, said to be shrunk no further, not replayed;
    the summary says where the run was interrupted; it exits 4; and the pair it wrote fails
    again when replayed. (One run a process: the planted change in place outlives it.)"""
    source = recorded(NAME, tmp_path)
    out = tmp_path / "failures"
    interrupted_after_the_first_failure(monkeypatch, draws=3)
    with plants.registered(NAME, plants.PLANTED[NAME]()):
        status, stdout, stderr = warlog("fuzz", str(source), "--seed", "4", "--out", str(out))
        assert (status, stderr) == (4, "")
        lines = stdout.splitlines()
        assert lines[0].startswith(f"{NAME} (version 5): ") and "interrupted)" in lines[0]
        assert "(the first failed at example 1; " in lines[0], lines[0]
        at = lines.index("1 failure:")
        assert lines[at + 1].startswith(f"  [{NAME}] purity: ")
        pair = re.fullmatch(
            r"    (\S+)\.jsonl \(\d+ events: the source to seq \d+, then \d+ generated "
            r"commands?\) and \.json \(1 step to replay\) \(it could not be replayed: the run "
            r"was interrupted\)",
            lines[at + 2],
        )
        assert pair, lines[at + 2]
        assert lines[at + 3] == (
            "    shrinking stopped short (interrupted while Hypothesis shrank it): the pair may "
            "hold more than the failure needs"
        )
        assert re.fullmatch(
            rf"interrupted \(Ctrl-C\) in {NAME} after \d+ examples; --seed 4 runs the same "
            "examples again",
            lines[at + 4],
        ), lines[at + 4]
        written = Path(pair.group(1))
        assert written.parent == out and written.with_suffix(".jsonl").is_file()
        status, stdout, _ = warlog("fuzz", "--replay", str(written.with_suffix(".json")))
        assert status == 4 and "still failing: purity" in stdout


class InterruptedExample:
    """An example of warlog's shrinking passes, interrupted by Ctrl-C as it starts."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt


def test_ctrl_c_while_warlog_shrinks_a_failure_keeps_the_smallest_found_so_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a planted bug found by the search (an out-of-turn end of phase), when Ctrl-C is
    pressed as warlog's own shrinking tries its first example, then the run ends with the
    failure as Hypothesis shrank it, said to be stopped short by the interruption, and the
    report says where the run was interrupted."""
    name = "bfa-planted-turn"
    source = recorded(name, tmp_path)
    monkeypatch.setattr(shrink, "Example", InterruptedExample)
    with plants.registered(name, plants.PLANTED[name]()):
        report = run.fuzz(
            [str(source)], lambda: None, examples=40, seed=TURN_SEED, out=str(tmp_path)
        )
    (found,) = report.found
    assert found.check == "outcome" and found.fixture
    assert found.unfinished.endswith(": interrupted"), found.unfinished
    assert report.interrupted == name and report.tallies[0].stopped == "interrupted"


#: a seed with which the search finds the out-of-turn end of phase within 40 examples, at a
#: fork point after others (so that warlog's shrinking has earlier ones to try)
TURN_SEED = 4


def test_ctrl_c_while_the_sources_load_says_nothing_was_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def loading(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(sources, "load", loading)
    status, stdout, stderr = warlog("fuzz", HB, "--seed", "1")
    assert (status, stdout) == (1, "")
    assert stderr == (
        "error[input/interrupted]: interrupted while loading the sources: nothing was checked\n"
    )
