"""Two `warlog serve` processes on one PostgreSQL database serve one tournament: a client may
talk to either, a live feed on one carries what the other appended (LISTEN/NOTIFY, no polling)
and resumes on the other after a reconnect, and a command contested by both is applied once."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.postgres_cluster import Cluster
from tests.server.conftest import (
    ADMIN_HEADERS,
    RULESETS,
    Game,
    Served,
    arbiter_on,
    served,
    sse,
)
from tests.server.test_processes import (
    assert_kept,
    assert_played_once_each,
    contest,
    player_client,
    run,
)
from warlog.arbiter.exchange import export_line

FEED = {"Accept": "text/event-stream"}


@pytest.fixture(scope="module")
def database(postgres: Cluster) -> str:
    return postgres.new_database()


@pytest.fixture(scope="module")
def pair(database: str) -> Iterator[tuple[Served, Served]]:
    """Two `warlog serve --db postgresql://…` processes on one database."""
    with served(database) as one, served(database) as two:
        yield one, two


async def create(client: httpx.AsyncClient, base: str, ruleset: str, game: str) -> Game:
    response = await client.post(
        base + "/games", json={"ruleset": ruleset, "game": game}, headers=ADMIN_HEADERS
    )
    assert response.status_code == 201, response.text
    return Game(response.json())


def test_a_feed_carries_the_other_processes_events_and_resumes_on_it(
    database: str, pair: tuple[Served, Served]
) -> None:
    """Given commands sent to the two servers in turn, when a player's client follows the
    game's feed and, after a random number of events each time, drops it and resumes on the
    other server with `Last-Event-ID`, then it receives every event once, in order, as the log
    holds them for that player: events appended by the process it is not connected to come
    through the feed as well (a feed never polls: without the other process's announcements it
    would wait forever)."""
    urls = [server.url for server in pair]

    async def main() -> list[dict[str, Any]]:
        async with httpx.AsyncClient(timeout=30) as client:
            game = await create(client, urls[0], "armageddon-empires", "feed")
            final: list[int] = []

            async def play() -> None:
                rng = random.Random(3)
                for n in range(24):
                    base = urls[n % 2]
                    legal = await client.get(base + "/games/feed/legal", headers=ADMIN_HEADERS)
                    commands = legal.json()["commands"]
                    if not commands:
                        break
                    command = rng.choice(commands)
                    answer = await client.post(
                        base + "/games/feed/commands",
                        json=command,
                        headers=game.as_(command["player"]),
                    )
                    assert answer.status_code == 200, answer.text
                    await asyncio.sleep(rng.uniform(0, 0.03))
                head = await client.get(urls[0] + "/games/feed/head", headers=ADMIN_HEADERS)
                final.append(head.json()["seq"])

            player = asyncio.create_task(play())
            rng = random.Random(8)
            got: list[dict[str, Any]] = []
            reconnects = 0

            def caught_up() -> bool:
                return bool(final and got and int(got[-1]["id"]) >= final[0])

            async def follow(base: str, headers: dict[str, str], take: int) -> None:
                """One stream: ``take`` events, then it hangs up."""
                async with client.stream("GET", base + "/games/feed/events", headers=headers) as r:
                    assert r.status_code == 200
                    async for item in sse(r):
                        if "comment" not in item:
                            got.append(item)
                            take -= 1
                        if take == 0:
                            return

            while not caught_up():
                headers = {**game.as_("blue"), **FEED}
                if got:
                    headers["Last-Event-ID"] = got[-1]["id"]
                stream = asyncio.create_task(
                    follow(urls[reconnects % 2], headers, rng.randint(1, 8))
                )
                reconnects += 1
                while not stream.done():  # an idle stream is hung up once play is over and seen
                    await asyncio.sleep(0.02)
                    if caught_up():
                        stream.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await stream
            await player
            assert reconnects > 4
            return got

    got = run(main(), timeout=60)
    records = list(arbiter_on(database).records_as("feed", "blue"))
    assert [int(i["id"]) for i in got] == list(range(1, len(records) + 1))
    assert [i["data"] for i in got] == [json.loads(export_line(r)) for r in records]


def test_a_command_sent_to_both_processes_at_once_is_applied_once(
    database: str, pair: tuple[Served, Served]
) -> None:
    """Given the same legal command with the same `If-Match` sent to both servers at once,
    again and again, then one applies it and the other answers 409 with nothing appended,
    whether it saw the new head or lost the race to append (the database's primary key)."""
    one, two = (server.url for server in pair)
    rounds = run(contest(one, two, "battle-for-armageddon", "contested", 12))
    assert rounds == [[200, 409]] * 12
    assert_played_once_each(database, "contested", 12)


def test_two_processes_serve_one_tournament_without_a_lost_duplicated_or_forked_event(
    database: str, pair: tuple[Served, Served]
) -> None:
    """Given 6 games of every ruleset whose two players each use a different server (and
    follow the feed there), when they all play at once, then every acknowledged event is in its
    game's log once, with its hash, the seqs run without a gap, and every game audits clean."""
    urls = [server.url for server in pair]
    acked: list[tuple[str, int, str]] = []

    async def main() -> list[str]:
        clients = [
            httpx.AsyncClient(base_url=url, timeout=60, limits=httpx.Limits(max_connections=50))
            for url in urls
        ]
        try:
            games = [
                await create(clients[n % 2], "", RULESETS[n % len(RULESETS)], f"t{n}")
                for n in range(6)
            ]
            await asyncio.gather(
                *(
                    player_client(clients[i % 2], game, player, n * 5 + i, acked, target=12)
                    for n, game in enumerate(games)
                    for i, player in enumerate(game.players)
                )
            )
            return [game.id for game in games]
        finally:
            for client in clients:
                await client.aclose()

    games = run(main())
    assert len({(g, seq) for g, seq, _ in acked}) == len(acked) > 6 * 2 * 5
    assert_kept(database, acked, games)
