"""What an event changed: the difference between two views of the state, as readable paths."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

#: the most characters a changed value is shown in
BRIEF_LIMIT = 80

#: the most entries a changed list names as added, and as removed (the rest are counted)
ENTRIES_NAMED = 8


def changes(before: Any, after: Any, path: str = "", limit: int = 40) -> list[str]:
    """``["empires.red.ap: 12 → 9", …]`` for every leaf that differs (at most ``limit`` lines).
    A value too long to show whole is shown by what differs: a list by the entries added and
    removed (a list of records by the fields of each that changed, when its length is kept),
    anything else cut alike around where the two first differ (``apart``)."""
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
    where = path or "(state)"
    was, now = _json(a), _json(b)
    if len(was) <= BRIEF_LIMIT and len(now) <= BRIEF_LIMIT:
        out.append(f"{where}: {was} → {now}")
    elif isinstance(a, list) and isinstance(b, list):
        _list_diff(a, b, path, out, limit)
    else:
        was, now = apart(was, now, BRIEF_LIMIT)
        out.append(f"{where}: {was} → {now}")


def _list_diff(a: list[Any], b: list[Any], path: str, out: list[str], limit: int) -> None:
    """Two lists too long to show whole: the records at the same places compared field by
    field (when the length is kept and each changed place holds a record on both sides), else
    the entries added and removed, else (the same entries in another order) both cut alike."""
    where = path or "(state)"
    changed = [i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y]
    if len(a) == len(b) and all(isinstance(a[i], dict) and isinstance(b[i], dict) for i in changed):
        for i in changed:
            _diff(a[i], b[i], f"{path}.{i}", out, limit)
            if len(out) >= limit:
                return
        return
    removed, added = _unmatched(a, b), _unmatched(b, a)
    if not added and not removed:
        was, now = apart(_json(a), _json(b), BRIEF_LIMIT)
        out.append(f"{where}: {was} → {now} (the same entries reordered)")
        return
    parts = [
        f"{word} {_named(texts)}"
        for word, texts in (("added", added), ("removed", removed))
        if texts
    ]
    out.append(f"{where}: {'; '.join(parts)} ({len(a)} → {_entries(len(b))})")


def _unmatched(these: list[Any], those: list[Any]) -> list[str]:
    """The entries of ``these`` (as JSON) that ``those`` does not hold, counted as a multiset."""
    left = Counter(_json(x) for x in those)
    out = []
    for x in these:
        text = _json(x)
        if left[text]:
            left[text] -= 1
        else:
            out.append(text)
    return out


def _named(texts: list[str]) -> str:
    shown = ", ".join(_cut(t) for t in texts[:ENTRIES_NAMED])
    more = len(texts) - ENTRIES_NAMED
    return shown if more <= 0 else f"{shown} and {more} more"


def _entries(n: int) -> str:
    return f"{n} entr{'y' if n == 1 else 'ies'}"


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _cut(text: str, limit: int = BRIEF_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _brief(value: Any, limit: int = BRIEF_LIMIT) -> str:
    return _cut(_json(value), limit)


def apart(a: str, b: str, limit: int) -> tuple[str, str]:
    """``a`` and ``b`` each cut to ``limit`` characters alike, the cut starting a little before
    the first character where they differ (``…`` marks what is left out): two long texts that
    differ never show the same text."""
    if len(a) <= limit and len(b) <= limit:
        return a, b
    first = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
    if first is None:
        first = min(len(a), len(b))
    start = max(0, first - limit // 4)
    return _window(a, start, limit), _window(b, start, limit)


def _window(text: str, start: int, limit: int) -> str:
    before = "…" if start else ""
    room = limit - len(before)
    if len(text) - start <= room:
        return before + text[start:]
    return before + text[start : start + room - 1] + "…"
