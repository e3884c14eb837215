"""`warlog serve` as a tournament runs it: a process on 127.0.0.1 that many clients use at
once, that two processes can share a database with, and that loses no acknowledged command
when it is killed with SIGKILL in the middle of play."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import subprocess
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import httpx

from tests.server.conftest import (
    ADMIN,
    ADMIN_HEADERS,
    LISTENING,
    ROOT,
    RULESETS,
    Game,
    arbiter_on,
    bearer,
    raw_exchange,
    serve_argv,
    served,
    server_env,
    sse,
)
from warlog.arbiter.audit import audit_records
from warlog.domain import rulesets as registry

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T], timeout: float = 90) -> T:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


async def create(client: httpx.AsyncClient, ruleset: str, game: str) -> Game:
    response = await client.post(
        "/games", json={"ruleset": ruleset, "game": game}, headers=ADMIN_HEADERS
    )
    assert response.status_code == 201, response.text
    return Game(response.json())


async def player_client(
    client: httpx.AsyncClient, game: Game, player: str, seed: int, acked: list[Any], target: int
) -> None:
    """One player's client, as a tournament client works: it follows the game's live feed, and
    whenever the game has moved on asks for its legal commands and plays one, until the game
    holds ``target`` commands or is over; every verdict it gets is kept in ``acked`` as
    ``(game, seq, hash)`` of each event."""
    rng = random.Random(seed)
    headers = game.as_(player)
    moved = asyncio.Event()
    feed_headers = {**headers, "Accept": "text/event-stream"}
    issued = 0  # commands in the game, as the feed says

    async def follow(feed: httpx.Response) -> None:
        nonlocal issued
        async for event in sse(feed):
            if event.get("event") == "command_issued":
                issued += 1
            moved.set()

    async with client.stream("GET", f"/games/{game.id}/events", headers=feed_headers) as feed:
        follower = asyncio.create_task(follow(feed))
        try:
            while issued < target:
                moved.clear()
                legal = (await client.get(f"/games/{game.id}/legal", headers=headers)).json()
                if legal["commands"]:
                    command = rng.choice(legal["commands"])
                    response = await client.post(
                        f"/games/{game.id}/commands", json=command, headers=headers
                    )
                    if response.status_code == 200:
                        verdict = response.json()["events"]
                        acked.extend((game.id, e["seq"], e["hash"]) for e in verdict)
                        continue
                    assert response.status_code in (409, 422), response.text  # the other was first
                elif (await client.get(f"/games/{game.id}", headers=headers)).json()["over"]:
                    return
                with contextlib.suppress(TimeoutError):  # until the other side plays
                    await asyncio.wait_for(moved.wait(), 0.5)
                await asyncio.sleep(0.01)  # the rest of its batch
        finally:
            follower.cancel()


def assert_kept(db: Path | str, acked: list[tuple[str, int, str]], games: list[str]) -> None:
    """Every acknowledged event is in its game's log with its hash; every log audits clean."""
    arb = arbiter_on(db)
    for game in games:
        records = list(arb.records(game))
        assert [r.seq for r in records] == list(range(1, len(records) + 1))
        by_seq = {r.seq: r.hash for r in records}
        for g, seq, hash_ in acked:
            if g == game:
                assert by_seq.get(seq) == hash_, f"acknowledged event {seq} of {game} is lost"
        assert not audit_records(arb.export_records(game, opened=True), registry.get).findings


def test_warlog_serve_makes_an_admin_token_prints_it_once_and_says_where_it_listens(
    tmp_path: Path,
) -> None:
    with served(tmp_path / "w.db", admin=None) as server:
        made = [line for line in server.stderr if line.startswith("admin token: ")]
        assert len(made) == 1 and server.stderr.index(made[0]) == 0
        token = made[0].removeprefix("admin token: ")
        assert LISTENING.match(server.stderr[1]) and server.url.startswith("http://127.0.0.1:")
        body = {"ruleset": "battle-for-armageddon"}
        assert (
            httpx.post(server.url + "/games", json=body, headers=bearer(token)).status_code == 201
        )
        assert (
            httpx.post(server.url + "/games", json=body, headers=ADMIN_HEADERS).status_code == 401
        )
        assert server.stop() == 0
    assert sum(line.startswith("admin token") for line in server.stderr) == 1
    with served(tmp_path / "w.db") as server:  # $WARLOG_ADMIN_TOKEN: printed nowhere
        assert not any(ADMIN in line or "token" in line for line in server.stderr)
        assert httpx.get(server.url + "/rulesets").json() == registry.catalogue()


