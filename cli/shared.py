"""What every command is built from: the shared options, its database and Arbiter, its JSON."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from warlog.arbiter.application import Arbiter
from warlog.cli import render
from warlog.cli.completion import complete_games, complete_players
from warlog.cli.context import db_path, open_arbiter

F = TypeVar("F", bound=Callable[..., Any])


def json_option(f: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON only (for programs).")(
        f
    )


def as_player_option(default: str) -> Callable[[F], F]:
    """``--as PLAYER``: what that player may see; ``default`` says who reads without it."""

    def option(f: F) -> F:
        return click.option(
            "--as",
            "as_player",
            metavar="PLAYER",
            shell_complete=complete_players,
            help=f"As this player may see it (default: {default}).",
        )(f)

    return option


as_option = as_player_option("the referee, who sees everything")


def db_option(f: F) -> F:
    """``--db`` after the command name too (``warlog state G --db w.db``)."""

    def remember(ctx: click.Context, _: click.Parameter, value: str | None) -> None:
        if value is not None:
            ctx.find_root().obj = value

    return click.option(
        "--db",
        metavar="FILE",
        expose_value=False,
        callback=remember,
        is_eager=True,
        help="The database: a file or a postgresql:// URI (default ./warlog.db or $WARLOG_DB).",
    )(f)


def range_options(f: F) -> F:
    """``--from SEQ`` and ``--to SEQ``: the stretch of the log a command reads."""
    last = click.option(
        "--to", "to_seq", type=int, metavar="SEQ", help="The last event (default: the head)."
    )
    first = click.option(
        "--from", "from_seq", type=int, default=1, metavar="SEQ", help="The first event."
    )
    return first(last(f))


def game_argument(f: F) -> F:
    return click.argument("game", shell_complete=complete_games)(f)


def database(ctx: click.Context) -> str:
    """The command's database: ``--db`` (before or after the command), else the default."""
    root = ctx.find_root()
    return db_path(root.obj if isinstance(root.obj, str) else None)


def arbiter(ctx: click.Context, *, create: bool = False) -> Arbiter:
    """The Arbiter on the command's database, closed when the command ends."""
    arb = open_arbiter(database(ctx), create=create)
    ctx.call_on_close(arb.close)
    return arb


def interactive() -> bool:
    """True when a person is at the terminal (stdin and stderr both are one)."""
    return sys.stdin.isatty() and sys.stderr.isatty()


def emit(value: Any) -> None:
    """One JSON value on stdout, nothing else."""
    click.echo(json.dumps(render.builtins(value), ensure_ascii=False))
