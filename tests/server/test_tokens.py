"""Tokens: one random token per player, only a digest of each kept — in the key file beside the
games' keys, never in the events database, the log or an export — compared in constant time."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import ADMIN, ADMIN_HEADERS, arbiter_on, new_game
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
