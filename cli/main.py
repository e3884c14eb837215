"""The ``warlog`` command line: each command opens the database, calls one library function and
renders the result. Errors are one line on stderr with the contract's exit code (cli/errors.py)."""

from __future__ import annotations

import json
from typing import Any

import click

from warlog.arbiter.application import Arbiter
from warlog.arbiter.exchange import export_line
from warlog.cli import render
from warlog.cli.context import db_path, open_arbiter
from warlog.cli.errors import WarlogGroup
from warlog.domain import rulesets
from warlog.domain.core.errors import InputError

json_option = click.option("--json", "as_json", is_flag=True, help="Machine output (JSON).")
as_option = click.option(
    "--as",
    "as_player",
    metavar="PLAYER",
    help="As this player may see it (default: the referee, who sees everything).",
)


@click.group(cls=WarlogGroup)
@click.option(
    "--db", "db", metavar="FILE", help="The database (default ./warlog.db or $WARLOG_DB)."
)
@click.version_option(package_name="warlog")
@click.pass_context
def cli(ctx: click.Context, db: str | None) -> None:
    """warlog: an event-sourced rules engine and arbiter for wargames.

    Every command and die roll is an event in a hash-chained, append-only log; any game can be
    replayed, forked and audited from any event.
    """
    ctx.obj = db_path(db)


def arbiter(ctx: click.Context, *, create: bool = False) -> Arbiter:
    """The Arbiter on the command's database, closed when the command ends."""
    arb = open_arbiter(ctx.obj, create=create)
    ctx.call_on_close(arb.close)
    return arb


def source_arbiter(ctx: click.Context, source: str) -> tuple[Arbiter, str]:
    """An Arbiter holding ``source``: a game of the database, or an export file loaded in memory."""
    from warlog.arbiter.sources import open_source

    return open_source(source, lambda: arbiter(ctx))


@cli.command()
@click.argument("ruleset")
@click.option("--scenario", metavar="NAME|FILE", help="A bundled scenario name or a TOML file.")
@click.option("--game", "game", metavar="ID", help="The new game's id (default: generated).")
@click.option("--dice", type=click.Choice(["auto", "manual"]), default="auto", show_default=True)
@click.option("--salt", default="", help="Text mixed into the dice derivation.")
@click.pass_context
def new(
    ctx: click.Context, ruleset: str, scenario: str | None, game: str | None, dice: str, salt: str
) -> None:
    """Create a game of RULESET; prints its id alone."""
    click.echo(
        arbiter(ctx, create=True).new_game(ruleset, scenario, game=game, dice=dice, salt=salt)
    )


@cli.command()
@click.argument("game")
@click.argument("command", required=False, default="-")
@as_option
@click.option("--referee", is_flag=True, help="Print the events with every sealed value opened.")
@json_option
@click.pass_context
def play(
    ctx: click.Context,
    game: str,
    command: str,
    as_player: str | None,
    referee: bool,
    as_json: bool,
) -> None:
    """Apply COMMAND (JSON), or one command per line from stdin ('-' or none).

    Prints the events appended as the issuing player may see them (--as: as another player;
    --referee: everything). Stops at the first rejected command; earlier ones stay applied.
    """
    arb = arbiter(ctx)
    if command != "-":
        lines: Any = [command]
    else:
        lines = [line for line in click.open_file("-", "rb") if line.strip()]
        if not lines:
            raise InputError(
                "no command on stdin: give one JSON object a line", "input/empty_command"
            )
    for line in lines:
        for record in arb.play_as(game, line, as_player, referee=referee):
            click.echo(export_line(record) if as_json else render.record_line(record))


@cli.command()
@click.argument("game")
@click.option("--as", "--player", "player", metavar="PLAYER", help="Only this player's commands.")
@json_option
@click.pass_context
def legal(ctx: click.Context, game: str, player: str | None, as_json: bool) -> None:
    """The legal commands now, one JSON object per line, each accepted by `play` as it is."""
    for command in arbiter(ctx).legal(game, player):
        click.echo(json.dumps(command, ensure_ascii=False, separators=(",", ":")))


