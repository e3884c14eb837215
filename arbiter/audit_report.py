"""The audit's report: each finding, located by seq, and what the audit proved besides them."""

from __future__ import annotations

import msgspec


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


def shown(type_: str, data: str, limit: int = 240) -> str:
    """An event as a finding shows it (its type and data, cut at ``limit`` characters)."""
    text = f"{type_} {data}"
    return text if len(text) <= limit else text[: limit - 1] + "…"
