"""Snapshots: a folded game cached in the vault, holding only what changed in play.

Much of a ruleset's state is fixed by its scenario and never changes in play (Armageddon
Empires' map, card catalogue and card instances: 70 % of its state). States are immutable and
``evolve`` replaces only what an event changes, so such a field of the state is still the very
object of the game's initial state. A snapshot leaves out the fields equal to the initial
state's and names them; decoding it takes them from the initial state, which the arbiter rebuilds
from the game's ``game_created`` (once per process, shared: arbiter/initial.py). No ruleset has
to say which fields they are: the comparison with the initial state says it, field by field, at
every snapshot (identity first, which is what ``evolve`` leaves of an unchanged field).

A snapshot is msgpack ``(seq, hash, meta, from_initial, rest)``: ``from_initial`` the names of the
fields taken from the initial state, ``rest`` the other fields, in the state's field order. A
snapshot written before this format, ``(seq, hash, meta, state)``, still decodes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from warlog.arbiter.fold import Folded
from warlog.arbiter.meta import GameMeta

#: a field unchanged since the initial state is left out only when its encoding is at least this
#: long: a short one costs less to store than rebuilding the initial state costs to fetch it
LEAVE_OUT_BYTES = 256

_SCALARS = (int, str, bool, float, type(None))


def encode(folded: Folded) -> bytes:
    """The snapshot of ``folded``: without the (long) fields equal to its initial state's."""
    state, initial = folded.state, folded.initial
    names: tuple[str, ...] = type(state).__struct_fields__
    from_initial: list[str] = []
    if initial is not None and type(initial) is type(state):
        for name in names:
            value, start = getattr(state, name), getattr(initial, name)
            if (
                not isinstance(value, _SCALARS)
                and (value is start or value == start)
                and len(msgspec.msgpack.encode(value)) >= LEAVE_OUT_BYTES
            ):
                from_initial.append(name)
    kept = tuple(n for n in names if n not in from_initial)
    rest = _part(type(state), kept)(*(getattr(state, n) for n in kept))
    return msgspec.msgpack.encode((folded.seq, folded.hash, folded.meta, from_initial, rest))


def decode(state_type: type, blob: bytes, initial: Callable[[], Any]) -> Folded | None:
    """The folded game a snapshot holds (``initial()``: the game's initial state, asked for
    only when fields are taken from it); None if it cannot be read (a cache: it is not used)."""
    try:
        parts = msgspec.msgpack.decode(blob, type=list[msgspec.Raw])
        if len(parts) == 4:  # the format before fields were left out
            seq, hash_, meta, raw = msgspec.msgpack.decode(
                blob, type=tuple[int, str, GameMeta, msgspec.Raw]
            )
            state: Any = msgspec.msgpack.decode(raw, type=state_type)
            return Folded(seq, hash_, meta, state)
        seq, hash_, meta, from_initial, raw = msgspec.msgpack.decode(
            blob, type=tuple[int, str, GameMeta, tuple[str, ...], msgspec.Raw]
        )
        names: tuple[str, ...] = state_type.__struct_fields__  # type: ignore[attr-defined]
        if not set(from_initial) <= set(names):
            return None
        kept = tuple(n for n in names if n not in from_initial)
        rest: Any = msgspec.msgpack.decode(raw, type=_part(state_type, kept))
        fields = {n: getattr(rest, n) for n in kept}
        start = None
        if from_initial:
            start = initial()
            if type(start) is not state_type:  # None: the initial state cannot be rebuilt
                return None
            fields.update((n, getattr(start, n)) for n in from_initial)
        return Folded(seq, hash_, meta, state_type(**fields), start)
    except (msgspec.DecodeError, TypeError, ValueError):
        return None


_PARTS: dict[tuple[type, tuple[str, ...]], type] = {}


def _part(state_type: type, names: tuple[str, ...]) -> Any:
    """A Struct holding the fields ``names`` of ``state_type`` (with their types), encoded as an
    array in that order; made once per state type and names."""
    part = _PARTS.get((state_type, names))
    if part is None:
        types = {f.name: f.type for f in msgspec.structs.fields(state_type)}
        part = _PARTS[state_type, names] = msgspec.defstruct(
            f"{state_type.__name__}Part", [(n, types[n]) for n in names], array_like=True
        )
    return part
