"""The steps Hypothesis draws: mostly legal commands, and commands that cannot be legal (a wrong
player, a command of another phase, malformed input) or may not be (a field of a legal command
mutated to another value of the same JSON type).

Every choice is a Hypothesis draw of an index, so a failing example shrinks: to fewer steps, to
the first legal command of each list, to legal commands rather than illegal ones. Draws are few
(one for a legal step), as each costs Hypothesis far more than the choice itself.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TypeVar

import msgspec
from hypothesis import strategies as st

from warlog.fuzz.checks import command_key
from warlog.fuzz.example import Example, Step
from warlog.fuzz.sources import Source

T = TypeVar("T")

#: kinds of step and how often each is drawn, in hundredths (a draw shrinks to the first)
KINDS: tuple[tuple[str, int], ...] = (
    ("legal", 80),
    ("mutated", 8),
    ("wrong_player", 4),
    ("other_phase", 4),
    ("malformed", 4),
)
#: how malformed input is made
MALFORMED = ("garbage", "unknown_type", "unknown_player", "extra_field", "wrong_type")
#: input that is not a command at all
GARBAGE = ("{", "[]", "null", '"move"', "{}", '{"type": 3}', '{"type": "x"')
#: a player that plays no game
NOBODY = "nobody"
#: numbers a mutated integer field may take besides the log's own
NUMBERS = (-1, 0, 1, 2, 3, 7, 99, 10**6)


def draw_step(data: st.DataObject, example: Example, source: Source) -> Step:
    """The next step of ``example``, drawn by Hypothesis: one draw picks the kind of step and
    the legal command it starts from (0, where a failure shrinks to, is the first legal
    command), a few more what an illegal kind changes."""
    flat = [c for p in sorted(example.legal) for c in example.legal[p]]
    n = max(len(flat), 1)
    roll, index = divmod(data.draw(st.integers(0, 100 * n - 1)), n)
    kind = kind_of(roll)
    if not flat:  # the game is over: whatever is played must be refused
        return (kind != "malformed" and _other_phase(data, example, source)) or _malformed(
            data, None
        )
    if kind == "legal":
        return Step("legal", msgspec.json.encode(flat[index]).decode())
    base: dict[str, Any] = msgspec.to_builtins(flat[index])
    if kind == "wrong_player":
        idle = [p for p in example.seats if p not in example.legal]
        if idle:
            return Step("wrong_player", _text(base | {"player": pick(data, idle)}))
        kind = "mutated"
    if kind == "mutated":
        step = _mutated(data, source, base, flat)
        if step is not None:
            return step
        kind = "malformed"
    if kind == "other_phase":
        step = _other_phase(data, example, source)
        if step is not None:
            return step
    return _malformed(data, base)


def pick(data: st.DataObject, items: Sequence[T]) -> T:
    """One of ``items``, drawn as its index (the first is where a failure shrinks to)."""
    return items[data.draw(st.integers(0, len(items) - 1))] if len(items) > 1 else items[0]


def kind_of(roll: int) -> str:
    """The kind of step a roll of 0..99 draws (``KINDS``' weights, the first kind at 0)."""
    for kind, weight in KINDS[:-1]:
        if roll < weight:
            return kind
        roll -= weight
    return KINDS[-1][0]


def _text(command: Any) -> str:
    return json.dumps(command, separators=(",", ":"), ensure_ascii=False)


def _mutated(
    data: st.DataObject, source: Source, base: dict[str, Any], legal: list[Any]
) -> Step | None:
    """A legal command with one field (not its type or player) given another value of the same
    JSON type: one the log or the legal commands give that field, or a made-up one. It must be
    accepted if it is itself listed as legal; otherwise it may go either way, but never crash.

    A command of a type whose legal list is complete (``Ruleset.complete_legal``) must be
    refused unless listed: it is given only a value that makes it a command not listed, one
    the legal commands or the log's commands of its type give that field (the values that
    field takes in this game, such as a hive for a placement) or a made-up one, so that a rule
    accepting more than its legal list offers is met within a few hundred examples."""
    fields = [f for f in base if f not in ("type", "player", "dice")]
    if not fields:
        return None
    field = pick(data, fields)
    value = base[field]
    listed = [msgspec.to_builtins(c) for c in legal]
    seen = [c[field] for c in listed if field in c]
    kind = base.get("type")
    complete = kind in source.ruleset.complete_legal
    logged = (source.typed_values.get(str(kind), {}) if complete else source.values).get(field, [])
    pool = [v for v in [*seen, *logged] if v != value]
    candidates = [v for v in pool if type(v) is type(value)] + _made_up(value, pool)
    if complete:
        keys = {command_key(c) for c in listed}
        unlisted = [v for v in candidates if command_key(base | {field: v}) not in keys]
        candidates = list({command_key(v): v for v in unlisted}.values())
    if not candidates:
        return None
    return Step("mutated", _text(base | {field: pick(data, candidates)}))


def _made_up(value: Any, pool: list[Any]) -> list[Any]:
    """Values of ``value``'s JSON type that nothing in the game gave."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [n for n in NUMBERS if n != value]
    if isinstance(value, str):
        return ["", "nowhere"]
    if isinstance(value, list):
        out: list[Any] = [[]]
        if value:
            out += [value[:-1], [*value, value[0]], list(reversed(value))]
        items = [x for v in pool if isinstance(v, list) for x in v]
        if items and value:
            out.append([*value[:-1], items[0]])
        return [v for v in out if v != value]
    return []


def _other_phase(data: st.DataObject, example: Example, source: Source) -> Step | None:
    """A command the log recorded, of a type that does not answer what the game waits for now,
    issued by a player the game waits for (or anyone once it is over): always refused."""
    state = example.arb.folded(example.game).state
    decision = example.ruleset.decision(state)
    answers = set(decision.answers) if decision is not None else set()
    pool = [c for c in source.commands if c.get("type") not in answers]
    if not pool:
        return None
    command = pick(data, pool)
    player = pick(data, sorted(example.legal) or example.seats)
    return Step("other_phase", _text(command | {"player": player}))


def _malformed(data: st.DataObject, base: dict[str, Any] | None) -> Step:
    """Input that is not a command of the game: refused as bad input (exit 1)."""
    how = pick(data, MALFORMED if base is not None else ("garbage",))
    if how == "garbage" or base is None:
        return Step("malformed", pick(data, GARBAGE))
    if how == "unknown_type":
        return Step("malformed", _text(base | {"type": "teleport"}))
    if how == "unknown_player":
        return Step("malformed", _text(base | {"player": NOBODY}))
    if how == "extra_field":
        return Step("malformed", _text(base | {"sneaky": 1}))
    field = pick(data, [f for f in base if f != "type"])
    value = base[field]
    wrong = "seven" if isinstance(value, int | bool) else 7
    return Step("malformed", _text(base | {field: wrong}))
