"""An Arbiter on an SQLite database and the key file beside it."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from warlog.arbiter.application import Arbiter
from warlog.domain import rulesets as registry
from warlog.domain.core.ruleset import AnyRuleset


def on_database(
    path: str | os.PathLike[str],
    rulesets: Callable[[str], AnyRuleset] = registry.get,
    *,
    create: bool = False,
    **options: Any,
) -> Arbiter:
    """An Arbiter on the SQLite database at ``path`` and its key file ``<path>.keys``
    (``create``: make both if missing). StoreError (exit 1) if the database cannot be used;
    the key file is opened when first needed. ``options`` go to the Arbiter (clock, seeds…)."""
    from warlog.eventstore.sqlite_store import SQLiteStore
    from warlog.eventstore.sqlite_vault import SQLiteVault, vault_path

    store = SQLiteStore(path, create=create)
    vault = SQLiteVault(vault_path(path), create=create)
    return Arbiter(store, rulesets, vault=vault, **options)
