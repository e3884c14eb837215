"""The recorded games fuzzing starts from: game ids, export files and folders of them, loaded once
into one memory arbiter, each with its fork points and what its log teaches about commands.

A source is imported with the whole audit (a log with findings is refused, exit 4), then folded
once from its first event; the state after each fork point is kept as a snapshot, so an example
forks anywhere for the cost of decoding one state. Forking never changes a source.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec
from msgspec.structs import replace

from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.audit_report import ENDS_INSIDE_BATCH
from warlog.arbiter.fold import Fold
from warlog.arbiter.ids import check_game_id
from warlog.arbiter.sources import file_records, is_file_source
from warlog.domain import rulesets
from warlog.domain.core.errors import InputError, IntegrityError, WarlogError
from warlog.domain.core.events import BATCH_STARTS, CommandIssued
from warlog.domain.core.ruleset import AnyRuleset
from warlog.eventstore.memory_store import MemoryStore
from warlog.eventstore.records import Record
from warlog.eventstore.vault import MemoryVault

#: the most fork points kept per source (evenly spread, the first and the last always kept)
MOST_FORK_POINTS = 400
#: the most values kept per command field, for mutated commands
MOST_VALUES = 64


class Source(msgspec.Struct):
    """A recorded game loaded for fuzzing."""

    #: as the user named it (a path or a game id)
    name: str
    #: its id in the sources' arbiter
    game: str
    ruleset: AnyRuleset
    #: the batch ends an example may fork at, ascending (1 is the end of the opening batch)
    ends: list[int]
    #: the fork points whose dice seed the log reveals later: a fork there keeps the seed
    #: (a same-dice fork shows it), so that a failure's log proves the rolls before the cut too
    public: frozenset[int]
    #: the latest time in the log: every event an example appends is stamped with it
    last_at: str
    #: the hash of its last event (what tells it from every other log)
    tip: str
    #: the commands the log records, as JSON objects (for commands of another phase)
    commands: list[dict[str, Any]]
    #: per command field, the values the log's commands gave it (for mutated commands)
    values: dict[str, list[Any]]
    #: per command type, per field, the values the log's commands of that type gave it (for
    #: mutated commands of a type whose legal list is complete)
    typed_values: dict[str, dict[str, list[Any]]] = {}
    #: its records as read (a referee's export or the database's: every value the source
    #: opened, opened): a failure's log copies those before its fork point from here, since
    #: the key of a source not yet revealed is not in the sources' vault
    records: list[Record] = []


class Sources(msgspec.Struct):
    """Every source, in the one arbiter (memory store and vault) that holds them."""

    arbiter: Arbiter
    store: MemoryStore
    vault: MemoryVault
    sources: list[Source]

    def free_id(self, stem: str) -> str:
        """A game id no source has (``stem``, or ``stem-2``, ``stem-3``…)."""
        taken = {info.game for info in self.store.games()}
        game, n = stem, 1
        while game in taken:
            n += 1
            game = f"{stem}-{n}"
        return game

    def by_ruleset(self) -> dict[str, list[Source]]:
        """The sources grouped by ruleset name, in the order they were given."""
        out: dict[str, list[Source]] = {}
        for source in self.sources:
            out.setdefault(source.ruleset.name, []).append(source)
        return out


def expand(specs: Sequence[str]) -> Iterator[tuple[str, bool]]:
    """``(name, is_file)`` for each source named: a folder gives its warlog logs (``*.jsonl``
    files whose first event is ``game_created``, found recursively, sorted); anything that looks
    like a path is a file; anything else a game id."""
    for spec in specs:
        if os.path.isdir(spec):
            for path in sorted(Path(spec).rglob("*.jsonl")):
                if path.is_file() and is_warlog_log(path):
                    yield str(path), True
        else:
            yield spec, is_file_source(spec)


def is_warlog_log(path: Path) -> bool:
    """True when the file's first line is an event of the export format opening a game."""
    try:
        with path.open(encoding="utf-8") as fh:
            first = fh.readline()
        obj = json.loads(first)
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(obj, dict) and obj.get("seq") == 1 and obj.get("type") == "game_created"


def load(specs: Sequence[str], database: Callable[[], Arbiter]) -> Sources:
    """Every source ``specs`` names, imported and folded. InputError (exit 1) for a source that
    cannot be read (a missing file, a file that is not a warlog log, an unknown game or
    ruleset) or when no source is left; IntegrityError (exit 4) for a log the audit refuses (a
    damaged line, its chain, its rules re-derived, its dice and seals checked where revealed)."""
    holder = empty()
    loaded: list[Source] = []
    for name, is_file in expand(specs):
        if is_file:
            path = Path(name)
            if path.is_file() and not is_warlog_log(path):
                raise InputError(
                    f"{name} is not a warlog log: its first line is not the event opening a "
                    "game (game_created) in the export format",
                    "input/not_a_log",
                )
            records = file_records(name)
        else:
            game = check_game_id(name)
            records = list(database().export_records(game, opened=True))
        try:
            loaded.append(add(holder, name, records))
        except IntegrityError as exc:
            if exc.code == "import/unchecked":  # an export whose seals this run cannot open
                raise InputError(
                    f"cannot fuzz {name}: its sealed values are not opened (an export of a game "
                    "whose seed is not revealed), and every command is re-derived; give the "
                    "game's id on its database, or an export made with --open or after the "
                    "reveal",
                    "fuzz/source_sealed",
                ) from None
            if exc.code != "import/broken_log":
                raise
            raise _not_clean(holder, name, records) from None
    if not loaded:
        raise InputError(
            f"no recorded game in {', '.join(specs)} (give game ids, .jsonl files or folders)",
            "input/no_sources",
        )
    return replace(holder, sources=loaded)


