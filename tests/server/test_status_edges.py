"""Statuses and headers of docs/server.md's "Status codes and errors" that the first tests left
unpinned: the store that cannot serve now (503 with its `store/...` code, logged), the `Allow`
of a 405, a player's command whose `dice` is an empty list (none: not a referee's dice), and
an error message that quotes a line break the client sent (still one line)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import ADMIN_HEADERS, arbiter_on, assert_error, new_game
from warlog.arbiter.application import Arbiter
from warlog.domain.core.errors import StoreError


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
