"""Movement (pp.30–40) and command tests (p.26): movement actions by type, the tests the sheet
requires and on how many dice, Mighty Deed re-rolls, changing facing, heroes joining and leaving."""

from __future__ import annotations

from msgspec.structs import replace

from tests.domain.heroic_battles.helpers import (
    BLUE_MOVES,
    engaged,
    game,
    lost,
    proving_ground,
    with_hero_trait,
    wounded,
)
from tests.given_when_then import of, one, tags
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.scenario import Scenario


def move(unit: str, player: str = "red", **kw: object) -> c.Move:
    return c.Move(player=player, unit=unit, **kw)  # type: ignore[arg-type]


# -- movement actions by type ------------------------------------------------------------------------


def test_a_fresh_unit_takes_its_first_movement_action_without_a_test() -> None:
    g = game()
    events = g.when(move("red-warriors"), dice=[])
    assert one(events, ev.UnitMoved) == ev.UnitMoved(
        unit="red-warriors", action=1, half_st=2, direction="ahead"
    )
    assert "up to 1 ST straight ahead" in events[0].explain()


def test_riders_move_2_st_and_warriors_half_distance_in_any_direction_skirmishers_full() -> None:
    g = game()
    assert one(g.when(move("red-riders"), dice=[]), ev.UnitMoved).half_st == 4
    assert one(g.when(move("red-warriors", direction="any"), dice=[]), ev.UnitMoved).half_st == 1
    assert one(g.when(move("red-skirmishers", direction="any"), dice=[]), ev.UnitMoved).half_st == 2


def test_a_hero_on_foot_moves_1_st_a_mounted_or_flying_hero_further() -> None:
    """p.30: heroes on foot 1 ST a movement action, mounted heroes 2 ST, Flying units and heroes
    4 ST (a Flying unit of warriors straight ahead)."""
    g = game()
    assert one(g.when(move("red-champion", direction="any"), dice=[]), ev.UnitMoved).half_st == 2
    for trait, half_st in (("mounted", 4), ("flying", 8)):
        g = game(scenario=with_hero_trait("red-champion", trait))
        moved = one(g.when(move("red-champion", direction="any"), dice=[]), ev.UnitMoved)
        assert moved.half_st == half_st
    g = game(scenario=with_trait("red-warriors", "flying"))
    assert one(g.when(move("red-warriors"), dice=[]), ev.UnitMoved).half_st == 8


def with_trait(unit: str, trait: str) -> Scenario:
    """The proving ground with ``unit`` (of either force) given ``trait`` too."""
    sc = proving_ground()
    forces = [
        replace(
            f, units=[replace(u, traits=[*u.traits, trait]) if u.id == unit else u for u in f.units]
        )
        for f in sc.forces
    ]
    return replace(sc, forces=forces)


def test_a_slow_unit_takes_one_movement_action_a_phase() -> None:
    """Slow (trait, p.70): one movement action, not two (p.30)."""
    g = game(scenario=with_trait("red-warriors", "slow"))
    g.when(move("red-warriors"), dice=[])
    refused = g.when_rejected(move("red-warriors"), code="rules/movement_over")
    assert "it has taken its 1 movement action (" in str(refused)


def test_a_reluctant_unit_tests_for_every_movement_action() -> None:
    """Reluctant (trait, p.69): a command test for its first action too, named once; its second
    action tests for being the second, as any unit's does."""
    g = game(scenario=with_trait("red-warriors", "reluctant"))
    taken = one(g.when(move("red-warriors"), dice=[3]), ev.CommandTestTaken)
    assert (taken.dice, taken.passed) == (1, True)
    assert taken.reasons == ["Reluctant: every movement action (p.69)"]
    taken = one(g.when(move("red-warriors"), dice=[3]), ev.CommandTestTaken)
    assert taken.reasons == ["second movement action"]


# -- command tests for movement (p.26) ------------------------------------------------------------------


def test_a_second_movement_action_needs_a_command_test_passed_on_3_or_more() -> None:
    g = game()
    g.when(move("red-warriors"), dice=[])
    events = g.when(move("red-warriors"), dice=[3])
    taken = one(events, ev.CommandTestTaken)
    assert (taken.dice, taken.faces, taken.passed) == (1, [3], True)
    assert taken.reasons == ["second movement action"]
    assert one(events, ev.UnitMoved).action == 2


