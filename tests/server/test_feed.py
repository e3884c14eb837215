"""The live feed over a real uvicorn on 127.0.0.1: each event as the caller may see it, `id:`
its seq, resumable after `Last-Event-ID` with nothing lost or repeated, a keep-alive comment when
idle, new events pushed to every open stream as they are appended (nothing polls the log), and
`?until=SEQ` closing the stream after that seq."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from litestar import Litestar

from tests.server.conftest import (
    ADMIN_HEADERS,
    Game,
    arbiter_on,
    client_check,
    open_app,
    sse,
    uvicorn_thread,
)
from warlog.arbiter.exchange import export_line
from warlog.server import feed

FEED = {"Accept": "text/event-stream"}
T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T], timeout: float = 60) -> T:
    """Run ``coroutine`` to its end, failing the test if that takes over ``timeout`` s."""
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


@pytest.fixture
def app(db: Path) -> Litestar:
    return open_app(db, keepalive=0.2)


@pytest.fixture
def url(app: Litestar) -> Iterator[str]:
    with uvicorn_thread(app) as base:
        yield base


async def create(
    client: httpx.AsyncClient, ruleset: str = "armageddon-empires", **body: Any
) -> Game:
    response = await client.post("/games", json={"ruleset": ruleset, **body}, headers=ADMIN_HEADERS)
    assert response.status_code == 201, response.text
    return Game(response.json())


async def play_one(
    client: httpx.AsyncClient, game: Game, rng: random.Random
) -> dict[str, Any] | None:
    """One legal command by a player the game waits for, with that player's token (None: the
    game waits for nobody)."""
    waiting = (await client.get(f"/games/{game.id}/legal", headers=ADMIN_HEADERS)).json()[
        "commands"
    ]
    if not waiting:
        return None
    command = rng.choice(waiting)
    response = await client.post(
        f"/games/{game.id}/commands", json=command, headers=game.as_(command["player"])
    )
    assert response.status_code == 200, response.text
    verdict: dict[str, Any] = response.json()
    return verdict


async def read_feed(
    client: httpx.AsyncClient, game: Game, headers: dict[str, str], upto: int, **params: Any
) -> list[dict[str, Any]]:
    """The events of ``game``'s feed up to seq ``upto``."""
    got: list[dict[str, Any]] = []
    async with client.stream(
        "GET", f"/games/{game.id}/events", headers={**headers, **FEED}, params=params
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        async for item in sse(response):
            if "comment" in item:
                continue
            got.append(item)
            if int(item["id"]) >= upto:
                break
    return got


def test_every_reader_gets_every_event_once_in_its_own_form_as_it_is_appended(
    db: Path, url: str
) -> None:
    """Given feeds open for the organiser and both players before play starts, when commands
    are played, then each feed carries every event once, in seq order, `id:` its seq, `event:`
    its type and `data:` the event in the export format exactly as that reader reads it from
    the log, and it checks with the client code of docs/server.md."""
    Receipts = client_check()

    async def main() -> tuple[Game, dict[str, list[dict[str, Any]]], list[float]]:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            game = await create(client, game="g")
            readers = {"admin": ADMIN_HEADERS, **{p: game.as_(p) for p in game.players}}
            seen: dict[str, list[dict[str, Any]]] = {name: [] for name in readers}
            arrived: dict[int, float] = {}
            final: list[int] = []  # the head once play has stopped

            async def follow(name: str, headers: dict[str, str]) -> None:
                async with client.stream(
                    "GET", "/games/g/events", headers={**headers, **FEED}
                ) as r:
                    async for item in sse(r):  # keep-alive comments wake it up when idle
                        if "comment" not in item:
                            seen[name].append(item)
                            arrived.setdefault(int(item["id"]), time.monotonic())
                        if final and seen[name] and int(seen[name][-1]["id"]) >= final[0]:
                            return

            followers = [asyncio.create_task(follow(n, h)) for n, h in readers.items()]
            rng = random.Random(3)
            lags = []
            for _ in range(25):
                verdict = await play_one(client, game, rng)
                if verdict is None:
                    break
                acknowledged = time.monotonic()
                last = verdict["head"]["seq"]
                while last not in arrived:
                    await asyncio.sleep(0.005)
                lags.append(max(0.0, arrived[last] - acknowledged))
            final.append((await client.get("/games/g/head", headers=ADMIN_HEADERS)).json()["seq"])
            await asyncio.wait_for(asyncio.gather(*followers), 30)
            return game, seen, lags

    _, seen, lags = run(main())
    arb = arbiter_on(db)
    head = arb.head("g")[0]
    for name, items in seen.items():
        reader = None if name == "admin" else name
        assert [int(i["id"]) for i in items] == list(range(1, head + 1))
        records = list(arb.records_as("g", reader))
        assert [i["event"] for i in items] == [r.type for r in records]
        assert [i["data"] for i in items] == [json.loads(export_line(r)) for r in records]
        receipts = Receipts()
        for item in items:
            receipts.check(item["data"])
        assert (receipts.seq, receipts.hash) == arb.head("g")
    assert max(lags) < 1.0  # pushed, not found by a poll


def test_the_client_check_catches_a_doctored_event_and_a_gap(db: Path, url: str) -> None:
    Receipts = client_check()

    async def main() -> list[dict[str, Any]]:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            game = await create(client, game="g")
            head = (await client.get("/games/g/head", headers=ADMIN_HEADERS)).json()["seq"]
            return [i["data"] for i in await read_feed(client, game, game.as_("red"), head)]

    events = run(main())
    opened = next(e for e in events if first_opened_seal(e["data"]) is not None)
    receipts = Receipts()
    for event in events:
        if event is opened:
            break
        receipts.check(event)
    doctored = json.loads(json.dumps(opened))
    seal = first_opened_seal(doctored["data"])
    seal["value"] = [seal["value"], "doctored"]
    forged = json.loads(json.dumps(opened))
    forged["at"] = "2020-01-01T00:00:00.000Z"
    for bad in (doctored, forged, {**opened, "seq": opened["seq"] + 1}):
        with pytest.raises(ValueError):
            receipts.check(bad)
    receipts.check(opened)


def first_opened_seal(value: Any) -> Any:
    """The first ``{"sealed", "value", "salt"}`` inside ``value`` (None if there is none)."""
    if isinstance(value, dict):
        if set(value) == {"sealed", "value", "salt"}:
            return value
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            found = first_opened_seal(item)
            if found is not None:
                return found
    return None


def test_a_client_reconnecting_after_its_last_event_id_misses_nothing_and_sees_nothing_twice(
    db: Path, url: str
) -> None:
    """Given play going on in the background, when a client drops its stream after a random
    number of events, again and again, and resumes each time with `Last-Event-ID`, then what it
    received is every event, once, in order, as it reads them from the log."""

    async def main() -> list[dict[str, Any]]:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            game = await create(client, game="g")
            final: list[int] = []

            async def play() -> None:
                rng = random.Random(5)
                for _ in range(30):
                    if await play_one(client, game, rng) is None:
                        break
                    await asyncio.sleep(rng.uniform(0, 0.02))
                final.append(
                    (await client.get("/games/g/head", headers=ADMIN_HEADERS)).json()["seq"]
                )

            player = asyncio.create_task(play())
            rng = random.Random(9)
            got: list[dict[str, Any]] = []
            while not (final and got and int(got[-1]["id"]) >= final[0]):
                headers = {**game.as_("blue"), **FEED}
                if got:
                    headers["Last-Event-ID"] = got[-1]["id"]
                take = rng.randint(1, 12)
                async with client.stream("GET", "/games/g/events", headers=headers) as response:
                    async for item in sse(response):
                        if "comment" not in item:
                            got.append(item)
                            take -= 1
                        if take == 0 or (final and got and int(got[-1]["id"]) >= final[0]):
                            break
            await player
            return got

    got = run(main())
    records = list(arbiter_on(db).records_as("g", "blue"))
    assert [int(i["id"]) for i in got] == list(range(1, len(records) + 1))
    assert [i["data"] for i in got] == [json.loads(export_line(r)) for r in records]


def test_from_and_until_bound_the_stream(db: Path, url: str) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            game = await create(client, game="g")
            head = (await client.get("/games/g/head", headers=ADMIN_HEADERS)).json()["seq"]
            async with client.stream(
                "GET",
                "/games/g/events",
                params={"from": 3, "until": 7},
                headers={**game.as_("red"), **FEED},
            ) as response:
                items = [i async for i in sse(response) if "comment" not in i]  # it ends by itself
            assert [int(i["id"]) for i in items] == [3, 4, 5, 6, 7]
            # until past the head: the stream waits for the events, then ends after `until`
            async with client.stream(
                "GET",
                "/games/g/events",
                params={"until": head + 2},
                headers={**ADMIN_HEADERS, **FEED},
            ) as response:
                follow = asyncio.create_task(_collect(response))
                await asyncio.sleep(0.3)
                assert not follow.done()
                await play_one(client, game, random.Random(1))
                await play_one(client, game, random.Random(2))
                items = await asyncio.wait_for(follow, 10)
            assert [int(i["id"]) for i in items] == list(range(1, head + 3))

    run(main())


async def _collect(response: httpx.Response) -> list[dict[str, Any]]:
    return [i async for i in sse(response) if "comment" not in i]


def test_an_idle_stream_gets_keepalive_comments(db: Path, url: str) -> None:
    async def main() -> list[str]:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            game = await create(client, game="g")
            head = (await client.get("/games/g/head", headers=ADMIN_HEADERS)).json()["seq"]
            comments: list[str] = []
            headers = {**game.as_("red"), **FEED, "Last-Event-ID": str(head)}
            async with client.stream("GET", "/games/g/events", headers=headers) as response:
                async for item in sse(response):
                    assert "comment" in item, "nothing happened in the game"
                    comments.append(item["comment"])
                    if len(comments) == 3:
                        break
            return comments

    started = time.monotonic()
    assert run(main()) == ["keep-alive"] * 3
    assert time.monotonic() - started < 5


def test_open_streams_never_read_the_log_once_caught_up(app: Litestar, db: Path, url: str) -> None:
    """Given twenty open streams of one game, caught up, then the arbiter's thread is asked
    for nothing while nothing happens, and each command costs one call however many streams
    carry it (its batch is rendered once per reader and pushed): no stream reads the log."""
    host = app.state.warlog.host
    calls = 0
    real_call = host.call

    async def counted(fn: Any) -> Any:
        nonlocal calls
        calls += 1
        return await real_call(fn)

    host.call = counted

    async def main() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            game = await create(client, game="g")
            head = (await client.get("/games/g/head", headers=ADMIN_HEADERS)).json()["seq"]
            streams = []
            for n in range(20):
                headers = [ADMIN_HEADERS, game.as_("red"), game.as_("blue")][n % 3]
                request = client.build_request(
                    "GET", "/games/g/events", headers={**headers, **FEED}
                )
                streams.append(await client.send(request, stream=True))
            received: list[list[int]] = [[] for _ in streams]

            async def collect(ids: list[int], response: httpx.Response) -> None:
                async for item in sse(response):
                    if "comment" not in item:
                        ids.append(int(item["id"]))

            readers = [
                asyncio.create_task(collect(i, r)) for i, r in zip(received, streams, strict=True)
            ]
            while app.state.warlog.feeds.open_streams("g") < 20:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.3)  # every stream has caught up with the log
            quiet = calls
            await asyncio.sleep(1.0)  # five keep-alive periods
            assert calls == quiet
            mine = arbiter_on(db)  # the test's own reads: not the server's
            rng = random.Random(2)
            for played in range(1, 13):  # play goes on: still one call per command
                command = rng.choice(mine.legal("g"))
                response = await client.post(
                    "/games/g/commands", json=command, headers=game.as_(command["player"])
                )
                assert response.status_code == 200
                assert calls == quiet + played
            head = response.json()["head"]["seq"]
            await asyncio.sleep(0.3)
            assert calls == quiet + 12
            assert received == [list(range(1, head + 1))] * len(streams)
            for stream in streams:
                await stream.aclose()
            for reader in readers:
                reader.cancel()
            deadline = time.monotonic() + 5
            while app.state.warlog.feeds.open_streams("g"):  # closed streams unsubscribe
                assert time.monotonic() < deadline
                await asyncio.sleep(0.01)

    run(main())


