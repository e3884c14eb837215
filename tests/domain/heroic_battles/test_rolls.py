"""Rolls that wait for their own command (HB-34): the ``roll`` that answers an awaited roll."""

from __future__ import annotations

from tests.domain.heroic_battles.helpers import declare, engaged, fighting, game
from tests.given_when_then import one, tags
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev


def test_an_awaited_roll_is_cast_by_its_roller_and_the_step_that_waited_rolls_in_its_batch() -> (
    None
):
    # given red's charging brutes rolled two 1s in melee: their re-roll waits for red (HB-34)
    g = game(*engaged("red-brutes", "blue-steadfast"), *fighting())
    g.when(declare("red"), dice=[])
    g.when(declare("blue"), dice=[1, 1, 5] + [3] * 7 + [3] * 13)
    awaiting = g.state.awaiting
    assert awaiting is not None and (awaiting.roller, awaiting.dice) == ("red", 2)
    # when red rolls
    events = g.when(c.Roll(player="red"), dice=[4, 1])
    # then the roll is cast first, naming the roller and what waited, and nothing waits any more
    cast = one(events, ev.DiceCast)
    assert events[0] == cast == ev.DiceCast(roller="red", what="1s of red re-rolled in melee-1")
    assert cast.what == awaiting.what
    assert g.state.awaiting is None
    # and the 1s are re-rolled in the same batch, on the 2 dice red typed
    assert tags(events)[1:3] == ["dice_rolled", "ones_rerolled"]
    assert cast.explain() == "red rolls: 1s of red re-rolled in melee-1 (HB-34)"
