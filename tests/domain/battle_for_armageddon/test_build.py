"""The build phase: Imperial build points, costs, the production track, placement; Ork rebuilds."""

from __future__ import annotations

import msgspec

from tests.domain.battle_for_armageddon.helpers import at, before_phase, game, off
from tests.given_when_then import Given, of, one
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.build_events import (
    BuildPointsCounted,
    CounterBuilt,
    CounterPlaced,
    CounterRebuilt,
    ProductionAdvanced,
    RebuildsCounted,
)
from warlog.domain.battle_for_armageddon.combat_events import SiteRuined
from warlog.domain.battle_for_armageddon.movement_events import CounterEliminated
from warlog.domain.battle_for_armageddon.rules import BUILD_ORK
from warlog.domain.battle_for_armageddon.ruleset import RULESET
from warlog.domain.battle_for_armageddon.turn_events import PhaseEnded
from warlog.domain.core.events import Event


def imperial_build(*setup: Event, turn: int = 2, version: str = "") -> tuple[Given, list[Event]]:
    g = game(*before_phase("imperials", "build", turn=turn), *setup, version=version)
    return g, g.when(c.EndPhase(player="imperials"))


def test_build_points_are_the_defence_of_the_intact_hives_and_factories() -> None:
    g, events = imperial_build()
    counted = one(events, BuildPointsCounted)
    assert (counted.track, counted.points, counted.halved) == (20, 20, False)
    assert g.state.build_points == 20 and g.state.build_step == "buy"


def test_a_ruined_hive_yields_nothing() -> None:
    _, events = imperial_build(SiteRuined(site="hive_b", area="hive_b", defence=4, track=16))
    assert one(events, BuildPointsCounted).points == 16


def test_imperial_build_points_are_halved_on_turn_1() -> None:
    _, events = imperial_build(turn=1)
    counted = one(events, BuildPointsCounted)
    assert (counted.track, counted.points, counted.halved) == (20, 10, True)
    assert "20 ÷ 2, rounded down = 10" in counted.explain()


def test_odd_turn_1_build_points_are_halved_rounding_down() -> None:
    _, events = imperial_build(
        SiteRuined(site="hive_d", area="hive_d", defence=3, track=17), turn=1
    )
    counted = one(events, BuildPointsCounted)
    assert (counted.track, counted.points, counted.halved) == (17, 8, True)
    assert "17 ÷ 2, rounded down = 8" in counted.explain()


def test_building_costs_the_build_table_price() -> None:
    g, _ = imperial_build()
    events = g.when(c.Build(player="imperials", counter="titan-1"))
    built = one(events, CounterBuilt)
    assert (built.cost, built.points_left, built.spaces) == (5, 15, 3)
    assert g.state.counters["titan-1"].location == "track"
    g.when_rejected(c.Build(player="imperials", counter="titan-1"), code="rules/not_buildable")
    g.when_rejected(c.Build(player="imperials", counter="blood_angels"), code="rules/not_buildable")
    g.when_rejected(c.Build(player="imperials", counter="yarrick"), code="rules/not_buildable")
    g.when_rejected(c.Build(player="orks", counter="ig-1"), code="rules/not_your_turn")


def test_a_counter_the_points_cannot_pay_for_is_refused() -> None:
    g, _ = imperial_build(turn=1)
    g.when(c.Build(player="imperials", counter="titan-1"))
    g.when(c.Build(player="imperials", counter="ig-1"))
    g.when(c.Build(player="imperials", counter="ig-2"))
    # 10 - 5 - 2 - 2 = 1 left: an Imperial Guard (2) is too dear, Rough Riders (1) are not
    g.when_rejected(c.Build(player="imperials", counter="ig-3"), code="rules/cannot_afford")
    g.when(c.Build(player="imperials", counter="riders-1"))
    assert g.state.build_points == 0


def test_a_counter_costing_exactly_the_points_left_is_offered() -> None:
    """Given turn 1's 10 build points (20 halved) and 9 spent, when legal lists the builds, then
    the Rough Riders (cost 1) are offered and an Imperial Guard (cost 2) is not (sheet p.3 build
    table; p.1 "First Turn Surprise")."""
    g, _ = imperial_build(turn=1)
    for counter in ("titan-1", "ig-1", "ig-2"):
        g.when(c.Build(player="imperials", counter=counter))
    assert g.state.build_points == 1
    builds = {
        x.counter for x in RULESET.legal_commands(g.state, "imperials") if isinstance(x, c.Build)
    }
    assert "riders-1" in builds
    assert "ig-3" not in builds


