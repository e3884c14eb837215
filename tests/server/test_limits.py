"""What hostile connections can cost a `warlog serve` process, each shown on a real uvicorn
process: a request that does not arrive in time is answered 408 and closed; idle connections
beyond the cap cannot keep a client out; when every connection is busy a newcomer gets 503 at
once; a flood of connections never runs the process out of files; and stderr stays a few lines
whatever the clients do."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from uvicorn.server import ServerState

from tests.server.conftest import (
    ADMIN,
    ADMIN_HEADERS,
    LISTENING,
    ROOT,
    arbiter_on,
    open_app,
    serve_argv,
    server_env,
    uvicorn_thread,
)
from warlog.server.guard import Guard, Limits, error_bytes
from warlog.server.serve import (
    ACCEPT_FAILED,
    QUIET_SECONDS,
    RESERVED_FDS,
    Quiet,
    QuietLog,
    connections_within,
    descriptors_for,
    listen,
    quiet_accept_errors,
)

#: `warlog serve` with limits of the test's choosing (the command line keeps the defaults)
SERVE = """
import json, sys
from warlog.server.guard import Limits
from warlog.server.serve import serve
serve(sys.argv[1], port=0, limits=Limits(**json.loads(sys.argv[2])))
"""
#: a request head cut short: no blank line ever comes
HALF_A_HEAD = b"GET /rulesets HTTP/1.1\r\nHost: x\r\nX-a: b"


class Limited:
    """A server process: its URL and port, and the file its stderr goes to."""

    def __init__(self, process: subprocess.Popen[bytes], url: str, stderr: Path) -> None:
        self.process = process
        self.url = url
        self.port = int(url.rsplit(":", 1)[1])
        self.stderr = stderr

    def err(self) -> str:
        return self.stderr.read_text(encoding="utf-8", errors="replace")


@contextlib.contextmanager
def limited(tmp_path: Path, files: int | None = None, **limits: Any) -> Iterator[Limited]:
    """`warlog serve` on 127.0.0.1 under ``Limits(**limits)`` (``files``: its hard limit on
    open files), once it listens; killed after."""

    def cap_files() -> None:
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    stderr = tmp_path / "serve.err"
    argv = [sys.executable, "-c", SERVE, str(tmp_path / "w.db"), json.dumps(limits)]
    with stderr.open("wb") as sink:
        process = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=server_env(WARLOG_ADMIN_TOKEN=ADMIN),
            stdout=subprocess.DEVNULL,
            stderr=sink,
            preexec_fn=cap_files,
        )
    try:
        yield Limited(process, listening(process, stderr), stderr)
    finally:
        process.kill()
        process.wait(timeout=20)


def listening(process: subprocess.Popen[bytes], stderr: Path) -> str:
    """The URL the server ``process`` prints on ``stderr`` once it listens (60 s at most)."""
    deadline = time.monotonic() + 60
    while True:
        assert process.poll() is None, stderr.read_text()
        assert time.monotonic() < deadline, "the server did not listen"
        found = [LISTENING.match(line) for line in stderr.read_text().splitlines()]
        url = next((m.group(1) for m in found if m), None)
        if url is not None:
            return url
        time.sleep(0.02)


def connect(port: int, first: bytes = b"") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    if first:
        sock.sendall(first)
    return sock


def read_to_end(sock: socket.socket) -> bytes:
    """All the server sends until it closes the connection (a reset counts as closed)."""
    chunks = []
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def error_of(answer: bytes) -> tuple[int, dict[str, str]]:
    """The status and the error object of a whole HTTP response."""
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    error: dict[str, str] = json.loads(body)["error"]
    return status, error


def still_open(sock: socket.socket) -> bool:
    """Whether the server has neither answered nor closed ``sock`` yet."""
    sock.setblocking(False)
    try:
        sock.recv(1)  # an answer, or the end: either way not held
    except BlockingIOError:
        return True
    except OSError:
        pass
    finally:
        sock.setblocking(True)
    return False


def room_for(n: int) -> None:
    """Let this process open ``n`` more sockets, or skip the test."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = n + 256
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"this process may open only {hard} files")
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


