"""Audit: prove a log was not edited, that every consequence follows from its commands and dice,
and that the dice were fair once the seed is revealed.

Three checks, findings collected rather than stopped at the first:
1. chain and sequence, always over the whole log: seq 1, 2, 3 … without gaps, each ``prev`` the
   hash before it, each ``hash`` recomputed from the row's content;
2. rules re-derivation from ``from_seq``: each recorded command is decided again on the state
   folded from the log (never from a snapshot) with its recorded dice; any consequence that
   differs is a finding with the seq, what the rules give and what the log holds;
3. dice fairness: once a seed is revealed, every roll made under it is derived again from it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from warlog.arbiter.fold import Fold
from warlog.arbiter.ids import GAME_ID
from warlog.arbiter.initial import scenario_of
from warlog.arbiter.meta import GameMeta
from warlog.domain.core.dice import DiceSpec, ManualDice, RecordedDice, commitment_of, derive_faces
from warlog.domain.core.errors import WarlogError
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
from warlog.eventstore.chain import GENESIS, link
from warlog.eventstore.codec import Codec
from warlog.eventstore.records import Record


class Finding(msgspec.Struct, frozen=True, omit_defaults=True):
    """One thing wrong with a log, located by seq."""

    seq: int
    check: str  # "chain" | "sequence" | "decode" | "rules" | "dice" | "version"
    message: str
    expected: str | None = None
    found: str | None = None

    def line(self) -> str:
        out = f"seq {self.seq} [{self.check}]: {self.message}"
        if self.expected is not None or self.found is not None:
            out += f" (expected: {self.expected}; found: {self.found})"
        return out


def _short(type_: str, data: str, limit: int = 240) -> str:
    text = f"{type_} {data}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Auditor:
    """Streams a log once, checking chain, rules and dice as it goes."""

    def __init__(
        self, rulesets: Callable[[str], AnyRuleset], from_seq: int = 1, *, rules: bool = True
    ) -> None:
        self._rulesets = rulesets
        self.from_seq = from_seq
        self.findings: list[Finding] = []
        self._expected_seq = 1
        self._prev = GENESIS
        self._batch: list[tuple[Record, Event | None]] = []
        self._ruleset: AnyRuleset | None = None
        self._codec: Codec | None = None
        self._folding: Fold | None = None  # once the first event names the ruleset
        self._derive = rules  # turned off when the rules can no longer follow the log
        # rolls made under each dice spec (keyed by the seq that put it in force), for fairness
        self._rolls: dict[int, list[tuple[int, int, list[int]]]] = {}
        self._specs: dict[int, DiceSpec] = {}
        self._reveals: dict[int, tuple[int, bytes]] = {}
        self.events = 0

    def find(
        self,
        seq: int,
        check: str,
        message: str,
        expected: str | None = None,
        found: str | None = None,
    ) -> None:
        self.findings.append(Finding(seq, check, message, expected, found))

    # ------------------------------------------------------------------ pass

    def feed(self, records: Iterable[Record]) -> list[Finding]:
        for record in records:
            self._chain(record)
            event = self._decode(record)
            if record.type in BATCH_STARTS or not self._batch:
                self._close_batch()
            self._batch.append((record, event))
            self.events += 1
        self._close_batch()
        self._check_dice()
        if self.events == 0:
            self.find(0, "sequence", "the log is empty")
        return self.findings

    def _chain(self, record: Record) -> None:
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
        if link(record.prev, seq, record.type, record.at, record.data) != record.hash:
            self.find(
                seq, "chain", "hash does not match the event's content (the event was altered)"
            )
        self._prev = record.hash
        self._expected_seq = seq + 1

    def _decode(self, record: Record) -> Event | None:
        if self._codec is None:
            if record.type != "game_created":
                self.find(
                    record.seq,
                    "sequence",
                    f"the log must open with game_created, not {record.type}",
                )
                self._derive = False
                return None
            try:
                ruleset_name = msgspec.json.decode(record.data).get("ruleset")
                self._ruleset = self._rulesets(ruleset_name)
                self._folding = Fold(self._ruleset)
            except (WarlogError, msgspec.DecodeError, AttributeError) as exc:
                self.find(record.seq, "decode", f"cannot tell the ruleset: {exc}")
                self._derive = False
                return None
            self._codec = Codec.for_ruleset(self._ruleset)
        try:
            event = self._codec.decode(record.type, record.data)
        except WarlogError as exc:
            self.find(record.seq, "decode", str(exc))
            return None
        canonical = self._codec.encode(event)[1]
        if canonical != record.data:
            self.find(
                record.seq,
                "decode",
                f"the data is not the canonical form of a {record.type} event (fields added, dropped or reordered)",
                _short(record.type, canonical),
                _short(record.type, record.data),
            )
            return None
        return event

    # ------------------------------------------------------------------ batches

    def _close_batch(self) -> None:
        batch, self._batch = self._batch, []
        if not batch or not self._derive:
            return
        head_record, head = batch[0]
        if head is None or any(e is None for _, e in batch):
            self._derive = False  # undecodable events already reported; rules cannot follow
            return
        events: list[Event] = [e for _, e in batch if e is not None]
        if head_record.type not in BATCH_STARTS:
            self.find(
                head_record.seq,
                "sequence",
                f"{head_record.type} does not belong to any command's batch",
            )
            self._derive = False
            return
        check = head_record.seq >= self.from_seq
        if isinstance(head, GameCreated):
            self._created(head_record, head)
        elif isinstance(head, CommandIssued):
            if check:
                self._rederive(batch, head)
        elif isinstance(head, DiceRevealed):
            self._revealed(head_record, head)
        elif isinstance(head, GameForked) and head.at != head_record.seq - 1:
            self.find(
                head_record.seq,
                "sequence",
                f"game_forked says it cuts at {head.at}",
                str(head_record.seq - 1),
                str(head.at),
            )
        if len(batch) > 1 and not isinstance(head, CommandIssued):
            self.find(
                batch[1][0].seq,
                "sequence",
                f"{batch[1][0].type} follows {head_record.type}, which has no consequences",
            )
        self._fold(batch, events)

    def _created(self, record: Record, event: GameCreated) -> None:
        if record.seq != 1:
            self.find(record.seq, "sequence", "game_created after the first event")
        ruleset = self._ruleset
        assert ruleset is not None  # known from this very event
        if event.version != ruleset.version:
            self.find(
                record.seq,
                "version",
                f"played under {ruleset.name} version {event.version}; this warlog re-validates version "
                f"{ruleset.version} only, so rules re-derivation was not done",
            )
            self._derive = False
        if not GAME_ID.match(event.game) or not GAME_ID.match(event.dice.stream or "-"):
            self.find(
                record.seq, "decode", f"{event.game!r} is not a game id the arbiter would write"
            )
        try:
            scenario = scenario_of(ruleset, record.data, event)
            if msgspec.json.encode(scenario) != msgspec.json.encode(event.scenario):
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
            self._derive = False
        if event.dice.mode == "auto" and not event.dice.commitment:
            self.find(record.seq, "dice", "an auto-dice game without a commitment to its seed")

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
        if meta.dice.mode != "auto" or commitment_of(seed) != meta.dice.commitment:
            self.find(
                record.seq,
                "dice",
                "the revealed seed does not open the commitment in force",
                meta.dice.commitment,
                commitment_of(seed),
            )
            return
        self._reveals[meta.spec_seq] = (record.seq, seed)

    def _rederive(self, batch: list[tuple[Record, Event | None]], issued: CommandIssued) -> None:
        seq = batch[0][0].seq
        ruleset, meta, state = self._ruleset, self._meta, self._state
        assert self._codec is not None and meta is not None and ruleset is not None
        try:
            command = msgspec.convert(issued.command, ruleset.command_type)
        except msgspec.ValidationError as exc:
            self.find(seq, "rules", f"the recorded command is not a valid command: {exc}")
            return
        if msgspec.json.encode(command) != msgspec.json.encode(issued.command):
            self.find(
                seq,
                "rules",
                "the recorded command is not in the form the arbiter records",
                str(msgspec.to_builtins(command)),
                str(issued.command),
            )
            return
        if command.player != issued.player or issued.player not in meta.players:
            self.find(
                seq, "rules", f"the command is issued by {issued.player!r}, who may not issue it"
            )
            return
        if meta.dice.mode == "auto" and meta.revealed:
            self.find(
                seq,
                "rules",
                f"a command after the dice seed was revealed at seq {meta.revealed_at}",
            )
            return
        recorded = [e for _, e in batch[1:]]
        rolls = [(e.sides, list(e.faces)) for e in recorded if isinstance(e, DiceRolled)]
        dice: Any
        if meta.dice.mode == "manual":
            dice = ManualDice(list(command.dice))
        else:
            if command.dice:
                self.find(seq, "rules", "an auto-dice game's command carries its own dice faces")
            dice = RecordedDice(rolls)
        try:
            if ruleset.is_terminal(state):
                raise WarlogError("the game was already over")
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
            self.find(seq, "rules", f"the dice do not match the rules: {dice.mismatch}")
        if derived == recorded:  # the recorded events are canonical (checked when decoded)
            return
        found = [(r.type, r.data) for r, _ in batch[1:]]
        expected = [self._codec.encode(e) for e in derived]
        for offset in range(max(len(found), len(expected))):
            at = seq + 1 + offset
            want = expected[offset] if offset < len(expected) else None
            got = found[offset] if offset < len(found) else None
            if want != got:
                self.find(
                    at,
                    "rules",
                    "a consequence differs from what the rules derive from the command and its dice",
                    _short(*want) if want else "no further event",
                    _short(*got) if got else "no further event",
                )
                break

    def _fold(self, batch: list[tuple[Record, Event | None]], events: list[Event]) -> None:
        fold = self._folding
        assert fold is not None  # batches are folded only once the ruleset is known
        try:
            for (record, _), event in zip(batch, events, strict=True):
                fold.apply(record.seq, record.type, record.data, record.hash, event)
                meta = fold.meta
                if record.type in CORE_TAGS and meta is not None:
                    if isinstance(event, GameCreated) or (
                        isinstance(event, GameForked) and event.dice
                    ):
                        self._specs[meta.spec_seq] = meta.dice
                    if isinstance(event, DiceRolled):
                        self._rolls.setdefault(meta.spec_seq, []).append(
                            (record.seq, event.sides, list(event.faces))
                        )
        except Exception as exc:
            self.find(
                batch[0][0].seq,
                "rules",
                f"the recorded events cannot be applied: {type(exc).__name__}: {exc}",
            )
            self._derive = False

    @property
    def _meta(self) -> GameMeta | None:
        return None if self._folding is None else self._folding.meta

    @property
    def _state(self) -> Any:
        return None if self._folding is None else self._folding.state

    def _check_dice(self) -> None:
        for spec_seq, (reveal_seq, seed) in self._reveals.items():
            spec = self._specs.get(spec_seq)
            if spec is None:
                continue
            for seq, sides, faces in self._rolls.get(spec_seq, []):
                if seq < self.from_seq:
                    continue
                fair = derive_faces(seed, spec.stream, spec.salt, seq, len(faces), sides)
                if fair != faces:
                    self.find(
                        seq,
                        "dice",
                        f"the faces are not the ones the seed revealed at seq {reveal_seq} gives",
                        str(fair),
                        str(faces),
                    )

    @property
    def revealed(self) -> bool:
        return bool(self._reveals)


def audit_records(
    records: Iterable[Record], rulesets: Callable[[str], AnyRuleset], from_seq: int = 1
) -> Auditor:
    """Audit a log given as records in file or seq order; the Auditor holds the findings."""
    auditor = Auditor(rulesets, from_seq)
    auditor.feed(records)
    return auditor
