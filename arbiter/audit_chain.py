"""The chain and sequence of a log's rows: seq 1, 2, 3 … without gaps, each ``prev`` the hash
before it, each ``hash`` recomputed over the row's chained data, each ``at`` a well-formed time no
earlier than the one before (each time that goes back one finding, wherever it goes on from)."""

from __future__ import annotations

import re
from datetime import datetime

from warlog.arbiter.audit_report import Find
from warlog.arbiter.audit_rows import Row
from warlog.eventstore.chain import GENESIS, link

#: the contract's ``at``: UTC ISO-8601 with milliseconds, ending in ``Z``
AT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


class Chain:
    """Checks each row against the ones before it: the seq and ``prev`` it must have, and the
    well-formed ``at`` before it (none before the first), which its own must not precede."""

    __slots__ = ("expected_seq", "find", "last_at", "last_at_seq", "prev")

    def __init__(
        self, find: Find, expected_seq: int = 1, prev: str = GENESIS, last_at: str | None = None
    ) -> None:
        self.find = find
        self.expected_seq = expected_seq
        self.prev = prev
        self.last_at = last_at
        #: the last seq whose time ``last_at`` is
        self.last_at_seq = expected_seq - 1

    def check(self, row: Row) -> None:
        """Check the next row of the log (each problem a finding) and move on past it."""
        record = row.record
        seq = record.seq
        if seq != self.expected_seq:
            if seq > self.expected_seq:
                gap = (
                    f"{self.expected_seq}"
                    if seq == self.expected_seq + 1
                    else f"{self.expected_seq}..{seq - 1}"
                )
                self.find(seq, "sequence", f"seq {gap} missing: the log jumps to {seq}")
            else:
                self.find(
                    seq,
                    "sequence",
                    f"seq {seq} is out of order or repeated after seq {self.expected_seq - 1}",
                )
        if record.prev != self.prev:
            self.find(
                seq,
                "chain",
                "prev is not the hash of the event before it (an earlier event was altered, dropped, "
                "inserted or reordered)",
                self.prev,
                record.prev,
            )
        if link(record.prev, seq, record.type, record.at, row.chained) != record.hash:
            self.find(
                seq, "chain", "hash does not match the event's content (the event was altered)"
            )
        if record.at == self.last_at:
            self.last_at_seq = seq  # a batch shares one time: checked at its first event
        elif not well_formed(record.at):
            self.find(
                seq, "sequence", f"'at' {record.at[:40]!r} is not a UTC time as warlog writes it"
            )
        else:
            if self.last_at is not None and record.at < self.last_at:
                self.find(
                    seq,
                    "sequence",
                    f"'at' goes backwards: {record.at} is earlier than seq {self.last_at_seq}'s "
                    f"{self.last_at}",
                )
            # the next time is compared with this one, not with the latest seen: one time
            # altered is one finding, where its successor (or itself) goes back, not one for
            # every event after it until the times catch up with it
            self.last_at, self.last_at_seq = record.at, seq
        self.prev = record.hash
        self.expected_seq = seq + 1


def well_formed(at: str) -> bool:
    """``at`` is the contract's time: the pattern, and a date and time that exist (what
    ``datetime.strptime(at, "%Y-%m-%dT%H:%M:%S.%fZ")`` accepts, read without its parser)."""
    if not AT.fullmatch(at):
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
