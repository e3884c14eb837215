"""The benchmark's workload: realistic games from random legal play, and long legal games.

Every game here is played by the real rules through the real ``Arbiter``, so replay, seek, fork
and audit run on legal games that audit passes. Realistic games are played on a ``MemoryStore``
and kept as their command batches (the rows every append measurement writes). Long games
(1k .. 1M events) are played by the ruleset's deterministic policy through an Arbiter on a
``SinkStore``, which hash-chains the rows exactly as the SQLite store does and streams them, with
the Arbiter's own snapshots, into an SQLite file in large transactions: appending a million
events one fsync at a time would take longer than the whole benchmark may.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import re
import sqlite3
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import msgspec

from warlog.arbiter.application import Arbiter
from warlog.domain.core.errors import ConflictError, InputError, StoreError, UnknownGame
from warlog.domain.core.events import BATCH_STARTS
from warlog.domain.core.seal import cleared, compact, stripped
from warlog.eventstore.chain import GENESIS, link
from warlog.eventstore.memory_store import MemoryStore
from warlog.eventstore.records import GameInfo, Pending, Record
from warlog.eventstore.sqlite_store import SQLiteStore
from warlog.eventstore.sqlite_vault import SQLiteVault, vault_path
from warlog.eventstore.vault import Opening, Vault, snapshot_mac

BENCH_DIR = Path(__file__).resolve().parent
AE = "armageddon-empires"
TOY = "dice-race"
#: the largest round limit an Armageddon Empires scenario may set (scenario.py: le=999)
AE_MAX_ROUNDS = 999
#: games of random play tried for each long game before giving up (each may end early)
LONG_GAME_ATTEMPTS = 5

#: (state, player, legal commands) -> the command to play
Policy = Callable[[Any, str, Sequence[Any]], Any]


class Clock:
    """A deterministic UTC clock for the contract's ``at``: each reading is ``step_ms`` later."""

    def __init__(self, start: datetime | None = None, step_ms: int = 7) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)
        self._step = timedelta(milliseconds=step_ms)

    def __call__(self) -> str:
        self._now += self._step
        return self._now.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


class Seeds:
    """Deterministic 32-byte dice seeds, so that a run plays the same games every time."""

    def __init__(self, label: str) -> None:
        self._label = label
        self._count = itertools.count()

    def __call__(self) -> bytes:
        return hashlib.sha256(f"warlog-bench:{self._label}:{next(self._count)}".encode()).digest()


# ---------------------------------------------------------------------- the rulesets under test


@dataclass(frozen=True)
class Subject:
    """A ruleset the workload is played under, with its scenarios and its long-game policy."""

    name: str
    label: str
    prefix: str  # of its long games' ids
    rulesets: Callable[[str], Any]
    scenario: str | None  # realistic games (None: the ruleset's default)
    long_scenario: str  # long games: must not end before the longest one is played
    long_policy: Callable[[random.Random], Policy]

    @property
    def ruleset(self) -> Any:
        return self.rulesets(self.name)


def ae_subject(workdir: Path) -> Subject:
    """Armageddon Empires: random legal play, on its bundled scenario for realistic games and on
    the same map with the scenario's largest round limit (999) for long ones."""
    from warlog.domain import rulesets

    ruleset = rulesets.get(AE)
    default = ruleset.default_scenario if hasattr(ruleset, "default_scenario") else None
    bundled = rulesets.bundled_scenarios(ruleset)
    text = bundled[default or sorted(bundled)[0]].read_text()
    text, found = re.subn(r"(?m)^max_rounds\s*=\s*\d+", f"max_rounds = {AE_MAX_ROUNDS}", text)
    if found != 1:
        raise RuntimeError("the bundled scenario has no max_rounds line to raise")
    long_scenario = workdir / "ae-long.toml"
    long_scenario.write_text(text)
    return Subject(
        name=AE,
        label="Armageddon Empires",
        prefix="ae",
        rulesets=rulesets.get,
        scenario=None,
        long_scenario=str(long_scenario),
        long_policy=long_ae_policy,
    )