def test_the_production_track_moves_one_space_and_unspent_points_are_lost() -> None:
    g, _ = imperial_build()
    g.when(c.Build(player="imperials", counter="titan-1"))
    g.when(c.Build(player="imperials", counter="ig-1"))
    g.when(c.Build(player="imperials", counter="riders-1"))
    events = g.when(c.FinishBuilding(player="imperials"))
    advanced = one(events, ProductionAdvanced)
    assert advanced.spaces == {"ig-1": 1, "titan-1": 2}
    assert advanced.ready == ["riders-1"]
    assert advanced.lost == 12
    assert g.state.build_points == 0 and g.state.build_step == "place"
    assert g.state.counters["riders-1"].location == "ready"
    g.when_rejected(c.Build(player="imperials", counter="ig-2"), code="rules/wrong_phase")


def test_version_7_places_ready_counters_on_an_intact_hive_or_factory_within_stacking() -> None:
    g, _ = imperial_build(
        at("ig-2", "hive_a"),
        at("ig-3", "hive_a"),
        at("ig-4", "hive_a"),
        SiteRuined(site="hive_b", area="hive_b", defence=4, track=16),
        version="7",
    )
    g.when(c.Build(player="imperials", counter="riders-1"))
    g.when(c.FinishBuilding(player="imperials"))
    places = {x.to for x in RULESET.legal_commands(g.state, "imperials") if isinstance(x, c.Place)}
    assert places == {"hive_c", "hive_d", "hive_e", "factory_f"}
    g.when_rejected(
        c.Place(player="imperials", counter="riders-1", to="hive_a"), code="rules/bad_place"
    )
    g.when_rejected(
        c.Place(player="imperials", counter="riders-1", to="hive_b"), code="rules/bad_place"
    )
    g.when_rejected(
        c.Place(player="imperials", counter="riders-1", to="plain_a"), code="rules/bad_place"
    )
    g.when_rejected(
        c.Place(player="imperials", counter="ig-1", to="hive_c"), code="rules/not_ready"
    )
    g.when(c.Place(player="imperials", counter="riders-1", to="factory_f"))
    assert g.state.counters["riders-1"].location == "factory_f"


def test_counters_built_over_several_phases_reach_ready_in_turn() -> None:
    g, _ = imperial_build(
        CounterBuilt(counter="titan-1", cost=5, points_left=0, spaces=1),
    )
    events = g.when(c.FinishBuilding(player="imperials"))
    assert one(events, ProductionAdvanced).ready == ["titan-1"]


def test_ending_the_build_phase_before_finishing_moves_the_track_anyway() -> None:
    g, _ = imperial_build()
    g.when(c.Build(player="imperials", counter="ig-1"))
    events = g.when(c.EndPhase(player="imperials"))
    assert one(events, ProductionAdvanced).lost == 18
    assert g.state.counters["ig-1"].track == 1


def test_version_4_holds_one_fortification_per_area() -> None:
    """Given a game begun under version 4 and fort-1 in hive_a, when fort-2 is placed there, then
    it is refused citing the cap (BFA-9) and Stacking; it may go to hive_c."""
    g, _ = imperial_build(at("fort-1", "hive_a"), version="4")
    g.when(c.Build(player="imperials", counter="fort-2"))
    g.when(c.FinishBuilding(player="imperials"))
    refused = g.when_rejected(
        c.Place(player="imperials", counter="fort-2", to="hive_a"), code="rules/bad_place"
    )
    assert refused.message == (
        "fort-2 cannot be placed in hive_a: it must be an intact hive or factory with room in its "
        "stack (2 fortifications in hive_a (BFA-9: one per area); rules: Stacking) (rules: Build "
        "Phase, Imperial; BFA-12)"
    )
    g.when(c.Place(player="imperials", counter="fort-2", to="hive_c"))


def test_any_number_of_fortifications_stack_since_version_5() -> None:
    """Given fort-1 in hive_a, when fort-2 is placed there, then both stand in hive_a (rules:
    Stacking: fortifications do not count for stacking; BFA-9), and the invariants hold."""
    g, _ = imperial_build(at("fort-1", "hive_a"))
    g.when(c.Build(player="imperials", counter="fort-2"))
    g.when(c.FinishBuilding(player="imperials"))
    places = {x.to for x in RULESET.legal_commands(g.state, "imperials") if isinstance(x, c.Place)}
    assert "hive_a" in places
    g.when(c.Place(player="imperials", counter="fort-2", to="hive_a"))
    assert [x.id for x in g.state.counters.values() if x.location == "hive_a"] == [
        "fort-1",
        "fort-2",
    ]
    assert RULESET.invariants(g.state) == []


