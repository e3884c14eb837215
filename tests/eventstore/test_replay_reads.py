"""Replay reads only what the fold needs (issue 17): the events it skips unread change no state,
and the openings it reads as a range of a game's rows are the ones found by hash, forks and
openings kept under another game included. Checked on Armageddon Empires games played on an
SQLite file and its key file, forked at random batch ends."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from tests.eventstore.conftest import fixed_clock
from warlog.arbiter.application import Arbiter
from warlog.arbiter.autoplay import autoplay
from warlog.arbiter.database import on_database
from warlog.arbiter.fold import Fold, Folded, unread
from warlog.arbiter.sealing import Opener
from warlog.domain import rulesets as registry
from warlog.domain.core.events import BATCH_STARTS, CORE_TAGS
from warlog.eventstore.memory_store import MemoryStore

AE = "armageddon-empires"


def batch_ends(arb: Arbiter, game: str) -> list[int]:
    rows = list(arb.store.read_rows(game))
    return [seq - 1 for seq, type_, _, _ in rows[1:] if type_ in BATCH_STARTS]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Arbiter, list[str]]]:
    """Two games of different keys, each forked twice at random batch ends (one fork of a
    fork), every fork played on."""
    path = Path(tmp_path_factory.mktemp("replay")) / "w.db"
    keys = iter(bytes([k]) * 32 for k in range(1, 100))
    arb = on_database(path, create=True, clock=fixed_clock(), seeds=lambda: next(keys))
    rng = random.Random(17)
    games = []
    for n in range(2):
        game = arb.new_game(AE, game=f"ae-{n}")
        autoplay(arb, game, 45)
        fork = arb.fork(game, rng.choice(batch_ends(arb, game)[5:]), new_game=f"{game}-f")
        autoplay(arb, fork, 15)
        deeper = arb.fork(fork, rng.choice(batch_ends(arb, fork)[5:]), new_game=f"{fork}-f")
        autoplay(arb, deeper, 10)
        games += [game, fork, deeper]
    yield arb, games
    arb.store.close()


def fold_of_every_event(arb: Arbiter, game: str) -> Folded:
    """The game folded event by event, every row read and opened by its hash: what replay
    computed before it skipped rows and read openings by range."""
    loaded = arb.loaded(game)
    opener = Opener(arb.vault, game)
    rows = list(arb.store.read_rows(game))
    clears = opener.clears(rows)
    fold = Fold(loaded.ruleset)
    for (seq, type_, data, hash_), clear in zip(rows, clears, strict=True):
        fold.apply(seq, type_, data, hash_, loaded.codec.decode(type_, clear))
    return fold.folded


def same(a: Folded, b: Folded) -> bool:
    return (a.seq, a.hash, msgspec.msgpack.encode(a.meta), msgspec.msgpack.encode(a.state)) == (
        b.seq,
        b.hash,
        msgspec.msgpack.encode(b.meta),
        msgspec.msgpack.encode(b.state),
    )


def test_openings_read_by_range_are_the_openings_found_by_hash(
    played: tuple[Arbiter, list[str]],
) -> None:
    """Given games and their forks, when any stretch of a game's rows (a fork's reach into its
    parents') is opened by range, then each row's clear form is the one found by its hash."""
    arb, games = played
    rng = random.Random(4)
    for game in games:
        rows = list(arb.store.read_rows(game))
        by_range = Opener(arb.vault, game, arb.store.lineage(game))
        by_hash = Opener(arb.vault, game)
        for _ in range(30):
            lo = rng.randrange(len(rows))
            chunk = rows[lo : lo + rng.randint(1, 300)]
            assert by_range.clears(chunk) == by_hash.clears(chunk)


def test_replay_is_the_fold_of_every_event(played: tuple[Arbiter, list[str]]) -> None:
    """Given games and their forks, when each is replayed (inert rows left unread, openings by
    range), then the result is the fold of every event opened by hash: same seq, head hash,
    meta and state, byte for byte."""
    arb, games = played
    for game in games:
        replayed = arb.fold_log(game)
        assert replayed.hash == arb.head(game)[1]
        assert same(replayed, fold_of_every_event(arb, game))


def test_an_opening_kept_under_another_game_is_still_found(
    played: tuple[Arbiter, list[str]], tmp_path: Path
) -> None:
    """Given a game whose log is imported again under another id into the same database (its
    openings, found by hash, are now kept under the new game), when the first is replayed, then
    the openings its range read misses are found by hash and the fold is the same."""
    arb, games = played
    game = games[0]
    before = arb.fold_log(game)
    records = list(arb.export_records(game, opened=True))
    copy = arb.import_records(records, f"{game}-copy", despite_live_forks=True)
    assert arb.vault.clears_between(game, 1, arb.head(game)[0]) == {}
    assert same(arb.fold_log(game), before)
    assert same(arb.fold_log(copy), fold_of_every_event(arb, copy))


@pytest.mark.parametrize("name", registry.names())
def test_the_events_a_replay_skips_change_no_state(name: str) -> None:
    """Given a game of each bundled ruleset played by its policy, then every event of a type
    the replay skips unread (the core's commands and rolls, the ruleset's ``inert_events``)
    leaves the state as it was."""
    arb = Arbiter(MemoryStore(), registry.get, clock=fixed_clock(), seeds=lambda: bytes(range(32)))
    game = arb.new_game(name, game="g")
    autoplay(arb, game, 60)
    loaded = arb.loaded(game)
    ruleset = loaded.ruleset
    skipped = unread(ruleset)
    assert ruleset.inert_events <= {cls.type_name() for cls in ruleset.event_types}
    rows = list(arb.store.read_rows(game))
    fold = Fold(ruleset)
    met = 0
    clears = Opener(arb.vault, game).clears(rows)
    for (seq, type_, data, hash_), clear in zip(rows, clears, strict=True):
        event = loaded.codec.decode(type_, clear)
        if type_ in skipped and type_ not in CORE_TAGS:
            met += 1
            assert ruleset.evolve(fold.state, event) is fold.state
        fold.apply(seq, type_, data, hash_, event)
    assert met or not ruleset.inert_events
