"""The seqs a read, a resume and an `If-Match` accept, at their edges: `from` up to the head + 1,
`until` bounding the array, `Last-Event-ID: 0` (a client that has received nothing yet) and
nothing past the head, the smallest `If-Match`, and header bytes that are digits only outside
ASCII (docs/server.md, "Status codes and errors": a bad seq, or an `If-Match` or
`Last-Event-ID` that is not a decimal seq, is 400)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from tests.server.conftest import (
    ADMIN,
    ADMIN_HEADERS,
    arbiter_on,
    assert_error,
    new_game,
    open_app,
    raw_exchange,
    uvicorn_thread,
)

FEED = {"Accept": "text/event-stream"}
BID = {"type": "buy_initiative", "player": "red", "count": 1}


def test_events_from_the_head_plus_one_is_empty_and_from_further_is_a_bad_seq(
    client: httpx.Client, db: Path
) -> None:
    # given a game whose log holds events 1..head
    game = new_game(client, "armageddon-empires", game="g")
    head = arbiter_on(db).head("g")[0]
    for headers in (game.as_("red"), ADMIN_HEADERS):
        # when a client asks for the events from head + 1 (a poll before anything new), then
        # it is an empty array, not an error
        response = client.get(f"/games/g/events?from={head + 1}", headers=headers)
        assert (response.status_code, response.json()) == (200, [])
        # and from head + 2 is a seq the log does not reach: 400 input/bad_seq
        further = client.get(f"/games/g/events?from={head + 2}", headers=headers)
        assert_error(further, 400, "input/bad_seq")


def test_events_until_a_seq_below_the_head_stop_there(client: httpx.Client, db: Path) -> None:
    # given a game of more than five events
    game = new_game(client, "armageddon-empires", game="g")
    assert arbiter_on(db).head("g")[0] > 5
    # when red asks for the events 2..5 as a JSON array, then it gets exactly those
    response = client.get("/games/g/events?from=2&until=5", headers=game.as_("red"))
    assert [e["seq"] for e in response.json()] == [2, 3, 4, 5]


def test_a_feed_resumed_after_seq_0_starts_at_the_first_event(client: httpx.Client) -> None:
    """docs/server.md, "Checking the feed as it arrives": a client resumes with
    `Last-Event-ID: {receipts.seq}`, which is 0 until its first event has arrived."""
    game = new_game(client, "armageddon-empires", game="g")
    headers = {**game.as_("red"), **FEED, "Last-Event-ID": "0"}
    with client.stream("GET", "/games/g/events?until=3", headers=headers) as response:
        assert response.status_code == 200
        text = "".join(response.iter_text())
    assert [line for line in text.splitlines() if line.startswith("id: ")] == [
        "id: 1",
        "id: 2",
        "id: 3",
    ]


def test_a_feed_resumed_after_a_seq_past_the_head_is_a_bad_seq(
    client: httpx.Client, db: Path
) -> None:
    # given a game at head H; when a feed resumes after H + 1 (an event no log holds yet),
    # then it is refused 400 input/bad_seq at once rather than waiting for events that are not
    # this game's
    game = new_game(client, "armageddon-empires", game="g")
    head = arbiter_on(db).head("g")[0]
    headers = {**game.as_("red"), **FEED, "Last-Event-ID": str(head + 1)}
    # (bounded by `until`, so that a feed opened by mistake ends rather than hangs the test)
    refused = client.get(f"/games/g/events?until={head + 1}", headers=headers)
    assert_error(refused, 400, "input/bad_seq")


def test_the_smallest_if_match_is_a_seq_and_a_quote_must_close(
    client: httpx.Client, db: Path
) -> None:
    # given a game whose head is past 1
    game = new_game(client, "armageddon-empires", game="g")
    head = arbiter_on(db).head("g")
    assert head[0] > 1
    # when red sends If-Match: 1, then it is a decimal seq, only a stale one (409, not 400)
    stale = client.post("/games/g/commands", json=BID, headers={**game.as_("red"), "If-Match": "1"})
    assert_error(stale, 409, "conflict/stale_head")
    # and a quote that does not close around the seq is no seq: 400, whatever digits follow
    for value in (f'"{head[0]}{head[0]}', f'"1{head[0]}', f'{head[0]}"'):
        sent = client.post(
            "/games/g/commands", json=BID, headers={**game.as_("red"), "If-Match": value}
        )
        assert_error(sent, 400, "input/bad_header")
    assert arbiter_on(db).head("g") == head


def test_a_seq_header_of_digits_outside_ascii_is_400_not_a_500(db: Path) -> None:
    """Given a real server (uvicorn hands warlog a header's bytes as Latin-1, where b"\\xb2" is
    "²", which Python calls a digit), when If-Match or Last-Event-ID is such a byte, then the
    answer is 400 input/bad_header (docs/server.md, "Status codes and errors": never a 500
    for anything a client sends)."""
    app = open_app(db)
    with uvicorn_thread(app) as url:
        with httpx.Client(base_url=url) as client:
            new_game(client, "armageddon-empires", game="g")
        for line in (b"POST /games/g/commands", b"GET /games/g/events"):
            header = b"If-Match" if line.startswith(b"POST") else b"Last-Event-ID"
            body = json.dumps({**BID, "player": "blue"}).encode() if header == b"If-Match" else b""
            request = (
                line + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                b"Authorization: Bearer " + ADMIN.encode() + b"\r\n"
                b"Accept: text/event-stream\r\n" + header + b": \xb2\r\n"
                b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
            )
            head, text = raw_exchange(url, request)
            assert head.startswith(b"HTTP/1.1 400 "), head
            assert json.loads(text)["error"]["code"] == "input/bad_header"
