"""Starting and playing a game: the rulesets, their scenarios, ``new``, ``play``, ``legal``."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

import click

from warlog.arbiter.exchange import export_line
from warlog.cli import render
from warlog.cli.completion import complete_players, complete_rulesets
from warlog.cli.shared import (
    arbiter,
    as_player_option,
    db_option,
    emit,
    game_argument,
    json_option,
)
from warlog.domain import rulesets
from warlog.domain.core.errors import InputError


@click.command()
@click.argument("ruleset", shell_complete=complete_rulesets)
@click.option("--scenario", metavar="NAME|FILE", help="A bundled scenario name or a TOML file.")
@click.option("--game", "game", metavar="ID", help="The new game's id (default: generated).")
@click.option(
    "--dice",
    type=click.Choice(["auto", "manual"]),
    default="auto",
    show_default=True,
    help="auto: warlog rolls, provably fair; manual: a referee types the faces into each command.",
)
@click.option(
    "--salt",
    default="",
    help="Text mixed into the dice derivation (e.g. a tournament's name): at most 256 "
    "printable characters.",
)
@json_option
@db_option
@click.pass_context
def new(
    ctx: click.Context,
    ruleset: str,
    scenario: str | None,
    game: str | None,
    dice: str,
    salt: str,
    as_json: bool,
) -> None:
    """Create a game of RULESET; prints its id alone.

    \b
    Example:
      warlog new armageddon-empires --game final-1
      warlog new battle-for-armageddon --dice manual --scenario my-map.toml
    """
    created = arbiter(ctx, create=True).new_game(ruleset, scenario, game=game, dice=dice, salt=salt)
    emit({"game": created}) if as_json else click.echo(created)


@click.command()
@game_argument
@click.argument("command", required=False, default="-")
@as_player_option("the player who issued the command")
@click.option("--referee", is_flag=True, help="Print the events with every sealed value opened.")
@json_option
@db_option
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

    Prints the events appended as the issuing player may see them. Stops at the first rejected
    command (earlier ones stay applied) and says which line it was. Each line is played as it
    arrives (a pipe kept open plays on). Many commands on stdin cost far less than one process
    each.

    \b
    Example:
      warlog play final-1 '{"type": "end_turn", "player": "red"}'
      warlog legal final-1 --json | head -1 | warlog play final-1 -
    """
    arb = arbiter(ctx)
    if not referee:
        arb.reader(game, as_player)  # an unknown --as is refused before anything is played
    from warlog.domain.core.errors import WarlogError

    # numbered as the input is, blank lines counted and skipped; each line is played as it
    # arrives (a referee's pipe, `tail -f`), so that an interruption keeps those before it
    lines: Iterable[tuple[int, bytes | str]] = (
        [(1, command)] if command != "-" else _stdin_lines(click.open_file("-", "rb"))
    )
    applied = 0
    try:
        for number, line in lines:
            try:
                records = arb.play_as(game, line, as_player, referee=referee)
            except WarlogError as exc:
                if command == "-":
                    exc.message = (
                        f"line {number}: {exc.message} ({render.plural(applied, 'command')} "
                        "applied before it)"
                    )
                raise
            applied += 1
            try:
                for record in records:
                    click.echo(export_line(record) if as_json else render.record_line(record))
            except OSError as exc:
                where = f"line {number} was" if command == "-" else "the command was"
                raise InputError(
                    f"{where} applied (events {records[0].seq}..{records[-1].seq} appended) but "
                    f"what it appended could not be written out: {exc.strerror}; do not play it "
                    f"again (`warlog events {game} --from {records[0].seq}` shows them)",
                    "input/unwritable",
                ) from None
    except KeyboardInterrupt:
        raise InputError(
            f"interrupted: {render.plural(applied, 'command')} applied before it, nothing of "
            "the next",
            "input/interrupted",
        ) from None
    if not applied:
        raise InputError("no command on stdin: give one JSON object a line", "input/empty_command")


#: the longest command line ``play -`` reads: a command is a few hundred bytes
MAX_COMMAND_BYTES = 1024 * 1024


def _stdin_lines(stdin: Any) -> Iterator[tuple[int, bytes]]:
    """Each line of ``stdin`` that is not blank, numbered as the input is, read as it arrives;
    InputError for a line longer than ``MAX_COMMAND_BYTES`` (a device such as /dev/zero)."""
    for number, line in enumerate(iter(lambda: stdin.readline(MAX_COMMAND_BYTES + 1), b""), 1):
        if len(line) > MAX_COMMAND_BYTES:
            raise InputError(
                f"line {number} is longer than {MAX_COMMAND_BYTES:,} bytes: not a command",
                "input/bad_json",
            )
        if line.strip():
            yield number, line


@click.command()
@game_argument
@click.option(
    "--as",
    "--player",
    "player",
    metavar="PLAYER",
    shell_complete=complete_players,
    help="Only this player's commands (default: everyone the game waits for).",
)
@json_option
@db_option
@click.pass_context
def legal(ctx: click.Context, game: str, player: str | None, as_json: bool) -> None:
    """The legal commands now, one JSON object per line, each one `play` accepts.

    When there is none, says why (whose turn it is, what the game waits for, that it is over).
    `play` takes a line as it is, but in a manual-dice game, where each command is followed by a
    `# dice:` note of the dice it needs, in order and for whom: there `play` takes the command
    with those faces added as a "dice" list, not the note.
    With --json: the commands only, one JSON object per line (pipe them into `play -`).

    \b
    Example:
      warlog legal final-1 --as red
    """
    from warlog.arbiter.reports import legal_report

    report = legal_report(arbiter(ctx), game, player)
    if as_json:
        for command in report.commands:
            click.echo(json.dumps(command, ensure_ascii=False, separators=(",", ":")))
        return
    click.echo(render.legal_text(report), err=not report.commands)


@click.command("rulesets")
@json_option
def rulesets_(as_json: bool) -> None:
    """The rulesets, their versions and their bundled scenarios.

    \b
    Example:
      warlog rulesets --json
    """
    from warlog.domain.core.summary import listed

    rows = rulesets.catalogue()
    if as_json:
        emit(rows)
    else:
        for row in rows:
            names = ", ".join(row["scenarios"]) or "-"
            kept = rulesets.get(row["name"]).kept_versions
            also = f"; plays on the games begun under {listed(kept)}" if kept else ""
            click.echo(f"{row['name']} (version {row['version']}{also}): scenarios {names}")


@click.group()
def scenario() -> None:
    """The bundled scenarios: print one to copy and edit."""


@scenario.command("show")
@click.argument("name")
@click.option(
    "--ruleset",
    "ruleset_name",
    metavar="RULESET",
    shell_complete=complete_rulesets,
    help="The ruleset whose scenario it is (default: the one that bundles NAME).",
)
def scenario_show(name: str, ruleset_name: str | None) -> None:
    """Print the bundled scenario NAME (or a ruleset's default scenario) as TOML.

    \b
    Example:
      warlog scenario show cinder-and-glass > my-scenario.toml
      warlog scenario show armageddon-empires    # the same: the ruleset's default
      warlog new armageddon-empires --scenario my-scenario.toml
    """
    if ruleset_name is None and name in rulesets.names():
        ruleset_name, name = name, rulesets.get(name).default_scenario
    click.echo(rulesets.scenario_text(name, ruleset_name), nl=False)
