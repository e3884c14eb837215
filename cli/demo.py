"""``warlog demo``: play a game of every ruleset, replay it, audit it and show its Events view;
then replay and audit the recorded games bundled in ``fixtures/`` against their checkpoints."""

from __future__ import annotations

import os
import tempfile

import click

from warlog.arbiter.autoplay import autoplay
from warlog.arbiter.checkpoints import check_checkpoints
from warlog.arbiter.exchange import export_line
from warlog.arbiter.sources import audit_export, recording_arbiter
from warlog.cli.context import open_arbiter
from warlog.cli.render import audit_text, events_view_text
from warlog.domain import rulesets
from warlog.domain.core.errors import IntegrityError
from warlog.fixtures import recordings


def run_demo(keep: str | None, max_commands: int) -> None:
    path = keep or os.path.join(tempfile.mkdtemp(prefix="warlog-demo-"), "demo.db")
    arb = open_arbiter(path, create=True)
    failed = False
    for name in rulesets.names():
        click.secho(f"\n=== {name}: a new game, played by the autoplay policy ===", bold=True)
        game = arb.new_game(name)
        played = autoplay(arb, game, max_commands)
        seq, hash_ = arb.head(game)
        over = "the game is over" if arb.view(game)["over"] else f"stopped after {played} commands"
        click.echo(f"game {game}: {played} commands, {seq} events; {over}")
        click.echo(f"receipt (warlog head): {seq} {hash_}")
        revealed = arb.reveal(game)
        click.echo(f"seed revealed at seq {revealed.seq}")
        same = arb.replay_agrees(game)
        click.echo(f"replayed from the log: {'identical state' if same else 'STATE DIFFERS'}")
        failed |= not same
        auditor = audit_export([export_line(r) for r in arb.records(game)])
        click.echo(audit_text(f"the export of {game}", auditor))
        failed |= bool(auditor.findings)
        view = arb.events_view(game)
        click.echo(events_view_text(view.round, view.tabs(), False))
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
        click.echo(events_view_text(view.round, view.tabs(), False))
    click.echo(f"\ndemo database: {path}")
    if failed:
        raise IntegrityError("the demo found a problem (see above)", "audit/demo_failed")
