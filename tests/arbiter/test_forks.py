"""Forks: the batch ends a fork may cut at, the fork's first fold held, and the live games that
share hidden history with a game (its family, a game imported from an export of it)."""

from __future__ import annotations

import pytest

from tests.arbiter.conftest import play
from warlog.arbiter.application import Arbiter
from warlog.arbiter.forks import (
    LiveSharers,
    batch_ends_near,
    fork_game,
    live_relatives,
    live_sharers,
)
from warlog.domain.core.errors import InputError
from warlog.eventstore.chain import GENESIS, link
from warlog.eventstore.records import Record


def test_the_batch_ends_near_a_seq_are_the_last_events_of_the_batches_around_it(
    arb: Arbiter, race: str
) -> None:
    # given batches 2-5, 6-9, 10-13 after game_created
    assert batch_ends_near(arb.store, race, 3) == (1, 5)
    assert batch_ends_near(arb.store, race, 5) == (5, 9)
    assert batch_ends_near(arb.store, race, 12) == (9, 13)


def test_a_fork_holds_its_first_fold_and_draws_its_key_from_the_seeds_it_is_given(
    arb: Arbiter, race: str
) -> None:
    drawn: list[int] = []

    def seeds() -> bytes:
        drawn.append(1)
        return bytes(range(2, 34))

    forked = fork_game(
        arb,
        race,
        9,
        new_game="f1",
        dice="new",
        seeds=seeds,
        clock=lambda: "2026-11-22T00:01:00.000Z",
    )
    assert forked == "f1" and drawn == [1]
    held = arb.states.folded("f1")
    assert held.seq == 10 and held.state == arb.states.folded(race, 9).state
    assert held.state == arb.states.fold_log("f1").state


def test_a_fork_still_being_played_is_a_live_relative_until_its_seed_is_revealed(
    arb: Arbiter, race: str
) -> None:
    # given a fork f1 of g1 and a fork f2 of f1
    arb.fork(race, 9, new_game="f1")
    arb.fork("f1", 10, new_game="f2")
    assert live_relatives(arb, race) == ["f1", "f2"]
    assert live_relatives(arb, "f2") == ["f1", "g1"]
    # when f1 plays on and is revealed, then it keeps no secret any more
    play(arb, "f1", 1)
    arb.reveal("f1", despite_live_forks=True)
    assert live_relatives(arb, race) == ["f2"]


def test_a_cut_inside_the_last_batch_is_refused_naming_the_batch_ends_around_it(
    arb: Arbiter, race: str
) -> None:
    """Given batches 2-5, 6-9, 10-13, when g1 is forked at 12, one event before its head,
    then it is refused, naming 9 or 13, and no game is created (ARCHITECTURE.md, "Events and
    the log": N must end a command's batch)."""
    with pytest.raises(InputError, match=r"fork at a batch end \(9 or 13\)") as refused:
        arb.fork(race, 12, new_game="f1")
    assert refused.value.code == "input/inside_batch"
    assert [info.game for info in arb.store.games()] == [race]


@pytest.mark.parametrize("at", [0, 14])
def test_a_cut_outside_the_game_is_refused_naming_its_events(
    arb: Arbiter, race: str, at: int
) -> None:
    """Given g1 of events 1..13, when it is forked before its first event or after its head,
    then it is refused (input/bad_seq), naming the events it has, and no game is created."""
    with pytest.raises(InputError) as refused:
        arb.fork(race, at, new_game="f1")
    assert (refused.value.code, refused.value.message) == (
        "input/bad_seq",
        f"game {race} has events 1..13; cannot fork at {at}",
    )
    assert [info.game for info in arb.store.games()] == [race]


def test_a_fork_with_dice_neither_new_nor_same_is_refused(arb: Arbiter, race: str) -> None:
    """The library's own guard (the command line offers only new and same)."""
    with pytest.raises(InputError) as refused:
        arb.fork(race, 9, new_game="f1", dice="old")
    assert refused.value.code == "input/bad_dice_choice"
    assert [info.game for info in arb.store.games()] == [race]


def test_a_same_dice_fork_of_a_revealed_fork_keeps_no_secret_from_its_grandparent(
    arb: Arbiter, race: str
) -> None:
    """Given f1, a new-dice fork of g1, revealed, and f2, a same-dice fork of f1 playing on
    f1's public seed, when g1's live relatives are asked for, then there are none: f2 keeps
    no secret that g1's reveal could tell (``Arbiter.live_relatives``)."""
    arb.fork(race, 9, new_game="f1")
    play(arb, "f1", 1)
    arb.reveal("f1", despite_live_forks=True)
    head, _ = arb.store.head("f1")
    arb.fork("f1", head, new_game="f2", dice="same")
    play(arb, "f2", 1)
    assert live_relatives(arb, race) == []


def test_a_relative_sharing_an_unrevealed_ancestor_is_live_though_an_older_one_is_revealed(
    arb: Arbiter, race: str
) -> None:
    """Given f1, a fork of g1 played on, and f2 and f3, forks of f1, when g1 is revealed and
    f2's live relatives are asked for, then f1 and f3 are: they share f1's history with f2,
    sealed under f1's seed, which is still secret; only g1's is public."""
    arb.fork(race, 9, new_game="f1")
    play(arb, "f1", 1)
    head, _ = arb.store.head("f1")
    arb.fork("f1", head, new_game="f2")
    arb.fork("f1", head, new_game="f3")
    arb.reveal(race, despite_live_forks=True)
    assert live_relatives(arb, "f2") == ["f1", "f3"]