def test_a_game_begun_under_version_5_stacks_any_number_of_fortifications() -> None:
    """Given a game begun under version 5 (the first without BFA-9's cap) and fort-1 in hive_a,
    when fort-2 is placed there, then both stand in hive_a (sheet p.1 "Stacking": fortifications
    are among the counters of which any number may stack)."""
    g, _ = imperial_build(at("fort-1", "hive_a"), version="5")
    g.when(c.Build(player="imperials", counter="fort-2"))
    g.when(c.FinishBuilding(player="imperials"))
    g.when(c.Place(player="imperials", counter="fort-2", to="hive_a"))
    assert [x.id for x in g.state.counters.values() if x.location == "hive_a"] == [
        "fort-1",
        "fort-2",
    ]


def test_an_overstacked_placement_cites_stacking_and_bfa_12_not_bfa_9() -> None:
    """Given three counters in hive_a, when Rough Riders are placed there, then the refusal cites
    Stacking and the placement rule (BFA-12), not the fortification cap (BFA-9), in version 7
    and in version 4 alike (a refusal is not logged)."""
    for version in ("7", "4"):
        g, _ = imperial_build(
            at("ig-2", "hive_a"), at("ig-3", "hive_a"), at("ig-4", "hive_a"), version=version
        )
        g.when(c.Build(player="imperials", counter="riders-1"))
        g.when(c.FinishBuilding(player="imperials"))
        refused = g.when_rejected(
            c.Place(player="imperials", counter="riders-1", to="hive_a"), code="rules/bad_place"
        )
        assert refused.message == (
            "riders-1 cannot be placed in hive_a: it must be an intact hive or factory with room "
            "in its stack (4 counters in hive_a (at most 3 count for stacking); rules: Stacking) "
            "(rules: Build Phase, Imperial; BFA-12)"
        )


def test_since_version_8_a_ready_counter_may_be_placed_on_a_full_hive() -> None:
    """Given three Imperial Guard in hive_a and hive_b in ruins, when Rough Riders leave the READY
    box for hive_a, then they stand there over the stacking limits, as the Build Phase allows
    (rules: Build Phase, Imperial; BFA-12), and the event says which limit and until when."""
    g, _ = imperial_build(
        at("ig-2", "hive_a"),
        at("ig-3", "hive_a"),
        at("ig-4", "hive_a"),
        SiteRuined(site="hive_b", area="hive_b", defence=4, track=16),
    )
    g.when(c.Build(player="imperials", counter="riders-1"))
    g.when(c.FinishBuilding(player="imperials"))
    places = {x.to for x in RULESET.legal_commands(g.state, "imperials") if isinstance(x, c.Place)}
    assert places == {"hive_a", "hive_c", "hive_d", "hive_e", "factory_f"}
    placed = one(
        g.when(c.Place(player="imperials", counter="riders-1", to="hive_a")), CounterPlaced
    )
    assert placed.overstacking == "4 counters in hive_a (at most 3 count for stacking)"
    assert placed.explain() == (
        "riders-1 is placed in hive_a (from the READY box): onto an intact hive or factory, over "
        "the stacking limits (4 counters in hive_a (at most 3 count for stacking)), as the Build "
        "Phase allows; unless the stack is within them at the end of the imperials' next "
        "movement phase, the counters that arrived last are lost then (rules: Build Phase, "
        "Imperial; BFA-12, BFA-2)"
    )
    assert g.state.counters["riders-1"].location == "hive_a"
    assert g.state.overstacked == ("riders-1",)
    assert RULESET.invariants(g.state) == []


def test_a_hive_overstacked_in_the_build_phase_stays_so_through_the_orks_movement_phase() -> None:
    """Given riders-1 placed over the limits on hive_a, when the Imperials end the build phase and
    the Orks play their movement phase, then riders-1 still stands there: the stack must be
    correct at the end of the Imperials' own next movement phase (BFA-12, BFA-2)."""
    g, _ = imperial_build(at("ig-2", "hive_a"), at("ig-3", "hive_a"), at("ig-4", "hive_a"))
    g.when(c.Build(player="imperials", counter="riders-1"))
    g.when(c.FinishBuilding(player="imperials"))
    g.when(c.Place(player="imperials", counter="riders-1", to="hive_a"))
    g.when(c.EndPhase(player="imperials"))
    assert (g.state.phasing, g.state.phase) == ("orks", "movement")
    events = g.when(c.EndPhase(player="orks"))
    assert not of(events, CounterEliminated)
    assert g.state.counters["riders-1"].location == "hive_a"
    assert g.state.overstacked == ("riders-1",)
    assert RULESET.invariants(g.state) == []


