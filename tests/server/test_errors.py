"""The contract's status codes and its one error shape, `{"error": {"code", "message"}}`: 401 for
no or an unknown token, 403 for a token that may not do this, 404 for an unknown game (to the
organiser), 400 for bad input, 409 for a conflict, 422 for the rules' rejection; never a 500 or
a traceback for anything a client sends."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import (
    ADMIN_HEADERS,
    arbiter_on,
    assert_error,
    bearer,
    new_game,
)
from warlog.arbiter.application import Arbiter
from warlog.domain.core.errors import StoreError
from warlog.server.errors import ErrorBody, error_response

#: every route that names a game: (method, path with {game})
GAME_ROUTES = [
    ("GET", "/games/{game}"),
    ("GET", "/games/{game}/legal"),
    ("POST", "/games/{game}/commands"),
    ("GET", "/games/{game}/state"),
    ("GET", "/games/{game}/events"),
    ("GET", "/games/{game}/log"),
    ("GET", "/games/{game}/head"),
    ("POST", "/games/{game}/reveal"),
    ("GET", "/games/{game}/export"),
    ("GET", "/games/{game}/audit"),
]
ROUTES = [("POST", "/games"), *GAME_ROUTES]
COMMAND = {"type": "buy_initiative", "player": "red", "count": 1}


def send(client: httpx.Client, method: str, path: str, game: str, **kw: object) -> httpx.Response:
    body = {"ruleset": "armageddon-empires"} if path == "/games" else COMMAND
    content = json.dumps(body) if method == "POST" else None
    return client.request(method, path.format(game=game), content=content, **kw)  # type: ignore[arg-type]


AUTHORIZATIONS = [
    None,
    "",
    "Bearer",
    "Bearer ",
    "Basic dXNlcjpwYXNz",
    "Bearer nope",
    "Bearer a.b",
    "bearer x.y.z",
    "Bearer " + "9" * 18 + "." + "x" * 43,
]


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_no_token_or_an_unknown_one_is_401(client: httpx.Client, method: str, path: str) -> None:
    new_game(client, "armageddon-empires", game="g")
    for authorization in AUTHORIZATIONS:
        headers = {} if authorization is None else {"Authorization": authorization}
        error = assert_error(send(client, method, path, "g", headers=headers), 401)
        assert error["code"] in ("auth/no_token", "auth/unknown_token")


def test_a_token_whose_secret_is_wrong_is_401_even_with_a_real_id(client: httpx.Client) -> None:
    game = new_game(client, "armageddon-empires", game="g")
    id_, _, secret = game.tokens["red"].partition(".")
    for forged in (f"{id_}.{secret[:-1]}x", f"{id_}.", id_, f"{id_}.{secret}.", f"{id_}x.{secret}"):
        response = client.get("/games/g", headers=bearer(forged))
        assert_error(response, 401, "auth/unknown_token")
        assert response.headers["www-authenticate"] == "Bearer"


def test_a_players_token_gets_403_for_any_other_game_whether_or_not_it_exists(
    client: httpx.Client,
) -> None:
    mine = new_game(client, "armageddon-empires", game="mine")
    new_game(client, "battle-for-armageddon", game="theirs")
    for method, path in GAME_ROUTES:
        existing = send(client, method, path, "theirs", headers=mine.as_("red"))
        missing = send(client, method, path, "nowhere", headers=mine.as_("red"))
        assert assert_error(existing, 403, "auth/other_game") == assert_error(
            missing, 403, "auth/other_game"
        )


@pytest.mark.parametrize(("method", "path"), [("POST", "/games"), ("POST", "/games/{game}/reveal")])
def test_the_organisers_routes_are_403_to_a_player(
    client: httpx.Client, method: str, path: str
) -> None:
    game = new_game(client, "armageddon-empires", game="g")
    assert_error(send(client, method, path, "g", headers=game.as_("red")), 403, "auth/admin_only")


def test_a_player_may_not_play_another_seat(client: httpx.Client, db: Path) -> None:
    """Given red's token, a command naming blue is 403; one naming nobody, or naming a player
    with something that is not a string, is bad input (400, as the CLI and the organiser's
    token say it), each naming what is wrong; nothing is appended."""
    game = new_game(client, "armageddon-empires", game="g")
    head = arbiter_on(db).head("g")
    blue_move = {"type": "buy_initiative", "player": "blue", "count": 1}
    response = client.post("/games/g/commands", json=blue_move, headers=game.as_("red"))
    assert_error(response, 403, "auth/not_your_seat")
    for command, says in (
        ({"type": "buy_initiative", "count": 1}, "the command has no 'player'"),
        ({**COMMAND, "player": 7}, "the command's 'player' must be a string, not a number"),
        ({**COMMAND, "player": None}, "the command's 'player' must be a string, not null"),
        ({**COMMAND, "player": ["red"]}, "the command's 'player' must be a string, not an array"),
        (
            {**COMMAND, "player": {"seat": "red"}},
            "the command's 'player' must be a string, not an object",
        ),
        ({**COMMAND, "player": True}, "the command's 'player' must be a string, not a boolean"),
    ):
        response = client.post("/games/g/commands", json=command, headers=game.as_("red"))
        assert assert_error(response, 400, "input/bad_command")["message"] == says
    assert arbiter_on(db).head("g") == head


def test_every_game_route_is_404_to_the_organiser_for_an_unknown_game(
    client: httpx.Client,
) -> None:
    for method, path in GAME_ROUTES:
        response = send(client, method, path, "nowhere", headers=ADMIN_HEADERS)
        assert_error(response, 404, "input/unknown_game")


BAD_COMMANDS = [
    (b"{not json", "input/bad_json"),
    (b"", "input/empty_command"),
    (b"[1, 2]", "input/bad_command"),
    (b'"text"', "input/bad_command"),
    (b'{"type": "fly", "player": "red"}', "input/unknown_command"),
    (b'{"type": "buy_initiative", "player": "red", "count": 1, "extra": 2}', None),
    (b'{"type": "buy_initiative", "player": "red", "count": "one"}', None),
    (
        b'{"type": "buy_initiative", "player": "red", "count": 1, "count": 2}',
        "input/duplicate_key",
    ),
    (b'{"type": "buy_initiative", "player": "red", "count": NaN}', "input/bad_json"),
    (b"\xff\xfe", "input/bad_json"),
    (b'{"type": "buy_initiative", "player": "red", "count": 1' + b"0" * 5000 + b"}", None),
    (b"[" * 100000 + b"]" * 100000, "input/bad_json"),
]


def test_a_bad_command_is_400_and_appends_nothing(client: httpx.Client, db: Path) -> None:
    game = new_game(client, "armageddon-empires", game="g")
    head = arbiter_on(db).head("g")
    for body, code in BAD_COMMANDS:
        for headers in (game.as_("red"), ADMIN_HEADERS):
            response = client.post("/games/g/commands", content=body, headers=headers)
            error = assert_error(response, 400, code)
            assert error["code"].startswith("input/")
    assert arbiter_on(db).head("g") == head


def test_the_rules_rejection_is_422_with_its_code_and_appends_nothing(
    client: httpx.Client, db: Path
) -> None:
    ae = new_game(client, "armageddon-empires", game="ae")
    assert client.post("/games/ae/commands", json=COMMAND, headers=ae.as_("red")).status_code == 200
    head = arbiter_on(db).head("ae")
    again = client.post("/games/ae/commands", json=COMMAND, headers=ae.as_("red"))
    assert_error(again, 422, "rules/already_bought")
    bfa = new_game(client, "battle-for-armageddon", game="bfa")
    early = {"type": "end_setup", "player": "imperials"}
    assert_error(
        client.post("/games/bfa/commands", json=early, headers=bfa.as_("imperials")),
        422,
        "rules/not_your_turn",
    )
    assert arbiter_on(db).head("ae") == head


def test_an_if_match_that_is_not_a_seq_is_400(client: httpx.Client, db: Path) -> None:
    game = new_game(client, "armageddon-empires", game="g")
    head = arbiter_on(db).head("g")
    for value in ["abc", "1.5", "-1", "0", "", 'W/"3"', '"3', "3 4", "٣".encode(), "1x" * 30]:
        headers = {**game.as_("red"), "If-Match": value}
        response = client.post("/games/g/commands", json=COMMAND, headers=headers)  # type: ignore[arg-type]
        assert_error(response, 400, "input/bad_header")
    assert arbiter_on(db).head("g") == head


def test_a_stale_if_match_is_409_with_the_head_and_appends_nothing(
    client: httpx.Client, db: Path
) -> None:
    game = new_game(client, "armageddon-empires", game="g")
    seq, hash_ = arbiter_on(db).head("g")
    stale = client.post(
        "/games/g/commands", json=COMMAND, headers={**game.as_("red"), "If-Match": str(seq - 1)}
    )
    error = assert_error(stale, 409, "conflict/stale_head")
    assert str(seq) in error["message"] and hash_ in error["message"]
    assert stale.headers["etag"] == f'"{seq}"'
    assert arbiter_on(db).head("g") == (seq, hash_)
    fresh = client.post(
        "/games/g/commands", json=COMMAND, headers={**game.as_("red"), "If-Match": f'"{seq}"'}
    )
    assert fresh.status_code == 200
    retry = client.post(  # the same request again, as after a lost connection: not applied twice
        "/games/g/commands", json=COMMAND, headers={**game.as_("red"), "If-Match": f'"{seq}"'}
    )
    assert_error(retry, 409, "conflict/stale_head")
    assert arbiter_on(db).head("g")[0] == fresh.json()["head"]["seq"]


def test_an_if_match_past_any_head_is_409_not_400(client: httpx.Client, db: Path) -> None:
    # given a game; when a command names a head no log reaches (a decimal of 30 or 5000 digits)
    game = new_game(client, "armageddon-empires", game="g")
    head = arbiter_on(db).head("g")
    for value in ["9" * 30, f'"{"1" * 5000}"']:
        response = client.post(
            "/games/g/commands", json=COMMAND, headers={**game.as_("red"), "If-Match": value}
        )
        # then it is a stale head like any other: 409, the head in the message, nothing applied
        error = assert_error(response, 409, "conflict/stale_head")
        assert f"but it is {head[0]}" in error["message"] and len(error["message"]) < 300
    assert arbiter_on(db).head("g") == head


BAD_QUERIES = [
    ("state?at=0", "input/bad_seq"),
    ("state?at=-3", "input/bad_seq"),
    ("state?at=abc", "input/invalid"),
    ("state?at=99999", "input/bad_seq"),
    ("events?from=0", "input/bad_seq"),
    ("events?from=x", "input/invalid"),
    ("events?from=99999", "input/bad_seq"),
    ("events?until=0", "input/bad_seq"),
    ("log?all=maybe", "input/invalid"),
]


def test_a_bad_query_is_400(client: httpx.Client) -> None:
    game = new_game(client, "armageddon-empires", game="g")
    for query, code in BAD_QUERIES:
        for headers in (game.as_("red"), ADMIN_HEADERS):
            assert_error(client.get(f"/games/g/{query}", headers=headers), 400, code)


def test_a_seq_below_one_is_named_as_the_cli_names_it(client: httpx.Client, db: Path) -> None:
    # given a game over HTTP
    game = new_game(client, "armageddon-empires", game="g")
    head = arbiter_on(db).head("g")[0]
    line = f"game g has events 1..{head}; there is no event 0"
    # when a seq of 0 is asked for: the state after it, the events or the feed from or until it
    asked = [
        client.get("/games/g/state?at=0", headers=game.as_("red")),
        client.get("/games/g/events?from=0", headers=game.as_("red")),
        client.get("/games/g/events?until=0", headers=ADMIN_HEADERS),
        client.get(
            "/games/g/events?from=0", headers={**ADMIN_HEADERS, "Accept": "text/event-stream"}
        ),
    ]
    # then each is the CLI's line for `state --at 0`: 400 input/bad_seq naming the log's seqs
    for response in asked:
        assert assert_error(response, 400, "input/bad_seq")["message"] == line


def test_a_query_parameter_given_twice_is_400_not_a_silent_pick(client: httpx.Client) -> None:
    game = new_game(client, "armageddon-empires", game="g")
    for headers in (game.as_("red"), ADMIN_HEADERS):
        response = client.get("/games/g/state?at=1&at=2", headers=headers)
        error = assert_error(response, 400, "input/repeated_parameter")
        assert error["message"].startswith("query parameter 'at' is given more than once")


def sent_with(
    client: httpx.Client, method: str, path: str, headers: list[tuple[str, str]], **kw: Any
) -> httpx.Response:
    """The answer to a request carrying ``headers`` as they are, a name given twice too (the
    test client joins the two values by a comma, as a proxy may: one value, which no token or
    seq is; the real server's separate lines are tests/server/test_processes.py's)."""
    request = client.build_request(method, path, **kw)
    request.headers = httpx.Headers([*request.headers.multi_items(), *headers])
    return client.send(request)


def test_a_header_given_twice_is_refused_not_a_silent_pick(client: httpx.Client) -> None:
    """Given a game, when a command carries two Authorization headers (a valid one after a bad
    one, or two players' tokens) or two If-Match, joined into one value, then it is refused
    (401 for the token, 400 for the seq), and nothing is appended: neither the first nor the
    last wins."""
    game = new_game(client, "armageddon-empires", game="g")
    red, blue = game.as_("red")["Authorization"], game.as_("blue")["Authorization"]
    admin = ("Authorization", ADMIN_HEADERS["Authorization"])
    head = client.get("/games/g/head", headers=ADMIN_HEADERS).json()
    legal = client.get("/games/g/legal", headers=ADMIN_HEADERS).json()["commands"][0]
    for pair, status, code in (
        ([("Authorization", "Bearer nope"), ("Authorization", red)], 401, "auth/unknown_token"),
        ([("Authorization", red), ("Authorization", blue)], 401, "auth/unknown_token"),
        ([admin, ("If-Match", "1"), ("If-Match", str(head["seq"]))], 400, "input/bad_header"),
    ):
        response = sent_with(client, "POST", "/games/g/commands", pair, json=legal)
        assert_error(response, status, code)
    assert client.get("/games/g/head", headers=ADMIN_HEADERS).json() == head


def test_a_bad_query_parameter_is_named_as_the_client_sent_it(client: httpx.Client) -> None:
    new_game(client, "armageddon-empires", game="g")
    for query, name in (("events?from=x", "'from'"), ("log?all=maybe", "'all'")):
        error = assert_error(client.get(f"/games/g/{query}", headers=ADMIN_HEADERS), 400)
        assert f"query parameter {name}" in error["message"]


@pytest.mark.parametrize("game", ["t1%00", "%ff", "a%20b", "x" * 100, "-lead", "g.jsonl"])
def test_a_game_id_no_game_can_have_is_400_to_the_organiser(
    client: httpx.Client, game: str
) -> None:
    for method, path in GAME_ROUTES:
        response = send(client, method, path, game, headers=ADMIN_HEADERS)
        error = assert_error(response, 400, "input/bad_game_id")
        assert len(error["message"]) < 200


def test_a_feed_resumed_after_a_bad_last_event_id_is_400(client: httpx.Client) -> None:
    game = new_game(client, "armageddon-empires", game="g")
    for value in ["x", "-1", "1.0", "99999"]:
        headers = {**game.as_("red"), "Accept": "text/event-stream", "Last-Event-ID": value}
        error = assert_error(client.get("/games/g/events", headers=headers), 400)
        assert error["code"] in ("input/bad_header", "input/bad_seq")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({}, 400, "input/invalid"),
        ({"ruleset": 3}, 400, "input/invalid"),
        ({"ruleset": "armageddon-empires", "colour": "red"}, 400, "input/invalid"),
        ({"ruleset": "armageddon-empires", "dice": "loaded"}, 400, "input/invalid"),
        ({"ruleset": "chess"}, 400, "input/unknown_ruleset"),
        (
            {"ruleset": "armageddon-empires", "scenario": "/etc/passwd"},
            400,
            "input/unknown_scenario",
        ),
        (
            {"ruleset": "armageddon-empires", "scenario": "../../pyproject.toml"},
            400,
            "input/unknown_scenario",
        ),
        ({"ruleset": "armageddon-empires", "game": "has space"}, 400, "input/bad_game_id"),
        ({"ruleset": "armageddon-empires", "game": "g2.jsonl"}, 400, "input/bad_game_id"),
        # `$` matches before a final line break: "g\n" beside "g", both listed as g
        ({"ruleset": "armageddon-empires", "game": "g\n"}, 400, "input/bad_game_id"),
        ({"ruleset": "armageddon-empires", "game": "g2.jsonl\n"}, 400, "input/bad_game_id"),
        ({"ruleset": "armageddon-empires", "game": "g"}, 409, "input/game_exists"),
        # a salt is hashed into every die and kept in game_created for good
        ({"ruleset": "armageddon-empires", "salt": "s" * 900_000}, 400, "input/bad_salt"),
        ({"ruleset": "armageddon-empires", "salt": "ok\nerror: x"}, 400, "input/bad_salt"),
    ],
)
def test_a_bad_new_game_is_refused_and_creates_nothing(
    client: httpx.Client, db: Path, body: dict[str, object], status: int, code: str | None
) -> None:
    new_game(client, "armageddon-empires", game="g")
    before = [g.game for g in arbiter_on(db).store.games()]
    assert_error(client.post("/games", json=body, headers=ADMIN_HEADERS), status, code)
    assert [g.game for g in arbiter_on(db).store.games()] == before


#: bodies of POST /games refused as a command's are, with their code and message
BAD_NEW_GAMES = [
    (
        b'{"ruleset": "heroic-battles", "ruleset": "battle-for-armageddon"}',
        "input/duplicate_key",
        "the body gives the key 'ruleset' twice; give each field once",
    ),
    (
        b"{nope",
        "input/bad_json",
        "the body is not valid JSON: Expecting property name enclosed in double quotes at "
        "line 1 column 2",
    ),
    (
        b'{"ruleset": "heroic-battles"',
        "input/bad_json",
        "the body is not valid JSON: Expecting ',' delimiter at line 1 column 29",
    ),
    (b'{"ruleset": "heroic-battles", "salt": NaN}', "input/bad_json", None),
    (b'\xff{"ruleset": "heroic-battles"}', "input/bad_json", "the body is not UTF-8 text (byte 1)"),
    (b"[" * 100000 + b"]" * 100000, "input/bad_json", "the body is nested too deeply to be read"),
    (
        b'["heroic-battles"]',
        "input/bad_command",
        "the body is one JSON object, not '[\"heroic-battles\"]'",
    ),
    (
        b'{"ruleset": "heroic-battles", "game": "round 1"}',
        "input/bad_game_id",
        "bad game id 'round 1': use 1-64 letters, digits, '_', '.' or '-', starting with a letter "
        "or digit and not ending in .jsonl",
    ),
    (
        b'{"ruleset": "heroic-battles", "game": 7}',
        "input/invalid",
        "the body's field 'game': Expected `str | null`, got `int`",
    ),
    (
        b'{"ruleset": "heroic-battles", "dice": "loaded"}',
        "input/invalid",
        "the body's field 'dice': Invalid enum value 'loaded'",
    ),
    (
        b'{"ruleset": "heroic-battles", "seed": 1}',
        "input/invalid",
        "the body: Object contains unknown field `seed`",
    ),
    (
        b'{"ruleset": "heroic-battles", "salt": ' + b"9" * 5000 + b"}",
        "input/bad_json",
        "the body is not acceptable JSON: an integer of thousands of digits (no count, seq or "
        "die is that long)",
    ),
    (b"  ", "input/empty_command", "the body is empty: give one JSON object"),
    (b"", "input/invalid", "the body is empty: give one JSON object"),
]


@pytest.mark.parametrize(("body", "code", "message"), BAD_NEW_GAMES)
def test_post_games_reads_its_body_as_strictly_as_a_command_and_creates_nothing(
    client: httpx.Client, db: Path, body: bytes, code: str, message: str | None
) -> None:
    """Two ``"ruleset"`` keys would make one game for the server and another for a client's
    JSON library (which one counts?): refused, as a command with a key twice is."""
    new_game(client, "armageddon-empires", game="g")
    response = client.post("/games", content=body, headers=ADMIN_HEADERS)
    error = assert_error(response, 400, code)
    if message is not None:
        assert error["message"] == message
    assert [g.game for g in arbiter_on(db).store.games()] == ["g"]


HALF_PAIRS = [
    b'{"ruleset": "\\ud800"}',
    b'{"ruleset": "heroic-battles", "salt": "\\ud800"}',
    b'{"ruleset": "heroic-battles", "salt": "\\udc00\\ud800"}',
    b'{"ruleset": "heroic-battles", "\\udfff": 1}',
]


@pytest.mark.parametrize("body", HALF_PAIRS)
def test_half_a_surrogate_pair_in_a_new_game_is_400_not_a_500(
    client: httpx.Client, db: Path, body: bytes
) -> None:
    response = client.post("/games", content=body, headers=ADMIN_HEADERS)
    error = assert_error(response, 400, "input/bad_json")
    assert "unpaired UTF-16 surrogate escape" in error["message"]
    assert list(arbiter_on(db).store.games()) == []


def test_half_a_surrogate_pair_in_a_command_is_400_and_appends_nothing(
    client: httpx.Client, db: Path
) -> None:
    """A field that reaches a rule's refusal (here the hex an army moves to) would be quoted
    in it: the command is refused before it is read."""
    game = new_game(client, "battle-for-armageddon", game="g")
    head = arbiter_on(db).head("g")
    command = next(
        c
        for c in client.get("/games/g/legal", headers=ADMIN_HEADERS).json()["commands"]
        if "to" in c
    )
    body = json.dumps({**command, "to": "\ud800"}).encode()
    response = client.post("/games/g/commands", content=body, headers=game.as_(command["player"]))
    assert "unpaired UTF-16" in assert_error(response, 400, "input/bad_json")["message"]
    assert arbiter_on(db).head("g") == head


def test_an_error_quoting_half_a_surrogate_pair_still_encodes() -> None:
    response = error_response(400, "input/invalid", "unknown thing '\ud800'")
    assert isinstance(response.content, ErrorBody)
    assert response.content.error.message == "unknown thing '\\ud800'"


def test_routes_and_methods_that_do_not_exist_answer_in_the_error_shape(
    client: httpx.Client,
) -> None:
    assert_error(client.get("/nowhere"), 404, "http/not_found")
    assert_error(client.get("/games/g/nowhere", headers=ADMIN_HEADERS), 404, "http/not_found")
    assert_error(client.delete("/games/g", headers=ADMIN_HEADERS), 405, "http/method_not_allowed")
    assert_error(client.put("/rulesets"), 405, "http/method_not_allowed")


def test_a_body_over_a_mebibyte_is_413(client: httpx.Client) -> None:
    new_game(client, "armageddon-empires", game="g")
    huge = b'{"type": "x", "pad": "' + b"a" * (1 << 20) + b'"}'
    response = client.post("/games/g/commands", content=huge, headers=ADMIN_HEADERS)
    assert_error(response, 413, "http/too_large")


def test_a_bug_is_500_in_one_line_with_no_traceback_and_logged(
    client: httpx.Client, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A server bug (never a client's doing: here the application is made to fail) answers
    500 with one line; the traceback goes to the server's log only."""
    from warlog.arbiter.application import Arbiter

    new_game(client, "armageddon-empires", game="g")

    def broken(self: Arbiter, game: str) -> tuple[int, str]:
        raise ZeroDivisionError("a planted bug")

    monkeypatch.setattr(Arbiter, "head", broken)
    response = client.get("/games/g/head", headers=ADMIN_HEADERS)
    error = assert_error(response, 500, "internal/bug")
    assert "planted" not in error["message"]
    logged = [r for r in caplog.records if r.name == "warlog.server" and r.exc_info]
    assert logged and logged[0].exc_info[0] is ZeroDivisionError  # type: ignore[index]


def test_an_append_lost_to_another_process_is_409_and_appends_nothing(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given another writer on the same file (its own connection, as another process has) that
    appends to the game after the server decided a command and before it appended it, then
    the command answers 409 and nothing of it is in the log."""
    from litestar.testing import TestClient

    from tests.server.conftest import open_app
    from warlog.arbiter.database import on_database
    from warlog.eventstore.sqlite_store import SQLiteStore

    real_append = SQLiteStore.append
    raced: list[int] = []

    def append_after_a_rival(self: SQLiteStore, game: str, batch: object, expected: int) -> object:
        if not raced:
            raced.append(expected)
            with on_database(db) as rival:
                rival.play(
                    "g", json.dumps({"type": "buy_initiative", "player": "blue", "count": 0})
                )
        return real_append(self, game, batch, expected)  # type: ignore[arg-type]

    with TestClient(open_app(db)) as client:
        game = new_game(client, "armageddon-empires", game="g")
        monkeypatch.setattr(SQLiteStore, "append", append_after_a_rival)
        response = client.post("/games/g/commands", json=COMMAND, headers=game.as_("red"))
        error = assert_error(response, 409, "store/conflict")
        monkeypatch.undo()
        head = arbiter_on(db).head("g")
        assert response.headers["ETag"] == f'"{head[0]}"'  # the head it lost to
        assert error["message"] == (
            f"another writer appended to game g first: its head is now {head[0]} (hash "
            f"{head[1]}); nothing was applied: send the command again, or read the events after "
            "the head you knew and decide again"
        )
        issued = [r for r in arbiter_on(db).records("g") if r.type == "command_issued"]
        assert [json.loads(r.data)["player"] for r in issued] == ["blue"]
        again = client.post("/games/g/commands", json=COMMAND, headers=game.as_("red"))
        assert again.status_code == 200  # the retry decides on the new head


def test_a_store_that_cannot_serve_now_is_503_with_its_code_and_logged(
    client: httpx.Client, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # given a game; when the store cannot serve (locked past its timeout), then the answer is
    # 503 with the store's own code, whoever asks, and the server's log has one warning
    game = new_game(client, "armageddon-empires", game="g")

    def locked(self: Arbiter, game: str) -> tuple[int, str]:
        raise StoreError("database is locked", "store/locked")

    monkeypatch.setattr(Arbiter, "head", locked)
    with caplog.at_level(logging.WARNING, logger="warlog.server"):
        for headers in (ADMIN_HEADERS, game.as_("red")):
            response = client.get("/games/g/head", headers=headers)
            error = assert_error(response, 503, "store/locked")
            assert error["message"] == "database is locked"
    warned = [r for r in caplog.records if r.name == "warlog.server"]
    assert [r.levelno for r in warned] == [logging.WARNING] * 2 and not warned[0].exc_info


def test_a_method_a_path_does_not_take_is_405_naming_those_it_does_in_allow(
    client: httpx.Client,
) -> None:
    # RFC 9110, 15.5.6: a 405 lists the methods the path takes; a client corrects itself by it
    new_game(client, "armageddon-empires", game="g")
    for method, path, takes in (
        ("DELETE", "/games/g", "GET"),
        ("PUT", "/rulesets", "GET"),
        ("GET", "/games/g/commands", "POST"),
    ):
        response = client.request(method, path, headers=ADMIN_HEADERS)
        assert_error(response, 405, "http/method_not_allowed")
        allowed = {m.strip() for m in response.headers["allow"].split(",")}
        assert takes in allowed and method not in allowed


def test_a_players_command_with_an_empty_dice_list_is_played_as_one_without_dice(
    client: httpx.Client, db: Path
) -> None:
    """docs/server.md, "Security model": a command that carries `dice` (faces; an empty list is
    none) is 403 from a player's token; an empty list is no dice, so the command is played."""
    game = new_game(client, "armageddon-empires", game="g")
    bid = {"type": "buy_initiative", "player": "red", "count": 1, "dice": []}
    response = client.post("/games/g/commands", json=bid, headers=game.as_("red"))
    assert response.status_code == 200, response.text
    issued = [r for r in arbiter_on(db).records("g") if r.type == "command_issued"]
    assert [json.loads(r.data)["player"] for r in issued] == ["red"]


def test_an_error_quoting_a_line_break_the_client_sent_is_still_one_line(
    client: httpx.Client,
) -> None:
    # given a new game's body with an unknown field whose name holds a line break; when the
    # organiser sends it, then the 400 names the field in a message of one line (every error
    # is `{"error": {"code", "message": "<one line>"}}`)
    response = client.post("/games", json={"rules\net": "x"}, headers=ADMIN_HEADERS)
    error = assert_error(response, 400, "input/invalid")  # no line break in it, checked there
    assert "rules et" in error["message"]
