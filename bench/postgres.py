#!/usr/bin/env python3
"""The PostgreSQL benchmark: the store's append and replay against raw psycopg doing the same
work in the same run, and a tournament's throughput with 1, 2 and 4 `warlog serve` processes on
one PostgreSQL database under the same client load.

``python bench/postgres.py [--dsn postgresql://…] [--games 100] [--commands 12]
[--processes 1 2 4]`` (a minute or two on 2 cores). Without ``--dsn`` it starts a throwaway
cluster (tests/postgres_cluster.py) with PostgreSQL's default durability (``fsync``,
``synchronous_commit`` on). It writes the tables to stdout and to ``bench/results/postgres.md``;
docs/performance.md explains the method and holds the latest figures. Not a test: nothing here
passes or fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.baselines import GENESIS, rows_of
from bench.server import CHILD, ROOT, Script, percentile, scripts, spread_over
from warlog.eventstore.postgres_store import PostgresStore
from warlog.eventstore.records import GameInfo, Pending

RESULTS = Path(__file__).resolve().parent / "results" / "postgres.md"
AT = "2026-11-23T12:00:00.000Z"
INSERT = (
    "INSERT INTO events (game, seq, type, data, at, prev, hash) VALUES (%s, %s, %s, %s, %s, %s, %s)"
)
HEAD = "SELECT seq, hash FROM events WHERE game = %s ORDER BY seq DESC LIMIT 1"


def batches(count: int, size: int) -> list[list[Pending]]:
    """``count`` batches of ``size`` events shaped like a command's batch (about 150 bytes of
    JSON each, the realistic workload's mean)."""
    return [
        [
            Pending(
                "thing_happened",
                json.dumps({"player": "red", "n": b * size + i, "pad": "x" * 110}),
                AT,
            )
            for i in range(size)
        ]
        for b in range(count)
    ]


def fresh_schema(dsn: str, name: str) -> str:
    """A new empty schema ``name`` in the database at ``dsn``; a DSN whose search_path is it."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        conn.execute(f'CREATE SCHEMA "{name}"')
    glue = "&" if "?" in dsn else "?"
    return f"{dsn}{glue}options=-c%20search_path%3D{name}"


# ------------------------------------------------------------------ append and replay


def warlog_append(dsn: str, games: int, work: list[list[Pending]]) -> float:
    """Each batch of ``work`` appended to the games in turn through ``PostgresStore``."""
    with PostgresStore(dsn, create=True) as store:
        heads = {}
        for g in range(games):
            store.create_game(GameInfo(f"g{g}", "bench"), work[0])
            heads[f"g{g}"] = len(work[0])
        started = time.perf_counter()
        for batch, game in zip(work[1:], itertools.cycle(heads), strict=False):
            heads[game] = store.append(game, batch, heads[game])[-1].seq
        return time.perf_counter() - started


def raw_append(dsn: str, games: int, work: list[list[Pending]]) -> float:
    """The same rows with psycopg alone on the schema ``PostgresStore`` made: one transaction
    per batch, the head read first (the optimistic check any correct appender needs), the rows
    inserted, the same hash chain; no announcement, no error mapping."""
    import psycopg

    PostgresStore(dsn, create=True).close()
    with psycopg.connect(dsn, autocommit=True) as conn:
        heads = {}
        for g in range(games):
            game = f"g{g}"
            with conn.transaction():
                conn.execute("INSERT INTO games (game, ruleset) VALUES (%s, 'bench')", (game,))
                conn.cursor().executemany(INSERT, rows_of(game, work[0], 0, GENESIS))
            heads[game] = len(work[0])
        started = time.perf_counter()
        for batch, game in zip(work[1:], itertools.cycle(heads), strict=False):
            with conn.transaction():
                row = conn.execute(HEAD, (game,)).fetchone()
                assert row is not None and row[0] == heads[game]
                rows = rows_of(game, batch, row[0], row[1])
                conn.cursor().executemany(INSERT, rows)
            heads[game] = rows[-1][1]
        return time.perf_counter() - started


def warlog_replay(dsn: str, game: str) -> tuple[float, int]:
    with PostgresStore(dsn) as store:
        started = time.perf_counter()
        count = sum(1 for _ in store.read(game))
        return time.perf_counter() - started, count


def raw_replay(dsn: str, game: str) -> tuple[float, int]:
    """Every row of the game in seq order: one query, every tuple fetched at once (psycopg's
    fastest way, memory no object)."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        started = time.perf_counter()
        rows = conn.execute(
            "SELECT seq, type, data, at, prev, hash FROM events WHERE game = %s ORDER BY seq",
            (game,),
        ).fetchall()
        return time.perf_counter() - started, len(rows)


def alternating(
    repeats: int, ours: Callable[[int], float], theirs: Callable[[int], float]
) -> tuple[float, float]:
    """The median seconds of each side over ``repeats`` runs, the sides taking turns (which
    goes first alternates too), so that a machine busy for a while slows both alike."""
    a: list[float] = []
    b: list[float] = []
    for i in range(repeats):
        if i % 2:
            b.append(theirs(i))
            a.append(ours(i))
        else:
            a.append(ours(i))
            b.append(theirs(i))
    return statistics.median(a), statistics.median(b)


