"""Observation and detection (R7; p.27, p.30, p.48; AE-17, AE-18): the dice, the hidden checks
of each window, what each empire sights, and that the log tells the hidden side nothing."""

from __future__ import annotations

import pytest

from tests.domain.armageddon_empires.arena import arena, begin
from tests.domain.armageddon_empires.helpers import army_block, only, sight
from warlog.domain.armageddon_empires.commands import BuyInitiative, MoveArmy
from warlog.domain.armageddon_empires.events import ArmyMoved, RoundBegan
from warlog.domain.armageddon_empires.observation import (
    detection_pool,
    observation_into,
    observation_purpose,
)
from warlog.domain.armageddon_empires.sighting_events import ArmiesSighted, ObservationChecked
from warlog.domain.core.events import DiceRolled
from warlog.domain.core.seal import secrets_of

#: the p.27 example: a Recce S6, R1 one hex from a stealth 5 army in the desert (4,1)
WATCH = army_block("red-watch", "red", "3,1", units=("farsight",))
SHADE = army_block("blue-shade", "blue", "4,1", hero="shade") + "stealthed = true\n"


def test_the_p27_example_two_dice_one_success_against_three_stays_hidden() -> None:
    g = arena(WATCH + SHADE)
    g.when(BuyInitiative(player="red", count=0))
    # the initiative tie-break (6, 1), then red's hidden roll: 2 observation dice, 5 stealth dice
    events = g.when(BuyInitiative(player="blue", count=0), dice=[6, 1, 5, 2, 6, 5, 4, 1, 1])
    rolls = [e for e in events if isinstance(e, DiceRolled) and e.hidden]
    assert [(r.purpose, r.faces, r.roller) for r in rolls] == [
        (observation_purpose("red"), [5, 2, 6, 5, 4, 1, 1], ""),
        (observation_purpose("blue"), [], ""),
    ]
    checked = [e for e in events if isinstance(e, ObservationChecked)]
    (check,) = checked[0].checks
    assert check.observer.text() == (
        "2 = 2 (Recce S6, R1 of Test Farsight in red-watch: 6 − range 1 − desert 0 = 5, halved "
        "against stealth (p.27))"
    )
    assert check.hider.text() == "5 = 5 (Stealth 5, the lowest in the army (p.27; R7))"
    assert not check.detected
    assert "1 success; detection" in check.text() and "stays hidden" in check.text()
    sighted = [e for e in events if isinstance(e, ArmiesSighted)]
    assert [s.seen for s in sighted] == [(), ()]
    assert g.state.sightings == {"red": {}, "blue": {}}
    # the dice and the checks are sealed for every player, what red saw for red alone
    assert secrets_of(rolls[0]) == [("faces", "")]
    assert secrets_of(checked[0]) == [("checks", None)]
    assert secrets_of(sighted[0]) == [("seen", "red"), ("lost", "red")]


def test_a_won_check_sights_the_army_for_the_round_with_its_arithmetic() -> None:
    g = arena(WATCH + SHADE)
    g.when(BuyInitiative(player="red", count=0))
    g.when(BuyInitiative(player="blue", count=0), dice=[6, 1, 5, 6, 1, 1, 1, 1, 1])
    seen = g.state.sightings["red"]["blue-shade"]
    assert (seen.at, seen.hero, seen.stealthed, seen.how) == (
        "4,1",
        "blue.shade.1",
        True,
        "observation",
    )
    assert "2 successes against 0 on 5 detection dice (R7)" in seen.detail
    g.events(RoundBegan(round=2, last_round=4))
    assert g.state.sightings == {}


def test_ties_stay_hidden() -> None:
    g = arena(WATCH + SHADE)
    g.when(BuyInitiative(player="red", count=0))
    g.when(BuyInitiative(player="blue", count=0), dice=[6, 1, 5, 1, 6, 1, 1, 1, 1])
    assert g.state.sightings["red"] == {}


