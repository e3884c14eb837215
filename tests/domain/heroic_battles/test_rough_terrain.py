"""Any command test taken in rough terrain is on 2D6, the lowest counts (p.26; HB-36, since
version 2): a change of facing, an evade, a unit hit by missile fire, a retreat into friends, and
the tests a melee's fighters declared in rough terrain take after it (breaking, disengaging). An
Agile unit tests on 1D6 there (HB-30). A game begun under version 1 keeps 1D6 for them, and
refuses the new declarations."""

from __future__ import annotations

import pytest

from tests.domain.heroic_battles.helpers import (
    declare,
    engaged,
    fighting,
    game,
    phase,
    rolling,
    wounded,
)
from tests.given_when_then import Given, one
from warlog.domain.core.events import Event
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.values import RetreatOrder


def taken(events: list[Event]) -> ev.CommandTestTaken:
    return one(events, ev.CommandTestTaken)


def test_a_change_of_facing_in_rough_terrain_is_on_2d6_the_lowest_counts() -> None:
    """Given red's warriors in rough terrain, when they change facing with a 5 and a 2, then the
    2 counts and the test fails; the test names the rough terrain as why it is on 2D6."""
    g = game()
    events = g.when(c.ChangeFacing(player="red", unit="red-warriors", rough=True), dice=[5, 2])
    test = taken(events)
    assert (test.dice, test.score, test.passed) == (2, 2, False)
    assert test.reasons == ["change of facing", "in rough terrain"]
    assert (
        "(change of facing, in rough terrain): 2D6, the lowest counts: [5, 2] → 2" in test.explain()
    )


def test_an_agile_unit_tests_on_1d6_in_rough_terrain() -> None:
    """Given red's Agile skirmishers in rough terrain, when they change facing, then one die is
    rolled and no rough terrain is named (HB-30)."""
    g = game()
    events = g.when(c.ChangeFacing(player="red", unit="red-skirmishers", rough=True), dice=[4])
    assert (taken(events).dice, taken(events).reasons) == (1, ["change of facing"])


def test_an_evade_from_rough_terrain_is_on_2d6() -> None:
    """Given blue's scouts charged while in rough terrain, when they evade with a 6 and a 1,
    then the evade fails and the charge goes home."""
    g = game()
    g.when(c.Charge(player="red", unit="red-brutes", target="blue-scouts"), dice=[])
    events = g.when(c.Evade(player="blue", unit="blue-scouts", rough=True), dice=[6, 1])
    assert (taken(events).dice, taken(events).passed) == (2, False)


#: red's skirmishers shoot at blue's scouts, 1 ST away, declared in rough terrain
SCOUTS_SHOT_IN_ROUGH = c.Shoot(
    player="red",
    shooter="red-skirmishers",
    target="blue-scouts",
    distance=1,
    target_rough=True,
)


def test_a_unit_shot_in_rough_terrain_tests_on_2d6() -> None:
    """Given red's skirmishers shooting at blue's scouts, declared in rough terrain, when a shot
    hits, then the scouts' command test for the hit is on 2D6 and the shot's events say why."""
    g = game(*phase("skirmish", "red"))
    events = g.when(SCOUTS_SHOT_IN_ROUGH, dice=[5, 3, 3, 3, 3, 3])
    assert one(events, ev.TargetInRoughTerrain).unit == "blue-scouts"
    assert "HB-36" in one(events, ev.TargetInRoughTerrain).explain()
    assert one(events, ev.DiceAwaited).dice == 2
    test = taken(g.when(c.Roll(player="blue"), dice=[4, 2]))
    assert (test.dice, test.reasons, test.passed) == (
        2,
        ["hit by missile fire", "in rough terrain"],
        False,
    )


def test_a_unit_shot_in_rough_terrain_that_retreats_on_its_last_stamina_tests_to_break_on_2d6() -> (
    None
):
    """Given blue's scouts on their last stamina point, shot at by red's skirmishers and declared
    in rough terrain, when the hit's test fails and they retreat, then the break test they take
    as the retreat begins is on 2D6 too: they still stand where the shot found them (HB-36;
    HB-32)."""
    g = game(wounded("blue-scouts", 1), *phase("skirmish", "red"))
    g.when(
        SCOUTS_SHOT_IN_ROUGH, dice=[5, 3, 3, 3, 3, 3]
    )  # one hit: 0 stamina points lost against Armour 3
    g.when(c.Roll(player="blue"), dice=[2, 2])
    test = taken(g.when(c.AcceptTest(player="blue"), dice=[2, 5]))
    assert (test.dice, test.reasons, test.passed) == (
        2,
        ["retreating on its last stamina point", "in rough terrain"],
        False,
    )


def broken_in_rough(version: str) -> tuple[Given, list[Event]]:
    """Blue's steadfast (1 stamina left after red's hits), declared in rough terrain for the
    melee, loses it and must test or break as it retreats."""
    g = game(
        *engaged("red-brutes", "blue-steadfast"),
        wounded("blue-steadfast", 2),
        *fighting(),
        version=version,
    )
    g.when(declare("red"), dice=[])
    events = g.when(declare("blue", rough=["blue-steadfast"]), dice=[4, 4, 4] + [3] * 7 + [3] * 4)
    return g, events


def test_a_fighter_declared_in_rough_terrain_tests_on_2d6_when_it_must_rally() -> None:
    """Given blue's steadfast declared in rough terrain for the melee, when it loses and
    retreats on its last stamina point, then its test to rally is on 2D6 (since version 2)."""
    g, events = broken_in_rough("2")
    assert one(events, ev.RetreatBegan).unit == "blue-steadfast"
    assert one(events, ev.DiceAwaited).dice == 2
    test = taken(g.when(c.Roll(player="blue"), dice=[6, 2]))
    assert test.reasons == ["retreating on its last stamina point", "in rough terrain"]
    assert not test.passed


