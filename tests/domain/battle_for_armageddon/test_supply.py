"""Supply after each strategy card: lines to a friendly supply area, and what being cut off costs."""

from __future__ import annotations

import msgspec

from tests.domain.battle_for_armageddon.helpers import at, game, in_phase, off
from tests.given_when_then import Given, of, one
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.combat_events import SiteRuined
from warlog.domain.battle_for_armageddon.movement_events import ChapterReduced, CounterEliminated
from warlog.domain.battle_for_armageddon.turn_events import (
    PhaseBegan,
    PhaseEnded,
    StackOutOfSupply,
    SupplyChecked,
)
from warlog.domain.core.events import Event

# The card in play is combat-movement: ending its second phase (movement) ends the card.
SECOND_PHASE = (
    PhaseEnded(phase="combat", player="imperials"),
    PhaseBegan(phase="movement", player="imperials", index=1),
)


def imperial_card_ends(*setup: Event, version: str = "") -> tuple[Given, list[Event]]:
    g = game(*in_phase("imperials", "combat"), *SECOND_PHASE, *setup, version=version)
    return g, g.when(c.EndPhase(player="imperials"), dice=[])


def test_a_counter_with_a_line_to_a_supply_area_is_in_supply() -> None:
    _, events = imperial_card_ends(at("ig-1", "hive_e"))
    checked = one(events, SupplyChecked)
    assert (checked.player, checked.cut_off, checked.lost) == ("imperials", [], [])


def test_a_line_cannot_pass_enemy_areas_but_may_cross_ash_waste() -> None:
    # ig-1 in river_a: plain_a is Ork-held, ash_b leads on to plain_b and hive_a
    _, events = imperial_card_ends(at("ig-1", "river_a"), at("boyz-2", "plain_a"))
    assert one(events, SupplyChecked).cut_off == []


def test_a_counter_cut_off_without_hive_or_fortification_is_destroyed() -> None:
    _, events = imperial_card_ends(
        at("ig-1", "river_a"), at("boyz-2", "plain_a"), at("boyz-3", "ash_b")
    )
    stack = one(events, StackOutOfSupply)
    assert (stack.area, stack.protection, stack.destroyed) == ("river_a", [], True)
    assert one(events, CounterEliminated).reason == "out of supply (rules: Supply)"
    assert one(events, SupplyChecked).lost == ["ig-1"]


def test_every_counter_of_a_cut_off_stack_is_destroyed() -> None:
    """Given two Imperial Guard in river_a, cut off by Orks in plain_a and ash_b, when supply is
    checked, then both go (rules: Supply: "counters out of supply are destroyed")."""
    g, events = imperial_card_ends(
        at("ig-1", "river_a"), at("ig-2", "river_a"), at("boyz-2", "plain_a"), at("boyz-3", "ash_b")
    )
    assert one(events, StackOutOfSupply).counters == ["ig-1", "ig-2"]
    assert [e.counter for e in of(events, CounterEliminated)] == ["ig-1", "ig-2"]
    assert one(events, SupplyChecked).lost == ["ig-1", "ig-2"]
    assert {g.state.counters[x].location for x in ("ig-1", "ig-2")} == {"pool"}


def _cut_off_hive_b(*extra: Event) -> Given:
    """hive_b's neighbours hive_a (the Imperial supply area), plain_b and hive_c hold Orks."""
    return game(
        *in_phase("imperials", "combat"),
        *SECOND_PHASE,
        SiteRuined(site="hive_a", area="hive_a", defence=4, track=16),
        at("boyz-2", "hive_a"),
        at("boyz-3", "plain_b"),
        SiteRuined(site="hive_c", area="hive_c", defence=4, track=12),
        at("boyz-4", "hive_c"),
        at("ig-1", "hive_b"),
        *extra,
    )


def test_a_stack_with_a_hive_survives_on_4_to_6() -> None:
    g = _cut_off_hive_b()
    events = g.when(c.EndPhase(player="imperials"), dice=[4])
    stack = one(events, StackOutOfSupply)
    assert (stack.protection, stack.faces, stack.destroyed) == (["hive"], [4], False)
    assert "hive d6 4 (holds)" in stack.explain()
    assert g.state.counters["ig-1"].location == "hive_b"
    assert one(events, SupplyChecked).explain() == (
        "imperials cut off in hive_b; lost: none (rules: Supply; BFA-13)"
    )


def test_a_stack_with_a_hive_dies_on_1_to_3() -> None:
    g = _cut_off_hive_b()
    events = g.when(c.EndPhase(player="imperials"), dice=[3])
    assert one(events, StackOutOfSupply).destroyed
    assert g.state.counters["ig-1"].location == "pool"
    assert not g.state.sites["hive_b"].ruined  # the hive itself needs no supply


def test_a_hive_and_a_fortification_roll_twice_and_die_only_if_both_fail() -> None:
    g = _cut_off_hive_b(at("fort-1", "hive_b"))
    events = g.when(c.EndPhase(player="imperials"), dice=[2, 5])
    stack = one(events, StackOutOfSupply)
    assert (stack.protection, stack.faces, stack.destroyed) == (
        ["hive", "fortification"],
        [2, 5],
        False,
    )
    g2 = _cut_off_hive_b(at("fort-1", "hive_b"))
    events = g2.when(c.EndPhase(player="imperials"), dice=[2, 3])
    assert one(events, StackOutOfSupply).destroyed
    assert g2.state.counters["fort-1"].location == "hive_b"


