"""Turning library results into text for people (``--json`` output is built in cli/main.py)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import Auditor
from warlog.arbiter.exchange import export_line
from warlog.domain.core.events import CORE_TAGS
from warlog.domain.core.fold import evolve_event
from warlog.eventstore.records import Record
from warlog.projections.changes import changes
from warlog.projections.events_view import Entry


def record_line(record: Record) -> str:
    return f"{record.seq:>6}  {record.type:<22} {record.data}"


def view_text(view: dict[str, Any]) -> str:
    who = f" as {view['as']}" if view.get("as") else ""
    over = "  (game over)" if view.get("over") else ""
    head = f"game {view['game']} ({view['ruleset']}) after seq {view['seq']}, round {view['round']}{who}{over}"
    return head + "\n" + json.dumps(view["state"], indent=2, ensure_ascii=False)


def visible_lines(
    arb: Arbiter, game: str, records: Iterable[Record], player: str, as_json: bool
) -> Iterator[str]:
    """The events as ``player`` may see them: hidden ones left out, redacted ones shown redacted."""
    loaded = arb.loaded(game)
    folded = arb.folded(game)
    if player not in folded.meta.players:
        from warlog.domain.core.errors import InputError

        raise InputError(
            f"unknown player {player!r}; this game's players are {', '.join(folded.meta.players)}",
            "input/unknown_player",
        )
    for record in records:
        event = loaded.codec.decode(record.type, record.data)
        shown = loaded.ruleset.visible_event(
            event, player
        )  # core events too: commands can be secret
        if shown is None:
            continue
        if shown is not event:
            _, data = loaded.codec.encode(shown)
            record = Record(record.seq, record.type, data, record.at, record.prev, record.hash)
        yield export_line(record) if as_json else record_line(record)


def events_view_text(round_: int, tabs: dict[str, list[Entry]], show_all: bool) -> str:
    lines = [f"Events — round {round_}" + ("  (all entries, expired included)" if show_all else "")]
    for empire, entries in tabs.items():
        lines.append(f"[{empire}]")
        if not entries:
            lines.append("  (nothing in force)")
        for e in entries:
            rounds = "1 round" if e.duration == 1 else f"{e.duration} rounds"
            lines.append(f"  r{e.round} (for {rounds}, seq {e.seq})  {e.text}")
    return "\n".join(lines)


def replay_steps(
    arb: Arbiter, game: str, from_seq: int, to_seq: int | None
) -> Iterator[dict[str, Any]]:
    """Each event from ``from_seq`` with its explanation and what it changed in the full view."""
    loaded = arb.loaded(game)
    ruleset, codec = loaded.ruleset, loaded.codec
    state = arb.state(game, from_seq - 1) if from_seq > 1 else None
    before_view: Any = ruleset.view(state, None) if state is not None else {}
    for record in arb.records(game, from_seq, to_seq):
        event = codec.decode(record.type, record.data)
        state = evolve_event(ruleset, state, event)
        after_view = ruleset.view(state, None) if state is not None else {}
        yield {
            "seq": record.seq,
            "type": record.type,
            "data": json.loads(record.data),
            "explain": event.explain(),
            "changes": changes(before_view, after_view)
            if record.type not in CORE_TAGS or record.seq == 1
            else [],
        }
        before_view = after_view


def replay_text(step: dict[str, Any]) -> str:
    lines = [f"{step['seq']:>6}  {step['type']}  {json.dumps(step['data'], ensure_ascii=False)}"]
    if step["explain"]:
        lines += [f"        why: {line}" for line in step["explain"].splitlines()]
    if step["seq"] == 1:
        lines.append("        (the scenario's initial state)")
    else:
        lines += [f"        {change}" for change in step["changes"]]
    return "\n".join(lines)


def explain_text(report: dict[str, Any]) -> str:
    lines = [
        f"event {report['seq']}: {report['type']} {json.dumps(report['data'], ensure_ascii=False)}"
    ]
    lines.append(f"batch: events {report['batch'][0]}..{report['batch'][1]}")
    command = report.get("command")
    if command:
        lines.append(
            f"command (seq {command['seq']}) by {command['player']}: {json.dumps(command['command'], ensure_ascii=False)}"
        )
    for die in report["dice"]:
        lines.append(
            f"dice (seq {die['seq']}): {len(die['faces'])} d{die['sides']} for {die['purpose'] or '?'} by {die['roller'] or '?'} -> {die['faces']}"
        )
    lines.append(f"dice source: {report['dice_source']}")
    if report["rule"]:
        lines += [f"rule: {line}" for line in report["rule"].splitlines()]
    return "\n".join(lines)


def audit_text(label: str, auditor: Auditor) -> str:
    if auditor.findings:
        lines = [f"audit of {label}: {len(auditor.findings)} finding(s) in {auditor.events} events"]
        lines += [f"  {f.line()}" for f in auditor.findings]
        return "\n".join(lines)
    dice = (
        "dice verified against the revealed seed"
        if auditor.revealed
        else "dice not yet revealed (fairness checked once the seed is revealed)"
    )
    return f"audit of {label}: clean — {auditor.events} events, chain intact, every command re-derived, {dice}"


def with_progress(records: Iterable[Record], label: str) -> Iterator[Record]:
    """Pass records through, counting them on stderr when it is a terminal."""
    tty = sys.stderr.isatty()
    n = 0
    for n, record in enumerate(records, start=1):
        if tty and n % 20000 == 0:
            sys.stderr.write(f"\r{label}: {n} events")
            sys.stderr.flush()
        yield record
    if tty and n >= 20000:
        sys.stderr.write(f"\r{label}: {n} events\n")
