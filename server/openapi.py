"""The OpenAPI document at ``/openapi.json``: Litestar's description of the routes, completed with
what it cannot see — the bearer scheme and which routes are public, the command body (every
registered ruleset's commands), the live feed (``text/event-stream``) and the export (JSON Lines).
"""

from __future__ import annotations

import copy
from typing import Any

import msgspec
from litestar import MediaType, Request
from litestar.openapi import OpenAPIConfig
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.plugins import JsonRenderPlugin

from warlog.domain import rulesets as registry
from warlog.domain.core.errors import InputError
from warlog.server.errors import ErrorBody
from warlog.server.headers import HEAD_TAG_TEXT

DESCRIPTIONS = {
    400: "Bad input: not JSON, an unknown command or field, a wrong type, a bad seq or header.",
    401: "No token, or one this server did not issue.",
    403: "A token that may not do this (a player's token and another game or seat).",
    404: "No such game (the organiser's token).",
    409: "Conflict: a stale If-Match, another writer appended first, the game id is taken, or "
    "a reveal would tell the secrets of games still being played (`input/live_forks`).",
    422: "The rules reject the command; nothing was appended.",
}
#: answers any route may give, whatever it does (docs/server.md, "Status codes and errors"),
#: and one any route with a body may give
EVERY_ROUTE = {
    "408": "The request did not arrive in full in time (`http/request_timeout`); the connection "
    "is closed.",
    "500": "A bug in warlog (`internal/bug`): one line; the traceback is the server's alone.",
    "503": "The store cannot serve now (`store/...`), or the server holds as many connections as "
    "it may, every one busy (`http/too_many_connections`, with `Retry-After`).",
}
WITH_A_BODY = {"413": "A body over 1 MiB (`http/too_large`)."}
#: the head's seq as an entity tag, on the stale If-Match's 409 (the routes' own answers
#: declare it with ``headers.HEAD_TAG``)
HEAD_TAG = {"description": HEAD_TAG_TEXT, "schema": {"type": "string"}}
#: what a 503 for too many connections adds
RETRY_AFTER = {
    "description": "Seconds to wait before trying again (with `http/too_many_connections`).",
    "schema": {"type": "integer"},
}
SCHEMA_REF = "#/components/schemas/{name}"


def responses(*statuses: int) -> dict[int, ResponseSpec]:
    """The error responses a route may give, each in the one error shape."""
    return {
        status: ResponseSpec(ErrorBody, description=DESCRIPTIONS[status], generate_examples=False)
        for status in statuses
    }


def command_schemas() -> tuple[dict[str, Any], dict[str, Any]]:
    """``(schema, components)`` of a command: one of any registered ruleset's commands."""
    variants: list[dict[str, Any]] = []
    components: dict[str, Any] = {}
    for name in registry.names():
        try:
            ruleset = registry.get(name)
        except (ImportError, InputError):  # a ruleset that does not load is not offered
            continue
        template = "#/components/schemas/" + name + ".{name}"
        (union,), found = msgspec.json.schema_components(
            [ruleset.command_type], ref_template=template
        )
        components.update({f"{name}.{key}": value for key, value in found.items()})
        components[f"{name}.Command"] = {"title": f"a command of {name}", **union}
        variants.append({"$ref": SCHEMA_REF.format(name=f"{name}.Command")})
    return {"anyOf": variants}, components


def completed(document: dict[str, Any]) -> dict[str, Any]:
    """Litestar's ``document`` with what it cannot see added (module doc)."""
    doc = copy.deepcopy(document)
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    doc["components"]["securitySchemes"] = {
        "bearer": {
            "type": "http",
            "scheme": "bearer",
            "description": "The organiser's token, or a player's token from POST /games.",
        }
    }
    paths = doc["paths"]
    paths["/rulesets"]["get"]["security"] = []
    new_game = schemas["NewGame"]["properties"]
    new_game["ruleset"]["enum"] = registry.names()  # those registered in this server
    command, found = command_schemas()
    schemas.update(found)
    paths["/games/{game}/commands"]["post"]["requestBody"] = {
        "required": True,
        "description": "One command object, as `warlog play` takes it (its `player` must be "
        "the token's; `dice` only in a manual-dice game, with the organiser's token).",
        "content": {"application/json": {"schema": command}},
    }
    events = paths["/games/{game}/events"]["get"]["responses"]["200"]["content"]
    events["text/event-stream"] = {
        "schema": {
            "type": "string",
            "description": "Server-Sent Events: per log event `id: SEQ`, `event: TYPE`, "
            "`data: EVENT` (the export format, as the caller may see it); `: keep-alive` "
            "comments every 15 s. Resumes after `Last-Event-ID`; closes after `until`.",
        }
    }
    export = paths["/games/{game}/export"]["get"]["responses"]["200"]
    export["content"] = {
        "application/x-ndjson": {
            "schema": {
                "type": "string",
                "description": "JSON Lines: one event a line, "
                '`{"seq", "type", "at", "data", "prev", "hash"}`.',
            }
        }
    }
    error = {"$ref": SCHEMA_REF.format(name="ErrorBody")}
    for path, operations in paths.items():
        for method, operation in operations.items():
            answers = operation.setdefault("responses", {})
            generic = EVERY_ROUTE | (WITH_A_BODY if method in ("post", "put", "patch") else {})
            for status, description in generic.items():
                answers.setdefault(
                    status,
                    {
                        "description": description,
                        "content": {"application/json": {"schema": error}},
                    },
                )
            answers["503"].setdefault("headers", {})["Retry-After"] = RETRY_AFTER
            if path == "/games/{game}/commands":  # a stale If-Match says the head it is at
                answers["409"].setdefault("headers", {})["ETag"] = HEAD_TAG
    for operations in paths.values():  # Litestar keeps a route's headers in a frozenset
        for operation in operations.values():
            for answer in operation.get("responses", {}).values():
                if isinstance(answer.get("headers"), dict):
                    answer["headers"] = dict(sorted(answer["headers"].items()))
                    # OpenAPI wants a header's schema, which Litestar's ResponseHeader cannot
                    # hold: every header the server sends is text
                    for header in answer["headers"].values():
                        header.setdefault("schema", {"type": "string"})
    paths["/openapi.json"] = {
        "get": {
            "summary": "This document",
            "operationId": "OpenapiJson",
            "security": [],
            "responses": {"200": {"description": "The OpenAPI 3 document of the server."}},
        }
    }
    return doc


class CompletedDocument(JsonRenderPlugin):
    """Litestar's JSON render plugin, serving the completed document (built once per app)."""

    def __init__(self) -> None:
        super().__init__(path="/", media_type=MediaType.JSON)
        self._document: bytes | None = None

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        if self._document is None:
            self._document = msgspec.json.encode(completed(openapi_schema))
        return self._document


def openapi_config(version: str) -> OpenAPIConfig:
    """The document served at ``/openapi.json`` (Litestar's OpenAPI router at that path, with
    one plugin at its root)."""
    return OpenAPIConfig(
        title="warlog arbiter",
        version=version,
        description="The arbiter server of warlog: docs/server.md.",
        path="/openapi.json",
        render_plugins=[CompletedDocument()],
        security=[{"bearer": []}],
    )
