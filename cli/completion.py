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
    """``--db`` before the command (the root's parameter) or after it (kept on the root's
    ``obj`` by its callback), else the default."""
    root = ctx.find_root()
    given = root.params.get("db") or root.obj
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
    if game is None:  # the words before ``--as <TAB>`` parsed again, without it
        ctx = _typed(ctx) or ctx
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


def _typed(ctx: click.Context) -> click.Context | None:
    """The command's context parsed from the words typed before the option whose value is
    being completed (``--as <TAB>``): click parses them with that option still waiting for its
    value, which leaves every parameter unset (the game, a ``--db`` after the command), so they
    are parsed again without it. The words are those the shell passed (``COMP_WORDS`` and
    ``COMP_CWORD``, which click's bash, zsh and fish completion read); None without them."""
    import os

    from click.shell_completion import split_arg_string

    try:
        words = split_arg_string(os.environ["COMP_WORDS"])[: int(os.environ["COMP_CWORD"])]
        rest = words[words.index(str(ctx.info_name), 1) + 1 :]
        if rest and rest[-1].startswith("-"):
            rest = rest[:-1]
        return ctx.command.make_context(
            ctx.info_name, rest, parent=ctx.parent, resilient_parsing=True
        )
    except (KeyError, ValueError, click.ClickException):
        return None
