"""warlog against the ``eventsourcing`` library (SQLite persistence) on the same events.

Workload: ``streams`` streams of ``events`` events each, whose payloads are the realistic games'
events taken in order. Both sides start from domain objects and end with domain objects:

- warlog writes typed event Structs (``Codec.encode`` to rows, ``SQLiteStore`` with the hash
  chain) and reads them back decoded into typed events (``SQLiteStore.read_rows`` + ``Codec.decode_all``);
- eventsourcing writes an ``Aggregate`` whose events carry the same content (the tag and the
  fields as a dict; the dicts are built before the clock starts) with ``Application.save`` and
  reads them back as domain events with ``Application.events.get``.

Two ways to write: each stream's events in one transaction (``bulk``: an aggregate saved once,
a game imported), and one command's batch per transaction (``batches``, realistic batch sizes,
``batch_streams`` streams only: both sides then wait on the same fsync per commit).
"""

from __future__ import annotations

import os
import tempfile
import time
import uuid
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from bench.figures import drop_db, quiesce
from bench.workload import Clock, PlayedGame, clear_data
from warlog.domain.core.events import Event
from warlog.eventstore.codec import Codec
from warlog.eventstore.records import GameInfo, Pending
from warlog.eventstore.sqlite_store import SQLiteStore

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate


class BenchGame(Aggregate):
    """An eventsourcing aggregate carrying warlog's events as (kind, fields)."""

    class Happened(Aggregate.Event):
        kind: str
        data: dict[str, Any]

    def __init__(self, name: str) -> None:
        self.name = name

    def happen(self, kind: str, data: dict[str, Any]) -> None:
        self.trigger_event(self.Happened, kind=kind, data=data)


@dataclass(frozen=True)
class Streams:
    """The typed events of each stream, their eventsourcing payloads, and batch sizes."""

    events: list[list[Event]]
    payloads: list[list[tuple[str, dict[str, Any]]]]
    batch_sizes: list[int]

    @property
    def total(self) -> int:
        return sum(len(s) for s in self.events)


def make_streams(corpus: list[PlayedGame], ruleset: Any, streams: int, events: int) -> Streams:
    codec = Codec.for_ruleset(ruleset)
    flat = [codec.decode(r.type, clear_data(r.data)) for game in corpus for r in game.export]
    sizes = [len(b) for game in corpus for b in game.batches[1:]]
    out: list[list[Event]] = []
    payloads: list[list[tuple[str, dict[str, Any]]]] = []
    for s in range(streams):
        chunk = [flat[(s * events + i) % len(flat)] for i in range(events)]
        out.append(chunk)
        payloads.append([(e.type_name(), _fields(e)) for e in chunk])
    return Streams(out, payloads, sizes)