def test_a_stream_that_falls_behind_drops_its_queue_and_catches_up_from_the_log(
    db: Path, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(feed, "QUEUE_LIMIT", 2)

    async def main() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            game = await create(client, game="g")
            async with client.stream(
                "GET", "/games/g/events", headers={**game.as_("red"), **FEED}
            ) as response:
                rng = random.Random(4)
                for _ in range(12):  # the stream is not read meanwhile: its queue overflows
                    await play_one(client, game, rng)
                head = (await client.get("/games/g/head", headers=ADMIN_HEADERS)).json()["seq"]
                items: list[dict[str, Any]] = []
                async for item in sse(response):
                    if "comment" not in item:
                        items.append(item)
                        if int(item["id"]) == head:
                            break
            assert [int(i["id"]) for i in items] == list(range(1, head + 1))

    run(main())


def test_open_streams_end_when_the_server_stops(db: Path) -> None:
    app = open_app(db, keepalive=0.2)

    async def follow(url: str, game: Game, ended: list[float]) -> None:
        async with (
            httpx.AsyncClient(base_url=url, timeout=30) as client,
            client.stream("GET", "/games/g/events", headers={**game.as_("red"), **FEED}) as r,
        ):
            async for _ in sse(r):
                pass
        ended.append(time.monotonic())

    ended: list[float] = []
    with uvicorn_thread(app) as url:
        with httpx.Client(base_url=url) as client:
            body = client.post(
                "/games", json={"ruleset": "armageddon-empires", "game": "g"}, headers=ADMIN_HEADERS
            )
            game = Game(body.json())
        import threading

        thread = threading.Thread(target=lambda: run(follow(url, game, ended)))
        thread.start()
        while app.state.warlog.feeds.open_streams("g") == 0:
            time.sleep(0.01)
        stopping = time.monotonic()
    thread.join(timeout=10)
    assert ended and ended[0] - stopping < 3


def test_warlog_serve_sends_its_keepalive_every_fifteen_seconds() -> None:
    """The contract's interval (the tests above use a short one to see it happen)."""
    import inspect

    from warlog.server.app import create_app
    from warlog.server.serve import serve

    assert feed.KEEPALIVE_SECONDS == 15
    assert inspect.signature(serve).parameters["keepalive"].default == feed.KEEPALIVE_SECONDS
    assert inspect.signature(create_app).parameters["keepalive"].default == feed.KEEPALIVE_SECONDS
