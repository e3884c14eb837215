"""Connection limits: how long a client may take to send a request, how many connections the
server holds at once, and how long it waits on a client that does not read its response.

uvicorn alone holds a connection that never finishes its request head for ever (its keep-alive
timer starts only after a response and stops at the first byte received), and accepts until
the process runs out of file descriptors. So the server's HTTP protocol is uvicorn's h11
protocol with three deadlines and a cap:

- a request (head and body) must arrive in full within ``request_seconds`` of the moment the
  server starts waiting for it (the connection opened, or the previous response sent): else
  408 and the connection is closed;
- at most ``connections`` connections are open. One more sheds the connection that has waited
  longest for a request (idle or half-sent: it costs the client a reconnect); if every one is
  busy (a request in progress, a live feed), the newcomer gets 503 and is closed at once;
- a response the client reads nothing of for ``stall_seconds`` (the transport's buffer full
  all that time) is dropped; so is one whose last bytes the client has read nothing of for
  ``request_seconds`` when the next request is due.

The answers are the contract's error shape, written on the socket directly: the request they
answer was never handed to the app.
"""

from __future__ import annotations

import asyncio
import dataclasses
import http
from typing import Any, ClassVar

import h11
import msgspec
from uvicorn.protocols.http.h11_impl import H11Protocol

from warlog.server.errors import ErrorBody, ErrorDetail

#: a command is a few hundred bytes; a client on any network sends it in well under a second
REQUEST_SECONDS = 10.0
#: a tournament's clients each hold a live feed and a connection for requests: this is some
#: 250 two-player tables at once, and (with the process's other files) well under the file
#: limit the server sets itself
MAX_CONNECTIONS = 1000
#: a feed sends a keep-alive every 15 s: a client that reads nothing for this long is gone
STALL_SECONDS = 60.0
#: h11 states in which the request being waited for has not arrived in full
RECEIVING = (h11.IDLE, h11.SEND_BODY)


@dataclasses.dataclass(frozen=True)
class Limits:
    connections: int = MAX_CONNECTIONS
    request_seconds: float = REQUEST_SECONDS
    stall_seconds: float = STALL_SECONDS


def error_bytes(status: int, code: str, message: str, **headers: str) -> bytes:
    """A whole HTTP/1.1 response in the contract's error shape, closing the connection."""
    body = msgspec.json.encode(ErrorBody(ErrorDetail(code, message)))
    lines = [
        f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
        *(f"{name.replace('_', '-')}: {value}" for name, value in headers.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii") + body


class Guard:
    """What the connections of one server share: the open ones, and those waiting for a
    request, the one that has waited longest first."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.open: set[GuardedProtocol] = set()
        self.waiting: dict[GuardedProtocol, None] = {}  # insertion-ordered: oldest first
        self.timed_out = error_bytes(
            408,
            "http/request_timeout",
            f"the request did not arrive in full within {limits.request_seconds:g} s",
        )
        self.busy = error_bytes(
            503,
            "http/too_many_connections",
            f"the server holds as many connections as it may ({limits.connections}) and "
            "every one is busy: try again shortly",
            retry_after="1",
        )
        self.shed = error_bytes(
            503,
            "http/too_many_connections",
            "the server needed this connection for another while it waited for the request: "
            "send it again",
            retry_after="0",
        )

    def admit(self, connection: GuardedProtocol) -> bool:
        """Whether ``connection`` may stay open (shedding the longest waiting one if need be)."""
        if len(self.open) >= self.limits.connections:
            if not self.waiting:
                return False
            next(iter(self.waiting)).drop(self.shed)
        self.open.add(connection)
        return True

    def forget(self, connection: GuardedProtocol) -> None:
        self.open.discard(connection)
        self.waiting.pop(connection, None)

    def protocol(self) -> type[GuardedProtocol]:
        """The protocol class uvicorn makes each connection with (``Config(http=...)``)."""

        class WarlogProtocol(GuardedProtocol):
            pass

        WarlogProtocol.guard = self
        return WarlogProtocol


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol under a ``Guard`` (module doc)."""

    guard: ClassVar[Guard]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._stall: asyncio.TimerHandle | None = None
        self._unsent = 0  # of the last answer, when the deadline last came

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.guard.admit(self):
            self._answer_and_close(self.guard.busy)
            return
        self._await_request()

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.forget(self)
        self._cancel_timers()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.transport.is_closing():
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            if self not in self.guard.waiting:  # a response went out: the next request's turn
                self._await_request()
            return
        self.guard.waiting.pop(self, None)
        if state not in RECEIVING and self._deadline is not None:  # all of it arrived
            self._deadline.cancel()
            self._deadline = None

    def pause_writing(self) -> None:
        # asyncio pauses a protocol only once until it resumes it, which ends any timer
        super().pause_writing()
        self._stall = self.loop.call_later(self.guard.limits.stall_seconds, self._stalled)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None

    def drop(self, answer: bytes) -> None:
        """Close this connection, which is waiting for a request, to make room: ``answer``
        first if the client has sent part of a request or none yet on this connection (an
        idle keep-alive connection is closed as keep-alive connections are)."""
        started = bool(self.conn.trailing_data[0]) or self.cycle is None
        self._answer_and_close(answer if started else b"")

    # ------------------------------------------------------------------ internals

    def _await_request(self) -> None:
        """Start the clock for the next request, and count the connection as waiting."""
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(self.guard.limits.request_seconds, self._timed_out)
        self._unsent = 0
        self.guard.waiting.pop(self, None)
        self.guard.waiting[self] = None

    def _timed_out(self) -> None:
        self._deadline = None
        unsent = self.transport.get_write_buffer_size()
        if unsent and unsent != self._unsent:  # still reading the last answer: more time
            self._unsent = unsent
            self._deadline = self.loop.call_later(
                self.guard.limits.request_seconds, self._timed_out
            )
            return
        state = self.conn.their_state
        if self.transport.is_closing():  # by uvicorn (keep-alive), the answer still unread
            if unsent:
                self._answer_and_close(b"")
        elif state is h11.IDLE:
            self.drop(self.guard.timed_out)
        elif state is h11.SEND_BODY:  # the head came, the body did not: answered unless the
            answered = self.cycle is not None and self.cycle.response_started  # app has
            self._answer_and_close(b"" if answered else self.guard.timed_out)

    def _stalled(self) -> None:
        self._stall = None
        self.guard.forget(self)
        self.transport.abort()

    def _answer_and_close(self, answer: bytes) -> None:
        """Write ``answer`` (if any) and close; at once, if the client reads nothing (what is
        still unsent would hold the socket open for ever)."""
        self.guard.forget(self)
        self._cancel_timers()
        if answer and not self.transport.is_closing():
            self.transport.write(answer)
        if self.transport.get_write_buffer_size():
            self.transport.abort()
        else:
            self.transport.close()

    def _cancel_timers(self) -> None:
        for timer in (self._deadline, self._stall):
            if timer is not None:
                timer.cancel()
        self._deadline = self._stall = None