def race_subject(workdir: Path) -> Subject:
    """The dice-race test ruleset (tests/toy.py), whose games never end (a target of 10**9
    successes): the only legal games warlog can make 100k and 1M events long."""
    from tests import toy

    scenario = workdir / "dice-race.toml"
    scenario.write_bytes(b'players = ["red", "blue"]\ntarget = 1000000000\n')

    def long_policy(rng: random.Random) -> Policy:
        def choose(state: Any, player: str, legal: Sequence[Any]) -> Any:
            return legal[rng.randrange(3)]  # roll 1, 2 or 3 dice

        return choose

    return Subject(
        name=TOY,
        label="dice-race (the test ruleset)",
        prefix="race",
        rulesets=toy.rulesets,
        scenario=str(scenario),
        long_scenario=str(scenario),
        long_policy=long_policy,
    )


# ---------------------------------------------------------------------- playing


def random_policy(rng: random.Random) -> Policy:
    """Random legal play: any legal command, uniformly."""

    def choose(state: Any, player: str, legal: Sequence[Any]) -> Any:
        return rng.choice(legal)

    return choose


#: the Armageddon Empires commands by which a base (and so an HQ, which ends the game) can fall
BASE_TAKING = frozenset({"assault", "play_attack_card"})


def long_ae_policy(rng: random.Random) -> Policy:
    """Random legal play that takes no base: any legal command, uniformly, but never a move onto
    an enemy base's hex, an assault or an attack card (unless nothing else is legal). Since bases
    can fall, random play ends most games when an HQ falls, at 7–10k events: these games go on
    to the lengths the series needs, with every other rule in play."""

    def choose(state: Any, player: str, legal: Sequence[Any]) -> Any:
        enemy_bases = {b.at for b in state.bases.values() if b.empire != player}
        peaceful = [
            c
            for c in legal
            if c.type_name() not in BASE_TAKING
            and not (c.type_name() == "move_army" and c.to in enemy_bases)
        ]
        return rng.choice(peaceful or list(legal))

    return choose


def play(
    arb: Arbiter,
    game: str,
    choose: Policy,
    *,
    rng: random.Random | None = None,
    max_commands: int | None = None,
    until_events: int | None = None,
) -> int:
    """Play ``game`` through ``arb.play`` (JSON in, as a client would send it) until it ends, or
    ``max_commands`` were played, or it holds ``until_events`` events; the commands played."""
    ruleset = arb.ruleset_of(game)
    played = 0
    while max_commands is None or played < max_commands:
        folded = arb.folded(game)
        if until_events is not None and folded.seq >= until_events:
            break
        state = folded.state
        if ruleset.is_terminal(state):
            break
        active = list(ruleset.active_players(state))
        if not active:
            break
        player = rng.choice(active) if rng is not None else active[0]
        legal = list(ruleset.legal_commands(state, player))
        if not legal:
            break
        arb.play(game, msgspec.json.encode(choose(state, player, legal)))
        played += 1
    return played


@dataclass
class PlayedGame:
    """A whole game as the command batches it appended (game_created's batch first)."""

    game: str
    ruleset: str
    batches: list[list[Pending]]
    commands: int
    #: its export once revealed (every seal opened): what a corpus database imports
    export: list[Record] = field(default_factory=list, repr=False)

    @property
    def events(self) -> int:
        return sum(len(b) for b in self.batches)

    def pending(self) -> list[Pending]:
        return [p for batch in self.batches for p in batch]


def clear_data(data: str) -> str:
    """The clear form of an opened record's data: each opened seal replaced by its value."""
    chained, openings = stripped(json.loads(data))
    return compact(cleared(chained, {path: value for path, (value, _) in openings.items()}))


def batches_of(records: Iterator[Record]) -> list[list[Pending]]:
    """The records cut into batches (each begins with a batch-start event)."""
    batches: list[list[Pending]] = []
    for record in records:
        if record.type in BATCH_STARTS or not batches:
            batches.append([])
        batches[-1].append(Pending(record.type, record.data, record.at))
    return batches


