"""A stream whose queue overflowed with several batches unread: it reads every dropped event
from the log, so its client still receives every event once, in order (docs/server.md,
"Concurrency and the feed": after unread batches overflow its queue a stream reads the log)."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.server.test_feed_hub import hub, ids_in, read_until  # noqa: F401 (a fixture)
from warlog.arbiter.application import Arbiter
from warlog.server import feed
from warlog.server.feed import Feeds, live
from warlog.server.host import ArbiterHost


def test_a_queue_dropped_with_several_batches_in_it_loses_none_of_their_events(
    hub: tuple[ArbiterHost, Feeds, Arbiter],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given a caught-up stream of red's whose queue holds three batches
    host, feeds, arb = hub
    monkeypatch.setattr(feed, "QUEUE_LIMIT", 3)
    head = arb.head("g")[0]

    async def main() -> tuple[list[int], int]:
        stream = live(host, feeds, "g", "red", head, None, keepalive=0.05)
        assert await stream.__anext__() == feed.KEEPALIVE  # caught up, and idle
        # when seven commands are appended while it is not read (its full queue of three
        # batches is dropped, then three more, and one is left queued)
        last = head
        for _ in range(7):
            legal = await host.call(lambda a: a.legal("g"))
            command = json.dumps(legal[0]).encode()
            last = (await host.call(lambda a, c=command: a.play("g", c)))[-1].seq
        ids = await read_until(stream, last, [])
        await stream.aclose()
        return ids, last

    # then it sends every event after the head it had, once, in order
    ids, last = asyncio.run(main())
    assert ids == list(range(head + 1, last + 1))
    assert [r.seq for r in arb.records_as("g", "red", head + 1)] == ids
