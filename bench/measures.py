"""The realistic workload's measures, warlog's side and the raw baseline's: appending its games
(in batches of events, and a command's batch per transaction), replaying and auditing them."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench import baselines
from bench.figures import drop_db, fresh_db, quiesce
from bench.workload import PlayedGame, Subject
from warlog.arbiter.application import Arbiter
from warlog.arbiter.database import on_database
from warlog.eventstore.records import GameInfo, Pending
from warlog.eventstore.sqlite_store import SQLiteStore
from warlog.eventstore.sqlite_vault import SQLiteVault, vault_path

# ---------------------------------------------------------------------- appends

Plan = list[tuple[str, list[list[Pending]]]]


def chunked(corpus: Sequence[PlayedGame], size: int) -> Plan:
    """Each game's events in transactions of ``size`` events (the first one creates it)."""
    plan = []
    for g in corpus:
        events = g.pending()
        plan.append((g.game, [events[i : i + size] for i in range(0, len(events), size)]))
    return plan


def per_command(corpus: Sequence[PlayedGame], batches: int) -> Plan:
    """Each game's command batches, one per transaction, for games until ``batches`` are in."""
    plan: Plan = []
    total = 0
    for g in corpus:
        if total >= batches:
            break
        plan.append((g.game, g.batches))
        total += len(g.batches)
    return plan


def plan_events(plan: Plan) -> int:
    return sum(len(c) for _, chunks in plan for c in chunks)


def plan_batches(plan: Plan) -> int:
    return sum(len(chunks) for _, chunks in plan)


def warlog_append(workdir: Path, plan: Plan, ruleset: str) -> float:
    path = fresh_db(workdir, "append-warlog.db")
    store = SQLiteStore(path, create=True)
    quiesce()
    started = time.perf_counter()
    for game, chunks in plan:
        seq = store.create_game(GameInfo(game, ruleset), chunks[0])[-1].seq
        for chunk in chunks[1:]:
            seq = store.append(game, chunk, seq)[-1].seq
    elapsed = time.perf_counter() - started
    store.close()
    drop_db(path)
    return elapsed


def raw_append(workdir: Path, plan: Plan, ruleset: str) -> float:
    path = fresh_db(workdir, "append-raw.db")
    SQLiteStore(path, create=True).close()  # the same schema and journal mode
    conn = baselines.connect(path)
    quiesce()
    started = time.perf_counter()
    for game, chunks in plan:
        baselines.create(conn, game, ruleset, chunks[0])
        seq = len(chunks[0])
        for chunk in chunks[1:]:
            seq = baselines.append(conn, game, chunk, seq)
    elapsed = time.perf_counter() - started
    conn.close()
    drop_db(path)
    return elapsed


# ---------------------------------------------------------------------- reading


def on_store(store: SQLiteStore, rulesets: Any) -> Arbiter:
    """An Arbiter on ``store`` and the key file beside it."""
    return Arbiter(store, rulesets, vault=SQLiteVault(vault_path(store.path)))


def corpus_db(workdir: Path, corpus: Sequence[PlayedGame], rulesets: Any) -> Path:
    """The corpus imported into a new database and its key file (sealed values opened there)."""
    path = fresh_db(workdir, "corpus.db")
    with on_database(path, rulesets, create=True) as arb:
        for g in corpus:
            arb.import_records(g.export)
    return path


def warlog_replay(store: SQLiteStore, arb: Arbiter, ruleset: Any, games: Sequence[str]) -> float:
    quiesce()
    started = time.perf_counter()
    for game in games:
        arb.fold_log(game)
    return time.perf_counter() - started


def raw_replay(
    conn: sqlite3.Connection, ruleset: Any, games: Sequence[str], table: str = "events"
) -> float:
    decode = baselines.decoders(ruleset)
    quiesce()
    started = time.perf_counter()
    for game in games:
        baselines.replay(conn, game, decode, table)
    return time.perf_counter() - started


def raw_scan(path: Path, games: Sequence[str], table: str) -> float:
    """Read every game's rows from ``table`` on a new connection (a cold page cache)."""
    conn = baselines.connect(path)
    quiesce()
    started = time.perf_counter()
    for game in games:
        baselines.scan(conn, game, table)
    elapsed = time.perf_counter() - started
    conn.close()
    return elapsed


def warlog_audit(store: SQLiteStore, subject: Subject, games: Sequence[str]) -> float:
    quiesce()
    started = time.perf_counter()
    findings = []
    arb = on_store(store, subject.rulesets)
    for game in games:
        findings += arb.audit(game).findings
    elapsed = time.perf_counter() - started
    if findings:
        raise RuntimeError(f"audit found {len(findings)} problems: {findings[0].line()}")
    return elapsed