def _not_clean(holder: Sources, name: str, records: list[Record]) -> IntegrityError:
    """Why a source the import refused cannot be fuzzed, from its audit's first finding (what
    is known of it): played under a version not played here, ending inside a batch, re-derived
    differently by the rules installed (a change of the rules since it was recorded, or the log
    altered), or its chain, dice or seals do not check (the log altered or damaged). The
    finding is cut, never what the user is to do next."""
    findings = audit_records(records, holder.arbiter.rulesets).findings
    first = findings[0]
    more = (
        f" (and {len(findings) - 1} more; `warlog audit {name}` lists them)"
        if len(findings) > 1
        else ""
    )
    if first.check == "version":
        why = "this log was played under rules this warlog does not have"
    elif first.message == ENDS_INSIDE_BATCH:
        why = "this log is incomplete"
    elif first.check == "rules":
        why = (
            f"the rules installed re-derive this log differently from seq {first.seq} (a change "
            "of the rules since it was recorded, or the log altered)"
        )
    else:
        why = f"this log does not audit clean from seq {first.seq} (altered or damaged)"
    lead = f"cannot fuzz {name}: {why}: "
    tail = f"{more}; a source must audit clean under the rules installed"
    room = max(WarlogError.MAX_LENGTH - len(lead) - len(tail), FINDING_AT_LEAST)
    return IntegrityError(lead + first.line(room) + tail, "fuzz/source_not_clean")


#: the fewest characters of its first finding a refused source's line keeps (a long file name
#: may leave less room: the line is then cut at its end, as every error's is)
FINDING_AT_LEAST = 60


def empty() -> Sources:
    """No source yet, in a fresh memory arbiter."""
    store, vault = MemoryStore(), MemoryVault()
    return Sources(Arbiter(store, rulesets.get, vault=vault), store, vault, [])


def add(holder: Sources, name: str, records: list[Record], *, chain_only: bool = False) -> Source:
    """Import ``records`` into ``holder`` (audited in full unless ``chain_only``) as the source
    ``name``, fold it once and keep a snapshot at each of its fork points."""
    return _load(holder.arbiter, name, records, chain_only)


def _load(holder: Arbiter, name: str, records: list[Record], chain_only: bool) -> Source:
    created = json.loads(records[0].data) if records and records[0].type == "game_created" else {}
    wanted = str(created.get("game") or "source")
    game, n = wanted, 1
    while _exists(holder, game):
        n += 1
        game = check_game_id(f"{wanted[:56]}-{n}")
    game = holder.import_records(records, game, chain_only=chain_only, fold_only=True)
    ruleset = holder.ruleset_of(game)
    codec = holder.codec(ruleset)
    head, _ = holder.head(game)
    ends = _fork_points([r.seq for r in records if r.type in BATCH_STARTS][1:], head)
    wanted_ends = set(ends)
    fold = Fold(ruleset)
    decode = holder.decoder(codec, game)
    commitments: dict[int, str] = {}
    commands: list[dict[str, Any]] = []
    for row in holder.store.read_rows(game):
        seq, type_, data, hash_ = row
        (event,) = decode([row])
        fold.apply(seq, type_, data, hash_, event)
        if isinstance(event, CommandIssued):
            commands.append(event.command)
        if seq in wanted_ends:
            folded = fold.folded
            holder.keep_snapshot(game, folded)
            commitments[seq] = folded.meta.dice.commitment or ""
    opened = set(fold.folded.meta.opened)
    return Source(
        name=name,
        game=game,
        ruleset=ruleset,
        ends=ends,
        public=frozenset(seq for seq, c in commitments.items() if c in opened),
        last_at=max(r.at for r in records),
        tip=records[-1].hash,
        commands=commands,
        values=_values(commands),
        typed_values=_typed_values(commands),
        records=list(records),
    )


def _exists(holder: Arbiter, game: str) -> bool:
    return any(info.game == game for info in holder.store.games())


def _fork_points(starts: list[int], head: int) -> list[int]:
    """The batch ends (each batch start but the first ends the batch before it; the head ends
    the last), at most ``MOST_FORK_POINTS`` of them, evenly spread."""
    ends = sorted({*(s - 1 for s in starts), head})
    if len(ends) <= MOST_FORK_POINTS:
        return ends
    step = (len(ends) - 1) / (MOST_FORK_POINTS - 1)
    return sorted({ends[round(i * step)] for i in range(MOST_FORK_POINTS)})


def _values(commands: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """Per field, the distinct values the commands gave it (in the order first seen)."""
    seen: dict[str, dict[str, Any]] = {}
    for command in commands:
        for field, value in command.items():
            if field in ("type", "player"):
                continue
            kept = seen.setdefault(field, {})
            if len(kept) < MOST_VALUES:
                kept.setdefault(json.dumps(value, sort_keys=True), value)
    return {field: list(kept.values()) for field, kept in seen.items()}


def _typed_values(commands: list[dict[str, Any]]) -> dict[str, dict[str, list[Any]]]:
    """Per command type, per field, the distinct values its commands gave it."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for command in commands:
        by_type.setdefault(str(command.get("type")), []).append(command)
    return {kind: _values(group) for kind, group in by_type.items()}
