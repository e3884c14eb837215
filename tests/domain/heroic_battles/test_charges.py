"""Charges (pp.30–40): contact, flank and rear, joining a melee, the reputation a charging hero
earns (p.23; HB-6), evades (p.38; HB-22) and counter charges (HB-23)."""

from __future__ import annotations

import functools

from tests.domain.heroic_battles.helpers import (
    BLUE_MOVES,
    PROVING_GROUND,
    engaged,
    gained,
    game,
    lost,
    phase,
)
from tests.given_when_then import Given, of, one, tags
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.charges import counter_charge_bars, evade_bars
from warlog.domain.heroic_battles.pieces import combat_of
from warlog.domain.heroic_battles.scenario import Scenario, parse_scenario
from warlog.domain.heroic_battles.state import ChargeFrame
from warlog.domain.heroic_battles.tables import EVADES


def charge(
    unit: str, target: str, facing: str = "front", player: str = "red", **flags: bool
) -> c.Charge:
    """``unit`` charging ``target``'s ``facing`` side; ``flags`` say what it charges through
    (``rough``, ``barrier``)."""
    return c.Charge(player=player, unit=unit, target=target, facing=facing, **flags)  # type: ignore[arg-type]


def counter_charge_refused(g: Given, force: str, unit: str) -> str:
    """What refuses ``force``'s counter charge of ``unit`` (``rules/cannot_counter_charge``; the
    test fails unless that is the refusal)."""
    command = c.CounterCharge(player=force, unit=unit)
    return g.when_rejected(command, code="rules/cannot_counter_charge").message


def test_a_charge_contacts_its_target_and_a_melee_begins_with_a_charging_marker() -> None:
    g = game()
    events = g.when(charge("red-brutes", "blue-horde"), dice=[])
    assert tags(events) == ["charge_declared", "charge_contacted"]
    contact = one(events, ev.ChargeContacted)
    assert (contact.combat, contact.joined) == ("melee-1", False)
    assert "Get In! move of ½ ST" in contact.explain()
    melee = combat_of(g.state, "red-brutes")
    assert melee is not None and melee.sides == {"red": ("red-brutes",), "blue": ("blue-horde",)}
    assert g.state.units["red-brutes"].charging
    g.when_rejected(c.Move(player="red", unit="red-brutes"), code="rules/in_melee")


def test_a_flank_or_rear_charge_engages_the_target_in_its_flank() -> None:
    g = game()
    g.when(charge("red-brutes", "blue-horde", facing="rear"), dice=[])
    melee = combat_of(g.state, "blue-horde")
    assert melee is not None and melee.flanked == ("blue-horde",)


def test_a_second_charger_joins_the_melee_behind_the_first() -> None:
    g = game()
    g.when(charge("red-brutes", "blue-horde"), dice=[])
    events = g.when(charge("red-warriors", "blue-horde", facing="flank"), dice=[])
    contact = one(events, ev.ChargeContacted)
    assert (contact.combat, contact.joined) == ("melee-1", True)
    melee = combat_of(g.state, "blue-horde")
    assert melee is not None
    assert melee.sides["red"] == ("red-brutes", "red-warriors")
    assert melee.flanked == ("blue-horde",)


def test_a_charge_as_the_second_movement_action_is_tested_and_fails_in_place() -> None:
    g = game()
    g.when(c.Move(player="red", unit="red-brutes"), dice=[])
    g.when(charge("red-brutes", "blue-horde"), dice=[2])
    events = g.when(c.AcceptTest(player="red"), dice=[])
    failed = one(events, ev.ChargeFailed)
    assert failed.unit == "red-brutes"
    assert failed.explain() == "red-brutes failed its command test: the charge does not move (HB-3)"
    assert combat_of(g.state, "red-brutes") is None
    assert g.state.frames == ()


def test_a_charge_must_name_an_enemy_on_the_table_not_a_hero_inside_a_unit() -> None:
    g = game()
    g.when_rejected(charge("red-brutes", "red-warriors"), code="rules/not_an_enemy")
    g.when_rejected(charge("red-brutes", "blue-king"), code="rules/hero_attached")
    g.when_rejected(charge("red-brutes", "nobody"), code="rules/unknown_unit")
    g.when_rejected(charge("red-lord", "blue-horde"), code="rules/hero_attached")
    g.events(ev.UnitDestroyed(unit="blue-horde", reason="test set-up"))
    refused = g.when_rejected(charge("red-brutes", "blue-horde"), code="rules/gone")
    assert str(refused) == "blue-horde is no longer on the table (destroyed)"


