"""Non-interference over HTTP: two servers whose games differ only in what one side keeps hidden
answer the other side's token alike, request for request: the same status, every header but
``Date`` and every body byte, but for the 64 hex digits of the commitments to the hidden side's
secrets (its closed seals, and the chain hashes that cover them).

The twins are two databases with the same key and clock: in Armageddon Empires blue's deck is
dealt in another order (its hand and every card it draws differ), or red's hero tries to create
another card of the same price and threshold (AE-73: the card, its AP and the one created
differ); in Battle for Armageddon the
Imperials' special cards are drawn by other faces of the hidden die (BFA-10, BFA-28: the cards in
hand and deck differ) and their second strategy card differs (BFA-21: hidden until its segment,
which the game stops before). Midgard: Heroic Battles is not here: nothing in it is hidden from
either side, so twins that differ in a secret cannot be built.

Every route a player's token may call (docs/server.md, "Paths") is asked: after each command the
reads of now, at the end every seq of the game by ``state?at=``, ``events?from=``/``until=`` and
the live feed resumed by ``Last-Event-ID`` and by ``from=`` (bounded by ``until``), and the
refusals of the other seat's commands, of the hidden side's commands as the watcher's, and of
hostile requests.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient

from tests.server.conftest import ADMIN_HEADERS, SEED, bearer, fixed_clock, open_app
from tests.server.test_hidden import scenarios as ae_scenarios
from warlog.arbiter.database import on_database
from warlog.domain import rulesets as registry
from warlog.fuzz.noninterference import Twin
from warlog.server.auth import issue

#: what may differ between the twins, blinded: the 64 hex digits of a seal closed to the watcher
#: (a seal opened to it carries its value and salt, and those are compared) and of a chain hash
#: (``hash``, ``prev``, and the head's in a stale ``If-Match``'s line), which covers the hidden
#: side's seals and so differs from its first one on
CLOSED_SEAL = re.compile(r'(\{"sealed": ?")[0-9a-f]{64}("\})')
CHAIN = re.compile(r'("(?:hash|prev)": ?"|\(hash )[0-9a-f]{64}')


def blinded(text: str) -> str:
    return CHAIN.sub(r"\1<hash>", CLOSED_SEAL.sub(r"\1<seal>\2", text))


def answer(response: httpx.Response) -> tuple[int, list[tuple[str, str]], str]:
    """A response as the watcher can compare it: status, headers in order but ``Date`` (the
    wall clock's), body with the commitments blinded."""
    headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() != "date"]
    return response.status_code, headers, blinded(response.text)


@dataclass
class Case:
    ruleset: str
    watcher: str
    hidden: str
    #: the twins' scenario files, in a folder given (None: the bundled one)
    scenarios: Callable[[Path], tuple[str | None, str | None]]
    #: the commands that open twin ``n``'s game (the hidden side's secret choices among them)
    opening: Callable[[int], list[dict[str, Any]]]
    #: the game stops before a command that would publish a secret choice
    stop: Callable[[dict[str, Any]], bool]
    #: commands the watcher tries and the rules refuse, given the state and the scenario
    wrong: Callable[[dict[str, Any], dict[str, Any]], list[dict[str, Any]]]
    #: the hidden side's cards in hand, given the state (as the organiser reads it)
    hand: Callable[[dict[str, Any]], Any]
    #: twin 1's hidden draws are other faces (the other twin's are the seed's)
    twin_draws: bool = False
    steps: int = 24


def bfa_opening(n: int) -> list[dict[str, Any]]:
    second = ["combat-build", "build-combat"][n]
    return [
        {"type": "end_setup", "player": "orks"},
        {"type": "choose_strategy", "player": "orks", "cards": ["movement-combat", "combat-build"]},
        {"type": "choose_strategy", "player": "imperials", "cards": ["build-movement", second]},
    ]


def bfa_wrong(state: dict[str, Any], scenario: dict[str, Any]) -> list[dict[str, Any]]:
    specials = [c["id"] for c in scenario["special_cards"]]
    return [{"type": "play_special", "player": "orks", "card": card} for card in specials] + [
        {"type": "choose_strategy", "player": "orks", "cards": ["build-movement", "build-combat"]},
        {"type": "reroll", "player": "orks"},
    ]


def ae_twin_scenarios(folder: Path) -> tuple[str | None, str | None]:
    first, second = ae_scenarios(folder)  # blue's deck in the bundled order, and reversed
    return str(first), str(second)


