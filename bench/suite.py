"""warlog's benchmark: speed where users feel it, side by side with raw baselines, in one run.

One run plays the workload (bench/workload.py), then measures every figure ``repeats`` times,
alternating which side goes first, on fresh files in one temporary directory, and prints the
medians: first the table of ratios with their targets (issue #4), then how cost grows with game
length. The same text is written to ``bench/results/latest.md``. docs/performance.md explains the
method and the figures.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import os
import platform
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from bench import baselines, cli_start
from bench.workload import (
    AE_MAX_ROUNDS,
    BENCH_DIR,
    LongGame,
    PlayedGame,
    Policy,
    Subject,
    ae_subject,
    play_corpus,
    race_subject,
    size_label,
    write_long_games,
)
from warlog.arbiter.application import Arbiter
from warlog.arbiter.database import on_database
from warlog.arbiter.sealing import Opener
from warlog.eventstore.records import GameInfo, Pending
from warlog.eventstore.sqlite_store import SQLiteStore
from warlog.eventstore.sqlite_vault import SQLiteVault, vault_path

RESULTS = BENCH_DIR / "results" / "latest.md"
T = TypeVar("T")


@dataclass(frozen=True)
class Config:
    repeats: int = 5
    corpus_games: int = 50  # whole Armageddon Empires games of random legal play
    corpus_commands: int = 5000  # a cap per game that whole games stay under
    chunk: int = 1000  # events per transaction in the batched append
    durable_batches: int = 1500  # command batches per durable-append run
    ae_sizes: tuple[int, ...] = (1_000, 10_000, 40_000)  # 999 rounds make ~55k at most
    race_sizes: tuple[int, ...] = (1_000, 10_000, 100_000, 1_000_000)
    seeks: int = 300  # random seeks per game per repeat
    forks: int = 20  # forks per game per repeat
    plays: int = 40  # commands per game per repeat in the growth table
    whole_game_budget: int = 150_000  # events replayed (or audited) per long game, at least once
    es_streams: int = 100
    es_events: int = 1000
    es_batch_streams: int = 10  # streams written in command batches (fsync-bound)
    stdin_commands: int = 150  # commands through one `warlog play -` (a whole game's, at most)
    start_runs: int = 21  # runs of each short process in the CLI start (a start is ~0.1 s)
    seed: int = 4


QUICK = Config(
    repeats=3,
    corpus_games=8,
    durable_batches=300,
    ae_sizes=(1_000, 5_000),
    race_sizes=(1_000, 10_000, 30_000),
    seeks=30,
    forks=8,
    plays=15,
    whole_game_budget=30_000,
    es_streams=20,
    es_events=500,
    es_batch_streams=4,
    stdin_commands=40,
    start_runs=7,
)


# ---------------------------------------------------------------------- timing and figures


def median(xs: Sequence[float]) -> float:
    return float(statistics.median(xs))


def paired(a: Callable[[], T], b: Callable[[], T], repeats: int) -> tuple[list[T], list[T]]:
    """``repeats`` timings of each, alternating which goes first."""
    xs: list[T] = []
    ys: list[T] = []
    for r in range(repeats):
        if r % 2 == 0:
            xs.append(a())
            ys.append(b())
        else:
            ys.append(b())
            xs.append(a())
    return xs, ys


def quiesce() -> None:
    """Collect garbage, then freeze what is left: the workload held in memory (hundreds of
    thousands of objects) must not be rescanned by every collection inside a timed section,
    which would slow the faster side most. Both sides start each timing from this state."""
    gc.collect()
    gc.freeze()


def rate(count: float, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def fmt_rate(per_s: float, unit: str = "ev/s") -> str:
    return f"{per_s:,.0f} {unit}"


def fmt_ms(ms: float) -> str:
    return f"{ms:.3f} ms" if ms < 1 else f"{ms:.2f} ms" if ms < 100 else f"{ms:,.0f} ms"


@dataclass
class Row:
    measure: str
    warlog: str
    baseline: str
    ratio: float | None
    target: str  # ">= 0.7", "<= 1.5", or "" for a figure without one

    @property
    def verdict(self) -> str:
        if self.ratio is None or not self.target:
            return ""
        op, value = self.target.split()
        ok = self.ratio >= float(value) if op == ">=" else self.ratio <= float(value)
        return "PASS" if ok else "MISS"


def fresh_db(workdir: Path, name: str) -> Path:
    path = workdir / name
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return path


def drop_db(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


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


# ---------------------------------------------------------------------- long games


def seek_ms(
    store: SQLiteStore, subject: Subject, game: LongGame, rng: random.Random, n: int
) -> float:
    """Mean ms of ``n`` seeks to random seqs, each on a fresh Arbiter (no live state: the latest
    snapshot at or before the seq, then the tail)."""
    total = 0.0
    quiesce()
    for _ in range(n):
        at = rng.randint(1, game.events)
        arb = on_store(store, subject.rulesets)
        arb.loaded(game.game)  # the ruleset and codec, not the state
        started = time.perf_counter()
        arb.folded(game.game, at)
        total += time.perf_counter() - started
    return total / n * 1000


def fork_ms(
    store: SQLiteStore, subject: Subject, game: LongGame, rng: random.Random, n: int, tag: str
) -> float:
    """Mean ms of ``n`` forks at random batch ends, each on a fresh Arbiter."""
    total = 0.0
    quiesce()
    for i in range(n):
        at = rng.choice(game.batch_ends)
        arb = on_store(store, subject.rulesets)
        arb.loaded(game.game)
        started = time.perf_counter()
        arb.fork(game.game, at, new_game=f"{game.game}-fork-{tag}-{i}")
        total += time.perf_counter() - started
    return total / n * 1000


def play_ms(
    store: SQLiteStore, subject: Subject, game: str, n: int, policy: Policy, *, cold: bool
) -> float:
    """Mean ms of ``n`` commands through ``Arbiter.play`` at the end of ``game``: decide and
    durable append (and a snapshot when one falls due). ``cold``: a fresh Arbiter per command,
    as ``warlog play`` has (the state from the latest snapshot and the tail first)."""
    ruleset = subject.ruleset
    warm = on_store(store, subject.rulesets)
    total = 0.0
    quiesce()
    for _ in range(n):
        state = warm.state(game)
        if ruleset.is_terminal(state):
            raise RuntimeError(f"{game} ended; the growth table needs it to go on")
        player = next(iter(ruleset.active_players(state)))
        command = msgspec.json.encode(
            policy(state, player, list(ruleset.legal_commands(state, player)))
        )
        arb = on_store(store, subject.rulesets) if cold else warm
        arb.loaded(game)
        started = time.perf_counter()
        arb.play(game, command)
        total += time.perf_counter() - started
    return total / n * 1000


@dataclass
class Growth:
    """One long game's figures."""

    size: int  # the length asked for (the game stops at the first batch end past it)
    game: LongGame
    seek_ms: float = 0.0
    fork_ms: float = 0.0
    replay_eps: float = 0.0
    audit_eps: float = 0.0
    whole_runs: int = 0
    play_warm_ms: float = 0.0
    play_cold_ms: float = 0.0
    snapshot_bytes: int = 0
    file_bytes: int = 0


