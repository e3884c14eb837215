"""The recorded games fuzzing starts from: game ids, export files and folders of them, loaded once
into one memory arbiter, each with its fork points and what its log teaches about commands.

A source is imported with the whole audit (a log with findings is refused, exit 4), then folded
once from its first event; the state after each fork point is kept as a snapshot, so an example
forks anywhere for the cost of decoding one state. Forking never changes a source.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec
from msgspec.structs import replace

from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.audit_report import ENDS_INSIDE_BATCH, Finding
from warlog.arbiter.fold import Fold
from warlog.arbiter.ids import check_game_id
from warlog.arbiter.sources import file_records, is_file_source
from warlog.domain import rulesets
from warlog.domain.core.errors import InputError, IntegrityError, WarlogError, quoted
from warlog.domain.core.events import BATCH_STARTS, CommandIssued
from warlog.domain.core.ruleset import AnyRuleset
from warlog.domain.core.summary import listed
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
    """Every source ``specs`` names, imported and folded, each log once however often it is
    named (the first name given kept), in a canonical order whatever the order given: by
    ruleset name, then by a digest of all its events (``_digest``), so that the same
    seed and the same logs give the same examples. InputError (exit 1) for a source that
    cannot be read (a missing file, a file that is not a warlog log, an unknown game, an
    export still sealed) or when no source is left; NotClean (an IntegrityError, exit 4) when
    a log does not audit clean (a damaged line, its chain, its rules re-derived, its dice and
    seals checked where revealed), naming the first and counting the others."""
    read: dict[str, tuple[str, list[Record]]] = {}
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
        read.setdefault(_digest(records), (name, records))  # the same log named again: once
    if not read:
        raise InputError(
            f"no recorded game in {', '.join(specs)} (give game ids, .jsonl files or folders)",
            "input/no_sources",
        )
    holder = empty()
    loaded: list[Source] = []
    refused: list[tuple[str, list[Record]]] = []
    for _, (name, records) in sorted(
        read.items(), key=lambda kv: (_ruleset_of(kv[1][1]) or "", kv[0])
    ):
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
            refused.append((name, records))
    if refused:
        raise _not_clean(holder, refused)
    return replace(holder, sources=loaded)


def _digest(records: list[Record]) -> str:
    """What tells one log from another: a digest of every event as recorded (the last
    event's hash alone would not tell an altered log from the one it was altered from)."""
    digest = hashlib.sha256()
    for record in records:
        digest.update(
            f"{record.seq} {record.type} {record.at} {record.prev} {record.hash} ".encode()
        )
        digest.update(record.data.encode())
    return digest.hexdigest()


def _ruleset_of(records: list[Record]) -> str | None:
    """The ruleset a log's first event names ("" where it names none); None where the log does
    not begin with ``game_created`` (empty, or its first event lost)."""
    if not records or records[0].type != "game_created":
        return None
    try:
        created = json.loads(records[0].data)
    except ValueError:
        return ""
    ruleset = created.get("ruleset") if isinstance(created, dict) else None
    return ruleset if isinstance(ruleset, str) else ""


class NotClean(IntegrityError):
    """Sources that do not audit clean under the rules installed: the line names the first,
    and ``sources`` each one (its name, why, its audit's first finding and how many it found),
    for ``--json``."""

    def __init__(self, message: str, sources: list[dict[str, Any]]) -> None:
        super().__init__(message, "fuzz/source_not_clean")
        self.sources = sources


def _not_clean(holder: Sources, refused: list[tuple[str, list[Record]]]) -> NotClean:
    """Why the sources the import refused cannot be fuzzed (``unclean``): one line naming the
    first and counting the others."""
    told = [unclean(holder.arbiter, name, records) for name, records in refused]
    first, others = told[0], len(told) - 1
    also = (
        f" (nor {others} other source{'' if others == 1 else 's'}: --json names "
        f"{'it' if others == 1 else 'them'})"
        if others
        else ""
    )
    line = refusal(
        lambda most: f"cannot fuzz {path_end(first.name, most)}{also}: ",
        first,
        "a source must audit clean under the rules installed",
    )
    return NotClean(line, [t.builtins() for t in told])


class Unclean(msgspec.Struct):
    """Why a log does not audit clean: its name, what is known of it (``why``), its audit's
    first finding and how many findings the audit made."""

    name: str
    why: str
    first: Finding | None
    findings: int

    def builtins(self) -> dict[str, Any]:
        return {
            "source": self.name,
            "why": self.why,
            "finding": self.first.line() if self.first else None,
            "findings": self.findings if self.first else None,
        }


def unclean(arbiter: Arbiter, name: str, records: list[Record]) -> Unclean:
    """What the audit finds wrong with a log: a ruleset this warlog does not have, a version of
    its rules it does not play, a log ending inside a batch, its chain or sequence broken (the
    log altered or damaged: a dropped event re-derives differently too, but the chain says
    why), or the rules installed re-deriving it differently (a change of the rules since it was
    recorded, or the log altered: only its chain could tell)."""
    if not records:
        return Unclean(name, "this log holds no event to audit", None, 0)
    ruleset = _ruleset_of(records)
    if ruleset is not None and ruleset not in rulesets.names():
        return Unclean(
            name,
            f"this log is a game of {quoted(ruleset)}, a ruleset this warlog does not have "
            f"(it has {listed(rulesets.names())})",
            None,
            0,
        )
    findings = audit_records(records, arbiter.rulesets).findings
    if not findings:
        return Unclean(name, "this log could not be read as a game", None, 0)
    damaged = [f for f in findings if f.check in DAMAGE]
    first = damaged[0] if damaged else findings[0]
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
    return Unclean(name, why, first, len(findings))


#: the audit's checks whose findings say a log was altered or damaged, whatever the rules say
#: of it (an event dropped: the rules re-derive the batch it stood in differently, before the
#: chain finds the gap)
DAMAGE = ("chain", "sequence")


def refusal(lead: Callable[[int], str], told: Unclean, closing: str) -> str:
    """One line at most ``WarlogError.MAX_LENGTH`` long: ``lead`` (given the most characters
    a name in it may take), why, the audit's first finding, how many more it found and the
    ``warlog audit`` that lists them, and ``closing``. Where it would be longer, the name is
    left out of the ``warlog audit`` to run (the lead names the log), then cut from its start
    (to ``NAME_AT_LEAST``, its file name kept whole, ``path_end``), then the finding spares what it can
    (``_finding_within``: its general words, or the two values it quotes, never the fields
    that differ) and only then is cut at its end; never the count or the closing."""
    more = told.findings - 1

    def line(most: int, finding: str, named: bool) -> str:
        audit = f"`warlog audit {path_end(told.name, most)}`" if named else "`warlog audit` of it"
        tail = f" (and {more} more; {audit} lists them)" if more > 0 else ""
        quoted_finding = f": {finding}" if finding else ""
        return f"{lead(most)}{told.why}{quoted_finding}{tail}; {closing}"

    def over(most: int, finding: str, named: bool = False) -> int:
        return len(line(most, finding, named)) - WarlogError.MAX_LENGTH

    most = len(told.name)  # the lead's name is no longer (the log's, or its pair's .json)
    first = told.first
    finding = first.line() if first else ""
    if over(most, finding, named=True) <= 0:
        return line(most, finding, named=True)
    for _ in range(3):  # the lead's name may be a little shorter than the log's
        if over(most, finding) <= 0 or most <= NAME_AT_LEAST:
            break
        most = max(NAME_AT_LEAST, most - over(most, finding))
    if first is not None and over(most, finding) > 0:
        finding = _finding_within(first, len(finding) - over(most, finding))
    return line(most, finding, named=False)


#: the fewest characters of a source's name a refusal keeps, cut from its start (its file
#: name kept whole)
NAME_AT_LEAST = 40
#: the fewest characters of a finding's general words a refusal keeps before its detail
WORDS_AT_LEAST = 16


def path_end(path: str, most: int) -> str:
    """``path`` at most ``most`` characters long, cut from its start (``…``), its file name
    kept whole however long."""
    if len(path) <= most:
        return path
    keep = max(most - 1, len(path.rsplit("/", 1)[-1]))
    return "…" + path[len(path) - keep :]


def middle(text: str, most: int) -> str:
    """``text`` at most ``most`` characters long, its middle cut out (``…``)."""
    if len(text) <= most:
        return text
    end = (most - 1) * 2 // 3
    return text[: most - 1 - end] + "…" + text[len(text) - end :]


def _finding_within(finding: Finding, most: int) -> str:
    """``finding``'s line in at most ``most`` characters, as far as it can spare. Where it
    names the fields that differ, those are its point: its general words are cut (``…``),
    the fields kept. Where it quotes what was expected and what was found instead (two
    hashes, say), its words are its point: the two values are cut in their middle, or left
    out where even that is too long. Then the line is cut at its end where it is still too
    long."""
    line = finding.line()
    if len(line) <= most:
        return line
    head = f"seq {finding.seq} [{finding.check}]: "
    if finding.differences:
        words = finding.message
        detail = line[len(head) + len(words) :]
        keep = max(WORDS_AT_LEAST, most - len(head) - len(detail) - 1)
        line = head + words[:keep] + "…" + detail
    elif finding.expected is not None or finding.found is not None:
        expected, found = finding.expected or "", finding.found or ""
        room = len(expected) + len(found) - (len(line) - most)  # for the two values
        shorter = min(len(expected), len(found))
        keep = room - shorter if shorter <= room // 2 else room // 2  # the longer one's share
        if keep >= VALUE_AT_LEAST:
            line = msgspec.structs.replace(
                finding, expected=middle(expected, keep), found=middle(found, keep)
            ).line()
        else:  # no room for the two values: the words without them
            line = msgspec.structs.replace(finding, expected=None, found=None).line()
    if len(line) > most:
        line = line[: max(most, len(head)) - 1] + "…"
    return line


#: the fewest characters of an expected or found value a refusal keeps, cut in the middle
VALUE_AT_LEAST = 16


def empty() -> Sources:
    """No source yet, in a fresh memory arbiter."""
    store, vault = MemoryStore(), MemoryVault()
    return Sources(Arbiter(store, rulesets.get, vault=vault), store, vault, [])


def add(holder: Sources, name: str, records: list[Record]) -> Source:
    """Import ``records`` into ``holder`` (audited in full) as the source ``name``, fold it once
    and keep a snapshot at each of its fork points. IntegrityError for a log the audit
    refuses."""
    return _load(holder.arbiter, name, records)


def _load(holder: Arbiter, name: str, records: list[Record]) -> Source:
    created = json.loads(records[0].data) if records and records[0].type == "game_created" else {}
    wanted = str(created.get("game") or "source")
    game, n = wanted, 1
    while _exists(holder, game):
        n += 1
        game = check_game_id(f"{wanted[:56]}-{n}")
    game = holder.import_records(records, game, fold_only=True)
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
