"""``warlog demo``: play a game of every ruleset, replay it, audit it and show its Events view;
then replay and audit the recorded games bundled in ``fixtures/`` against their checkpoints."""

from __future__ import annotations

import importlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import click
import msgspec

from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import Auditor
from warlog.arbiter.exchange import export_line, parse_lines
from warlog.cli.context import file_records, memory_arbiter, open_arbiter
from warlog.cli.render import audit_text, events_view_text
from warlog.domain import rulesets
from warlog.domain.core.errors import IntegrityError
from warlog.projections.events_view import EventsView

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def autoplayer(ruleset: Any) -> Any:
    """The ruleset's deterministic autoplay policy (``choose(state, player, legal)``)."""
    package = type(ruleset).__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.autoplay")


def autoplay_game(arb: Arbiter, game: str, max_commands: int) -> int:
    """Play ``game`` with the ruleset's autoplay policy until it ends or ``max_commands``; the count."""
    ruleset = arb.ruleset_of(game)
    policy = autoplayer(ruleset)
    played = 0
    while played < max_commands:
        state = arb.state(game)
        if ruleset.is_terminal(state):
            break
        active = list(ruleset.active_players(state))
        if not active:
            break
        player = active[0]
        legal = list(ruleset.legal_commands(state, player))
        if not legal:
            break
        command = policy.choose(state, player, legal)
        arb.play(game, msgspec.json.encode(command))
        played += 1
    return played


def check_checkpoints(arb: Arbiter, game: str, path: Path) -> list[str]:
    """Compare the recorded checkpoints (``{"seq": N, "expect": {"dotted.path": value}}``)."""
    failures: list[str] = []
    if not path.exists():
        return failures
    for checkpoint in json.loads(path.read_text()):
        view = arb.view(game, checkpoint["seq"])["state"]
        for dotted, want in checkpoint["expect"].items():
            got: Any = view
            for key in dotted.split("."):
                got = got.get(key) if isinstance(got, dict) else None
            if got != want:
                failures.append(f"seq {checkpoint['seq']}: {dotted} is {got!r}, recorded {want!r}")
    return failures


def run_demo(keep: str | None, max_commands: int) -> None:
    path = keep or os.path.join(tempfile.mkdtemp(prefix="warlog-demo-"), "demo.db")
    arb = open_arbiter(path, create=True)
    failed = False
    for name in rulesets.names():
        ruleset = rulesets.get(name)
        click.secho(f"\n=== {name}: a new game, played by the autoplay policy ===", bold=True)
        game = arb.new_game(name)
        played = autoplay_game(arb, game, max_commands)
        seq, hash_ = arb.head(game)
        over = (
            "the game is over"
            if ruleset.is_terminal(arb.state(game))
            else f"stopped after {played} commands"
        )
        click.echo(f"game {game}: {played} commands, {seq} events; {over}")
        click.echo(f"receipt (warlog head): {seq} {hash_}")
        revealed = arb.reveal(game)
        click.echo(f"seed revealed at seq {revealed.seq}")
        replayed = arb.fold_records(ruleset, arb.records(game))
        same = msgspec.msgpack.encode(replayed.state) == msgspec.msgpack.encode(arb.state(game))
        click.echo(f"replayed from the log: {'identical state' if same else 'STATE DIFFERS'}")
        failed |= not same
        exported = [export_line(r) for r in arb.records(game)]
        copy = memory_arbiter()
        copy.import_records(list(parse_lines(exported)))
        auditor = Auditor(rulesets.get)
        auditor.feed(parse_lines(exported))
        click.echo(audit_text(f"the export of {game}", auditor))
        failed |= bool(auditor.findings)
        view = EventsView(ruleset).feed(arb.records(game))
        click.echo(events_view_text(view.round, view.tabs(), False))
    for fixture in sorted(FIXTURES.glob("*/*.jsonl")):
        click.secho(f"\n=== recorded game {fixture.relative_to(FIXTURES)} ===", bold=True)
        memory = memory_arbiter()
        game = memory.import_records(file_records(str(fixture)))
        auditor = Auditor(rulesets.get)
        auditor.feed(memory.records(game))
        click.echo(audit_text(str(fixture.name), auditor))
        failures = check_checkpoints(memory, game, fixture.with_suffix(".checkpoints.json"))
        click.echo("checkpoints: " + ("all match" if not failures else "; ".join(failures)))
        failed |= bool(auditor.findings or failures)
        view = EventsView(memory.ruleset_of(game)).feed(memory.records(game))
        click.echo(events_view_text(view.round, view.tabs(), False))
    click.echo(f"\ndemo database: {path}")
    if failed:
        raise IntegrityError("the demo found a problem (see above)", "audit/demo_failed")
