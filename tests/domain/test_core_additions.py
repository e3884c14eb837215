"""What the third ruleset added to the core, for every ruleset: ``Batch.rolled`` (has this
command rolled yet?), ``procedure.describe`` (what comes next, for a view) and ``ruleset.notify``
(one Events-view entry for every player)."""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.core.dice import ManualDice
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