def play_corpus(subject: Subject, games: int, max_commands: int, seed: int) -> list[PlayedGame]:
    """``games`` whole games of random legal play, each ended by the rules or after
    ``max_commands`` and then closed by revealing its dice seed (so that audit re-derives every
    roll too), played on a MemoryStore."""
    store = MemoryStore()
    arb = Arbiter(store, subject.rulesets, clock=Clock(), seeds=Seeds(f"corpus-{seed}"))
    rng = random.Random(seed)
    out = []
    for i in range(games):
        game = arb.new_game(subject.name, subject.scenario, game=f"r{seed}-{i:03d}")
        commands = play(arb, game, random_policy(rng), rng=rng, max_commands=max_commands)
        arb.reveal(game)
        export = list(arb.export_records(game))
        out.append(PlayedGame(game, subject.name, batches_of(store.read(game)), commands, export))
    return out


# ---------------------------------------------------------------------- long games


class SinkStore:
    """A write-mostly ``Store`` for generating long games.

    It chains rows with ``eventstore.chain.link`` as the SQLite store does, keeps each game's
    head, its latest snapshot and its last ``keep`` records (all the Arbiter reads while it
    plays: it folds from its live state), and hands rows and snapshots to an SQLite connection
    in transactions of ``flush_rows`` rows.
    """

    def __init__(self, conn: sqlite3.Connection, keep: int = 4096, flush_rows: int = 50_000):
        self._conn = conn
        self._keep = keep
        self._flush_rows = flush_rows
        self._infos: dict[str, GameInfo] = {}
        self._recent: dict[str, deque[Record]] = {}
        self._first: dict[str, Record] = {}
        self._rows: list[tuple[str, int, str, str, str, str, str]] = []
        self.batch_ends: dict[str, list[int]] = {}

    def _chain(self, game: str, batch: Sequence[Pending], seq: int, prev: str) -> list[Record]:
        records = []
        recent = self._recent[game]
        for p in batch:
            seq += 1
            hash_ = link(prev, seq, p.type, p.at, p.data)
            record = Record(seq, p.type, p.data, p.at, prev, hash_)
            records.append(record)
            recent.append(record)
            self._rows.append((game, seq, p.type, p.data, p.at, prev, hash_))
            prev = hash_
        self.batch_ends[game].append(seq)
        if len(self._rows) >= self._flush_rows:
            self.flush()
        return records

    def create_game(self, info: GameInfo, first: Sequence[Pending]) -> list[Record]:
        if info.game in self._infos:
            raise ConflictError(f"game {info.game} exists", "store/game_exists")
        if info.parent is not None:
            raise InputError("the sink store writes no forks", "input/invalid")
        self._infos[info.game] = info
        self._recent[info.game] = deque(maxlen=self._keep)
        self.batch_ends[info.game] = []
        records = self._chain(info.game, first, 0, GENESIS)
        self._first[info.game] = records[0]
        return records

    def first_rows(self) -> dict[str, tuple[int, str, str]]:
        """``game -> (seq, type, data)`` of each game's event 1 (the sink writes no forks)."""
        return {game: (r.seq, r.type, r.data) for game, r in self._first.items()}

    def append(self, game: str, batch: Sequence[Pending], expected_seq: int) -> list[Record]:
        last = self._recent[game][-1]
        if last.seq != expected_seq:
            raise ConflictError(f"head {last.seq}, not {expected_seq}", "store/conflict")
        return self._chain(game, batch, last.seq, last.hash)

    def read(self, game: str, from_seq: int = 1, to_seq: int | None = None) -> Iterator[Record]:
        recent = self._recent[game]
        if recent[0].seq > from_seq:
            raise StoreError(f"the sink keeps only events {recent[0].seq}.. of {game}")
        hi = recent[-1].seq if to_seq is None else to_seq
        return iter([r for r in recent if from_seq <= r.seq <= hi])

    def read_rows(
        self,
        game: str,
        from_seq: int = 1,
        to_seq: int | None = None,
        *,
        skip: frozenset[str] = frozenset(),
    ) -> Iterator[tuple[int, str, str, str]]:
        records = list(self.read(game, from_seq, to_seq))
        last = records[-1].seq if records else 0
        return (
            (r.seq, r.type, r.data, r.hash) for r in records if r.type not in skip or r.seq == last
        )

    def head(self, game: str) -> tuple[int, str]:
        if game not in self._recent:
            raise UnknownGame(f"no game {game}")
        last = self._recent[game][-1]
        return last.seq, last.hash

    def info(self, game: str) -> GameInfo:
        if game not in self._infos:
            raise UnknownGame(f"no game {game}")
        return self._infos[game]

    def games(self) -> list[GameInfo]:
        return [self._infos[g] for g in sorted(self._infos)]

    def lineage(self, game: str) -> list[tuple[str, int, int | None]]:
        return [(game, 1, None)]

    def flush(self) -> None:
        """Write the buffered rows in one transaction."""
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(
            "INSERT INTO events (game, seq, type, data, at, prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
            self._rows,
        )
        conn.execute("COMMIT")
        self._rows.clear()

    def close(self) -> None:
        """Flush, then write the catalogue rows."""
        self.flush()
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(
            "INSERT INTO games (game, ruleset, parent, fork_at) VALUES (?, ?, NULL, NULL)",
            [(info.game, info.ruleset) for info in self._infos.values()],
        )
        conn.execute("COMMIT")