def test_a_failed_test_stops_the_unit_and_ends_its_movement() -> None:
    g = game()
    g.when(move("red-warriors"), dice=[])
    events = g.when(move("red-warriors"), dice=[2])
    taken = one(events, ev.CommandTestTaken)
    assert not taken.passed and taken.rerollable  # red's heroes have Mighty Deeds
    assert g.ruleset.decision(g.state).kind == "reroll_test"
    events = g.when(c.AcceptTest(player="red"), dice=[])
    failed = one(events, ev.MovementFailed)
    assert failed.unit == "red-warriors"
    assert failed.explain() == (
        "red-warriors failed the command test for its movement action: it does not move and its "
        "movement is over this phase (Movement, pp.30–40; HB-3)"
    )
    g.when_rejected(move("red-warriors"), code="rules/movement_over")


def test_a_failed_test_is_rerolled_by_a_hero_spending_a_mighty_deed() -> None:
    g = game()
    g.when(move("red-warriors"), dice=[])
    g.when(move("red-warriors"), dice=[1])
    events = g.when(c.RerollTest(player="red", hero="red-champion"), dice=[5])
    rerolled = one(events, ev.CommandTestRerolled)
    assert (rerolled.hero, rerolled.faces, rerolled.passed) == ("red-champion", [5], True)
    assert one(events, ev.UnitMoved).action == 2
    assert g.state.heroes["red-champion"].deeds == 0
    assert "HB-28" in rerolled.explain()


def test_a_rerolled_test_passes_on_3_like_any_other() -> None:
    g = game()
    g.when(move("red-warriors"), dice=[])
    g.when(move("red-warriors"), dice=[2])
    events = g.when(c.RerollTest(player="red", hero="red-champion"), dice=[3])
    rerolled = one(events, ev.CommandTestRerolled)
    assert (rerolled.faces, rerolled.score, rerolled.passed) == ([3], 3, True)
    assert one(events, ev.UnitMoved).action == 2


def test_a_rerolled_2d6_test_rolls_both_dice_again_and_the_lower_still_counts() -> None:
    """Command Tests (p.26), HB-28: given red's warriors failed their barrier test on 2D6, when
    the champion's Mighty Deed re-rolls it to a 5 and a 2, then the 2 counts and it fails."""
    g = game()
    g.when(move("red-warriors", barrier=True), dice=[6, 2])
    events = g.when(c.RerollTest(player="red", hero="red-champion"), dice=[5, 2])
    rerolled = one(events, ev.CommandTestRerolled)
    assert (rerolled.dice, rerolled.score, rerolled.passed) == (2, 2, False)
    assert one(events, ev.MovementFailed).unit == "red-warriors"


def test_a_rerolled_test_stands_and_a_hero_without_deeds_cannot_reroll() -> None:
    g = game()
    g.when(move("red-warriors"), dice=[])
    g.when(move("red-warriors"), dice=[1])
    g.when(c.RerollTest(player="red", hero="red-champion"), dice=[2])
    assert g.ruleset.decision(g.state).kind == "movement"  # failed again: no second re-roll
    assert g.state.units["red-warriors"].done
    g.when(move("red-brutes"), dice=[])
    g.when(move("red-brutes"), dice=[1])
    g.when_rejected(c.RerollTest(player="red", hero="red-champion"), code="rules/no_deeds")
    g.when_rejected(c.RerollTest(player="red", hero="blue-king"), code="rules/not_your_unit")
    g.when_rejected(c.RerollTest(player="red", hero="nobody"), code="rules/unknown_hero")


def test_a_unit_that_lost_stamina_tests_for_every_movement_action() -> None:
    g = game(wounded("red-warriors", 1))
    events = g.when(move("red-warriors"), dice=[4])
    assert one(events, ev.CommandTestTaken).reasons == ["lost stamina"]


def test_crossing_a_barrier_is_a_test_on_2d6_taking_the_lower() -> None:
    g = game()
    events = g.when(move("red-warriors", barrier=True), dice=[6, 2])
    taken = one(events, ev.CommandTestTaken)
    assert (taken.dice, taken.score, taken.passed) == (2, 2, False)
    assert taken.reasons == ["crossing a barrier"]
    assert "2D6, the lowest counts: [6, 2] → 2" in taken.explain()


def test_any_test_in_rough_terrain_is_on_2d6_unless_the_unit_is_agile() -> None:
    g = game(wounded("red-warriors", 1), wounded("red-skirmishers", 1))
    assert one(g.when(move("red-warriors", rough=True), dice=[3, 4]), ev.CommandTestTaken).dice == 2
    assert one(g.when(move("red-skirmishers", rough=True), dice=[3]), ev.CommandTestTaken).dice == 1


