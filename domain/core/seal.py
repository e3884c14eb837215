"""Sealed values: what some player may not see never enters the hash chain in the clear.

A ruleset marks a field some players may not see where it declares it:
``card: Annotated[str, Hidden(owner="empire")]`` (only the empire named by the event's ``empire``
field may see it), ``Hidden()`` (no player may: the referee's, until the reveal), or
``Hidden(owner="roller", when="hidden")`` (sealed only when the ``hidden`` field is true: a die
that picked something secret). Commands are marked the same way; ``command_issued`` seals the
marked fields of the command it records.

In the chained ``data`` a sealed value is ``{"sealed": H}`` with (ARCHITECTURE.md, "Hidden
information in the log"):

    salt = HMAC-SHA256(key, f"seal:{stream}:{seq}:{path}")        as hex
    H    = sha256(salt + "\\n" + v)                                 as hex, v the value's compact JSON

where ``key`` is the game's secret seed, ``stream`` its dice stream, ``seq`` the seq the dice
derivation uses for the event, and ``path`` the field's place in ``data`` (keys joined by dots,
list positions as numbers: ``command.count``, ``faces``, ``cards``). An opened seal is
``{"sealed": H, "value": V, "salt": S}``: whoever holds it checks H, and drops the two extra keys
to check the chain.

Everything here is pure: the application holds the keys and the clear values.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import typing
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import msgspec

#: a sealed value's hash, as the chain holds it
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


class Hidden:
    """The marker of a field some players may not see (use it in ``typing.Annotated``).

    ``owner``: the name of the field, on the same object, holding the one player entitled to
    see the value (None: no player, only the referee until the reveal). ``when``: the name of a
    boolean field; the value is sealed only when that field is true. ``since``: the version of
    the ruleset that began to seal it: the games begun under an earlier version keep it in the
    clear, as their logs hold it (None: every version). ``present_since``: on a Struct that
    omits its defaults, the version since which the field is recorded, sealed, even at its
    default, so that whether it was given does not show (``recorded_with``; None: a default is
    left out, as the encoding leaves it).
    """

    __slots__ = ("owner", "present_since", "since", "when")

    def __init__(
        self,
        owner: str | None = None,
        when: str | None = None,
        since: int | None = None,
        present_since: int | None = None,
    ) -> None:
        self.owner = owner
        self.when = when
        self.since = since
        self.present_since = present_since

    def __repr__(self) -> str:
        return (
            f"Hidden(owner={self.owner!r}, when={self.when!r}, since={self.since!r}, "
            f"present_since={self.present_since!r})"
        )

    def present(self, version: int | None) -> bool:
        """Whether a game of ``version`` (None: the newest) records the field at its default."""
        return self.present_since is not None and (version is None or version >= self.present_since)


#: a secret of one event: its path in ``data`` and the player entitled to see it (None: none)
Secret = tuple[str, str | None]


@functools.cache
def hidden_fields(cls: type) -> tuple[tuple[str, Hidden], ...]:
    """The fields of a Struct class marked ``Hidden``, in declaration order."""
    hints = typing.get_type_hints(cls, include_extras=True)
    out = []
    for name in getattr(cls, "__struct_fields__", ()):
        for meta in getattr(hints.get(name), "__metadata__", ()):
            if isinstance(meta, Hidden):
                out.append((name, meta))
    return tuple(out)


def secrets_of(obj: msgspec.Struct, prefix: str = "", version: int | None = None) -> list[Secret]:
    """The secrets of a Struct instance: each marked field whose condition holds and which its
    encoding carries (a default left out by ``omit_defaults`` carries nothing to seal, unless
    the mark keeps it ``present_since`` the game's version), in a game of its ruleset's
    ``version`` (None: the newest; a mark ``since`` a later one is left out)."""
    fields, omit = _marks(type(obj))
    if not fields:
        return []
    out: list[Secret] = []
    for name, mark, default in fields:
        if mark.when is not None and not getattr(obj, mark.when):
            continue
        if mark.since is not None and version is not None and version < mark.since:
            continue
        value = getattr(obj, name)
        if omit and value == default and not mark.present(version):
            continue
        owner = None if mark.owner is None else str(getattr(obj, mark.owner))
        out.append((f"{prefix}{name}", owner))
    return out


def recorded_with(obj: msgspec.Struct, version: int | None = None) -> dict[str, Any]:
    """``obj`` as its encoding gives it (``msgspec.to_builtins``), with every marked field it
    left out at its default that the mark keeps ``present_since`` ``version`` (None: the newest)
    put back, each in its place, so that the keys and their order never tell whether it was
    given."""
    out: dict[str, Any] = msgspec.to_builtins(obj)
    fields, omit = _marks(type(obj))
    kept = [name for name, mark, _ in fields if omit and mark.present(version) and name not in out]
    if not kept:
        return out
    out.update((name, msgspec.to_builtins(getattr(obj, name))) for name in kept)
    config = type(obj).__struct_config__
    order = [config.tag_field, *type(obj).__struct_fields__]
    return {key: out[key] for key in order if key in out}


_NO_DEFAULT = object()


@functools.cache
def _marks(cls: type) -> tuple[tuple[tuple[str, Hidden, Any], ...], bool]:
    """``hidden_fields`` of a Struct class, each with its default, and whether the class
    omits defaults when it is encoded: read once per class."""
    fields = tuple((name, mark, _default(cls, name)) for name, mark in hidden_fields(cls))
    return fields, bool(fields) and cls.__struct_config__.omit_defaults  # type: ignore[attr-defined]


@functools.cache
def _default(cls: type, name: str) -> Any:
    """The default of field ``name`` (``_NO_DEFAULT`` when it has none)."""
    for info in msgspec.structs.fields(cls):
        if info.name == name:
            if info.default is not msgspec.NODEFAULT:
                return info.default
            if info.default_factory is not msgspec.NODEFAULT:
                return info.default_factory()
    return _NO_DEFAULT


# ---------------------------------------------------------------------- the arithmetic


def compact(value: Any) -> str:
    """A value's compact JSON, as the chain writes ``data``."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def salt_for(key: bytes, stream: str, seq: int, path: str) -> str:
    """``HMAC-SHA256(key, f"seal:{stream}:{seq}:{path}")`` as hex."""
    inner_pad, outer_pad = _pads(key)
    return _hmac(inner_pad, outer_pad, f"seal:{stream}:{seq}:{path}")


def salts_for(key: bytes, stream: str, seq: int, paths: Iterable[str]) -> dict[str, str]:
    """``salt_for`` each of ``paths`` of one event, by path."""
    inner_pad, outer_pad = _pads(key)
    start = f"seal:{stream}:{seq}:"
    return {path: _hmac(inner_pad, outer_pad, f"{start}{path}") for path in paths}


def _hmac(inner_pad: Any, outer_pad: Any, message: str) -> str:
    # RFC 2104 on the key's two padded blocks, hashed once per key: a salt costs one message's
    # hashing and two copies (the ``hmac`` module's own objects cost twice as much per salt)
    inner = inner_pad.copy()
    inner.update(message.encode())
    outer = outer_pad.copy()
    outer.update(inner.digest())
    return outer.hexdigest()


@functools.lru_cache(maxsize=64)
def _pads(key: bytes) -> tuple[Any, Any]:
    """SHA-256 having hashed the key's inner and outer HMAC block (RFC 2104)."""
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    block = key.ljust(_BLOCK, b"\0")
    return (
        hashlib.sha256(bytes(b ^ 0x36 for b in block)),
        hashlib.sha256(bytes(b ^ 0x5C for b in block)),
    )


#: SHA-256's block size in bytes, the HMAC key's padded length
_BLOCK = 64


def seal_for(salt: str, value: Any) -> str:
    """``sha256(salt + "\\n" + compact(value))`` as hex."""
    return hashlib.sha256(f"{salt}\n{compact(value)}".encode()).hexdigest()


# ---------------------------------------------------------------------- paths in data


@functools.lru_cache(maxsize=4096)
def steps(path: str) -> tuple[str | int, ...]:
    """The keys and list positions of ``path``, in order."""
    return tuple(int(part) if part.isdigit() else part for part in path.split("."))


def get_path(data: Any, path: str) -> Any:
    """The value at ``path`` in JSON builtins; KeyError/IndexError if there is none."""
    for step in steps(path):
        data = data[step]
    return data


def set_path(data: Any, path: str, value: Any) -> None:
    """Put ``value`` at ``path`` in JSON builtins (in place); KeyError/IndexError if the place
    above it does not exist."""
    *above, last = steps(path)
    for step in above:
        data = data[step]
    data[last] = value


def is_seal(value: Any) -> bool:
    """True for ``{"sealed": H}`` and for an opened seal ``{"sealed": H, "value": V, "salt": S}``."""
    return (
        isinstance(value, dict)
        and (value.keys() == {"sealed"} or value.keys() == {"sealed", "value", "salt"})
        and isinstance(value["sealed"], str)
        and _HEX64.fullmatch(value["sealed"]) is not None
    )


def seals_in(data: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every seal in ``data`` (chained or opened), with its path."""
    if is_seal(data):
        yield path, data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from seals_in(value, f"{path}.{key}" if path else str(key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from seals_in(value, f"{path}.{i}" if path else str(i))


# ---------------------------------------------------------------------- forms of data


class Sealer:
    """Seals and opens the values of a game's events: its key and dice stream, and the seq
    the derivation uses for an event (``seal`` and ``open`` are told it)."""

    __slots__ = ("key", "stream")

    def __init__(self, key: bytes, stream: str) -> None:
        self.key = key
        self.stream = stream

    def chained(self, clear: dict[str, Any], secrets: Iterable[Secret], seq: int) -> dict[str, Any]:
        """The chained form of an event's clear ``data``: each secret replaced by its seal."""
        out: dict[str, Any] = json.loads(compact(clear))  # a deep copy of builtins
        for path, _ in secrets:
            salt = salt_for(self.key, self.stream, seq, path)
            set_path(out, path, {"sealed": seal_for(salt, get_path(clear, path))})
        return out

    def opened(
        self, chained: dict[str, Any], clear: dict[str, Any], paths: Iterable[str], seq: int
    ) -> dict[str, Any]:
        """``chained`` with the seals at ``paths`` opened: value (from ``clear``) and salt."""
        out: dict[str, Any] = json.loads(compact(chained))
        for path in paths:
            seal = get_path(out, path)
            set_path(
                out,
                path,
                {
                    "sealed": seal["sealed"],
                    "value": get_path(clear, path),
                    "salt": salt_for(self.key, self.stream, seq, path),
                },
            )
        return out


def stripped(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, tuple[Any, str]]]:
    """``data`` with every opened seal closed again (its chained form), and the openings found:
    path -> (value, salt)."""
    openings: dict[str, tuple[Any, str]] = {}
    found = list(seals_in(data))
    if not any(len(seal) > 1 for _, seal in found):
        return data, openings
    out: dict[str, Any] = json.loads(compact(data))
    for path, seal in found:
        if len(seal) > 1:
            openings[path] = (seal["value"], seal["salt"])
            set_path(out, path, {"sealed": seal["sealed"]})
    return out, openings


def cleared(chained: dict[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The clear form of ``chained``: each seal at a path of ``values`` replaced by its value."""
    out: dict[str, Any] = json.loads(compact(chained))
    for path, value in values.items():
        set_path(out, path, value)
    return out


def opening_problem(seal: Mapping[str, Any]) -> str | None:
    """Why an opened seal does not open (H is not sha256(salt + "\\n" + value)), or None."""
    if seal_for(str(seal["salt"]), seal["value"]) != seal["sealed"]:
        return "the value and salt do not hash to the seal"
    return None