class SinkVault:
    """The vault beside a SinkStore: keys, openings and each game's latest snapshot in memory
    (all the Arbiter reads while it plays), written to the key file in large transactions, each
    snapshot under the key file's own MAC."""

    def __init__(self, conn: sqlite3.Connection, flush_rows: int = 5_000) -> None:
        self._conn = conn
        self._flush_rows = flush_rows
        (mac_key,) = conn.execute(
            "SELECT value FROM meta WHERE key = 'snapshot_mac_key'"
        ).fetchone()
        self._mac_key = bytes.fromhex(mac_key)
        self._keys: dict[str, tuple[str, bytes]] = {}
        self._openings: dict[str, Opening] = {}
        self._at: dict[tuple[str, int], list[str]] = {}  # (game, seq) -> hashes of its openings
        self._snap: dict[str, tuple[int, str, bytes]] = {}
        self._snap_rows: list[tuple[str, str, int, bytes, bytes]] = []
        self._opening_rows: list[Opening] = []
        self.snapshots: dict[str, int] = {}

    def available(self) -> bool:
        return True

    def put_key(self, commitment: str, seed: bytes, game: str) -> None:
        self._keys[commitment] = (game, bytes(seed))

    def key(self, commitment: str) -> bytes | None:
        found = self._keys.get(commitment)
        return None if found is None else found[1]

    def put_openings(self, openings: Sequence[Opening]) -> None:
        for opening in openings:
            self._openings[opening.hash] = opening
            self._at.setdefault((opening.game, opening.seq), []).append(opening.hash)
            self._opening_rows.append(opening)
        if len(self._opening_rows) >= self._flush_rows:
            self.flush()

    def opening(self, hash_: str) -> Opening | None:
        return self._openings.get(hash_)

    def clears(self, hashes: Sequence[str]) -> dict[str, str]:
        return {h: self._openings[h].clear for h in hashes if h in self._openings}

    def clears_between(self, game: str, lo: int, hi: int) -> dict[str, str]:
        openings, at = self._openings, self._at
        return {
            h: openings[h].clear
            for seq in range(lo, hi + 1)
            for h in at.get((game, seq), ())
            if openings[h].game == game and openings[h].seq == seq  # not since kept elsewhere
        }

    def openings(self, hashes: Sequence[str]) -> dict[str, Opening]:
        return {h: self._openings[h] for h in hashes if h in self._openings}

    def put_snapshot(self, owner: str, seq: int, version: str, state: bytes) -> None:
        self._snap[owner] = (seq, version, bytes(state))
        mac = snapshot_mac(self._mac_key, owner, seq, version, bytes(state))
        self._snap_rows.append((owner, version, seq, bytes(state), mac))
        self.snapshots[owner] = self.snapshots.get(owner, 0) + 1

    def latest_snapshot(
        self, segments: Sequence[tuple[str, int, int | None]], seq: int, version: str
    ) -> tuple[int, bytes] | None:
        snap = self._snap.get(segments[-1][0])
        if snap is None or snap[0] > seq or snap[1] != version:
            return None
        return snap[0], snap[2]

    def flush(self) -> None:
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(
            "INSERT OR REPLACE INTO snapshots (game, version, seq, state, mac) VALUES (?, ?, ?, ?, ?)",
            self._snap_rows,
        )
        conn.executemany(
            "INSERT OR REPLACE INTO openings (hash, game, seq, clear, owners) VALUES (?, ?, ?, ?, ?)",
            [
                (o.hash, o.game, o.seq, o.clear, msgspec.json.encode(o.owners).decode())
                for o in self._opening_rows
            ],
        )
        conn.executemany(
            "INSERT OR IGNORE INTO keys (commitment, game, seed) VALUES (?, ?, ?)",
            [(c, g, s) for c, (g, s) in self._keys.items()],
        )
        conn.execute("COMMIT")
        self._snap_rows.clear()
        self._opening_rows.clear()


