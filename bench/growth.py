"""How cost grows with game length: long games of a ruleset, each measured for seek, fork, the
whole game's replay and audit, and play at its end; and their table."""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from bench.figures import fresh_db, median, quiesce, rate
from bench.measures import on_store, warlog_audit, warlog_replay
from bench.workload import LongGame, Policy, Subject, size_label, write_long_games
from warlog.eventstore.sqlite_store import SQLiteStore
from warlog.eventstore.sqlite_vault import vault_path

if TYPE_CHECKING:
    from bench.suite import Config


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
