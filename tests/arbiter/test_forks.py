"""Forks: the batch ends a fork may cut at, the fork's first fold held, and a game's live family."""

from __future__ import annotations

import pytest

from tests.arbiter.conftest import play
from warlog.arbiter.application import Arbiter
from warlog.arbiter.forks import batch_ends_near, fork_game, live_relatives
from warlog.domain.core.errors import InputError


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
