"""The audit of the arbiter's own games reads each record as stored with what the vault opens of
it (arbiter/openings.py): it proves what the audit of the opened export proves, and a vault
whose clear form does not match the seals is a finding."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from tests.eventstore.conftest import fixed_clock
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import Finding, audit_records
from warlog.arbiter.autoplay import autoplay
from warlog.arbiter.openings import OUTSIDE_THE_SEALS, read_opened
from warlog.domain import rulesets as registry
from warlog.domain.core.seal import compact
from warlog.eventstore.memory_store import MemoryStore
from warlog.eventstore.vault import Opening

SALT = "ab" * 32


def seal(value: object, salt: str = SALT) -> str:
    return hashlib.sha256(f"{salt}\n{compact(value)}".encode()).hexdigest()


@pytest.fixture(scope="module")
def played() -> tuple[Arbiter, str]:
    arb = Arbiter(MemoryStore(), registry.get, clock=fixed_clock(), seeds=lambda: bytes(range(32)))
    game = arb.new_game("armageddon-empires", game="ae")
    autoplay(arb, game, 40)
    arb.reveal(game)
    return arb, game


def audited_with_clear(
    arb: Arbiter, game: str, hash_: str, edit: Callable[[dict[str, Any]], dict[str, Any]]
) -> list[Finding]:
    """The findings of the arbiter's audit of ``game`` with the key file's clear form of the
    event ``hash_`` edited by ``edit`` (put back afterwards)."""
    held = arb.vault.opening(hash_)
    assert held is not None
    edited = compact(edit(json.loads(held.clear)))
    arb.vault.put_openings([Opening(held.hash, held.game, held.seq, edited, held.owners)])
    try:
        return arb.audit(game).findings
    finally:
        arb.vault.put_openings([held])


def test_the_arbiters_audit_proves_what_the_audit_of_its_opened_export_proves(
    played: tuple[Arbiter, str],
) -> None:
    arb, game = played
    own = arb.audit(game)
    export = audit_records(list(arb.export_records(game, opened=True)), registry.get)
    assert own.findings == [] and export.findings == []
    # the same, but that the arbiter also compares the snapshots it keeps with the log
    assert own.proved.snapshots_checked > 0 and export.proved.snapshots_checked == 0
    own.proved.snapshots_checked = 0
    assert msgspec.to_builtins(own.proved) == msgspec.to_builtins(export.proved)
    assert own.proved.seals_opened > 0 and own.proved.salts_verified == own.proved.seals_opened


def test_a_key_file_whose_clear_form_the_seals_do_not_hold_is_a_finding(
    played: tuple[Arbiter, str],
) -> None:
    arb, game = played
    sealed = next(r for r in arb.records(game) if r.type == "card_dealt")
    findings = audited_with_clear(
        arb, game, sealed.hash, lambda clear: {**clear, "card": "red.not-the-card.1"}
    )
    assert any(
        f.seq == sealed.seq and f.check == "seal" and f.message.startswith("the seal at card")
        for f in findings
    )


def test_a_key_file_whose_clear_form_differs_where_no_seal_is_is_a_finding(
    played: tuple[Arbiter, str],
) -> None:
    # given an event whose key-file clear form is edited outside its seals (the fold reads that
    # clear form: the arbiter's state would show what the log does not hold)
    arb, game = played
    sealed = next(r for r in arb.records(game) if r.type == "armies_sighted")
    held = arb.vault.opening(sealed.hash)
    assert held is not None and "observer" not in held.owners  # not a sealed field

    def other_observer(clear: dict[str, Any]) -> dict[str, Any]:
        return {**clear, "observer": "blue" if clear["observer"] == "red" else "red"}

    # when the arbiter audits its game
    findings = audited_with_clear(arb, game, sealed.hash, other_observer)
    # then that event is a finding, though every seal of it opens
    assert [(f.seq, f.check, f.message) for f in findings] == [
        (sealed.seq, "seal", OUTSIDE_THE_SEALS)
    ]


def test_a_record_is_read_alike_whether_msgspec_or_json_reads_it() -> None:
    chained = {"n": 3, "card": {"sealed": seal("red.x.1")}, "faces": [{"sealed": seal([4, 2])}]}
    clear = {"n": 3, "card": "red.x.1", "faces": [[4, 2]]}
    salts = {"faces.0": SALT, "card": SALT}
    read = read_opened(compact(chained), compact(clear), salts)
    assert read is not None
    assert read.sealed == ["card", "faces.0"]  # in the data's order, not the vault's
    assert read.clear == compact(clear) and read.chained == compact(chained)
    assert read.problems == [] and sorted(read.salts) == sorted(salts.items())


def test_a_record_holding_a_float_is_read_with_json() -> None:
    chained = {"x": 1e16, "card": {"sealed": seal("red.x.1")}}
    read = read_opened(compact(chained), compact({"x": 1e16, "card": "red.x.1"}), {"card": SALT})
    assert read is not None
    assert read.chained == compact(chained)  # "1e+16", as json writes it (msgspec: "1e16")
    assert read.clear == compact({"x": 1e16, "card": "red.x.1"})


def test_a_seal_the_vault_does_not_open_stays_closed() -> None:
    chained = {"card": {"sealed": seal("red.x.1")}, "other": {"sealed": seal(7)}}
    read = read_opened(compact(chained), compact({"card": "red.x.1", "other": 7}), {"card": SALT})
    assert read is not None
    assert read.sealed == ["card", "other"] and read.salts == [("card", SALT)]
    assert read.clear is None  # the rules cannot re-derive from it


def test_a_wrong_value_does_not_open_and_data_that_is_not_json_is_not_read() -> None:
    chained = compact({"card": {"sealed": seal("red.x.1")}})
    read = read_opened(chained, compact({"card": "red.y.1"}), {"card": SALT})
    assert read is not None and read.clear is None
    assert read.problems == [
        "the seal at card does not open: the value and salt do not hash to the seal"
    ]
    assert read_opened("{not json", "{}", {"card": SALT}) is None
