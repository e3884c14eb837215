"""Opening the database the command line works on."""

from __future__ import annotations

import os

from warlog.arbiter.application import Arbiter
from warlog.domain import rulesets

DEFAULT_DB = "warlog.db"


def db_path(option: str | None) -> str:
    """``--db``, else ``$WARLOG_DB``, else ``./warlog.db``."""
    return option or os.environ.get("WARLOG_DB") or DEFAULT_DB


def open_arbiter(path: str, *, create: bool = False) -> Arbiter:
    """An Arbiter on the SQLite database at ``path`` (StoreError, exit 1, if it cannot be used)."""
    from warlog.eventstore.sqlite_store import SQLiteStore

    return Arbiter(SQLiteStore(path, create=create), rulesets.get)
