"""The hash chain (contract): each event's hash covers its predecessor's hash and its own content."""

from __future__ import annotations

import hashlib

GENESIS = "0" * 64


def link(prev: str, seq: int, type_: str, at: str, data: str) -> str:
    """``sha256(prev + "\\n" + str(seq) + "\\n" + type + "\\n" + at + "\\n" + data)`` as hex."""
    return hashlib.sha256(f"{prev}\n{seq}\n{type_}\n{at}\n{data}".encode()).hexdigest()
