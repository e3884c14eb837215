"""The live feed: each game's new events pushed to every open stream of it, as Server-Sent Events.

When the arbiter appends a batch (``Arbiter.watch``), the hub renders it once for each reader
that has a stream of that game open (a player's chained form, or the organiser's), on the
arbiter's thread, and hands the texts to the event loop, which queues them on every such stream.
Nothing polls the log: a stream reads the log only to catch up (when it opens, resumes after
``Last-Event-ID``, or has fallen too far behind and dropped its queue). Batches that another
server process appended (a store that can ``follow`` them: PostgreSQL's LISTEN/NOTIFY) are
pushed without their lines, and each stream reads them from the log. Each stream keeps the
seq it sent last, so that it sends every event once, in order, whatever the interleaving of its
catch-up reads and the pushes.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator, Sequence
from typing import NamedTuple

from warlog.arbiter.application import Arbiter
from warlog.arbiter.exchange import export_line
from warlog.domain.core.errors import WarlogError
from warlog.eventstore.records import Record
from warlog.server.host import ArbiterHost

#: the contract's keep-alive: a comment line every 15 s on an idle stream
KEEPALIVE_SECONDS = 15.0
KEEPALIVE = b": keep-alive\n\n"
#: batches a stream may have queued before it drops them and catches up from the log instead
QUEUE_LIMIT = 256
#: events read from the log per call while a stream catches up
CHUNK = 500

#: the ``last`` of a batch that says "read the log up to its head, wherever that is"
TO_THE_HEAD = 2**62

#: ``(seq, SSE text)`` of one event as one reader may see it
Line = tuple[int, str]


def sse_event(record: Record) -> str:
    """One log event as one SSE event: ``id:`` its seq, ``event:`` its type, ``data:`` the
    event in the export format (one line: JSON escapes every line break)."""
    return f"id: {record.seq}\nevent: {record.type}\ndata: {export_line(record)}\n\n"


class Pushed(NamedTuple):
    """A batch appended (seqs ``first``..``last``), with its lines for the stream's reader
    (None: the stream reads them from the log)."""

    first: int
    last: int
    lines: Sequence[Line] | None


class Subscriber:
    """One open stream: a reader (a player, None for the organiser) and its queue of batches."""

    def __init__(self, game: str, reader: str | None) -> None:
        self.game = game
        self.reader = reader
        self.closed = False
        self._queue: deque[Pushed] = deque()
        self._lost_to = 0  # the last seq of the batches dropped from a full queue
        self._wake = asyncio.Event()

    def push(self, pushed: Pushed) -> None:
        if len(self._queue) >= QUEUE_LIMIT:
            self._lost_to = max(self._lost_to, self._queue[-1].last)
            self._queue.clear()
        self._queue.append(pushed)
        self._wake.set()

    def close(self) -> None:
        self.closed = True
        self._wake.set()

    async def pending(self, timeout: float) -> list[Pushed] | None:
        """What was pushed since the last call, oldest first (dropped batches as one batch
        without lines); None if nothing came within ``timeout`` seconds or it is closed."""
        if not self._queue and not self._lost_to and not self.closed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)
        self._wake.clear()
        if self.closed:
            return None
        taken = list(self._queue)
        self._queue.clear()
        if self._lost_to:
            taken.insert(0, Pushed(self._lost_to, self._lost_to, None))
            self._lost_to = 0
        return taken or None


class Feeds:
    """The open streams of every game, and the listener that pushes new batches to them."""

    def __init__(self) -> None:
        self._streams: dict[str, set[Subscriber]] = {}
        self._readers: dict[str, frozenset[str | None]] = {}  # replaced whole: read off-loop
        self._loop: asyncio.AbstractEventLoop | None = None

    def subscribe(self, game: str, reader: str | None) -> Subscriber:
        """A new stream of ``game`` for ``reader`` (on the event loop)."""
        self._loop = asyncio.get_running_loop()
        sub = Subscriber(game, reader)
        self._streams.setdefault(game, set()).add(sub)
        self._readers[game] = frozenset(s.reader for s in self._streams[game])
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        streams = self._streams.get(sub.game, set())
        streams.discard(sub)
        if streams:
            self._readers[sub.game] = frozenset(s.reader for s in streams)
        else:
            self._streams.pop(sub.game, None)
            self._readers.pop(sub.game, None)

    def open_streams(self, game: str | None = None) -> int:
        """How many streams are open (of ``game``, or of every game)."""
        if game is not None:
            return len(self._streams.get(game, ()))
        return sum(len(s) for s in self._streams.values())

    def close(self) -> None:
        """End every open stream (the server is stopping)."""
        for streams in list(self._streams.values()):
            for sub in list(streams):
                sub.close()

    def appended(self, arb: Arbiter, game: str, records: list[Record]) -> None:
        """The Arbiter's listener (on the arbiter's thread): the batch rendered once for each
        reader with an open stream of ``game``, handed to the event loop."""
        readers = self._readers.get(game)
        loop = self._loop
        if not readers or loop is None:
            return  # a stream opened meanwhile reads this batch in its catch-up (same thread, later)
        first, last = records[0].seq, records[-1].seq
        lines: dict[str | None, Sequence[Line] | None] = {}
        for reader in readers:
            try:
                lines[reader] = [
                    (r.seq, sse_event(r)) for r in arb.records_as(game, reader, first, last)
                ]
            except WarlogError:
                lines[reader] = None  # the stream reads it from the log and meets the error there
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server has stopped
            loop.call_soon_threadsafe(self._publish, game, Pushed(first, last, None), lines)

    def appended_elsewhere(self, game: str, first: int, last: int) -> None:
        """Another process appended events ``first``..``last`` of ``game`` (on the store's
        listening thread): each open stream of it reads them from the log."""
        loop = self._loop
        if game in self._readers and loop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._publish, game, Pushed(first, last, None), {})

    def missed(self) -> None:
        """Announcements of other processes' appends may have been lost (the store's listening
        connection was down): every open stream reads its game's log up to the head."""
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._catch_up_all)

    def _catch_up_all(self) -> None:
        for game in list(self._streams):
            self._publish(game, Pushed(0, TO_THE_HEAD, None), {})

    def _publish(
        self, game: str, batch: Pushed, lines: dict[str | None, Sequence[Line] | None]
    ) -> None:
        for sub in self._streams.get(game, ()):
            sub.push(batch._replace(lines=lines.get(sub.reader)))