# ------------------------------------------------------------------ the tournament


@contextlib.contextmanager
def servers(dsn: str, count: int) -> Iterator[list[tuple[str, int]]]:
    """``count`` server processes (bench/server.py's child, the benchmark's seeds) on ``dsn``;
    their addresses."""
    children = []
    try:
        addresses = []
        for _ in range(count):
            child = subprocess.Popen(
                [sys.executable, "-c", CHILD, dsn],
                cwd=ROOT,
                stderr=subprocess.PIPE,
                text=True,
                env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
            )
            children.append(child)
            assert child.stderr is not None
            line = child.stderr.readline()
            found = re.match(r"listening on http://([\d.]+):(\d+)", line)
            assert found, line
            addresses.append((found.group(1), int(found.group(2))))
        yield addresses
    finally:
        for child in children:
            child.terminate()
        for child in children:
            child.wait(timeout=30)


def check_tournament(dsn: str, work: list[Script]) -> None:
    """Every game holds every command once and its chain links (the run lost nothing)."""
    with PostgresStore(dsn) as store:
        for script in work:
            records = list(store.read(script.game))
            issued = sum(r.type == "command_issued" for r in records)
            assert issued == len(script.commands), (script.game, issued)
            assert all(a.hash == b.prev for a, b in itertools.pairwise(records))


# ------------------------------------------------------------------ main


@contextlib.contextmanager
def database(dsn: str | None, synchronous_commit: str) -> Iterator[str]:
    if dsn:
        yield dsn
        return
    from tests.postgres_cluster import throwaway_cluster

    settings = f"-c max_connections=200 -c synchronous_commit={synchronous_commit}"
    with throwaway_cluster(settings=settings) as cluster:
        yield cluster.new_database()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsn", help="an empty database to use (default: a throwaway cluster)")
    parser.add_argument("--games", type=int, default=100, help="games played at once")
    parser.add_argument("--commands", type=int, default=12, help="commands per game")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--synchronous-commit",
        choices=["on", "off"],
        default="on",
        help="the throwaway cluster's setting: off takes the disk's flush out of every commit "
        "(what is left is warlog's and PostgreSQL's own work)",
    )
    args = parser.parse_args()
    lines = [
        f"CPython {platform.python_version()} on {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} cores; `python bench/postgres.py --games {args.games} --commands "
        f"{args.commands} --processes {' '.join(map(str, args.processes))} "
        f"--synchronous-commit {args.synchronous_commit}`",
        "",
    ]
    loads = [os.getloadavg()[0]]
    with database(args.dsn, args.synchronous_commit) as dsn:
        print("append and replay ...", file=sys.stderr)
        work = batches(2001, 3)
        events = 3 * 2000
        ours, theirs = alternating(
            args.repeats,
            lambda i: warlog_append(fresh_schema(dsn, f"w{i}"), 20, work),
            lambda i: raw_append(fresh_schema(dsn, f"r{i}"), 20, work),
        )
        long = fresh_schema(dsn, "long")
        with PostgresStore(long, create=True) as store:
            store.create_game(GameInfo("long", "bench"), batches(1, 1)[0])
            for n, batch in enumerate(batches(100, 1000)):
                store.append("long", batch, 1 + n * 1000)
        read_ours, read_theirs = alternating(
            args.repeats,
            lambda i: warlog_replay(long, "long")[0],
            lambda i: raw_replay(long, "long")[0],
        )
        lines += [
            "| store operation | warlog `PostgresStore` | raw psycopg | warlog / raw |",
            "| --- | ---: | ---: | ---: |",
            f"| append, batches of 3 events, 20 games in turn | {events / ours:,.0f} events/s "
            f"| {events / theirs:,.0f} events/s | {theirs / ours:.2f} |",
            f"| replay a game of 100,001 events (read every row) | {100_001 / read_ours:,.0f} "
            f"events/s | {100_001 / read_theirs:,.0f} events/s | {read_theirs / read_ours:.2f} |",
            "",
            "| server processes on one PostgreSQL | commands/s | p50 command→verdict "
            "| p99 command→verdict | throughput / 1 process |",
            "| --- | ---: | ---: | ---: | ---: |",
        ]
        print(f"scripting {args.games} games ...", file=sys.stderr)
        load = scripts(args.games, args.commands)
        count = sum(len(s.commands) for s in load)
        first = None
        for processes in args.processes:
            where = fresh_schema(dsn, f"t{processes}")
            print(f"{processes} server process(es): {count} commands ...", file=sys.stderr)
            with servers(where, processes) as addresses:
                seconds, latencies = asyncio.run(spread_over(addresses, load))
            check_tournament(where, load)
            rate = count / seconds
            first = first or rate
            lines.append(
                f"| {processes} | {rate:,.0f} | {statistics.median(latencies) * 1000:.1f} ms "
                f"| {percentile(latencies, 99) * 1000:.1f} ms | {rate / first:.2f} |"
            )
    loads.append(os.getloadavg()[0])
    lines += [
        "",
        f"Load average (1 min) at the start and the end: {loads[0]:.1f}, {loads[1]:.1f}",
    ]
    text = "\n".join(lines)
    print(text)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a", encoding="utf-8") as out:  # one run's tables after another's
        out.write(text + "\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
