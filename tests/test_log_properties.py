"""Properties of the log on real rules (Armageddon Empires): snapshots, forks, forgeries."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.eventstore.tamper import forgeries, is_legal_game, rechain
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.autoplay import autoplay
from warlog.arbiter.exchange import export_line, parse_lines
from warlog.domain import rulesets
from warlog.domain.core.events import BATCH_STARTS, CORE_TAGS
from warlog.domain.core.fold import fold
from warlog.eventstore.codec import Codec
from warlog.eventstore.memory_store import MemoryStore
from warlog.eventstore.records import Record

RULESET = "armageddon-empires"
SEED = bytes(range(32, 64))


def random_game(data: st.DataObject, steps: int, snapshot_every: int = 7) -> tuple[Arbiter, str]:
    """A game of random legal commands (the draw picks each one)."""
    arbiter = Arbiter(
        MemoryStore(), rulesets.get, seeds=lambda: SEED, snapshot_every=snapshot_every
    )
    game = arbiter.new_game(RULESET, game="prop")
    for _ in range(steps):
        legal = arbiter.legal(game)
        if not legal:
            break
        arbiter.play(game, json.dumps(data.draw(st.sampled_from(legal), label="command")))
    return arbiter, game


def decoded_state(arbiter: Arbiter, game: str, to_seq: int) -> bytes:
    events = [event for _, event in arbiter.events(game, 1, to_seq)]
    return msgspec.msgpack.encode(fold(arbiter.ruleset_of(game), events))


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_snapshot_and_its_tail_equal_the_full_fold(data: st.DataObject) -> None:
    arbiter, game = random_game(data, data.draw(st.integers(5, 60), label="steps"))
    head, _ = arbiter.head(game)
    for at in data.draw(st.lists(st.integers(1, head), min_size=1, max_size=6), label="seqs"):
        fresh = Arbiter(  # no live state: snapshots + tail
            arbiter.store, rulesets.get, vault=arbiter.vault, snapshot_every=7
        )
        assert msgspec.msgpack.encode(fresh.state(game, at)) == decoded_state(arbiter, game, at)


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_a_forks_first_n_events_are_its_parents(data: st.DataObject) -> None:
    arbiter, game = random_game(data, data.draw(st.integers(3, 40), label="steps"))
    parent = list(arbiter.records(game))
    ends = [r.seq - 1 for r in parent[1:] if r.type in BATCH_STARTS] + [parent[-1].seq]
    at = data.draw(st.sampled_from(ends), label="at")
    fork = arbiter.fork(game, at, new_game="child")
    for _ in range(data.draw(st.integers(0, 5), label="fork steps")):
        legal = arbiter.legal(fork)
        if legal:
            arbiter.play(fork, json.dumps(data.draw(st.sampled_from(legal))))
    records = list(arbiter.records(fork))
    assert records[:at] == parent[:at]
    assert (records[at].type, records[at].prev) == ("game_forked", parent[at - 1].hash)
    assert list(arbiter.records(game)) == parent  # the parent is untouched
    auditor = arbiter.audit(fork)  # with the key file: every seal opened, every rule checked
    assert auditor.findings == [] and not auditor.proved.rules_stopped_at


@pytest.fixture(scope="module")
def ae_game() -> list[Record]:
    arbiter = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: SEED)
    game = arbiter.new_game(RULESET, game="forged")
    autoplay(arbiter, game, 60)
    arbiter.reveal(game)
    return list(parse_lines(export_line(r) for r in arbiter.export_records(game)))


def tags() -> list[str]:
    return sorted(set(Codec.for_ruleset(rulesets.get(RULESET)).tags) | CORE_TAGS)


def is_batch_end_prefix(forged: list[Record], game: list[Record]) -> bool:
    n = len(forged)
    return forged == game[:n] and (n == len(game) or game[n].type in BATCH_STARTS)


@settings(
    max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_every_forgery_of_an_armageddon_empires_game_is_caught(
    ae_game: list[Record], data: st.DataObject
) -> None:
    kind, forged = data.draw(forgeries(ae_game, tags()))
    assert audit_records(forged, rulesets.get).findings or is_batch_end_prefix(forged, ae_game), (
        kind
    )
    rechained = rechain(forged)
    assert audit_records(rechained, rulesets.get).findings or is_legal_game(
        rechained, rulesets.get, SEED
    ), kind
