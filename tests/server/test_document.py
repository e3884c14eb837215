"""The OpenAPI document a client generates its code from, or diffs between two releases."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from tests.server.conftest import RULESETS, open_app
from warlog.domain import rulesets as registry

DOCUMENT = """
import sys
from litestar.testing import TestClient
from tests.server.conftest import open_app
with TestClient(open_app(__import__("pathlib").Path(sys.argv[1]))) as client:
    sys.stdout.buffer.write(client.get("/openapi.json").content)
"""


def document(db: Path, hash_seed: str) -> bytes:
    """/openapi.json as a server in a new process, with that hash seed, serves it."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", DOCUMENT, str(db)],
        env=env,
        cwd=Path(__file__).parents[2],
        capture_output=True,
        check=True,
    )
    return done.stdout


def test_the_document_is_the_same_byte_for_byte_whatever_the_process_s_hash_seed(
    tmp_path: Path,
) -> None:
    """Given two servers of the same warlog, when each serves /openapi.json in a process of
    its own hash seed, then the documents are the same bytes: a route's headers were listed in
    the order of a set (the audit's two came either way round)."""
    first, second = document(tmp_path / "a.db", "1"), document(tmp_path / "b.db", "2")
    assert b"Warlog-Audit-Complete" in first
    assert hashlib.sha256(first).hexdigest() == hashlib.sha256(second).hexdigest()


def test_each_answer_lists_its_headers_by_name_and_the_reveal_its_409(client: Any) -> None:
    """Given a server, when a client reads its document, then every answer's headers are listed
    in the order of their names (the audit's Warlog-Audit-Complete before its other header),
    and the reveal lists 409, the refusal while live forks exist."""
    paths = client.get("/openapi.json").json()["paths"]
    for operations in paths.values():
        for operation in operations.values():
            for answer in operation.get("responses", {}).values():
                assert list(answer.get("headers", {})) == sorted(answer.get("headers", {}))
    assert "409" in paths["/games/{game}/reveal"]["post"]["responses"]


#: the error code each answer any route may give carries (docs/server.md, "Status codes and
#: errors")
ERROR_CODES = {
    "408": "http/request_timeout",
    "413": "http/too_large",
    "500": "internal/bug",
    "503": "http/too_many_connections",
}


def test_every_answer_the_server_gives_is_in_the_document(client: Any) -> None:
    """Given a server, when a client reads its document, then every operation lists the answers
    any route may give (408, 500, 503: docs/server.md's status table, in the one error shape),
    every route with a body 413 too, and the answers that carry a head say so in ETag, the
    value If-Match takes: the game, the head, a verdict and a stale If-Match's 409."""
    doc = client.get("/openapi.json").json()
    error = {"$ref": "#/components/schemas/ErrorBody"}
    assert "ErrorBody" in doc["components"]["schemas"]
    paths = doc["paths"]
    for path, operations in paths.items():
        if path == "/openapi.json":
            continue
        for method, operation in operations.items():
            answers = operation["responses"]
            statuses = {"408", "500", "503"} | ({"413"} if method == "post" else set())
            assert statuses <= set(answers), (path, method)
            for status in statuses:
                assert answers[status]["content"]["application/json"]["schema"] == error
                # the code the body carries, for a client to tell the causes apart
                assert ERROR_CODES[status] in answers[status]["description"], (path, status)
            # a 503 for too many connections says when to try again
            assert answers["503"]["headers"]["Retry-After"]["schema"] == {"type": "integer"}
    tagged = [
        paths["/games/{game}"]["get"]["responses"]["200"],
        paths["/games/{game}/head"]["get"]["responses"]["200"],
        paths["/games/{game}/commands"]["post"]["responses"]["200"],
        paths["/games/{game}/commands"]["post"]["responses"]["409"],
    ]
    for answer in tagged:
        assert "If-Match" in answer["headers"]["ETag"]["description"]
        # a quoted seq, typed as the text it is (a header names a schema or a content)
        assert answer["headers"]["ETag"]["schema"] == {"type": "string"}


def test_every_header_an_answer_names_says_its_type(client: Any) -> None:
    """Given a server, when a client generates its code from the document, then every response
    header it names has a schema (Litestar's response headers had none): text, but Retry-After's
    seconds, a number."""
    paths = client.get("/openapi.json").json()["paths"]
    headers = [
        (path, status, name, header)
        for path, operations in paths.items()
        for operation in operations.values()
        for status, answer in operation["responses"].items()
        for name, header in answer.get("headers", {}).items()
    ]
    assert {name for *_, name, _ in headers} >= {"ETag", "Warlog-Live-Relatives"}
    for path, status, name, header in headers:
        kind = "integer" if name == "Retry-After" else "string"
        assert header["schema"] == {"type": kind}, (path, status, name)


def test_a_ruleset_plug_in_that_does_not_load_is_left_out_of_the_commands(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a ruleset registered as a plug-in whose module is not installed, when a client
    reads the document, then it is served, its commands those of the rulesets that load: a
    plug-in that does not load takes nothing else down with it."""
    monkeypatch.setitem(registry._registry, "broken-plug-in", "no_such_warlog_plug_in:RULESET")
    with TestClient(open_app(db)) as client:
        answer = client.get("/openapi.json")
    assert answer.status_code == 200
    commands = answer.json()["paths"]["/games/{game}/commands"]["post"]["requestBody"]
    variants = commands["content"]["application/json"]["schema"]["anyOf"]
    assert [v["$ref"].rsplit("/", 1)[1] for v in variants] == [
        f"{name}.Command" for name in RULESETS
    ]
