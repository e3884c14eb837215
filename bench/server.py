#!/usr/bin/env python3
"""The arbiter server's benchmark: commands per second and command-to-verdict latency (p50,
p99) with 50 and 500 games played at once over HTTP on loopback, against the in-process Arbiter
playing the same commands on the same kind of database: the ratio is what the server costs.

``python bench/server.py [--games 50 500] [--commands 12] [--keep DIR]`` (a minute or two on 2
cores). It writes the table to stdout and to ``bench/results/server.md``; docs/performance.md
explains the method and holds the latest figures. Not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warlog.arbiter.application import Arbiter
from warlog.arbiter.database import on_database
from warlog.domain import rulesets as registry
from warlog.eventstore.memory_store import MemoryStore

BENCH_DIR = Path(__file__).resolve().parent
RESULTS = BENCH_DIR / "results" / "server.md"
ROOT = BENCH_DIR.parent
SEED = bytes(range(32))  # every game's key: the scripts' dice are the same on both sides
ADMIN = "bench-admin-token"
RULESETS = ("armageddon-empires", "battle-for-armageddon")
#: the server, with the benchmark's seeds, in a child process of its own
CHILD = "import sys; from bench.server import serve_child; serve_child(sys.argv[1])"


@dataclass(frozen=True)
class Script:
    """One game's commands, each with the player who sends it, as random legal play made
    them (on a memory store, with the benchmark's key)."""

    game: str
    ruleset: str
    commands: list[tuple[str, bytes]]


def scripts(games: int, commands: int, seed: int = 7) -> list[Script]:
    arb = Arbiter(MemoryStore(), registry.get, seeds=lambda: SEED)
    rng = random.Random(seed)
    out = []
    for n in range(games):
        ruleset = RULESETS[n % 2]
        game = arb.new_game(ruleset, game=f"g{n}")
        played: list[tuple[str, bytes]] = []
        for _ in range(commands):
            legal = arb.legal(game)
            if not legal:
                break
            command = rng.choice(legal)
            text = json.dumps(command, separators=(",", ":")).encode()
            arb.play(game, text)
            played.append((command["player"], text))
        out.append(Script(game, ruleset, played))
    return out


# ------------------------------------------------------------------ the in-process side


def in_process(db: Path, work: list[Script]) -> tuple[float, list[float]]:
    """The same commands through one Arbiter on an SQLite database, game after game in turn
    (round robin, as the server interleaves them): ``(seconds, latencies)``."""
    with on_database(db, create=True, seeds=lambda: SEED) as arb:
        for script in work:
            arb.new_game(script.ruleset, game=script.game)
        latencies = []
        started = time.perf_counter()
        for step in range(max(len(s.commands) for s in work)):
            for script in work:
                if step < len(script.commands):
                    player, text = script.commands[step]
                    t0 = time.perf_counter()
                    arb.play_as(script.game, text, player)
                    latencies.append(time.perf_counter() - t0)
        return time.perf_counter() - started, latencies


# ------------------------------------------------------------------ the server side


def serve_child(db: str) -> None:
    """Run the server on ``db`` with the benchmark's seeds (in the child process)."""
    import uvicorn

    from warlog.server.app import create_app
    from warlog.server.serve import Server, listen

    app = create_app(lambda: on_database(db, create=True, seeds=lambda: SEED), ADMIN)
    sock = listen("127.0.0.1", 0)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    Server(config, sock, app.state.warlog.feeds.close).run(sockets=[sock])


class Connection:
    """A keep-alive HTTP/1.1 connection speaking just enough HTTP for the benchmark (a client
    that costs next to nothing, so that the figures are the server's)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, host: str, port: int) -> Connection:
        return cls(*await asyncio.open_connection(host, port))

    async def request(
        self, method: str, path: str, token: str, body: bytes = b""
    ) -> tuple[int, bytes]:
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        self.writer.write(head.encode() + body)
        status_line = await self.reader.readline()
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return int(status_line.split()[1]), await self.reader.readexactly(length)

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


async def over_http(host: str, port: int, work: list[Script]) -> tuple[float, list[float]]:
    """Create the games, then play every game's script at once, each on its own connection,
    each command sent when the verdict of the one before it has come: ``(seconds,
    latencies)`` of the play."""
    return await spread_over(((host, port),), work)


async def spread_over(
    addresses: Sequence[tuple[str, int]], work: list[Script]
) -> tuple[float, list[float]]:
    """``over_http`` with the games spread over several servers of one database: game i is
    created and played on server i mod n."""
    tokens = {}
    for at, address in enumerate(addresses):
        admin = await Connection.open(*address)
        for script in work[at :: len(addresses)]:
            body = json.dumps({"ruleset": script.ruleset, "game": script.game}).encode()
            status, answer = await admin.request("POST", "/games", ADMIN, body)
            assert status == 201, answer
            tokens[script.game] = json.loads(answer)["tokens"]
        await admin.close()
    connections = [await Connection.open(*addresses[n % len(addresses)]) for n in range(len(work))]
    latencies: list[float] = []

    async def play(connection: Connection, script: Script) -> None:
        path = f"/games/{script.game}/commands"
        for player, text in script.commands:
            t0 = time.perf_counter()
            status, answer = await connection.request(
                "POST", path, tokens[script.game][player], text
            )
            latencies.append(time.perf_counter() - t0)
            assert status == 200, answer

    started = time.perf_counter()
    await asyncio.gather(*(play(c, s) for c, s in zip(connections, work, strict=True)))
    seconds = time.perf_counter() - started
    for connection in connections:
        await connection.close()
    return seconds, latencies


def server_run(db: Path, work: list[Script]) -> tuple[float, list[float]]:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db)],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    try:
        assert child.stderr is not None
        line = child.stderr.readline()
        found = re.match(r"listening on http://([\d.]+):(\d+)", line)
        assert found, line
        return asyncio.run(over_http(found.group(1), int(found.group(2)), work))
    finally:
        child.terminate()
        child.wait(timeout=30)


# ------------------------------------------------------------------ figures


def percentile(xs: list[float], p: float) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def row(label: str, seconds: float, latencies: list[float]) -> str:
    return (
        f"| {label} | {len(latencies) / seconds:,.0f} | {statistics.median(latencies) * 1000:.1f} ms"
        f" | {percentile(latencies, 99) * 1000:.1f} ms |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[50, 500])
    parser.add_argument("--commands", type=int, default=12, help="commands per game")
    parser.add_argument("--keep", metavar="DIR", help="keep the databases in DIR")
    args = parser.parse_args()
    work_dir = Path(args.keep or tempfile.mkdtemp(prefix="warlog-bench-server-"))
    work_dir.mkdir(parents=True, exist_ok=True)
    lines = [
        f"CPython {platform.python_version()} on {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} cores; `python bench/server.py --games {' '.join(map(str, args.games))}"
        f" --commands {args.commands}`",
        "",
        "| side, games at once | commands/s | p50 command→verdict | p99 command→verdict |",
        "| --- | ---: | ---: | ---: |",
    ]
    ratios = []
    try:
        for games in args.games:
            print(f"scripting {games} games ...", file=sys.stderr)
            work = scripts(games, args.commands)
            count = sum(len(s.commands) for s in work)
            print(f"in-process: {count} commands ...", file=sys.stderr)
            local = in_process(work_dir / f"local-{games}.db", work)
            print(f"server: {count} commands from {games} connections ...", file=sys.stderr)
            remote = server_run(work_dir / f"server-{games}.db", work)
            lines.append(row(f"in-process Arbiter, {games} games", *local))
            lines.append(row(f"server over HTTP, {games} games", *remote))
            ratios.append((games, (count / remote[0]) / (count / local[0])))
    finally:
        if not args.keep:
            shutil.rmtree(work_dir, ignore_errors=True)
    lines.append("")
    lines += [f"Server throughput / in-process, {g} games: {r:.2f}" for g, r in ratios]
    text = "\n".join(lines)
    print(text)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
