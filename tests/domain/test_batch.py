"""The folding Batch's rolls: a public pool of 0 dice records nothing; a hidden roll is recorded
even with 0 dice, so that whether it happened tells nothing of its count."""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.core.dice import ManualDice
from warlog.domain.core.events import DiceRolled, Event
from warlog.domain.core.seal import secrets_of


def keep(state: int, event: Event) -> int:
    return state + 1


def test_a_public_pool_of_no_dice_records_nothing() -> None:
    batch: Batch[int] = Batch(ManualDice([]), 0, keep)
    assert batch.roll(0, purpose="nothing", roller="red") == []
    assert batch.events == []


def test_a_hidden_roll_is_recorded_whatever_its_count_with_its_faces_sealed() -> None:
    for count, faces in ((0, []), (3, [4, 1, 6])):
        batch: Batch[int] = Batch(ManualDice(faces), 0, keep)
        assert batch.roll(count, purpose="observation by red", roller="", hidden=True) == faces
        (event,) = batch.events
        assert event == DiceRolled(
            sides=6, faces=faces, purpose="observation by red", roller="", hidden=True
        )
        # sealed for every player: the owner is nobody's name
        assert secrets_of(event) == [("faces", "")]
        assert batch.state == 0  # a roll changes no state
