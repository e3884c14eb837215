"""Who a request acts for: the organiser's token, or one player's token for one seat of one game.

A player's token is ``ID.SECRET``: ``ID`` finds it in the vault (where only the sha256 of
``SECRET`` is kept, beside the game's keys, never in the log or an export) and the digest of
``SECRET`` is compared in constant time. The admin token is held as a digest too, in memory.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable, Sequence

import msgspec

from warlog.domain.core.errors import WarlogError
from warlog.eventstore.vault import SeatToken

#: bytes of randomness in a token's public id and in its secret
ID_BYTES = 9
SECRET_BYTES = 32


class AuthError(WarlogError):
    """A request its token may not make; ``status`` is its HTTP status."""

    status = 403
    default_code = "auth/forbidden"


class Unauthenticated(AuthError):
    """No token, or one the server did not issue (401)."""

    status = 401
    default_code = "auth/unauthenticated"


class Caller(msgspec.Struct, frozen=True):
    """Who a request acts for: the organiser (``game`` and ``seat`` None), or the player
    ``seat`` of ``game``."""

    game: str | None = None
    seat: str | None = None

    @property
    def is_admin(self) -> bool:
        return self.game is None

    def player_in(self, game: str) -> str | None:
        """The player this caller acts as in ``game`` (None: the organiser, who sees and may do
        everything). AuthError for a player's token and any other game, whether or not that
        game exists."""
        if self.game is None:
            return None
        if self.game != game:
            raise AuthError("this token acts only in its own game", "auth/other_game")
        return self.seat

    def require_admin(self, what: str) -> None:
        """AuthError unless this is the organiser."""
        if not self.is_admin:
            raise AuthError(f"only the organiser's token may {what}", "auth/admin_only")


ADMIN = Caller()


def digest(secret: str) -> str:
    """sha256 of ``secret`` (UTF-8), hex."""
    return hashlib.sha256(secret.encode("utf-8", "surrogateescape")).hexdigest()


def issue(game: str, players: Sequence[str]) -> tuple[dict[str, str], list[SeatToken]]:
    """A new random token for each player of ``game``: ``({player: token}, what the vault
    keeps of them)``."""
    tokens: dict[str, str] = {}
    kept: list[SeatToken] = []
    for player in players:
        id_, secret = secrets.token_hex(ID_BYTES), secrets.token_urlsafe(SECRET_BYTES)
        tokens[player] = f"{id_}.{secret}"
        kept.append(SeatToken(id_, game, player, digest(secret)))
    return tokens, kept


def new_admin_token() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


class Tokens:
    """Tells who a bearer token is: the admin token (given), or a seat token found with
    ``lookup(id)`` (the vault; found tokens are remembered, as they never change)."""

    def __init__(
        self, admin_token: str, lookup: Callable[[str], Awaitable[SeatToken | None]]
    ) -> None:
        self._admin = bytes.fromhex(digest(admin_token))
        self._lookup = lookup
        self._known: dict[str, SeatToken] = {}

    async def caller(self, authorization: str | None) -> Caller:
        """The caller an ``Authorization`` header names; Unauthenticated (401) for none, a
        malformed one or a token the server did not issue."""
        scheme, _, token = (authorization or "").strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise Unauthenticated(
                "send the token you were given as 'Authorization: Bearer TOKEN'",
                "auth/no_token",
            )
        if hmac.compare_digest(bytes.fromhex(digest(token)), self._admin):
            return ADMIN
        id_, dot, secret = token.partition(".")
        if dot and id_ and len(id_) <= 2 * ID_BYTES:
            found = self._known.get(id_)
            if found is None:
                found = await self._lookup(id_)
            if found is not None and hmac.compare_digest(
                bytes.fromhex(digest(secret)), bytes.fromhex(found.digest)
            ):
                self._known[id_] = found
                return Caller(found.game, found.seat)
        raise Unauthenticated("unknown token", "auth/unknown_token")