def test_warlog_serve_refuses_a_busy_port_or_a_bad_database_in_one_line(tmp_path: Path) -> None:
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    not_a_db = tmp_path / "junk.db"
    not_a_db.write_bytes(b"this is no database" * 100)
    for argv, code in (
        ([*serve_argv(tmp_path / "w.db")[:-2], "--port", str(port)], "input/cannot_listen"),
        (serve_argv(not_a_db), "store/corrupt"),
        (serve_argv(tmp_path / "w.db", "--host", "a..b"), "input/bad_host"),  # no such name
    ):
        done = subprocess.run(
            argv,
            cwd=ROOT,
            env=server_env(WARLOG_ADMIN_TOKEN=ADMIN),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 1
        (line,) = done.stderr.splitlines()
        assert line.startswith(f"error[{code}]: ") and "Traceback" not in done.stderr
    busy.close()


def test_a_request_that_is_not_http_is_answered_400_by_uvicorn_and_the_server_serves_on(
    tmp_path: Path,
) -> None:
    """Given a running server, when a client sends bytes that are no HTTP request, then uvicorn
    answers 400 in plain text and closes that connection (warlog never sees it: docs/server.md
    says so), and the next request is served."""
    with served(tmp_path / "w.db") as server:
        for junk in (b"GARBAGE\r\n\r\n", b"GET /rulesets HTTP/1.1\r\nHost: x\r\nno colon\r\n\r\n"):
            head, body = raw_exchange(server.url, junk)
            assert head.startswith(b"HTTP/1.1 400 ") and b"text/plain" in head
            assert body == b"Invalid HTTP request received."
        assert httpx.get(server.url + "/rulesets").json() == registry.catalogue()


def test_many_clients_on_many_games_at_once_leave_every_game_whole(tmp_path: Path) -> None:
    """Given 16 games of every ruleset, when both players of each play at once through one
    server (32 clients, each following the feed and its own legal commands), then every acknowledged
    event is in its log and every game audits clean (the server's audit says so too)."""
    db = tmp_path / "w.db"
    acked: list[tuple[str, int, str]] = []

    async def main(url: str) -> list[str]:
        limits = httpx.Limits(max_connections=100)
        async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
            games = [await create(client, RULESETS[n % len(RULESETS)], f"g{n}") for n in range(16)]
            await asyncio.gather(
                *(
                    player_client(client, game, player, seed=n * 7 + i, acked=acked, target=20)
                    for n, game in enumerate(games)
                    for i, player in enumerate(game.players)
                )
            )
            for game in games:
                audit = await client.get(f"/games/{game.id}/audit", headers=ADMIN_HEADERS)
                assert audit.json() == {"findings": []}
            return [g.id for g in games]

    with served(db) as server:
        games = run(main(server.url))
    assert len({(g, seq) for g, seq, _ in acked}) > 16 * 2 * 10
    assert_kept(db, acked, games)


def test_the_same_command_sent_at_once_with_if_match_is_applied_exactly_once(
    tmp_path: Path,
) -> None:
    db = tmp_path / "w.db"

    async def main(url: str) -> list[int]:
        async with httpx.AsyncClient(base_url=url, timeout=60) as client:
            game = await create(client, "armageddon-empires", "g")
            head = (await client.get("/games/g/head", headers=ADMIN_HEADERS)).json()["seq"]
            command = {"type": "buy_initiative", "player": "red", "count": 2}
            headers = {**game.as_("red"), "If-Match": str(head)}
            answers = await asyncio.gather(
                *(
                    client.post("/games/g/commands", json=command, headers=headers)
                    for _ in range(12)
                )
            )
            for answer in answers:
                if answer.status_code == 409:
                    assert answer.json()["error"]["code"] == "conflict/stale_head"
            return [a.status_code for a in answers]

    with served(db) as server:
        statuses = run(main(server.url))
    assert sorted(statuses) == [200] + [409] * 11
    issued = [r for r in arbiter_on(db).records("g") if r.type == "command_issued"]
    assert len(issued) == 1


async def contest(one: str, two: str, ruleset: str, game_id: str, rounds: int) -> list[list[int]]:
    """Create ``game_id`` on server ``one``, then ``rounds`` times send one legal command with
    the same `If-Match` to both servers at once; the sorted statuses of each round (a 409 must
    be a stale head or a lost race to append)."""
    async with httpx.AsyncClient(timeout=60) as client:
        response = await client.post(
            one + "/games", json={"ruleset": ruleset, "game": game_id}, headers=ADMIN_HEADERS
        )
        game = Game(response.json())
        rng = random.Random(1)
        statuses = []
        for _ in range(rounds):
            head = await client.get(f"{one}/games/{game_id}/head", headers=ADMIN_HEADERS)
            legal = await client.get(f"{two}/games/{game_id}/legal", headers=ADMIN_HEADERS)
            command = rng.choice(legal.json()["commands"])
            headers = {**game.as_(command["player"]), "If-Match": str(head.json()["seq"])}
            answers = await asyncio.gather(
                *(
                    client.post(f"{base}/games/{game_id}/commands", json=command, headers=headers)
                    for base in (one, two)
                )
            )
            for answer in answers:
                if answer.status_code == 409:
                    # sent with If-Match: a lost race is a stale If-Match, with the head's ETag
                    assert answer.json()["error"]["code"] == "conflict/stale_head"
                    assert answer.headers["ETag"].strip('"').isdecimal()
            statuses.append(sorted(a.status_code for a in answers))
        return statuses


def assert_played_once_each(db: Path | str, game: str, commands: int) -> None:
    """The game holds ``commands`` commands and audits clean."""
    arb = arbiter_on(db)
    assert sum(r.type == "command_issued" for r in arb.records(game)) == commands
    assert not audit_records(arb.export_records(game, opened=True), registry.get).findings


def test_two_processes_on_one_database_apply_each_contested_command_once(tmp_path: Path) -> None:
    """Given two servers on the same SQLite file, when the same legal command with the same
    `If-Match` reaches both at once, again and again, then one applies it and the other answers
    409 with nothing appended, whether it saw the new head or lost the race to append."""
    db = tmp_path / "w.db"
    with served(db) as one, served(db) as two:
        rounds = run(contest(one.url, two.url, "battle-for-armageddon", "g", 15))
    assert rounds == [[200, 409]] * 15
    assert_played_once_each(db, "g", 15)


def test_a_server_killed_mid_play_loses_no_acknowledged_command(tmp_path: Path) -> None:
    """Given clients playing 8 games through a server, when the server is killed with SIGKILL
    while commands are in flight, then every event of every verdict a client received is in
    the log, every log audits clean, and a new server on the same file plays on."""
    db = tmp_path / "w.db"
    acked: list[tuple[str, int, str]] = []
    games: list[Game] = []

    async def main(url: str, server: Any) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            games.extend(
                [await create(client, RULESETS[n % len(RULESETS)], f"k{n}") for n in range(8)]
            )
            players = [
                asyncio.create_task(player_client(client, g, p, seed=n, acked=acked, target=10**6))
                for n, g in enumerate(games)
                for p in g.players
            ]
            while len(acked) < 200:
                await asyncio.sleep(0.02)
            server.kill()  # SIGKILL: wherever it is
            results = await asyncio.gather(*players, return_exceptions=True)
            assert all(isinstance(r, httpx.TransportError) for r in results), results

    with served(db) as server:
        run(main(server.url, server))
        assert server.process.returncode == -9
    assert_kept(db, acked, [g.id for g in games])
    with served(db) as again:
        game = games[0]
        head = httpx.get(f"{again.url}/games/{game.id}/head", headers=ADMIN_HEADERS).json()
        assert head["seq"] >= max(seq for g, seq, _ in acked if g == game.id)
        legal = httpx.get(f"{again.url}/games/{game.id}/legal", headers=ADMIN_HEADERS).json()
        command = legal["commands"][0]
        replay = httpx.post(
            f"{again.url}/games/{game.id}/commands",
            json=command,
            headers=game.as_(command["player"]),
        )
        assert replay.status_code == 200


def test_a_second_authorization_or_if_match_line_is_400_from_the_real_server(
    tmp_path: Path,
) -> None:
    """Given a running server, when a request carries two Authorization lines (a bad token,
    then the organiser's; as a proxy that adds its own would send), a command two If-Match
    lines, or a feed two Last-Event-ID lines, then uvicorn hands both to warlog, which answers
    400 input/repeated_header naming the header rather than picking the first."""
    twice = (
        f"GET /games/g/head HTTP/1.1\r\nAuthorization: Bearer nope\r\n"
        f"Authorization: Bearer {ADMIN}\r\n",
        f"POST /games/g/commands HTTP/1.1\r\nAuthorization: Bearer {ADMIN}\r\n"
        "If-Match: 1\r\nIf-Match: 2\r\nContent-Length: 2\r\n",
        f"GET /games/g/events HTTP/1.1\r\nAuthorization: Bearer {ADMIN}\r\n"
        "Accept: text/event-stream\r\nLast-Event-ID: 1\r\nLast-Event-ID: 2\r\n",
    )
    with served(tmp_path / "w.db") as server:
        for request, name in zip(
            twice, ("Authorization", "If-Match", "Last-Event-ID"), strict=True
        ):
            body = "{}" if request.startswith("POST") else ""
            sent = f"{request}Host: x\r\nConnection: close\r\n\r\n{body}".encode()
            head, body_ = raw_exchange(server.url, sent)
            assert head.startswith(b"HTTP/1.1 400 ")
            assert json.loads(body_)["error"] == {
                "code": "input/repeated_header",
                "message": f"header {name} is given more than once: give it once",
            }