@dataclass
class Series:
    """The long games of one ruleset, in one file."""

    subject: Subject
    path: Path
    growth: dict[int, Growth]

    def at(self, size: int) -> Growth:
        return self.growth[size]


def long_series(
    subject: Subject, sizes: Sequence[int], workdir: Path, cfg: Config, log: Callable[[str], None]
) -> Series:
    """Play the long games of ``subject`` and measure each: seek and fork (``repeats`` x),
    replay and audit of the whole game (as often as ``whole_game_budget`` allows, at least once;
    audit must find nothing), then play at its end (last, since it appends)."""
    path = fresh_db(workdir, f"long-{subject.prefix}.db")
    log(f"{subject.label}: long games of {', '.join(size_label(s) for s in sizes)} events")
    games = write_long_games(subject, path, sizes, cfg.seed)
    series = Series(subject, path, {size: Growth(size, game) for size, game in games.items()})
    rng = random.Random(cfg.seed)
    growth = list(series.growth.values())
    with SQLiteStore(path) as store:
        for g in growth:
            log(
                f"  {g.game.game}: {g.game.events:,} events, {g.game.commands:,} commands, "
                f"played and written in {g.game.seconds:.1f} s"
            )
        log("  seek and fork, every game in turn in each run")
        fork_ms(store, subject, growth[0].game, rng, 1, "warm-up")  # creates the -wal file
        seeks: dict[int, list[float]] = {g.size: [] for g in growth}
        forks: dict[int, list[float]] = {g.size: [] for g in growth}
        for r in range(cfg.repeats):
            for g in growth if r % 2 == 0 else reversed(growth):
                seeks[g.size].append(seek_ms(store, subject, g.game, rng, cfg.seeks))
                forks[g.size].append(fork_ms(store, subject, g.game, rng, cfg.forks, str(r)))
        for g in growth:
            g.seek_ms, g.fork_ms = median(seeks[g.size]), median(forks[g.size])
            g.whole_runs = max(1, min(cfg.repeats, cfg.whole_game_budget // g.game.events))
            log(f"  {g.game.game}: replay and audit the whole game, {g.whole_runs} time(s)")
            replays = [replay_long(store, subject, g.game) for _ in range(g.whole_runs)]
            audits = [audit_long(store, subject, g.game) for _ in range(g.whole_runs)]
            g.replay_eps = rate(g.game.events, median(replays))
            g.audit_eps = rate(g.game.events, median(audits))
            conn = sqlite3.connect(vault_path(path))  # snapshots live in the key file
            (g.snapshot_bytes,) = conn.execute(
                "SELECT coalesce(sum(length(state)), 0) FROM snapshots WHERE game = ?",
                (g.game.game,),
            ).fetchone()
            conn.close()
        log("  play at the end of every game")
        for g in growth:  # last: these append to the games
            policy = subject.long_policy(random.Random(cfg.seed))
            g.play_warm_ms = median(
                [
                    play_ms(store, subject, g.game.game, cfg.plays, policy, cold=False)
                    for _ in range(cfg.repeats)
                ]
            )
            g.play_cold_ms = median(
                [
                    play_ms(store, subject, g.game.game, cfg.plays, policy, cold=True)
                    for _ in range(cfg.repeats)
                ]
            )
    return series


def replay_long(store: SQLiteStore, subject: Subject, game: LongGame) -> float:
    arb = on_store(store, subject.rulesets)
    return warlog_replay(store, arb, subject.ruleset, [game.game])


def audit_long(store: SQLiteStore, subject: Subject, game: LongGame) -> float:
    return warlog_audit(store, subject, [game.game])


# ---------------------------------------------------------------------- the run


def environment() -> str:
    def version(name: str) -> str:
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    return (
        f"{platform.python_implementation()} {platform.python_version()} on {platform.system()} "
        f"{platform.machine()}, {os.cpu_count()} cores; SQLite {sqlite3.sqlite_version}, "
        f"msgspec {version('msgspec')}, eventsourcing {version('eventsourcing')}"
    )


def table(rows: Sequence[Row]) -> list[str]:
    lines = [
        "| measure | warlog | baseline | ratio | target | |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in rows:
        ratio = "" if r.ratio is None else f"{r.ratio:.2f}"
        lines.append(
            f"| {r.measure} | {r.warlog} | {r.baseline} | {ratio} | {r.target} | {r.verdict} |"
        )
    return lines


def growth_table(series: Series) -> list[str]:
    lines = [
        "| events | play, warm (ms) | play, cold (ms) | replay (ev/s) | seek (ms) | fork (ms) "
        "| audit (ev/s) | snapshots (MB) |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for _, g in sorted(series.growth.items()):
        lines.append(
            f"| {g.game.events:,} | {g.play_warm_ms:.2f} | {g.play_cold_ms:.2f} "
            f"| {g.replay_eps:,.0f} | {g.seek_ms:.3f} | {g.fork_ms:.2f} | {g.audit_eps:,.0f} "
            f"| {g.game.snapshots:,} ({g.snapshot_bytes / 1e6:,.1f}) |"
        )
    return lines


def run(cfg: Config, workdir: Path) -> list[str]:
    started = time.perf_counter()

    def log(message: str) -> None:
        print(f"[{time.perf_counter() - started:6.1f}s] {message}", file=sys.stderr, flush=True)

    ae, race = ae_subject(workdir), race_subject(workdir)
    ruleset = ae.ruleset
    log(f"{ae.label}: {cfg.corpus_games} whole games of random legal play")
    t = time.perf_counter()
    corpus = play_corpus(ae, cfg.corpus_games, cfg.corpus_commands, cfg.seed)
    corpus_s = time.perf_counter() - t
    corpus_events = sum(g.events for g in corpus)
    commands = sum(g.commands for g in corpus)
    games = [g.game for g in corpus]
    rows: list[Row] = []

    log("batched append")
    plan = chunked(corpus, cfg.chunk)
    n = plan_events(plan)
    w, r = paired(
        lambda: warlog_append(workdir, plan, ae.name),
        lambda: raw_append(workdir, plan, ae.name),
        cfg.repeats,
    )
    we, re_ = rate(n, median(w)), rate(n, median(r))
    rows.append(
        Row(
            f"batched append ({cfg.chunk:,}-event transactions, hash chain included)",
            fmt_rate(we),
            fmt_rate(re_) + " (raw executemany)",
            we / re_,
            ">= 0.7",
        )
    )

    log("durable append")
    plan = per_command(corpus, cfg.durable_batches)
    n, nb = plan_events(plan), plan_batches(plan)
    w, r = paired(
        lambda: warlog_append(workdir, plan, ae.name),
        lambda: raw_append(workdir, plan, ae.name),
        cfg.repeats,
    )
    wb, rb = rate(nb, median(w)), rate(nb, median(r))
    rows.append(
        Row(
            f"durable append (a command's batch per transaction, {n / nb:.1f} events on average)",
            fmt_rate(wb, "batches/s"),
            fmt_rate(rb, "batches/s") + " (raw, a commit each)",
            wb / rb,
            ">= 0.9",
        )
    )

    log("replay and audit of the realistic games")
    path = corpus_db(workdir, corpus, ae.rulesets)
    store = SQLiteStore(path)
    arb = on_store(store, ae.rulesets)
    conn = baselines.connect(path)
    baselines.clear_copy(
        conn, games, lambda game, seq, data, hash_: Opener(arb.vault, game).clear(seq, data, hash_)
    )
    w, r = paired(
        lambda: warlog_replay(store, arb, ruleset, games),
        lambda: raw_replay(conn, ruleset, games, "events_clear"),
        cfg.repeats,
    )
    audits = [warlog_audit(store, ae, games) for _ in range(cfg.repeats)]
    baselines.interleaved_copies(conn, {g.game: [len(b) for b in g.batches] for g in corpus})
    clustered, rowid = paired(
        lambda: raw_scan(path, games, "events_clustered"),
        lambda: raw_scan(path, games, "events_rowid"),
        cfg.repeats,
    )
    conn.close()
    store.close()
    replay_eps, raw_eps = rate(corpus_events, median(w)), rate(corpus_events, median(r))
    audit_eps = rate(corpus_events, median(audits))
    rows.append(
        Row(
            "replay whole games (read, decode, fold into the ruleset's state)",
            fmt_rate(replay_eps),
            fmt_rate(raw_eps) + " (SELECT, msgspec, count)",
            replay_eps / raw_eps,
            ">= 0.65",  # issue 17 (was 0.5)
        )
    )

    clustered_eps = rate(corpus_events, median(clustered))
    rowid_eps = rate(corpus_events, median(rowid))
    rows.append(
        Row(
            "why WITHOUT ROWID: reading the games' rows (raw SELECT, games appended "
            "interleaved), clustered on (game, seq) vs a rowid table and its primary-key index",
            fmt_rate(clustered_eps),
            fmt_rate(rowid_eps) + " (rowid table)",
            clustered_eps / rowid_eps,
            "",
        )
    )

    long_race = long_series(race, sorted(cfg.race_sizes), workdir, cfg, log)
    long_ae = long_series(ae, sorted(cfg.ae_sizes), workdir, cfg, log)
    r_big, r_mid, r_small = (
        long_race.at(max(cfg.race_sizes)),
        long_race.at(_nearest(cfg.race_sizes, 10_000)),
        long_race.at(min(cfg.race_sizes)),
    )
    a_big, a_small = long_ae.at(max(cfg.ae_sizes)), long_ae.at(min(cfg.ae_sizes))
    rows.append(
        Row(
            f"seek: the state at a random seq, {size_label(r_big.size)} vs "
            f"{size_label(r_mid.size)}-event game ({race.label})",
            fmt_ms(r_big.seek_ms),
            fmt_ms(r_mid.seek_ms),
            r_big.seek_ms / r_mid.seek_ms,
            "<= 1.5",
        )
    )
    rows.append(
        Row(
            f"seek, the same, {size_label(a_big.size)} vs "
            f"{size_label(a_small.size)}-event game ({ae.label})",
            fmt_ms(a_big.seek_ms),
            fmt_ms(a_small.seek_ms),
            a_big.seek_ms / a_small.seek_ms,
            "<= 1.5",
        )
    )
    rows.append(
        Row(
            f"fork at a random batch end, {size_label(r_big.size)} vs "
            f"{size_label(r_small.size)}-event game ({race.label})",
            fmt_ms(r_big.fork_ms),
            fmt_ms(r_small.fork_ms),
            r_big.fork_ms / r_small.fork_ms,
            "<= 1.5",
        )
    )
    rows.append(
        Row(
            f"fork, the same, {size_label(a_big.size)} vs "
            f"{size_label(a_small.size)}-event game ({ae.label})",
            fmt_ms(a_big.fork_ms),
            fmt_ms(a_small.fork_ms),
            a_big.fork_ms / a_small.fork_ms,
            "<= 1.5",
        )
    )
    rows.append(
        Row(
            "audit (chain, rules re-derivation, revealed dice) vs replay, the realistic games",
            fmt_rate(audit_eps),
            fmt_rate(replay_eps) + " (replay)",
            audit_eps / replay_eps,
            ">= 0.25",
        )
    )

    from bench import versus_eventsourcing as es  # the optional dependency, checked by main

    log(f"eventsourcing {es.library_version()}: {cfg.es_streams} streams x {cfg.es_events} events")
    streams = es.make_streams(corpus, ruleset, cfg.es_streams, cfg.es_events)
    bulk = paired(
        lambda: es.run_warlog(streams, ruleset, workdir, None),
        lambda: es.run_eventsourcing(streams, workdir, None),
        cfg.repeats,
    )
    per_batch = paired(
        lambda: es.run_warlog(streams, ruleset, workdir, cfg.es_batch_streams),
        lambda: es.run_eventsourcing(streams, workdir, cfg.es_batch_streams),
        cfg.repeats,
    )
    raw = [es.run_raw(streams, ruleset, workdir) for _ in range(cfg.repeats)]
    total, batch_total = streams.total, cfg.es_batch_streams * cfg.es_events
    rwe = rate(total, median([t.write_s for t in raw]))
    rre = rate(total, median([t.read_s for t in raw]))
    wwe = rate(total, median([t.write_s for t in bulk[0]]))
    ewe = rate(total, median([t.write_s for t in bulk[1]]))
    wre = rate(total, median([t.read_s for t in bulk[0]]))
    ere = rate(total, median([t.read_s for t in bulk[1]]))
    bwe = rate(batch_total, median([t.write_s for t in per_batch[0]]))
    bee = rate(batch_total, median([t.write_s for t in per_batch[1]]))
    rows.append(
        Row(
            f"vs eventsourcing: write {cfg.es_streams} streams x {cfg.es_events:,} events, "
            "a stream per transaction",
            fmt_rate(wwe),
            fmt_rate(ewe) + f" (eventsourcing; the raw limit {fmt_rate(rwe)} is {rwe / ewe:.1f}x)",
            wwe / ewe,
            ">= 4",
        )
    )
    rows.append(
        Row(
            "vs eventsourcing: read them back as domain events",
            fmt_rate(wre),
            fmt_rate(ere) + f" (eventsourcing; the raw limit {fmt_rate(rre)} is {rre / ere:.1f}x)",
            wre / ere,
            ">= 10",
        )
    )
    rows.append(
        Row(
            f"vs eventsourcing: write {cfg.es_batch_streams} streams x {cfg.es_events:,} events, "
            "a command's batch per transaction",
            fmt_rate(bwe),
            fmt_rate(bee) + " (eventsourcing; both wait on a commit per batch)",
            bwe / bee,
            "",
        )
    )

    log(f"CLI start: warlog play processes vs python -c pass, {cfg.start_runs} runs each")
    start = cli_start.measure(workdir, cfg.start_runs, cfg.repeats, cfg.stdin_commands)
    rows.append(
        Row(
            "CLI start: a `warlog play` process (one command, an existing database) vs a bare "
            f"`python -c pass` (medians of {cfg.start_runs} runs)",
            fmt_ms(start.play_ms),
            fmt_ms(start.bare_ms) + " (python -c pass)",
            start.play_ms / start.bare_ms,
            "<= 3",
        )
    )
    rows.append(
        Row(
            "the floor under it: a process importing only the libraries `warlog play` needs "
            "(click, msgspec, sqlite3, hashlib, json) vs a bare `python -c pass`",
            fmt_ms(start.libraries_ms),
            fmt_ms(start.bare_ms) + " (python -c pass)",
            start.libraries_ms / start.bare_ms,
            "",
        )
    )
    rows.append(
        Row(
            f"a command through `warlog play -` ({start.stdin_commands} commands on stdin) vs a "
            "process each: ratio of the times per command",
            fmt_ms(start.stdin_ms),
            fmt_ms(start.play_ms) + " (a process each)",
            start.play_ms / start.stdin_ms,
            "",
        )
    )
    a_mid = long_ae.at(_nearest(cfg.ae_sizes, 10_000))
    rows.append(
        Row(
            f"play (decide + durable append) at the end of a {size_label(a_mid.size)}-event "
            f"{ae.label} game, warm / cold Arbiter",
            f"{a_mid.play_warm_ms:.2f} / {a_mid.play_cold_ms:.2f} ms",
            "",
            None,
            "",
        )
    )

    elapsed = time.perf_counter() - started
    batch_sizes = [len(b) for g in corpus for b in g.batches[1:]]
    return [
        f"# warlog benchmark, {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}",
        "",
        environment() + ".",
        "",
        f"Realistic workload: {len(corpus)} whole {ae.label} games of random legal play on the "
        f"bundled scenario, {commands:,} commands, {corpus_events:,} events "
        f"({statistics.mean(batch_sizes):.1f} events per command's batch; played in "
        f"{corpus_s:.1f} s). Medians of {cfg.repeats} runs, each run alternating which side "
        f"goes first; the whole benchmark took {elapsed:.0f} s.",
        "",
        *table(rows),
        "",
        f"How cost grows with game length. {ae.label}: random legal play that takes no base "
        f"(so that no HQ falls) on the bundled map with max_rounds = {AE_MAX_ROUNDS} (the most "
        f"a scenario may set). {race.label}: games that never end, the only legal "
        "games warlog can make 100k and 1M events long. Seek and fork: means of "
        f"{cfg.seeks} seeks and {cfg.forks} forks, medians of {cfg.repeats} runs; replay and "
        "audit: the whole game, median of as many runs as "
        f"{cfg.whole_game_budget:,} events allow (at least one); play: a command at the end "
        f"of the game (warm: the Arbiter holds the state; cold: a fresh Arbiter, as `warlog "
        "play` has).",
        "",
        f"{ae.label}:",
        "",
        *growth_table(long_ae),
        "",
        f"{race.label}:",
        "",
        *growth_table(long_race),
        "",
    ]


def _nearest(sizes: Sequence[int], target: int) -> int:
    return min(sizes, key=lambda s: abs(s - target))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="warlog's benchmark (docs/performance.md)")
    parser.add_argument("--repeats", type=int, help="runs per figure (default 5)")
    parser.add_argument("--quick", action="store_true", help="a small run, to try the harness")
    parser.add_argument("--keep", metavar="DIR", help="keep the databases in DIR")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where to write the table")
    args = parser.parse_args(argv)
    try:
        importlib.metadata.version("eventsourcing")
    except importlib.metadata.PackageNotFoundError:
        print(
            "error: the benchmark compares warlog with the eventsourcing library; install it "
            "with: pip install -e '.[bench]'",
            file=sys.stderr,
        )
        return 1
    cfg = QUICK if args.quick else Config()
    if args.repeats:
        cfg = replace(cfg, repeats=args.repeats)
    workdir = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="warlog-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        lines = run(cfg, workdir)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    text = "\n".join(lines)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(f"\n(written to {args.out})", file=sys.stderr)
    return 0
