"""Opening the database the command line works on."""

from __future__ import annotations

import os

from warlog.arbiter.application import Arbiter

DEFAULT_DB = "warlog.db"


def db_path(option: str | None) -> str:
    """``--db``, else ``$WARLOG_DB``, else ``./warlog.db`` (a file, or a ``postgresql://`` URI)."""
    return option or os.environ.get("WARLOG_DB") or DEFAULT_DB


def open_arbiter(path: str, *, create: bool = False) -> Arbiter:
    """An Arbiter on the database at ``path``: an SQLite file and its key file beside it, or a
    ``postgresql://`` URI (StoreError, exit 1, if the database cannot be used; the key file or
    vault is opened when first needed)."""
    from warlog.arbiter.database import on_database

    return on_database(path, create=create)
