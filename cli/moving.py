"""Moving a game: ``fork`` it into a new one, ``export`` it to a file, ``import`` a file."""

from __future__ import annotations

from collections.abc import Iterable

import click

from warlog.arbiter.exchange import export_line
from warlog.cli import render
from warlog.cli.shared import arbiter, database, db_option, emit, game_argument, json_option
from warlog.domain.core.errors import InputError


@click.command()
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


@click.command()
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


@click.command("import")
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
@click.option(
    "--despite-live-forks",
    is_flag=True,
    help="Import a log that plays by the key of a game of this database still being played "
    "(an export of it): the copy rolls that game's dice and holds its secrets.",
)
@json_option
@db_option
@click.pass_context
def import_(
    ctx: click.Context,
    file: str,
    game: str | None,
    chain_only: bool,
    despite_live_forks: bool,
    as_json: bool,
) -> None:
    """Import an exported game after auditing it in full; prints the game id alone.

    The audit checks the chain, the rules, the dice and the seals; a log with any finding is
    refused. So is (exit 1) a log that plays by the key of a game of this database still being
    played, an export of it, unless --despite-live-forks: fork the game with --dice new instead.

    \b
    Example:
      warlog import final-1.jsonl --game final-1-copy
    """
    from warlog.arbiter.sources import file_records

    arb = arbiter(ctx, create=True)
    with render.progress("importing") as progress:
        records = file_records(file)
        imported = arb.import_records(
            records,
            game,
            chain_only=chain_only,
            progress=progress,
            despite_live_forks=despite_live_forks,
        )
    emit({"game": imported}) if as_json else click.echo(imported)