# -- reputation for charging heroes (p.23; HB-6) ----------------------------------------------------


@functools.cache
def legendary_champion() -> Scenario:
    """The proving ground with the Red Champion a Legendary Hero (level 4), above the Red Lord."""
    text = PROVING_GROUND.read_text()
    old = 'id = "red-champion"\nname = "Red Champion"\nlevel = 1\n'
    assert old in text
    return parse_scenario(text.replace(old, old.replace("level = 1", "level = 4")).encode())


def test_the_army_commander_charging_the_enemy_commanders_unit_into_the_first_combat() -> None:
    g = game()
    events = g.when(charge("red-warriors", "blue-warriors"), dice=[])
    assert gained(events, "red") == [
        "a hero charges into combat",
        "a hero charges into the first combat of the game",
        "a hero charges the enemy Army Commander's unit",
        "the Army Commander charges",
    ]
    assert g.state.forces["red"].tokens == 14
    assert all(e.who == "red-lord" for e in of(events, ev.ReputationGained))


def test_the_army_commander_earns_the_charge_tokens_though_a_hero_of_higher_level_charges_too() -> (
    None
):
    """Given the level-4 Red Champion joined to red-warriors beside the level-3 Army Commander,
    when red-warriors charge, then the Red Lord earns every token, "the Army Commander charges"
    among them (sheet p.23: only 1 Hero per Unit; HB-6: the Army Commander first)."""
    g = game(
        ev.HeroJoined(hero="red-champion", unit="red-warriors", action=1),
        scenario=legendary_champion(),
    )
    events = g.when(charge("red-warriors", "blue-horde"), dice=[])
    assert "the Army Commander charges" in gained(events, "red")
    assert {e.who for e in of(events, ev.ReputationGained)} == {"red-lord"}


def test_of_two_heroes_charging_with_a_unit_the_higher_level_earns_the_tokens() -> None:
    """Given the level-1 Blue Priest joined to blue-horde beside the level-2 Blue Proud, when
    blue-horde charges, then Blue Proud earns the tokens (sheet p.23: only 1 Hero per Unit; HB-6:
    else the highest level), whichever joined first."""
    g = game(*BLUE_MOVES, ev.HeroJoined(hero="blue-priest", unit="blue-horde", action=1))
    events = g.when(charge("blue-horde", "red-brutes", player="blue"), dice=[])
    assert gained(events, "blue") == [
        "a hero charges into combat",
        "a hero charges into the first combat of the game",
    ]
    assert {e.who for e in of(events, ev.ReputationGained)} == {"blue-proud"}


def test_a_hero_charging_after_the_first_combat_earns_one_token_and_units_alone_none() -> None:
    g = game()
    assert gained(g.when(charge("red-brutes", "blue-horde"), dice=[]), "red") == []
    events = g.when(charge("red-champion", "blue-steadfast"), dice=[])
    assert gained(events, "red") == ["a hero charges into combat"]


def test_a_hero_joining_the_first_combat_earns_its_token_once() -> None:
    """HB-38 (p.23, version 3): the first combat was begun by a unit without a hero; the first
    hero to charge into it earns the token, and no other hero after it."""
    g = game()
    assert gained(g.when(charge("red-brutes", "blue-steadfast"), dice=[]), "red") == []
    events = g.when(charge("red-warriors", "blue-steadfast"), dice=[])
    assert one(events, ev.ChargeContacted).combat == "melee-1"
    assert "a hero charges into the first combat of the game" in gained(events, "red")
    assert g.state.first_combat_earned
    events = g.when(charge("red-champion", "blue-steadfast"), dice=[])
    assert gained(events, "red") == ["a hero charges into combat"]


def test_another_token_gained_does_not_use_up_the_first_combat_token() -> None:
    """HB-38: only the first-combat token marks it earned; a token gained for anything else
    before a hero joins the first combat leaves it to be earned."""
    g = game()
    g.when(charge("red-brutes", "blue-steadfast"), dice=[])
    g.events(ev.ReputationGained(force="blue", tokens=1, reason="test set-up", who="blue-king"))
    assert not g.state.first_combat_earned
    events = g.when(charge("red-warriors", "blue-steadfast"), dice=[])
    assert "a hero charges into the first combat of the game" in gained(events, "red")


def test_a_version_2_game_gives_the_first_combat_token_only_to_the_charge_that_begins_it() -> None:
    """Version 2 plays on as it began: a hero joining the first combat earned nothing for it."""
    g = game(version="2")
    g.when(charge("red-brutes", "blue-steadfast"), dice=[])
    events = g.when(charge("red-warriors", "blue-steadfast"), dice=[])
    assert "a hero charges into the first combat of the game" not in gained(events, "red")


