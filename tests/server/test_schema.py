"""Schemathesis over `/openapi.json`: requests drawn from the document (valid and invalid), each
with one of the tokens a tournament hands out (or none, or a forged one), against the ASGI app.
No answer is a server error, every answer is one the document describes, and no player's token
reads or acts in another seat or game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar import Litestar
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.server.conftest import ADMIN, fixed_clock, open_app
from warlog.arbiter.database import on_database
from warlog.arbiter.exchange import export_line
from warlog.server.auth import issue

GAMES = {"one": "armageddon-empires", "two": "battle-for-armageddon"}
#: token -> (game, seat); the organiser's is (None, None)
CALLERS: dict[str, tuple[str | None, str | None]] = {}
DB: list[Path] = []


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Litestar:
    db = tmp_path_factory.mktemp("schema") / "w.db"
    DB[:] = [db]
    CALLERS.clear()
    CALLERS[ADMIN] = (None, None)
    with on_database(db, create=True, clock=fixed_clock()) as arb:
        for game, ruleset in GAMES.items():
            arb.new_game(ruleset, game=game)
            tokens, kept = issue(game, arb.about(game)["players"])
            arb.vault.put_tokens(kept)
            CALLERS.update({token: (game, seat) for seat, token in tokens.items()})
        arb.reveal("two")  # one game revealed: players may export and audit it
    return open_app(db, keepalive=0.05)


@pytest.fixture(scope="module")
def api(app: Litestar) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", app)


def game_of(path: str) -> str | None:
    parts = path.split("/")
    return parts[2] if len(parts) > 2 and parts[1] == "games" else None


def stays_in_its_seat(ctx: Any, response: Any, case: Any) -> None:
    """A player's token is answered only about its own game and only as its own seat; no
    token, or a forged one, gets nothing but 401."""
    token = (case.headers or {}).get("Authorization", "").removeprefix("Bearer ")
    path = urlsplit(case.formatted_path).path
    public = path in ("/rulesets", "/openapi.json")
    status = response.status_code
    if token not in CALLERS:
        assert public or status in (401, 404, 405), (path, status)
        return
    game, seat = CALLERS[token]
    if seat is None or public:
        return  # the organiser may do everything
    asked = game_of(path)
    if asked != game or path.endswith("/reveal"):
        assert status == 403, f"{seat} of {game} was answered {status} about {path}"
        return
    if status >= 400:
        return
    body = response.content.decode()
    if path.endswith("/commands"):
        verdict = json.loads(body)
        assert verdict["events"][0]["data"]["player"] == seat
        first, last = verdict["events"][0]["seq"], verdict["events"][-1]["seq"]
        with on_database(DB[0]) as arb:
            mine = [json.loads(export_line(r)) for r in arb.records_as(game, seat, first, last)]
        assert verdict["events"] == mine
    elif path.endswith("/state"):
        assert json.loads(body)["as"] == seat
    elif path.endswith("/legal"):
        assert all(c["player"] == seat for c in json.loads(body)["commands"])
    elif path.endswith("/log"):
        assert list(json.loads(body)["tabs"]) == [seat]
    elif path.endswith("/events") and body.startswith("["):
        events = json.loads(body)
        if events:
            with on_database(DB[0]) as arb:
                mine = [
                    json.loads(export_line(r))
                    for r in arb.records_as(game, seat, events[0]["seq"], events[-1]["seq"])
                ]
            assert events == mine
    elif path.endswith(("/export", "/audit")):
        with on_database(DB[0]) as arb:
            assert arb.folded(game).meta.revealed, f"{seat} read the {path} before the reveal"


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_no_request_makes_a_server_error_or_crosses_a_seat(api: Any, mode: GenerationMode) -> None:
    """Requests of every operation, valid (positive) or not (negative), each sent with the
    organiser's token, a player's of either game, none or a forged one, about one of the real
    games or whatever game id was drawn."""
    tokens = st.sampled_from([*sorted(CALLERS), "", "forged.token"])

    @given(
        case=api.as_strategy(generation_mode=mode),
        token=tokens,
        game=st.sampled_from([*GAMES, "", "nowhere"]),  # "nowhere": a good id, no game
        legal=st.none() | st.integers(0, 10**6),
    )
    @settings(
        max_examples=200,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def check(case: Any, token: str, game: str, legal: int | None) -> None:
        if game and "game" in (case.path_parameters or {}):
            case.path_parameters["game"] = game
            if (
                game in GAMES
                and legal is not None
                and case.operation.label == "POST /games/{game}/commands"
            ):
                with on_database(DB[0]) as arb:  # a command the game would take now, by anyone
                    commands = arb.legal(game)
                if commands:
                    case.body = commands[legal % len(commands)]
        case.headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "accept"}
        if token:
            case.headers["Authorization"] = f"Bearer {token}"
        response = case.call_and_validate(
            checks=[
                not_a_server_error,
                status_code_conformance,
                content_type_conformance,
                response_schema_conformance,
                stays_in_its_seat,
            ]
        )
        seen.add((case.operation.label, response.status_code))

    seen: set[tuple[str, int]] = set()
    check()
    statuses = {status for _, status in seen}
    print(sorted(seen))
    # the requests reached the server's answers, not only its validation (the organiser's 404
    # for a well-formed unknown id is drawn too, but not always: test_errors asserts it per route)
    assert {200, 400, 401, 403} <= statuses
