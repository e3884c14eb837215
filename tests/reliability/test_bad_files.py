"""A database file that cannot be used is refused in one line, exit 1, and left as it was.

Each case runs real ``warlog`` processes against the file: ``state``, ``play`` and ``head`` (and
``new``, which may create a database, where the file is not one). The file's bytes are compared
before and after. Read-only files: file modes do not bind root, so under root the file (and, for
the read-only directory, the directory) is made immutable with ``chattr +i`` instead; where
neither binds, the test says so and is skipped.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.reliability.conftest import (
    ROOT,
    assert_one_error_line,
    child_env,
    command,
    make_game,
    sha256,
    warlog,
    warlog_argv,
)

PLAY = command("red", 0)


@pytest.fixture
def db(tmp_path: Path, scenario: Path) -> Path:
    """A closed database (no -wal, no -shm) with game ``g`` of a few dozen batches."""
    path = tmp_path / "w.db"
    make_game(path, scenario)
    players = ["red", "blue"]
    commands = "".join(command(players[i % 2], 0 if i % 2 == 0 else 3) + "\n" for i in range(60))
    assert warlog(path, "play", "g", "-", input=commands).returncode == 0
    assert not Path(f"{path}-wal").exists()
    return path


def assert_refused(db: Path, *args: str, code: str | None = None, **kw: object) -> str:
    before = sha256(db)
    result = warlog(db, *args, **kw)  # type: ignore[arg-type]
    assert result.returncode == 1, result
    assert result.stdout == ""
    line = assert_one_error_line(result.stderr, code)
    assert sha256(db) == before, f"{args[0]} changed the file"
    return line


# ---------------------------------------------------------------------- not a database


def _truncate(at: Callable[[int], int]) -> Callable[[Path], None]:
    def spoil(path: Path) -> None:
        data = path.read_bytes()
        path.write_bytes(data[: at(len(data))])

    return spoil


def _garbage(path: Path) -> None:
    path.write_bytes(random.Random(7).randbytes(path.stat().st_size))


def _garbage_after_header(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:100] + random.Random(8).randbytes(len(data) - 100))


def _garbage_pages(path: Path) -> None:
    data = bytearray(path.read_bytes())
    rng = random.Random(9)
    for page in range(1, len(data) // 4096):  # page 1 (the schema) stays readable
        data[page * 4096 : page * 4096 + 64] = rng.randbytes(64)
    path.write_bytes(bytes(data))


SPOILS = {
    "truncated-to-header": _truncate(lambda n: 100),
    "truncated-to-schema-page": _truncate(lambda n: 4096),
    "truncated-in-half": _truncate(lambda n: n // 2),
    "truncated-by-one-page": _truncate(lambda n: n - 4096),
    "truncated-mid-page": _truncate(lambda n: n - 1000),
    "garbage": _garbage,
    "garbage-after-header": _garbage_after_header,
    "garbage-pages": _garbage_pages,
}


@pytest.mark.parametrize("spoil", SPOILS.values(), ids=SPOILS.keys())
def test_a_truncated_or_garbage_file_is_one_line_exit_1_and_untouched(
    db: Path, spoil: Callable[[Path], None], scenario: Path
) -> None:
    spoil(db)
    for args in (("state", "g"), ("play", "g", PLAY), ("head", "g")):
        assert_refused(db, *args)
    assert_refused(db, "new", "dice-race", "--scenario", str(scenario), "--game", "h")


def test_a_stored_text_that_is_not_utf8_is_a_corrupt_database_named_in_one_line(
    db: Path,
) -> None:
    # given a log whose first event's data was damaged into bytes that are not UTF-8
    import sqlite3

    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE events SET data = CAST(x'ff7b7d' AS TEXT) WHERE seq = 1")
    conn.close()
    # when the log is read, then it is one line naming the damage, exit 1, quoting none of
    # the stored text, and the file is left as it is
    for args in (("events", "g"), ("audit", "g"), ("export", "g")):
        line = assert_refused(db, *args, code="store/corrupt")
        assert line.endswith("is damaged: a stored text ('data') is not UTF-8")


# ---------------------------------------------------------------------- read-only


def _modes_bind(path: Path) -> bool:
    probe = path.parent / ".probe"
    probe.write_bytes(b"")
    probe.chmod(0o444)
    try:
        with open(probe, "ab"):
            return False
    except PermissionError:
        return True
    finally:
        probe.chmod(0o644)
        probe.unlink()


@contextmanager
def read_only(*paths: Path) -> Iterator[None]:
    """Make ``paths`` unwritable for this user: modes if they bind, else ``chattr +i``."""
    if _modes_bind(paths[0]):
        modes = [p.stat().st_mode for p in paths]
        for p in paths:
            p.chmod(0o555 if p.is_dir() else 0o444)
        try:
            yield
        finally:
            for p, mode in zip(paths, modes, strict=True):
                p.chmod(mode)
        return
    chattr = shutil.which("chattr")
    done: list[Path] = []
    try:
        for p in paths:
            if (
                chattr is None
                or subprocess.run([chattr, "+i", str(p)], capture_output=True).returncode
            ):
                pytest.skip(
                    "file modes do not bind this user (root) and chattr +i is not available"
                )
            done.append(p)
        yield
    finally:
        for p in done:
            subprocess.run([str(chattr), "-i", str(p)], check=True)


def test_a_read_only_file_reads_but_refuses_a_command_in_one_line(db: Path) -> None:
    expected = warlog(db, "state", "g", "--json").stdout
    with read_only(db):
        line = assert_refused(db, "play", "g", PLAY, code="store/read_only")
        assert f"database {db} is read-only" in line
        result = warlog(db, "state", "g", "--json")
        assert (result.returncode, result.stdout, result.stderr) == (0, expected, "")
    assert warlog(db, "play", "g", PLAY).returncode == 0  # writable again, and whole


def test_a_read_only_file_in_a_read_only_directory_is_refused_in_one_line(db: Path) -> None:
    with read_only(db, db.parent):
        for args in (("state", "g"), ("play", "g", PLAY), ("head", "g")):
            line = assert_refused(db, *args, code="store/read_only")
            assert f"database {db} is read-only" in line
    assert warlog(db, "play", "g", PLAY).returncode == 0


# ---------------------------------------------------------------------- locked


@contextmanager
def held(db: Path, *, exclusive_mode: bool) -> Iterator[None]:
    """Another connection holding ``BEGIN EXCLUSIVE`` (with ``exclusive_mode``, SQLite's
    exclusive locking mode, which in WAL mode shuts out readers too)."""
    conn = sqlite3.connect(db, isolation_level=None)
    if exclusive_mode:
        conn.execute("PRAGMA locking_mode=EXCLUSIVE")
    conn.execute("BEGIN EXCLUSIVE")
    conn.execute("SELECT count(*) FROM events").fetchone()
    try:
        yield
    finally:
        conn.execute("ROLLBACK")
        conn.close()


def test_a_locked_database_refuses_after_the_busy_timeout_in_one_line(db: Path) -> None:
    expected = warlog(db, "state", "g", "--json").stdout
    before = sha256(db)
    cases = [
        (False, ("play", "g", PLAY), 1),
        (False, ("state", "g", "--json"), 0),  # WAL: a writer's lock does not stop readers
        (True, ("play", "g", PLAY), 1),
        (True, ("state", "g", "--json"), 1),
    ]
    for exclusive_mode in (False, True):
        with held(db, exclusive_mode=exclusive_mode):
            runs = [
                (
                    args,
                    code,
                    subprocess.Popen(
                        warlog_argv(db, *args),
                        cwd=ROOT,
                        env=child_env(),
                        text=True,
                        stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE,
                    ),
                )
                for mode, args, code in cases
                if mode == exclusive_mode
            ]  # at once: each waits out the 5 s busy timeout
            for args, code, proc in runs:
                out, err = proc.communicate(timeout=60)
                assert proc.returncode == code, (args, out, err)
                if code == 0:
                    assert out == expected and err == ""
                else:
                    assert out == ""
                    line = assert_one_error_line(err, "store/locked")
                    assert "nothing was written" in line
            assert sha256(db) == before
    assert warlog(db, "play", "g", PLAY).returncode == 0
