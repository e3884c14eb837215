"""What a player's token is and how it is sent: `ID.SECRET`, 72 bits of public id and 256 bits
of secret (docs/server.md, "Security model"), in `Authorization: Bearer TOKEN` whatever the
case of the scheme; no token at all is `auth/no_token`, one the server did not issue
`auth/unknown_token` ("Status codes and errors")."""

from __future__ import annotations

import base64
import re

import httpx

from tests.server.conftest import ADMIN, assert_error, new_game

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
