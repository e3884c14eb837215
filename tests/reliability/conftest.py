"""Helpers for the reliability tests: real processes on real SQLite files.

The CLI runs in child processes exactly as a user runs it (``warlog`` is ``warlog.cli.program:main``), with
the dice-race test ruleset registered beside the real ones, as the CLI contract tests do.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.toy import rulesets
from warlog.arbiter.audit import audit_records
from warlog.arbiter.database import on_database
from warlog.eventstore.records import Record
from warlog.eventstore.sqlite_store import SQLiteStore

ROOT = Path(__file__).resolve().parents[2]
SEED = bytes(range(32))
#: a dice race nobody wins: games go on as long as a test needs
ENDLESS = b'players = ["red", "blue"]\ntarget = 1000000000\n'
#: the ``warlog`` entry point, with the test ruleset registered
BOOT = (
    "from warlog.domain import rulesets; rulesets.register('dice-race', 'tests.toy:RULESET'); "
    "from warlog.cli.program import main; main()"
)


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("WARLOG_DEBUG", "WARLOG_DB")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra)
    return env


def warlog_argv(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-c", BOOT, "--db", str(db), *args]


def warlog(
    db: Path,
    *args: str,
    input: str | bytes | None = None,
    timeout: float = 60,
    preexec_fn: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``warlog --db DB ARGS`` in a child process; its exit code, stdout and stderr."""
    data = input.decode("utf-8", "surrogateescape") if isinstance(input, bytes) else input
    return subprocess.run(
        warlog_argv(db, *args),
        cwd=ROOT,
        input=data,
        capture_output=True,
        text=True,
        errors="surrogateescape",
        timeout=timeout,
        env=child_env(),
        preexec_fn=preexec_fn,
        check=False,
    )


def assert_one_error_line(stderr: str, code: str | None = None) -> str:
    """stderr is exactly one ``error[CODE]: ...`` line, and not a bug report or a traceback."""
    lines = stderr.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got:\n{stderr}"
    line = lines[0]
    assert line.startswith("error["), line
    assert "Traceback" not in stderr
    assert not line.startswith("error[internal/bug]"), line
    if code is not None:
        assert line.startswith(f"error[{code}]: "), line
    return line


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_game(db: Path, scenario: Path, game: str = "g", *, dice: str = "auto") -> None:
    """A closed database holding a new dice race ``game`` (seeded dice)."""
    if not scenario.exists():
        scenario.write_bytes(ENDLESS)
    with on_database(db, rulesets, create=True, seeds=lambda: SEED) as arb:
        arb.new_game("dice-race", str(scenario), game=game, dice=dice)


def records_of(db: Path, game: str = "g") -> list[Record]:
    with SQLiteStore(db) as store:
        return list(store.read(game))


def assert_whole_log(
    db: Path, game: str = "g", rulesets: Callable[[str], Any] = rulesets
) -> list[Record]:
    """The log's seqs run 1..head without gap or repeat, its chain holds, every batch is whole
    (audit re-derives every command's consequences from the rules); the records."""
    records = records_of(db, game)
    assert [r.seq for r in records] == list(range(1, len(records) + 1))
    findings = audit_records(records, rulesets).findings
    assert not findings, "\n".join(f.line() for f in findings[:5])
    return records


def command(player: str, n: int) -> str:
    """A legal command for ``player`` whose turn it is: roll 1-3 dice, or pass."""
    kind = n % 4
    if kind == 3:
        return json.dumps({"type": "pass", "player": player})
    return json.dumps({"type": "roll", "player": player, "count": kind + 1})


def next_player(records: list[Record]) -> str:
    """Whose turn it is after ``records`` (the toy ruleset passes the turn in turn_passed)."""
    for record in reversed(records):
        if record.type == "turn_passed":
            return str(json.loads(record.data)["to"])
    return "red"


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "endless.toml"
    path.write_bytes(ENDLESS)
    return path


def snapshot_agrees(db: Path, game: str = "g") -> Any:
    """The state from the latest snapshot plus the tail equals the fold of the whole log."""
    import msgspec

    with on_database(db, rulesets) as arb:
        from_snapshot = arb.folded(game)
        whole = arb.fold_records(arb.ruleset_of(game), arb.store.read(game))
    assert from_snapshot.seq == whole.seq
    assert msgspec.msgpack.encode(from_snapshot.state) == msgspec.msgpack.encode(whole.state)
    return whole.state
