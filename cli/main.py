"""The ``warlog`` command line: each command opens the database, calls one library function and
renders the result. Errors are one line on stderr with the contract's exit code (cli/errors.py).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

import click

from warlog.arbiter.application import Arbiter
from warlog.arbiter.exchange import export_line
from warlog.cli import render
from warlog.cli.completion import complete_games, complete_players, complete_rulesets
from warlog.cli.context import db_path, open_arbiter
from warlog.cli.errors import WarlogGroup
from warlog.domain import rulesets
from warlog.domain.core.errors import InputError
from warlog.fuzz import BUDGET, EXAMPLES, OUT, STEPS

F = TypeVar("F", bound=Callable[..., Any])

EXIT_CODES = """\b
Exit codes:
  0  done
  1  bad input or environment (JSON, command, field, game, player, database file)
  2  usage (a wrong option or argument)
  3  the rules reject the command; nothing was appended
  4  audit or import found the log altered or invalid, or import could not check
     its rules (a log still sealed); fuzz found a failure (or --replay still
     fails), or a source does not audit clean
  5  another writer appended first; nothing was appended, retry"""


def json_option(f: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON only (for programs).")(
        f
    )


def as_option(f: F) -> F:
    return click.option(
        "--as",
        "as_player",
        metavar="PLAYER",
        shell_complete=complete_players,
        help="As this player may see it (default: the referee, who sees everything).",
    )(f)


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


def finite(value: float, param: click.Parameter) -> float:
    """``value`` if it is a finite number (nan and inf pass a FloatRange); a usage error else."""
    if not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a finite number of seconds", param=param)
    return value


def game_argument(f: F) -> F:
    return click.argument("game", shell_complete=complete_games)(f)


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
    if ctx.obj is None:
        ctx.obj = db_path(db)


def database(ctx: click.Context) -> str:
    """The command's database: ``--db`` (before or after the command), else the default."""
    root = ctx.find_root()
    return db_path(root.obj if isinstance(root.obj, str) else None)


def arbiter(ctx: click.Context, *, create: bool = False) -> Arbiter:
    """The Arbiter on the command's database, closed when the command ends."""
    arb = open_arbiter(database(ctx), create=create)
    ctx.call_on_close(arb.close)
    return arb


def source_arbiter(ctx: click.Context, source: str) -> tuple[Arbiter, str]:
    """An Arbiter holding ``source``: a game of the database, or an export file loaded in memory."""
    from warlog.arbiter.sources import open_source

    return open_source(source, lambda: arbiter(ctx))


def interactive() -> bool:
    """True when a person is at the terminal (stdin and stderr both are one)."""
    return sys.stdin.isatty() and sys.stderr.isatty()


def emit(value: Any) -> None:
    """One JSON value on stdout, nothing else."""
    click.echo(json.dumps(render.builtins(value), ensure_ascii=False))


# ---------------------------------------------------------------------- games


@cli.command()
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


@cli.command()
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


@cli.command()
@game_argument
@click.argument("command", required=False, default="-")
@as_option
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


@cli.command()
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
    """The legal commands now, one JSON object per line, each accepted by `play` as it is.

    When there is none, says why (whose turn it is, what the game waits for, that it is over).
    In a manual-dice game each command is followed by the dice it needs, in order and for whom.
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


@cli.command()
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


@cli.command()
@game_argument
@click.option("--from", "from_seq", type=int, default=1, metavar="SEQ", help="The first event.")
@click.option("--to", "to_seq", type=int, metavar="SEQ", help="The last event (default: the head).")
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


@cli.command("log")
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


@cli.command()
@click.argument("source", metavar="GAME|FILE", shell_complete=complete_games)
@click.option("--from", "from_seq", type=int, default=1, metavar="SEQ", help="The first event.")
@click.option("--to", "to_seq", type=int, metavar="SEQ", help="The last event (default: the head).")
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

    \b
    Example:
      warlog replay final-1 --from 120 --to 140
      warlog replay ./disputed.jsonl --as red --json
    """
    arb, game = source_arbiter(ctx, source)
    for step in arb.replay(game, from_seq, to_seq, as_player):
        click.echo(json.dumps(step, ensure_ascii=False) if as_json else render.replay_text(step))


@cli.command()
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