def test_rough_terrain_alone_needs_no_test() -> None:
    g = game()
    events = g.when(move("red-warriors", rough=True), dice=[])
    assert tags(events) == ["unit_moved"]


def test_a_drilled_unit_rolls_one_die_fewer_for_its_first_test_of_its_own_movement() -> None:
    g = game(*BLUE_MOVES)
    first = one(g.when(move("blue-steadfast", "blue", barrier=True), dice=[4]), ev.CommandTestTaken)
    assert first.dice == 1  # 2D6 for the barrier, one fewer (HB-25)
    second = one(g.when(move("blue-steadfast", "blue"), dice=[4]), ev.CommandTestTaken)
    assert second.dice == 1 and second.reasons == ["second movement action"]


def test_a_drilled_units_second_barrier_test_of_its_movement_is_on_2d6_again() -> None:
    """HB-25: only the first test of its own movement phase is one die fewer. Given blue's
    Drilled steadfast crossed one barrier on 1D6, when its second movement action crosses
    another, then the test is on 2D6 and the lower die counts (Command Tests, p.26)."""
    g = game(*BLUE_MOVES)
    first = one(g.when(move("blue-steadfast", "blue", barrier=True), dice=[4]), ev.CommandTestTaken)
    assert first.dice == 1
    events = g.when(move("blue-steadfast", "blue", barrier=True), dice=[5, 2])
    second = one(events, ev.CommandTestTaken)
    assert (second.dice, second.score, second.passed) == (2, 2, False)


def test_a_drilled_unit_tests_on_its_full_dice_in_the_enemys_movement() -> None:
    """HB-25: the die fewer is for its own movement phase only. Given blue's scouts, Drilled,
    charged by red's brutes while in rough terrain, when they evade with a 6 and a 1, then they
    rolled 2D6, the 1 counts and the evade fails (Command Tests, p.26; Evade Moves, p.38)."""
    g = game(scenario=with_trait("blue-scouts", "drilled"))
    g.when(c.Charge(player="red", unit="red-brutes", target="blue-scouts"), dice=[])
    events = g.when(c.Evade(player="blue", unit="blue-scouts", rough=True), dice=[6, 1])
    taken = one(events, ev.CommandTestTaken)
    assert (taken.dice, taken.score, taken.passed) == (2, 1, False)


def test_heroes_never_take_command_tests() -> None:
    g = game()
    g.when(move("red-champion"), dice=[])
    events = g.when(move("red-champion", barrier=True), dice=[])
    assert one(events, ev.UnitMoved).action == 2
    assert not of(events, ev.CommandTestTaken)


# -- the order of movement (HB-3, HB-4) ----------------------------------------------------------


def test_no_unit_takes_more_than_two_movement_actions() -> None:
    g = game()
    g.when(move("red-champion"), dice=[])
    g.when(move("red-champion"), dice=[])
    g.when_rejected(move("red-champion"), code="rules/movement_over")


def test_a_unit_completes_its_movement_before_another_moves() -> None:
    g = game()
    g.when(move("red-warriors"), dice=[])
    g.when(move("red-brutes"), dice=[])
    error = g.when_rejected(move("red-warriors"), code="rules/movement_over")
    assert "HB-3" in error.message


def test_units_and_heroes_in_melee_make_no_movement_action() -> None:
    g = game(
        ev.PhaseEnded(phase="movement", force="red"),
        *engaged("red-brutes", "blue-warriors"),
        ev.PhaseBegan(phase="movement", force="red"),
    )
    g.when_rejected(move("red-brutes"), code="rules/in_melee")
    g.when_rejected(move("red-lord"), code="rules/hero_attached")


def test_a_command_names_a_unit_of_the_battle_that_its_player_commands() -> None:
    g = game()
    g.when_rejected(move("nobody"), code="rules/unknown_unit")
    g.when_rejected(move("blue-warriors"), code="rules/not_your_unit")
    g.when_rejected(move("blue-warriors", "blue"), code="rules/not_your_turn")


def test_a_destroyed_unit_is_gone() -> None:
    g = game(ev.UnitDestroyed(unit="red-brutes", reason="test set-up"))
    g.when_rejected(move("red-brutes"), code="rules/gone")


# -- changing facing (p.33) --------------------------------------------------------------------------