def ae_wrong(state: dict[str, Any], scenario: dict[str, Any]) -> list[dict[str, Any]]:
    blue = [i for i, card in state["instances"].items() if card.get("owner") == "blue"]
    return [
        *({"type": "deploy_card", "player": "red", "card": c, "base": "red-keep"} for c in blue),
        {"type": "buy_initiative", "player": "red", "count": 99},
        {"type": "move_army", "player": "red", "army": "nowhere", "to": "0,0"},
    ]


#: AE-73: Ferrin Holt (Tactician 2) in the garrison of red's gate, whose Waystation is an Academy
RESEARCHER = (
    'card = "waystation"\ngarrison = ["writ-takers"]',
    'card = "waystation"\ngarrison = ["writ-takers", "ferrin-holt"]',
)
#: Ferrin Holt a Tactician 4 rather than 2, so that the seed's dice, no fate re-rolling them
#: (AE-73), reach the threshold of 2 in both twins
SCHOLAR = ('"Pathfinder 1", "Tactician 2"', '"Pathfinder 1", "Tactician 4"')


def ae_research_scenarios(folder: Path) -> tuple[str | None, str | None]:
    """The bundled scenario with Ferrin Holt, a Tactician 4, researching at red's gate, one file
    for both twins: they differ in the card he tries alone."""
    bundled = registry.bundled_scenario(registry.get("armageddon-empires"), "cinder-and-glass")
    assert bundled is not None and bundled.decode().count(RESEARCHER[0]) == 2
    assert bundled.decode().count(SCHOLAR[0]) == 1
    path = folder / "research" / "cinder-and-glass.toml"
    path.parent.mkdir()
    path.write_text(bundled.decode().replace(*RESEARCHER, 1).replace(*SCHOLAR))
    return str(path), str(path)


def ae_research_opening(n: int) -> list[dict[str, Any]]:
    """Red, first on the seed's dice, has Ferrin try the ember feint or the second wind: each 2
    AP, 1 Technology and threshold 2, so that the same dice create either (AE-73)."""
    card = ["ember-feint", "second-wind"][n]
    return [
        {"type": "buy_initiative", "player": "red", "count": 2},
        {"type": "buy_initiative", "player": "blue", "count": 0},
        {"type": "create_card", "player": "red", "hero": "red.ferrin-holt.1", "card": card},
    ]


def ae_research_wrong(state: dict[str, Any], scenario: dict[str, Any]) -> list[dict[str, Any]]:
    """Red's research as blue's, and a card red may have created deployed as blue's."""
    tactics = ("ember-feint", "second-wind", "steady-hands", "choir-of-doubt")
    return [
        *(
            {"type": "create_card", "player": "blue", "hero": "red.ferrin-holt.1", "card": c}
            for c in tactics
        ),
        {"type": "create_card", "player": "blue", "hero": "blue.ferrin-holt.1", "card": "x"},
        {"type": "play_tactic", "player": "blue", "card": "red.ember-feint.1"},
    ]


CASES = {
    "armageddon-empires-research": Case(
        "armageddon-empires",
        "blue",
        "red",
        scenarios=ae_research_scenarios,
        opening=ae_research_opening,
        stop=lambda state: False,
        wrong=ae_research_wrong,
        hand=lambda state: state["empires"]["red"]["hand"],
        steps=12,
    ),
    "armageddon-empires": Case(
        "armageddon-empires",
        "red",
        "blue",
        scenarios=ae_twin_scenarios,
        opening=lambda n: [],
        stop=lambda state: False,
        wrong=ae_wrong,
        hand=lambda state: state["empires"]["blue"]["hand"],
        steps=10,
    ),
    "battle-for-armageddon": Case(
        "battle-for-armageddon",
        "orks",
        "imperials",
        scenarios=lambda tmp: (None, None),
        opening=bfa_opening,
        # ending segment 3 (the Orks' second card) begins segment 4, revealing the Imperials'
        stop=lambda state: (state["segment"], state["phase"]) == (3, "build"),
        wrong=bfa_wrong,
        hand=lambda state: state["hands"]["imperials"]["cards"],
        twin_draws=True,
    ),
}


