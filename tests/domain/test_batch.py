"""The folding Batch's rolls: a public pool of 0 dice records nothing; a hidden roll is recorded
even with 0 dice, so that whether it happened tells nothing of its count."""

from __future__ import annotations

import pytest

from warlog.domain.core.batch import Batch
from warlog.domain.core.dice import ManualDice
from warlog.domain.core.errors import RulesError
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


class AskedDice:
    """Dice that answer 1s and remember what each roll asked: (offset, count, sides)."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, int, int]] = []

    def faces(self, offset: int, count: int, sides: int) -> list[int]:
        self.asked.append((offset, count, sides))
        return [1] * count


def test_a_roll_is_derived_from_the_position_its_event_takes() -> None:
    # given a batch that has emitted one event and rolled once
    dice = AskedDice()
    batch: Batch[int] = Batch(dice, 0, keep)
    batch.emit(DiceRolled(sides=6, faces=[], purpose="an event before"))
    batch.roll(2, purpose="first")
    # when it rolls again
    batch.roll(1, 8, purpose="second")
    # then each roll was asked of the dice at the index its event took in the batch
    assert dice.asked == [(1, 2, 6), (2, 1, 8)]
    assert [e.purpose for e in batch.events[1:]] == ["first", "second"]  # type: ignore[attr-defined]


def test_a_hidden_roll_of_a_pool_below_nothing_asks_for_no_dice() -> None:
    dice = AskedDice()
    batch: Batch[int] = Batch(dice, 0, keep)
    assert batch.roll(-2, purpose="a pool cut below nothing", hidden=True) == []
    assert dice.asked == [(0, 0, 6)]


def test_a_die_the_dice_contract_does_not_define_is_refused_whatever_the_dice() -> None:
    batch: Batch[int] = Batch(ManualDice([1]), 0, keep)
    with pytest.raises(RulesError) as info:
        batch.roll(1, 257, purpose="a scenario's too many choices")
    assert info.value.code == "rules/die_too_large"
    assert batch.events == []