def test_changing_facing_is_a_tested_first_and_only_movement_action() -> None:
    g = game()
    events = g.when(c.ChangeFacing(player="red", unit="red-warriors"), dice=[3])
    assert one(events, ev.FacingChanged).explain() == (
        "red-warriors turns to face any direction (Changing Facing, p.33)"
    )
    assert g.state.units["red-warriors"].done
    g.when(move("red-brutes"), dice=[])
    g.when_rejected(c.ChangeFacing(player="red", unit="red-brutes"), code="rules/movement_over")
    g.when_rejected(c.ChangeFacing(player="red", unit="red-champion"), code="rules/not_a_unit")


def test_a_unit_that_fails_to_change_facing_does_not_move() -> None:
    g = game()
    g.when(c.ChangeFacing(player="red", unit="red-warriors"), dice=[2])
    events = g.when(c.AcceptTest(player="red"), dice=[])
    assert one(events, ev.MovementFailed).explain() == (
        "red-warriors failed the command test for its change of facing: it does not move and its "
        "movement is over this phase (Changing Facing, p.33; HB-3)"
    )
    g.when_rejected(move("red-warriors"), code="rules/movement_over")


# -- heroes joining and leaving units (HB-5) -------------------------------------------------------


def test_an_unattached_hero_joins_a_friendly_unit_with_a_movement_action() -> None:
    g = game()
    events = g.when(c.JoinUnit(player="red", hero="red-champion", unit="red-archers"), dice=[])
    joined = one(events, ev.HeroJoined)
    assert joined == ev.HeroJoined(hero="red-champion", unit="red-archers", action=1)
    assert joined.explain() == "red-champion joins red-archers (movement action 1; HB-5)"
    assert g.state.heroes["red-champion"].unit == "red-archers"
    g.when_rejected(move("red-champion"), code="rules/hero_attached")


def test_a_hero_may_not_join_a_unit_in_melee() -> None:
    g = game(*engaged("red-brutes", "blue-warriors"))
    g.when_rejected(
        c.JoinUnit(player="red", hero="red-champion", unit="red-brutes"), code="rules/in_melee"
    )
    g.when_rejected(
        c.JoinUnit(player="red", hero="red-champion", unit="blue-horde"),
        code="rules/not_your_unit",
    )


def test_a_hero_leaving_a_unit_in_melee_costs_a_token_and_the_army_commander_two() -> None:
    g = game(*engaged("red-warriors", "blue-horde"))
    events = g.when(c.LeaveUnit(player="red", hero="red-lord"), dice=[])
    assert one(events, ev.HeroLeft).explain() == (
        "red-lord leaves red-warriors while it is in melee (HB-5)"
    )
    assert lost(events, "red") == [(2, "leaves a unit while it is in combat (the Army Commander)")]
    blue = game(*engaged("red-warriors", "blue-horde"), *BLUE_MOVES)
    events = blue.when(c.LeaveUnit(player="blue", hero="blue-proud"), dice=[])
    assert lost(events, "blue") == [(1, "leaves a unit while it is in combat")]


def test_a_non_combatant_hero_leaves_a_unit_in_melee_without_losing_a_token() -> None:
    """Given the Blue Priest (Non-Combatant) with blue-warriors in a melee, when he leaves the
    unit, then he leaves the melee and blue loses no Reputation Token (sheet p.23: "Hero leaves a
    Unit while in combat (unless they have the Non-Combatant Trait)" -1)."""
    g = game(
        ev.HeroJoined(hero="blue-priest", unit="blue-warriors", action=1),
        *engaged("red-brutes", "blue-warriors"),
        *BLUE_MOVES,
    )
    events = g.when(c.LeaveUnit(player="blue", hero="blue-priest"), dice=[])
    assert one(events, ev.HeroLeft).in_melee
    assert lost(events, "blue") == []
    assert g.state.forces["blue"].tokens == game().state.forces["blue"].tokens


def test_a_hero_leaving_a_unit_out_of_melee_loses_nothing_and_may_move() -> None:
    g = game()
    events = g.when(c.LeaveUnit(player="red", hero="red-lord"), dice=[])
    assert tags(events) == ["hero_left"]
    assert one(events, ev.HeroLeft).explain() == "red-lord leaves red-warriors (HB-5)"
    assert one(g.when(move("red-lord"), dice=[]), ev.UnitMoved).unit == "red-lord"
    g.when_rejected(c.LeaveUnit(player="red", hero="red-lord"), code="rules/not_attached")
    refused = g.when_rejected(
        c.LeaveUnit(player="red", hero="blue-king"), code="rules/not_your_unit"
    )
    assert str(refused) == "blue-king belongs to blue: red cannot move it"
