"""A command sent with `If-Match` is decided on that head or not at all, even when another
process appends to the game between the server's check of the head and its own append
(docs/server.md, "Status codes and errors": 409 for a stale `If-Match` or an append by another
process first; nothing applied)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from litestar.testing import TestClient

from tests.server.conftest import arbiter_on, assert_error, new_game, open_app
from warlog.arbiter.application import Arbiter
from warlog.arbiter.database import on_database

RED_BID = {"type": "buy_initiative", "player": "red", "count": 1}
BLUE_BID = {"type": "buy_initiative", "player": "blue", "count": 0}


def test_another_process_appending_after_the_if_match_check_makes_it_409(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given red's bid sent with If-Match: the head, when another writer on the same file (its
    own connection, as another process has) appends blue's bid just after the server has
    read the head for the If-Match check, then red's bid is 409 and nothing of it is in the log:
    it is not decided again on the newer head that red never saw; the answer is the one a
    stale If-Match gets (the If-Match was stale by the time of the append), with the head it
    lost to in its ETag and its message."""
    real_head = Arbiter.head
    armed: list[bool] = []

    def head_then_a_rival(self: Arbiter, game: str) -> tuple[int, str]:
        found = real_head(self, game)
        if armed:
            armed.clear()
            with on_database(db) as rival:
                rival.play(game, json.dumps(BLUE_BID))
        return found

    with TestClient(open_app(db)) as client:
        game = new_game(client, "armageddon-empires", game="g")
        seq = arbiter_on(db).head("g")[0]
        monkeypatch.setattr(Arbiter, "head", head_then_a_rival)
        armed.append(True)
        response = client.post(
            "/games/g/commands", json=RED_BID, headers={**game.as_("red"), "If-Match": str(seq)}
        )
        monkeypatch.undo()
        error = assert_error(response, 409, "conflict/stale_head")
        head = arbiter_on(db).head("g")
        assert response.headers["ETag"] == f'"{head[0]}"'
        assert error["message"] == (
            f"If-Match says the head is {seq} but it is {head[0]} (hash {head[1]}); nothing was "
            "applied: read the events after the head you knew, then decide again"
        )
    issued = [r for r in arbiter_on(db).records("g") if r.type == "command_issued"]
    assert [json.loads(r.data)["player"] for r in issued] == ["blue"]
