"""Rolls that wait for their own command (AE-37): the ``roll`` that answers an awaited roll.
The set-up: ``battle_helpers``."""

from __future__ import annotations

from tests.domain.armageddon_empires.battle_helpers import VERSUS_FOX, attack_at, committed, field
from tests.domain.armageddon_empires.helpers import only
from tests.given_when_then import Given, of
from warlog.domain.armageddon_empires.battle_events import RollCalled
from warlog.domain.armageddon_empires.challenge_events import ChallengeOpened
from warlog.domain.armageddon_empires.commands import NextRound, Roll
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.core.events import DiceRolled


def awaiting_the_second_retreat() -> Given:
    """Blue's Trickster army retreats before round one; its plated's retreat challenge rolled,
    the trooper's waits for red's roll (AE-37)."""
    g = committed(attack_at(field(VERSUS_FOX), "red-x", "4,0"))
    g.when(NextRound(player="blue", choice="retreat_army"), dice=[6, 6, 1])
    return g


def test_the_awaited_roll_is_called_by_its_roller_and_the_waiting_step_rolls_in_its_batch() -> None:
    # given the game waiting for red to roll the pursuit of blue's trooper
    g = awaiting_the_second_retreat()
    awaiting = g.state.awaiting
    assert awaiting is not None and awaiting.roller == "red"
    assert RULESET.legal_commands(g.state, "red") == [Roll(player="red")]
    # when red rolls
    events = g.when(Roll(player="red"), dice=[6, 5, 4, 3, 2])
    # then the roll is called first, naming the roller and what waited, and the game waits no more
    called = only(events, RollCalled)
    assert events[0] == called
    assert called == RollCalled(roller="red", what=awaiting.what)
    assert called.what == "battle 1: the retreat of Test Trooper (blue.trooper.1)"
    assert g.state.awaiting is None
    # and the step that waited rolls its 5 dice in the same batch (2 pursuers + 3 defence): the
    # trooper's retreat challenge, its pools' dice in the order given
    opened = only(events, ChallengeOpened).challenge
    assert (opened.number, opened.purpose) == (2, "battle 1 retreat")
    assert opened.defender.name == "Test Trooper (blue.trooper.1)"
    assert (opened.attacker.faces, opened.defender.faces) == ((6, 5), (4, 3, 2))
    rolled = [(d.roller, d.faces) for d in of(events, DiceRolled)]
    assert rolled == [("red", [6, 5]), ("blue", [4, 3, 2])]
    assert called.explain() == (
        "red rolls for battle 1: the retreat of Test Trooper (blue.trooper.1) (AE-37)"
    )
