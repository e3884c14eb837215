"""Turning library results into text for people: tables, the map, the Events view, progress.

Styling goes through click, so it shows on a terminal and vanishes when the output is piped;
``--json`` output is built in the commands' modules and never styled.
"""

from __future__ import annotations

import contextlib
import json
import sys
import textwrap
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import click
import msgspec

from warlog.arbiter.commands import DICE_NOTE
from warlog.domain.core.summary import Summary, Table, plural
from warlog.eventstore.records import Record

if TYPE_CHECKING:
    from warlog.arbiter.audit import Auditor, Proved
    from warlog.arbiter.reports import GameSummary, LegalReport
    from warlog.fuzz.fixture import Replayed
    from warlog.fuzz.report import Report as FuzzReport
    from warlog.projections.events_view import Entry

__all__ = ["plural"]


def heading(text: str) -> str:
    return click.style(text, bold=True)


def record_line(record: Record) -> str:
    return f"{record.seq:>6}  {record.type:<22} {record.data}"


#: the widest a table's cell is printed; a longer one wraps onto the next lines of its row
CELL_WIDTH = 60


def table_text(table: Table) -> str:
    """A table with aligned columns (a cell longer than ``CELL_WIDTH`` wraps within its column:
    nothing is cut, a hand of cards or a list of counters is read whole)."""
    rows = [
        [textwrap.wrap(cell, CELL_WIDTH, break_on_hyphens=False) or [""] for cell in row]
        for row in table.rows
    ]
    widths = [len(c) for c in table.columns]
    for row in rows:
        widths = [max(w, *map(len, cell)) for w, cell in zip(widths, row, strict=False)]
    head = "  ".join(c.ljust(w) for c, w in zip(table.columns, widths, strict=False)).rstrip()
    lines = [heading(table.title), click.style("  " + head, underline=True)]
    for row in rows:
        for i in range(max(len(cell) for cell in row)):
            parts = [cell[i] if i < len(cell) else "" for cell in row]
            lines.append(
                "  " + "  ".join(c.ljust(w) for c, w in zip(parts, widths, strict=False)).rstrip()
            )
    return "\n".join(lines)


def whole_batch(view: dict[str, Any]) -> str:
    """What a player's view says when the event asked for lies inside a batch: the view is of
    the batch's end (``Arbiter.view``)."""
    at = view.get("at")
    if at is None or at == view["seq"]:
        return ""
    return f" (event {at} is inside a batch, which a player sees whole)"


def summary_text(view: dict[str, Any], summary: Summary) -> str:
    who = f" as {view['as']}" if view.get("as") else " (the referee's view)"
    lines = [
        heading(f"{view['game']} ({view['ruleset']}) after event {view['seq']}{who}")
        + whole_batch(view),
        summary.headline,
    ]
    if summary.waiting:
        lines.append(click.style("waiting: ", bold=True) + summary.waiting)
    for table in summary.tables:
        lines += ["", table_text(table)]
    if summary.board:
        lines += ["", heading("map"), *summary.board]
        if summary.legend:
            lines.append(click.style(summary.legend, dim=True))
    return "\n".join(lines)


def view_text(view: dict[str, Any]) -> str:
    who = f" as {view['as']}" if view.get("as") else ""
    over = "  (game over)" if view.get("over") else ""
    word = view.get("round_word", "round")
    head = f"game {view['game']} ({view['ruleset']}) after seq {view['seq']}{whole_batch(view)}, {word} {view['round']}{who}{over}"
    return head + "\n" + json.dumps(view["state"], indent=2, ensure_ascii=False)


def games_text(games: list[GameSummary]) -> str:
    if not games:
        return "no games in this database (create one with `warlog new`)"
    rows = []
    for g in games:
        state = "revealed" if g.revealed else ("over" if g.over else f"waits for {g.waiting}")
        fork = f"fork of {g.parent} at {g.fork_at}" if g.parent else ""
        rows.append([g.game, g.ruleset, g.scenario, ", ".join(g.players), str(g.head), state, fork])
    return table_text(
        Table(
            plural(len(games), "game"),
            ["game", "ruleset", "scenario", "players", "events", "now", "lineage"],
            rows,
        )
    )


def legal_text(report: LegalReport) -> str:
    if not report.commands:
        return f"no legal command: {report.why_none}"
    lines = []
    for i, command in enumerate(report.commands):
        line = json.dumps(command, ensure_ascii=False, separators=(",", ":"))
        if report.dice:
            needs = report.dice[i]
            if needs:
                text = " then ".join(n.text() for n in needs)
                more = " (more if the faces call for re-rolls)" if report.more[i] else ""
                line += click.style(f"  {DICE_NOTE} {text}{more}", dim=True)
        lines.append(line)
    return "\n".join(lines)


