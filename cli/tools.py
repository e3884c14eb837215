"""The tools around the games: ``fuzz`` the rules, ``serve`` a tournament, the ``demo``."""

from __future__ import annotations

import math

import click

from warlog.cli import render
from warlog.cli.completion import complete_games
from warlog.cli.shared import arbiter, database, db_option, emit, json_option
from warlog.domain.core.errors import InputError
from warlog.domain.core.summary import listed
from warlog.fuzz import BUDGET, EXAMPLES, OUT, STEPS


def finite(value: float, param: click.Parameter) -> float:
    """``value`` if it is a finite number (nan and inf pass a FloatRange); a usage error else."""
    if not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a finite number of seconds", param=param)
    return value


@click.command()
@click.argument("sources", nargs=-1, metavar="SOURCE...", shell_complete=complete_games)
@click.option(
    "--budget",
    type=click.FloatRange(min=0, min_open=True),
    callback=lambda ctx, param, value: finite(value, param),
    default=BUDGET,
    show_default=True,
    metavar="SECONDS",
    help="Time to search, once the sources are loaded, shared by the rulesets (shrinking may "
    "take half as long again).",
)
@click.option(
    "--examples",
    type=click.IntRange(min=1),
    default=EXAMPLES,
    show_default=True,
    help="The examples per ruleset to run to their end (each a fork of a source driven by "
    "generated commands); the count also holds those Hypothesis cuts short, out of draws, "
    "their steps checked but not their end (docs/fuzzing.md).",
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
    and written to --out; exit 4 when there is one, 0 when none, 1 when the budget ran out
    before a ruleset's first example (nothing was checked there). Ctrl-C stops the search as
    the budget would: the summary says where, what was found is written (exit 4), else exit 1.

    \b
    Example:
      warlog fuzz fixtures/ --budget 30      # in a checkout: its recorded games
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
    from warlog.fuzz.sources import NotClean

    database = cache(lambda: arbiter(ctx))
    with render.bar("fuzzing") as show:

        def progress(ruleset: str, n: int, done: float) -> None:
            if show is not None:
                show(done, f"{ruleset}: {render.plural(n, 'example')}")

        try:
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
        except NotClean as exc:  # the line names the first; --json every one
            if as_json:
                emit({"not_clean": exc.sources})
            raise
    emit(report_json(report)) if as_json else click.echo(render.fuzz_text(report))
    if report.found:
        ctx.exit(4)
    if report.interrupted:  # as `play -` says it: nothing found is not nothing to find
        (tally,) = (t for t in report.tallies if t.ruleset == report.interrupted)
        raise InputError(
            f"interrupted in {tally.ruleset} after {render.plural(tally.examples, 'example')}"
            + (f", before {listed(report.unsearched)}" if report.unsearched else "")
            + ": no failure found in what ran",
            "input/interrupted",
        )
    unchecked = report.unchecked()
    if unchecked:  # a run that checked nothing must not pass as one that found nothing
        raise InputError(
            f"no example ran in {listed(unchecked)} within the budget of {budget:g} s: "
            "nothing was checked there; give a larger --budget",
            "fuzz/nothing_checked",
        )


@click.command()
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
@click.option(
    "--pace",
    metavar="MS",
    # server.pace.MAX_PACE_MS, written out: importing the server would slow every command's start
    type=click.IntRange(0, 2000),
    default=0,
    show_default=True,
    help="Send each answer a whole number of MS-millisecond ticks after its request arrived: "
    "how long a read or a command takes hangs on the other side's secrets, and a player timing "
    'the answers then sees whole ticks only (docs/server.md, "Timing"). 0: as soon as ready.',
)
@db_option
@click.pass_context
def serve(
    ctx: click.Context,
    host: str,
    port: int,
    max_connections: int,
    request_timeout: float,
    pace: int,
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
    run_server(database(ctx), host, port, limits=limits, pace=pace / 1000)


@click.command()
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
