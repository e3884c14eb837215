"""Shell completion (click's): game ids from the database, rulesets, a game's players.

Enable it as click documents, e.g. for bash: ``eval "$(_WARLOG_COMPLETE=bash_source warlog)"``.
Completion never fails loudly: a database that cannot be read completes nothing.
"""

from __future__ import annotations

import click
from click.shell_completion import CompletionItem

from warlog.cli.context import db_path
from warlog.domain import rulesets


def _database(ctx: click.Context) -> str:
    root = ctx.find_root()
    given = root.params.get("db") or ctx.params.get("db")
    return db_path(given if isinstance(given, str) else None)


def complete_games(ctx: click.Context, _: click.Parameter, incomplete: str) -> list[CompletionItem]:
    try:
        from warlog.arbiter.database import open_store

        store = open_store(_database(ctx))
        try:
            ids = [info.game for info in store.games()]
        finally:
            store.close()  # type: ignore[attr-defined]  # every store on a database has one
    except Exception:
        return []
    return [CompletionItem(game) for game in ids if game.startswith(incomplete)]


def complete_rulesets(
    ctx: click.Context, _: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    return [CompletionItem(name) for name in rulesets.names() if name.startswith(incomplete)]


def complete_players(
    ctx: click.Context, _: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    game = ctx.params.get("game") or ctx.params.get("source")
    if not isinstance(game, str):
        return []
    try:
        from warlog.arbiter.database import on_database

        with on_database(_database(ctx)) as arb:
            players = arb.folded(game).meta.players
    except Exception:
        return []
    return [CompletionItem(p) for p in players if p.startswith(incomplete)]
