"""Non-interference: two games that differ only in what one side keeps hidden (blue's deck, so
its starting hand and every card it draws) look exactly alike to the other side. Red's views,
legal commands, verdicts, rejections, Events view and live feed are byte for byte the same in
both, but for the digests that commit to blue's different secrets: the chain hashes and blue's
seals, which are random-looking to red and are what lets red check its feed."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient

from tests.server.conftest import SEED, bearer, fixed_clock, open_app
from warlog.arbiter.database import on_database
from warlog.domain import rulesets as registry
from warlog.server.auth import issue

AE = "armageddon-empires"
#: blue's deck in the bundled scenario, and the same cards in another order
DECK = re.compile(r'(id = "blue".*?deck = \[)(.*?)(\])', re.S)
#: the digests that commit to blue's secrets, which differ between the games (and nothing else)
CLOSED_SEAL = re.compile(r'\{"sealed": ?"[0-9a-f]{64}"\}')
CHAIN = re.compile(r'("(?:hash|prev)": ?")[0-9a-f]{64}"')
ETAG_FREE = ("content-type", "etag")  # the headers compared (others: dates, lengths)


def scenarios(tmp_path: Path) -> tuple[Path, Path]:
    bundled = registry.bundled_scenario(registry.get(AE), "cinder-and-glass")
    assert bundled is not None
    text = bundled.decode()
    found = DECK.search(text)
    assert found is not None
    cards = [c.strip() for c in found.group(2).replace("\n", " ").split(",") if c.strip()]
    shuffled = cards[::-1]
    assert shuffled != cards
    other = text[: found.start(2)] + ", ".join(shuffled) + text[found.end(2) :]
    paths = tmp_path / "a" / "cinder-and-glass.toml", tmp_path / "b" / "cinder-and-glass.toml"
    for path in paths:
        path.parent.mkdir()
    paths[0].write_text(text)
    paths[1].write_text(other)
    return paths


def masked(text: str) -> str:
    return CHAIN.sub(r'\1<hash>"', CLOSED_SEAL.sub('{"sealed":"<seal>"}', text))


class Twins:
    """The same requests to two servers; red's answers compared as red receives them."""

    def __init__(self, clients: list[httpx.Client], tokens: list[dict[str, str]]) -> None:
        self.clients = clients
        self.tokens = tokens

    def both(
        self, method: str, path: str, player: str, headers: dict[str, str] | None = None, **kw: Any
    ) -> list[httpx.Response]:
        return [
            client.request(method, path, headers={**bearer(t[player]), **(headers or {})}, **kw)
            for client, t in zip(self.clients, self.tokens, strict=True)
        ]

    def same_for_red(self, method: str, path: str, **kw: Any) -> httpx.Response:
        """Red's answer, asserted the same from both servers (digests of blue's secrets masked)."""
        a, b = self.both(method, path, "red", **kw)
        assert a.status_code == b.status_code, (path, a.text, b.text)
        assert [a.headers.get(h) for h in ETAG_FREE] == [b.headers.get(h) for h in ETAG_FREE]
        assert masked(a.text) == masked(b.text), path
        return a


@pytest.fixture
def twins(tmp_path: Path) -> Iterator[Twins]:
    clients, tokens = [], []
    with ExitStack() as stack:
        for n, scenario in enumerate(scenarios(tmp_path)):
            db = tmp_path / f"{n}.db"
            with on_database(db, create=True, seeds=lambda: SEED, clock=fixed_clock()) as arb:
                arb.new_game(AE, str(scenario), game="g")
                issued, kept = issue("g", ["red", "blue"])
                arb.vault.put_tokens(kept)
            app = open_app(db, seeds=lambda: SEED, clock=fixed_clock())
            clients.append(stack.enter_context(TestClient(app)))
            tokens.append(issued)
        yield Twins(clients, tokens)


def reads(twins: Twins) -> None:
    """Every read red can make, the same in both games."""
    for path in (
        "/games/g",
        "/games/g/head",
        "/games/g/state",
        "/games/g/legal",
        "/games/g/log",
        "/games/g/log?all=true",
        "/games/g/events",
        "/games/g/state?at=2",
    ):
        twins.same_for_red("GET", path)


def test_red_sees_the_same_game_whatever_blue_holds(twins: Twins) -> None:
    state = [
        json.loads(c.get("/games/g/state", headers=bearer(t["blue"])).text)
        for c, t in zip(twins.clients, twins.tokens, strict=True)
    ]
    assert masked(json.dumps(state[0])) != masked(json.dumps(state[1])), "blue's games differ"
    rng = random.Random(11)
    rejections = 0
    steps = 0
    for _ in range(30):
        steps += 1
        reads(twins)
        legal_red = twins.same_for_red("GET", "/games/g/legal").json()["commands"]
        blue_legal = [
            c.get("/games/g/legal", headers=bearer(t["blue"])).json()["commands"]
            for c, t in zip(twins.clients, twins.tokens, strict=True)
        ]
        common = [c for c in blue_legal[0] if c in blue_legal[1] and c["type"] != "deploy_card"]
        # red tries something the rules refuse: the answers must not differ either
        for wrong in (
            {
                "type": "deploy_card",
                "player": "red",
                "card": "blue.glass-choristers.1",
                "base": "red-keep",
            },
            {"type": "buy_initiative", "player": "red", "count": 99},
            {"type": "move_army", "player": "red", "army": "nowhere", "to": "0,0"},
            {"type": "end_turn", "player": "red"},
        ):
            if wrong not in legal_red:
                answer = twins.same_for_red("POST", "/games/g/commands", json=wrong)
                assert answer.status_code in (400, 422)
                rejections += 1
        if legal_red and (not common or rng.random() < 0.5):
            twins.same_for_red("POST", "/games/g/commands", json=rng.choice(legal_red))
        elif common:
            command = rng.choice(common)
            answers = twins.both("POST", "/games/g/commands", "blue", json=command)
            assert [a.status_code for a in answers] == [200, 200]
        else:
            break
    head = twins.same_for_red("GET", "/games/g/head").json()["seq"]
    feed = twins.same_for_red(
        "GET", f"/games/g/events?until={head}", headers={"Accept": "text/event-stream"}
    )
    assert feed.text.count("\nevent: ") == head
    events = twins.same_for_red("GET", "/games/g/events").json()
    issued = [e["data"]["player"] for e in events if e["type"] == "command_issued"]
    drawn = [e for e in events if e["type"] == "card_drawn" and e["data"]["empire"] == "blue"]
    assert steps >= 20 and rejections >= 20
    assert issued.count("blue") >= 8 and issued.count("red") >= 8 and drawn, "blue drew cards"
