"""A careful forger of exported logs, written apart from warlog (as the stand-alone verifier
is): it edits an export's events, then recomputes every opened seal and the whole chain, so that
only what a verifier derives can tell. Used by the verifier's and the audit's tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from hashlib import sha256
from pathlib import Path
from typing import Any


def chained(value: object) -> object:
    """The form the chain covers: every seal closed (a forger's helper, as the verifier does)."""
    if isinstance(value, dict) and "sealed" in value and set(value) <= {"sealed", "value", "salt"}:
        return {"sealed": value["sealed"]}
    if isinstance(value, dict):
        return {k: chained(v) for k, v in value.items()}
    return [chained(v) for v in value] if isinstance(value, list) else value


def resealed(value: object) -> object:
    """Every opened seal's hash recomputed over its (possibly forged) value."""
    if isinstance(value, dict) and "value" in value and set(value) == {"sealed", "value", "salt"}:
        text = json.dumps(value["value"], separators=(",", ":"), ensure_ascii=False)
        return {**value, "sealed": sha256(f"{value['salt']}\n{text}".encode()).hexdigest()}
    if isinstance(value, dict):
        return {k: resealed(v) for k, v in value.items()}
    return [resealed(v) for v in value] if isinstance(value, list) else value


def forge(source: Path, out: Path, edit: Callable[[list[dict[str, Any]]], None]) -> Path:
    """A careful forger's copy of an export: ``edit`` changes its events, then every opened
    seal and the whole chain are recomputed, so only what the verifier derives can tell."""
    events = [json.loads(line) for line in source.read_text().splitlines() if line.strip()]
    edit(events)
    prev, lines = "0" * 64, []
    for e in events:
        e["data"] = resealed(e["data"])
        text = json.dumps(chained(e["data"]), separators=(",", ":"), ensure_ascii=False)
        e["prev"], e["hash"] = prev, ""
        e["hash"] = prev = sha256(
            f"{prev}\n{e['seq']}\n{e['type']}\n{e['at']}\n{text}".encode()
        ).hexdigest()
        lines.append(json.dumps(e, ensure_ascii=False))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out
