"""What the vault opens of a stored record, checked against the record's seals: the audit's read
of the arbiter's own games.

A record is stored in its chained form (each hidden value a seal ``{"sealed": H}``); the vault
holds its clear data and the arbiter's key gives each seal's salt. Every opening is checked
(``H = sha256(salt + "\\n" + compact(value))``) and the clear data the rules re-derive from is
made from the chained data and the opened values, never taken from the vault unchecked.

This is the audit's hottest path (most Armageddon Empires events hold a seal), so it parses and
writes JSON with msgspec, which writes exactly the bytes ``json.dumps(..., separators=(",",
":"), ensure_ascii=False)`` writes for everything but floats; a record holding a float (no event
does: the contract has none), or anything msgspec will not read, is read again with ``json``,
with the same result as before.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any, NamedTuple

import msgspec

from warlog.domain.core.seal import (
    compact,
    get_path,
    is_seal,
    opening_problem,
    seals_in,
    set_path,
    steps,
)


class Read(NamedTuple):
    """A record's data as the audit reads it."""

    chained: str  # the chained data, in its compact form (what the hash covers)
    clear: str | None  # the clear data; None while a seal stays closed
    sealed: list[str]  # the paths of the record's seals, in the data's order
    salts: list[tuple[str, str]]  # (path, salt) of each seal opened
    problems: list[str]  # one line per seal that does not open


def _no_float(literal: str) -> Any:
    raise ValueError("a float")  # msgspec reports it as a DecodeError: read with json


_DECODER = msgspec.json.Decoder(float_hook=_no_float)
_ENCODER = msgspec.json.Encoder()


def _loads_fast(text: str) -> Any:
    return _DECODER.decode(text)


def _dumps_fast(value: Any) -> str:
    return _ENCODER.encode(value).decode()


def read_opened(data: str, clear: str, salts: dict[str, str]) -> Read | None:
    """The chained ``data`` of a record read with the vault's ``clear`` data and the ``salts``
    of the paths the vault opens; None if either is not JSON (the decode check reports it)."""
    try:
        sealed = _sealed_again(data, clear, salts)
        if sealed is not None:
            return sealed
        return _read(data, clear, salts, _loads_fast, _dumps_fast)
    except msgspec.DecodeError:
        pass
    try:
        return _read(data, clear, salts, json.loads, compact)
    except ValueError:
        return None


def _sealed_again(data: str, clear: str, salts: dict[str, str]) -> Read | None:
    """``_read``'s answer when every seal opens, read the other way round: the vault's clear
    data, each value at a salt's path replaced by the seal its value and salt hash to, must be
    ``data`` byte for byte (so ``data`` is in its compact form, holds a seal at each of those
    paths and nowhere else, and each opens); None when it is not, and ``_read`` looks closer."""
    clear_obj = _DECODER.decode(clear)
    encode, sha256 = _ENCODER.encode, hashlib.sha256
    text = encode(clear_obj)
    hashes: dict[str, str] = {}
    seals: list[tuple[str, dict[str, str]]] = []
    try:
        for path, salt in salts.items():
            *above, last = steps(path)
            place = clear_obj
            for step in above:
                place = place[step]
            digest = sha256(b"%s\n%s" % (salt.encode(), encode(place[last]))).hexdigest()
            seal = place[last] = {"sealed": digest}
            seals.append((path, seal))
            hashes[path] = digest
        for path, seal in seals:  # each still there: no path within another's sealed value
            if get_path(clear_obj, path) is not seal:
                return None
    except (KeyError, IndexError, TypeError):
        return None
    if _ENCODER.encode(clear_obj) != data.encode() or data.count('"sealed":') != len(salts):
        return None
    sealed = list(salts)
    if len(sealed) > 1:  # in the data's order, as the walk finds them
        sealed.sort(key=lambda path: data.find(hashes[path]))
    return Read(data, text.decode(), sealed, [(path, salts[path]) for path in sealed], [])


def _read(
    data: str,
    clear: str,
    salts: dict[str, str],
    loads: Callable[[str], Any],
    dumps: Callable[[Any], str],
) -> Read:
    chained_obj = loads(data)
    clear_obj = loads(clear)
    chained = dumps(chained_obj)
    sealed = _seal_paths(data, chained_obj, salts)
    values: dict[str, Any] = {}
    opened: list[tuple[str, str]] = []
    problems: list[str] = []
    for path in sealed:
        salt = salts.get(path)
        if salt is None:
            continue  # the vault does not open it: it stays closed
        seal = get_path(chained_obj, path)["sealed"]
        try:
            value = get_path(clear_obj, path)
        except (KeyError, IndexError, TypeError):
            problems.append(f"the key file holds no value for the seal at {path}")
            continue
        if dumps is compact:
            problem = opening_problem({"sealed": seal, "value": value, "salt": salt})
        else:
            digest = hashlib.sha256(f"{salt}\n{dumps(value)}".encode()).hexdigest()
            problem = None if digest == seal else "the value and salt do not hash to the seal"
        if problem is not None:
            problems.append(f"the seal at {path} does not open: {problem}")
            continue
        values[path] = value
        opened.append((path, salt))
    text = None
    if len(values) == len(sealed):
        for path, value in values.items():  # chained_obj is ours: fill its seals in place
            set_path(chained_obj, path, value)
        text = dumps(chained_obj)
        if dumps(clear_obj) != text:
            problems.append(OUTSIDE_THE_SEALS)
    return Read(chained, text, sealed, opened, problems)


#: the vault's clear form is not the record's data with its seals opened: it differs where no
#: seal is, and it is what the arbiter folds (its state and views), not what the audit re-derives
OUTSIDE_THE_SEALS = (
    "the key file's clear form of this event differs from the log's data outside its seals: the "
    "state the arbiter shows is not the one the log holds"
)


def _seal_paths(data: str, chained: Any, salts: dict[str, str]) -> list[str]:
    """The paths of every seal in ``chained`` (parsed from ``data``). Usually the vault's paths:
    each is checked to be a seal, and the count of ``"sealed":`` keys in the text (a quote in a
    string is escaped, so each is a key) says there is no other; else a walk of the data."""
    paths = []
    seen: set[int] = set()
    for path in salts:
        try:
            found = get_path(chained, path)
        except (KeyError, IndexError, TypeError):
            break
        if not is_seal(found) or len(found) != 1 or id(found) in seen:
            break
        seen.add(id(found))
        paths.append(path)
    else:
        if data.count('"sealed":') == len(paths):
            if len(paths) > 1:  # in the data's order, as the walk finds them
                paths.sort(key=lambda path: data.find(get_path(chained, path)["sealed"]))
            return paths
    return [path for path, _ in seals_in(chained)]