@cli.command()
@game_argument
@click.option(
    "--at",
    "at",
    type=int,
    required=True,
    metavar="SEQ",
    help="The last event the fork shares with its parent (a batch end).",
)
@click.option("--game", "new_game", metavar="NEWID", help="The fork's id (default: generated).")
@click.option(
    "--dice",
    type=click.Choice(["new", "same"]),
    default="new",
    show_default=True,
    help="new: a new key, unknown dice; same: the parent's dice (only once they are revealed).",
)
@json_option
@db_option
@click.pass_context
def fork(
    ctx: click.Context, game: str, at: int, new_game: str | None, dice: str, as_json: bool
) -> None:
    """Branch a new game from event SEQ; prints the new id alone.

    \b
    Example:
      warlog fork final-1 --at 131 --game what-if
    """
    from warlog.domain.core.summary import listed

    arb = arbiter(ctx)
    created = arb.fork(game, at, new_game=new_game, dice=dice)
    emit({"game": created}) if as_json else click.echo(created)
    live = arb.live_relatives(created)
    if live and dice == "new":
        click.echo(
            f"note: {created} shares hidden history with {listed(live)}, "
            "still being played: what it shows a player, or its reveal, can tell their secrets "
            "from before the cut; keep it with the referee until they end",
            err=True,
        )


@cli.command()
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

    Says exactly what it checked, and exits 4 on findings.

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