# ------------------------------------------------------------------ the request deadline


def test_a_request_that_does_not_arrive_in_full_within_the_deadline_is_408_and_closed(
    tmp_path: Path,
) -> None:
    with limited(tmp_path, request_seconds=1) as server:
        started = time.monotonic()
        half = connect(server.port, HALF_A_HEAD)
        silent = connect(server.port)
        body = b'{"ruleset": "heroic-battles"}'
        short_body = connect(
            server.port,
            b"POST /games HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
            + ADMIN.encode()
            + b"\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
            + body,
        )
        next_one = connect(server.port, b"GET /rulesets HTTP/1.1\r\nHost: x\r\n\r\n")
        first = next_one.recv(65536)  # its answer; then one byte of another request
        assert first.startswith(b"HTTP/1.1 200 ")
        next_one.sendall(b"G")
        for sock in (half, silent, short_body, next_one):
            status, error = error_of(read_to_end(sock))
            assert (status, error["code"]) == (408, "http/request_timeout"), error
            assert error["message"] == "the request did not arrive in full within 1 s"
            sock.close()
        assert 0.9 < time.monotonic() - started < 8
        # the server serves on, and the body cut short created nothing
        assert httpx.get(server.url + "/rulesets", timeout=5).status_code == 200
        assert list(arbiter_on(tmp_path / "w.db").store.games()) == []
        assert server.err() == f"listening on {server.url}\n"


def read_answer(sock: socket.socket) -> bytes:
    """One whole answer from ``sock`` (its head, and its body as long as it says)."""
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(65536)
        assert chunk, f"the server closed the connection after {answer!r}"
        answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "the server closed the connection in the middle of an answer"
        body += chunk
    return head + b"\r\n\r\n" + body


def test_a_request_answered_before_its_body_arrived_leaves_the_next_one_its_whole_deadline(
    tmp_path: Path,
) -> None:
    """Given a request the server answers before its body has arrived (401: no token), its
    body then sent in time, when the client sends its next request on the same connection
    past the first request's deadline but within the next one's, then it is answered: the
    first request's deadline ended when the next one's began."""
    body = b'{"ruleset": "heroic-battles"}'
    head = b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    head += f"Content-Length: {len(body)}\r\n\r\n".encode()
    with limited(tmp_path, request_seconds=1) as server:
        with contextlib.closing(connect(server.port, head + body[:5])) as sock:
            assert read_answer(sock).startswith(b"HTTP/1.1 401 ")
            time.sleep(0.6)
            sock.sendall(body[5:])  # the first request ends; the next one's deadline starts
            time.sleep(0.6)  # past the first request's deadline
            sock.sendall(b"GET /rulesets HTTP/1.1\r\nHost: x\r\n\r\n")
            assert read_answer(sock).startswith(b"HTTP/1.1 200 ")
        assert list(arbiter_on(tmp_path / "w.db").store.games()) == []


def test_a_client_that_sends_its_request_in_time_is_not_hurried(tmp_path: Path) -> None:
    """The deadline is for the request to arrive, not for the answer: a live feed stays open
    long past it, and a keep-alive connection serves request after request."""
    with (
        limited(tmp_path, request_seconds=1) as server,
        httpx.Client(base_url=server.url) as client,
    ):
        made = client.post(
            "/games", json={"ruleset": "heroic-battles", "game": "g"}, headers=ADMIN_HEADERS
        )
        assert made.status_code == 201, made.text
        feed_headers = {**ADMIN_HEADERS, "Accept": "text/event-stream"}
        with client.stream("GET", "/games/g/events", headers=feed_headers) as feed:
            lines = feed.iter_lines()
            assert next(lines).startswith("id: 1")
            time.sleep(1.5)
            for _ in range(3):  # one request at a time on one connection, each within the deadline
                assert client.get("/games/g/head", headers=ADMIN_HEADERS).status_code == 200
                time.sleep(0.4)
            assert not feed.is_closed