@cli.command()
@click.argument("game")
@click.option("--at", "at", type=int, metavar="SEQ", help="After event SEQ (default: the latest).")
@as_option
@json_option
@click.pass_context
def state(
    ctx: click.Context, game: str, at: int | None, as_player: str | None, as_json: bool
) -> None:
    """The state after event SEQ, optionally as one player sees it."""
    view = arbiter(ctx).view(game, at, as_player)
    click.echo(json.dumps(view, ensure_ascii=False) if as_json else render.view_text(view))


@cli.command()
@click.argument("game")
@click.option("--from", "from_seq", type=int, default=1, metavar="SEQ")
@click.option("--to", "to_seq", type=int, metavar="SEQ")
@as_option
@json_option
@click.pass_context
def events(
    ctx: click.Context,
    game: str,
    from_seq: int,
    to_seq: int | None,
    as_player: str | None,
    as_json: bool,
) -> None:
    """The raw events; with --json, JSON Lines in the export format."""
    for record in arbiter(ctx).records_as(game, as_player, from_seq, to_seq):
        click.echo(export_line(record) if as_json else render.record_line(record))


@cli.command("log")
@click.argument("game")
@click.option("--as", "--empire", "empire", metavar="PLAYER", help="Only this player's tab.")
@click.option("--all", "show_all", is_flag=True, help="Expired entries too.")
@json_option
@click.pass_context
def log_(ctx: click.Context, game: str, empire: str | None, show_all: bool, as_json: bool) -> None:
    """The in-game Events view: entries still in force this round, one tab per empire."""
    view = arbiter(ctx).events_view(game, empire)
    tabs = view.tabs(empire, show_all)
    if as_json:
        click.echo(
            json.dumps({"round": view.round, "tabs": render.builtins(tabs)}, ensure_ascii=False)
        )
    else:
        click.echo(render.events_view_text(view.round, tabs, show_all))


@cli.command()
@click.argument("source", metavar="GAME|FILE")
@click.option("--from", "from_seq", type=int, default=1, metavar="SEQ")
@click.option("--to", "to_seq", type=int, metavar="SEQ")
@as_option
@json_option
@click.pass_context
def replay(
    ctx: click.Context,
    source: str,
    from_seq: int,
    to_seq: int | None,
    as_player: str | None,
    as_json: bool,
) -> None:
    """Walk a game event by event from any event, with what each changed."""
    arb, game = source_arbiter(ctx, source)
    for step in arb.replay(game, from_seq, to_seq, as_player):
        click.echo(json.dumps(step, ensure_ascii=False) if as_json else render.replay_text(step))


@cli.command()
@click.argument("game")
@click.argument("seq", type=int)
@as_option
@json_option
@click.pass_context
def explain(ctx: click.Context, game: str, seq: int, as_player: str | None, as_json: bool) -> None:
    """Why event SEQ happened: the command, the dice, the rule and its arithmetic."""
    report = arbiter(ctx).explain(game, seq, as_player)
    click.echo(json.dumps(report, ensure_ascii=False) if as_json else render.explain_text(report))


@cli.command()
@click.argument("game")
@click.option(
    "--at",
    "at",
    type=int,
    required=True,
    metavar="SEQ",
    help="The last shared event (a batch end).",
)
@click.option("--game", "new_game", metavar="NEWID", help="The fork's id (default: generated).")
@click.option("--dice", type=click.Choice(["new", "same"]), default="new", show_default=True)
@click.pass_context
def fork(ctx: click.Context, game: str, at: int, new_game: str | None, dice: str) -> None:
    """Branch a new game from event SEQ; prints the new id alone."""
    click.echo(arbiter(ctx).fork(game, at, new_game=new_game, dice=dice))


@cli.command()
@click.argument("source", metavar="GAME|FILE")
@click.option(
    "--from",
    "from_seq",
    type=int,
    default=1,
    metavar="SEQ",
    help="Re-derive rules and dice from SEQ.",
)
@json_option
@click.pass_context
def audit(ctx: click.Context, source: str, from_seq: int, as_json: bool) -> None:
    """Check the chain, re-derive every consequence, verify revealed dice; exit 4 on findings."""
    from warlog.arbiter.sources import audit_source

    auditor = audit_source(source, lambda: arbiter(ctx), from_seq, render.progress("auditing"))
    findings = auditor.findings
    if as_json:
        click.echo(
            json.dumps(
                {
                    "source": source,
                    "events": auditor.events,
                    "findings": render.builtins(findings),
                    "proved": render.builtins(auditor.proved),
                }
            )
        )
    else:
        click.echo(render.audit_text(source, auditor))
    if findings:
        ctx.exit(4)


