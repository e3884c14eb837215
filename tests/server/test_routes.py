"""Every path of the contract, for both rulesets: each answers what the CLI prints for the same
question, as the caller may see it (ARCHITECTURE.md, "The arbiter server")."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import (
    ADMIN_HEADERS,
    RULESETS,
    Game,
    arbiter_on,
    assert_error,
    cli_json,
    cli_lines,
    cli_out,
    new_game,
)
from warlog.arbiter.exchange import export_line
from warlog.domain import rulesets as registry
from warlog.domain.core.events import BATCH_STARTS


def exported(records: Any) -> list[dict[str, Any]]:
    return [json.loads(export_line(r)) for r in records]


def play_some(client: httpx.Client, game: Game, count: int, seed: int = 1) -> list[dict[str, Any]]:
    """Play ``count`` legal commands, each by a player the game waits for, with that player's
    token; the verdicts (each checked against what the application says that player sees)."""
    rng = random.Random(seed)
    verdicts = []
    for _ in range(count):
        waiting = client.get(f"/games/{game.id}/legal", headers=ADMIN_HEADERS).json()["commands"]
        if not waiting:
            break
        command = rng.choice(waiting)
        player = command["player"]
        response = client.post(
            f"/games/{game.id}/commands", content=json.dumps(command), headers=game.as_(player)
        )
        assert response.status_code == 200, response.text
        verdict = response.json()
        assert sorted(verdict) == ["events", "head"]
        assert verdict["events"][0]["type"] == "command_issued"
        assert verdict["events"][0]["data"]["player"] == player
        assert verdict["head"] == {
            "seq": verdict["events"][-1]["seq"],
            "hash": verdict["events"][-1]["hash"],
        }
        assert response.headers["etag"] == f'"{verdict["head"]["seq"]}"'
        verdicts.append(verdict)
    return verdicts


def test_the_rulesets_are_what_warlog_rulesets_prints(client: httpx.Client, db: Path) -> None:
    response = client.get("/rulesets")  # anyone: no token
    assert response.status_code == 200
    assert response.json() == cli_json(db, "rulesets", "--json") == registry.catalogue()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_game_is_created_with_one_token_per_player(
    client: httpx.Client, db: Path, ruleset: str
) -> None:
    response = client.post(
        "/games", json={"ruleset": ruleset, "game": "g-1", "salt": "s"}, headers=ADMIN_HEADERS
    )
    assert response.status_code == 201
    body = response.json()
    assert body["game"] == "g-1"
    players = arbiter_on(db).about("g-1")["players"]
    assert list(body["tokens"]) == players
    assert len(set(body["tokens"].values())) == len(players)
    assert all(len(token) > 40 for token in body["tokens"].values())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_read_is_what_the_cli_prints_for_that_caller(
    client: httpx.Client, db: Path, ruleset: str
) -> None:
    game = new_game(client, ruleset, game="g")
    play_some(client, game, 12)
    arb = arbiter_on(db)
    seq, hash_ = arb.head("g")
    for reader, headers, as_ in [
        (None, ADMIN_HEADERS, []),
        *((p, game.as_(p), ["--as", p]) for p in game.players),
    ]:
        summary = client.get("/games/g", headers=headers)
        assert summary.json() == {
            "game": "g",
            "ruleset": ruleset,
            "version": registry.get(ruleset).version,
            "players": game.players,
            "head": {"seq": seq, "hash": hash_},
            "over": False,
        }
        assert client.get("/games/g/head", headers=headers).json() == cli_json(
            db, "head", "g", "--json"
        )
        assert client.get("/games/g/state", headers=headers).json() == cli_json(
            db, "state", "g", "--json", *as_
        )
        assert client.get("/games/g/state?at=9", headers=headers).json() == cli_json(
            db, "state", "g", "--json", "--at", "9", *as_
        )
        events = client.get("/games/g/events", headers=headers)
        assert events.json() == cli_lines(db, "events", "g", "--json", *as_)
        assert events.json() == exported(arb.records_as("g", reader))
        assert client.get("/games/g/events?from=7", headers=headers).json() == cli_lines(
            db, "events", "g", "--json", "--from", "7", *as_
        )
        assert client.get("/games/g/log", headers=headers).json() == cli_json(
            db, "log", "g", "--json", *as_
        )
        assert client.get("/games/g/log?all=true", headers=headers).json() == cli_json(
            db, "log", "g", "--json", "--all", *as_
        )
        legal = client.get("/games/g/legal", headers=headers).json()
        assert legal == {"commands": json.loads(json.dumps(arb.legal("g", reader)))}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_verdict_holds_the_batch_as_the_issuing_player_sees_it(
    client: httpx.Client, db: Path, ruleset: str
) -> None:
    game = new_game(client, ruleset, game="g")
    arb = arbiter_on(db)
    for verdict in play_some(client, game, 10, seed=7):
        first, last = verdict["events"][0]["seq"], verdict["events"][-1]["seq"]
        player = verdict["events"][0]["data"]["player"]
        assert verdict["events"] == exported(arb.records_as("g", player, first, last))


def test_the_organisers_command_verdict_opens_every_seal(client: httpx.Client, db: Path) -> None:
    game = new_game(client, "armageddon-empires", game="g")
    command = {"type": "buy_initiative", "player": "blue", "count": 2}
    response = client.post("/games/g/commands", json=command, headers=ADMIN_HEADERS)
    assert response.status_code == 200
    events = response.json()["events"]
    assert events[0]["data"]["command"]["count"]["value"] == 2  # the referee sees it
    arb = arbiter_on(db)
    assert events == exported(arb.records_as("g", None, events[0]["seq"], events[-1]["seq"]))
    seen_by_red = client.get(
        "/games/g/events?from=" + str(events[0]["seq"]), headers=game.as_("red")
    )
    assert seen_by_red.json()[0]["data"]["command"]["count"].keys() == {"sealed"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_after_the_reveal_players_may_export_and_audit_and_play_is_over(
    client: httpx.Client, db: Path, ruleset: str
) -> None:
    game = new_game(client, ruleset, game="g")
    play_some(client, game, 8)
    player = game.players[0]
    assert_error(client.get("/games/g/export", headers=game.as_(player)), 403, "auth/not_revealed")
    assert_error(client.get("/games/g/audit", headers=game.as_(player)), 403, "auth/not_revealed")
    export = client.get("/games/g/export", headers=ADMIN_HEADERS)
    assert export.status_code == 200
    assert export.headers["content-type"].startswith("application/x-ndjson")
    assert export.text == cli_out(db, "export", "g")  # sealed values still sealed
    audit = client.get("/games/g/audit", headers=ADMIN_HEADERS)
    assert audit.json() == {"findings": []}  # nothing found; all checked only if the CLI says so
    report = cli_json(db, "audit", "g", "--json")
    assert audit.headers["Warlog-Audit-Complete"] == ("yes" if report["complete"] else "no")
    if ruleset == "armageddon-empires":  # its dealt cards' salts wait for the seed
        assert not report["complete"]
        assert "salts: " in audit.headers["Warlog-Audit-Unchecked"]

    head = arbiter_on(db).head("g")[0]
    revealed = client.post("/games/g/reveal", headers=ADMIN_HEADERS)
    assert revealed.status_code == 200
    assert revealed.json() == {"seq": head + 1}
    assert client.get("/games/g", headers=ADMIN_HEADERS).json()["over"] is True
    for token in game.players:
        export = client.get("/games/g/export", headers=game.as_(token))
        assert export.text == cli_out(db, "export", "g")  # every seal opened now
        audit = client.get("/games/g/audit", headers=game.as_(token))
        assert audit.json() == {"findings": []}
        assert audit.headers["Warlog-Audit-Complete"] == "yes"
        assert "Warlog-Audit-Unchecked" not in audit.headers
    assert client.get("/games/g/legal", headers=game.as_(player)).json() == {"commands": []}
    assert_error(
        client.post("/games/g/reveal", headers=ADMIN_HEADERS), 400, "input/already_revealed"
    )


def test_the_reveal_names_the_live_games_that_share_hidden_history_with_it(
    client: httpx.Client, db: Path
) -> None:
    """Given a game forked (by the organiser's CLI on the server's database) into one still
    being played, when the organiser reveals the parent over HTTP, then the answer names the
    fork in `Warlog-Live-Relatives`, as `warlog reveal` notes it: its hands and draws before
    the cut are told by the parent's seed. Revealing the fork afterwards names nobody: what it
    shares with its parent is public by then."""
    game = new_game(client, "armageddon-empires", game="g")
    play_some(client, game, 6)
    cut = arbiter_on(db).head("g")[0]
    cli_out(db, "fork", "g", "--at", str(cut), "--game", "g-fork")
    revealed = client.post("/games/g/reveal?despite_live_forks=true", headers=ADMIN_HEADERS)
    assert revealed.status_code == 200
    assert revealed.json() == {"seq": cut + 1}
    assert revealed.headers["Warlog-Live-Relatives"] == "g-fork"
    again = client.post("/games/g-fork/reveal", headers=ADMIN_HEADERS)
    assert again.status_code == 200
    assert "Warlog-Live-Relatives" not in again.headers


def test_a_reveal_that_would_tell_a_live_forks_secrets_is_refused_with_409(
    client: httpx.Client, db: Path
) -> None:
    """Given a game forked (by the organiser's CLI) into one still being played, when the
    organiser reveals the parent over HTTP without saying so, then it is 409 input/live_forks
    naming the fork and the query that insists, and nothing is appended; a value of the query
    that is not a boolean is 400."""
    game = new_game(client, "armageddon-empires", game="g")
    play_some(client, game, 6)
    cut = arbiter_on(db).head("g")[0]
    cli_out(db, "fork", "g", "--at", str(cut), "--game", "g-fork")
    refused = client.post("/games/g/reveal", headers=ADMIN_HEADERS)
    assert_error(refused, 409, "input/live_forks")
    message = refused.json()["error"]["message"]
    assert message.startswith("g-fork shares hidden history with g and is still being played")
    assert "?despite_live_forks=true" in message
    assert "Warlog-Live-Relatives" not in refused.headers
    hostile = client.post("/games/g/reveal?despite_live_forks=maybe", headers=ADMIN_HEADERS)
    assert hostile.status_code == 400
    assert arbiter_on(db).head("g")[0] == cut


def test_the_reveal_lists_every_live_relative_comma_separated(
    client: httpx.Client, db: Path
) -> None:
    """Given a game forked twice (by the organiser's CLI), both forks still being played, when
    the organiser reveals the parent over HTTP, then `Warlog-Live-Relatives` names both, in
    order, as OpenAPI documents it: comma-separated."""
    game = new_game(client, "armageddon-empires", game="g")
    play_some(client, game, 6)
    cut = arbiter_on(db).head("g")[0]
    for fork in ("g-a", "g-b"):
        cli_out(db, "fork", "g", "--at", str(cut), "--game", fork)
    revealed = client.post("/games/g/reveal?despite_live_forks=true", headers=ADMIN_HEADERS)
    assert revealed.status_code == 200
    assert revealed.headers["Warlog-Live-Relatives"] == "g-a, g-b"


def test_a_reveal_is_refused_with_409_while_a_copy_imported_from_its_open_record_is_played(
    client: httpx.Client, db: Path
) -> None:
    """Given a game whose open record the organiser imported again into the server's database
    (`warlog export --open`, `warlog import`: a copy of no lineage, holding the same key),
    when the organiser reveals the game over HTTP, then it is 409 input/live_forks naming the
    copy, nothing appended; with `despite_live_forks=true` the answer names the copy in
    `Warlog-Live-Relatives`: the seed it rolls by is public now."""
    game = new_game(client, "armageddon-empires", game="g")
    play_some(client, game, 6)
    head = arbiter_on(db).head("g")[0]
    record = str(db.with_name("open.jsonl"))
    cli_out(db, "export", "g", "--open", "-o", record)
    cli_out(db, "import", record, "--game", "g-copy", "--despite-live-forks")
    refused = client.post("/games/g/reveal", headers=ADMIN_HEADERS)
    assert_error(refused, 409, "input/live_forks")
    message = refused.json()["error"]["message"]
    assert message.startswith("g-copy shares its key with g and is still being played")
    assert arbiter_on(db).head("g")[0] == head
    revealed = client.post("/games/g/reveal?despite_live_forks=true", headers=ADMIN_HEADERS)
    assert revealed.json() == {"seq": head + 1}
    assert revealed.headers["Warlog-Live-Relatives"] == "g-copy"


def test_a_referee_enters_manual_dice_with_the_organisers_token(
    client: httpx.Client, db: Path
) -> None:
    """Given a manual-dice game, when a player's token sends any command — one that rolls or
    one that does not, with dice or without — it is refused alike (403, nothing appended: a
    refusal only of commands that roll would tell whether hidden dice were needed), and the
    organiser's token enters it, told how many dice it needs and applied with exactly those
    faces."""
    game = new_game(client, "armageddon-empires", game="m", dice="manual")
    red = {"type": "buy_initiative", "player": "red", "count": 1}  # rolls nothing yet
    blue = {"type": "buy_initiative", "player": "blue", "count": 0}  # both bought: dice roll
    head = client.get("/games/m/head", headers=ADMIN_HEADERS).json()
    for command, seat, code in (
        (red, "red", "auth/referee_plays"),
        (blue, "blue", "auth/referee_plays"),
        ({**blue, "dice": [3]}, "blue", "auth/referee_dice"),
    ):
        refused = client.post("/games/m/commands", json=command, headers=game.as_(seat))
        assert (refused.status_code, refused.json()["error"]["code"]) == (403, code)
    assert client.get("/games/m/head", headers=ADMIN_HEADERS).json() == head
    assert client.post("/games/m/commands", json=red, headers=ADMIN_HEADERS).status_code == 200
    told = assert_error(
        client.post("/games/m/commands", json=blue, headers=ADMIN_HEADERS), 400, "input/dice_count"
    )
    needed = int(re.search(r"needs (\d+) di(?:c)?e ", told["message"]).group(1))  # type: ignore[union-attr]
    faces = [1] * needed
    applied = client.post("/games/m/commands", json={**blue, "dice": faces}, headers=ADMIN_HEADERS)
    assert applied.status_code == 200, applied.text
    rolled = [e for e in applied.json()["events"] if e["type"] == "dice_rolled"]
    # a hidden roll (the round's observation) reaches the organiser opened: its value is the faces
    opened = [e["data"]["faces"] for e in rolled]
    assert [f for fs in opened for f in (fs["value"] if "sealed" in fs else fs)] == faces


def test_a_player_s_state_at_an_event_inside_a_batch_is_the_state_at_the_batch_s_end(
    client: httpx.Client, db: Path
) -> None:
    """Given an Armageddon Empires game played 12 commands in, when a player asks for the state
    at an event inside a batch, after which the referee's state is not yet the batch's end's,
    then the player is answered with the state after the batch's last event (``seq``, with
    ``at`` the event asked for), and the referee with the state after the event asked for."""
    game = new_game(client, "armageddon-empires", game="g")
    play_some(client, game, 12)
    arb = arbiter_on(db)
    records = list(arb.records("g"))
    ends = [r.seq - 1 for r in records[1:] if r.type in BATCH_STARTS] + [records[-1].seq]
    inside = [
        (seq, end)
        for start, end in zip([0, *ends], ends, strict=False)
        for seq in range(start + 1, end)
        if arb.view("g", seq)["state"] != arb.view("g", end)["state"]
    ]
    seq, end = inside[-1]
    for player in game.players:
        shown = client.get(f"/games/g/state?at={seq}", headers=game.as_(player)).json()
        at_end = client.get(f"/games/g/state?at={end}", headers=game.as_(player)).json()
        assert (shown["seq"], shown["at"]) == (end, seq)
        assert shown["state"] == at_end["state"]
    referee = client.get(f"/games/g/state?at={seq}", headers=ADMIN_HEADERS).json()
    assert (referee["seq"], referee["at"]) == (seq, seq)
    assert (
        referee["state"]
        != client.get(f"/games/g/state?at={end}", headers=ADMIN_HEADERS).json()["state"]
    )
