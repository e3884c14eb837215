"""The audit's cheaper bookkeeping checks what the slower one checked: a record is read from
what the vault opens as the walk of its seals reads it (arbiter/openings.py), every time is
judged as ``datetime.strptime`` judges it, and the reveal verifies every salt, whether the
reader tells what it derived a salt from or not."""

from __future__ import annotations

import itertools
import json
import random
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.eventstore.tamper import rechain
from warlog.arbiter import openings
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import Auditor
from warlog.arbiter.audit_chain import well_formed
from warlog.arbiter.autoplay import autoplay
from warlog.arbiter.openings import read_opened
from warlog.arbiter.sealing import REFEREE, Forms, Opened
from warlog.domain import rulesets as registry
from warlog.domain.core.seal import compact, get_path, salt_for, seal_for, set_path
from warlog.eventstore.memory_store import MemoryStore
from warlog.eventstore.records import Record

KEY = bytes(range(32))


def steady_clock() -> Any:
    """A clock a second later at each call (a whole game stays in order)."""
    counter = itertools.count()
    return lambda: datetime.fromtimestamp(1_790_000_000 + next(counter), UTC).strftime(
        "%Y-%m-%dT%H:%M:%S.000Z"
    )


@pytest.fixture(scope="module")
def played() -> tuple[Arbiter, str]:
    arb = Arbiter(MemoryStore(), registry.get, clock=steady_clock(), seeds=lambda: KEY)
    game = arb.new_game("armageddon-empires", game="ae")
    autoplay(arb, game, 60)
    arb.reveal(game)
    return arb, game


def opened_records(arb: Arbiter, game: str) -> list[Opened]:
    loaded = arb.loaded(game)
    forms = Forms(arb.vault, loaded.codec, REFEREE, arb.folded(game).meta.opened)
    return list(forms.opened(arb.records(game)))


# ---------------------------------------------------------------- reading what the vault opens


def reference_read_opened(data: str, clear: str, salts: dict[str, str]) -> Any:
    """The walk of the seals alone (before the record was read the other way round)."""
    try:
        return openings._read(data, clear, salts, openings._loads_fast, openings._dumps_fast)
    except msgspec.DecodeError:
        pass
    try:
        return openings._read(data, clear, salts, json.loads, compact)
    except ValueError:
        return None


def variants(rng: random.Random, data: str, clear: str, salts: dict[str, str]) -> list[Any]:
    """The record as stored, and forged or damaged in the ways that matter to the reading."""
    out: list[Any] = [(data, clear, salts)]
    digits = [i for i, ch in enumerate(clear) if ch.isdigit()]
    if digits:
        i = rng.choice(digits)
        out.append((data, clear[:i] + str((int(clear[i]) + 1) % 10) + clear[i + 1 :], salts))
    first = next(iter(salts))
    extra = ',"w":{"sealed":"' + "c" * 64 + '"}}'
    out += [
        (data.replace(":", ": ", 1), clear, salts),  # data not in its compact form
        (data, clear.replace(":", ": ", 1), salts),  # the vault's clear form not compact
        (data, clear, {**salts, first: "0" * 64}),  # a wrong salt
        (data, clear, {k: v for k, v in salts.items() if k != first}),  # a seal left closed
        (data, clear, {**salts, "nowhere.0": salts[first]}),  # a path with no seal
        (data, clear, {**salts, f"{first}.sealed": salts[first]}),  # a path inside a seal
        (data, clear, dict(reversed(salts.items()))),  # the vault's paths in another order
        (data[:-1] + ',"x":1.5}', clear[:-1] + ',"x":1.5}', salts),  # a float: read with json
        (data[:-1] + ',"y":{"sealed":"' + "a" * 64 + '"}}', clear, salts),  # a seal not opened
        (data, clear[:-1] + ',"z":{"sealed":"' + "b" * 64 + '"}}', salts),  # one in the clear
        (data[:-1] + extra, clear[:-1] + extra, salts),  # a seal in both that none opens
        (data, "{not json", salts),
        ("{not json", clear, salts),
    ]
    return out


def test_every_record_is_read_as_the_walk_of_its_seals_reads_it(
    played: tuple[Arbiter, str],
) -> None:
    arb, game = played
    rng = random.Random(3)
    compared = fast = 0
    for item in opened_records(arb, game):
        if not item.salts:
            continue
        for data, clear, salts in variants(rng, item.record.data, item.clear, item.salts):
            assert read_opened(data, clear, salts) == reference_read_opened(data, clear, salts)
            fast += openings._sealed_again(data, clear, salts) is not None if _json(clear) else 0
            compared += 1
    assert compared > 1000 and fast > 50  # both ways of reading were compared


def _json(text: str) -> bool:
    try:
        openings._loads_fast(text)
    except msgspec.DecodeError:
        return False
    return True


# ---------------------------------------------------------------- the time of a batch


