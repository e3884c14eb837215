"""How long a referee waits for one ``warlog`` command: a ``warlog play`` process on an existing
database against a bare ``python -c pass`` (the interpreter's own start), and ``warlog play -``
(many commands on one process's stdin) per command.

Both are real processes of the installed ``warlog`` (``python -m warlog``), playing Armageddon
Empires commands chosen by the ruleset's policy. The games are created with a fixed seed so that
the commands, chosen once in memory beforehand, are legal when the processes play them. The
processes run with a bytecode cache (in the run's directory), as an installed package has one:
without it every start compiles warlog's sources again, which is not what a user waits for.
"""

from __future__ import annotations

import functools
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import msgspec

from warlog.arbiter.application import Arbiter
from warlog.arbiter.database import on_database
from warlog.domain import rulesets
from warlog.eventstore.memory_store import MemoryStore

RULESET = "armageddon-empires"
GAME = "start"
SEED = bytes(range(32))


#: what a ``warlog play`` process imports before any of warlog's own code: the command line
#: (click) and what the log needs (msgspec's JSON and msgpack, sqlite3, hashlib, json)
LIBRARIES = "import click, msgspec.json, msgspec.msgpack, sqlite3, hashlib, json"


@dataclass(frozen=True)
class Start:
    bare_ms: float  # python -c pass
    libraries_ms: float  # python -c LIBRARIES: the floor under any warlog process
    play_ms: float  # one warlog play process, one command
    stdin_ms: float  # warlog play -, per command
    stdin_commands: int


def scripted(n: int) -> list[str]:
    """The first ``n`` commands the ruleset's policy plays in the game ``GAME`` on ``SEED`` (fewer
    if the game ends first)."""
    arb = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: SEED)
    game = arb.new_game(RULESET, game=GAME)
    ruleset = arb.ruleset_of(game)
    out = []
    for _ in range(n):
        state = arb.state(game)
        if not ruleset.active_players(state):
            break
        player = ruleset.active_players(state)[0]
        command = ruleset.choose(state, player, list(ruleset.legal_commands(state, player)))
        text = msgspec.json.encode(command).decode()
        arb.play(game, text)
        out.append(text)
    return out


def new_database(path: Path) -> None:
    """A database holding the game ``GAME`` on ``SEED``, just created."""
    for suffix in ("", "-wal", "-shm", ".keys"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    with on_database(path, create=True, seeds=lambda: SEED) as arb:
        arb.new_game(RULESET, game=GAME)


def measure(workdir: Path, runs: int, repeats: int, stdin_commands: int) -> Start:
    """Medians of ``runs`` runs of each single process, alternating which goes first (a start
    takes about a tenth of a second, and one slow start on a shared machine should not move the
    figure), and of ``repeats`` ``play -`` sessions."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(workdir / "pycache")
    commands = scripted(max(runs, stdin_commands))
    stdin_commands = min(stdin_commands, len(commands))
    db = workdir / "start.db"
    new_database(db)
    warlog = [sys.executable, "-m", "warlog", "--db", str(db)]

    def timed(args: list[str], stdin: str | None = None) -> float:
        started = time.perf_counter()
        done = subprocess.run(args, input=stdin, capture_output=True, text=True, env=env)
        elapsed = time.perf_counter() - started
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args[2:])}: {done.stderr.strip()}")
        return elapsed

    timed([*warlog, "state", GAME])  # writes the bytecode cache
    bare: list[float] = []
    libraries: list[float] = []
    play: list[float] = []
    stdin: list[float] = []

    def play_one(command: str) -> None:
        play.append(timed([*warlog, "play", GAME, command]))

    for r in range(runs):
        one: list[Callable[[], None]] = [
            lambda: bare.append(timed([sys.executable, "-c", "pass"])),
            lambda: libraries.append(timed([sys.executable, "-c", LIBRARIES])),
            functools.partial(play_one, commands[r]),
        ]
        for run in one if r % 2 == 0 else reversed(one):
            run()
    for _ in range(repeats):
        path = workdir / "start-stdin.db"
        new_database(path)
        args = [sys.executable, "-m", "warlog", "--db", str(path), "play", GAME, "-"]
        lines = "\n".join(commands[:stdin_commands]) + "\n"
        stdin.append(timed(args, lines) / stdin_commands)
    return Start(
        statistics.median(bare) * 1000,
        statistics.median(libraries) * 1000,
        statistics.median(play) * 1000,
        statistics.median(stdin) * 1000,
        stdin_commands,
    )
