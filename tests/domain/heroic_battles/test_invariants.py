"""Each invariant of Heroic Battles fires when a state breaks it the way an evolve bug would,
names what broke in words a rules developer acts on, and holds at its limit."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from tests.domain.heroic_battles.helpers import engaged, fighting, game
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.invariants import violations
from warlog.domain.heroic_battles.state import ChargeFrame, Combat, GameState, MeleeFrame


def opening() -> GameState:
    """The proving ground: turn 1 of 3, red's movement; red-lord (level 3, 3 deeds) leads
    red-warriors, red-champion (level 1) stands alone; each force holds 10 tokens."""
    return game().state


def broken(state: GameState) -> list[str]:
    return [v.line() for v in violations(state)]


def with_unit(state: GameState, unit: str, **changes: Any) -> GameState:
    return replace(state, units={**state.units, unit: replace(state.units[unit], **changes)})


def with_hero(state: GameState, hero: str, **changes: Any) -> GameState:
    return replace(state, heroes={**state.heroes, hero: replace(state.heroes[hero], **changes)})


def test_the_opening_breaks_no_invariant() -> None:
    assert broken(opening()) == []


def test_the_scenario_s_units_heroes_and_forces_are_conserved() -> None:
    state = opening()
    units = {k: v for k, v in state.units.items() if k != "blue-giant"}
    assert broken(replace(state, units=units)) == [
        "figures_conserved: a unit or hero of the scenario is lost or invented"
    ]
    heroes = {k: v for k, v in state.heroes.items() if k != "blue-priest"}
    assert broken(replace(state, heroes=heroes)) == [
        "figures_conserved: a unit or hero of the scenario is lost or invented"
    ]
    forces = {**state.forces, "green": replace(state.forces["red"], id="green")}
    assert broken(replace(state, forces=forces)) == [
        "figures_conserved: a force of the scenario is lost or invented"
    ]


def test_reputation_tokens_are_never_negative() -> None:
    """HB-21: a force loses as many tokens as it has, down to none."""
    state = opening()
    spent = replace(state, forces={**state.forces, "red": replace(state.forces["red"], tokens=0)})
    assert broken(spent) == []
    owed = replace(state, forces={**state.forces, "red": replace(state.forces["red"], tokens=-1)})
    assert broken(owed) == ["tokens_never_negative: red holds -1 tokens"]


@pytest.mark.parametrize(
    ("figure", "most", "gone"), [("red-brutes", 4, "destroyed"), ("red-champion", 1, "killed")]
)
def test_stamina_stays_within_its_range_and_a_figure_with_none_leaves_the_table(
    figure: str, most: int, gone: str
) -> None:
    """Given a unit or hero of the opening, when it gains stamina beyond its own, falls below
    none, or stands with none, then stamina_in_range names it; gone with none holds."""
    state = opening()
    changed = with_unit if figure in state.units else with_hero
    assert broken(changed(state, figure, stamina=most + 1)) == [
        f"stamina_in_range: {figure} has {most + 1} of {most}"
    ]
    assert broken(changed(state, figure, stamina=-1, gone=gone)) == [
        f"stamina_in_range: {figure} has -1 of {most}"
    ]
    assert broken(changed(state, figure, stamina=0)) == [
        f"stamina_in_range: {figure} stands with no stamina"
    ]
    assert broken(changed(state, figure, stamina=0, gone=gone)) == []


def test_a_unit_moves_with_at_most_two_actions() -> None:
    """HB-3: two actions hold; a third, or fewer than none, breaks movement_actions."""
    state = opening()
    assert broken(with_unit(state, "red-riders", actions=2)) == []
    assert broken(with_unit(state, "red-riders", actions=3)) == [
        "movement_actions: red-riders took 3 actions"
    ]
    assert broken(with_unit(state, "red-riders", actions=-1)) == [
        "movement_actions: red-riders took -1 actions"
    ]


def test_a_hero_holds_at_most_as_many_mighty_deeds_as_its_level() -> None:
    """p.28: red-lord holds 3 deeds at level 3; a fourth, or fewer than none, breaks
    deeds_within_level."""
    state = opening()
    assert state.heroes["red-lord"].deeds == 3
    assert broken(with_hero(state, "red-lord", deeds=0)) == []
    assert broken(with_hero(state, "red-lord", deeds=4)) == [
        "deeds_within_level: red-lord holds 4 at level 3"
    ]
    assert broken(with_hero(state, "red-lord", deeds=-1)) == [
        "deeds_within_level: red-lord holds -1 at level 3"
    ]


def test_a_hero_is_attached_only_to_a_standing_unit_of_its_own_force() -> None:
    state = opening()
    assert broken(with_hero(state, "red-lord", gone="killed", stamina=0)) == [
        "hero_attached: red-lord is killed but attached to red-warriors"
    ]
    assert broken(with_hero(state, "red-champion", unit="blue-giant")) == [
        "hero_attached: red-champion is attached to blue-giant, which cannot lead"
    ]
    fled = with_unit(state, "red-brutes", gone="fled")
    assert broken(with_hero(fled, "red-champion", unit="red-brutes")) == [
        "hero_attached: red-champion is attached to red-brutes, which cannot lead"
    ]
    assert broken(with_hero(state, "red-champion", unit="red-nobody")) == [
        "hero_attached: red-champion is attached to red-nobody, which cannot lead"
    ]
    assert broken(with_hero(state, "red-champion", unit="red-brutes")) == []


def melee() -> GameState:
    """Red's brutes have charged blue's steadfast: melee-1, in red's movement phase."""
    return game(*engaged("red-brutes", "blue-steadfast")).state


