"""Settling a dispute: ``audit`` a log, ``reveal`` a game's key, ``head``, the receipt to keep."""

from __future__ import annotations

import click

from warlog.cli import render
from warlog.cli.completion import complete_games
from warlog.cli.shared import arbiter, db_option, emit, game_argument, interactive, json_option


@click.command()
@click.argument("source", metavar="GAME|FILE", shell_complete=complete_games)
@click.option(
    "--from",
    "from_seq",
    type=int,
    default=1,
    metavar="SEQ",
    help="Re-derive rules, dice and seals from SEQ (the chain is always checked whole).",
)
@json_option
@db_option
@click.pass_context
def audit(ctx: click.Context, source: str, from_seq: int, as_json: bool) -> None:
    """Check a log: the chain, every consequence, the revealed dice and seals.

    Lists its findings in the log's order (by seq, then by check), an event that differs with
    the fields that differ and their two values; then says exactly what it checked, and why
    not the rest. Exits 4 on findings; a FILE that is not JSON Lines is bad input (exit 1).

    \b
    Example:
      warlog audit final-1
      warlog audit ./disputed.jsonl --json
    """
    from warlog.arbiter.sources import audit_source

    with render.progress("auditing") as progress:
        auditor = audit_source(source, lambda: arbiter(ctx), from_seq, progress)
    findings = auditor.findings
    if as_json:
        emit(
            {
                "source": source,
                "events": auditor.events,
                "findings": findings,
                "rules": auditor.rules,
                "proved": auditor.proved,
                "from": auditor.from_seq,
                "complete": render.complete(auditor),
            }
        )
    else:
        click.echo(render.audit_text(source, auditor))
    if findings:
        ctx.exit(4)


@click.command()
@game_argument
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option(
    "--despite-live-forks",
    is_flag=True,
    help="Reveal even though forks of the game (or the game it was forked from, or a copy "
    "imported from an export of it) are still being played: their secrets will be told too.",
)
@json_option
@db_option
@click.pass_context
def reveal(
    ctx: click.Context, game: str, yes: bool, despite_live_forks: bool, as_json: bool
) -> None:
    """Publish the game's key, ending play in that game; prints the seq and the seed.

    Every sealed value opens and every die can be checked; fork the game with --dice new to
    play on. Refused (exit 1) while a game that shares its hidden history (a fork, the game it
    was forked from, a copy imported from an export of it) is still being played, unless
    --despite-live-forks, or the referee says yes when asked at a terminal.

    \b
    Example:
      warlog reveal final-1 --yes
    """
    from warlog.arbiter.forks import live_sharers
    from warlog.arbiter.revealing import sharers

    arb = arbiter(ctx)
    live = live_sharers(arb, game)
    told = (
        f"{sharers(live, game)}: their secrets{'' if live.keyed else ' from before the fork'}"
        if live.family or live.keyed
        else ""
    )
    if not yes and interactive():
        family = f" {told} would be told too." if told else ""
        click.confirm(
            f"Revealing the key of {game} ends play in it and makes every hidden value public."
            f"{family} Reveal?",
            abort=True,
            err=True,
        )
        despite_live_forks = True  # asked by name, and said yes
    revealed = arb.reveal(game, despite_live_forks=despite_live_forks)
    emit(revealed) if as_json else click.echo(f"{revealed.seq} {revealed.seed}")
    if told:
        click.echo(f"note: {told} can now be told from this game's", err=True)


@click.command()
@game_argument
@json_option
@db_option
@click.pass_context
def head(ctx: click.Context, game: str, as_json: bool) -> None:
    """Print `SEQ HASH` of the last event: a receipt players can keep.

    \b
    Example:
      warlog head final-1 >> my-receipts.txt
    """
    seq, hash_ = arbiter(ctx).head(game)
    emit({"seq": seq, "hash": hash_}) if as_json else click.echo(f"{seq} {hash_}")
