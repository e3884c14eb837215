"""Reading a game: the games, a position, the events, the Events view, a replay, an explanation."""

from __future__ import annotations

import json

import click

from warlog.arbiter.exchange import export_line
from warlog.cli import render
from warlog.cli.completion import complete_games, complete_players
from warlog.cli.shared import (
    arbiter,
    as_option,
    db_option,
    emit,
    game_argument,
    json_option,
    range_options,
)


@click.command()
@json_option
@db_option
@click.pass_context
def games(ctx: click.Context, as_json: bool) -> None:
    """Every game in the database: ruleset, scenario, players, head, whose move, forks.

    \b
    Example:
      warlog games
      warlog games --json | jq '.[] | select(.over | not) | .game'
    """
    from warlog.arbiter.reports import games as list_games

    found = list_games(arbiter(ctx))
    emit(found) if as_json else click.echo(render.games_text(found))


@click.command()
@game_argument
@click.option("--at", "at", type=int, metavar="SEQ", help="After event SEQ (default: the latest).")
@as_option
@click.option("--full", is_flag=True, help="The whole raw state, not the summary.")
@json_option
@db_option
@click.pass_context
def state(
    ctx: click.Context,
    game: str,
    at: int | None,
    as_player: str | None,
    full: bool,
    as_json: bool,
) -> None:
    """Show the position after event SEQ (default: the latest).

    The clock, who must decide what, each side's forces and holdings, and the board; the whole
    raw state with --full or --json.

    \b
    Example:
      warlog state final-1 --as red
      warlog state final-1 --at 131 --json | jq .state.round
    """
    arb = arbiter(ctx)
    view = arb.view(game, at, as_player)
    if as_json:
        emit(view)
    elif full:
        click.echo(render.view_text(view))
    else:
        click.echo(render.summary_text(view, arb.summary(game, at, as_player)))


@click.command()
@game_argument
@range_options
@as_option
@json_option
@db_option
@click.pass_context
def events(
    ctx: click.Context,
    game: str,
    from_seq: int,
    to_seq: int | None,
    as_player: str | None,
    as_json: bool,
) -> None:
    """The events of the log; with --json, JSON Lines in the export format.

    \b
    Example:
      warlog events final-1 --from 120 --to 140 --as blue
    """
    for record in arbiter(ctx).records_as(game, as_player, from_seq, to_seq):
        click.echo(export_line(record) if as_json else render.record_line(record))


@click.command("log")
@game_argument
@click.option(
    "--as",
    "--empire",
    "empire",
    metavar="PLAYER",
    shell_complete=complete_players,
    help="Only this player's tab.",
)
@click.option("--all", "show_all", is_flag=True, help="Expired entries too.")
@json_option
@db_option
@click.pass_context
def log_(ctx: click.Context, game: str, empire: str | None, show_all: bool, as_json: bool) -> None:
    """The in-game Events view: the entries still in force, one tab per player.

    \b
    Example:
      warlog log final-1 --as red --all
    """
    arb = arbiter(ctx)
    view = arb.events_view(game, empire)
    tabs = view.tabs(empire, show_all)
    if as_json:
        emit({"round": view.round, "tabs": tabs})
    else:
        words = arb.ruleset_of(game)
        click.echo(render.events_view_text(view.round, tabs, show_all, words.round_word))


@click.command()
@click.argument("source", metavar="GAME|FILE", shell_complete=complete_games)
@range_options
@as_option
@json_option
@db_option
@click.pass_context
def replay(
    ctx: click.Context,
    source: str,
    from_seq: int,
    to_seq: int | None,
    as_player: str | None,
    as_json: bool,
) -> None:
    """Walk a game event by event from any event, with why each happened and what it changed.

    SOURCE is a game of the database or an exported file (a path holding '/' or ending .jsonl).
    A FILE is audited first as `warlog audit FILE` audits it (chain, rules, dice and seals) and
    refused (exit 4) with its first finding; it replays only with every value opened under a
    seed it reveals (the export made after the reveal; else exit 1). A GAME is shown as the
    database holds it, not audited (`warlog audit GAME` does): a missing row stops it (exit 1).

    \b
    Example:
      warlog replay final-1 --from 120 --to 140
      warlog replay ./disputed.jsonl --as red --json
    """
    from warlog.arbiter.sources import replay_source

    steps = replay_source(source, lambda: arbiter(ctx), from_seq, to_seq, as_player)
    for step in steps:
        click.echo(json.dumps(step, ensure_ascii=False) if as_json else render.replay_text(step))


@click.command()
@game_argument
@click.argument("seq", type=int)
@as_option
@json_option
@db_option
@click.pass_context
def explain(ctx: click.Context, game: str, seq: int, as_player: str | None, as_json: bool) -> None:
    """Why event SEQ happened: the command, the dice, the rule and its arithmetic.

    \b
    Example:
      warlog explain final-1 134
    """
    report = arbiter(ctx).explain(game, seq, as_player)
    emit(report) if as_json else click.echo(render.explain_text(report))