def test_a_version_3_game_gives_the_first_combat_token_to_a_hero_joining_it() -> None:
    """Given a game begun under version 3 (the first with HB-38) and the first combat begun by a
    unit without a hero, when a hero charges into it, then it earns the first-combat token
    (sheet p.23: once per game)."""
    g = game(version="3")
    g.when(charge("red-brutes", "blue-steadfast"), dice=[])
    events = g.when(charge("red-warriors", "blue-steadfast"), dice=[])
    assert "a hero charges into the first combat of the game" in gained(events, "red")


# -- evades (p.38; HB-22) ----------------------------------------------------------------------------


def test_a_unit_with_evade_tests_to_evade_and_the_charger_may_fall_short() -> None:
    g = game()
    g.when(charge("red-brutes", "blue-scouts"), dice=[])
    decision = g.ruleset.decision(g.state)
    assert (decision.kind, decision.answers) == (
        "charge_response",
        ("evade", "counter_charge", "receive_charge"),
    )
    events = g.when(c.Evade(player="blue", unit="blue-scouts"), dice=[4])
    evaded = one(events, ev.Evaded)
    assert (evaded.unit, evaded.half_st) == ("blue-scouts", 4)
    assert g.ruleset.decision(g.state).kind == "charge_follow_up"
    events = g.when(c.PressCharge(player="red", contact=False), dice=[])
    pressed = one(events, ev.ChargePressed)
    assert pressed.contact is False
    assert pressed.explain() == (
        "red-brutes follows straight ahead and falls short (Evade Moves, p.38)"
    )
    assert combat_of(g.state, "red-brutes") is None and g.state.units["red-brutes"].done


def test_a_charger_whose_target_evaded_may_still_make_contact() -> None:
    g = game()
    g.when(charge("red-brutes", "blue-scouts"), dice=[])
    g.when(c.Evade(player="blue", unit="blue-scouts"), dice=[6])
    events = g.when(c.PressCharge(player="red", contact=True), dice=[])
    assert one(events, ev.ChargeContacted).target == "blue-scouts"


def test_a_unit_that_fails_to_evade_fights_as_usual() -> None:
    g = game()
    g.when(charge("red-brutes", "blue-scouts"), dice=[])
    g.when(c.Evade(player="blue", unit="blue-scouts"), dice=[1])
    events = g.when(c.AcceptTest(player="blue"), dice=[])
    assert tags(events)[-2:] == ["evade_failed", "charge_contacted"]
    assert one(events, ev.EvadeFailed).explain() == (
        "blue-scouts failed to evade: it fights as usual (Evade Moves, p.38)"
    )


def test_an_evade_is_declared_before_its_test_and_spends_the_units_evade_even_if_it_fails() -> None:
    # given red's brutes charging blue's scouts, which may evade (p.38)
    g = game()
    g.when(charge("red-brutes", "blue-scouts"), dice=[])
    # when the scouts try to evade and roll a 1
    events = g.when(c.Evade(player="blue", unit="blue-scouts"), dice=[1])
    # then the attempt is declared first and its command test follows; the attempt alone uses
    # the scouts' one evade of the phase, whatever the test gives
    assert events[0] == ev.EvadeDeclared(unit="blue-scouts")
    assert tags(events) == [
        "evade_declared",
        "command_tests_called",
        "dice_rolled",
        "command_test_taken",
    ]
    assert g.state.units["blue-scouts"].evaded
    assert events[0].explain() == f"blue-scouts attempts to evade the charge ({EVADES})"
    assert EVADES == "Evade Moves, p.38"
    # and when blue, offered a re-roll of the failed test, accepts it instead
    assert g.ruleset.decision(g.state).kind == "reroll_test"
    events = g.when(c.AcceptTest(player="blue"), dice=[])
    # then the evade fails and the charge makes contact; the evade stays spent, and the scouts
    # may not try again: there is no charge left for them to answer
    assert tags(events) == ["command_test_resolved", "evade_failed", "charge_contacted"]
    assert one(events, ev.ChargeContacted).target == "blue-scouts"
    assert g.state.units["blue-scouts"].evaded
    g.when_rejected(c.Evade(player="blue", unit="blue-scouts"), code="rules/wrong_phase")


