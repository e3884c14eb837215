"""An Arbiter on a database: an SQLite file and the key file beside it, or a PostgreSQL
database (``postgresql://…``) and its vault tables."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from warlog.arbiter.application import Arbiter
from warlog.domain import rulesets as registry
from warlog.domain.core.ruleset import AnyRuleset
from warlog.eventstore.postgres_database import is_postgres
from warlog.eventstore.store import Store
from warlog.eventstore.vault import Vault


def on_database(
    location: str | os.PathLike[str],
    rulesets: Callable[[str], AnyRuleset] = registry.get,
    *,
    create: bool = False,
    **options: Any,
) -> Arbiter:
    """An Arbiter on the database at ``location``: a ``postgresql://`` (or ``postgres://``)
    URI, else the path of an SQLite file with its key file ``<path>.keys`` (``create``: make
    what is missing). StoreError (exit 1) if the database cannot be used; the vault is opened
    when first needed. ``options`` go to the Arbiter (clock, seeds…)."""
    store, vault = open_database(location, create=create)
    return Arbiter(store, rulesets, vault=vault, **options)


def open_store(location: str | os.PathLike[str], *, create: bool = False) -> Store:
    """The store alone (no vault): what listing games or exporting sealed logs needs."""
    if isinstance(location, str) and is_postgres(location):
        from warlog.eventstore.postgres_store import PostgresStore

        return PostgresStore(location, create=create)
    from warlog.eventstore.sqlite_store import SQLiteStore

    return SQLiteStore(location, create=create)


def open_database(location: str | os.PathLike[str], *, create: bool = False) -> tuple[Store, Vault]:
    """The store and the vault at ``location`` (see ``on_database``)."""
    store = open_store(location, create=create)
    if isinstance(location, str) and is_postgres(location):
        from warlog.eventstore.postgres_vault import PostgresVault

        return store, PostgresVault(location, create=create)
    from warlog.eventstore.sqlite_vault import SQLiteVault, vault_path

    return store, SQLiteVault(vault_path(location), create=create)