def test_two_fortifications_give_one_roll_as_one_does() -> None:
    """Given a cut-off stack in hive_b with two fortifications (version 5: any number stack),
    when supply is checked, then it rolls once for the hive and once for its fortifications
    (rules: Supply: "a hive or fortification"), and dies only if both rolls fail."""
    g = _cut_off_hive_b(at("fort-1", "hive_b"), at("fort-2", "hive_b"))
    events = g.when(c.EndPhase(player="imperials"), dice=[2, 3])
    stack = one(events, StackOutOfSupply)
    assert (stack.protection, stack.faces, stack.destroyed) == (
        ["hive", "fortification"],
        [2, 3],
        True,
    )


def test_a_chapter_out_of_supply_flips_to_its_detachment() -> None:
    _, events = imperial_card_ends(
        at("blood_angels", "river_a"), at("boyz-2", "plain_a"), at("boyz-3", "ash_b")
    )
    assert one(events, ChapterReduced).counter == "blood_angels"


def test_only_the_phasing_players_supply_is_checked() -> None:
    _, events = imperial_card_ends(at("boyz-2", "hive_e"))  # an Ork deep in Imperial lands
    assert [e.player for e in of(events, SupplyChecked)] == ["imperials"]


def test_supply_areas_held_by_the_enemy_do_not_supply() -> None:
    g = game(
        *in_phase("orks", "combat"),
        PhaseEnded(phase="combat", player="orks"),
        PhaseBegan(phase="movement", player="orks", index=1),
        at("boyz-2", "jungle_c"),
        off("boyz-1"),
        at("ig-1", "plain_b"),
        at("ig-2", "ork_a"),
    )
    events = g.when(c.EndPhase(player="orks"))
    cut = one(events, SupplyChecked).cut_off
    assert "jungle_c" in cut
    assert "ork_b" not in cut  # sunz-1 traces to ork_c


def test_a_stack_on_an_intact_factory_has_no_roll_to_survive() -> None:
    # factory_f's neighbours: mount_c (mountains) and sea_d carry no line; hive_e holds Orks
    g, events = imperial_card_ends(at("ig-1", "factory_f"), at("boyz-2", "hive_e"))
    stack = one(events, StackOutOfSupply)
    assert (stack.area, stack.protection, stack.faces, stack.destroyed) == (
        "factory_f",
        [],
        [],
        True,
    )
    assert g.state.counters["ig-1"].location == "pool"
    assert not g.state.sites["factory_f"].ruined  # the factory itself needs no supply


def test_a_stack_cut_off_with_nothing_to_roll_for_explains_why_it_is_destroyed() -> None:
    """Given an Imperial Guard counter in river_a, cut off by Orks in plain_a and ash_b, when the
    Imperials' Strategy Card ends, then the stack and the check explain its loss (BFA-13)."""
    _, events = imperial_card_ends(
        at("ig-1", "river_a"), at("boyz-2", "plain_a"), at("boyz-3", "ash_b")
    )
    assert one(events, StackOutOfSupply).explain() == (
        "river_a: no supply line, no hive or fortification → destroyed (a full Marine Chapter "
        "flips to its detachment instead) (rules: Supply; BFA-13)"
    )
    assert one(events, SupplyChecked).explain() == (
        "imperials cut off in river_a; lost: ig-1 (rules: Supply; BFA-13)"
    )


def test_a_supply_check_names_the_chapter_that_flipped_apart_from_the_counters_lost() -> None:
    """Given the Blood Angels cut off with an Imperial Guard counter, when the check destroys
    their stack, then the chapter flips to its detachment and stays (BFA-13), and the check
    names it apart from the counter lost (since version 7)."""
    g, events = imperial_card_ends(
        at("ig-1", "river_a"),
        at("blood_angels", "river_a"),
        at("boyz-2", "plain_a"),
        at("boyz-3", "ash_b"),
    )
    assert g.state.counters["blood_angels"].reduced
    assert g.state.counters["blood_angels"].location == "river_a"
    checked = one(events, SupplyChecked)
    assert (checked.lost, checked.flipped) == (["ig-1", "blood_angels"], ["blood_angels"])
    assert checked.explain() == (
        "imperials cut off in river_a; lost: ig-1; flipped to detachments: blood_angels "
        "(rules: Supply; BFA-13)"
    )


def test_a_version_6_supply_check_keeps_its_event_and_says_eliminated() -> None:
    """Given the same stack in a game begun under version 6, when the check destroys it, then
    its event is as version 6 logged it (no ``flipped``, so its log re-derives) and its
    explanation, which cannot tell the chapter, says eliminated and what that means for one."""
    _, events = imperial_card_ends(
        at("ig-1", "river_a"),
        at("blood_angels", "river_a"),
        at("boyz-2", "plain_a"),
        at("boyz-3", "ash_b"),
        version="6",
    )
    checked = one(events, SupplyChecked)
    assert "flipped" not in msgspec.json.decode(msgspec.json.encode(checked))
    assert checked.explain() == (
        "imperials cut off in river_a; eliminated: ig-1, blood_angels (a full Marine Chapter "
        "flips to its detachment instead) (rules: Supply; BFA-13)"
    )