def test_only_one_evade_per_movement_phase() -> None:
    g = game()
    g.when(charge("red-brutes", "blue-scouts"), dice=[])
    g.when(c.Evade(player="blue", unit="blue-scouts"), dice=[5])
    g.when(c.PressCharge(player="red", contact=False), dice=[])
    g.when(charge("red-warriors", "blue-scouts"), dice=[])
    decision = g.ruleset.decision(g.state)
    assert decision.answers == ("counter_charge", "receive_charge")
    # the answers offered are the whole check: an evade spent is not among them, and the
    # refusal says so with its rule (HB-22)
    err = g.when_rejected(c.Evade(player="blue", unit="blue-scouts"), code="rules/cannot_evade")
    assert err.message == (
        "blue-scouts cannot evade: it has already tried to evade this movement phase (HB-22)"
    )


def test_an_unattached_hero_evades_without_a_test_and_loses_a_token_unless_non_combatant() -> None:
    g = game()
    g.when(charge("red-brutes", "blue-priest"), dice=[])
    events = g.when(c.Evade(player="blue", unit="blue-priest"), dice=[])
    assert of(events, ev.Evaded) and lost(events, "blue") == []
    g = game(*phase("movement", "blue"))
    g.when(charge("blue-horde", "red-champion", player="blue"), dice=[])
    events = g.when(c.Evade(player="red", unit="red-champion"), dice=[])
    assert lost(events, "red") == [(1, "an unattached hero evades a charge")]


# -- counter charges (HB-23) ----------------------------------------------------------------------------


def test_a_counter_charge_gives_the_charged_unit_a_charging_marker_and_no_reputation() -> None:
    g = game()
    g.when(charge("red-brutes", "blue-scouts"), dice=[])
    events = g.when(c.CounterCharge(player="blue", unit="blue-scouts"), dice=[5])
    assert tags(events)[-2:] == ["counter_charged", "charge_contacted"]
    assert g.state.units["blue-scouts"].charging
    assert gained(events, "blue") == []


def test_a_counter_charge_is_declared_before_its_test_and_a_failed_one_is_simply_contacted() -> (
    None
):
    # given red's brutes charging blue's scouts to their front, in the open (HB-23)
    g = game()
    g.when(charge("red-brutes", "blue-scouts"), dice=[])
    # when the scouts try to counter charge and roll a 1
    events = g.when(c.CounterCharge(player="blue", unit="blue-scouts"), dice=[1])
    # then the attempt is declared first and its command test follows
    assert events[0] == ev.CounterChargeDeclared(unit="blue-scouts")
    assert tags(events)[:2] == ["counter_charge_declared", "command_tests_called"]
    assert events[0].explain() == "blue-scouts attempts to counter charge (HB-23)"
    # and, the failed test accepted, the charge makes contact with no Charging marker for them
    events = g.when(c.AcceptTest(player="blue"), dice=[])
    assert tags(events) == ["command_test_resolved", "charge_contacted"]
    assert not g.state.units["blue-scouts"].charging


def test_no_counter_charge_against_a_flank_charge_or_through_rough_ground() -> None:
    g = game()
    g.when(charge("red-brutes", "blue-scouts", facing="flank"), dice=[])
    assert g.ruleset.decision(g.state).answers == ("evade", "receive_charge")
    assert counter_charge_refused(g, "blue", "blue-scouts") == (
        "blue-scouts cannot counter charge: the charge strikes its flank, not its front (HB-23)"
    )
    g = game()
    g.when(c.Charge(player="red", unit="red-brutes", target="blue-scouts", rough=True), dice=[])
    assert g.ruleset.decision(g.state).answers == ("evade", "receive_charge")
    assert counter_charge_refused(g, "blue", "blue-scouts") == (
        "blue-scouts cannot counter charge: the charge declares rough terrain (HB-23)"
    )


def test_no_counter_charge_against_a_charge_across_a_barrier() -> None:
    """Given red-brutes charging blue-scouts (Counter Charge) to the front across a barrier, when
    the charge's test passes, then the scouts may evade or receive it, not counter charge (HB-23:
    open terrain only)."""
    g = game()
    g.when(charge("red-brutes", "blue-scouts", barrier=True), dice=[5, 5])
    assert g.ruleset.decision(g.state).answers == ("evade", "receive_charge")
    assert (
        counter_charge_refused(g, "blue", "blue-scouts")
        == "blue-scouts cannot counter charge: the charge declares a barrier (HB-23)"
    )


def test_a_counter_charge_refused_for_several_reasons_names_each() -> None:
    """Given red-brutes charging blue-scouts (Counter Charge) in the rear through rough terrain,
    when the scouts counter charge, then the refusal names both bars (HB-23)."""
    g = game()
    g.when(charge("red-brutes", "blue-scouts", facing="rear", rough=True), dice=[])
    assert counter_charge_refused(g, "blue", "blue-scouts") == (
        "blue-scouts cannot counter charge: the charge strikes its rear, not its front; the "
        "charge declares rough terrain (HB-23)"
    )


