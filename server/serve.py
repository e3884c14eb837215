"""`warlog serve`: the arbiter server on uvicorn, on one database, until it is stopped.

It prints ``admin token: TOKEN`` once on stderr when it made the token itself (no
``$WARLOG_ADMIN_TOKEN``), then ``listening on http://HOST:PORT`` when it accepts requests
(``--port 0``: the port the system picked).

What hostile clients can cost it is bounded (``guard``): connections, and the time a request
may take to arrive. So are the file descriptors it may need (it raises its own soft limit to
fit them) and what it writes on stderr when something goes wrong with every connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import logging
import math
import os
import socket
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import uvicorn

from warlog.arbiter.database import on_database
from warlog.domain.core.errors import InputError
from warlog.server.app import create_app
from warlog.server.auth import new_admin_token
from warlog.server.feed import KEEPALIVE_SECONDS
from warlog.server.guard import Guard, Limits
from warlog.server.pace import MAX_PACE_MS, Paced

ADMIN_TOKEN_VARIABLE = "WARLOG_ADMIN_TOKEN"
#: how long open requests (live feeds ended first) may take to finish when the server stops
GRACEFUL_SECONDS = 5
#: file descriptors the process holds besides its connections: a dozen at rest on SQLite (the
#: database, its WAL and shared memory, the key file, the event loop, stdio); PostgreSQL's
#: sockets and the executors' wake-up pipes a few more
RESERVED_FDS = 64
#: the kernel's queue of connections not yet accepted (uvicorn's default): a burst of clients
#: waits there, where a short queue would drop their SYNs and make each retry a second later
LISTEN_QUEUE = 2048
#: how many connections the event loop accepts at a time (asyncio takes it from the backlog it
#: is given): those beyond the cap hold a descriptor until they are answered and closed, a loop
#: turn or two later (three batches beyond the cap at once, measured under a flood: four allowed)
ACCEPT_BATCH = 128
ACCEPT_BATCHES = 4
#: the least time between two lines on stderr about the same trouble (the accept loop out of
#: descriptors; uvicorn's warning about each malformed request)
QUIET_SECONDS = 10.0


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
        sock.listen(LISTEN_QUEUE)
    except OSError as exc:
        sock.close()
        why = "the port is in use" if exc.errno == errno.EADDRINUSE else exc.strerror
        raise InputError(f"cannot listen on {host}:{port}: {why}", "input/cannot_listen") from None
    sock.set_inheritable(True)
    return sock


def descriptors_for(connections: int) -> int:
    """The file descriptors a server holding ``connections`` connections may need at once."""
    return connections + ACCEPT_BATCHES * min(ACCEPT_BATCH, connections) + RESERVED_FDS


def connections_within(files: int) -> int:
    """The most connections whose descriptors fit in ``files`` (0: none)."""
    spare = files - RESERVED_FDS
    if spare <= (1 + ACCEPT_BATCHES) * ACCEPT_BATCH:
        return max(0, spare // (1 + ACCEPT_BATCHES))
    return spare - ACCEPT_BATCHES * ACCEPT_BATCH


def raise_file_limit(wanted: int) -> int:
    """Raise the process's soft limit on open files to ``wanted`` if it is lower and the hard
    limit allows; the soft limit then (``wanted`` where there is no such limit)."""
    try:
        import resource
    except ImportError:  # not on this platform
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return wanted
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):  # e.g. above what the system allows any process
        return soft
    return target


def fit(limits: Limits) -> Limits:
    """``limits`` with as many connections as the process can hold files for (raising its soft
    limit as needed), saying so on stderr if that is fewer. InputError if it is none."""
    files = raise_file_limit(descriptors_for(limits.connections))
    if files >= descriptors_for(limits.connections):
        return limits
    fewer = connections_within(files)
    if fewer < 1:
        raise InputError(
            f"the process may open only {files} files: too few to serve (raise ulimit -n)",
            "input/too_few_files",
        )
    print(
        f"at most {fewer} connections at once, not {limits.connections}: the process may "
        f"open only {files} files (raise ulimit -n)",
        file=sys.stderr,
        flush=True,
    )
    return dataclasses.replace(limits, connections=fewer)


class Quiet:
    """At most one report of the same trouble every ``QUIET_SECONDS``, saying how many were
    left out since (``clock``: seconds)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._last: dict[str, float] = {}
        self._left_out: dict[str, int] = {}

    def allows(self, what: str) -> str | None:
        """None if a report of ``what`` is to be left out; else what to add to it."""
        now = self._clock()
        if now - self._last.get(what, -math.inf) < QUIET_SECONDS:
            self._left_out[what] = self._left_out.get(what, 0) + 1
            return None
        self._last[what] = now
        left_out = self._left_out.pop(what, 0)
        return f" ({left_out} more like it left out)" if left_out else ""


