"""The audit's report: each finding, located by seq (and where an event differs from the one
expected, the fields that differ), and what the audit proved besides them."""

from __future__ import annotations

import json
from typing import Any

import msgspec

from warlog.projections.changes import apart

#: the order of the checks' findings at one seq, each check before those that build on it:
#: whether the row is the one the chain holds, where it stands (its seq, its time), under which
#: rules it was played (a version this warlog does not play first: the rules that would read it
#: are not its own, so what they make of it says nothing of the log), whether it reads, its
#: seals, what the rules make of it (a roll: how many dice of what kind), then whether a roll's
#: faces are the seed's; the stored snapshots last
CHECKS = ("chain", "sequence", "version", "decode", "seal", "rules", "dice", "snapshot")

#: the differences a finding keeps, and those its line shows (the rest are counted)
DIFFERENCES_KEPT = 8
DIFFERENCES_SHOWN = 3

#: the most characters of a differing value a finding shows, around where the two differ
VALUE_LIMIT = 60

#: what a finding shows for an event the log lacks, or the rules do not derive
NO_FURTHER_EVENT = "no further event"

#: a batch the log ends inside (the rules derive events after its last one): what is known is
#: that the log stops there, not why (a copy cut short, or rules that now derive more)
ENDS_INSIDE_BATCH = (
    "the log ends inside this batch: the rules derive more events from its command than it "
    "holds (a copy cut short, such as part of an export, or rules that now derive more)"
)
THE_END_OF_THE_LOG = "the end of the log"


class Difference(msgspec.Struct, frozen=True):
    """One field where an event of the log differs from the one expected: its path (``type``,
    or ``data.`` then the field's keys and list positions joined by dots, as a seal's path is)
    and each side's value as compact JSON, cut around where the two differ; ``absent`` where
    that side has no such field."""

    path: str
    expected: str
    found: str

    def text(self) -> str:
        return f"{self.path}: expected {self.expected}, found {self.found}"


class Finding(msgspec.Struct, frozen=True, omit_defaults=True):
    """One thing wrong with a log, located by seq."""

    seq: int
    #: "chain" | "sequence" | "decode" | "rules" | "dice" | "seal" | "version" | "snapshot"
    check: str
    message: str
    #: each side as the finding shows it; for an event, its type and data, cut around where
    #: the two differ
    expected: str | None = None
    found: str | None = None
    #: an event that differs from the one expected: its type, and the fields that differ (at
    #: most ``DIFFERENCES_KEPT``; ``more_differences`` counts the others)
    event_type: str | None = None
    differences: list[Difference] = []
    more_differences: int = 0

    def line(self, limit: int | None = None) -> str:
        """The finding as one line: where, which check, what is wrong, and what differs (each
        differing field with its two values, else both sides); cut at ``limit`` characters."""
        out = f"seq {self.seq} [{self.check}]: {self.message}"
        if self.differences:
            shown = self.differences[:DIFFERENCES_SHOWN]
            more = len(self.differences) - len(shown) + self.more_differences
            where = f"{self.event_type} " if self.event_type else ""
            out += f": {where}" + "; ".join(d.text() for d in shown)
            if more:
                out += f" (and {more} more field{'' if more == 1 else 's'})"
        elif self.expected is not None or self.found is not None:
            out += f" (expected: {self.expected}; found: {self.found})"
        if limit is not None and len(out) > limit:
            out = out[: limit - 1] + "…"
        return out

    def key(self) -> tuple[int, int]:
        """Where the finding sorts in the report: by seq, then by check (``CHECKS``)."""
        return self.seq, CHECKS.index(self.check) if self.check in CHECKS else len(CHECKS)