def test_a_client_that_reads_nothing_of_its_answers_is_dropped_after_the_stall_deadline(
    tmp_path: Path,
) -> None:
    """600 pipelined requests for the OpenAPI document (60 kB each) from a client that reads
    none of it: once the kernel's buffers and the transport's are full, the server waits
    ``stall_seconds`` and drops the connection instead of holding it for ever."""
    with limited(tmp_path, stall_seconds=1) as server:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", server.port))
        with contextlib.closing(sock):
            sock.sendall(b"GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n" * 600)
            time.sleep(2.5)
            sock.settimeout(5)
            got = read_to_end(sock)  # what was buffered, then the end
        one = len(httpx.get(server.url + "/openapi.json", timeout=5).content)
        assert 0 < len(got) < 600 * one / 2
        assert server.err() == f"listening on {server.url}\n"


def answer_length(port: int, request: bytes) -> int:
    """The bytes of the whole answer to ``request`` on a keep-alive connection."""
    with contextlib.closing(connect(port, request)) as sock:
        return len(read_answer(sock))


def test_a_client_that_reads_slowly_but_steadily_gets_every_answer_whole(tmp_path: Path) -> None:
    """Given a client that pipelines 100 requests for the OpenAPI document (some 7 MB of
    answers) and reads them 64 kB at a time with a pause after each, so that the server's
    buffers fill again and again but never for ``stall_seconds`` on end, when it reads on,
    then it gets every answer whole: each time it reads, the stall deadline starts again
    (the connection is dropped only by a client that reads nothing for that long)."""
    request = b"GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n"
    with limited(tmp_path, stall_seconds=0.5) as server:
        whole = 100 * answer_length(server.port, request)
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        sock.connect(("127.0.0.1", server.port))
        got = 0
        with contextlib.closing(sock):
            sock.sendall(request * 100)
            sock.settimeout(5)
            started = time.monotonic()
            with contextlib.suppress(ConnectionResetError):
                while got < whole and (chunk := sock.recv(65536)):
                    got += len(chunk)
                    time.sleep(0.01)
        assert got == whole
        assert time.monotonic() - started > 0.5  # it read for longer than the stall deadline
        assert server.err() == f"listening on {server.url}\n"


# ------------------------------------------------------------------ the connection cap


def test_idle_connections_beyond_the_cap_cannot_keep_a_client_out(tmp_path: Path) -> None:
    """Connections waiting for a request are shed, the longest waiting first, to make room;
    each is told 503 if it had begun a request, and the server's stderr stays empty."""
    room_for(200)
    with limited(tmp_path, connections=20, request_seconds=30) as server:
        idle = [connect(server.port, HALF_A_HEAD) for _ in range(200)]
        time.sleep(0.3)
        started = time.monotonic()
        answer = httpx.get(server.url + "/games/nowhere", headers=ADMIN_HEADERS, timeout=5)
        assert answer.status_code == 404 and time.monotonic() - started < 3
        held = [sock for sock in idle if still_open(sock)]
        assert 0 < len(held) <= 20
        status, error = error_of(read_to_end(idle[0]))
        assert (status, error["code"]) == (503, "http/too_many_connections")
        for sock in idle:
            sock.close()
        assert server.err() == f"listening on {server.url}\n"


