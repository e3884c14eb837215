"""The one place that turns errors into the contract's HTTP status and its JSON shape,
``{"error": {"code": "<stable code>", "message": "<one line>"}}``.

The codes are the CLI's: bad input 400, a token that may not do this 403 (none or unknown: 401),
an unknown game 404, a conflict 409 (a stale ``If-Match``, an append by another process, a game
id already taken, a reveal that would tell the secrets of games still being played), the rules'
rejection 422. The store failing (locked, full, its key file missing) is 503: the arbiter cannot
serve now, whatever the client sent. Anything else is a bug: 500 with one line, the traceback on
the server's stderr only.
"""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.types import ExceptionHandlersMap

from warlog.arbiter.revealing import LIVE_FORKS
from warlog.domain.core.errors import (
    ConflictError,
    IntegrityError,
    RulesError,
    StoreError,
    UnknownGame,
    WarlogError,
)
from warlog.server.auth import AuthError
from warlog.server.headers import head_tag

log = logging.getLogger("warlog.server")

#: codes whose status is not their class's
STATUS_OF_CODE = {"input/game_exists": 409, LIVE_FORKS: 409}
#: Litestar's own refusals (routing, body size), by status
HTTP_CODES = {
    400: "input/invalid",
    404: "http/not_found",
    405: "http/method_not_allowed",
    413: "http/too_large",
    415: "http/unsupported_media_type",
}


class ErrorDetail(msgspec.Struct, frozen=True):
    code: str
    message: str


class ErrorBody(msgspec.Struct, frozen=True):
    """Every error the server answers with."""

    error: ErrorDetail


class StaleHead(ConflictError):
    """``If-Match`` named a head that has moved on; the current head is in ``head``."""

    default_code = "conflict/stale_head"

    def __init__(self, expected: str, seq: int, hash_: str) -> None:
        said = expected.strip().strip('"')
        said = said if len(said) <= 20 else f"{said[:17]}..."
        super().__init__(
            f"If-Match says the head is {said} but it is {seq} (hash {hash_}); nothing was "
            "applied: read the events after the head you knew, then decide again",
        )
        self.head = (seq, hash_)


class LostRace(ConflictError):
    """Another process appended to the game between this command's read of the head and its
    append (a command sent without ``If-Match``); nothing was applied. The head it lost to is in
    ``head``, as a stale ``If-Match``'s is."""

    default_code = "store/conflict"

    def __init__(self, game: str, seq: int, hash_: str) -> None:
        super().__init__(
            f"another writer appended to game {game} first: its head is now {seq} (hash "
            f"{hash_}); nothing was applied: send the command again, or read the events after "
            "the head you knew and decide again",
        )
        self.head = (seq, hash_)


def status_of(error: WarlogError) -> int:
    """The HTTP status of a warlog error."""
    if error.code in STATUS_OF_CODE:
        return STATUS_OF_CODE[error.code]
    if isinstance(error, AuthError):
        return error.status
    if isinstance(error, UnknownGame):
        return 404
    if isinstance(error, ConflictError):
        return 409
    if isinstance(error, RulesError | IntegrityError):
        return 422
    if isinstance(error, StoreError):
        return 503
    return 400


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> Response[Any]:
    # a message may quote what the client sent, half a surrogate pair too: never unencodable
    line = " ".join(message.split()).encode("utf-8", "backslashreplace").decode("utf-8")
    body = ErrorBody(ErrorDetail(code, line))
    return Response(body, status_code=status, headers=headers or {}, media_type="application/json")


def on_warlog_error(request: Request[Any, Any, Any], exc: WarlogError) -> Response[Any]:
    status = status_of(exc)
    headers: dict[str, str] = {}
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    if isinstance(exc, StaleHead | LostRace):
        headers.update(head_tag(exc.head[0]))
    if status == 503:
        log.warning("%s %s: %s", request.method, request.url.path, exc.line())
    return error_response(status, exc.code, exc.message, headers)


def on_http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    status = exc.status_code
    if isinstance(exc, ValidationException):
        return error_response(400, "input/invalid", _validation_message(exc))
    code = HTTP_CODES.get(status, f"http/{status}")
    headers = dict(exc.headers or {})
    return error_response(status, code, str(exc.detail), headers)


def on_bug(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    log.error("a bug answering %s %s", request.method, request.url.path, exc_info=exc)
    message = f"{type(exc).__name__} (a bug in warlog; the server's log has the details)"
    return error_response(500, "internal/bug", message)


#: the handlers' Python names of parameters whose name in the request differs (a keyword or a
#: builtin there): validation failures name them as the client sent them
CLIENT_NAMES = {"from_seq": "from", "all_": "all"}


def _validation_message(exc: ValidationException) -> str:
    """One line from Litestar's validation failure: what is wrong with which parameter."""
    parts = []
    for item in exc.extra if isinstance(exc.extra, list) else []:
        if isinstance(item, dict):
            source = getattr(item.get("source"), "value", item.get("source"))
            key = CLIENT_NAMES.get(str(item.get("key")), item.get("key"))
            if source == "body" and item.get("message") == repr(key):  # no body at all
                parts.append("the body is empty: give one JSON object")
                continue
            if source != "body":
                where = f"{source} parameter {key!r}"
            elif key in (None, "data"):  # the object as a whole
                where = "the body"
            else:
                where = f"the body's field {key!r}"
            parts.append(f"{where}: {item.get('message', '')}")
    return "; ".join(parts) if parts else str(exc.detail)


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    WarlogError: on_warlog_error,
    HTTPException: on_http_error,
    Exception: on_bug,
}