async def read_lines(
    host: ArbiterHost, game: str, reader: str | None, from_seq: int, to_seq: int
) -> tuple[int, list[Line]]:
    """The head, and the SSE lines of events ``from_seq``..``to_seq`` (as far as the log goes)
    for ``reader``."""

    def read(arb: Arbiter) -> tuple[int, list[Line]]:
        head = arb.head(game)[0]
        last = min(to_seq, head)
        if from_seq > last:
            return head, []
        return head, [(r.seq, sse_event(r)) for r in arb.records_as(game, reader, from_seq, last)]

    return await host.call(read)


async def live(
    host: ArbiterHost,
    feeds: Feeds,
    game: str,
    reader: str | None,
    after: int,
    until: int | None = None,
    keepalive: float = KEEPALIVE_SECONDS,
) -> AsyncIterator[bytes]:
    """The feed of ``game`` for ``reader`` from the event after seq ``after``: what the log
    holds, then each new event as it is appended, a keep-alive comment when idle; it ends after
    seq ``until`` (if given) or when the server stops.

    It subscribes first, then reads the log up to the head it finds at its first read: every
    batch appended after that read is pushed to it (the listener runs on the arbiter's thread
    after the read, and sees the subscription), so from then on it reads the log only for a
    batch it was not handed the lines of, or after its queue overflowed."""
    sub = feeds.subscribe(game, reader)
    last = after
    end = until if until is not None else 2**63

    def fresh(lines: Sequence[Line]) -> bytes:
        """The lines not sent yet (up to ``until``), in seq order; ``last`` moves on."""
        nonlocal last
        out = []
        for seq, text in lines:
            if last < seq <= end:
                out.append(text)
                last = seq
        return "".join(out).encode()

    async def read_to(seq: int) -> AsyncIterator[bytes]:
        """Events ``last + 1``..``seq`` (and ``until``) from the log, a chunk at a time."""
        while last < min(seq, end):
            _, lines = await read_lines(host, game, reader, last + 1, min(seq, last + CHUNK, end))
            if not lines:
                return
            yield fresh(lines)

    try:
        head, lines = await read_lines(host, game, reader, last + 1, min(last + CHUNK, end))
        if lines:
            yield fresh(lines)
        async for chunk in read_to(head):  # the rest of the catch-up, if it was long
            yield chunk
        while last < end:
            pushed = await sub.pending(keepalive)
            if pushed is None:
                if sub.closed:
                    return
                yield KEEPALIVE
                continue
            for batch in pushed:
                if batch.lines is None or batch.first > last + 1:  # not rendered, or dropped
                    async for chunk in read_to(batch.last):
                        yield chunk
                else:
                    text = fresh(batch.lines)
                    if text:
                        yield text
                if last >= end:
                    return
    finally:
        feeds.unsubscribe(sub)