@cli.command()
@game_argument
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option(
    "--despite-live-forks",
    is_flag=True,
    help="Reveal even though forks of the game (or the game it was forked from) are still "
    "being played: their secrets from before the fork will be told too.",
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
    was forked from) is still being played, unless --despite-live-forks, or the referee says
    yes when asked at a terminal.

    \b
    Example:
      warlog reveal final-1 --yes
    """
    from warlog.domain.core.summary import listed

    arb = arbiter(ctx)
    live = arb.live_relatives(game)
    if not yes and interactive():
        family = (
            f" {listed(live)} {'shares' if len(live) == 1 else 'share'} hidden history with it "
            f"and {'is' if len(live) == 1 else 'are'} still being played: their secrets from "
            "before the fork would be told too."
            if live
            else ""
        )
        click.confirm(
            f"Revealing the key of {game} ends play in it and makes every hidden value public."
            f"{family} Reveal?",
            abort=True,
            err=True,
        )
        despite_live_forks = True  # asked by name, and said yes
    revealed = arb.reveal(game, despite_live_forks=despite_live_forks)
    emit(revealed) if as_json else click.echo(f"{revealed.seq} {revealed.seed}")
    if live:
        click.echo(
            f"note: {listed(live)} {'shares' if len(live) == 1 else 'share'} hidden history "
            f"with {game} and {'is' if len(live) == 1 else 'are'} still being played: their "
            "secrets from before the fork can now be told from this game's",
            err=True,
        )


@cli.command()
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


@cli.command()
@game_argument
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
@db_option
@click.pass_context
def export(ctx: click.Context, game: str, output: str | None, opened: bool) -> None:
    """Write the game as JSON Lines, one event per line (the export format).

    Sealed values stay sealed until the key is revealed; then every one is opened.

    \b
    Example:
      warlog export final-1 -o final-1.jsonl && python docs/verify.py final-1.jsonl
    """
    if output is not None:
        refuse_own_files(database(ctx), output)
    records = arbiter(ctx).export_records(game, opened=opened)
    if output is None:
        for record in records:
            click.echo(export_line(record))
        return
    write_whole(output, (export_line(record) + "\n" for record in records))


def refuse_own_files(db: str, output: str) -> None:
    """InputError when ``output`` is the database, its key file or one of their journals: an
    export written there would destroy the games or their keys."""
    import os

    from warlog.eventstore.sqlite_vault import vault_path

    if db.startswith("postgresql://") or db.startswith("postgres://"):
        return
    own = [
        f"{base}{end}" for base in (db, vault_path(db)) for end in ("", "-wal", "-shm", "-journal")
    ]
    target = os.path.realpath(output)
    for path in own:
        same = os.path.realpath(path) == target
        if not same and os.path.exists(path) and os.path.exists(output):
            same = os.path.samefile(path, output)
        if same:
            raise InputError(
                f"{output} is the database's own file ({path}): an export there would destroy "
                "it; write to another file",
                "input/unwritable",
            )


def write_whole(output: str, lines: Iterable[str]) -> None:
    """Write ``lines`` to ``output`` whole or not at all: into a new file beside it, which then
    takes its name (a failure leaves whatever was there before); InputError naming why not."""
    import os
    import stat
    import tempfile

    try:
        existing = os.stat(output)
        special, mode = not stat.S_ISREG(existing.st_mode), stat.S_IMODE(existing.st_mode)
    except OSError:
        special, mode = False, 0o666 & ~_umask()  # no such file yet: as open() would make it
    if special:  # a pipe, a terminal, /dev/null: written as it is, never replaced
        try:
            with open(output, "w", encoding="utf-8") as fh:
                for line in lines:
                    fh.write(line)
        except OSError as exc:
            raise InputError(f"cannot write {output}: {exc.strerror}", "input/unwritable") from None
        return
    folder = os.path.dirname(os.path.abspath(output))
    try:
        fd, temporary = tempfile.mkstemp(prefix=".warlog-export-", dir=folder)
    except OSError as exc:
        raise InputError(f"cannot write {output}: {exc.strerror}", "input/unwritable") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for line in lines:
                fh.write(line)
        os.chmod(temporary, mode)  # the file it replaces keeps its mode (a referee's 0600)
        os.replace(temporary, output)
    except OSError as exc:
        os.unlink(temporary)
        raise InputError(f"cannot write {output}: {exc.strerror}", "input/unwritable") from None
    except BaseException:
        os.unlink(temporary)
        raise


def _umask() -> int:
    import os

    current = os.umask(0)
    os.umask(current)
    return current


@cli.command("import")
# click.Path for completion only: a directory or a missing file is read_file's one line, exit 1
@click.argument("file", metavar="FILE", type=click.Path())
@click.option(
    "--game",
    "game",
    metavar="ID",
    help="The imported game's id (default: the id its log records, a fork's own for a fork).",
)
@click.option(
    "--chain-only",
    is_flag=True,
    help="Accept a log whose rules cannot be checked yet (values still sealed): its chain is.",
)
@json_option
@db_option
@click.pass_context
def import_(
    ctx: click.Context, file: str, game: str | None, chain_only: bool, as_json: bool
) -> None:
    """Import an exported game after auditing it in full; prints the game id alone.

    The audit checks the chain, the rules, the dice and the seals; a log with any finding is
    refused.

    \b
    Example:
      warlog import final-1.jsonl --game final-1-copy
    """
    from warlog.arbiter.sources import file_records

    arb = arbiter(ctx, create=True)
    with render.progress("importing") as progress:
        records = file_records(file)
        imported = arb.import_records(records, game, chain_only=chain_only, progress=progress)
    emit({"game": imported}) if as_json else click.echo(imported)


@cli.command("rulesets")
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


@cli.group()
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


@cli.command()
@click.argument("sources", nargs=-1, metavar="SOURCE...", shell_complete=complete_games)
@click.option(
    "--budget",
    type=click.FloatRange(min=0, min_open=True),
    callback=lambda ctx, param, value: finite(value, param),
    default=BUDGET,
    show_default=True,
    metavar="SECONDS",
    help="Time to search, shared by the rulesets (shrinking may take half as long again).",
)
@click.option(
    "--examples",
    type=click.IntRange(min=1),
    default=EXAMPLES,
    show_default=True,
    help="The examples per ruleset Hypothesis aims for (each a fork driven by generated "
    "commands; a run may make a few more, docs/fuzzing.md).",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0, max=2**32 - 1),
    help="Seed of the search: the same seed and sources give the same examples (default: "
    "random, printed in the summary).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=OUT,
    show_default=True,
    help="Folder for the failures: NAME.jsonl (the log) and NAME.json (the failing step).",
)
@click.option(
    "--steps",
    type=click.IntRange(min=1, max=1000),
    default=STEPS,
    show_default=True,
    help="The most generated commands per example.",
)
@click.option(
    "--replay",
    "replay_file",
    metavar="FILE.json",
    help="Replay a failure written by a fuzz run: exit 4 while it fails, 0 once fixed.",
)
@json_option
@db_option
@click.pass_context
def fuzz(
    ctx: click.Context,
    sources: tuple[str, ...],
    budget: float,
    examples: int,
    seed: int | None,
    out: str,
    steps: int,
    replay_file: str | None,
    as_json: bool,
) -> None:
    """Fuzz rule edge cases from recorded games and shrink each failure to a replayable log.

    A SOURCE is a game of the database, an exported .jsonl file or a folder of them (searched
    recursively). Each example forks a source at a batch end with new dice, plays generated
    commands, mostly legal, some not, and checks after every step: nothing raised but
    warlog's own errors, commands listed as legal accepted and those known to be illegal
    refused, the state unchanged under a command, the audit, replay and snapshots, the
    ruleset's invariants, no dead end, and what each player may see. Each failure is shrunk
    and written to --out; exit 4 when there is one, 0 when none.

    \b
    Example:
      warlog fuzz fixtures/ --budget 30
      warlog fuzz final-1 ./disputed.jsonl --seed 7 --out failures/
      warlog fuzz --replay failures/battle-for-armageddon-crash-1a2b3c4d.json
    """
    if replay_file is not None:
        if sources:
            raise click.UsageError("--replay takes no SOURCE")
        from warlog.fuzz.fixture import replay as replay_fixture

        replayed = replay_fixture(replay_file)
        if as_json:
            failure = replayed.failure
            emit(
                {
                    "fixture": replay_file,
                    "failing": failure is not None,
                    "check": failure.check if failure else None,
                    "recorded": replayed.fixture.check,
                    "message": failure.message if failure else None,
                    "notes": replayed.notes,
                }
            )
        else:
            click.echo(render.replayed_text(replay_file, replayed))
        if replayed.failure is not None:
            ctx.exit(4)
        return
    if not sources:
        raise click.UsageError("give at least one SOURCE (a game id, a .jsonl file, a folder)")
    from functools import cache

    from warlog.fuzz.report import as_json as report_json
    from warlog.fuzz.run import fuzz as run_fuzz

    database = cache(lambda: arbiter(ctx))
    with render.bar("fuzzing") as show:

        def progress(ruleset: str, n: int, done: float) -> None:
            if show is not None:
                show(done, f"{ruleset}: {render.plural(n, 'example')}")

        report = run_fuzz(
            list(sources),
            database,
            budget=budget,
            examples=examples,
            steps=steps,
            seed=seed,
            out=out,
            progress=progress,
        )
    emit(report_json(report)) if as_json else click.echo(render.fuzz_text(report))
    if report.found:
        ctx.exit(4)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="The port (0: any free port).",
)
@click.option(
    "--max-connections",
    type=click.IntRange(1, 100_000),
    default=1000,
    show_default=True,
    help="Connections held at once: beyond it the one idle longest is closed, or a newcomer "
    "gets 503.",
)
@click.option(
    "--request-timeout",
    type=click.FloatRange(0.5, 3600),
    default=10.0,
    show_default=True,
    help="Seconds a client has to send a whole request (head and body) before 408.",
)
@db_option
@click.pass_context
def serve(
    ctx: click.Context, host: str, port: int, max_connections: int, request_timeout: float
) -> None:
    """Run the arbiter server for a tournament until stopped (docs/server.md).

    Many games at once over HTTP, each player's token allowed only its own commands and view,
    with a live feed of each game. The organiser's token is $WARLOG_ADMIN_TOKEN, or one printed
    once on stderr; `listening on http://HOST:PORT` is printed on stderr once it accepts
    requests. Ctrl-C or SIGTERM stops it in good order (exit 0).

    \b
    Example:
      WARLOG_ADMIN_TOKEN=s3cret warlog serve --db tournament.db --port 8000
    """
    from warlog.server.guard import Limits
    from warlog.server.serve import serve as run_server

    limits = Limits(connections=max_connections, request_seconds=request_timeout)
    run_server(database(ctx), host, port, limits=limits)


@cli.command()
@click.option(
    "--keep",
    metavar="FILE",
    help="Keep the demo database in FILE (default: a temporary one, removed at the end).",
)
@click.option(
    "--reuse",
    is_flag=True,
    help="Let --keep add the demo's games to a database that already holds games.",
)
@click.option(
    "--commands",
    "max_commands",
    type=int,
    default=3000,
    show_default=True,
    help="Cap on commands per game (the bundled games end well before it).",
)
def demo(keep: str | None, reuse: bool, max_commands: int) -> None:
    """Play the bundled sample games, replay and audit them, and show their Events views.

    \b
    Example:
      warlog demo
      warlog demo --keep demo.db && warlog --db demo.db games
    """
    from warlog.cli.demo import run_demo

    run_demo(keep, max_commands, reuse=reuse)