@dataclass
class Twins:
    """The same requests to two servers, each answered as ``player``'s token is."""

    case: Case
    clients: list[TestClient[Any]]
    tokens: list[dict[str, str]]
    dbs: list[Path]
    twin: Twin
    differences: list[str] = field(default_factory=list)

    def ask(
        self, player: str, method: str, path: str, headers: dict[str, str] | None = None, **kw: Any
    ) -> list[httpx.Response]:
        return [
            client.request(method, path, headers={**bearer(t[player]), **(headers or {})}, **kw)
            for client, t in zip(self.clients, self.tokens, strict=True)
        ]

    def compare(self, player: str, method: str, path: str, **kw: Any) -> httpx.Response:
        """``player``'s answers from both servers; a difference is noted with the request."""
        a, b = self.ask(player, method, path, **kw)
        if answer(a) != answer(b):
            self.differences.append(f"{method} {path} {kw}: {answer(a)} != {answer(b)}")
        return a

    def admin(self, n: int, path: str) -> Any:
        return self.clients[n].get(path, headers=ADMIN_HEADERS).json()

    def play(self, command: dict[str, Any], other: dict[str, Any] | None = None) -> None:
        """``command`` played by its player in both games (``other``: in twin 1 instead); twin
        1's dice are told the events twin 0's command caused."""
        player = command["player"]
        first = self.admin(0, "/games/g/head")["seq"]
        a = self.clients[0].post("/games/g/commands", json=command, headers=self.as_(0, player))
        assert a.status_code == 200, a.text
        last = a.json()["head"]["seq"]
        with on_database(self.dbs[0]) as arb:
            self.twin.real = [e for _, e in arb.events("g", first + 2, last)]
        b = self.clients[1].post(
            "/games/g/commands", json=other or command, headers=self.as_(1, player)
        )
        assert b.status_code == 200, b.text
        if player == self.case.watcher and answer(a) != answer(b):  # its verdict
            self.differences.append(f"verdict of {command}: {answer(a)} != {answer(b)}")

    def as_(self, n: int, player: str) -> dict[str, str]:
        return bearer(self.tokens[n][player])

    def legal(self, n: int, player: str) -> list[dict[str, Any]]:
        """``player``'s legal commands in twin ``n``."""
        commands: list[dict[str, Any]] = (
            self.clients[n].get("/games/g/legal", headers=self.as_(n, player)).json()["commands"]
        )
        return commands


def open_twins(tmp_path: Path, case: Case, stack: ExitStack) -> Twins:
    twin = Twin(case.watcher, 0)
    clients, tokens, dbs = [], [], []
    for n, scenario in enumerate(case.scenarios(tmp_path)):
        db = tmp_path / f"twin-{n}.db"
        options: dict[str, Any] = {"seeds": lambda: SEED, "clock": fixed_clock()}
        with on_database(db, create=True, **options) as arb:
            arb.new_game(case.ruleset, scenario, game="g")
            arb.new_game(case.ruleset, game="other")
            issued, kept = issue("g", arb.about("g")["players"])
            arb.vault.put_tokens(kept)
        if n == 1 and case.twin_draws:
            options["dice_filter"] = twin.dice
        clients.append(stack.enter_context(TestClient(open_app(db, **options))))
        tokens.append(issued)
        dbs.append(db)
    return Twins(case, clients, tokens, dbs, twin)


@pytest.fixture(params=sorted(CASES))
def twins(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Twins]:
    with ExitStack() as stack:
        yield open_twins(tmp_path, CASES[request.param], stack)


NOW = ("/games/g", "/games/g/head", "/games/g/state", "/games/g/legal", "/games/g/log")


def reads_of_now(twins: Twins, player: str) -> None:
    for path in NOW:
        twins.compare(player, "GET", path)


def refusals(twins: Twins, player: str, hidden: str, head: int, rng: random.Random) -> None:
    """The other seat's command, some of the hidden side's legal commands (in either game) and
    of the case's wrong ones as ``player``'s, and hostile requests: each refused alike in both
    games."""
    legal = twins.legal(0, hidden) + twins.legal(1, hidden)
    mine = twins.legal(0, player)
    state = twins.admin(0, "/games/g/state")["state"]
    scenario = twins.admin(0, "/games/g/events?until=1")[0]["data"]["scenario"]
    theirs = [{**c, "player": player} for c in legal]
    wrong = twins.case.wrong(state, scenario)
    tried = rng.sample(theirs, min(4, len(theirs))) + rng.sample(wrong, min(4, len(wrong)))
    for command in [c for c in tried if c not in mine]:
        refused = twins.compare(player, "POST", "/games/g/commands", json=command)
        assert refused.status_code in (400, 422), (command, refused.text)
    end = {"type": "end_phase" if "segment" in state else "end_turn", "player": player}
    for body, headers in (
        (json.dumps({**end, "player": hidden}).encode(), {}),  # the other seat's: 403
        (json.dumps({**end, "dice": [1]}).encode(), {}),  # a referee's dice: 403
        (json.dumps(end).encode(), {"If-Match": str(head + 1)}),  # stale: 409
        (json.dumps(end).encode(), {"If-Match": "x"}),
        (b'{"type": "nonsense", "player": "%s"}' % player.encode(), {}),
        (b'{"player": "%s"}' % player.encode(), {}),
        (b"{bad", {}),
    ):
        refused = twins.compare(player, "POST", "/games/g/commands", content=body, headers=headers)
        assert refused.status_code >= 400