def reference_well_formed(at: str) -> bool:
    from warlog.arbiter.audit_chain import AT

    if not AT.match(at):
        return False
    try:
        datetime.strptime(at, "%Y-%m-%dT%H:%M:%S.%fZ")
    except ValueError:
        return False
    return True


def times() -> st.SearchStrategy[str]:
    part = st.integers(0, 99).map(lambda n: f"{n:02d}")
    year = st.sampled_from(["0000", "0001", "1999", "2000", "2024", "2026", "2100", "9999"])
    stamp = st.builds(
        lambda y, m, d, h, mi, s, ms, end: f"{y}-{m}-{d}T{h}:{mi}:{s}.{ms:03d}{end}",
        year,
        part,
        part,
        part,
        part,
        part,
        st.integers(0, 999),
        st.sampled_from(["Z", "Z", "Z", "Z\n", "z", "+00:00", ""]),
    )
    unicode = stamp.map(lambda t: t.replace("1", "\u0661"))  # another script's digit one
    return st.one_of(stamp, unicode, st.text(max_size=30))


@given(times())
def test_a_time_is_well_formed_exactly_when_the_parser_reads_it(at: str) -> None:
    assert well_formed(at) == reference_well_formed(at)


@pytest.mark.parametrize(
    "at",
    [
        "2024-02-29T23:59:59.999Z",
        "2023-02-29T00:00:00.000Z",
        "2026-04-31T00:00:00.000Z",
        "2026-12-31T24:00:00.000Z",
        "2026-12-31T23:60:00.000Z",
        "2026-12-31T23:59:60.000Z",
        "2026-00-01T00:00:00.000Z",
        "2026-01-00T00:00:00.000Z",
        "0000-01-01T00:00:00.000Z",
        "2026-01-01T00:00:00.000Z\n",
        "2026-01-0\u0661T00:00:00.000Z",
    ],
)
def test_the_edges_of_the_calendar_are_judged_as_the_parser_judges_them(at: str) -> None:
    assert well_formed(at) == reference_well_formed(at)


# ---------------------------------------------------------------- salts at the reveal


def test_the_referees_read_says_truly_what_each_salt_is_derived_from(
    played: tuple[Arbiter, str],
) -> None:
    arb, game = played
    told = 0
    for item in opened_records(arb, game):
        if item.salts:
            assert item.derived is not None and item.derived[0] == KEY
            key, stream, seq = item.derived
            assert item.salts == {path: salt_for(key, stream, seq, path) for path in item.salts}
            told += 1
    assert told > 50


def test_the_reveal_verifies_every_salt_whether_the_reader_tells_its_derivation_or_not(
    played: tuple[Arbiter, str],
) -> None:
    arb, game = played
    told = opened_records(arb, game)
    untold = [item._replace(derived=None) for item in told]
    elsewhere = [
        item._replace(derived=(bytes(32), *item.derived[1:])) if item.derived else item
        for item in told
    ]
    proved = []
    for records in (told, untold, elsewhere):
        auditor = Auditor(registry.get)
        assert auditor.feed(records) == []
        proved.append(msgspec.to_builtins(auditor.proved))
    assert proved[0] == proved[1] == proved[2]
    assert proved[0]["salts_verified"] == proved[0]["seals_opened"] > 0


def test_a_salt_the_revealed_seed_does_not_derive_is_a_finding_though_its_seal_opens(
    played: tuple[Arbiter, str],
) -> None:
    # a referee that sealed with another key than the one it committed to and revealed: every
    # seal is made again with the other key's salts and the chain linked again, so each seal
    # opens; the reveal finds that the revealed seed derives none of those salts
    arb, game = played
    other = bytes(reversed(KEY))
    items = opened_records(arb, game)
    resealed: list[tuple[Record, str, dict[str, str], Any]] = []
    for item in items:
        record, salts, derived = item.record, item.salts, item.derived
        if salts and derived is not None:
            _, stream, seq = derived
            salts = {path: salt_for(other, stream, seq, path) for path in salts}
            data, clear = json.loads(record.data), json.loads(item.clear)
            for path, salt in salts.items():
                set_path(data, path, {"sealed": seal_for(salt, get_path(clear, path))})
            record = msgspec.structs.replace(record, data=compact(data))
            derived = (other, stream, seq)
        resealed.append((record, item.clear, salts, derived))
    chained = rechain([record for record, *_ in resealed])
    forged = [
        Opened(record, clear, salts, derived)
        for record, (_, clear, salts, derived) in zip(chained, resealed, strict=True)
    ]
    auditor = Auditor(registry.get)
    findings = auditor.feed(forged)
    sealed = sum(len(item.salts) for item in items)
    assert auditor.proved.seals_opened == sealed > 0
    assert auditor.proved.salts_verified == 0
    assert len(findings) == sealed
    assert all(
        f.check == "seal" and f.message.startswith("the salt of ") and "is not the one" in f.message
        for f in findings
    )
