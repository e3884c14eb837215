"""Forging exported logs, and the independent judge of whether a forged log is a legal game."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import msgspec
from hypothesis import strategies as st

from tests.forger import chained
from warlog.arbiter.application import Arbiter
from warlog.domain.core.errors import WarlogError
from warlog.domain.core.events import GameCreated
from warlog.domain.core.seal import cleared, is_seal, stripped
from warlog.eventstore.chain import GENESIS, link
from warlog.eventstore.memory_store import MemoryStore
from warlog.eventstore.records import Record


def rechain(records: list[Record]) -> list[Record]:
    """What a forger who recomputes the chain does: renumber from 1 and re-link every hash."""
    return relink([msgspec.structs.replace(r, seq=seq) for seq, r in enumerate(records, start=1)])


def relink(records: list[Record]) -> list[Record]:
    """Every ``prev`` and hash recomputed in order, each record keeping the seq it states, each
    hash over the chained form (opened seals closed again) as a careful forger computes it."""
    out: list[Record] = []
    prev = GENESIS
    for r in records:
        h = link(prev, r.seq, r.type, r.at, _chained(r.data))
        out.append(Record(r.seq, r.type, r.data, r.at, prev, h))
        prev = h
    return out


def _chained(data: str) -> str:
    if '"sealed"' not in data:
        return data
    return json.dumps(chained(json.loads(data)), separators=(",", ":"), ensure_ascii=False)


def forged(records: list[Record], seq: int, change: dict[str, Any]) -> list[Record]:
    """The log with fields of event ``seq``'s data replaced by ``change`` and the chain
    recomputed (a careful forger)."""
    out = list(records)
    r = out[seq - 1]
    data = json.dumps({**json.loads(r.data), **change}, separators=(",", ":"), ensure_ascii=False)
    out[seq - 1] = Record(r.seq, r.type, data, r.at, "", "")
    return relink(out)


def _mutate_value(value: Any, draw: Callable[[Any], Any]) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + draw(st.sampled_from([-2, -1, 1, 2, 7]))
    if isinstance(value, str):
        return draw(
            st.sampled_from(
                [value + "x", "", value[::-1] + "_", "red", "blue", "orks", "imperials"]
            )
        )
    if isinstance(value, list):
        if value and draw(st.booleans()):
            i = draw(st.integers(0, len(value) - 1))
            return [*value[:i], _mutate_value(value[i], draw), *value[i + 1 :]]
        return value[:-1] if value else [1]
    if isinstance(value, dict):
        if value and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(value)))
            return {**value, key: _mutate_value(value[key], draw)}
        return {**value, "forged": 1}
    return 0 if value is None else None


@st.composite
def forgeries(
    draw: Callable[[Any], Any], records: list[Record], tags: list[str]
) -> tuple[str, list[Record]]:
    """One forgery of ``records``: a changed type or data, a deletion, an insertion or a swap."""
    n = len(records)
    kind = draw(st.sampled_from(["data", "type", "delete", "insert", "swap"]))
    out = list(records)
    i = draw(st.integers(0, n - 1))
    if kind == "data":
        data = json.loads(out[i].data)
        forged = _mutate_value(data, draw)
        if forged == data:
            forged = {**data, "forged": 1}
        text = json.dumps(forged, separators=(",", ":"), ensure_ascii=False)
        out[i] = Record(out[i].seq, out[i].type, text, out[i].at, out[i].prev, out[i].hash)
    elif kind == "type":
        other = draw(st.sampled_from([t for t in tags if t != out[i].type] or ["forged"]))
        out[i] = Record(out[i].seq, other, out[i].data, out[i].at, out[i].prev, out[i].hash)
    elif kind == "delete":
        del out[i]
    elif kind == "insert":
        j = draw(st.integers(0, n - 1))
        out.insert(i, out[j])
    else:
        j = draw(st.integers(0, n - 1).filter(lambda x: x != i)) if n > 1 else i
        if records[i].type == records[j].type and records[i].data == records[j].data:
            kind = "data"
            data = json.loads(out[i].data)
            text = json.dumps({**data, "forged": 1}, separators=(",", ":"))
            out[i] = Record(out[i].seq, out[i].type, text, out[i].at, out[i].prev, out[i].hash)
        else:
            out[i], out[j] = out[j], out[i]
    return kind, out


def is_legal_game(records: list[Record], rulesets: Callable[[str], Any], seed: bytes) -> bool:
    """True when the application, fed the log's commands with the same seed, writes exactly the
    same events in their chained form (timestamps aside): the forged log is then itself a legal
    game."""
    if not records or records[0].type != "game_created":
        return False
    try:
        forms = [stripped(json.loads(r.data)) for r in records]
        first = cleared(forms[0][0], {p: v for p, (v, _) in forms[0][1].items()})
        created = msgspec.convert(first, GameCreated)
        arbiter = Arbiter(MemoryStore(), rulesets, seeds=lambda: seed)
        game = arbiter.create(created, seed)
        for r, (data, openings) in zip(records[1:], forms[1:], strict=True):
            if r.type == "command_issued":
                # the command as the arbiter was given it: its opened values in the clear
                command = cleared(data, {p: v for p, (v, _) in openings.items()})["command"]
                if data.get("player") != command.get("player") or is_seal(command.get("dice")):
                    return False
                arbiter.play(game, json.dumps(command))
            elif r.type == "dice_revealed":
                arbiter.reveal(game)
        produced = [(r.type, json.loads(r.data)) for r in arbiter.records(game)]
        return produced == [(r.type, d) for r, (d, _) in zip(records, forms, strict=True)]
    except (WarlogError, KeyError, TypeError, ValueError, AttributeError, msgspec.ValidationError):
        return False