def test_version_1_keeps_a_rally_on_1d6_whatever_the_melee_declared() -> None:
    """Given the same melee in a game begun under version 1, then the rally is on 1D6."""
    g, events = broken_in_rough("1")
    assert one(events, ev.DiceAwaited).dice == 1
    assert taken(g.when(c.Roll(player="blue"), dice=[2])).reasons == [
        "retreating on its last stamina point"
    ]


def test_a_fighter_declared_in_rough_terrain_tests_on_2d6_to_disengage() -> None:
    """Given red's riders (Disengage) declared in rough terrain in a melee against warriors,
    when they try to disengage after it, then the test is on 2D6."""
    g = game(*engaged("red-riders", "blue-steadfast"), *fighting())
    g.when(declare("red", rough=["red-riders"]), dice=[])
    rolling(g, declare("blue"))
    assert g.ruleset.decision(g.state).kind == "disengage"
    events = g.when(c.Disengage(player="red", unit="red-riders"), dice=[5, 3])
    assert (taken(events).dice, taken(events).passed) == (2, True)


def retreating_blue_warriors() -> Given:
    order = RetreatOrder(unit="blue-warriors", half_st=1, cause="shooting")
    return game(
        ev.RetreatsOrdered(orders=[order]), ev.RetreatBegan(unit="blue-warriors", half_st=1)
    )


def test_a_retreat_into_friends_names_which_of_the_two_stand_in_rough_terrain() -> None:
    """Given blue's warriors retreating into the horde, when blue declares the horde in rough
    terrain, then the warriors test on 1D6 and the horde on 2D6; a unit that takes no test in
    that retreat, or a retreat not into friends, declares none."""
    g = retreating_blue_warriors()
    g.when_rejected(
        c.DeclareRetreat(
            player="blue", unit="blue-warriors", into="friends", friend="blue-horde",
            rough=["blue-giant"],
        ),
        code="rules/bad_retreat",
    )  # fmt: skip
    g.when_rejected(
        c.DeclareRetreat(
            player="blue", unit="blue-warriors", into="clear", rough=["blue-warriors"]
        ),
        code="rules/bad_retreat",
    )
    events = g.when(
        c.DeclareRetreat(
            player="blue", unit="blue-warriors", into="friends", friend="blue-horde",
            rough=["blue-horde"],
        ),
        dice=[4],
    )  # fmt: skip
    tests = one(events, ev.CommandTestsCalled).tests
    assert [(t.unit, t.dice) for t in tests] == [("blue-warriors", 1), ("blue-horde", 2)]


def test_a_retreating_unit_declared_in_rough_terrain_tests_on_2d6_as_it_runs_into_friends() -> None:
    """Given blue-warriors retreating into blue-horde, when blue declares the warriors in rough
    terrain, then the warriors test on 2D6 and the horde on 1D6 (sheet p.26: any test in rough
    terrain on 2D6, the lower; pp.47-48: both units test; HB-36)."""
    order = RetreatOrder(unit="blue-warriors", half_st=1, cause="shooting")
    g = game(ev.RetreatsOrdered(orders=[order]), ev.RetreatBegan(unit="blue-warriors", half_st=1))
    events = g.when(
        c.DeclareRetreat(
            player="blue", unit="blue-warriors", into="friends", friend="blue-horde",
            rough=["blue-warriors"],
        ),
        dice=[4, 4],
    )  # fmt: skip
    tests = one(events, ev.CommandTestsCalled).tests
    assert [(t.unit, t.dice) for t in tests] == [("blue-warriors", 2), ("blue-horde", 1)]


@pytest.mark.parametrize(
    "command",
    [
        c.ChangeFacing(player="red", unit="red-warriors", rough=True),
        c.Shoot(player="red", shooter="red-archers", target="blue-scouts", distance=3,
                target_rough=True),
    ],
)  # fmt: skip
def test_a_version_1_game_refuses_rough_terrain_for_its_other_tests(command: object) -> None:
    """Given a game begun under version 1, when a command declares rough terrain for a test
    other than a movement action's or a charge's, then it is refused, naming the version."""
    g = game(*(phase("shooting") if isinstance(command, c.Shoot) else ()), version="1")
    if isinstance(command, c.Shoot):
        g.when(c.EndShooting(player="blue"), dice=[])
    rejected = g.when_rejected(command, code="rules/bad_choice")
    assert "since version 2 of these rules (HB-36); this game plays version 1" in rejected.message


def test_rough_terrain_is_declared_only_for_a_unit_that_tests() -> None:
    """Given declarations of rough terrain for pieces that take no command test there (an
    unattached hero evading, a hero shot at, a Steadfast unit retreated into), then each is
    refused: the log would record a declaration the rules ignore."""
    g = game(*phase("movement", "blue"))
    g.when(c.Charge(player="blue", unit="blue-scouts", target="red-champion"), dice=[])
    g.when_rejected(c.Evade(player="red", unit="red-champion", rough=True), code="rules/bad_choice")
    g = game(*phase("skirmish", "red"))
    g.when_rejected(
        c.Shoot(player="red", shooter="red-skirmishers", target="blue-priest", distance=1,
                target_rough=True),
        code="rules/bad_choice",
    )  # fmt: skip
    g = retreating_blue_warriors()
    g.when_rejected(
        c.DeclareRetreat(
            player="blue", unit="blue-warriors", into="friends", friend="blue-steadfast",
            rough=["blue-steadfast"],
        ),
        code="rules/bad_retreat",
    )  # fmt: skip