@cli.command()
@click.argument("game")
@click.pass_context
def reveal(ctx: click.Context, game: str) -> None:
    """Publish the dice seed (a dice_revealed event); prints its seq and the seed."""
    revealed = arbiter(ctx).reveal(game)
    click.echo(f"{revealed.seq} {revealed.seed}")


@cli.command()
@click.argument("game")
@json_option
@click.pass_context
def head(ctx: click.Context, game: str, as_json: bool) -> None:
    """Print `SEQ HASH` of the last event: a receipt players can keep."""
    seq, hash_ = arbiter(ctx).head(game)
    click.echo(json.dumps({"seq": seq, "hash": hash_}) if as_json else f"{seq} {hash_}")


@cli.command()
@click.argument("game")
@click.option(
    "-o",
    "output",
    type=click.Path(dir_okay=False, writable=True),
    help="Write to FILE (default stdout).",
)
@click.option(
    "--open",
    "opened",
    is_flag=True,
    help="Open every sealed value before the reveal (a referee's record: never hand it to a "
    "player while the game is live).",
)
@click.pass_context
def export(ctx: click.Context, game: str, output: str | None, opened: bool) -> None:
    """The game as JSON Lines, one event per line (the export format): sealed values stay
    sealed until the seed is revealed, then every one is opened."""
    arb = arbiter(ctx)
    records = arb.export_records(game, opened=opened)
    if output is None:
        for record in records:
            click.echo(export_line(record))
        return
    try:
        with open(output, "w", encoding="utf-8") as fh:
            for record in records:
                fh.write(export_line(record) + "\n")
    except OSError as exc:
        raise InputError(f"cannot write {output}: {exc.strerror}", "input/unwritable") from None


@cli.command("import")
@click.argument("file", metavar="FILE")
@click.option(
    "--game", "game", metavar="ID", help="The imported game's id (default: its recorded id)."
)
@click.option(
    "--chain-only",
    is_flag=True,
    help="Accept a log whose rules cannot be checked yet (values still sealed): its chain is.",
)
@click.pass_context
def import_(ctx: click.Context, file: str, game: str | None, chain_only: bool) -> None:
    """Import an exported game after auditing it in full (chain, rules, dice, seals); prints
    the game id alone."""
    from warlog.arbiter.sources import file_records

    arb = arbiter(ctx, create=True)
    click.echo(arb.import_records(file_records(file), game, chain_only=chain_only))


@cli.command("rulesets")
@json_option
def rulesets_(as_json: bool) -> None:
    """The rulesets, their versions and their bundled scenarios."""
    rows = rulesets.catalogue()
    if as_json:
        click.echo(json.dumps(rows))
    else:
        for row in rows:
            click.echo(
                f"{row['name']} (version {row['version']}): scenarios {', '.join(row['scenarios']) or '-'}"
            )


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port", type=int, default=8000, show_default=True, help="The port (0: any free port)."
)
@click.pass_context
def serve(ctx: click.Context, host: str, port: int) -> None:
    """Run the arbiter server for a tournament (docs/server.md) until stopped.

    The organiser's token is $WARLOG_ADMIN_TOKEN, or one printed once on stderr; the server
    prints `listening on http://HOST:PORT` on stderr when it accepts requests.
    """
    from warlog.server.serve import serve as run_server

    run_server(ctx.obj, host, port)


@cli.command()
@click.option(
    "--keep", metavar="FILE", help="Keep the demo database in FILE (default: a temporary file)."
)
@click.option(
    "--commands",
    "max_commands",
    type=int,
    default=400,
    show_default=True,
    help="Cap on commands per game.",
)
def demo(keep: str | None, max_commands: int) -> None:
    """Play the bundled sample games, replay and audit them, and show their Events views."""
    from warlog.cli.demo import run_demo

    run_demo(keep, max_commands)


def main() -> None:
    cli(prog_name="warlog")
