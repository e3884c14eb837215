"""Where a game comes from: the database, or an exported file loaded into memory.

``replay`` and ``audit`` take either a game id or an export file; this is the one place that
tells them apart and loads a file (audited either way: a file is never replayed unchecked).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import Auditor, audit_records
from warlog.arbiter.exchange import BadLine, import_log, parse_lines, read_file
from warlog.arbiter.ids import FILE_SUFFIX
from warlog.arbiter.reads import check_from, counted
from warlog.arbiter.sealing import has_seals
from warlog.domain import rulesets
from warlog.domain.core.errors import InputError, IntegrityError, StoreError
from warlog.domain.core.seal import seals_in, stripped
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
    """The records of an export file. InputError (exit 1) if it is unreadable, empty or not
    JSON Lines (a line that is not JSON: the contract's unreadable JSON, bad input); but
    IntegrityError (exit 4) if a JSON line is not a well-formed event (a log that is
    invalid)."""
    lines = read_file(path)  # its errors name the file
    try:
        records = list(parse_lines(lines))
    except BadLine as exc:
        raise IntegrityError(f"{path}: {exc}", "import/invalid_event") from None
    except InputError as exc:
        raise InputError(f"{path} {exc.message}", exc.code) from None
    if not records:
        raise InputError(f"{path} holds no events", "input/empty_file")
    return records


def replay_source(
    source: str,
    database: Callable[[], Arbiter],
    from_seq: int = 1,
    to_seq: int | None = None,
    player: str | None = None,
) -> Iterator[dict[str, Any]]:
    """The replay of ``source`` (``Arbiter.replay``): a game of the database (``database()``
    opens it), read as stored; or an export file, audited first as ``warlog audit FILE``
    audits it, IntegrityError (import/broken_log, exit 4) with its first finding, then
    imported into memory. A file whose values are not all opened under a seed it reveals
    cannot be read past them: StoreError (store/sealed, exit 1) naming the file and what it
    lacks."""
    if not is_file_source(source):
        return database().replay(source, from_seq, to_seq, player)
    arb = memory_arbiter()
    records = file_records(source)
    game = import_log(arb, records, chain_only=True, rules=True)
    return _file_replay(arb, game, source, records, (from_seq, to_seq, player))


def _file_replay(
    arb: Arbiter,
    game: str,
    path: str,
    records: list[Record],
    asked: tuple[int, int | None, str | None],
) -> Iterator[dict[str, Any]]:
    try:
        yield from arb.replay(game, *asked)
    except StoreError as exc:
        if exc.code != "store/sealed":
            raise
        # the vault here holds what the file opens under the seeds it reveals: no key file
        first = first_sealed(records)
        if first is None:
            why = (
                f"{path} opens values under a seed it does not reveal (a referee's export "
                "--open of a game still being played): replay cannot read them without it"
            )
        else:
            why = (
                f"{path} holds values still sealed (from event {first} on): replay cannot "
                "fold them without their clear forms"
            )
        raise StoreError(
            f"{why}; the export made with the key file after the reveal replays (`warlog audit "
            "FILE` checks what it can of this one)",
            "store/sealed",
        ) from None


def first_sealed(records: Iterable[Record]) -> int | None:
    """The seq of the first record holding a value sealed and not opened (None: none)."""
    for record in records:
        if has_seals(record.data):
            chained, opened = stripped(json.loads(record.data))
            if sum(1 for _ in seals_in(chained)) > len(opened):
                return record.seq
    return None


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
