"""The ``warlog`` program around its command line: the garbage collector paused for the imports
and frozen at the end (docs/performance.md, "CLI start"), and nothing of a command lost for it."""

from __future__ import annotations

import gc
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import warlog.cli.main
from warlog.cli import program

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def collector() -> Iterator[None]:
    """Give the test process its collector back as it was: the program freezes what it holds."""
    enabled = gc.isenabled()
    yield
    gc.unfreeze()
    if enabled:
        gc.enable()


def test_the_command_runs_with_the_collector_on_and_keeps_its_exit_code(
    collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a command line that notes whether the collector runs, and exits as a rejection does
    seen: list[bool] = []

    def command_line(prog_name: str) -> None:
        seen.append(gc.isenabled())
        gc.unfreeze()  # what the imports froze: only the freeze at the end may count below
        raise SystemExit(3)

    monkeypatch.setattr(warlog.cli.main, "cli", command_line)
    # when the program runs it
    with pytest.raises(SystemExit) as exit_:
        program.main()
    # then the command ran with the collector on (a server or a `play -` session collects its
    # garbage), its exit code is the program's, and what was left is out of the collector's way
    assert seen == [True]
    assert exit_.value.code == 3
    assert gc.get_freeze_count() > 0


def test_a_process_imports_the_command_line_without_a_collection() -> None:
    # given a fresh process that counts the collector's passes until the command line starts
    # (click is imported first, to note that moment; warlog's modules are not imported yet)
    counting = (
        "import gc, sys, click\n"
        "passes, at_start = [], []\n"
        "gc.callbacks.append(lambda phase, info: phase == 'start' and passes.append(1))\n"
        "run = click.Command.main\n"
        "def noted(self, *args, **kwargs):\n"
        "    at_start.append(len(passes))\n"
        "    return run(self, *args, **kwargs)\n"
        "click.Command.main = noted\n"
        "from warlog.cli import program\n"
        "sys.argv = ['warlog', '--help']\n"
        "try:\n"
        "    program.main()\n"
        "except SystemExit:\n"
        "    print(at_start[0])\n"
    )
    # when it imports the command line (the application, the store, the codec) and runs it
    done = subprocess.run(
        [sys.executable, "-c", counting], capture_output=True, text=True, cwd=ROOT
    )
    # then no pass ran while it imported: a process without the pause runs several
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "0"


def test_importing_the_command_line_imports_no_command_s_heavy_modules() -> None:
    # given a fresh process that imports the command line, every command registered
    probe = (
        "import sys, warlog.cli.main\n"
        "heavy = ['hypothesis', 'litestar', 'uvicorn', 'psycopg', 'warlog.server',\n"
        "         'warlog.fuzz.run', 'warlog.arbiter.audit', 'warlog.arbiter.sources',\n"
        "         'warlog.arbiter.reports', 'warlog.cli.demo', 'warlog.domain.armageddon_empires']\n"
        "print(' '.join(name for name in heavy if name in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    # then none of what the commands need for their work was imported: a command imports it in
    # its body, so that a `warlog play` process does not pay for the fuzzer, the server, the
    # audit or a ruleset it does not play
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


def warlog_process(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m warlog`` as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "warlog", "--db", str(db), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_a_play_process_commits_and_closes_everything_before_it_exits(tmp_path: Path) -> None:
    # given a new game
    db = tmp_path / "w.db"
    game = warlog_process(db, "new", "armageddon-empires", "--game", "g").stdout.strip()
    legal = warlog_process(db, "legal", game).stdout.splitlines()
    # when a process plays a legal command and exits
    played = warlog_process(db, "play", game, legal[0])
    # then its batch is printed and committed, and the database and the key file were closed
    # (the last connection to close checkpoints and removes each write-ahead log)
    assert played.returncode == 0 and played.stderr == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.db", "w.db.keys"]
    printed = [int(line.split()[0]) for line in played.stdout.splitlines()]
    conn = sqlite3.connect(db)
    (head,) = conn.execute("SELECT max(seq) FROM events WHERE game = 'g'").fetchone()
    conn.close()
    assert printed[-1] == head and printed[0] < head
    # and a rejected command still exits with the rules' code and one line
    rejected = warlog_process(db, "play", game, legal[0])
    assert rejected.returncode == 3
    assert rejected.stderr.startswith("error[rules/") and rejected.stderr.count("\n") == 1


#: the modules a `warlog play` process never needs: creating, forking, revealing, auditing and
#: explaining a game (docs/performance.md, "CLI start")
NOT_FOR_PLAY = (
    "warlog.arbiter.creating",
    "warlog.arbiter.forks",
    "warlog.arbiter.revealing",
    "warlog.arbiter.audit_stored",
    "warlog.arbiter.explain",
    "warlog.arbiter.audit",
    "warlog.arbiter.audit_chain",
    "warlog.arbiter.audit_lineage",
    "warlog.arbiter.audit_rederive",
    "warlog.arbiter.audit_report",
    "warlog.arbiter.audit_reveal",
    "warlog.arbiter.audit_rows",
    "warlog.server",
    "warlog.fuzz.run",  # the package itself holds only the defaults `warlog fuzz --help` shows
    "warlog.fuzz.search",
    "hypothesis",
    "litestar",
)


def test_a_play_process_loads_nothing_of_what_it_does_not_run(tmp_path: Path) -> None:
    # given a new game and a legal command
    db = tmp_path / "w.db"
    game = warlog_process(db, "new", "armageddon-empires", "--game", "g").stdout.strip()
    legal = warlog_process(db, "legal", game).stdout.splitlines()
    # when a process plays it as `warlog play` does, and says what it had loaded at its exit
    probe = (
        "import atexit, sys\n"
        f"names = {NOT_FOR_PLAY!r}\n"
        "atexit.register(lambda: print('loaded:', *[n for n in names if n in sys.modules]))\n"
        "from warlog.cli import program\n"
        f"sys.argv = ['warlog', '--db', {str(db)!r}, 'play', 'g', {legal[0]!r}]\n"
        "program.main()\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    # then it played, and loaded none of the modules for creating, forking, revealing,
    # auditing or explaining a game, nor the server's or the fuzzer's
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "loaded:"


def test_a_reader_that_stops_reading_ends_the_command_quietly_with_exit_0(tmp_path: Path) -> None:
    """Given a game, when `warlog events` writes to a pipe whose reader has already gone (as
    `warlog events G | head` leaves it), then the process ends with exit 0 (README, "Commands
    and exit codes": 0 done; the reader took what it wanted) and writes nothing on stderr: no
    error line, no traceback (ARCHITECTURE.md, "Errors and exit codes")."""
    db = tmp_path / "w.db"
    assert warlog_process(db, "new", "armageddon-empires", "--game", "g").returncode == 0
    reading = subprocess.Popen(
        [sys.executable, "-m", "warlog", "--db", str(db), "events", "g"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert reading.stdout is not None and reading.stderr is not None
    reading.stdout.close()  # before the process has imported anything: its first line breaks
    told = reading.stderr.read()
    assert (reading.wait(timeout=60), told) == (0, b"")
