"""Auditing a stored game: which form of its log the audit reads, then its snapshots.

The audit itself (arbiter/audit.py) reads records; this says which: the referee's, every seal
opened, when the key file holds every key the log commits to, else the public form. A log that
audits clean to its end then has its snapshots (kept in the key file, when there is one)
compared with its fold.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from warlog.arbiter.audit import Auditor, Finding, audit_records
from warlog.arbiter.reads import check_from, counted
from warlog.arbiter.reads import forms as read_forms
from warlog.arbiter.sealing import PUBLIC, REFEREE, DamagedLineage, Forms, Opened
from warlog.domain.core.errors import StoreError
from warlog.eventstore.records import Record
from warlog.eventstore.store import Store
from warlog.eventstore.vault import Vault

if TYPE_CHECKING:
    from warlog.arbiter.application import Arbiter


def audit_game(
    arb: Arbiter, game: str, from_seq: int, progress: Callable[[int], None] | None
) -> Auditor:
    """The audit of the stored game ``game`` (``Arbiter.audit``)."""
    head, _ = arb.store.head(game)
    check_from(from_seq, head, game)
    records: Iterable[Record | Opened]
    # a damaged key file is its one line (store/corrupt, exit 1), not an audit of the sealed
    # form that would check less and say nothing of why
    holds = arb.vault.available() and holds_its_keys(arb.store, arb.vault, game)
    try:
        if holds:
            # the referee's read opens every seal the vault holds, revealed or not: it
            # needs no fold of the game to know which seeds are revealed
            loaded = arb.loaded(game)
            forms = Forms(arb.vault, loaded.codec, REFEREE, ())
            records = forms.opened(arb.store.read(game))
        else:
            # every row, a gap in them too: the audit's sequence check names it as a finding
            records = read_forms(arb, game, PUBLIC, 1, None, checked=False)
    except StoreError as exc:
        if exc.code != "store/corrupt":
            raise
        # a log whose lineage does not decode (a damaged game_created): the audit of its
        # chained form says what is wrong, as a finding
        return _as_stored(arb, game, from_seq, progress)

    try:
        auditor = audit_records(counted(records, progress), arb.rulesets, from_seq, stored=True)
    except DamagedLineage:
        # a lineage event that does not decode, met on the way: the audit of the chained
        # form says what is wrong, as a finding (the key file is not at fault)
        return _as_stored(arb, game, from_seq, progress)
    except StoreError as exc:
        if holds or exc.code != "store/corrupt":
            raise
        # the public form read without keys refuses a row that is no JSON: the audit of the
        # chained form (the same rows, none of them opened) says what is wrong, as a finding
        return _as_stored(arb, game, from_seq, progress, unopened_why="")
    # the snapshots live in the key file: a database handed out without it has none to compare
    # (a game that seals nothing re-derives to its end all the same)
    if not auditor.findings and not auditor.proved.rules_stopped_at and arb.vault.available():
        checked, differing = arb.check_snapshots(game)
        auditor.proved.snapshots_checked = checked
        auditor.findings.extend(
            Finding(
                seq,
                "snapshot",
                "the stored snapshot is not the game folded from the log, its state or what "
                "it counts revealed (state, legal and play start from it: the key file's "
                "snapshots were altered, or warlog has a bug)",
            )
            for seq in differing
        )
    return auditor


#: why the audit of a log whose lineage is damaged opens no sealed value
LINEAGE_DAMAGED = (
    "its sealed values are read as stored, none opened: the log's lineage (game_created, "
    "game_forked, dice_revealed) is damaged, findings above, so which key opens what is not known"
)


def _as_stored(
    arb: Arbiter,
    game: str,
    from_seq: int,
    progress: Callable[[int], None] | None,
    unopened_why: str = LINEAGE_DAMAGED,
) -> Auditor:
    """The audit of the log's chained form, its seals left closed, for a log the key file's
    reads refuse (a lineage they cannot follow, by default): its damage is a finding."""
    records = counted(arb.store.read(game), progress)
    return audit_records(records, arb.rulesets, from_seq, unopened_why=unopened_why, stored=True)


def holds_its_keys(store: Store, vault: Vault, game: str) -> bool:
    """The vault holds every key the game's log commits to (``game_created``'s and each
    new-dice fork's): not so for a log imported before its reveal with --chain-only, whose
    values stay sealed here. False for lineage data it cannot read (the audit says why)."""
    # every row: an imported log holds its forks' game_forked inside its one segment
    rows = iter(store.read_rows(game))
    while True:
        try:
            row = next(rows, None)
        except StoreError:
            return False  # rows it cannot read: the audit of the chained form tells them
        if row is None:
            break
        _, type_, data, _ = row
        if type_ not in ("game_created", "game_forked"):
            continue
        try:
            dice = json.loads(data).get("dice")
            commitment = "" if dice is None else str(dice.get("commitment") or "")
        except (ValueError, AttributeError, TypeError):
            return False
        if commitment and vault.key(commitment) is None:
            return False
    return True
