"""The one place that turns warlog's errors into one line on stderr and the contract's exit code."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from warlog.domain.core.errors import InputError, UnknownGame, WarlogError, quoted


class CliError(click.ClickException):
    """A WarlogError on its way out through click: its one line and its exit code."""

    def __init__(self, error: WarlogError) -> None:
        super().__init__(error.message)
        self.error = error
        self.exit_code = error.exit_code  # type: ignore[misc]  # per instance, by design

    def show(self, file: Any = None) -> None:
        click.echo(self.error.line(), err=True)


#: where the group keeps its command line's arguments (``ctx.meta``)
ARGUMENTS = "warlog.arguments"


def _a_file(error: UnknownGame, arguments: list[str]) -> WarlogError:
    """An unknown game that names a file: what the reader meant, and the commands that read one."""
    for arg in arguments:
        if error.message == f"unknown game {quoted(arg)}" and os.path.isfile(arg):
            return UnknownGame(
                f"{error.message}: that is a file, not a game of this database (`warlog import "
                "FILE` makes it one; `audit` and `replay` read a file as it is; docs/verify.py "
                "checks one against the receipts you kept)"
            )
    return error


def _bug(exc: Exception) -> WarlogError:
    return WarlogError(
        f"{type(exc).__name__}: {exc} (a bug in warlog; WARLOG_DEBUG=1 shows where)",
        "internal/bug",
    )


class WarlogGroup(click.Group):
    """A click group whose commands report WarlogError (and any bug) as one line."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[ARGUMENTS] = list(args)  # to tell whether text that is not UTF-8 came from them
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except UnknownGame as exc:
            raise CliError(_a_file(exc, ctx.meta.get(ARGUMENTS, []))) from None
        except WarlogError as exc:
            raise CliError(exc) from None
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:
            sys.stderr.close()
            raise click.exceptions.Exit(0) from None
        except UnicodeEncodeError as exc:
            surrogate = exc.object[exc.start] if exc.reason == "surrogates not allowed" else ""
            if not surrogate or not any(surrogate in arg for arg in ctx.meta.get(ARGUMENTS, [])):
                if os.environ.get("WARLOG_DEBUG"):
                    raise
                raise CliError(_bug(exc)) from None
            # an argument's bytes that are not UTF-8 (Python keeps them as lone surrogates)
            byte = ord(surrogate) & 0xFF
            raise CliError(
                InputError(
                    f"an argument holds bytes that are not UTF-8 text (\\x{byte:02x}): game "
                    "ids, players and salts are UTF-8",
                    "input/not_utf8",
                )
            ) from None
        except Exception as exc:
            if os.environ.get("WARLOG_DEBUG"):
                raise
            raise CliError(_bug(exc)) from None