def with_combat(state: GameState, **changes: Any) -> GameState:
    (combat,) = state.combats
    return replace(state, combats=(replace(combat, **changes),))


def test_a_melee_has_the_two_forces_as_its_sides() -> None:
    state = melee()
    assert broken(state) == []
    assert broken(with_combat(state, sides={"red": ("red-brutes",)})) == [
        "melee_fighters: melee-1 has the sides ['red']",
        "melee_fighters: melee-1 has an empty side",
    ]
    assert broken(with_combat(state, sides={"red": ("red-brutes",), "blue": ()})) == [
        "melee_fighters: melee-1 has an empty side"
    ]


def test_a_melee_being_fought_may_have_an_empty_side_until_it_resolves() -> None:
    """A side emptied in the fight is kept until the melee frame resolves, which it does at
    once: only at_rest names such a state, not melee_fighters."""
    state = game(*engaged("red-brutes", "blue-steadfast"), *fighting()).state
    assert isinstance(state.frames[-1], MeleeFrame)
    assert broken(with_combat(state, sides={"red": ("red-brutes",), "blue": ()})) == [
        "at_rest: an automatic step was left undone"
    ]


def test_each_fighter_stands_fights_for_its_force_and_in_one_melee() -> None:
    state = melee()
    sides = {"red": ("red-brutes",), "blue": ("blue-steadfast",)}
    assert broken(with_combat(state, sides={**sides, "red": ("red-brutes", "blue-giant")})) == [
        "melee_fighters: blue-giant cannot fight in melee-1"
    ]
    fled = with_unit(state, "red-brutes", gone="fled", stamina=0)
    assert broken(fled) == ["melee_fighters: red-brutes cannot fight in melee-1"]
    assert broken(with_combat(state, sides={**sides, "red": ("red-brutes", "red-lord")})) == [
        "melee_fighters: red-lord cannot fight in melee-1"
    ]
    second = Combat(id="melee-2", sides={"red": ("red-brutes",), "blue": ("blue-giant",)})
    assert broken(replace(state, combats=(*state.combats, second))) == [
        "melee_fighters: red-brutes fights in two melees"
    ]


def test_flanks_and_flankers_are_fighters_of_the_melee() -> None:
    """HB-37: a flank is a fighter's, flanked by a fighter."""
    state = melee()
    flanked = with_combat(
        state, flanked=("blue-steadfast",), flankers=(("blue-steadfast", "red-brutes"),)
    )
    assert broken(flanked) == []
    both = with_combat(
        state,
        flanked=("blue-steadfast", "red-brutes"),
        flankers=(("blue-steadfast", "red-brutes"), ("red-brutes", "blue-steadfast")),
    )
    assert broken(both) == []  # every fighter flanked
    assert broken(
        with_combat(state, flanked=("blue-giant",), flankers=(("blue-giant", "red-brutes"),))
    ) == [
        "melee_fighters: melee-1 has a flank of no fighter",
        "melee_fighters: melee-1 has a flanker of no fighter",
    ]


def test_the_turn_stays_within_the_scenario_s_turns() -> None:
    state = opening()
    assert broken(replace(state, turn=3)) == []
    assert broken(replace(state, turn=4)) == ["turn_sequence: turn 4 of 3"]
    assert broken(replace(state, turn=0)) == ["turn_sequence: turn 0 of 3"]


def test_charges_happen_in_movement_and_melees_in_the_melee_phase() -> None:
    """Given red's brutes charging blue's scouts (who may counter-charge or evade: a decision
    at rest), when the phase is shooting, then turn_sequence names the charge; and a melee
    being fought outside the melee phase likewise."""
    charge = ev.ChargeDeclared(unit="red-brutes", target="blue-scouts", facing="front", action=1)
    charging = game(charge).state
    assert isinstance(charging.frames[-1], ChargeFrame) and broken(charging) == []
    assert broken(replace(charging, phase="shooting")) == [
        "turn_sequence: a charge in the shooting phase"
    ]
    fought = game(*engaged("red-brutes", "blue-steadfast"), *fighting()).state
    assert broken(fought) == []
    assert broken(replace(fought, phase="shooting")) == [
        "turn_sequence: a melee in the shooting phase"
    ]


def test_the_battle_is_over_exactly_when_it_has_a_result() -> None:
    state = opening()
    assert broken(replace(state, result="red")) == ["battle_over: phase movement with result 'red'"]
    assert broken(replace(state, phase="over")) == ["battle_over: phase over with result ''"]
    assert broken(replace(state, phase="over", result="red")) == []
    charging = game(
        ev.ChargeDeclared(unit="red-brutes", target="blue-scouts", facing="front", action=1)
    ).state
    assert broken(replace(charging, phase="over", result="red")) == [
        "turn_sequence: a charge in the over phase",
        "battle_over: the battle is over but the game still waits for blue",
    ]


def test_the_game_never_rests_on_an_automatic_step() -> None:
    """A melee phase with no melee to fight and no challenge to offer moves on by itself."""
    assert broken(replace(opening(), phase="melee")) == [
        "at_rest: an automatic step was left undone"
    ]
