"""Helpers for the server tests: the ASGI app under httpx (Litestar's TestClient), uvicorn in a
thread of the test (live feeds with a short keep-alive) and `warlog serve` processes."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from click.testing import CliRunner
from litestar import Litestar
from litestar.testing import TestClient

from warlog.arbiter.application import Arbiter
from warlog.arbiter.database import on_database
from warlog.cli.main import cli
from warlog.server.app import create_app
from warlog.server.feed import KEEPALIVE_SECONDS
from warlog.server.serve import Server, listen

ROOT = Path(__file__).resolve().parents[2]
ADMIN = "the-organisers-token"
SEED = bytes(range(32))
RULESETS = ("armageddon-empires", "battle-for-armageddon", "heroic-battles")


def fixed_clock() -> Callable[[], str]:
    """A clock that reads one second later each time (the same times on every run)."""
    counter = itertools.count()

    def now() -> str:
        n = next(counter)
        return f"2026-11-23T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}.000Z"

    return now


def open_app(db: Path, *, keepalive: float = KEEPALIVE_SECONDS, **options: Any) -> Litestar:
    """The server's app on ``db`` (created if missing); ``options`` go to the Arbiter."""
    return create_app(lambda: on_database(db, create=True, **options), ADMIN, keepalive=keepalive)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


ADMIN_HEADERS = bearer(ADMIN)


class Game:
    """A game created through ``POST /games``: its id and its players' tokens."""

    def __init__(self, body: dict[str, Any]) -> None:
        self.id: str = body["game"]
        self.tokens: dict[str, str] = body["tokens"]

    def as_(self, player: str) -> dict[str, str]:
        return bearer(self.tokens[player])

    @property
    def players(self) -> list[str]:
        return list(self.tokens)


def new_game(client: httpx.Client, ruleset: str, **body: Any) -> Game:
    response = client.post("/games", json={"ruleset": ruleset, **body}, headers=ADMIN_HEADERS)
    assert response.status_code == 201, response.text
    return Game(response.json())


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "w.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient[Litestar]]:
    with TestClient(open_app(db)) as test_client:
        yield test_client


def arbiter_on(db: Path | str) -> Arbiter:
    """An Arbiter of the test's own on the server's database (what the application says)."""
    return on_database(db)


def cli_out(db: Path, *args: str) -> str:
    """What ``warlog --db DB ARGS`` prints on stdout (it must succeed)."""
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def cli_json(db: Path, *args: str) -> Any:
    return json.loads(cli_out(db, *args))


def cli_lines(db: Path, *args: str) -> list[Any]:
    return [json.loads(line) for line in cli_out(db, *args).splitlines()]


def assert_error(response: httpx.Response, status: int, code: str | None = None) -> dict[str, str]:
    """The response is the contract's error shape with ``status`` (and ``code``)."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert list(body) == ["error"] and sorted(body["error"]) == ["code", "message"], body
    error: dict[str, str] = body["error"]
    assert "\n" not in error["message"] and "Traceback" not in response.text
    if code is not None:
        assert error["code"] == code, error
    return error


# ------------------------------------------------------------------ real servers


@contextlib.contextmanager
def uvicorn_thread(
    app: Litestar, sock: socket.socket | None = None, **options: Any
) -> Iterator[str]:
    """``app`` served by uvicorn on 127.0.0.1 in a thread (``sock``: the listening socket, by
    default one on a free port); its base URL. ``options`` go to uvicorn's ``Config`` (e.g.
    the guard's protocol as ``http``)."""
    sock = sock or listen("127.0.0.1", 0)
    config = uvicorn.Config(
        app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2, **options
    )
    server = Server(config, sock, app.state.warlog.feeds.close)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    host, port = sock.getsockname()[:2]
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        sock.close()


LISTENING = re.compile(r"^listening on (http://\S+)$")


class Served:
    """A `warlog serve` process: its URL, what it printed on stderr, and how to stop it."""

    def __init__(self, process: subprocess.Popen[str], url: str, lines: list[str]) -> None:
        self.process = process
        self.url = url
        self.stderr = lines

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=20)

    def stop(self) -> int:
        self.process.terminate()
        return self.process.wait(timeout=20)


def serve_argv(db: Path | str, *args: str) -> list[str]:
    return [sys.executable, "-m", "warlog", "--db", str(db), "serve", "--port", "0", *args]


def server_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra)
    return env


@contextlib.contextmanager
def served(db: Path | str, *args: str, admin: str | None = ADMIN) -> Iterator[Served]:
    """`warlog --db DB serve --port 0 ARGS` in a child process (``admin``:
    $WARLOG_ADMIN_TOKEN, None: unset), once it prints that it listens; terminated (if still
    running) after."""
    env = server_env() if admin is None else server_env(WARLOG_ADMIN_TOKEN=admin)
    argv = serve_argv(db, *args)
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    lines: list[str] = []
    url = None
    deadline = time.monotonic() + 60
    while url is None:
        line = process.stderr.readline()
        assert line, f"warlog serve stopped before listening: {''.join(lines)}"
        lines.append(line.rstrip("\n"))
        found = LISTENING.match(lines[-1])
        url = found.group(1) if found else None
        assert time.monotonic() < deadline
    drain = threading.Thread(
        target=lambda: lines.extend(line.rstrip("\n") for line in process.stderr or ()),
        daemon=True,
    )
    drain.start()
    try:
        yield Served(process, url, lines)
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def raw_exchange(url: str, request: bytes) -> tuple[bytes, bytes]:
    """``request`` sent as it is on a new connection to the server at ``url``, and the answer
    read to its close: its head (status line and headers) and its body. For what httpx will not
    send: bytes that are no HTTP, a header twice, bytes outside ASCII."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as raw:
        raw.sendall(request)
        answer = b""
        while chunk := raw.recv(4096):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return head, body


# ------------------------------------------------------------------ the live feed


async def sse(response: httpx.Response) -> Any:
    """The SSE events of a streamed response, as they come: ``{"id", "event", "data"}`` per
    event (data parsed), ``{"comment": TEXT}`` per comment line."""
    fields: dict[str, str] = {}
    async for line in response.aiter_lines():
        if line == "":
            if fields:
                yield {**fields, "data": json.loads(fields["data"])}
                fields = {}
        elif line.startswith(":"):
            yield {"comment": line[1:].strip()}
        else:
            name, _, value = line.partition(":")
            assert name not in fields, f"{name} twice in one event"
            fields[name] = value.removeprefix(" ")


def client_check() -> Any:
    """The client-side check of docs/server.md (its ``Receipts`` class), run as written there."""
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    marker = text.index("<!-- the client's check")
    start = text.index("```python\n", marker) + len("```python\n")
    block = text[start : text.index("\n```\n", start) + 1]
    namespace: dict[str, Any] = {}
    exec(compile(block, "docs/server.md", "exec"), namespace)
    return namespace["Receipts"]
