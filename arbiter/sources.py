"""Where a game comes from: the database, or an exported file loaded into memory.

``replay`` and ``audit`` take either a game id or an export file; this is the one place that
tells them apart and loads a file.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import Auditor, audit_records
from warlog.arbiter.exchange import BadLine, parse_lines, read_file
from warlog.arbiter.ids import FILE_SUFFIX
from warlog.arbiter.reads import check_from, counted
from warlog.domain import rulesets
from warlog.domain.core.errors import InputError, IntegrityError
from warlog.eventstore.records import Record


def memory_arbiter() -> Arbiter:
    """An Arbiter on a fresh in-memory store, with the registered rulesets."""
    from warlog.eventstore.memory_store import MemoryStore

    return Arbiter(MemoryStore(), rulesets.get)


def is_file_source(source: str) -> bool:
    """True when ``source`` looks like a path to an export file (a directory separator, or the
    ``.jsonl`` ending) rather than a game id (which can look like neither)."""
    return "/" in source or os.sep in source or source.endswith(FILE_SUFFIX)


def file_records(path: str) -> list[Record]:
    """The records of an export file; InputError (exit 1) if unreadable or empty,
    IntegrityError (exit 4) if a line is not a well-formed event."""
    try:
        records = list(parse_lines(read_file(path)))
    except BadLine as exc:
        raise IntegrityError(f"{path}: {exc}", "import/invalid_event") from None
    if not records:
        raise InputError(f"{path} holds no events", "input/empty_file")
    return records


def open_source(source: str, database: Callable[[], Arbiter]) -> tuple[Arbiter, str]:
    """An Arbiter holding ``source`` and the game's id there: a game of the database
    (``database()`` opens it), or an export file imported into memory (its chain checked; its
    rules are ``audit``'s to check, and its sealed values fold only once opened)."""
    if is_file_source(source):
        arb = memory_arbiter()
        return arb, arb.import_records(file_records(source), chain_only=True)
    return database(), source


def audit_source(
    source: str,
    database: Callable[[], Arbiter],
    from_seq: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Auditor:
    """Audit ``source``: a game of the database, or an export file as it stands (never imported
    first: a broken file is exactly what an audit must list)."""
    if is_file_source(source):
        records = file_records(source)
        check_from(from_seq, records[-1].seq, source)
        return audit_records(counted(records, progress), rulesets.get, from_seq)
    return database().audit(source, from_seq, progress)


def recording_arbiter(log: bytes) -> tuple[Arbiter, str]:
    """A recorded game (export lines as bytes) imported into memory, and its game id."""
    arb = memory_arbiter()
    return arb, arb.import_records(list(parse_lines(log.decode("utf-8").splitlines())))


def audit_export(lines: list[str]) -> Auditor:
    """Import export ``lines`` into memory (its chain checked) and audit them in full."""
    records = list(parse_lines(lines))
    arb = memory_arbiter()
    return arb.audit(arb.import_records(records))
