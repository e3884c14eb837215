"""The SQLite files' test set-up: a small warlog database, the one-line StoreError every file
problem must be, and forked processes (a second writer, another user) whose outcome comes back
picklable; shared by ``test_sqlite_store``, ``test_sqlite_file`` and ``test_sqlite_races``.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from warlog.domain.core.errors import StoreError, WarlogError
from warlog.eventstore.records import GameInfo, Pending
from warlog.eventstore.sqlite_store import SQLiteStore

AT = "2024-05-01T12:00:00.000Z"


FORK = multiprocessing.get_context("fork")


def pending(n: int, **fields: Any) -> Pending:
    return Pending("thing_happened", json.dumps({"n": n, **fields}, separators=(",", ":")), AT)


def make_db(path: Path, events: int = 3) -> Path:
    """A closed warlog database with game ``g`` of ``events`` events."""
    with SQLiteStore(path, create=True) as store:
        store.create_game(GameInfo("g", "test"), [pending(1)])
        if events > 1:
            store.append("g", [pending(n) for n in range(2, events + 1)], 1)
    return path


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused(call: Callable[[], object]) -> StoreError:
    """The StoreError ``call`` raises, checked to be one line."""
    with pytest.raises(StoreError) as caught:
        call()
    error = caught.value
    assert error.exit_code == 1
    assert str(error) and "\n" not in str(error)
    return error


def outcome(fn: Callable[..., object], *args: Any) -> tuple[str, ...]:
    """``("ok", repr(result))`` or ``(error class, code, message)``: picklable, comparable."""
    try:
        return ("ok", repr(fn(*args)))
    except WarlogError as exc:
        return (type(exc).__name__, exc.code, str(exc))
    except BaseException as exc:
        return ("crash", type(exc).__name__, repr(exc))


def _child(
    conn: Any,
    fn: Callable[..., object],
    args: tuple[Any, ...],
    user: int | None,
    reach: Path | None,
) -> None:
    if user is not None:
        try:
            os.setgroups([])
            os.setgid(user)
            os.setuid(user)
        except OSError as exc:
            conn.send(("skip", f"cannot become user {user}: {exc}"))
            return
    if reach is not None and not os.access(reach, os.X_OK):  # e.g. a TMPDIR private to root
        conn.send(("skip", f"user {user} cannot reach {reach}"))
        return
    conn.send(outcome(fn, *args))
    conn.close()


Child = tuple[Any, Any]  # (process, the end of the pipe its outcome arrives on)


def start_child(
    fn: Callable[..., object], *args: Any, user: int | None = None, reach: Path | None = None
) -> Child:
    """Start ``fn(*args)`` in a forked process, optionally as ``user`` (who must be able to
    ``reach`` that directory, or the child answers "skip")."""
    receiver, sender = FORK.Pipe(duplex=False)
    process = FORK.Process(target=_child, args=(sender, fn, args, user, reach))
    process.start()
    sender.close()
    return process, receiver


def finish(child: Child) -> tuple[str, ...]:
    """The outcome of a started child, once it has answered."""
    process, receiver = child
    try:
        if not receiver.poll(60):
            pytest.fail("the child process did not answer within 60 s")
        return tuple(receiver.recv())
    finally:
        process.join(10)
        if process.is_alive():
            process.kill()


def in_child(fn: Callable[..., object], *args: Any) -> tuple[str, ...]:
    """Run ``fn(*args)`` in a forked process; its outcome."""
    return finish(start_child(fn, *args))