@pytest.mark.parametrize(("units", "dice"), [(1, 3), (2, 3), (3, 2), (5, 2), (6, 1), (8, 1)])
def test_detection_dice_of_an_army_that_is_not_stealthed(units: int, dice: int) -> None:
    g = arena(army_block("blue-host", "blue", "4,2", units=("trooper",) * units))
    assert detection_pool(g.state, g.state.armies["blue-host"]).size == dice


def test_a_hero_alone_rolls_3_and_a_stealthed_army_its_lowest_stealth() -> None:
    mixed = army_block("blue-mix", "blue", "4,2", hero="shade", units=("wisp",))
    g = arena(army_block("blue-lone", "blue", "4,0", hero="quarry") + mixed + "stealthed = true\n")
    assert detection_pool(g.state, g.state.armies["blue-lone"]).size == 3
    assert detection_pool(g.state, g.state.armies["blue-mix"]).size == 4  # Stealth 5 and 4


def test_camouflage_at_a_base_hides_its_garrison_behind_its_dice() -> None:
    g = arena()
    pool = detection_pool(g.state, g.state.armies["blue-hq-garrison"])
    assert pool.size == 5 and "Camouflage 5 of Test Veil" in pool.text()


def test_observation_is_strength_minus_range_minus_terrain_and_none_at_zero_or_beyond_range() -> (
    None
):
    g = arena(army_block("red-eye", "red", "1,1", units=("eye",)))
    # Recce S5, R1 into the badlands next door: 5 − 1 − 1 = 3; halved against stealth: 1
    assert observation_into(g.state, "red", "2,1", False).value == 3  # type: ignore[union-attr]
    assert observation_into(g.state, "red", "2,1", True).value == 1  # type: ignore[union-attr]
    assert observation_into(g.state, "red", "3,1", False) is None  # beyond range 1


def test_a_sniffer_sees_its_own_hex_unreduced_and_unhalved() -> None:
    g = arena()
    eye = observation_into(g.state, "red", "0,0", True)
    assert eye is not None and eye.value == 3 and "Sniffer 3" in eye.label


def test_every_move_gives_each_empire_one_window_whatever_it_checked() -> None:
    g = begin(arena(WATCH + SHADE))
    events = g.when(MoveArmy(player="red", army="red-watch", to="3,2"), dice=[1] * 7)
    assert [e.type_name() for e in events] == [
        "army_moved",
        *(["dice_rolled", "observation_checked", "armies_sighted"] * 2),
    ]
    moved = only(events, ArmyMoved)
    # which army, where and for how much is sealed for blue; the move's empire is not
    assert {path for path, _ in secrets_of(moved)} >= {"army", "origin", "to", "ap_cost", "steps"}
    assert all(owner == "red" for _, owner in secrets_of(moved))


def test_a_sighted_army_that_moves_out_of_sight_is_lost() -> None:
    g = begin(arena(WATCH + army_block("blue-run", "blue", "4,1", hero="quarry")), first="blue")
    sight(g, "red", "blue-run")
    events = g.when(MoveArmy(player="blue", army="blue-run", to="6,1"))
    red_window = [e for e in events if isinstance(e, ArmiesSighted) and e.observer == "red"]
    assert red_window[0].lost == ("blue-run",)
    assert "blue-run" not in g.state.sightings["red"]


def test_a_moving_recce_checks_the_enemy_armies_it_does_not_see_yet() -> None:
    g = begin(arena(WATCH + army_block("blue-far", "blue", "5,2", units=("trooper",))))
    # red-watch moves next to blue-far: 6 − 1 − 0 = 5 dice against 3
    events = g.when(MoveArmy(player="red", army="red-watch", to="4,2"), dice=[6] * 5 + [1] * 3)
    checked = [e for e in events if isinstance(e, ObservationChecked) and e.observer == "red"]
    assert [c.army for c in checked[0].checks] == ["blue-far"]
    assert "blue-far" in g.state.sightings["red"]