def test_when_every_connection_is_busy_a_newcomer_is_503_at_once(tmp_path: Path) -> None:
    async def scenario(url: str) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=5) as organiser:
            body = {"ruleset": "heroic-battles", "game": "g"}
            made = await organiser.post("/games", json=body, headers=ADMIN_HEADERS)
            assert made.status_code == 201
        feed_headers = {**ADMIN_HEADERS, "Accept": "text/event-stream"}
        async with contextlib.AsyncExitStack() as feeds:
            for _ in range(5):  # the cap, each a live feed (busy: not to be shed)
                client = await feeds.enter_async_context(httpx.AsyncClient(base_url=url))
                stream = client.stream("GET", "/games/g/events", headers=feed_headers)
                response = await feeds.enter_async_context(stream)
                assert response.status_code == 200
            started = time.monotonic()
            async with httpx.AsyncClient(base_url=url, timeout=5) as late:
                refused = await late.get("/games/g/head", headers=ADMIN_HEADERS)
            assert time.monotonic() - started < 3  # at once, not a wait for room
            assert refused.status_code == 503 and refused.headers["retry-after"] == "1"
            assert refused.json()["error"]["code"] == "http/too_many_connections"
        await asyncio.sleep(0.2)  # the feeds closed: room again
        async with httpx.AsyncClient(base_url=url, timeout=5) as late:
            assert (await late.get("/games/g/head", headers=ADMIN_HEADERS)).status_code == 200

    with limited(tmp_path, connections=5) as server:
        asyncio.run(asyncio.wait_for(scenario(server.url), 20))


def test_a_flood_of_connections_never_runs_the_server_out_of_files_nor_fills_its_stderr(
    tmp_path: Path,
) -> None:
    """The review's attack, bounded: a server that may open 256 files, and 1000 connections
    that never finish their heads, and 300 requests that are not HTTP. It holds as many
    connections as its files allow, says so once, answers an organiser at once throughout,
    and writes a few lines on stderr (the unpatched server wrote a traceback per accept that
    failed: hundreds of megabytes)."""
    room_for(1000)
    with limited(tmp_path, files=256) as server:
        fewer = connections_within(256)
        assert server.err().splitlines()[0] == (
            f"at most {fewer} connections at once, not 1000: the process may open only 256 "
            "files (raise ulimit -n)"
        )
        flood = []
        for i in range(1000):
            flood.append(connect(server.port, HALF_A_HEAD))
            if i % 250 == 249:
                answer = httpx.get(server.url + "/games/g", headers=ADMIN_HEADERS, timeout=5)
                assert answer.status_code == 404
        for _ in range(300):
            with contextlib.closing(connect(server.port, b"NOT HTTP\r\n\r\n")) as sock:
                assert read_to_end(sock).startswith(b"HTTP/1.1 400 ")
        assert sum(still_open(sock) for sock in flood) <= fewer
        for sock in flood:
            sock.close()
        assert httpx.get(server.url + "/rulesets", timeout=5).status_code == 200
        err = server.err()
        assert len(err.encode()) < 1000 and "Traceback" not in err, err
        assert err.count("Invalid HTTP request received.") == 1


def test_a_server_that_may_open_too_few_files_refuses_to_start_in_one_line(
    tmp_path: Path,
) -> None:
    """Given `warlog serve` in a process that may open 60 files (its hard limit: fewer than
    the server keeps for itself), when it starts, then it is one line, input/too_few_files,
    exit 1, saying how many it may open, and it never listens."""

    def cap_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (60, 60))

    done = subprocess.run(
        serve_argv(tmp_path / "w.db"),
        cwd=ROOT,
        env=server_env(WARLOG_ADMIN_TOKEN=ADMIN),
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=cap_files,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        1,
        "",
        "error[input/too_few_files]: the process may open only 60 files: too few to serve "
        "(raise ulimit -n)\n",
    )


# ------------------------------------------------------------------ the parts


def test_the_files_a_server_needs_fit_the_connections_it_is_given() -> None:
    assert descriptors_for(1000) <= 4096 - RESERVED_FDS  # the usual hard limit
    for files in (RESERVED_FDS + 5, 256, 703, 704, 705, 1024, 4096, 65536):
        fewer = connections_within(files)
        assert fewer >= 1 and descriptors_for(fewer) <= files < descriptors_for(fewer + 1)
    assert connections_within(RESERVED_FDS) == 0


