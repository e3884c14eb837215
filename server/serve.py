"""`warlog serve`: the arbiter server on uvicorn, on one database, until it is stopped.

It prints ``admin token: TOKEN`` once on stderr when it made the token itself (no
``$WARLOG_ADMIN_TOKEN``), then ``listening on http://HOST:PORT`` when it accepts requests
(``--port 0``: the port the system picked).
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import sys
from collections.abc import Iterator
from typing import Any

import uvicorn

from warlog.arbiter.database import on_database
from warlog.domain.core.errors import InputError
from warlog.server.app import create_app
from warlog.server.auth import new_admin_token
from warlog.server.feed import KEEPALIVE_SECONDS

ADMIN_TOKEN_VARIABLE = "WARLOG_ADMIN_TOKEN"
#: how long open requests (live feeds ended first) may take to finish when the server stops
GRACEFUL_SECONDS = 5


def admin_token() -> tuple[str, bool]:
    """``($WARLOG_ADMIN_TOKEN, False)``, or ``(a new token, True)`` when it is unset or empty."""
    token = os.environ.get(ADMIN_TOKEN_VARIABLE, "").strip()
    return (token, False) if token else (new_admin_token(), True)


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; InputError (exit 1) if it cannot be had."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, UnicodeError) as exc:
        raise InputError(f"cannot listen on {host}: {exc}", "input/bad_host") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        why = "the port is in use" if exc.errno == errno.EADDRINUSE else exc.strerror
        raise InputError(f"cannot listen on {host}:{port}: {why}", "input/cannot_listen") from None
    sock.set_inheritable(True)
    return sock


def url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


class Server(uvicorn.Server):
    """uvicorn, saying where it listens once it accepts requests and ending the live feeds
    first when it stops (an open feed would otherwise hold the shutdown)."""

    def __init__(self, config: uvicorn.Config, sock: socket.socket, on_stop: Any) -> None:
        super().__init__(config)
        self._sock = sock
        self._on_stop = on_stop

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            print(f"listening on {url(self._sock)}", file=sys.stderr, flush=True)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self._on_stop()
        await super().shutdown(sockets)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """uvicorn's, except that a server stopped by SIGINT or SIGTERM, once it has shut down
        in good order, exits 0 instead of dying of the signal afterwards."""
        with super().capture_signals():
            yield
            if self.should_exit and not self.force_exit:
                self._captured_signals.clear()


def serve(
    db: str, host: str = "127.0.0.1", port: int = 8000, keepalive: float = KEEPALIVE_SECONDS
) -> None:
    """Run the arbiter server on the database ``db`` (created if missing) until stopped.
    StoreError or InputError (one line, exit 1) if the database or the address cannot be used."""
    token, made = admin_token()
    app = create_app(lambda: on_database(db, create=True), token, keepalive=keepalive)
    warlog = app.state.warlog
    try:
        sock = listen(host, port)
    except BaseException:
        warlog.host.close()
        raise
    if made:  # once, and only when the server will run
        print(f"admin token: {token}", file=sys.stderr, flush=True)
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
        server_header=False,
    )
    server = Server(config, sock, warlog.feeds.close)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        warlog.host.close()  # if the app's shutdown did not (it failed to start)
