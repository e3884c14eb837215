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

The Auditor is the pass; each check is its own module: reading a row and opening its seals
(``audit_rows``), the chain (``audit_chain``), a game's creation and forks (``audit_lineage``),
re-deriving a batch (``audit_rederive``), the reveal's dice and salts (``audit_reveal``), and the
report (``audit_report``: ``Finding``, ``Proved``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from warlog.arbiter.audit_chain import Chain
from warlog.arbiter.audit_lineage import check_created, check_forked
from warlog.arbiter.audit_rederive import Rederivation
from warlog.arbiter.audit_report import (
    ENDS_INSIDE_BATCH,
    NO_FURTHER_EVENT,
    THE_END_OF_THE_LOG,
    Find,
    Finding,
    Proved,
)
from warlog.arbiter.audit_reveal import Reveal
from warlog.arbiter.audit_rows import Row, read_opened_row, read_row
from warlog.arbiter.fold import Fold, Folded
from warlog.arbiter.meta import GameMeta, evolve_meta, played_under
from warlog.arbiter.sealing import Opened
from warlog.domain.core.dice import NO_FURTHER_ROLL
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
from warlog.domain.core.ruleset import AnyRuleset
from warlog.eventstore.codec import Codec
from warlog.eventstore.records import Record

__all__ = ["Auditor", "Finding", "Proved", "audit_records"]

#: why the rules stop at a value left sealed, by where the log was read and whether the seed
#: that sealed it is revealed later in the log (``{seq}``: where)
UNOPENED_FILE = (
    "its sealed values are not opened in this file, and the seed that sealed them is not "
    "revealed in it: the referee's export opened with the key file (export --open), or the "
    "export made after the reveal, opens them"
)
UNOPENED_STORED = (
    "its sealed values are not opened here: the seed that sealed them is not revealed, and no "
    "key file holding its key was at hand"
)
REVEALED_FILE = (
    "a value there is still sealed in this file, though the seed that sealed it is revealed at "
    "seq {seq}: the export made with the arbiter's key file after the reveal opens every seal"
)
REVEALED_STORED = (
    "the seed that sealed the values there is revealed at seq {seq}, but the values are not in "
    "this database (only their digests are): its key file holds them, and so does the export "
    "made with it after the reveal"
)


class Auditor:
    """Streams a log once, checking chain, rules, dice and seals as it goes."""

    def __init__(
        self,
        rulesets: Callable[[str], AnyRuleset],
        from_seq: int = 1,
        *,
        rules: bool = True,
        unopened_why: str = "",
        stored: bool = False,
    ) -> None:
        """``unopened_why``: why sealed values stay closed, when the reader knows better than
        "not revealed, no key at hand" (the arbiter reading a log with a damaged lineage);
        ``stored``: the log is the arbiter's own database's, not a file (which says where the
        values left sealed are kept)."""
        self._rulesets = rulesets
        self.from_seq = from_seq
        self._unopened_why = unopened_why
        self._stored = stored
        self.findings: list[Finding] = []
        #: where every check reports what it finds (``find(seq, check, message, ...)``)
        self.find = Find(self.findings)
        self.proved = Proved()
        self._chain = Chain(self.find)
        self._batch: list[Row] = []
        self._ruleset: AnyRuleset | None = None
        self._codec: Codec | None = None
        #: decides each batch again, once the ruleset is known
        self._rederivation: Rederivation | None = None
        self._folding: Fold | None = None  # once the first event names the ruleset
        self._derive = rules  # turned off when the rules can no longer follow the log
        if not rules:
            self.proved.rules_stopped_at, self.proved.rules_stopped_why = 1, "not asked for"
        #: under each dice spec: rolls and salts, for the reveal, and the seeds revealed
        self._reveal = Reveal(from_seq, self.find, self.proved)
        #: the commitment in force where re-derivation stopped on a value left sealed
        self._stopped_under: str | None = None
        #: the seq of the last record taken
        self._last_seq = 0
        #: the seq of the last batch's first event (its command, or game_created)
        self._last_batch_at = 0

    @property
    def events(self) -> int:
        return self.proved.events

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
        find, proved, chain = self.find, self.proved, self._chain.check
        for item in records:
            if isinstance(item, Opened):
                row = read_opened_row(item, find, proved)
            else:
                row = read_row(item, find, proved)
            record = row.record
            self._last_seq = record.seq
            chain(row)
            row.event = self._decode(row)
            if record.type in BATCH_STARTS or not self._batch:
                self._close_batch()
            self._batch.append(row)
            proved.events += 1
        self._close_batch()

    def finish(self) -> list[Finding]:
        """The checks that need the whole log (every roll and salt against the seeds revealed
        in it); the findings, by seq and then by check (``audit_report.CHECKS``). Call it once,
        after the last ``take``."""
        self._reveal.check()
        revealed = self._reveal.seeds.get(self._stopped_under or "")
        if self._stopped_under is not None and revealed is not None:
            why = REVEALED_STORED if self._stored else REVEALED_FILE
            self.proved.rules_stopped_why = why.format(seq=revealed[0])
        if self.proved.events == 0:
            self.find(0, "sequence", "the log is empty")
        self._ends_inside_batch()
        # in the log's order (the reveal's findings come last, made once the seeds are known):
        # a cause before what it causes, a roll's before the consequence it changes
        self.findings.sort(key=Finding.key)
        return self.findings

    def _ends_inside_batch(self) -> None:
        """A batch the rules derive more events for than the log holds at its very end is said
        to be what is known of it: the log ends inside it (not that the rules changed or the
        log was altered, which a batch short in the middle of the log would show)."""
        after = self._last_seq + 1
        cut = False
        for i, finding in enumerate(self.findings):
            if (
                finding.seq == after
                and finding.check == "rules"
                and finding.found == NO_FURTHER_EVENT
            ):
                self.findings[i] = msgspec.structs.replace(
                    finding, message=ENDS_INSIDE_BATCH, found=THE_END_OF_THE_LOG
                )
                cut = True
        if cut:  # a roll of that last batch the log stops before is the same cut, not a 2nd fault
            self.findings = [
                f
                for f in self.findings
                if not (
                    f.check == "rules"
                    and f.seq >= self._last_batch_at
                    and f.message.endswith(NO_FURTHER_ROLL)
                )
            ]

    @classmethod
    def resume(
        cls,
        rulesets: Callable[[str], AnyRuleset],
        ruleset: AnyRuleset,
        codec: Codec,
        folded: Folded,
        at: str,
    ) -> Auditor:
        """An Auditor that goes on after event ``folded.seq`` of a log, whose hash, meta and state
        ``folded`` holds (a fold of that very log, not a snapshot's) and whose time was ``at``:
        the records ``take`` is given next are checked as ``feed`` checks a whole log (chain from
        ``folded.hash``, every batch re-derived, rolls and salts under the seeds revealed after
        it). What came before is not checked again."""
        auditor = cls(rulesets, folded.seq + 1)
        auditor._chain = Chain(auditor.find, folded.seq + 1, folded.hash, at)
        auditor._ruleset, auditor._codec = ruleset, codec
        auditor._rederivation = Rederivation(ruleset, codec, auditor.find, auditor.proved)
        auditor._folding = Fold(ruleset, folded)
        auditor._reveal.specs[folded.meta.dice.commitment or ""] = folded.meta.dice
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

    @property
    def revealed(self) -> bool:
        """True when every roll kept for a reveal was derived again (and there was a reveal)."""
        proved = self.proved
        unverified = proved.dice_unverified + proved.dice_sealed + proved.dice_unopened
        return bool(self._reveal.seeds) and unverified == 0

    @property
    def _meta(self) -> GameMeta | None:
        return None if self._folding is None else self._folding.meta

    @property
    def _state(self) -> Any:
        return None if self._folding is None else self._folding.state

    def _decode(self, row: Row) -> Event | None:
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
                self._folding = Fold(self._ruleset)
            except (WarlogError, msgspec.DecodeError, AttributeError) as exc:
                self.find(record.seq, "decode", f"cannot tell the ruleset: {exc}")
                self._stop_rules(record.seq, "the ruleset is unknown")
                return None
            self._codec = Codec.for_ruleset(self._ruleset)
            self._rederivation = Rederivation(self._ruleset, self._codec, self.find, self.proved)
        clear = row.clear
        if clear is None:
            return None
        try:
            event = self._codec.decode(record.type, clear)
        except WarlogError as exc:
            self.find(record.seq, "decode", str(exc))
            return None
        canonical = self._codec.encode(event)[1]
        if canonical != clear:
            self.find.differs(
                record.seq,
                "decode",
                f"the data is not the canonical form of a {record.type} event (fields added, dropped or reordered)",
                (record.type, canonical),
                (record.type, clear),
            )
            return None
        return event

    # ------------------------------------------------------------------ batches

    def _close_batch(self) -> None:
        batch, self._batch = self._batch, []
        if not batch:
            return
        head = batch[0]
        self._last_batch_at = head.record.seq
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
            left_sealed = not closed.closed_why and closed.clear is None
            if closed.closed_why:
                why = closed.closed_why
            elif left_sealed:
                why = self._unopened_why or (UNOPENED_STORED if self._stored else UNOPENED_FILE)
            else:
                why = "an event could not be read"
            stops_here = self._derive
            self._stop_rules(closed.record.seq, why)
            self._lineage_only(batch)
            # the seed in force there (after the batch: a game_created's own), whose reveal
            # later in the log changes why the value is still sealed (``finish``)
            meta = self._meta
            if stops_here and left_sealed and not self._unopened_why and meta is not None:
                self._stopped_under = meta.dice.commitment or ""
            return
        events: list[Event] = [row.event for row in batch if row.event is not None]
        first = events[0]
        check = self._derive and head.record.seq >= self.from_seq
        if isinstance(first, GameCreated):
            assert self._ruleset is not None  # known from this very event
            check_created(head.record, first, self._ruleset, self.find, self._stop_rules)
            if check and self._derive:  # not under a version this warlog does not play
                assert self._rederivation is not None
                self._rederivation.opening(batch, first)
        elif isinstance(first, CommandIssued):
            if check:
                meta = self._meta
                assert self._rederivation is not None and meta is not None
                self._rederivation.command(batch, first, meta, self._state)
        elif not self._derive:
            pass  # the lineage events are checked as _lineage_only follows them, once
        elif isinstance(first, DiceRevealed):
            self._reveal.revealed(head.record, first, self._meta)
        elif isinstance(first, GameForked):
            check_forked(head.record, first, self._meta, self.find, self._reveal.seeds)
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

    def _fold(self, batch: list[Row], events: list[Event]) -> None:
        fold = self._folding
        assert fold is not None  # batches are folded only once the ruleset is known
        reveal = self._reveal
        opening = isinstance(events[0], GameCreated)
        try:
            for row, event in zip(batch, events, strict=True):
                record = row.record
                fold.apply(record.seq, record.type, record.data, record.hash, event)
                reveal.keep_salts(fold.meta, row)
                if record.type in CORE_TAGS:
                    reveal.track_spec(fold.meta, event)
                    if isinstance(event, DiceRolled):
                        reveal.roll(fold.meta, record.seq, event, in_opening=opening)
        except Exception as exc:
            self.find(
                batch[0].record.seq,
                "rules",
                f"the recorded events cannot be applied: {type(exc).__name__}: {exc}",
            )
            self._stop_rules(batch[0].record.seq, "the recorded events cannot be applied")

    def _lineage_only(self, batch: list[Row]) -> None:
        """Follow the dice specs and reveals when the rules no longer can (the lineage events
        hold no seals and always decode); keep each row's opened salts for the reveal, once
        its own event is followed (``game_created``'s salts are kept under its commitment)."""
        codec = self._codec
        if codec is None:
            return  # the log did not open with a readable game_created: nothing to follow
        opening = batch[0].record.type == "game_created"
        for row in batch:
            self._follow_lineage(row, opening, codec)
            self._reveal.keep_salts(self._meta, row)

    def _follow_lineage(self, row: Row, opening: bool, codec: Codec) -> None:
        record = row.record
        if record.type not in CORE_TAGS or record.type == "command_issued":
            return
        event = row.event
        if event is None:
            try:
                event = codec.decode(record.type, row.chained)
            except WarlogError:
                if record.type == "dice_rolled":
                    self._reveal.sealed_roll(
                        self._meta, record.seq, in_opening=opening, shown=bool(row.false_openings)
                    )
                return
        if isinstance(event, DiceRolled):
            self._reveal.roll(self._meta, record.seq, event, in_opening=opening)
            return
        if isinstance(event, DiceRevealed):
            self._reveal.revealed(record, event, self._meta)
        elif isinstance(event, GameForked):
            check_forked(record, event, self._meta, self.find, self._reveal.seeds)
        if self._folding is not None:
            self._folding.meta = evolve_meta(self._folding.meta, record.seq, event)
            self._reveal.track_spec(self._meta, event)


def audit_records(
    records: Iterable[Record | Opened],
    rulesets: Callable[[str], AnyRuleset],
    from_seq: int = 1,
    unopened_why: str = "",
    *,
    stored: bool = False,
) -> Auditor:
    """Audit a log given as records in file or seq order (or as the arbiter's vault opens
    them: ``Opened``; ``stored``: the arbiter's own game); the Auditor holds the findings and
    what it proved."""
    auditor = Auditor(rulesets, from_seq, unopened_why=unopened_why, stored=stored)
    auditor.feed(records)
    return auditor
