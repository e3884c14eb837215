"""warlog's benchmark: speed where users feel it, side by side with raw baselines, in one run.

One run plays the workload (bench/workload.py), then measures every figure ``repeats`` times,
alternating which side goes first, on fresh files in one temporary directory, and prints the
medians: first the table of ratios with their targets (issue #4), then how cost grows with game
length. The same text is written to ``bench/results/latest.md``. docs/performance.md explains the
method and the figures.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import platform
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from bench import baselines, cli_start
from bench.figures import Row, fmt_ms, fmt_rate, median, paired, rate, table
from bench.growth import growth_table, long_series
from bench.measures import (
    chunked,
    corpus_db,
    on_store,
    per_command,
    plan_batches,
    plan_events,
    raw_append,
    raw_replay,
    raw_scan,
    warlog_append,
    warlog_audit,
    warlog_replay,
)
from bench.workload import (
    AE_MAX_ROUNDS,
    BENCH_DIR,
    ae_subject,
    play_corpus,
    race_subject,
    size_label,
)
from warlog.arbiter.sealing import Opener
from warlog.eventstore.sqlite_store import SQLiteStore

RESULTS = BENCH_DIR / "results" / "latest.md"


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
        conn,
        games,
        lambda game, seq, data, hash_: Opener(arb.vault, game).clears([(seq, "", data, hash_)])[0],
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