def events_view_text(
    round_: int, tabs: dict[str, list[Entry]], show_all: bool, word: str = "round"
) -> str:
    """The tabs; entries every tab shares are printed once, under "[everyone]"."""
    title = f"Events — {word} {round_}" + ("  (all entries, expired included)" if show_all else "")
    lines = [heading(title)]
    keys = [{(e.seq, e.text) for e in entries} for entries in tabs.values()]
    shared = set.intersection(*keys) if len(keys) > 1 else set()
    groups: list[tuple[str, list[Entry]]] = []
    if shared:
        first = next(iter(tabs.values()))
        groups.append(("everyone", [e for e in first if (e.seq, e.text) in shared]))
    for player, entries in tabs.items():
        groups.append((player, [e for e in entries if (e.seq, e.text) not in shared]))
    for name, entries in groups:
        if name != "everyone" and shared and not entries:
            continue
        lines.append(click.style(f"[{name}]", bold=True))
        if not entries:
            lines.append("  (nothing in force)")
        for e in entries:
            lasts = plural(e.duration, word)
            lines.append(f"  {word} {e.round} (for {lasts}, seq {e.seq})  {e.text}")
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
        heading(f"event {report['seq']}: {report['type']}")
        + f" {json.dumps(report['data'], ensure_ascii=False)}"
    ]
    lines.append(f"batch: events {report['batch'][0]}..{report['batch'][1]}")
    procedure = report.get("procedure")
    if procedure:
        began = procedure["began"]
        where = "begins here" if began == report["seq"] else f"began at event {began}"
        lines.append(f"part of {procedure['name']}, which {where}")
    command = report.get("command")
    if command:
        text = json.dumps(command["command"], ensure_ascii=False)
        lines.append(f"command (seq {command['seq']}) by {command['player']}: {text}")
    for die in report["dice"]:
        faces = die["faces"]
        count = "sealed" if faces == "sealed" else plural(len(faces), "die", "dice")
        purpose = f" for {die['purpose']}" if die["purpose"] else ""
        roller = die["roller"] or "the game (for no player)"
        lines.append(
            f"dice (seq {die['seq']}): {count}, d{die['sides']}{purpose}, rolled by {roller} "
            f"-> {faces}"
        )
    lines.append(f"dice source: {report['dice_source']}")
    if "commitment" in report:
        lines.append(f"commitment: {report['commitment']}")
    if report["rule"]:
        lines += [f"rule: {line}" for line in report["rule"].splitlines()]
    return "\n".join(lines)


def audit_text(label: str, auditor: Auditor) -> str:
    """What the audit found, then exactly what it checked (no more)."""
    p = auditor.proved
    lines = []
    if auditor.findings:
        lines.append(
            click.style(
                f"audit of {label}: {plural(len(auditor.findings), 'finding')} in "
                f"{plural(p.events, 'event')}",
                fg="red",
                bold=True,
            )
        )
        lines += [f"  {f.line()}" for f in auditor.findings]
    elif complete(auditor):
        since = "" if auditor.from_seq == 1 else f" from seq {auditor.from_seq}"
        lines.append(
            click.style(
                f"audit of {label}: clean{since} (no findings) in {plural(p.events, 'event')}",
                fg="green",
            )
        )
    else:
        lines.append(
            click.style(
                f"audit of {label}: no findings in {plural(p.events, 'event')}, but NOT "
                "everything could be checked (below)",
                fg="yellow",
            )
        )
    lines.append("  chain and sequence: checked over every event")
    if p.rules_stopped_at:
        lines.append(
            f"  rules: {plural(p.batches_rederived, 'batch', 'batches')} re-derived; not checked "
            f"from seq {p.rules_stopped_at} on ({p.rules_stopped_why})"
        )
    else:
        lines.append(
            f"  rules: every command from seq {auditor.from_seq} re-derived under "
            f"{auditor.rules} ({plural(p.batches_rederived, 'batch', 'batches')})"
        )
    lines.append(dice_line(p, auditor.from_seq))
    sealed = p.seals_opened + p.seals_closed + p.seals_false
    if sealed:
        text = f"  seals: {p.seals_opened} of {plural(sealed, 'sealed value')} opened and checked"
        if p.salts_verified:
            text += f", {plural(p.salts_verified, 'salt')} checked against the revealed seed"
        if p.salts_false:
            text += (
                f"; {plural(p.salts_false, 'salt')} NOT the one the revealed seed derives "
                f"(finding{'' if p.salts_false == 1 else 's'} above)"
            )
        unsalted = p.seals_opened - p.salts_verified - p.salts_false
        if unsalted > 0:
            text += (
                f"; {plural(unsalted, 'salt')} NOT checked against a seed (their seed is not "
                "revealed in this log)"
            )
        if p.seals_false:
            one = p.seals_false == 1
            text += (
                f"; {p.seals_false} {'does' if one else 'do'} not open (the value shown is not "
                f"the one sealed: finding{'' if one else 's'} above)"
            )
        if p.seals_closed:
            text += f"; {p.seals_closed} still sealed (not checked)"
        lines.append(text)
    if p.snapshots_checked:
        lines.append(
            f"  snapshots: {plural(p.snapshots_checked, 'stored state')} (what state, legal and "
            "play start from) equal to the log's fold at their seq"
        )
    return "\n".join(lines)


