"""Audit: prove a log was not edited, that every consequence follows from its commands and dice,
that the dice were fair and the seals honest once the seed is revealed — and say exactly which
of these were checked.

One streaming pass; findings are collected rather than stopped at the first:

1. **chain and sequence**, always over the whole log: seq 1, 2, 3 … without gaps, each ``prev``
   the hash before it, each ``hash`` recomputed over the row's chained ``data`` (opened seals
   closed again), each ``at`` a well-formed time no earlier than the one before;
2. **rules** from ``from_seq``: each recorded command (and the events that open the game) is
   decided again on the state folded from the log — never from a snapshot — with its recorded
   dice; any consequence that differs, and any value sealed where the rules show it or shown
   where they hide it, is a finding. This needs the clear values: an export opened after the
   reveal, or the arbiter's key file; a sealed value nobody opened stops the re-derivation, and
   the report says from where;
3. **dice**: once a seed is revealed (and opens its commitment), every roll made under it is
   derived again; rolls under a seed never revealed are reported *not verified*;
4. **seals**: every opened seal must hash to its chained value; once its seed is revealed, its
   salt must be the one the seed derives. A seal that does not open is a finding.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

import msgspec

from warlog.arbiter.fold import Fold, Folded
from warlog.arbiter.ids import GAME_ID
from warlog.arbiter.initial import scenario_of
from warlog.arbiter.meta import GameMeta, played_under
from warlog.arbiter.openings import read_opened
from warlog.arbiter.sealing import (
    Opened,
    event_secrets,
    has_seals,
    recorded_command,
    sealing_version,
)
from warlog.domain.core.dice import (
    DiceSpec,
    ManualDice,
    RecordedDice,
    commitment_of,
    derive_faces,
)
from warlog.domain.core.errors import InputError, WarlogError
from warlog.domain.core.events import (
    BATCH_STARTS,
    CORE_TAGS,
    CommandIssued,
    DiceRevealed,
    DiceRolled,
    Event,
    GameCreated,
    GameForked,
)
from warlog.domain.core.ruleset import AnyRuleset, Command
from warlog.domain.core.seal import (
    Secret,
    cleared,
    compact,
    get_path,
    opening_problem,
    salt_for,
    seals_in,
    stripped,
)
from warlog.domain.core.summary import listed, plural
from warlog.eventstore.chain import GENESIS, link
from warlog.eventstore.codec import Codec
from warlog.eventstore.records import Record
from warlog.eventstore.vault import Vault

#: the contract's ``at``: UTC ISO-8601 with milliseconds, ending in ``Z``
AT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


class Finding(msgspec.Struct, frozen=True, omit_defaults=True):
    """One thing wrong with a log, located by seq."""

    seq: int
    #: "chain" | "sequence" | "decode" | "rules" | "dice" | "seal" | "version" | "snapshot"
    check: str
    message: str
    expected: str | None = None
    found: str | None = None

    def line(self) -> str:
        out = f"seq {self.seq} [{self.check}]: {self.message}"
        if self.expected is not None or self.found is not None:
            out += f" (expected: {self.expected}; found: {self.found})"
        return out


class Proved(msgspec.Struct):
    """What the audit checked, besides its findings (so that "clean" covers only this)."""

    events: int = 0
    #: batches whose consequences were decided again and compared
    batches_rederived: int = 0
    #: where re-derivation stopped (0: it ran to the end) and why
    rules_stopped_at: int = 0
    rules_stopped_why: str = ""
    #: rolls (from ``from_seq`` on) derived again from a revealed seed, rolls under a seed never
    #: revealed, rolls whose faces are not the seed's (each a finding), and a referee's typed
    #: rolls (manual dice: no seed derives them, so nothing but the rules' use of them is checked)
    dice_verified: int = 0
    dice_unverified: int = 0
    dice_false: int = 0
    dice_typed: int = 0
    #: rolls whose faces stay sealed (read without their openings): not verified either
    dice_sealed: int = 0
    #: sealed values: opened and found to hash to their seal; salts checked against a
    #: revealed seed; seals nobody opened
    seals_opened: int = 0
    salts_verified: int = 0
    seals_closed: int = 0
    #: the arbiter's own game: its stored snapshots (what state, legal and play start from)
    #: compared with the state folded from the log at their seq
    snapshots_checked: int = 0

    def unchecked(self) -> list[str]:
        """What the audit could not check over the range asked for, one short phrase each:
        empty when the rules were re-derived to the end, every roll derived again from a
        revealed seed (or typed by a referee, which no seed derives), no value left sealed and
        every opened value's salt checked against a revealed seed. Only then is a log without
        findings clean."""
        out = []
        if self.rules_stopped_at:
            out.append(f"rules from seq {self.rules_stopped_at}")
        if self.dice_unverified or self.dice_sealed:
            rolls = self.dice_unverified + self.dice_sealed
            out.append(f"dice: {rolls} roll{'' if rolls == 1 else 's'}")
        if self.seals_closed:
            out.append(f"sealed values: {self.seals_closed} left sealed")
        if self.seals_opened > self.salts_verified:
            out.append(f"salts: {self.seals_opened - self.salts_verified} not checked")
        return out


def _short(type_: str, data: str, limit: int = 240) -> str:
    text = f"{type_} {data}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: why re-derivation stops at a record the arbiter's key file does not open
KEY_FILE_SHUT = "the key file does not open its sealed values (findings above)"


def _seals_of(data: str) -> int | None:
    """How many seals the chained ``data`` holds; None when it is not JSON."""
    try:
        return sum(1 for _ in seals_in(msgspec.json.decode(data)))
    except msgspec.DecodeError:
        return None


class _Row(msgspec.Struct):
    """A record as the audit reads it: its chained data (the hash's) and its clear data (the
    rules'), None while a seal stays closed."""

    record: Record
    chained: str
    clear: str | None
    event: Event | None = None
    #: the salts of the seals opened in this record, for the reveal: (path, salt)
    salts: list[tuple[str, str]] = []
    #: the paths of its seals, when they are known (None: found in ``chained`` when needed)
    sealed: list[str] | None = None
    #: what its salts were derived from, when the reader says (``Opened.derived``)
    derived: tuple[bytes, str, int] | None = None
    #: the player the key file gives each sealed path to (the arbiter's own audit), checked
    #: against the rules' owners when the batch is derived again
    owners: dict[str, str | None] | None = None
    #: why its seals stay closed when the key file does not open them (the arbiter's audit)
    closed_why: str = ""


class Auditor:
    """Streams a log once, checking chain, rules, dice and seals as it goes."""

    def __init__(
        self,
        rulesets: Callable[[str], AnyRuleset],
        from_seq: int = 1,
        *,
        rules: bool = True,
        opener: Vault | None = None,
    ) -> None:
        self._rulesets = rulesets
        self.from_seq = from_seq
        self.findings: list[Finding] = []
        self.proved = Proved()
        self._opener = opener
        self._expected_seq = 1
        self._prev = GENESIS
        self._last_at: str | None = None  # the last well-formed 'at' (none before the first)
        self._batch: list[_Row] = []
        self._ruleset: AnyRuleset | None = None
        #: the version the game's seals follow (``Hidden.since``), once its ruleset is known
        self._sealing_version: int | None = None
        self._codec: Codec | None = None
        self._folding: Fold | None = None  # once the first event names the ruleset
        self._derive = rules  # turned off when the rules can no longer follow the log
        if not rules:
            self.proved.rules_stopped_at, self.proved.rules_stopped_why = 1, "not asked for"
        # under each dice spec (keyed by its commitment): rolls and salts, for the reveal
        self._rolls: dict[str, list[tuple[int, int, int, list[int]]]] = {}
        self._salts: dict[str, list[tuple[int, int, str, str, tuple[bytes, str, int] | None]]] = {}
        self._specs: dict[str, DiceSpec] = {}
        self._reveals: dict[str, tuple[int, bytes]] = {}
        #: the commitment in force where re-derivation stopped on a value left sealed
        self._stopped_under: str | None = None

    @property
    def events(self) -> int:
        return self.proved.events

    def find(
        self,
        seq: int,
        check: str,
        message: str,
        expected: str | None = None,
        found: str | None = None,
    ) -> None:
        self.findings.append(Finding(seq, check, message, expected, found))

    def _stop_rules(self, seq: int, why: str) -> None:
        if self._derive:
            self._derive = False
            self.proved.rules_stopped_at, self.proved.rules_stopped_why = seq, why

    # ------------------------------------------------------------------ pass

    def feed(self, records: Iterable[Record | Opened]) -> list[Finding]:
        """Audit a whole log: ``take`` every record, then ``finish``; the findings."""
        self.take(records)
        return self.finish()

    def take(self, records: Iterable[Record | Opened]) -> None:
        """Check ``records``, the next ones of the log in seq order, ending at a batch end
        (a log fed in parts: each part's last batch is closed and checked): as a log file holds
        them (opened seals in their ``data``), or as the arbiter's vault opens them
        (``Opened``)."""
        for item in records:
            row = self._read_opened(item) if isinstance(item, Opened) else self._read(item)
            record = row.record
            self._chain(row)
            row.event = self._decode(row)
            if record.type in BATCH_STARTS or not self._batch:
                self._close_batch()
            self._batch.append(row)
            self.proved.events += 1
        self._close_batch()

    def finish(self) -> list[Finding]:
        """The checks that need the whole log (every roll and salt against the seeds revealed
        in it); the findings. Call it once, after the last ``take``."""
        self._check_reveals()
        if self.proved.events == 0:
            self.find(0, "sequence", "the log is empty")
        return self.findings

    @classmethod
    def resume(
        cls,
        rulesets: Callable[[str], AnyRuleset],
        ruleset: AnyRuleset,
        codec: Codec,
        folded: Folded,
        at: str,
        *,
        opener: Vault | None = None,
    ) -> Auditor:
        """An Auditor that goes on after event ``folded.seq`` of a log, whose hash, meta and state
        ``folded`` holds (a fold of that very log, not a snapshot's) and whose time was ``at``:
        the records ``take`` is given next are checked as ``feed`` checks a whole log (chain from
        ``folded.hash``, every batch re-derived, rolls and salts under the seeds revealed after
        it). What came before is not checked again."""
        auditor = cls(rulesets, folded.seq + 1, opener=opener)
        auditor._expected_seq = folded.seq + 1
        auditor._prev, auditor._last_at = folded.hash, at
        auditor._ruleset, auditor._codec = ruleset, codec
        auditor._sealing_version = sealing_version(ruleset)  # the version's sealed fields
        auditor._folding = Fold(ruleset, folded)
        auditor._specs[folded.meta.dice.commitment or ""] = folded.meta.dice
        return auditor

    @property
    def rules(self) -> str:
        """The rules the log was re-derived under, ``"NAME version V"`` ("" before the ruleset
        is known)."""
        ruleset = self._ruleset
        return "" if ruleset is None else f"{ruleset.name} version {ruleset.version}"

    @property
    def state(self) -> Any:
        """The ruleset's state folded from the records checked so far (None before the first
        or once the rules could not follow the log)."""
        return self._state if self._derive else None

    def _read(self, record: Record) -> _Row:
        """The chained and clear forms of a record; opened seals are checked here."""
        if not has_seals(record.data):
            return _Row(record, record.data, record.data, sealed=[])
        try:
            data = json.loads(record.data)
            chained_obj, openings = stripped(data)
        except (ValueError, TypeError):
            return _Row(record, record.data, None)  # not JSON: the decode check reports it
        chained = compact(chained_obj)
        sealed = [path for path, _ in seals_in(chained_obj)]
        values: dict[str, Any] = {}
        salts: list[tuple[str, str]] = []
        for path in sealed:
            opening = openings.get(path)
            if opening is None:
                continue
            value, salt = opening
            seal = {"sealed": _seal_at(chained_obj, path), "value": value, "salt": salt}
            problem = opening_problem(seal)
            if problem is not None:
                self.find(record.seq, "seal", f"the seal at {path} does not open: {problem}")
                continue
            values[path] = value
            salts.append((path, str(salt)))
        self.proved.seals_opened += len(values)
        self.proved.seals_closed += len(sealed) - len(values)
        clear = compact(cleared(chained_obj, values)) if len(values) == len(sealed) else None
        return _Row(record, chained, clear, salts=salts, sealed=sealed)

    def _read_opened(self, opened: Opened) -> _Row:
        """``_read`` of a record as stored, with what the vault opens of it: each opening is
        checked against its seal, the clear data made from the chained data and the values."""
        record = opened.record
        if not opened.salts and opened.owners is None and not opened.missing:
            return _Row(record, record.data, record.data, sealed=[])
        read = None if opened.missing else read_opened(record.data, opened.clear, opened.salts)
        if read is None:
            seals = _seals_of(record.data)
            if seals is None:
                return _Row(record, record.data, None)  # not JSON: the decode check reports it
            problem = opened.missing or "the key file's clear form of it is not JSON"
            self.find(record.seq, "seal", f"{problem}: {plural(seals, 'sealed value')} not opened")
            self.proved.seals_closed += seals
            return _Row(record, record.data, None, closed_why=KEY_FILE_SHUT)
        for problem in read.problems:
            self.find(record.seq, "seal", problem)
        unopened = [path for path in read.sealed if path not in opened.salts]
        for path in unopened:
            self.find(record.seq, "seal", f"the key file opens no value for the seal at {path}")
        self.proved.seals_opened += len(read.salts)
        self.proved.seals_closed += len(read.sealed) - len(read.salts)
        return _Row(
            record,
            read.chained,
            read.clear,
            salts=read.salts,
            sealed=read.sealed,
            derived=opened.derived,
            owners=opened.owners,
            closed_why=KEY_FILE_SHUT if unopened else "",
        )

    def _keep_salts(self, row: _Row) -> None:
        """Keep a row's opened salts for the reveal, under the seed in force."""
        meta = self._meta
        if meta is None or not row.salts:
            return
        kept = self._salts.setdefault(meta.dice.commitment or "", [])
        seq, derived = row.record.seq, row.derived
        dseq = meta.derivation_seq(seq)
        kept.extend((seq, dseq, path, salt, derived) for path, salt in row.salts)

    def _chain(self, row: _Row) -> None:
        record = row.record
        seq = record.seq
        if seq != self._expected_seq:
            if seq > self._expected_seq:
                gap = (
                    f"{self._expected_seq}"
                    if seq == self._expected_seq + 1
                    else f"{self._expected_seq}..{seq - 1}"
                )
                self.find(seq, "sequence", f"seq {gap} missing: the log jumps to {seq}")
            else:
                self.find(
                    seq,
                    "sequence",
                    f"seq {seq} is out of order or repeated after seq {self._expected_seq - 1}",
                )
        if record.prev != self._prev:
            self.find(
                seq,
                "chain",
                "prev is not the hash of the event before it (an earlier event was altered, dropped, "
                "inserted or reordered)",
                self._prev,
                record.prev,
            )
        if link(record.prev, seq, record.type, record.at, row.chained) != record.hash:
            self.find(
                seq, "chain", "hash does not match the event's content (the event was altered)"
            )
        if record.at == self._last_at:
            pass  # a batch shares one time: checked at its first event
        elif not _well_formed(record.at):
            self.find(
                seq, "sequence", f"'at' {record.at[:40]!r} is not a UTC time as warlog writes it"
            )
        elif self._last_at is not None and record.at < self._last_at:
            self.find(seq, "sequence", f"'at' goes backwards: {record.at} after {self._last_at}")
        else:
            self._last_at = record.at
        self._prev = record.hash
        self._expected_seq = seq + 1

    def _decode(self, row: _Row) -> Event | None:
        record = row.record
        if self._codec is None:
            if record.type != "game_created":
                self.find(
                    record.seq,
                    "sequence",
                    f"the log must open with game_created, not {record.type}",
                )
                self._stop_rules(record.seq, "the log does not open with game_created")
                return None
            try:
                created = msgspec.json.decode(record.data)
                if not isinstance(created, dict):
                    raise InputError(
                        f"its data is a JSON {type(created).__name__}, not an object",
                        "audit/decode",
                    )
                ruleset_name: Any = created.get("ruleset")  # rulesets.get names what is not text
                self._ruleset = played_under(self._rulesets(ruleset_name), record.data)
                self._sealing_version = sealing_version(self._ruleset)
                self._folding = Fold(self._ruleset)
            except (WarlogError, msgspec.DecodeError, AttributeError) as exc:
                self.find(record.seq, "decode", f"cannot tell the ruleset: {exc}")
                self._stop_rules(record.seq, "the ruleset is unknown")
                return None
            self._codec = Codec.for_ruleset(self._ruleset)
        clear = row.clear
        if clear is None and self._opener is not None:
            opening = self._opener.opening(record.hash)
            clear = row.clear = None if opening is None else opening.clear
        if clear is None:
            return None
        try:
            event = self._codec.decode(record.type, clear)
        except WarlogError as exc:
            self.find(record.seq, "decode", str(exc))
            return None
        canonical = self._codec.encode(event)[1]
        if canonical != clear:
            self.find(
                record.seq,
                "decode",
                f"the data is not the canonical form of a {record.type} event (fields added, dropped or reordered)",
                _short(record.type, canonical),
                _short(record.type, clear),
            )
            return None
        return event

    # ------------------------------------------------------------------ batches

    def _close_batch(self) -> None:
        batch, self._batch = self._batch, []
        if not batch:
            return
        head = batch[0]
        if head.record.type not in BATCH_STARTS:
            self.find(
                head.record.seq,
                "sequence",
                f"{head.record.type} does not belong to any command's batch",
            )
            self._stop_rules(head.record.seq, "a batch without its first event")
            return
        if any(row.event is None for row in batch):
            closed = next(row for row in batch if row.clear is None or row.event is None)
            if closed.closed_why:
                why = closed.closed_why
            elif closed.clear is None:
                why = (
                    "its sealed values are not opened here (the seed is not revealed, or the log "
                    "was read without its key file or opened export)"
                )
                opening = batch[0].event
                meta = self._meta
                if self._derive and isinstance(opening, GameCreated):
                    self._stopped_under = opening.dice.commitment or ""
                elif self._derive and meta is not None:
                    self._stopped_under = meta.dice.commitment or ""
            else:
                why = "an event could not be read"
            self._stop_rules(closed.record.seq, why)
            self._lineage_only(batch)
            return
        events: list[Event] = [row.event for row in batch if row.event is not None]
        first = events[0]
        check = self._derive and head.record.seq >= self.from_seq
        if isinstance(first, GameCreated):
            self._created(head.record, first)
            if check and self._derive:  # not under a version this warlog does not play
                self._rederive_opening(batch, first)
        elif isinstance(first, CommandIssued):
            if check:
                self._rederive(batch, first)
        elif isinstance(first, DiceRevealed):
            self._revealed(head.record, first)
        elif isinstance(first, GameForked):
            self._forked(head.record, first)
        if len(batch) > 1 and not isinstance(first, CommandIssued | GameCreated):
            self.find(
                batch[1].record.seq,
                "sequence",
                f"{batch[1].record.type} follows {head.record.type}, which has no consequences",
            )
        if self._derive:
            self._fold(batch, events)
        else:
            self._lineage_only(batch)

    def _lineage_only(self, batch: list[_Row]) -> None:
        """Follow the dice specs and reveals when the rules no longer can (the lineage events
        hold no seals and always decode); keep each row's opened salts for the reveal, once
        its own event is followed (``game_created``'s salts are kept under its commitment)."""
        if self._codec is None:
            return  # the log did not open with a readable game_created: nothing to follow
        opening = batch[0].record.type == "game_created"
        for row in batch:
            self._follow_lineage(row, opening)
            self._keep_salts(row)

    def _follow_lineage(self, row: _Row, opening: bool) -> None:
        record = row.record
        if record.type not in CORE_TAGS or record.type == "command_issued":
            return
        event = row.event
        if event is None and self._codec is not None:
            try:
                event = self._codec.decode(record.type, row.chained)
            except WarlogError:
                if record.type == "dice_rolled" and record.seq >= self.from_seq:
                    if self._typed(opening):
                        self.proved.dice_typed += 1  # a referee's dice, sealed
                    else:
                        self.proved.dice_sealed += 1
                return
        if event is None:
            return
        if isinstance(event, DiceRolled):
            self._roll(record.seq, event, in_opening=opening)
            return
        if isinstance(event, DiceRevealed):
            self._revealed(record, event)
        elif isinstance(event, GameForked):
            self._forked(record, event)
        if self._folding is not None:
            from warlog.arbiter.meta import evolve_meta

            self._folding.meta = evolve_meta(self._folding.meta, record.seq, event)
            self._track_spec(event)

    @property
    def _meta(self) -> GameMeta | None:
        return None if self._folding is None else self._folding.meta

    @property
    def _state(self) -> Any:
        return None if self._folding is None else self._folding.state

    def _created(self, record: Record, event: GameCreated) -> None:
        if record.seq != 1:
            self.find(record.seq, "sequence", "game_created after the first event")
        ruleset = self._ruleset
        assert ruleset is not None  # known from this very event
        if event.version != ruleset.version:
            self.find(
                record.seq,
                "version",
                f"played under {ruleset.name} version {event.version}, which this warlog does "
                f"not play (it plays {listed((ruleset.version, *ruleset.kept_versions))}), "
                "so rules re-derivation was not done",
            )
            self._stop_rules(record.seq, f"played under version {event.version}")
        if not GAME_ID.match(event.game):
            self.find(
                record.seq, "decode", f"{event.game!r} is not a game id the arbiter would write"
            )
        if event.dice.stream != event.game:
            self.find(
                record.seq,
                "dice",
                "the dice stream is not the game's id",
                event.game,
                event.dice.stream,
            )
        try:
            scenario = scenario_of(ruleset, record.data, event)
            recorded = ruleset.recorded_scenario(scenario)  # its version's form (AE-61)
            played = event.version == ruleset.version  # else that form is not known here
            if played and msgspec.json.encode(recorded) != msgspec.json.encode(event.scenario):
                self.find(
                    record.seq, "decode", "the recorded scenario is not in its canonical form"
                )
            elif list(ruleset.players(scenario)) != list(event.players):
                self.find(
                    record.seq,
                    "rules",
                    "the players are not the scenario's",
                    str(ruleset.players(scenario)),
                    str(event.players),
                )
        except (msgspec.ValidationError, WarlogError) as exc:
            self.find(record.seq, "decode", f"the recorded scenario is invalid: {exc}")
            self._stop_rules(record.seq, "the recorded scenario is invalid")
        if not event.dice.commitment:
            self.find(record.seq, "dice", "a game without a commitment to its key")

    def _forked(self, record: Record, event: GameForked) -> None:
        if event.at != record.seq - 1:
            self.find(
                record.seq,
                "sequence",
                f"game_forked says it cuts at {event.at}",
                str(record.seq - 1),
                str(event.at),
            )
        if not GAME_ID.match(event.game) or not GAME_ID.match(event.parent):
            self.find(
                record.seq, "decode", "game_forked names a game id the arbiter would not write"
            )
        meta = self._meta
        if event.dice is None:
            if event.seed is None:
                self.find(
                    record.seq,
                    "dice",
                    "a fork keeps dice whose seed it does not show: it must have been revealed "
                    "(its rolls and seals were computable by whoever made it)",
                )
            elif meta is not None:
                try:
                    seed = bytes.fromhex(event.seed)
                except ValueError:
                    seed = b""
                if commitment_of(seed) != meta.dice.commitment:
                    self.find(
                        record.seq,
                        "dice",
                        "the seed the fork keeps does not open the commitment in force",
                        meta.dice.commitment,
                        commitment_of(seed),
                    )
                else:
                    self._reveals.setdefault(meta.dice.commitment or "", (record.seq, seed))
        elif event.seed is not None:
            self.find(record.seq, "dice", "a fork with new dice shows a seed")
        else:
            if not event.dice.commitment:
                self.find(record.seq, "dice", "the fork's new dice carry no commitment")
            if event.dice.stream != event.game:
                self.find(
                    record.seq,
                    "dice",
                    "the fork's dice stream is not its id",
                    event.game,
                    event.dice.stream,
                )

    def _revealed(self, record: Record, event: DiceRevealed) -> None:
        meta = self._meta
        if meta is None:
            return
        if meta.revealed:
            self.find(
                record.seq, "dice", f"the seed was already revealed at seq {meta.revealed_at}"
            )
            return
        try:
            seed = bytes.fromhex(event.seed)
        except ValueError:
            self.find(record.seq, "dice", "the revealed seed is not hex")
            return
        if commitment_of(seed) != meta.dice.commitment:
            self.find(
                record.seq,
                "dice",
                "the revealed seed does not open the commitment in force",
                meta.dice.commitment,
                commitment_of(seed),
            )
            return
        self._reveals[meta.dice.commitment or ""] = (record.seq, seed)

    def _command_of(self, seq: int, issued: CommandIssued, clear: str) -> Command | None:
        """The recorded command, typed (``clear``: its row's clear data, in canonical form)."""
        ruleset, meta = self._ruleset, self._meta
        assert ruleset is not None and meta is not None
        raw = bytes(_ISSUED.decode(clear).command)  # msgspec's encoding of issued.command
        command: Command
        try:
            command = _command_decoder(ruleset.command_type).decode(raw)
        except msgspec.DecodeError:
            try:  # the message names the bad field as it always did
                command = msgspec.convert(issued.command, ruleset.command_type)
            except msgspec.ValidationError as exc:
                self.find(seq, "rules", f"the recorded command is not a valid command: {exc}")
                return None
        # a manual-dice command's empty `dice` are recorded (sealed) since they leak nothing;
        # a log written before records none: both are the arbiter's form
        manual = meta.dice.mode == "manual"
        if msgspec.json.encode(command) != raw and (
            not manual or msgspec.json.encode(recorded_command(command, manual)) != raw
        ):
            self.find(
                seq,
                "rules",
                "the recorded command is not in the form the arbiter records",
                str(recorded_command(command, manual)),
                str(issued.command),
            )
            return None
        if command.player != issued.player or issued.player not in meta.players:
            self.find(
                seq, "rules", f"the command is issued by {issued.player!r}, who may not issue it"
            )
            return None
        return command

    def _rederive(self, batch: list[_Row], issued: CommandIssued) -> None:
        seq = batch[0].record.seq
        ruleset, meta, state = self._ruleset, self._meta, self._state
        assert self._codec is not None and meta is not None and ruleset is not None
        command = self._command_of(seq, issued, batch[0].clear or "")
        if command is None:
            return
        if meta.revealed:
            self.find(
                seq, "rules", f"a command after the seed was revealed at seq {meta.revealed_at}"
            )
            return
        recorded = [row.event for row in batch[1:]]
        rolls = [(e.sides, list(e.faces)) for e in recorded if isinstance(e, DiceRolled)]
        dice: Any
        if meta.dice.mode == "manual":
            dice = ManualDice(list(command.dice))
        else:
            if command.dice:
                self.find(seq, "rules", "an auto-dice game's command carries its own dice faces")
            dice = RecordedDice(rolls)
        try:
            derived = ruleset.decide(state, command, dice)
            if isinstance(dice, ManualDice):
                dice.check_all_used()
        except WarlogError as exc:
            self.find(seq, "rules", f"the rules reject this command: {exc}")
            return
        except Exception as exc:  # a ruleset failure on a forged log is a finding, not a crash
            self.find(seq, "rules", f"re-deciding the command failed: {type(exc).__name__}: {exc}")
            return
        if isinstance(dice, RecordedDice) and dice.mismatch:
            self.find(
                _roll_seq(batch, dice.mismatch_roll),
                "rules",
                f"the dice do not match the rules: {dice.mismatch}",
            )
        self._compare(
            batch,
            [CommandIssued(player=issued.player, command=issued.command), *derived],
            command,
            [],
        )

    def _rederive_opening(self, batch: list[_Row], created: GameCreated) -> None:
        ruleset = self._ruleset
        assert ruleset is not None and self._codec is not None
        try:
            scenario = scenario_of(ruleset, batch[0].record.data, created)
            rolls = [
                (row.event.sides, list(row.event.faces))
                for row in batch[1:]
                if isinstance(row.event, DiceRolled)
            ]
            dice = RecordedDice(rolls)
            derived = ruleset.begin(ruleset.initial_state(scenario), dice)
            setup = ruleset.hidden_setup(scenario)
        except WarlogError as exc:
            self.find(1, "rules", f"the rules cannot open this game: {exc}")
            return
        except Exception as exc:
            self.find(1, "rules", f"opening the game failed: {type(exc).__name__}: {exc}")
            return
        if dice.mismatch:
            self.find(
                _roll_seq(batch, dice.mismatch_roll),
                "rules",
                f"the dice do not match the rules: {dice.mismatch}",
            )
        self._compare(batch, [created, *derived], None, setup)

    def _compare(
        self,
        batch: list[_Row],
        derived: list[Event],
        command: Command | None,
        setup: list[Secret],
    ) -> None:
        """Compare the derived events with the batch: their clear data, and where the rules
        put seals with where the log has them."""
        assert self._codec is not None
        self.proved.batches_rederived += 1
        found = [(row.record.type, row.clear or "") for row in batch]
        expected = [self._codec.encode(e) for e in derived]
        if found != expected:  # the first event that differs is the finding
            for offset in range(max(len(found), len(expected))):
                want = expected[offset] if offset < len(expected) else None
                got = found[offset] if offset < len(found) else None
                if want != got:
                    self.find(
                        batch[0].record.seq + offset,
                        "rules",
                        "a consequence differs from what the rules derive from the command and "
                        "its dice",
                        _short(*want) if want else "no further event",
                        _short(*got) if got else "no further event",
                    )
                    return
        for row, event in zip(batch, derived, strict=True):
            secrets = event_secrets(event, command, setup, self._sealing_version)
            hidden = {path for path, _ in secrets}
            if row.owners is not None:
                self._check_owners(row, dict(secrets))
            if row.sealed is not None:
                sealed = set(row.sealed)
            elif has_seals(row.chained):
                sealed = {path for path, _ in seals_in(json.loads(row.chained))}
            else:
                sealed = set()
            if hidden == sealed:
                continue
            for path in sorted(hidden - sealed):
                self.find(
                    row.record.seq, "seal", f"{path} is in the clear; the rules keep it hidden"
                )
            for path in sorted(sealed - hidden):
                self.find(
                    row.record.seq, "seal", f"{path} is sealed; the rules show it to everyone"
                )

    def _check_owners(self, row: _Row, owners: dict[str, str | None]) -> None:
        """The key file gives each sealed value to the player the rules give it to: the one it
        is opened for (a wrong owner would show one player the other's secret)."""
        held = row.owners or {}
        for path in sorted(owners.keys() & held.keys()):
            if held[path] != owners[path]:
                self.find(
                    row.record.seq,
                    "seal",
                    f"the key file gives the value at {path} to {held[path] or 'nobody'}; the "
                    f"rules give it to {owners[path] or 'nobody'}",
                )
        for path in sorted(held.keys() - owners.keys()):
            self.find(
                row.record.seq, "seal", f"the key file names {path}, which the rules do not seal"
            )

    def _fold(self, batch: list[_Row], events: list[Event]) -> None:
        fold = self._folding
        assert fold is not None  # batches are folded only once the ruleset is known
        opening = isinstance(events[0], GameCreated)
        try:
            for row, event in zip(batch, events, strict=True):
                record = row.record
                fold.apply(record.seq, record.type, record.data, record.hash, event)
                self._keep_salts(row)
                if record.type in CORE_TAGS:
                    self._track_spec(event)
                    if isinstance(event, DiceRolled):
                        self._roll(record.seq, event, in_opening=opening)
        except Exception as exc:
            self.find(
                batch[0].record.seq,
                "rules",
                f"the recorded events cannot be applied: {type(exc).__name__}: {exc}",
            )
            self._stop_rules(batch[0].record.seq, "the recorded events cannot be applied")

    def _track_spec(self, event: Event) -> None:
        meta = self._meta
        if meta is not None and (
            isinstance(event, GameCreated) or (isinstance(event, GameForked) and event.dice)
        ):
            self._specs[meta.dice.commitment or ""] = meta.dice

    def _typed(self, in_opening: bool) -> bool:
        """Whether a roll now was typed by a referee: manual dice, outside the opening (whose
        rolls derive from the key in either mode)."""
        meta = self._meta
        return meta is not None and meta.dice.mode != "auto" and not in_opening

    def _roll(self, seq: int, event: DiceRolled, *, in_opening: bool) -> None:
        """Keep a roll for the reveal: auto rolls, and the opening's rolls in either mode (they
        derive from the key)."""
        meta = self._meta
        if meta is None:
            return
        if self._typed(in_opening):
            if seq >= self.from_seq:
                self.proved.dice_typed += 1
            return
        self._rolls.setdefault(meta.dice.commitment or "", []).append(
            (seq, meta.derivation_seq(seq), event.sides, list(event.faces))
        )

    def _check_reveals(self) -> None:
        revealed_later = self._reveals.get(self._stopped_under or "")
        if self._stopped_under is not None and revealed_later is not None:
            self.proved.rules_stopped_why = (
                "a value there is still sealed in this log, though the seed that sealed it is "
                f"revealed at seq {revealed_later[0]}: an export made with the arbiter's key file "
                "after the reveal opens every seal; this one is closed"
            )
        for commitment, rolls in self._rolls.items():
            revealed = self._reveals.get(commitment)
            spec = self._specs.get(commitment)
            for seq, dseq, sides, faces in rolls:
                if seq < self.from_seq:
                    continue
                if revealed is None or spec is None:
                    self.proved.dice_unverified += 1
                    continue
                try:
                    fair = derive_faces(
                        revealed[1], spec.stream, spec.salt, dseq, len(faces), sides
                    )
                except ValueError as exc:
                    self.proved.dice_false += 1
                    self.find(seq, "dice", f"the roll cannot be derived: {exc}")
                    continue
                if fair != faces:
                    self.proved.dice_false += 1
                    self.find(
                        seq,
                        "dice",
                        f"the faces are not the ones the seed revealed at seq {revealed[0]} gives",
                        str(fair),
                        str(faces),
                    )
                else:
                    self.proved.dice_verified += 1
        for commitment, salts in self._salts.items():
            revealed = self._reveals.get(commitment)
            spec = self._specs.get(commitment)
            if revealed is None or spec is None:
                continue
            # a salt the reader derived from the revealed seed, the stream and the seq the seed
            # derives it from is the one the seed derives (salt_for is a function of these and
            # the path): it is not derived a second time
            same = (revealed[1], spec.stream)
            for seq, dseq, path, salt, derived in salts:
                if derived != (*same, dseq) and salt_for(*same, dseq, path) != salt:
                    self.find(
                        seq,
                        "seal",
                        f"the salt of {path} is not the one the seed revealed at seq {revealed[0]} derives",
                    )
                else:
                    self.proved.salts_verified += 1

    @property
    def revealed(self) -> bool:
        """True when every roll kept for a reveal was derived again (and there was a reveal)."""
        proved = self.proved
        return bool(self._reveals) and proved.dice_unverified == proved.dice_sealed == 0


class _Issued(msgspec.Struct):
    """A ``command_issued`` row's data with its command left as it is written."""

    player: str
    command: msgspec.Raw


_ISSUED = msgspec.json.Decoder(_Issued)


@functools.cache
def _command_decoder(command_type: Any) -> msgspec.json.Decoder[Any]:
    """A decoder of a ruleset's commands (its tagged union), made once per union."""
    return msgspec.json.Decoder(command_type)


def _roll_seq(batch: list[_Row], index: int) -> int:
    """The seq of the batch's ``index``-th recorded roll (the batch's last seq when the rules
    roll more than it records)."""
    rolls = [row.record.seq for row in batch if isinstance(row.event, DiceRolled)]
    return rolls[index] if index < len(rolls) else batch[-1].record.seq


def _seal_at(data: Any, path: str) -> str:
    return str(get_path(data, path)["sealed"])


def _well_formed(at: str) -> bool:
    """``at`` is the contract's time: the pattern, and a date and time that exist (what
    ``datetime.strptime(at, "%Y-%m-%dT%H:%M:%S.%fZ")`` accepts, read without its parser)."""
    if not AT.match(at):
        return False
    if len(at) != _AT_LENGTH or not at.isascii():  # a trailing newline, other digits: the parser
        try:
            datetime.strptime(at, "%Y-%m-%dT%H:%M:%S.%fZ")
        except ValueError:
            return False
        return True
    try:
        datetime(
            int(at[:4]), int(at[5:7]), int(at[8:10]), int(at[11:13]), int(at[14:16]), int(at[17:19])
        )
    except ValueError:
        return False
    return True


#: the length of an ``at`` as warlog writes it
_AT_LENGTH = len("2026-01-01T00:00:00.000Z")


def audit_records(
    records: Iterable[Record | Opened],
    rulesets: Callable[[str], AnyRuleset],
    from_seq: int = 1,
    *,
    opener: Vault | None = None,
) -> Auditor:
    """Audit a log given as records in file or seq order (or as the arbiter's vault opens
    them: ``Opened``); the Auditor holds the findings and
    what it proved. ``opener``: the arbiter's vault, which opens the seals of its own games."""
    auditor = Auditor(rulesets, from_seq, opener=opener)
    auditor.feed(records)
    return auditor
