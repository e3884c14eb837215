"""A hidden roll over several owners' pieces, made once per owner (``core.owned_rolls``): each
owner's roll holds its own pieces alone, in the owners' order, a roll of none recorded, each
the referee's."""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.core.dice import ManualDice
from warlog.domain.core.events import DiceRolled, Event
from warlog.domain.core.owned_rolls import owned_purpose, owner_of, roll_pieces
from warlog.domain.core.seal import secrets_of


def keep(state: int, event: Event) -> int:
    return state


#: red's two pieces around blue's one: red takes 2 dice then 1, blue 3
PIECES = [("red", 2), ("blue", 3), ("red", 1)]


def test_each_owner_rolls_its_own_pieces_in_the_owners_order_and_none_is_recorded() -> None:
    # given the faces in the order they are rolled
    batch: Batch[int] = Batch(ManualDice([6, 5, 4, 1, 2, 3]), 0, keep)
    # when the pieces are rolled for blue, red and green
    faces = roll_pieces(batch, PIECES, 6, purpose="fallout", owners=("blue", "red", "green"))
    # then blue's roll comes first and holds its piece's dice alone, red's holds its two pieces'
    # in their order, and green's, of no piece, is recorded with no dice
    assert batch.events == [
        DiceRolled(sides=6, faces=[6, 5, 4], purpose="fallout: blue's", hidden=True),
        DiceRolled(sides=6, faces=[1, 2, 3], purpose="fallout: red's", hidden=True),
        DiceRolled(sides=6, faces=[], purpose="fallout: green's", hidden=True),
    ]
    assert faces == [(1, 2), (6, 5, 4), (3,)]
    # each sealed for nobody but the referee
    assert {owner for e in batch.events for _, owner in secrets_of(e)} == {""}


def test_with_no_owners_one_roll_holds_every_piece_in_order() -> None:
    batch: Batch[int] = Batch(ManualDice([6, 5, 4, 1, 2, 3]), 0, keep)
    faces = roll_pieces(batch, PIECES, 6, purpose="fallout", owners=None)
    assert batch.events == [
        DiceRolled(sides=6, faces=[6, 5, 4, 1, 2, 3], purpose="fallout", hidden=True)
    ]
    assert faces == [(6, 5), (4, 1, 2), (3,)]


def test_every_roll_is_of_the_dice_asked_for_split_or_not() -> None:
    for owners in (("red", "blue"), None):
        batch: Batch[int] = Batch(ManualDice([8, 7, 6, 5, 4, 3]), 0, keep)
        roll_pieces(batch, PIECES, 8, purpose="scatter", owners=owners)
        assert {e.sides for e in batch.events if isinstance(e, DiceRolled)} == {8}


def test_an_owner_s_roll_names_its_owner_and_a_roll_of_no_owner_names_none() -> None:
    # given the purposes of split rolls, and of rolls no owner's split made
    for owner in ("red", "blue"):
        # then each owner's roll is read back as that owner's
        assert owner_of(owned_purpose("air strike 1 collateral", owner)) == owner
    for purpose in ("fallout", "challenge 1: Test Nuke (red.nuke.1)", "air strike 1: 's", "x: 's"):
        assert owner_of(purpose) is None
