"""``play -`` plays each line as it arrives: a referee's pipe (``tail -f commands | warlog play
G -``) applies commands while it stays open, an interruption keeps those applied before it, and
a command applied whose output cannot be written says it was applied."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.cli.command import one_line, run

BUY = {"type": "buy_initiative", "player": "red", "count": 1}


def head(db: Path) -> int:
    return int(run(db, "head", "g")[1].split()[0])


def test_a_line_is_played_as_it_arrives_and_an_interruption_keeps_it(tmp_path: Path) -> None:
    """Given `play -` reading a pipe the referee keeps open, when one command is written, then
    it is appended before the pipe closes; when the process is then interrupted, it exits 1
    saying one command was applied, and that command stays."""
    db = tmp_path / "s.db"
    assert run(db, "new", "armageddon-empires", "--game", "g")[0] == 0
    before = head(db)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "warlog", "--db", str(db), "play", "g", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None
    proc.stdin.write((json.dumps(BUY) + "\n").encode())
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while head(db) == before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert head(db) > before, "the line was not played while the pipe stayed open"
    played = head(db)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)  # stdin still open: the interruption, not an end of input, stops it
    assert proc.stderr is not None
    err = proc.stderr.read()
    proc.stdin.close()
    assert proc.returncode == 1
    assert one_line(err.decode(), "input/interrupted") == (
        "error[input/interrupted]: interrupted: 1 command applied before it, nothing of the next"
    )
    assert head(db) == played


def test_a_command_whose_output_cannot_be_written_says_it_was_applied(tmp_path: Path) -> None:
    db = tmp_path / "f.db"
    assert run(db, "new", "armageddon-empires", "--game", "g")[0] == 0
    before = head(db)
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "warlog", "--db", str(db), "play", "g", json.dumps(BUY)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    line = one_line(done.stderr, "input/unwritable")
    assert line.startswith(
        f"error[input/unwritable]: the command was applied (events {before + 1}.."
    )
    assert "do not play it again" in line
    assert head(db) > before


def test_a_line_without_end_is_refused_before_it_fills_memory(tmp_path: Path) -> None:
    db = tmp_path / "z.db"
    assert run(db, "new", "heroic-battles", "--game", "g")[0] == 0
    before = head(db)
    status, _, err = run(db, "play", "g", "-", input=b"x" * (1024 * 1024 + 10))
    assert status == 1
    assert one_line(err, "input/bad_json") == (
        "error[input/bad_json]: line 1 is longer than 1,048,576 bytes: not a command"
    )
    assert head(db) == before