@dataclass
class LongGame:
    """A long game written to the benchmark's SQLite file."""

    game: str
    events: int
    commands: int
    batch_ends: list[int] = field(repr=False)
    snapshots: int
    seconds: float  # to play it and write it


def size_label(size: int) -> str:
    if size >= 1_000_000 and size % 1_000_000 == 0:
        return f"{size // 1_000_000}M"
    if size >= 1000 and size % 1000 == 0:
        return f"{size // 1000}k"
    return str(size)


def write_long_games(
    subject: Subject, path: Path, sizes: Sequence[int], seed: int
) -> dict[int, LongGame]:
    """Play one game of at least each of ``sizes`` events into a new SQLite file at ``path``
    (the schema made by ``SQLiteStore``); each stops at the first batch end past its size."""
    SQLiteStore(path, create=True).close()
    SQLiteVault(vault_path(path), create=True).key("")  # makes the key file and its schema
    conn = sqlite3.connect(path, isolation_level=None)
    keys = sqlite3.connect(vault_path(path), isolation_level=None)
    sink = SinkStore(conn)
    vault = SinkVault(keys)
    # the sink vault holds what the Arbiter asks of a vault while it plays a new game (keys,
    # openings, snapshots), not the seat tokens and copies a server or a fork asks for
    arb = Arbiter(
        sink,
        subject.rulesets,
        vault=cast(Vault, vault),
        clock=Clock(),
        seeds=Seeds(f"long-{seed}"),
    )
    out: dict[int, LongGame] = {}
    try:
        for size in sizes:
            started = time.perf_counter()
            label = f"{subject.prefix}-{size_label(size)}"
            # random play may end a game early (an HQ falls): then the next seed, a new game
            for attempt in range(LONG_GAME_ATTEMPTS):
                game_id = label if attempt == 0 else f"{label}.{attempt}"
                game = arb.new_game(subject.name, subject.long_scenario, game=game_id)
                rng = random.Random(f"{seed}-{game_id}")
                commands = play(arb, game, subject.long_policy(rng), rng=rng, until_events=size)
                sink.flush()
                vault.flush()
                head = sink.head(game)[0]
                if head >= size:
                    break
            else:
                raise RuntimeError(
                    f"{LONG_GAME_ATTEMPTS} long games ended before {size} events (the last after "
                    f"{head}): its scenario ({subject.long_scenario}) must allow longer games"
                )
            out[size] = LongGame(
                game,
                head,
                commands,
                sink.batch_ends[game],
                vault.snapshots.get(game, 0),
                time.perf_counter() - started,
            )
        vault.flush()
        sink.close()
    finally:
        conn.close()
        keys.close()
    return out