def test_a_unit_without_the_trait_is_told_it_has_none() -> None:
    """Given blue's horde charging red-riders (Counter Charge, no Evade) and red-skirmishers
    (Evade, no Counter Charge) in turn, when each answers with the trait it lacks, then the
    refusal names the missing trait and its rule (HB-22, HB-23)."""
    g = game(*phase("movement", "blue"))
    g.when(charge("blue-horde", "red-riders", player="blue"), dice=[])
    assert g.ruleset.decision(g.state).answers == ("counter_charge", "receive_charge")
    err = g.when_rejected(c.Evade(player="red", unit="red-riders"), code="rules/cannot_evade")
    assert err.message == (
        "red-riders cannot evade: it has no Evade trait, and only such a unit or an unattached "
        "hero evades (HB-22)"
    )
    g = game(*phase("movement", "blue"))
    g.when(charge("blue-horde", "red-skirmishers", player="blue"), dice=[])
    assert g.ruleset.decision(g.state).answers == ("evade", "receive_charge")
    assert counter_charge_refused(g, "red", "red-skirmishers") == (
        "red-skirmishers cannot counter charge: it has no Counter Charge trait (HB-23)"
    )


def test_a_hero_is_told_only_a_unit_counter_charges() -> None:
    g = game()
    g.when(charge("red-brutes", "blue-priest"), dice=[])
    assert g.ruleset.decision(g.state).answers == ("evade", "receive_charge")
    assert counter_charge_refused(g, "blue", "blue-priest") == (
        "blue-priest cannot counter charge: it is a hero, and only a unit with Counter Charge "
        "counter charges (HB-23)"
    )


def test_a_closed_answer_naming_another_unit_keeps_the_line_that_names_the_charge() -> None:
    g = game()
    g.when(charge("red-brutes", "blue-scouts", facing="flank"), dice=[])
    err = g.when_rejected(
        c.CounterCharge(player="blue", unit="blue-horde"), code="rules/decision_pending"
    )
    assert err.message == (
        "counter_charge is not an answer open now: the game waits for blue to answer the charge "
        "of red-brutes on blue-scouts (evade, receive_charge)"
    )


def test_a_unit_already_in_a_melee_neither_evades_nor_counter_charges() -> None:
    """Given blue-scouts (Evade, Counter Charge) in a melee with red-riders, when red-brutes
    charge them to the front in the open, then the charge joins that melee with no answer asked
    (HB-22, HB-23: not in a melee)."""
    g = game(*engaged("red-riders", "blue-scouts"))
    events = g.when(charge("red-brutes", "blue-scouts"), dice=[])
    assert tags(events) == ["charge_declared", "charge_contacted"]
    assert one(events, ev.ChargeContacted).joined
    # no answer is asked, so no refusal ever says it; the bars still name the melee
    g = game(*engaged("red-riders", "blue-scouts"))
    scouts = g.state.units["blue-scouts"]
    frame = ChargeFrame(charger="red-brutes", target="blue-scouts", facing="front")
    assert evade_bars(g.state, scouts) == ["it is in a melee"]
    assert counter_charge_bars(g.state, frame, scouts) == ["it is in a melee"]


def test_a_target_that_neither_evades_nor_counter_charges_needs_no_answer() -> None:
    g = game()
    events = g.when(charge("red-brutes", "blue-giant"), dice=[])
    assert tags(events) == ["charge_declared", "charge_contacted"]


def test_only_the_charged_unit_answers_the_charge() -> None:
    g = game()
    g.when(charge("red-brutes", "blue-scouts"), dice=[])
    g.when_rejected(c.ReceiveCharge(player="blue", unit="blue-horde"), code="rules/bad_choice")
    g.when_rejected(c.ReceiveCharge(player="red", unit="blue-scouts"), code="rules/not_your_turn")
    g.when_rejected(c.Move(player="red", unit="red-warriors"), code="rules/decision_pending")
    received = one(
        g.when(c.ReceiveCharge(player="blue", unit="blue-scouts"), dice=[]), ev.ChargeReceived
    )
    # and its explanation names the two answers it did not give, with their pages and rulings
    assert received.explain() == (
        "blue-scouts stands to receive the charge: it neither evades (Evade Moves, p.38; HB-22) "
        "nor counter-charges (Counter Charge, Traits, p.68; HB-23)"
    )
