"""Auditing a stored game: the referee's form when the key file holds its keys, then snapshots."""

from __future__ import annotations

from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit_stored import audit_game, holds_its_keys
from warlog.eventstore.vault import MemoryVault


def test_the_audit_reads_the_referees_form_only_where_the_vault_holds_every_key(
    arb: Arbiter, race: str
) -> None:
    assert holds_its_keys(arb.store, arb.vault, race)
    assert not holds_its_keys(arb.store, MemoryVault(), race)
    arb.fork(race, 9, new_game="f1")
    assert holds_its_keys(arb.store, arb.vault, "f1")


def test_a_clean_log_has_its_snapshots_checked_against_its_fold(arb: Arbiter, race: str) -> None:
    told: list[int] = []
    auditor = audit_game(arb, race, 1, told.append)
    assert auditor.findings == []
    assert auditor.proved.snapshots_checked == arb.check_snapshots(race)[0] >= 2
    assert told == [13]


def test_a_vault_without_a_new_dice_fork_s_key_does_not_hold_the_fork_s_keys(
    arb: Arbiter, race: str
) -> None:
    # given a fork of the race on new dice, and a vault that holds the parent's key alone
    arb.fork(race, 9, new_game="f1", dice="new")
    parent_only = MemoryVault()
    parent = arb.folded(race).meta.dice.commitment
    parent_only.put_key(parent, arb.vault.key(parent), race)
    # then the parent's keys are held there, the fork's are not: its audit reads the public form
    assert holds_its_keys(arb.store, parent_only, race)
    assert not holds_its_keys(arb.store, parent_only, "f1")
