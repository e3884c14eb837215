"""Events to rows and back: the ``type`` column holds the tag, ``data`` the compact JSON of the fields.

``data`` is exactly what ``json.dumps(fields, separators=(",", ":"), ensure_ascii=False)`` writes
(the contract a third-party verifier relies on); msgspec produces the same bytes, faster, and a
test pins the equivalence.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from warlog.domain.core.errors import InputError, IntegrityError, StoreError
from warlog.domain.core.events import CORE_EVENTS, Event
from warlog.domain.core.ruleset import AnyRuleset
from warlog.eventstore.vault import damaged_opening

_ENCODER = msgspec.json.Encoder()


class ClearForms(list[str]):
    """The data of stored rows, the sealed ones replaced by their clear forms from a vault
    (what a fold decodes): ``opened`` holds the positions of those, ``where`` names the vault
    (``the key file PATH``), so that a clear form that does not decode is told as the vault's
    damage, not the log's."""

    opened: frozenset[int] = frozenset()
    where: str = "the vault"


class Codec:
    """Encodes and decodes the events of one ruleset (plus the core events)."""

    def __init__(self, event_types: Iterable[type[Event]]) -> None:
        self._types: dict[str, type[Event]] = {}
        self._decoders: dict[str, msgspec.json.Decoder[Any]] = {}
        self._prefix: dict[type[Event], int] = {}
        for cls in (*CORE_EVENTS, *event_types):
            tag = cls.type_name()
            if tag in self._types and self._types[tag] is not cls:
                raise ValueError(f"event tag {tag!r} is used twice")
            self._types[tag] = cls
            # the encoded struct starts with {"type":"<tag>" — data is the rest
            self._prefix[cls] = len(b'{"type":') + len(_ENCODER.encode(tag))

    @classmethod
    def for_ruleset(cls, ruleset: AnyRuleset) -> Codec:
        """The codec of a ruleset's events, built once per set of event types (a codec holds no
        state of its own: every arbiter and audit of the process shares it)."""
        return _codec(tuple(ruleset.event_types))

    @property
    def tags(self) -> list[str]:
        return sorted(self._types)

    def encode(self, event: Event) -> tuple[str, str]:
        """``(type, data)`` for a row."""
        raw = _ENCODER.encode(event)
        cut = self._prefix[type(event)]
        data = b"{" + raw[cut + 1 :] if raw[cut : cut + 1] == b"," else b"{}"
        return event.type_name(), data.decode()

    def decode(self, type_: str, data: str | bytes) -> Event:
        """The event of a row; IntegrityError naming the problem if it is not a known, valid event."""
        decoder = self._decoders.get(type_)
        if decoder is None:  # made at the first event of its type: a command meets a few types
            cls = self._types.get(type_)
            if cls is None:
                raise IntegrityError(f"unknown event type {type_!r}", "audit/unknown_event_type")
            decoder = self._decoders[type_] = msgspec.json.Decoder(cls)
        try:
            event: Event = decoder.decode(data)
        except msgspec.DecodeError as exc:
            raise IntegrityError(f"bad {type_} data: {exc}", "audit/bad_event_data") from None
        return event

    def decode_all(
        self,
        types: Sequence[str],
        datas: Sequence[str],
        seqs: Sequence[int] = (),
        game: str = "",
    ) -> list[Event]:
        """The events of stored rows of ``types`` and ``datas`` (as many), in order: the read
        path. StoreError (``store/corrupt``, exit 1) for the first that does not decode, named
        by ``game`` and its seq when ``seqs`` are given: a row the log holds that is no valid
        event is a damaged log, whatever command read it; a clear form that a vault opened
        (``ClearForms``) and that is none, a damaged vault, named. (A log being judged, by
        audit or import, is decoded an event at a time by ``decode``: its IntegrityError is a
        finding.)"""
        decoders = self._decoders
        try:
            return [decoders[t].decode(d) for t, d in zip(types, datas, strict=True)]
        except (KeyError, msgspec.DecodeError):  # a type met for the first time, or bad data
            pass
        events: list[Event] = []
        opened = datas.opened if isinstance(datas, ClearForms) else frozenset()
        for i, (type_, data) in enumerate(zip(types, datas, strict=True)):
            try:
                events.append(self.decode(type_, data))
            except IntegrityError as exc:
                seq = seqs[i] if i < len(seqs) else None
                if i in opened and seq is not None:
                    assert isinstance(datas, ClearForms)
                    # what msgspec says of it stays out: it may quote a sealed value
                    wrong = f"does not decode as its event ({type_})"
                    raise damaged_opening(datas.where, game, seq, wrong) from None
                raise _damaged(exc, type_, seq, game) from None
        return events


def damaged_row(game: str, seq: int, type_: str, wrong: str) -> StoreError:
    """The read path's error for event ``seq`` of ``game`` (unnamed when "": not known yet)
    whose stored data is ``wrong``."""
    where = f"game {game}, event {seq}" if game else f"event {seq}"
    return StoreError(
        f"{where} ({type_}) does not decode ({wrong}): the log is damaged; "
        "`warlog audit` lists what is wrong",
        "store/corrupt",
    )


def _damaged(exc: IntegrityError, type_: str, seq: int | None, game: str) -> StoreError:
    """The read path's error for a stored row of ``type_`` that ``decode`` refused."""
    if seq is None:
        where = f"a {type_} event of the log"
        audit = "`warlog audit GAME` names it"
    else:
        where = f"{f'game {game}, ' if game else ''}event {seq} ({type_})"
        audit = "`warlog audit` lists what is wrong"
    return StoreError(
        f"{where} does not decode ({exc.message}): the log is damaged; {audit}", "store/corrupt"
    )


def decode_command(command_type: Any, raw: dict[str, Any]) -> Any:
    """A command from its JSON object; InputError (exit 1) naming the bad field."""
    try:
        return msgspec.convert(raw, command_type)
    except msgspec.ValidationError as exc:
        raise InputError(f"bad command: {str(exc)[:200]}", "input/bad_command") from None


def command_to_builtins(command: Any) -> dict[str, Any]:
    out: dict[str, Any] = msgspec.to_builtins(command)
    return out


@functools.lru_cache(maxsize=64)
def _codec(event_types: tuple[type[Event], ...]) -> Codec:
    return Codec(event_types)
