"""A record as the audit reads it: its chained data (the hash's) and its clear data (the rules'),
each opened seal checked against its hash on the way."""

from __future__ import annotations

import json
from typing import Any

import msgspec

from warlog.arbiter.audit_report import Find, Proved
from warlog.arbiter.openings import read_opened
from warlog.arbiter.sealing import Opened, has_seals
from warlog.domain.core.events import Event
from warlog.domain.core.seal import cleared, compact, get_path, opening_problem, seals_in, stripped
from warlog.domain.core.summary import plural
from warlog.eventstore.records import Record

#: why re-derivation stops at a record the arbiter's key file does not open
KEY_FILE_SHUT = "the key file does not open its sealed values (findings above)"

#: why re-derivation stops at a record whose opened value does not hash to its seal
FALSE_OPENING = (
    "the value shown at {path} there does not open its seal (finding above): the value sealed "
    "is not known, so the rules cannot go on from it"
)


class Row(msgspec.Struct):
    """A record as the audit reads it: its chained data (the hash's) and its clear data (the
    rules'), None while a seal stays closed."""

    record: Record
    chained: str
    clear: str | None
    event: Event | None = None
    #: the salts of the seals opened in this record, for the reveal: (path, salt)
    salts: list[tuple[str, str]] = []
    #: the paths of its seals (None while its clear data is not read: it is not re-derived)
    sealed: list[str] | None = None
    #: what its salts were derived from, when the reader says (``Opened.derived``)
    derived: tuple[bytes, str, int] | None = None
    #: the player the key file gives each sealed path to (the arbiter's own audit), checked
    #: against the rules' owners when the batch is derived again
    owners: dict[str, str | None] | None = None
    #: why its clear data is not known when no seal was left closed: the key file does not
    #: open them (the arbiter's audit), or an opened value does not open its seal
    closed_why: str = ""
    #: the paths of its values shown beside a seal they do not open (each a finding)
    false_openings: list[str] = []


def read_row(record: Record, find: Find, proved: Proved) -> Row:
    """The chained and clear forms of a record as a log file holds it (opened seals in its
    ``data``); each opened seal is checked here, each seal counted opened or closed."""
    if not has_seals(record.data):
        return Row(record, record.data, record.data, sealed=[])
    try:
        data = json.loads(record.data)
        chained_obj, openings = stripped(data)
    except (ValueError, TypeError):
        return _not_json(record)
    chained = compact(chained_obj)
    sealed = [path for path, _ in seals_in(chained_obj)]
    values: dict[str, Any] = {}
    salts: list[tuple[str, str]] = []
    false_openings: list[str] = []
    for path in sealed:
        opening = openings.get(path)
        if opening is None:
            continue
        value, salt = opening
        seal = {"sealed": _seal_at(chained_obj, path), "value": value, "salt": salt}
        problem = opening_problem(seal)
        if problem is not None:
            find(record.seq, "seal", f"the seal at {path} does not open: {problem}")
            false_openings.append(path)
            continue
        values[path] = value
        salts.append((path, str(salt)))
    proved.seals_opened += len(values)
    proved.seals_false += len(false_openings)
    proved.seals_closed += len(sealed) - len(values) - len(false_openings)
    clear = compact(cleared(chained_obj, values)) if len(values) == len(sealed) else None
    # a value whose opening is false is not known: the rules stop for that, not for a seal
    # left closed (which the reveal's note would call one)
    why = FALSE_OPENING.format(path=false_openings[0]) if false_openings else ""
    return Row(
        record,
        chained,
        clear,
        salts=salts,
        sealed=sealed,
        closed_why=why,
        false_openings=false_openings,
    )


def read_opened_row(opened: Opened, find: Find, proved: Proved) -> Row:
    """``read_row`` of a record as stored, with what the vault opens of it: each opening is
    checked against its seal, the clear data made from the chained data and the values."""
    record = opened.record
    if not opened.salts and opened.owners is None and not opened.missing:
        return Row(record, record.data, record.data, sealed=[])
    read = None if opened.missing else read_opened(record.data, opened.clear, opened.salts)
    if read is None:
        seals = _seals_of(record.data)
        if seals is None:
            return _not_json(record)
        problem = opened.missing or "the key file's clear form of it is not JSON"
        find(record.seq, "seal", f"{problem}: {plural(seals, 'sealed value')} not opened")
        proved.seals_closed += seals
        return Row(record, record.data, None, closed_why=KEY_FILE_SHUT)
    for problem in read.problems:
        find(record.seq, "seal", problem)
    unopened = [path for path in read.sealed if path not in opened.salts]
    for path in unopened:
        find(record.seq, "seal", f"the key file opens no value for the seal at {path}")
    proved.seals_opened += len(read.salts)
    proved.seals_closed += len(read.sealed) - len(read.salts)
    return Row(
        record,
        read.chained,
        read.clear,
        salts=read.salts,
        sealed=read.sealed,
        derived=opened.derived,
        owners=opened.owners,
        closed_why=KEY_FILE_SHUT if unopened else "",
    )


def _not_json(record: Record) -> Row:
    """A row whose data is no JSON, sealed or not: read as its own clear form, so that the
    decode check reports it and the rules stop there (an event that could not be read), as
    for any row; none of its seals can be counted."""
    return Row(record, record.data, record.data, sealed=[])


def _seals_of(data: str) -> int | None:
    """How many seals the chained ``data`` holds; None when it is not JSON."""
    try:
        return sum(1 for _ in seals_in(msgspec.json.decode(data)))
    except msgspec.DecodeError:
        return None


def _seal_at(data: Any, path: str) -> str:
    return str(get_path(data, path)["sealed"])
