"""What an event changed: the difference between two views of the state, as readable paths."""

from __future__ import annotations

from typing import Any


def changes(before: Any, after: Any, path: str = "", limit: int = 40) -> list[str]:
    """``["empires.red.ap: 12 → 9", …]`` for every leaf that differs (at most ``limit`` lines)."""
    out: list[str] = []
    _diff(before, after, path, out, limit)
    return out


def _diff(a: Any, b: Any, path: str, out: list[str], limit: int) -> None:
    if len(out) >= limit or a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            sub = f"{path}.{key}" if path else str(key)
            if key not in b:
                out.append(f"{sub}: removed")
            elif key not in a:
                out.append(f"{sub}: added {_brief(b[key])}")
            else:
                _diff(a[key], b[key], sub, out, limit)
            if len(out) >= limit:
                return
        return
    out.append(f"{path or '(state)'}: {_brief(a)} → {_brief(b)}")


def _brief(value: Any, limit: int = 80) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 1] + "…"