class QuietLog(logging.Filter):
    """uvicorn's warnings (a malformed request, each one) at most once every ``QUIET_SECONDS``
    each: a client must not be able to fill the server's stderr."""

    def __init__(self, clock: Callable[[], float]) -> None:
        super().__init__()
        self._quiet = Quiet(clock)

    def filter(self, record: logging.LogRecord) -> bool:
        more = self._quiet.allows(str(record.msg))
        if more is None:
            return False
        if more:
            record.msg = f"{record.msg}{more.replace('%', '%%')}"
        return True


#: what asyncio reports for each accept that failed for want of a descriptor (or memory)
ACCEPT_FAILED = "socket.accept() out of system resource"


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Report accepts that fail for want of descriptors in one line on stderr, at most every
    ``QUIET_SECONDS``, instead of asyncio's traceback for each attempt (thousands a second)."""
    quiet = Quiet(loop.time)

    def on_loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") != ACCEPT_FAILED:
            loop.default_exception_handler(context)
            return
        more = quiet.allows("accept")
        if more is not None:
            why = context.get("exception")
            print(f"cannot accept connections now: {why}{more}", file=sys.stderr, flush=True)

    loop.set_exception_handler(on_loop_error)


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
        quiet_accept_errors(asyncio.get_running_loop())
        await super().startup(sockets)
        if self.started:
            # asyncio made the listen queue as short as the accept batch (it takes both from
            # one number): the kernel's queue may be longer, at no cost in descriptors
            self._sock.listen(LISTEN_QUEUE)
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
    db: str,
    host: str = "127.0.0.1",
    port: int = 8000,
    keepalive: float = KEEPALIVE_SECONDS,
    limits: Limits | None = None,
    pace: float = 0.0,
) -> None:
    """Run the arbiter server on the database ``db`` (created if missing) until stopped, its
    answers paced on a tick of ``pace`` seconds (``warlog.server.pace``; 0: sent when ready).
    StoreError or InputError (one line, exit 1) if the database or the address cannot be used,
    or if the process may open too few files to serve."""
    if not (math.isfinite(pace) and 0 <= pace <= MAX_PACE_MS / 1000):
        raise InputError(
            f"a pace is 0 to {MAX_PACE_MS / 1000:g} seconds, not {pace!r}", "input/bad_pace"
        )
    limits = fit(limits or Limits())
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
        Paced(app, pace) if pace else app,
        http=Guard(limits).protocol(),
        ws="none",
        backlog=min(ACCEPT_BATCH, limits.connections),
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
        server_header=False,
    )
    quiet = QuietLog(time.monotonic)
    logging.getLogger("uvicorn.error").addFilter(quiet)
    server = Server(config, sock, warlog.feeds.close)
    try:
        server.run(sockets=[sock])
    finally:
        logging.getLogger("uvicorn.error").removeFilter(quiet)
        sock.close()
        warlog.host.close()  # if the app's shutdown did not (it failed to start)
