"""Turning library results into text for people (``--json`` output is built in cli/main.py)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import msgspec

from warlog.arbiter.audit import Auditor
from warlog.eventstore.records import Record
from warlog.projections.events_view import Entry


def record_line(record: Record) -> str:
    return f"{record.seq:>6}  {record.type:<22} {record.data}"


def view_text(view: dict[str, Any]) -> str:
    who = f" as {view['as']}" if view.get("as") else ""
    over = "  (game over)" if view.get("over") else ""
    head = f"game {view['game']} ({view['ruleset']}) after seq {view['seq']}, round {view['round']}{who}{over}"
    return head + "\n" + json.dumps(view["state"], indent=2, ensure_ascii=False)


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
    """What the audit found, then exactly what it checked (no more)."""
    p = auditor.proved
    lines = []
    if auditor.findings:
        lines.append(
            f"audit of {label}: {plural(len(auditor.findings), 'finding')} in {plural(p.events, 'event')}"
        )
        lines += [f"  {f.line()}" for f in auditor.findings]
    else:
        lines.append(f"audit of {label}: clean (no findings) in {plural(p.events, 'event')}")
    lines.append("  chain and sequence: checked over every event")
    if p.rules_stopped_at:
        lines.append(
            f"  rules: {plural(p.batches_rederived, 'batch', 'batches')} re-derived; not checked "
            f"from seq {p.rules_stopped_at} on ({p.rules_stopped_why})"
        )
    else:
        lines.append(
            f"  rules: every command from seq {auditor.from_seq} re-derived "
            f"({plural(p.batches_rederived, 'batch', 'batches')})"
        )
    if p.dice_unverified:
        lines.append(
            f"  dice: {plural(p.dice_verified, 'roll')} re-derived from a revealed seed; "
            f"{plural(p.dice_unverified, 'roll')} NOT verified (their seed is not revealed)"
        )
    elif p.dice_verified:
        lines.append(
            f"  dice verified: every roll re-derived from the revealed seed ({plural(p.dice_verified, 'roll')})"
        )
    else:
        lines.append(
            "  dice: no roll to verify from a seed (a referee's dice are checked by the rules only)"
        )
    sealed = p.seals_opened + p.seals_closed
    if sealed:
        text = f"  seals: {p.seals_opened} of {plural(sealed, 'sealed value')} opened and checked"
        if p.salts_verified:
            text += f", {plural(p.salts_verified, 'salt')} checked against the revealed seed"
        if p.seals_closed:
            text += f"; {p.seals_closed} still sealed (not checked)"
        lines.append(text)
    return "\n".join(lines)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 roll``, ``2 rolls`` (``many``: the plural when it is not word + s)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def builtins(value: Any) -> Any:
    """``value`` (Structs, tuples) as JSON builtins, for ``--json`` output."""
    return msgspec.to_builtins(value)


def progress(label: str) -> Callable[[int], None] | None:
    """A callback that shows ``label: N events`` on stderr when stderr is a terminal (None
    otherwise: piped output stays clean)."""
    if not sys.stderr.isatty():
        return None

    def show(n: int) -> None:
        sys.stderr.write(f"\r{label}: {n} events")
        sys.stderr.flush()

    return show
