"""The feed hub against the worst interleavings, which a real server reaches only by chance: a
batch appended after a stream subscribed but before its catch-up read (pushed and read both),
a batch the hub did not render for the stream's reader, a queue dropped when it overflowed."""

from __future__ import annotations

import asyncio
import functools
import json
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest

from warlog.arbiter.application import Arbiter
from warlog.domain import rulesets as registry
from warlog.domain.core.errors import StoreError
from warlog.eventstore.memory_store import MemoryStore
from warlog.server import feed
from warlog.server.feed import Feeds, live
from warlog.server.host import ArbiterHost


@pytest.fixture
def hub() -> Iterator[tuple[ArbiterHost, Feeds, Arbiter]]:
    feeds = Feeds()
    arbiters: list[Arbiter] = []

    def opened() -> Arbiter:
        arb = Arbiter(MemoryStore(), registry.get)
        arb.watch(functools.partial(feeds.appended, arb))
        arb.new_game("armageddon-empires", game="g")
        arbiters.append(arb)
        return arb

    host = ArbiterHost(opened)
    yield host, feeds, arbiters[0]
    host.close()


def bid(player: str) -> bytes:
    return json.dumps({"type": "buy_initiative", "player": player, "count": 1}).encode()


def ids_in(chunk: bytes) -> list[int]:
    return [int(line[4:]) for line in chunk.decode().splitlines() if line.startswith("id: ")]


async def read_until(stream: AsyncIterator[bytes], last: int, ids: list[int]) -> list[int]:
    """``ids`` and those the stream sends next, until it has sent seq ``last`` (within 10 s:
    keepalives alone never end the wait)."""
    deadline = asyncio.get_running_loop().time() + 10
    while not ids or ids[-1] < last:
        assert asyncio.get_running_loop().time() < deadline, f"seq {last} never came: {ids}"
        ids = ids + ids_in(await asyncio.wait_for(stream.__anext__(), 10))
    return ids


def assert_each_event_sent_once(
    hub: tuple[ArbiterHost, Feeds, Arbiter],
    unread: Callable[[feed.Subscriber], Awaitable[int]],
) -> None:
    """A caught-up, idle stream of red's; ``unread`` appends (and may push) while the stream is
    not read, returning the last seq appended: then the stream sends every event after the
    head it had, once, in order, as red reads them."""
    host, feeds, arb = hub
    head = arb.head("g")[0]

    async def main() -> tuple[list[int], int]:
        stream = live(host, feeds, "g", "red", head, None, keepalive=0.05)
        assert await stream.__anext__() == feed.KEEPALIVE  # caught up, and idle
        (sub,) = feeds._streams["g"]
        last = await unread(sub)
        ids = await read_until(stream, last, [])
        await stream.aclose()
        return ids, last

    ids, last = asyncio.run(main())
    assert ids == list(range(head + 1, last + 1))
    assert [r.seq for r in arb.records_as("g", "red", head + 1)] == ids


def test_a_batch_both_pushed_and_caught_up_is_sent_once(
    hub: tuple[ArbiterHost, Feeds, Arbiter],
) -> None:
    """Given a stream that has subscribed and whose catch-up read waits behind a command on the
    arbiter's thread, when that command is appended (so it is pushed to the stream and is also
    in its catch-up read), then the stream sends each event once."""
    host, feeds, _ = hub
    go = threading.Event()

    def command_waiting_for_the_stream(arb: Arbiter) -> int:
        assert go.wait(10)
        return arb.play("g", bid("red"))[-1].seq

    async def main() -> tuple[list[int], int]:
        blocked = asyncio.ensure_future(host.call(command_waiting_for_the_stream))
        await asyncio.sleep(0.01)  # the command holds the arbiter's thread
        stream = live(host, feeds, "g", "blue", 0, None, keepalive=0.05)
        first = asyncio.ensure_future(stream.__anext__())  # subscribes, then reads behind it
        while feeds.open_streams("g") == 0:
            await asyncio.sleep(0.001)
        go.set()
        await blocked
        last = (await host.call(lambda a: a.play("g", bid("blue"))))[-1].seq  # then one more
        ids = await read_until(stream, last, ids_in(await first))
        # caught up: what was pushed meanwhile (all of it sent already) is not sent again
        assert await asyncio.wait_for(stream.__anext__(), 10) == feed.KEEPALIVE
        legal = await host.call(lambda a: a.legal("g"))
        command = json.dumps(legal[0]).encode()
        last = (await host.call(lambda a: a.play("g", command)))[-1].seq
        ids = await read_until(stream, last, ids)
        await stream.aclose()
        return ids, last

    ids, last = asyncio.run(main())
    assert ids == list(range(1, last + 1))
    assert feeds.open_streams() == 0


