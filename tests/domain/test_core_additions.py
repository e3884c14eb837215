"""What the third ruleset added to the core, for every ruleset: ``Batch.rolled`` (has this
command rolled yet?), ``procedure.describe`` (what comes next, for a view) and ``ruleset.notify``
(one Events-view entry for every player)."""

from __future__ import annotations

import pytest

from warlog.domain.core.batch import Batch
from warlog.domain.core.dice import ManualDice
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import Event
from warlog.domain.core.procedure import Decision, describe
from warlog.domain.core.ruleset import Notice, notify


class Ticked(Event, frozen=True, tag="ticked"):
    n: int


def _count(state: int, event: Event) -> int:
    return state + 1


def test_a_batch_knows_once_it_has_rolled_dice() -> None:
    batch: Batch[int] = Batch(ManualDice([4, 2]), 0, _count)
    batch.emit(Ticked(n=1))
    assert not batch.rolled
    assert batch.roll(0, purpose="nothing") == [] and not batch.rolled  # no dice, no roll
    assert batch.roll(2, purpose="two dice") == [4, 2]
    assert batch.rolled and batch.state == 1


def test_a_manual_roll_short_of_its_one_die_says_die() -> None:
    # given a referee's list of no faces for a command that rolls one d6
    dice = ManualDice([])
    dice.faces(0, 1, 6)
    # when the command's dice are checked, then the refusal counts one die, not "1 dice"
    with pytest.raises(InputError) as refused:
        dice.check_all_used()
    assert str(refused.value).startswith(
        "this command needs 1 die (1 d6) in its 'dice' list; 0 given"
    )
    assert refused.value.code == "input/dice_count"


def test_describe_says_who_decides_what_and_where() -> None:
    assert describe(None) == {}
    assert describe(lambda batch: None) == {"players": [], "kind": "auto", "options": []}
    turn = Decision(players=("red",), kind="movement", answers=("move",), waiting="red moves")
    assert describe(turn) == {"players": ["red"], "kind": "movement"}
    choice = Decision(
        players=("blue",),
        kind="retreat",
        answers=("declare_retreat",),
        waiting="blue declares",
        procedure="retreat",
        options=("clear", "blocked"),
        about={"unit": "blue-horde"},
    )
    assert describe(choice) == {
        "players": ["blue"],
        "kind": "retreat",
        "procedure": "retreat",
        "unit": "blue-horde",
        "options": ["clear", "blocked"],
    }


def test_notify_posts_the_same_entry_to_every_player() -> None:
    assert notify(["red", "blue"], "turn 2: red gain 1 token", 2) == [
        Notice(empire="red", text="turn 2: red gain 1 token", duration=2),
        Notice(empire="blue", text="turn 2: red gain 1 token", duration=2),
    ]


def test_a_roll_waits_only_after_this_batch_has_rolled() -> None:
    from warlog.domain.core.rolls import roll_waits

    batch: Batch[int] = Batch(ManualDice([5]), 0, _count)
    assert not roll_waits(batch, 3) and not roll_waits(batch, 0, hidden=True)
    batch.roll(1, purpose="first")
    assert roll_waits(batch, 3)
    assert not roll_waits(batch, 0)  # a public roll of no dice rolls nothing
    assert roll_waits(batch, 0, hidden=True)  # a hidden one would be recorded: it waits


def test_the_decision_of_an_awaited_roll_names_its_roller_and_what_for() -> None:
    from warlog.domain.core.rolls import AwaitedRoll, roll_decision

    public = roll_decision(AwaitedRoll(roller="red", what="challenge 3", dice=1), ("roll",))
    assert (public.players, public.kind, public.answers) == (("red",), "roll", ("roll",))
    assert public.procedure == "roll"  # a view describes where and how many (``describe``)
    assert public.waiting == "red to roll 1 die (challenge 3)"
    assert public.about == {"what": "challenge 3", "dice": "1"}
    hidden = roll_decision(AwaitedRoll(roller="blue", what="collateral damage"), ("roll",))
    assert hidden.waiting == "blue to roll (collateral damage)" and "dice" not in hidden.about
