"""The headers the server reads and writes besides the body: a seq in If-Match or
Last-Event-ID, each given once; the head's ETag; the reveal's list of live relatives.
"""

from __future__ import annotations

from typing import Any

from litestar.connection import ASGIConnection
from litestar.datastructures import ResponseHeader

from warlog.domain.core.errors import InputError

#: how the document describes the head's ETag, wherever an answer carries one
HEAD_TAG_TEXT = 'The head\'s seq, quoted (`"SEQ"`): the value `If-Match` takes.'

#: the reveal's header naming the live games that share hidden history with the revealed one
LIVE_RELATIVES = "Warlog-Live-Relatives"


#: the headers that hold a seq; each is read once, so each may be given once
SEQ_HEADERS = ("If-Match", "Last-Event-ID")


def once(connection: ASGIConnection[Any, Any, Any, Any], names: tuple[str, ...]) -> None:
    """InputError (400) for a header of ``names`` given on more than one line: which one counts
    would be ours to guess (a proxy may add its own after the client's). Lines a client joined
    by commas are one value, which no token or seq is: refused as that."""
    for name in names:
        if len(connection.headers.getall(name.lower(), [])) > 1:
            raise InputError(
                f"header {name} is given more than once: give it once",
                "input/repeated_header",
            )


def head_tag(seq: int) -> dict[str, str]:
    """The ``ETag`` of an answer carrying the head ``seq``."""
    return {"ETag": f'"{seq}"'}


#: the head's entity tag, on the answers that carry a head, as the document describes it
HEAD_TAG = ResponseHeader(name="ETag", documentation_only=True, description=HEAD_TAG_TEXT)


#: a seq longer than this many digits is one no log reaches
SEQ_DIGITS = 18


def parse_seq_header(
    name: str, value: str | None, minimum: int, *, beyond: int | None = None
) -> int | None:
    """A decimal seq from a header (quotes allowed); InputError (400) for anything else.
    ``beyond``: what a decimal of more than ``SEQ_DIGITS`` digits stands for (a seq past any
    head), where it is not an error."""
    if value is None:
        return None
    text = value.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    if beyond is not None and text.isascii() and text.isdigit() and len(text) > SEQ_DIGITS:
        return beyond
    if not (text.isascii() and text.isdigit()) or len(text) > SEQ_DIGITS or int(text) < minimum:
        raise InputError(
            f"{name} holds a seq: a decimal number of at least {minimum}, not {value[:40]!r}",
            "input/bad_header",
        )
    return int(text)