def complete(auditor: Auditor) -> bool:
    """Every check was made over the range asked for (``--from``: the chain whole, the rest
    from that seq): the rules re-derived to the end, every roll derived again from a revealed
    seed (or typed by a referee, which no seed derives), no value left sealed, every opened
    value's salt checked against a revealed seed. Only then is a log without findings clean."""
    return not auditor.proved.unchecked()


def dice_line(p: Proved, from_seq: int) -> str:
    """The audit's dice line: how many rolls each check covered, "every roll" only when every
    roll of the log was derived again from a revealed seed and matched."""
    rolls = p.dice_verified + p.dice_unverified + p.dice_false + p.dice_typed + p.dice_sealed
    rolls += p.dice_unopened
    where = "" if from_seq == 1 else f" from seq {from_seq}"
    if rolls == p.dice_verified and rolls and not where:
        return f"  dice verified: every roll re-derived from the revealed seed ({plural(rolls, 'roll')})"
    if not rolls:
        return f"  dice{where}: no roll"
    parts = [f"{plural(p.dice_verified, 'roll')} re-derived from a revealed seed"]
    if p.dice_false:
        parts.append(f"{plural(p.dice_false, 'roll')} NOT the seed's (findings above)")
    if p.dice_unverified:
        parts.append(
            f"{plural(p.dice_unverified, 'roll')} NOT verified (their seed is not revealed in this log)"
        )
    if p.dice_sealed:
        parts.append(f"{plural(p.dice_sealed, 'roll')} NOT verified (their faces stay sealed)")
    if p.dice_unopened:
        one = p.dice_unopened == 1
        parts.append(
            f"{plural(p.dice_unopened, 'roll')} NOT verified (the faces shown do not open "
            f"{'its seal: finding' if one else 'their seals: findings'} above)"
        )
    if p.dice_typed:
        parts.append(
            f"{plural(p.dice_typed, 'roll')} typed by the referee, NOT verified (no seed "
            "derives them)"
        )
    return f"  dice{where}: " + "; ".join(parts)


def builtins(value: Any) -> Any:
    """``value`` (Structs, tuples) as JSON builtins, for ``--json`` output."""
    return msgspec.to_builtins(value)


@contextlib.contextmanager
def status_line() -> Iterator[Callable[[str], None] | None]:
    """A callback rewriting one status line on stderr while the work runs, when stderr is a
    terminal (None otherwise: piped output stays clean); the line is cleared at the end."""
    if not sys.stderr.isatty():
        yield None
        return

    def write(text: str) -> None:
        sys.stderr.write(f"\r{text}\033[K")
        sys.stderr.flush()

    try:
        yield write
    finally:
        write("")


@contextlib.contextmanager
def progress(label: str) -> Iterator[Callable[[int], None] | None]:
    """A callback showing ``label: N events`` on stderr while the work runs, on a terminal."""
    with status_line() as write:
        yield (
            None
            if write is None
            else (lambda n: write(f"{click.style(label, bold=True)}: {n} events"))
        )


@contextlib.contextmanager
def bar(label: str, width: int = 24) -> Iterator[Callable[[float, str], None] | None]:
    """A callback drawing ``label [#####-----] 40% TEXT`` on stderr while the work runs, on a
    terminal."""
    with status_line() as write:
        if write is None:
            yield None
            return

        def show(done: float, text: str) -> None:
            filled = round(max(0.0, min(1.0, done)) * width)
            line = f"[{'#' * filled}{'-' * (width - filled)}] {done:>4.0%} {text}"
            write(f"{click.style(label, bold=True)} {line}")

        yield show


def fuzz_text(report: FuzzReport) -> str:
    """The summary of a fuzz run, its verdict in colour on a terminal."""
    from warlog.fuzz.report import NO_FAILURES, summary_text

    lines = summary_text(report).splitlines()
    for i, line in enumerate(lines):
        if line == NO_FAILURES:
            lines[i] = click.style(line, fg="green", bold=True)
        elif line.endswith(("failure:", "failures:")) and not line.startswith(" "):
            lines[i] = click.style(line, fg="red", bold=True)
    return "\n".join(lines)


def replayed_text(path: str, replayed: Replayed) -> str:
    """What replaying a fuzz failure gave."""
    f = replayed.fixture
    lines = [
        f"{path}: {f.ruleset} (recorded under version {f.version}), {plural(len(f.steps), 'step')}"
    ]
    lines += [f"  note: {note}" for note in replayed.notes]
    failure = replayed.failure
    if failure is None:
        lines.append(
            click.style(f"fixed: every check passes (it failed {f.check}: {f.message})", fg="green")
        )
    else:
        # under changed rules a fixture may fail another check than the one it was written for:
        # say so, or a reader would take it for the recorded failure
        other = (
            f", but another check than the one recorded ({f.check}: {f.message})"
            if failure.check != f.check
            else ""
        )
        lines.append(
            click.style(
                f"still failing{other}: {failure.check}: {failure.message}", fg="red", bold=True
            )
        )
    return "\n".join(lines)
