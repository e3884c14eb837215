"""Opening the database and building the Arbiter a command works with."""

from __future__ import annotations

import os
from pathlib import Path

from warlog.arbiter.application import Arbiter
from warlog.arbiter.exchange import BadLine, parse_lines, read_file
from warlog.domain import rulesets
from warlog.eventstore.records import Record

DEFAULT_DB = "warlog.db"


def db_path(option: str | None) -> str:
    """``--db``, else ``$WARLOG_DB``, else ``./warlog.db``."""
    return option or os.environ.get("WARLOG_DB") or DEFAULT_DB


def open_arbiter(path: str, *, create: bool = False) -> Arbiter:
    """An Arbiter on the SQLite database at ``path`` (StoreError, exit 1, if it cannot be used)."""
    from warlog.eventstore.sqlite_store import SQLiteStore

    return Arbiter(SQLiteStore(path, create=create), rulesets.get)


def memory_arbiter() -> Arbiter:
    from warlog.eventstore.memory_store import MemoryStore

    return Arbiter(MemoryStore(), rulesets.get)


def is_file_source(source: str) -> bool:
    """True when ``source`` names an export file rather than a game id."""
    return Path(source).is_file() or source.endswith(".jsonl")


def file_records(path: str) -> list[Record]:
    """The records of an export file; InputError (exit 1) if unreadable, IntegrityError (4) if malformed."""
    from warlog.domain.core.errors import IntegrityError

    try:
        return list(parse_lines(read_file(path)))
    except BadLine as exc:
        raise IntegrityError(f"{path}: {exc}", "import/invalid_event") from None