def test_the_same_trouble_is_reported_once_in_a_while_saying_how_much_was_left_out() -> None:
    now = [0.0]
    quiet = Quiet(lambda: now[0])
    assert quiet.allows("accept") == ""
    assert [quiet.allows("accept") for _ in range(1000)] == [None] * 1000
    assert quiet.allows("other") == ""
    now[0] += QUIET_SECONDS
    assert quiet.allows("accept") == " (1000 more like it left out)"
    assert quiet.allows("accept") is None


def test_uvicorns_warning_for_each_bad_request_is_logged_once_in_a_while() -> None:
    now = [0.0]
    log = logging.getLogger("test.quiet")
    quiet = QuietLog(lambda: now[0])
    records = [log.makeRecord(log.name, logging.WARNING, "f", 1, "Invalid %s", ("x",), None)]
    records += [log.makeRecord(log.name, logging.WARNING, "f", 1, "Invalid %s", ("x",), None)]
    assert [quiet.filter(r) for r in records] == [True, False]
    now[0] += QUIET_SECONDS
    later = log.makeRecord(log.name, logging.WARNING, "f", 1, "Invalid %s", ("x",), None)
    assert quiet.filter(later) and later.getMessage() == "Invalid x (1 more like it left out)"


def test_an_accept_loop_out_of_files_says_so_in_one_line_not_a_traceback_each_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    loop = asyncio.new_event_loop()
    try:
        quiet_accept_errors(loop)
        failure = OSError(24, "Too many open files")
        for _ in range(5000):
            loop.call_exception_handler({"message": ACCEPT_FAILED, "exception": failure})
    finally:
        loop.close()
    assert (
        capsys.readouterr().err == "cannot accept connections now: [Errno 24] Too many open files\n"
    )