def test_a_stream_reads_what_was_not_rendered_for_it_and_what_its_full_queue_dropped(
    hub: tuple[ArbiterHost, Feeds, Arbiter], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a stream whose queue holds one batch, when three batches arrive unread (one of them
    announced without lines for its reader), then it sends every event once, in order."""
    host, _, arb = hub
    monkeypatch.setattr(feed, "QUEUE_LIMIT", 1)
    head = arb.head("g")[0]

    async def unread(sub: feed.Subscriber) -> int:
        await host.call(lambda a: a.play("g", bid("red")))
        last = (await host.call(lambda a: a.play("g", bid("blue"))))[-1].seq
        sub.push(feed.Pushed(head + 1, head + 1, None))
        return int(last)

    assert_each_event_sent_once(hub, unread)


def test_a_batch_the_hub_fails_to_render_for_a_reader_is_read_by_its_stream(
    hub: tuple[ArbiterHost, Feeds, Arbiter], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a caught-up stream of red's, when a batch is appended and reading it as red sees
    it fails as the hub renders it (the key file failing at that read: a StoreError), then
    the stream reads the batch from the log itself: every event once, in order."""
    host, _, arb = hub
    real = arb.records_as
    failing: list[bool] = []

    def records_as(*args: Any, **kwargs: Any) -> Any:
        if failing:
            failing.clear()
            raise StoreError("the key file failed at this read", "store/io")
        return real(*args, **kwargs)

    monkeypatch.setattr(arb, "records_as", records_as)

    async def unread(sub: feed.Subscriber) -> int:
        failing.append(True)  # the hub's render of the next batch fails
        return int((await host.call(lambda a: a.play("g", bid("red"))))[-1].seq)

    assert_each_event_sent_once(hub, unread)


def test_a_queue_dropped_with_several_batches_in_it_loses_none_of_their_events(
    hub: tuple[ArbiterHost, Feeds, Arbiter],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given a caught-up stream of red's whose queue holds three batches
    host, _, arb = hub
    monkeypatch.setattr(feed, "QUEUE_LIMIT", 3)

    # when seven commands are appended while it is not read (its full queue of three batches
    # is dropped, then three more, and one is left queued)
    async def unread(sub: feed.Subscriber) -> int:
        last = arb.head("g")[0]
        for _ in range(7):
            legal = await host.call(lambda a: a.legal("g"))
            command = json.dumps(legal[0]).encode()
            last = (await host.call(lambda a, c=command: a.play("g", c)))[-1].seq
        return int(last)

    # then it sends every event after the head it had, once, in order
    assert_each_event_sent_once(hub, unread)


@pytest.mark.parametrize("told", ["announced", "missed"])
def test_another_process_s_appends_reach_a_stream_announced_or_after_a_gap(
    hub: tuple[ArbiterHost, Feeds, Arbiter], told: str
) -> None:
    """Given a caught-up stream of red's, when another process (another arbiter on the same
    store, which this hub does not watch) appends two batches, and the store's follower
    announces them, or says only that announcements may have been lost (its listening
    connection was down), then the stream sends every event after the head it had, once, in
    order."""
    _, feeds, arb = hub
    elsewhere = Arbiter(arb.store, registry.get, vault=arb.vault)

    async def unread(sub: feed.Subscriber) -> int:
        first = arb.head("g")[0] + 1
        elsewhere.play("g", bid("red"))
        last = elsewhere.play("g", bid("blue"))[-1].seq
        if told == "announced":
            feeds.appended_elsewhere("g", first, last)
        else:
            feeds.missed()
        return last

    assert_each_event_sent_once(hub, unread)


def test_a_catch_up_longer_than_a_read_is_sent_whole_a_read_at_a_time(
    hub: tuple[ArbiterHost, Feeds, Arbiter], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a game whose log is longer than one read of the catch-up (3 events here, 500 in
    the server), when a stream opens from its start, then it sends every event of the log,
    once, in order, before it is caught up."""
    host, feeds, arb = hub
    monkeypatch.setattr(feed, "CHUNK", 3)
    head = arb.head("g")[0]
    assert head > 2 * feed.CHUNK

    async def main() -> list[int]:
        stream = live(host, feeds, "g", "red", 0, None, keepalive=0.05)
        ids: list[int] = []
        while (chunk := await asyncio.wait_for(stream.__anext__(), 10)) != feed.KEEPALIVE:
            ids += ids_in(chunk)
        await stream.aclose()
        return ids

    assert asyncio.run(main()) == list(range(1, head + 1))


def test_a_closed_host_refuses_calls_saying_so(
    hub: tuple[ArbiterHost, Feeds, Arbiter],
) -> None:
    """Given the arbiter's host closed (the server's shutdown), when anything asks it for the
    arbiter, then it is refused in words, not handed to a thread that is gone; closing it again
    does nothing."""
    host, _, _ = hub
    host.close()
    with pytest.raises(RuntimeError, match=r"^the arbiter is closed$"):
        asyncio.run(host.call(lambda arb: arb.head("g")))
    host.close()