def test_since_version_8_a_placement_still_needs_an_intact_hive_or_factory() -> None:
    """Given hive_b in ruins, when a READY counter is placed there or on a plain, then it is
    refused in one line naming the placement rule, with no word of room (BFA-12)."""
    g, _ = imperial_build(SiteRuined(site="hive_b", area="hive_b", defence=4, track=16))
    g.when(c.Build(player="imperials", counter="riders-1"))
    g.when(c.FinishBuilding(player="imperials"))
    for area in ("hive_b", "plain_a"):
        refused = g.when_rejected(
            c.Place(player="imperials", counter="riders-1", to=area), code="rules/bad_place"
        )
        assert refused.message == (
            f"riders-1 cannot be placed in {area}: it must be an intact hive or factory (rules: "
            "Build Phase, Imperial; BFA-12)"
        )


def test_since_version_8_a_placement_within_stacking_is_recorded_as_before() -> None:
    """Given room in hive_a, when a READY counter is placed there, then its event is version 7's,
    without the overstacking field, and it is not held for the next movement phase."""
    g, _ = imperial_build()
    g.when(c.Build(player="imperials", counter="riders-1"))
    g.when(c.FinishBuilding(player="imperials"))
    placed = one(
        g.when(c.Place(player="imperials", counter="riders-1", to="hive_a")), CounterPlaced
    )
    assert "overstacking" not in msgspec.to_builtins(placed)
    assert g.state.overstacked == ()


# -- Ork rebuilds ---------------------------------------------------------------------------------


def ork_build(*setup: Event) -> tuple[Given, list[Event]]:
    g = game(*before_phase("orks", "build"), *setup)
    return g, g.when(c.EndPhase(player="orks"))


RUINS = (
    SiteRuined(site="hive_b", area="hive_b", defence=4, track=16),
    SiteRuined(site="factory_f", area="factory_f", defence=2, track=14),
)


def test_the_orks_rebuild_one_counter_per_two_garrisoned_ruins() -> None:
    g, events = ork_build(
        *RUINS, at("boyz-2", "hive_b"), at("boyz-3", "factory_f"), off("boyz-4"), off("mob-1")
    )
    counted = one(events, RebuildsCounted)
    assert (counted.rebuilds, counted.ruins) == (1, ["hive_b", "factory_f"])
    assert "2 garrisoned smoking ruins (hive_b, factory_f) ÷ 2, rounded down = 1 rebuild (" in (
        counted.explain()
    )
    g.when(c.Rebuild(player="orks", counter="boyz-4", to="hive_b"))
    assert g.state.counters["boyz-4"].location == "hive_b"
    g.when_rejected(c.Rebuild(player="orks", counter="mob-1", to="ork_a"), code="rules/no_rebuilds")


def test_a_rebuilt_counter_comes_back_at_full_strength_and_uses_one_rebuild() -> None:
    # given the Ork build phase with one rebuild (2 garrisoned ruins) and boyz-4 in the pool
    g, _ = ork_build(*RUINS, at("boyz-2", "hive_b"), at("boyz-3", "factory_f"), off("boyz-4"))
    assert g.state.rebuilds == 1
    # when the Orks rebuild boyz-4 on the garrisoned ruin of hive_b
    events = g.when(c.Rebuild(player="orks", counter="boyz-4", to="hive_b"))
    # then it stands there, unreduced, and the phase's rebuild is spent
    assert events == [CounterRebuilt(counter="boyz-4", area="hive_b")]
    boyz = g.state.counters["boyz-4"]
    assert (boyz.location, boyz.reduced) == ("hive_b", False)
    assert g.state.rebuilds == 0
    assert events[0].explain() == (
        "boyz-4 is rebuilt in hive_b: one of this phase's rebuilds, placed on a garrisoned "
        f"smoking ruin or in an Ork supply area, within stacking ({BUILD_ORK})"
    )
    assert BUILD_ORK == "rules: Build Phase, Ork"


def test_ungarrisoned_ruins_do_not_count() -> None:
    _, events = ork_build(*RUINS, at("boyz-2", "hive_b"), off("boyz-4"))
    assert one(events, RebuildsCounted).rebuilds == 0


