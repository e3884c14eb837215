"""The steps Hypothesis draws: mostly legal commands, and commands that cannot be legal (a wrong
player, a command of another phase, malformed input) or may not be (a field of a legal command
mutated to another value of the same JSON type).

Every choice is a Hypothesis draw of an index, so a failing example shrinks: to fewer steps, to
the first legal command of each list, to legal commands rather than illegal ones. Each choice is
about as even as its weights say (``below``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TypeVar, get_args

import msgspec
from hypothesis import strategies as st

from warlog.domain.core.ruleset import AnyRuleset
from warlog.fuzz.checks import command_key
from warlog.fuzz.example import Example, Step
from warlog.fuzz.kinds import Kinds
from warlog.fuzz.sources import Source

T = TypeVar("T")

#: kinds of step and how often each is drawn, in hundredths (a draw shrinks to the first); the
#: mutated steps, the only ones that meet a check a rule dropped (an enemy's engineers ordered),
#: were 8 and the three others 4 each, which left such a bug unfound in 20 seeds of 300 examples
KINDS: tuple[tuple[str, int], ...] = (
    ("legal", 80),
    ("mutated", 14),
    ("wrong_player", 2),
    ("other_phase", 2),
    ("malformed", 2),
)
#: what a kind of step becomes where the game gives it nothing to work on (docs/fuzzing.md)
FALLBACKS = {
    "wrong_player": "mutated",  # every seat is one the game waits for
    # no legal command with a field to give another value (a roll awaited, say): another
    # command the game cannot take now is the nearest
    "mutated": "other_phase",
    "other_phase": "malformed",  # no command of the log answers something else
}
#: how malformed input is made
MALFORMED = ("garbage", "unknown_type", "unknown_player", "extra_field", "wrong_type")
#: input that is not a command at all
GARBAGE = ("{", "[]", "null", '"move"', "{}", '{"type": 3}', '{"type": "x"')
#: a player that plays no game
NOBODY = "nobody"
#: numbers a mutated integer field may take besides the log's own
NUMBERS = (-1, 0, 1, 2, 3, 7, 99, 10**6)


def draw_step(data: st.DataObject, example: Example, source: Source) -> Step:
    """The next step of ``example``, drawn by Hypothesis: a roll picks the kind of step (0,
    where a failure shrinks to, is a legal one), a draw the legal command it starts from (0:
    the first), a few more what an illegal kind changes. A kind that finds nothing to work on
    falls back to another (``FALLBACKS``); once the game is over, every step is a command of
    another phase, or malformed. The step says the kind drawn where it is of another."""
    drawn = kind_of(roll(data))
    step = _step(data, example, source, drawn)
    return step if step.kind == drawn else msgspec.structs.replace(step, drawn=drawn)


def _step(data: st.DataObject, example: Example, source: Source, kind: str) -> Step:
    """A step of the kind drawn, or of the kind it falls back to."""
    flat = [c for p in sorted(example.legal) for c in example.legal[p]]
    if not flat:  # the game is over: whatever is played must be refused
        return (kind != "malformed" and _other_phase(data, example, source)) or _malformed(
            data, None
        )
    if kind == "wrong_player" and all(p in example.legal for p in example.seats):
        kind = FALLBACKS[kind]
    if kind == "mutated":
        step = _mutated(data, example, source, flat)
        if step is not None:
            return step
        kind = FALLBACKS[kind]
    if kind == "other_phase":
        step = _other_phase(data, example, source)
        if step is not None:
            return step
        kind = FALLBACKS[kind]
    chosen = pick(data, flat)
    if kind == "legal":
        return Step("legal", msgspec.json.encode(chosen).decode())
    base: dict[str, Any] = msgspec.to_builtins(chosen)
    if kind == "wrong_player":
        idle = [p for p in example.seats if p not in example.legal]
        return Step("wrong_player", _text(base | {"player": pick(data, idle)}))
    return _malformed(data, base)


def pick(data: st.DataObject, items: Sequence[T]) -> T:
    """One of ``items``, each about as likely as another, drawn as its index (``below``: the
    first is where a failure shrinks to)."""
    return items[below(data, len(items))] if len(items) > 1 else items[0]


#: how many times over a choice among n is drawn from (0..n x this - 1, taken modulo n)
SPREAD = 1000


def roll(data: st.DataObject) -> int:
    """A roll of 0..99, each about as likely as another (``below``)."""
    return below(data, 100)


def below(data: st.DataObject, n: int) -> int:
    """A number of 0..n-1, each about as likely as another, drawn as one integer of
    0..n x ``SPREAD`` - 1 taken modulo n. Hypothesis draws an integer's small values far more
    often than the others (a draw of 0..99 made a step legal five times in six, not four in
    five; of an index, the first items the most), but spreads the integers of a range this
    wide far enough that their remainders are about even. One integer a choice: a number made
    of fair coins, as even, reached the rare events less often (on the Battle for Armageddon
    edges source, twin games in 3 seeds of 12, against 9 so). 0, where Hypothesis starts and
    shrinks to, gives 0."""
    return data.draw(st.integers(0, n * SPREAD - 1)) % n


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
    data: st.DataObject, example: Example, source: Source, legal: list[Any]
) -> Step | None:
    """A legal command with one field (not its type or player) given another value of the same
    JSON type; None where no legal command has a field to mutate. The command's type is drawn
    first, evenly among the types listed whose commands have such a field (a type offered once,
    such as a hero joining a unit, is mutated as often as one offered in ninety forms, such as
    a move), then one of its commands, then the field, then the value: one the legal commands
    give that field, one the log's commands gave it (those of the command's type first, then
    those of any type with a field of that name), one of the same kind in the state (``Kinds``:
    for a unit, every unit of the game, the other side's and the destroyed ones too) or a
    made-up one: each of these four groups (the last two are one) that holds a value is drawn
    as often as another, then a value of it (a hive placed at in the log is not lost among
    every area of the board). It must be accepted if it is itself listed as legal; otherwise it may go either
    way, but never crash.

    A command of a type whose legal list is complete (``Ruleset.complete_legal``) must be
    refused unless listed: it is given only a value that makes it a command not listed, so
    that a rule accepting more than its legal list offers (an enemy unit joined, a placement
    over the limits) is met within a few hundred examples; and, ``UNUSED_ODDS`` of the time
    where the state holds one, a value of the field's kind that no legal command of the type
    gives the field (``_unused``), the likeliest to pass a check a rule dropped."""
    listed = [msgspec.to_builtins(c) for c in legal]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for command in listed:
        if _fields(command):
            by_type.setdefault(str(command.get("type")), []).append(command)
    if not by_type:
        return None
    base = pick(data, by_type[pick(data, list(by_type))])
    field = pick(data, _fields(base))
    value = base[field]
    kind = base.get("type")
    kindred = _kindred(value, Kinds(example.arb.folded(example.game).state))
    if kind in source.ruleset.complete_legal:
        given = [c[field] for c in by_type[str(kind)] if field in c]
        unused = _unused(value, kindred, given, listed)
        if unused and below(data, UNUSED_ODDS[1]) < UNUSED_ODDS[0]:
            return Step("mutated", _text(base | {field: pick(data, unused)}))
    logged = source.values.get(field, [])
    groups = [
        [c[field] for c in listed if field in c],
        source.typed_values.get(str(kind), {}).get(field, []),
        logged,
        kindred,
    ]
    pool = [v for group in groups for v in group]
    groups = [[v for v in group if type(v) is type(value)] for group in groups]
    groups[-1] += _made_up(value, pool)  # with the state's: what neither log nor list gave
    keys = {command_key(c) for c in listed} if kind in source.ruleset.complete_legal else set()
    drawn: set[str] = {command_key(value)}  # each value once, in the first group giving it
    for group in groups:
        kept = {}
        for v in group:
            key = command_key(v)
            if key not in drawn and command_key(base | {field: v}) not in keys:
                kept[key] = v
        drawn |= set(kept)
        group[:] = list(kept.values())
    groups = [group for group in groups if group]
    if not groups:
        return None
    return Step("mutated", _text(base | {field: pick(data, pick(data, groups))}))


#: how often, as (in, out of), a mutated command of a type whose legal list is complete is given
#: a value of its field's kind that no legal command of the type gives the field (``_unused``),
#: where the state holds one, rather than a value of the four groups: the values a dropped check
#: lets through (the other side's unit, a destroyed one), which the groups spread among many
#: others (a planted Armageddon Empires that lets an empire lay a minefield with the other's
#: engineers was found so by 4 seeds of 1..20 with 300 examples, by none before)
UNUSED_ODDS = (3, 4)


def _unused(value: Any, kindred: list[Any], given: list[Any], listed: list[Any]) -> list[Any]:
    """The values of ``kindred`` of ``value``'s JSON type that no legal command of the type
    gives the field (``given``), each once; of those, the ones that no legal command names in
    any field (``listed``: not the player's own pieces that may do something else now, but the
    other side's and the destroyed ones) where there are any."""
    keys = {command_key(v) for v in given}
    out: dict[str, Any] = {}
    for v in kindred:
        key = command_key(v)
        if type(v) is type(value) and key not in keys:
            out.setdefault(key, v)
    named = {command_key(v) for c in listed for f in _fields(c) for v in _items(c[f])}
    unnamed = [v for v in out.values() if not {command_key(x) for x in _items(v)} & named]
    return unnamed or list(out.values())


def _items(value: Any) -> list[Any]:
    """A list's items, or the value alone."""
    return value if isinstance(value, list) else [value]


#: the fields of a command no mutated step changes
FIXED_FIELDS = ("type", "player", "dice")


def _fields(command: dict[str, Any]) -> list[str]:
    """The fields of a command a mutated step may change."""
    return [f for f in command if f not in FIXED_FIELDS]


def mutable_types(ruleset: AnyRuleset) -> set[str]:
    """The command types of ``ruleset`` with a field a mutated step may change."""
    return {
        cls.__struct_config__.tag
        for cls in get_args(ruleset.command_type)
        if any(f not in FIXED_FIELDS for f in cls.__struct_fields__)
    }


def _kindred(value: Any, kinds: Kinds) -> list[Any]:
    """Values of ``value``'s kind in the state: for a string, its kindred; for a list of
    strings, the list with its last item given each of that item's kindred it does not hold."""
    if isinstance(value, list):
        if not value or not isinstance(value[-1], str):
            return []
        return [[*value[:-1], k] for k in kinds.kindred(value[-1]) if k not in value]
    return kinds.kindred(value)


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
