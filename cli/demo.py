"""``warlog demo``: play a game of every ruleset, replay it, audit it and show its Events view;
then replay and audit the recorded games bundled in ``fixtures/`` against their checkpoints."""

from __future__ import annotations

import os
import shutil
import tempfile

import click

from warlog.arbiter.application import Arbiter
from warlog.arbiter.autoplay import autoplay
from warlog.arbiter.checkpoints import check_checkpoints
from warlog.arbiter.exchange import export_line
from warlog.arbiter.sources import audit_export, recording_arbiter
from warlog.cli.context import open_arbiter
from warlog.cli.render import audit_text, events_view_text, plural
from warlog.domain import rulesets
from warlog.domain.core.errors import InputError, IntegrityError
from warlog.fixtures import recordings


def run_demo(keep: str | None, max_commands: int, *, reuse: bool = False) -> None:
    """Play, replay and audit a game of every ruleset and every recorded game. The database is
    a temporary one, removed at the end, unless ``keep`` names one (InputError if it already
    holds games and ``reuse`` was not asked for)."""
    folder = None if keep else tempfile.mkdtemp(prefix="warlog-demo-")
    path = keep or os.path.join(folder or "", "demo.db")
    # an empty file (what touch or mktemp leaves) holds no games: the demo makes it a database
    if keep and not reuse and os.path.exists(keep) and os.path.getsize(keep):
        held = _games_in(keep)
        if held:
            raise InputError(
                f"{keep} already holds {held} games; the demo adds its own to a database only "
                "with --reuse (or give --keep a new file)",
                "input/database_in_use",
            )
    try:
        with open_arbiter(path, create=True) as arb:
            failed = _play_and_check(arb, max_commands)
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    click.echo(
        f"\ndemo database: {path}" if keep else "\n(the demo's temporary database is removed)"
    )
    if failed:
        raise IntegrityError("the demo found a problem (see above)", "audit/demo_failed")


def _games_in(path: str) -> int:
    from warlog.eventstore.sqlite_store import SQLiteStore

    with SQLiteStore(path) as store:
        return len(store.games())


def _play_and_check(arb: Arbiter, max_commands: int) -> bool:
    failed = False
    for name in rulesets.names():
        ruleset = rulesets.get(name)
        click.secho(f"\n=== {name}: a new game, played by the autoplay policy ===", bold=True)
        game = arb.new_game(name)
        played = autoplay(arb, game, max_commands)
        seq, hash_ = arb.head(game)
        over = "the game is over" if arb.view(game)["over"] else f"stopped after {played} commands"
        click.echo(f"game {game}: {plural(played, 'command')}, {plural(seq, 'event')}; {over}")
        click.echo(f"receipt (warlog head): {seq} {hash_}")
        revealed = arb.reveal(game)
        click.echo(f"key revealed at seq {revealed.seq}: every die and sealed value is checkable")
        same = arb.replay_agrees(game)
        click.echo(f"replayed from the log: {'identical state' if same else 'STATE DIFFERS'}")
        failed |= not same
        auditor = audit_export([export_line(r) for r in arb.export_records(game)])
        click.echo(audit_text(f"the export of {game}", auditor))
        failed |= bool(auditor.findings) or bool(auditor.proved.rules_stopped_at)
        view = arb.events_view(game)
        click.echo(events_view_text(view.round, view.tabs(), False, ruleset.round_word))
    for recording in recordings():
        click.secho(f"\n=== recorded game {recording.name} ===", bold=True)
        memory, game = recording_arbiter(recording.log)
        auditor = memory.audit(game)
        click.echo(audit_text(recording.name.split("/")[-1], auditor))
        marks = recording.checkpoints
        failures = [] if marks is None else check_checkpoints(memory, game, marks)
        click.echo("checkpoints: " + ("all match" if not failures else "; ".join(failures)))
        failed |= bool(auditor.findings or failures)
        view = memory.events_view(game)
        word = memory.ruleset_of(game).round_word
        click.echo(events_view_text(view.round, view.tabs(), False, word))
    return failed