class Find:
    """Reports a finding to the audit's list (``Auditor.find``; each check is handed it): the
    findings are collected, never raised. It holds the list, not the Auditor, so that an
    Auditor is freed as soon as it is dropped."""

    __slots__ = ("findings",)

    def __init__(self, findings: list[Finding]) -> None:
        self.findings = findings

    def __call__(
        self,
        seq: int,
        check: str,
        message: str,
        expected: str | None = None,
        found: str | None = None,
    ) -> None:
        self.findings.append(Finding(seq, check, message, expected, found))

    def differs(
        self,
        seq: int,
        check: str,
        message: str,
        expected: tuple[str, str] | None,
        found: tuple[str, str] | None,
    ) -> None:
        """Report an event of the log (``found``: its type and data) that is not the one
        expected, naming the fields that differ and their two values (None: no such event)."""
        if expected is None or found is None:
            self(
                seq,
                check,
                message,
                NO_FURTHER_EVENT if expected is None else shown(*expected),
                NO_FURTHER_EVENT if found is None else shown(*found),
            )
            return
        want, got = shown_apart(expected, found)
        differing = differences(expected, found)
        self.findings.append(
            Finding(
                seq,
                check,
                message,
                want,
                got,
                event_type=expected[0] if differing and expected[0] == found[0] else None,
                differences=differing[:DIFFERENCES_KEPT],
                more_differences=max(0, len(differing) - DIFFERENCES_KEPT),
            )
        )


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
    #: rolls whose faces shown do not open their seal (each a seal finding): not verified
    dice_unopened: int = 0
    #: sealed values: opened and found to hash to their seal; salts checked against a
    #: revealed seed; seals nobody opened; values opened that do not hash to their seal (each
    #: a finding: a forged opening, not a seal left closed)
    seals_opened: int = 0
    salts_verified: int = 0
    seals_closed: int = 0
    seals_false: int = 0
    #: opened values whose salt is not the one the revealed seed derives (each a finding)
    salts_false: int = 0
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
        if self.dice_unverified or self.dice_sealed or self.dice_unopened:
            rolls = self.dice_unverified + self.dice_sealed + self.dice_unopened
            out.append(f"dice: {rolls} roll{'' if rolls == 1 else 's'}")
        if self.seals_closed:
            out.append(f"sealed values: {self.seals_closed} left sealed")
        unsalted = self.seals_opened - self.salts_verified - self.salts_false
        if unsalted > 0:
            out.append(f"salts: {unsalted} not checked")
        return out


def shown(type_: str, data: str, limit: int = 240) -> str:
    """An event as a finding shows it (its type and data, cut at ``limit`` characters)."""
    text = f"{type_} {data}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown_apart(
    expected: tuple[str, str], found: tuple[str, str], limit: int = 240
) -> tuple[str, str]:
    """Two events as a finding shows them, each its type and data, the data cut alike around
    where the two first differ (so that two long events that differ never show the same
    text)."""
    if expected[0] != found[0]:
        return shown(*expected, limit), shown(*found, limit)
    room = limit - len(expected[0]) - 1
    want, got = apart(expected[1], found[1], max(room, VALUE_LIMIT))
    return f"{expected[0]} {want}", f"{found[0]} {got}"


#: a field one side has and the other has not
_ABSENT: Any = object()


def differences(expected: tuple[str, str], found: tuple[str, str]) -> list[Difference]:
    """The fields where the event ``found`` (type, data) differs from ``expected``, in the
    expected event's order (its type alone when the types differ; none when the data is not
    JSON or differs only in how it is written)."""
    if expected[0] != found[0]:
        want, got = apart(expected[0], found[0], VALUE_LIMIT)
        return [Difference("type", want, got)]
    try:
        want_data, got_data = json.loads(expected[1]), json.loads(found[1])
    except ValueError:
        return []
    out: list[Difference] = []
    _walk("data", want_data, got_data, out)
    return out


def _walk(path: str, want: Any, got: Any, out: list[Difference]) -> None:
    if isinstance(want, dict) and isinstance(got, dict):
        for key in [*want, *(k for k in got if k not in want)]:
            _walk(f"{path}.{key}", want.get(key, _ABSENT), got.get(key, _ABSENT), out)
    elif isinstance(want, list) and isinstance(got, list):
        for i in range(max(len(want), len(got))):
            _walk(
                f"{path}.{i}",
                want[i] if i < len(want) else _ABSENT,
                got[i] if i < len(got) else _ABSENT,
                out,
            )
    elif type(want) is not type(got) or want != got:  # 1 and true differ, as JSON has them
        a, b = apart(_value(want), _value(got), VALUE_LIMIT)
        out.append(Difference(path, a, b))


def _value(value: Any) -> str:
    return (
        "absent"
        if value is _ABSENT
        else json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    )