def test_sibling_forks_share_no_secret_once_their_common_parent_is_revealed(
    arb: Arbiter, race: str
) -> None:
    """Given f1 and f2, new-dice forks of g1 at 9, each played on, when g1 is revealed, then
    f1 has no live relative: f2 shares with it only g1's history, whose seed is public, and
    g1's play is over; so f1's reveal tells f2 nothing."""
    arb.fork(race, 9, new_game="f1")
    arb.fork(race, 9, new_game="f2")
    play(arb, "f1", 1)
    play(arb, "f2", 1)
    assert live_relatives(arb, "f1") == ["f2", "g1"]
    arb.reveal(race, despite_live_forks=True)
    assert live_relatives(arb, "f1") == []


def test_a_fork_whose_game_is_over_is_no_live_relative(arb: Arbiter, race: str) -> None:
    """Given f1, a new-dice fork of g1 at 9, played until someone won the race, when g1's live
    relatives are asked for, then there are none: f1 is no longer being played, so g1's reveal
    can change none of its play."""
    arb.fork(race, 9, new_game="f1")
    over = arb.ruleset_of("f1").is_terminal
    for _ in range(100):
        if over(arb.state("f1")):
            break
        play(arb, "f1", 1)
    assert over(arb.state("f1")) and not arb.folded("f1").meta.revealed
    assert live_relatives(arb, race) == []


def copy_of(arb: Arbiter, game: str, copy: str) -> str:
    """``copy``: ``game`` imported from its referee's record (``export --open``) into the same
    database, as the organiser keeps a record of a game and imports it again: despite the
    refusal of a log that plays by a live game's key (as a database holds such copies made
    before that refusal, or by an organiser who said so)."""
    records = list(arb.export_records(game, opened=True))
    return arb.import_records(records, copy, despite_live_forks=True)


def test_a_game_imported_from_an_open_record_of_a_live_game_shares_its_key_both_ways(
    arb: Arbiter, race: str
) -> None:
    """Given g1 still being played and c1 imported from its open record (no lineage in the
    catalogue, the same key), when the live games sharing hidden history with either are
    asked for, then each names the other, as one that shares its key; and a copy of the copy
    shares it with both."""
    copy_of(arb, race, "c1")
    assert arb.store.info("c1").parent is None
    assert live_sharers(arb, race) == LiveSharers(family=[], keyed=["c1"])
    assert live_sharers(arb, "c1") == LiveSharers(family=[], keyed=[race])
    copy_of(arb, "c1", "c2")
    assert live_relatives(arb, "c2") == ["c1", race]


def test_a_fork_and_a_copy_of_it_share_the_forks_key_once_the_parent_is_revealed(
    arb: Arbiter, race: str
) -> None:
    """Given f1, a new-dice fork of g1 played on, and c1 imported from f1's open record, when
    g1 is revealed (its key public), then f1 and c1 still share f1's key, which c1's log puts
    in force at its own game_forked event: each is the other's live sharer, and g1 has none
    (it shares only its public key with them)."""
    arb.fork(race, 9, new_game="f1")
    play(arb, "f1", 1)
    copy_of(arb, "f1", "c1")
    arb.reveal(race, despite_live_forks=True)
    assert live_sharers(arb, "f1") == LiveSharers(family=[], keyed=["c1"])
    assert live_sharers(arb, "c1") == LiveSharers(family=[], keyed=["f1"])
    assert live_relatives(arb, race) == []


def test_a_fork_of_a_copy_cut_before_its_game_forked_holds_none_of_that_forks_key(
    arb: Arbiter, race: str
) -> None:
    """Given c1, imported from the open record of f1 (a fork of g1 at 9, played on), g1
    revealed, and x1, a fork of c1 at 9, before c1's game_forked put f1's key in force, when
    f1's live sharers are asked for, then c1 is one and x1 is not: x1 read only g1's events,
    under g1's public key."""
    arb.fork(race, 9, new_game="f1")
    play(arb, "f1", 1)
    copy_of(arb, "f1", "c1")
    arb.reveal(race, despite_live_forks=True)
    arb.fork("c1", 9, new_game="x1")
    assert live_relatives(arb, "f1") == ["c1"]


def test_a_log_that_claims_a_live_games_key_in_another_first_event_shares_it(
    arb: Arbiter, race: str
) -> None:
    """Given h1, imported from a log whose only event is g1's game_created written at another
    time (another hash: no copy of g1's row, yet the same commitment, which this vault holds),
    when g1's live sharers are asked for, then h1 is one: its reveal would publish g1's key."""
    first = next(iter(arb.export_records(race)))
    at = "2020-01-01T00:00:00.000Z"
    forged = Record(
        1, first.type, first.data, at, GENESIS, link(GENESIS, 1, first.type, at, first.data)
    )
    arb.import_records([forged], "h1", despite_live_forks=True)
    assert live_relatives(arb, race) == ["h1"]
    assert live_relatives(arb, "h1") == [race]
