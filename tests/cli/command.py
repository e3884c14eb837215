"""The command line run in-process on a database, and an error's one line, for the CLI tests."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from warlog.cli.main import cli


def run(db: Path, *args: str, input: str | bytes | None = None) -> tuple[int, str, str]:
    """``warlog --db DB ARGS``: its exit code, stdout and stderr (an exception that is not an
    exit is raised: a traceback is a failure of the test, not an answer)."""
    result = CliRunner().invoke(cli, ["--db", str(db), *args], input=input)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def one_line(stderr: str, code: str) -> str:
    """The error's one line, asserted to be one line with that code."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error[{code}]: "), stderr
    return lines[0]


def succeeded(db: Path, *args: str) -> str:
    """``warlog --db DB ARGS``'s stdout, the command asserted to succeed (exit 0)."""
    status, out, err = run(db, *args)
    assert status == 0, err
    return out