def _fields(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(event)
    data.pop("type", None)
    return data


def _batches(n: int, sizes: list[int], offset: int) -> list[tuple[int, int]]:
    """``[lo, hi)`` slices of ``1..n`` cut by the realistic batch sizes, starting at ``offset``."""
    cuts = []
    lo, k = 1, offset
    while lo < n:
        hi = min(n, lo + sizes[k % len(sizes)])
        cuts.append((lo, hi))
        lo, k = hi, k + 1
    return cuts


def es_app(path: Path) -> Application[Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return Application(
            env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}
        )


@dataclass
class Timings:
    write_s: float
    read_s: float
    events: int


def run_warlog(streams: Streams, ruleset: Any, workdir: Path, batched: int | None) -> Timings:
    """Write every stream (whole, or the first ``batched`` streams in command batches), then
    read every written stream back into typed events."""
    codec = Codec.for_ruleset(ruleset)
    clock = Clock()
    fd, name = tempfile.mkstemp(suffix=".db", dir=workdir)
    os.close(fd)
    os.unlink(name)
    store = SQLiteStore(name, create=True)
    games = []
    written = 0
    quiesce()
    started = time.perf_counter()
    if batched is None:
        for s, events in enumerate(streams.events):
            game = f"s{s}"
            at = clock()  # one transaction, one moment (as the Arbiter stamps a batch)
            pending = [Pending(*codec.encode(e), at) for e in events]
            store.create_game(GameInfo(game, ruleset.name), pending)
            games.append(game)
            written += len(pending)
    else:
        for s, events in enumerate(streams.events[:batched]):
            game = f"s{s}"
            first = codec.encode(events[0])
            store.create_game(GameInfo(game, ruleset.name), [Pending(*first, clock())])
            seq = 1
            for lo, hi in _batches(len(events), streams.batch_sizes, s * 7):
                at = clock()
                pending = [Pending(*codec.encode(e), at) for e in events[lo:hi]]
                seq = store.append(game, pending, seq)[-1].seq
            games.append(game)
            written += len(events)
    write_s = time.perf_counter() - started
    store.close()  # the last connection out checkpoints the WAL; a reader comes later
    store = SQLiteStore(name)
    quiesce()
    started = time.perf_counter()
    read = 0
    for game in games:
        rows = list(store.read_rows(game))
        read += len(codec.decode_all([r[1] for r in rows], [r[2] for r in rows]))
    read_s = time.perf_counter() - started
    store.close()
    drop_db(Path(name))
    assert read == written
    return Timings(write_s, read_s, written)


def run_eventsourcing(streams: Streams, workdir: Path, batched: int | None) -> Timings:
    """The same with an eventsourcing Application on an SQLite file."""
    fd, name = tempfile.mkstemp(suffix=".db", dir=workdir)
    os.close(fd)
    os.unlink(name)
    app = es_app(Path(name))
    ids: list[uuid.UUID] = []
    written = 0
    quiesce()
    started = time.perf_counter()
    if batched is None:
        for s, payloads in enumerate(streams.payloads):
            aggregate = BenchGame(name=f"s{s}")
            for kind, data in payloads[1:]:
                aggregate.happen(kind, data)
            app.save(aggregate)
            ids.append(aggregate.id)
            written += len(payloads)
    else:
        for s, payloads in enumerate(streams.payloads[:batched]):
            aggregate = BenchGame(name=f"s{s}")
            app.save(aggregate)
            for lo, hi in _batches(len(payloads), streams.batch_sizes, s * 7):
                for kind, data in payloads[lo:hi]:
                    aggregate.happen(kind, data)
                app.save(aggregate)
            ids.append(aggregate.id)
            written += len(payloads)
    write_s = time.perf_counter() - started
    app.close()  # as for warlog: the WAL checkpointed, a new reader
    app = es_app(Path(name))
    quiesce()
    started = time.perf_counter()
    read = 0
    for id_ in ids:
        read += len(list(app.events.get(id_)))
    read_s = time.perf_counter() - started
    app.close()
    drop_db(Path(name))
    assert read == written, (read, written)
    return Timings(write_s, read_s, written)


def run_raw(streams: Streams, ruleset: Any, workdir: Path) -> Timings:
    """The raw limit on the same data: each stream's typed events encoded as warlog encodes them,
    hash-chained and inserted with ``sqlite3`` alone (``bench.baselines``: one transaction a
    stream, the same file schema), then read back: ``SELECT type, data`` and a typed msgspec
    decode per row."""
    from bench import baselines

    codec = Codec.for_ruleset(ruleset)
    clock = Clock()
    fd, name = tempfile.mkstemp(suffix=".db", dir=workdir)
    os.close(fd)
    os.unlink(name)
    SQLiteStore(name, create=True).close()  # the same schema and journal mode
    conn = baselines.connect(Path(name))
    games = []
    written = 0
    quiesce()
    started = time.perf_counter()
    for s, events in enumerate(streams.events):
        game = f"s{s}"
        at = clock()
        baselines.create(conn, game, ruleset.name, [Pending(*codec.encode(e), at) for e in events])
        games.append(game)
        written += len(events)
    write_s = time.perf_counter() - started
    conn.close()
    conn = baselines.connect(Path(name))
    decode = baselines.decoders(ruleset)
    quiesce()
    started = time.perf_counter()
    read = sum(baselines.replay(conn, game, decode) for game in games)
    read_s = time.perf_counter() - started
    conn.close()
    drop_db(Path(name))
    assert read == written
    return Timings(write_s, read_s, written)


def library_version() -> str:
    from importlib.metadata import version

    return version("eventsourcing")