def test_rebuilt_counters_go_on_a_garrisoned_ruin_or_an_ork_supply_area() -> None:
    g, _ = ork_build(
        *RUINS, at("boyz-2", "hive_b"), at("boyz-3", "factory_f"), off("boyz-4"), off("sunz-2")
    )
    areas = {
        x.to
        for x in RULESET.legal_commands(g.state, "orks")
        if isinstance(x, c.Rebuild) and x.counter == "boyz-4"
    }
    # ork_a holds boyz-1 (goffs, fine); ork_c is a supply area; ork_b is no supply area
    assert areas == {"hive_b", "factory_f", "ork_a", "ork_c"}
    g.when_rejected(c.Rebuild(player="orks", counter="sunz-2", to="ork_a"), code="rules/bad_place")
    g.when_rejected(c.Rebuild(player="orks", counter="boyz-4", to="ork_b"), code="rules/bad_place")


def test_ghazghkull_is_never_rebuilt() -> None:
    g, _ = ork_build(
        *RUINS, at("boyz-2", "hive_b"), at("boyz-3", "factory_f"), off("ghazghkull", "pool")
    )
    g.when_rejected(
        c.Rebuild(player="orks", counter="ghazghkull", to="ork_a"), code="rules/not_buildable"
    )


def test_the_imperials_do_not_rebuild_and_the_orks_do_not_buy() -> None:
    g, _ = ork_build()
    g.when_rejected(c.Build(player="orks", counter="boyz-4"), code="rules/wrong_phase")
    g2, _ = imperial_build()
    g2.when_rejected(
        c.Rebuild(player="imperials", counter="ig-1", to="hive_a"), code="rules/wrong_phase"
    )


def test_the_ork_build_phase_ends_whenever_the_orks_like() -> None:
    g, _ = ork_build()
    assert RULESET.legal_commands(g.state, "orks") == [c.EndPhase(player="orks")]
    events = g.when(c.EndPhase(player="orks"))
    assert of(events, PhaseEnded)


def test_a_rebuild_into_a_full_stack_is_refused_citing_stacking_only() -> None:
    """Given a garrisoned ruin already holding 3 Ork counters, when a counter is rebuilt there,
    then the refusal says why with the sheet's Stacking section, and never BFA-9 (the
    fortification ruling has nothing to do with an Ork stack). Under version 8 too: the Build
    Phase's overstacking is the Imperials' (rules: Build Phase, Ork; BFA-12)."""
    g, _ = ork_build(
        *RUINS,
        at("boyz-1", "hive_b"),
        at("boyz-2", "hive_b"),
        at("boyz-3", "hive_b"),
        at("mob-1", "factory_f"),
        off("boyz-4"),
    )
    refused = g.when_rejected(
        c.Rebuild(player="orks", counter="boyz-4", to="hive_b"), code="rules/bad_place"
    )
    assert "(4 counters in hive_b (at most 3 count for stacking); rules: Stacking)" in str(refused)
    assert "BFA-9" not in str(refused)


def test_the_orks_are_offered_one_rebuild_of_each_type_and_tribe() -> None:
    """Given two Goff Boyz, an Evil Sunz Boyz and a Goff Mob off the map, when legal lists the
    rebuilds, then each kind is offered once (the first of the Goff Boyz stands for both) and the
    Evil Sunz, who may not stack with Goffs, only where no Goff stands (rules: Stacking)."""
    g, _ = ork_build(
        *RUINS,
        at("boyz-2", "hive_b"),
        at("boyz-3", "factory_f"),
        off("boyz-1"),
        off("boyz-4"),
        off("sunz-2"),
        off("mob-1"),
    )
    rebuilds = [x for x in RULESET.legal_commands(g.state, "orks") if isinstance(x, c.Rebuild)]
    assert list(dict.fromkeys(x.counter for x in rebuilds)) == ["boyz-1", "sunz-2", "mob-1"]
    assert {x.to for x in rebuilds if x.counter == "sunz-2"} == {"ork_a", "ork_c"}


def test_the_imperials_may_stop_buying_whenever_they_like() -> None:
    """Given the Imperial build phase with 10 points, when legal lists the choices, then one
    counter of each buildable type is offered, and finishing the purchases always is."""
    g, _ = imperial_build(turn=1)
    legal = RULESET.legal_commands(g.state, "imperials")
    assert [x.counter for x in legal if isinstance(x, c.Build)] == [
        "ig-1",
        "riders-1",
        "gangs-1",
        "fort-1",
        "titan-1",
    ]
    assert c.FinishBuilding(player="imperials") in legal