def reads_of_the_game(twins: Twins, player: str) -> int:
    """Every read of the whole game and of each seq; the requests made."""
    head = twins.admin(0, "/games/g/head")["seq"]
    feed = {"Accept": "text/event-stream"}
    paths = [
        "/rulesets",
        "/openapi.json",
        "/games/g/log?all=true",
        "/games/g/events",
        "/games/g/export",  # 403 before the reveal
        "/games/g/audit",
        "/games/other",  # another game: 403
        "/games/nowhere/state",
        "/games/g/state?at=0",  # 400
        f"/games/g/state?at={head + 1}",
        f"/games/g/events?from={head + 1}",
    ]
    asked = 0
    for path in paths:
        twins.compare(player, "GET", path)
        asked += 1
    twins.compare(player, "POST", "/games/g/reveal")  # the organiser's: 403
    twins.compare(player, "POST", "/games", json={"ruleset": twins.case.ruleset, "game": "h"})
    asked += 2
    for seq in range(1, head + 1):
        twins.compare(player, "GET", f"/games/g/state?at={seq}")
        twins.compare(player, "GET", f"/games/g/events?from={seq}")
        twins.compare(player, "GET", f"/games/g/events?until={seq}")
        resumed = {**feed, "Last-Event-ID": str(seq)}
        twins.compare(player, "GET", f"/games/g/events?until={head}", headers=resumed)
        twins.compare(player, "GET", f"/games/g/events?from={seq}&until={head}", headers=feed)
        asked += 5
    return asked


def play_the_game(twins: Twins) -> Counter[str]:
    """Both games played alike: the opening, then a command a step, the watcher's legal ones
    and those of the hidden side legal in both games; after each, the watcher's reads of now
    and its refusals. Returns the commands each player played."""
    case = twins.case
    rng = random.Random(7)
    played: Counter[str] = Counter()
    for command, other in zip(case.opening(0), case.opening(1), strict=True):
        twins.play(command, other)
        played[command["player"]] += 1
    for _ in range(case.steps):
        state = twins.admin(0, "/games/g/state")["state"]
        if case.stop(state):
            break
        reads_of_now(twins, case.watcher)
        head = twins.admin(0, "/games/g/head")["seq"]
        refusals(twins, case.watcher, case.hidden, head, rng)
        waiting = {c["player"] for c in twins.admin(0, "/games/g/legal")["commands"]}
        player = case.watcher if case.watcher in waiting else case.hidden
        in_both = twins.legal(1, player)
        choices = [c for c in twins.legal(0, player) if c in in_both]
        assert choices, f"nothing {player} may play in both games"
        ends = [c for c in choices if c["type"].startswith("end_")]  # on, to the other's turn
        twins.play(rng.choice(ends if ends and rng.random() < 0.3 else choices))
        played[player] += 1
    reads_of_now(twins, case.watcher)
    return played


def test_the_watcher_is_answered_alike_whatever_the_hidden_side_holds(twins: Twins) -> None:
    """Given two servers whose games differ only in the hidden side's secrets, when the same
    game is played on both, then every answer to the watcher's token is the same, byte for byte
    and header for header, but for the digests of those secrets; and the same reads with the
    hidden side's own token do see the difference (the comparison is not of nothing)."""
    case = twins.case
    played = play_the_game(twins)
    asked = reads_of_the_game(twins, case.watcher)
    assert twins.differences == [], "\n".join(twins.differences[:5])
    assert played[case.watcher] >= 3 and played[case.hidden] >= 3 and asked >= 300
    hands = [case.hand(twins.admin(n, "/games/g/state")["state"]) for n in range(2)]
    assert hands[0] != hands[1], "the hidden side's cards differ"
    reads_of_now(twins, case.hidden)
    assert twins.differences, f"{case.hidden}'s own answers differ"