def test_other_troubles_of_the_event_loop_are_still_reported_as_asyncio_does(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Given the server's handler of accepts that fail for want of files, when the loop meets
    any other trouble (a callback that raised, say), then asyncio's own report of it is made:
    only the accept failures are kept quiet."""
    loop = asyncio.new_event_loop()
    try:
        quiet_accept_errors(loop)
        with caplog.at_level(logging.ERROR, logger="asyncio"):
            loop.call_exception_handler(
                {"message": "Exception in callback", "exception": ValueError("boom")}
            )
    finally:
        loop.close()
    (record,) = caplog.records
    assert record.getMessage() == "Exception in callback"
    assert record.exc_info is not None and str(record.exc_info[1]) == "boom"


class Transport:
    """A transport whose client reads ``unsent`` bytes down as the test says."""

    def __init__(self) -> None:
        self.unsent = 0
        self.written = b""
        self.closed = self.aborted = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default

    def get_write_buffer_size(self) -> int:
        return self.unsent

    def is_closing(self) -> bool:
        return self.closed or self.aborted

    def write(self, data: bytes) -> None:
        self.written += data

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = True


def a_connection(loop: asyncio.AbstractEventLoop, seconds: float) -> Transport:
    """A new connection under a guard with a request deadline of ``seconds``: its transport."""
    guard = Guard(Limits(request_seconds=seconds))
    config = uvicorn.Config(app=None, http=guard.protocol(), log_level="warning")
    protocol = guard.protocol()(config=config, server_state=ServerState(), app_state={}, _loop=loop)
    transport = Transport()
    protocol.connection_made(transport)  # the loop's timer keeps the protocol
    return transport


def test_the_request_deadline_waits_on_a_client_still_reading_its_last_answer() -> None:
    """A client cannot send its next request before it has read the last answer: while what
    is left of that answer goes down, deadline after deadline, it is given more time; once it
    stays put for a whole deadline, the connection is dropped (at once: what is unsent would
    hold it open for ever)."""
    loop = asyncio.new_event_loop()
    try:
        reading, stuck = a_connection(loop, 0.2), a_connection(loop, 0.2)
        reading.unsent = stuck.unsent = 5000
        for _ in range(12):  # three deadlines
            loop.run_until_complete(asyncio.sleep(0.05))
            reading.unsent -= 100
        assert not reading.is_closing() and stuck.aborted
        reading.unsent = 0
        loop.run_until_complete(asyncio.sleep(0.25))
        assert reading.closed and not reading.aborted
        assert error_of(reading.written)[1]["code"] == "http/request_timeout"
    finally:
        loop.close()


def test_a_connection_closed_for_keep_alive_with_its_answer_unread_is_dropped(
    tmp_path: Path,
) -> None:
    """Given a client that reads nothing of an answer too big for the sockets' buffers (the
    server's made small: 4 kB), when uvicorn's keep-alive timeout closes the connection (a
    close that waits for the unsent bytes to go: for ever, with this client), then the request
    deadline drops it: the client's socket ends within a few deadlines, short of the whole
    answer (uvicorn in a thread, its keep-alive shorter than the deadline, as its 5 s is
    shorter than the server's 10 s)."""
    request = b"GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n"
    guard = Guard(Limits(request_seconds=0.5))
    app = open_app(tmp_path / "w.db")
    listening = listen("127.0.0.1", 0)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)  # the accepted ones' too
    with uvicorn_thread(app, listening, http=guard.protocol(), timeout_keep_alive=0.2) as url:
        port = int(url.rsplit(":", 1)[1])
        whole = answer_length(port, request)
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        with contextlib.closing(sock):
            sock.sendall(request)
            time.sleep(1.5)  # keep-alive's close at 0.2 s; the deadline's at 0.5, 1.0
            sock.settimeout(5)
            started = time.monotonic()
            got = read_to_end(sock)
        assert time.monotonic() - started < 3  # ended by the server, not by the timeout
        assert 0 < len(got) < whole
        assert not guard.open and not guard.waiting


def test_the_guards_answers_are_the_contracts_error_shape() -> None:
    answer = error_bytes(503, "http/too_many_connections", "busy", retry_after="1")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"HTTP/1.1 503 Service Unavailable"
    assert b"connection: close" in head and b"retry-after: 1" in head
    assert f"content-length: {len(body)}".encode() in head
    assert json.loads(body) == {"error": {"code": "http/too_many_connections", "message": "busy"}}
    assert Limits().connections == 1000 and Limits().request_seconds == 10


def test_warlog_serve_takes_its_request_deadline_from_the_command_line(tmp_path: Path) -> None:
    """Given `warlog serve --request-timeout 1`, when a client sends half a request head, then
    it is answered 408 after about a second, naming that deadline (the option reaches the
    server; its default and --max-connections' are the server's own, MAX_CONNECTIONS and
    REQUEST_SECONDS)."""
    from click.testing import CliRunner

    from warlog.cli.main import cli
    from warlog.server.guard import MAX_CONNECTIONS, REQUEST_SECONDS

    defaults = {p.name: p.default for p in cli.commands["serve"].params}
    assert (defaults["max_connections"], defaults["request_timeout"]) == (
        MAX_CONNECTIONS,
        REQUEST_SECONDS,
    )
    assert CliRunner().invoke(cli, ["serve", "--request-timeout", "0"]).exit_code == 2
    stderr = tmp_path / "serve.err"
    argv = serve_argv(tmp_path / "w.db", "--request-timeout", "1", "--max-connections", "50")
    with stderr.open("wb") as sink:
        process = subprocess.Popen(
            argv, cwd=ROOT, env=server_env(WARLOG_ADMIN_TOKEN=ADMIN), stderr=sink
        )
    try:
        port = int(listening(process, stderr).rsplit(":", 1)[1])
        started = time.monotonic()
        half = connect(port, HALF_A_HEAD)
        status, error = error_of(read_to_end(half))
        half.close()
        assert (status, error["message"]) == (
            408,
            "the request did not arrive in full within 1 s",
        )
        assert 0.9 < time.monotonic() - started < 8
    finally:
        process.kill()
        process.wait(timeout=20)
