"""docs/server.md's tournament, with curl, is what the server answers: the rulesets and their
versions, the heads, the reveal's seq and the verifier's report, played again here as written
(the hashes and tokens, random with each game's key, stand as the `…` the transcript cuts)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from tests.server.conftest import ADMIN_HEADERS, ROOT, new_game
from tests.test_verifier import run

TRANSCRIPT = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")


def answer_to(command: str) -> str:
    """The line the transcript shows after the first ``$ curl`` line ending with ``command``."""
    lines = TRANSCRIPT.splitlines()
    asked = next(
        i for i, line in enumerate(lines) if line.startswith("$ ") and line.endswith(command)
    )
    return lines[asked + 1]


def matches(shown: str, said: str) -> bool:
    """Whether ``said`` is what the transcript ``shown``: each cut value (``ab12…``) any value
    that begins so or not (keys and tokens are new with each game), each other ``…`` anything."""
    pattern = re.escape(shown)
    pattern = re.sub(r'"[^"\\]*?…"', '"[^"]*"', pattern.replace(re.escape("…"), "…"))
    return re.fullmatch(pattern.replace("…", ".*"), said) is not None


def test_the_tournament_transcript_is_what_the_server_answers(
    client: httpx.Client, tmp_path: Path
) -> None:
    """Given the organiser's server, when the transcript's requests are sent in its order, then
    each answer it shows is the one given: the rulesets and versions whole, the game's read with
    its version and head, red's bid at head 17 moving it to 19, the reveal at 20, and the
    verifier's report of the export, word for word."""
    rulesets = client.get("/rulesets")
    assert rulesets.text == answer_to("localhost:8000/rulesets")
    game = new_game(client, "armageddon-empires", game="round1-table3")
    red = game.as_("red")
    read = client.get("/games/round1-table3", headers=red).text
    assert matches(answer_to('localhost:8000/games/round1-table3 -H "$R"'), read), read
    bid = {"type": "buy_initiative", "player": "red", "count": 2}
    played = client.post(
        "/games/round1-table3/commands", json=bid, headers={**red, "If-Match": "17"}
    )
    assert played.status_code == 200 and played.json()["head"]["seq"] == 19
    revealed = client.post("/games/round1-table3/reveal", headers=ADMIN_HEADERS)
    assert revealed.text == answer_to('localhost:8000/games/round1-table3/reveal -H "$A"')
    export = tmp_path / "table3.jsonl"
    export.write_bytes(client.get("/games/round1-table3/export", headers=red).content)
    report = run(export).stdout.strip()
    assert report == answer_to("python3 docs/verify.py table3.jsonl")
