"""The ``warlog`` command line: the group every command registers in, its ``--db``, its exit codes.

Each command opens the database, calls one library function and renders the result; they are in
playing.py, reading.py, disputes.py, moving.py and tools.py, by what a user does with them, and
share shared.py. Errors are one line on stderr with the contract's exit code (cli/errors.py).
"""

from __future__ import annotations

import click

from warlog.cli import disputes, moving, playing, reading, tools
from warlog.cli.context import db_path
from warlog.cli.errors import WarlogGroup

EXIT_CODES = """\b
Exit codes:
  0  done
  1  bad input or environment (JSON, command, field, game, player, database file)
  2  usage (a wrong option or argument)
  3  the rules reject the command; nothing was appended
  4  audit or import found the log altered or invalid, or import could not check
     its rules (a log still sealed); fuzz found a failure (or --replay still
     fails), or a source (or a pair's log) does not audit clean
  5  another writer appended first; nothing was appended, retry"""


@click.group(cls=WarlogGroup, epilog=EXIT_CODES)
@click.option(
    "--db",
    "db",
    metavar="FILE",
    help="The database: a file or a postgresql:// URI (default ./warlog.db or $WARLOG_DB).",
)
@click.version_option(package_name="warlog")
@click.pass_context
def cli(ctx: click.Context, db: str | None) -> None:
    """warlog: an event-sourced rules engine and arbiter for wargames.

    Every command and die roll is an event in a hash-chained, append-only log; any game can be
    replayed, forked and audited from any event. `warlog COMMAND --help` shows a command's
    options and an example.
    """
    ctx.obj = db_path(db)  # a --db after the command replaces it (shared.db_option)


# Registered at start, every module of them imported: at their top they import only what the
# command line needs anyway (click, render, completion, the codec's export line), the rest in
# each command's body, so a `warlog play` pays nothing measurable for the commands it does not
# run (tests/cli/test_program.py). `warlog --help` lists them by name, whatever the order here.
for command in (
    playing.rulesets_,
    playing.scenario,
    playing.new,
    playing.play,
    playing.legal,
    reading.games,
    reading.state,
    reading.events,
    reading.log_,
    reading.replay,
    reading.explain,
    disputes.audit,
    disputes.reveal,
    disputes.head,
    moving.fork,
    moving.export,
    moving.import_,
    tools.fuzz,
    tools.serve,
    tools.demo,
):
    cli.add_command(command)
