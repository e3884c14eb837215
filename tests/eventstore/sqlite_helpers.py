"""The SQLite files' test set-up: a small warlog database, the one-line StoreError every file
problem must be, forked processes (a second writer, another user) whose outcome comes back
picklable, and connections on which something happens just before a chosen statement (a fault
SQLite raises there, another process's work); shared by ``test_sqlite_store``,
``test_sqlite_file``, ``test_sqlite_races`` and the key file's tests.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from warlog.domain.core.errors import StoreError, WarlogError
from warlog.eventstore.records import GameInfo, Pending
from warlog.eventstore.sqlite_store import SQLiteStore
from warlog.eventstore.sqlite_vault import SQLiteVault

AT = "2024-05-01T12:00:00.000Z"
#: the seed ``keep_a_key`` keeps, and its commitment
SEED = bytes(range(32))
COMMITMENT = hashlib.sha256(SEED).hexdigest()


def keep_a_key(path: str) -> object:
    """Keep ``SEED`` under ``COMMITMENT`` in a key file at ``path``, made if missing (what a
    child process running as another user is asked to do)."""
    vault = SQLiteVault(path, create=True)
    try:
        vault.put_key(COMMITMENT, SEED, "g")
    finally:
        vault.close()
    return None


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


# ------------------------------------------------------------------ another user


NOBODY = 65534


def permissions_bind(path: Path) -> bool:
    """Whether this process is refused writing to ``path`` (a directory: making a file in it)
    now that its mode forbids it."""
    try:
        if path.is_dir():
            fd, name = tempfile.mkstemp(dir=path)
            os.close(fd)
            os.unlink(name)
            return False
        with open(path, "r+b"):
            return False
    except PermissionError:
        return True


def as_bound_user(path: Path, fn: Callable[..., object], *args: Any) -> tuple[str, ...]:
    """``fn``'s outcome for a user that ``path``'s mode binds: this one, or ``nobody`` if we
    are root (found by trying to write, not by asking who we are)."""
    if permissions_bind(path):
        return outcome(fn, *args)
    if not hasattr(os, "setuid"):
        pytest.skip("file modes do not bind this user and it cannot become another")
    result = finish(start_child(fn, *args, user=NOBODY, reach=path.parent))
    if result[0] == "skip":
        pytest.skip(result[1])
    return result


# ------------------------------------------------------------------ meddled connections


class Hooked:
    """A connection that calls ``hook()`` just before running a statement that starts with
    ``statement``: a hook that raises is the fault SQLite raises there; one that works on the
    same file is another process's work at that moment. Every other call goes through."""

    def __init__(
        self, conn: sqlite3.Connection, statement: str, hook: Callable[[], object]
    ) -> None:
        self._conn = conn
        self._statement = statement
        self._hook = hook

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.lstrip().startswith(self._statement):
            self._hook()
        return self._conn.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


def sqlite_error(message: str, code: int, name: str) -> sqlite3.OperationalError:
    """The error SQLite raises with the (extended) result ``code`` named ``name``."""
    error = sqlite3.OperationalError(message)
    error.sqlite_errorcode = code  # type: ignore[attr-defined]
    error.sqlite_errorname = name  # type: ignore[attr-defined]
    return error


def raising(error: BaseException) -> Callable[[], object]:
    def hook() -> object:
        raise error

    return hook


def once(hook: Callable[[], object]) -> Callable[[], object]:
    """``hook`` the first time only (what another process does happens once)."""
    done: list[bool] = []

    def first() -> object:
        if not done:
            done.append(True)
            return hook()
        return None

    return first


def hook_connections(
    monkeypatch: pytest.MonkeyPatch, statement: str, hook: Callable[[], object]
) -> None:
    """Every SQLite connection made from now on (until ``monkeypatch`` is undone) is
    ``Hooked`` at ``statement``."""
    connect = sqlite3.connect
    monkeypatch.setattr(
        sqlite3,
        "connect",
        lambda *args, **kwargs: Hooked(connect(*args, **kwargs), statement, hook),
    )
