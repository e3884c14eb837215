"""Tokens: one random token per player, `ID.SECRET` (72 bits of public id, 256 of secret), only a
digest of each kept — in the key file beside the games' keys, never in the events database, the
log or an export — compared in constant time; sent as `Authorization: Bearer TOKEN` whatever the
case of the scheme (docs/server.md, "Security model")."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import re
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import ADMIN, ADMIN_HEADERS, arbiter_on, assert_error, new_game
from warlog.eventstore.sqlite_vault import vault_path
from warlog.eventstore.vault import SeatToken
from warlog.server import auth
from warlog.server.auth import ADMIN as ADMIN_CALLER
from warlog.server.auth import Caller, Tokens, Unauthenticated


def files_bytes(paths: list[Path]) -> bytes:
    return b"".join(p.read_bytes() for p in paths if p.exists())


def test_only_a_digest_of_each_token_is_kept_and_only_in_the_key_file(
    client: httpx.Client, db: Path
) -> None:
    game = new_game(client, "armageddon-empires", game="g")
    export = client.get("/games/g/export", headers=ADMIN_HEADERS).content
    events = client.get("/games/g/events", headers=ADMIN_HEADERS).content
    client.__exit__(None, None, None)  # the server stops: every file is closed
    events_db = files_bytes([db, Path(f"{db}-wal")])
    key_file = files_bytes([Path(vault_path(db)), Path(f"{vault_path(db)}-wal")])
    for token in game.tokens.values():
        id_, _, secret = token.partition(".")
        digest = hashlib.sha256(secret.encode()).hexdigest().encode()
        for text in (events_db, key_file, export, events):
            assert secret.encode() not in text
        for text in (events_db, export, events):
            assert digest not in text and id_.encode() not in text
        assert digest in key_file
    assert ADMIN.encode() not in events_db + key_file


def test_each_token_acts_only_as_its_own_seat_of_its_own_game(
    client: httpx.Client, db: Path
) -> None:
    one = new_game(client, "armageddon-empires", game="one")
    two = new_game(client, "armageddon-empires", game="two")
    vault = arbiter_on(db).vault
    for game in (one, two):
        for player, token in game.tokens.items():
            id_, _, secret = token.partition(".")
            kept = vault.token(id_)
            assert kept == SeatToken(
                id_, game.id, player, hashlib.sha256(secret.encode()).hexdigest()
            )
    assert set(one.tokens.values()).isdisjoint(two.tokens.values())


def test_a_seat_token_is_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Given a token found by its id, then its secret is checked with hmac.compare_digest on
    digests of equal length (never ``==`` on the secret itself)."""
    tokens, kept = auth.issue("g", ["red"])
    compared: list[tuple[bytes, bytes]] = []
    real = auth.hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(auth.hmac, "compare_digest", spy)

    async def lookup(id_: str) -> SeatToken | None:
        return next((k for k in kept if k.id == id_), None)

    checker = Tokens("admin", lookup)
    assert asyncio.run(checker.caller("Bearer " + tokens["red"])) == Caller("g", "red")
    assert asyncio.run(checker.caller("Bearer admin")) == ADMIN_CALLER
    with pytest.raises(Unauthenticated):
        asyncio.run(checker.caller("Bearer " + tokens["red"][:-1] + "?"))
    assert compared and all(len(a) == len(b) == 32 for a, b in compared)


#: 72 bits of public id in hex, a dot, 256 bits of secret in URL-safe base64 (unpadded)
TOKEN = re.compile(r"([0-9a-f]{18})\.([A-Za-z0-9_-]{43})")


def test_each_token_holds_72_bits_of_id_and_256_bits_of_secret(client: httpx.Client) -> None:
    # given games created by the organiser; then every token is ID.SECRET of the documented size
    tokens = [
        token
        for ruleset in ("armageddon-empires", "battle-for-armageddon")
        for token in new_game(client, ruleset).tokens.values()
    ]
    for token in tokens:
        found = TOKEN.fullmatch(token)
        assert found is not None, token
        assert len(bytes.fromhex(found.group(1))) == 9
        assert len(base64.urlsafe_b64decode(found.group(2) + "=")) == 32


def test_the_bearer_scheme_is_read_whatever_its_case(client: httpx.Client) -> None:
    # given a player's token; when it is sent as `bearer` or `BEARER` (RFC 9110: a scheme's
    # name is case-insensitive), then it acts as that player, as with `Bearer`
    game = new_game(client, "armageddon-empires", game="g")
    for scheme in ("Bearer", "bearer", "BEARER"):
        for token in (game.tokens["red"], ADMIN):
            response = client.get("/games/g/head", headers={"Authorization": f"{scheme} {token}"})
            assert response.status_code == 200, (scheme, response.text)


def test_no_token_is_told_how_to_send_one_and_a_token_not_issued_is_unknown(
    client: httpx.Client,
) -> None:
    new_game(client, "armageddon-empires", game="g")
    for authorization, code in (
        (None, "auth/no_token"),
        ("Bearer", "auth/no_token"),
        ("Bearer ", "auth/no_token"),
        ("Basic dXNlcjpwYXNz", "auth/no_token"),
        ("Bearer nope", "auth/unknown_token"),
        ("Bearer a.b", "auth/unknown_token"),
    ):
        headers = {} if authorization is None else {"Authorization": authorization}
        response = client.get("/games/g/head", headers=headers)
        assert_error(response, 401, code)
        assert response.headers["www-authenticate"] == "Bearer"
