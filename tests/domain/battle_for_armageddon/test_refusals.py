"""A refused command names what is wrong in the case at hand, as a tournament player reads it."""

from __future__ import annotations

from tests.domain.battle_for_armageddon.combat_helpers import attack, orks_attack
from tests.domain.battle_for_armageddon.helpers import at, before_phase, game, in_phase, off
from tests.domain.battle_for_armageddon.test_build import RUINS, imperial_build, ork_build
from tests.domain.battle_for_armageddon.test_results import ghazghkull_s_boyz_won_a_de
from tests.domain.battle_for_armageddon.test_specials import drawn
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.combat_events import SiteRuined
from warlog.domain.battle_for_armageddon.turn_events import ReinforcementsArrived


def test_moving_the_other_side_s_counter_names_whose_it_is() -> None:
    g = game(*in_phase("orks", "movement"), at("ig-1", "hive_a"))
    refused = g.when_rejected(
        c.Move(player="orks", counter="ig-1", to="plain_a"), code="rules/not_your_counter"
    )
    assert str(refused) == "ig-1 is a counter of the imperials: the orks cannot move it"


def test_a_stack_that_cannot_join_an_attack_is_told_why() -> None:
    g = game(*in_phase("orks", "combat"), at("ig-1", "plain_a"), at("ig-2", "plain_b"))
    g.events(at("boyz-2", "ash_b"))
    # plain_b holds only Imperials: no Ork counter stands there to attack from it
    refused = g.when_rejected(
        c.Attack(player="orks", target="plain_a", stacks=["plain_b"]), code="rules/no_attackers"
    )
    assert str(refused) == (
        "plain_b cannot join the attack: no orks counter stands in plain_b (rules: Combat Phase)"
    )


def test_a_long_name_a_command_gives_is_quoted_short_and_the_refusal_keeps_its_reason() -> None:
    """Given the Orks' set-up and an Orks' combat phase, when a deployment names an area of
    three thousand characters, an attack a target of five thousand, and a move a counter of as
    many, then each refusal quotes the first characters only and still says what is wrong
    (the server hands the line back as it is); a name the map knows is not quoted."""
    long = "y" * 3000
    short = repr("y" * 57 + "...")
    refused = game().when_rejected(
        c.Deploy(player="orks", counter="boyz-1", to=long), code="rules/not_ork_territory"
    )
    assert str(refused) == f"{short} is not an open area of Ork Territory"
    known = game().when_rejected(
        c.Deploy(player="orks", counter="boyz-1", to="plain_a"), code="rules/not_ork_territory"
    )
    assert str(known) == "plain_a is not an open area of Ork Territory"
    g = game(*in_phase("orks", "combat"), at("ig-1", "plain_a"), at("boyz-2", "ash_b"))
    attacked = g.when_rejected(
        c.Attack(player="orks", target=long, stacks=["ash_b"]), code="rules/unknown_area"
    )
    assert str(attacked) == f"there is no area {short}"
    g = game(*in_phase("orks", "movement"))
    moved = g.when_rejected(
        c.Move(player="orks", counter=long, to="plain_a"), code="rules/unknown_counter"
    )
    assert str(moved) == f"there is no counter {short}"


def test_every_refusal_that_names_an_unknown_counter_or_area_quotes_it_short() -> None:
    """Given a game at each step where a command names a counter or an area (placing, rebuilding,
    moving, deploying, taking a loss, retreating, a drop pod, a reconstruction), when the name is
    three thousand characters the game does not know, then the refusal quotes its first
    characters only."""
    long = "y" * 3000
    short = repr("y" * 57 + "...")
    g, _ = imperial_build()
    g.when(c.Build(player="imperials", counter="riders-1"))
    g.when(c.FinishBuilding(player="imperials"))
    placed = g.when_rejected(
        c.Place(player="imperials", counter="riders-1", to=long), code="rules/bad_place"
    )
    assert str(placed).startswith(f"riders-1 cannot be placed in {short}: it must be")
    g, _ = ork_build(*RUINS, at("boyz-2", "hive_b"), at("boyz-3", "factory_f"), off("boyz-4"))
    rebuilt = g.when_rejected(
        c.Rebuild(player="orks", counter="boyz-4", to=long), code="rules/bad_place"
    )
    assert str(rebuilt).startswith(f"boyz-4 cannot be rebuilt in {short}: it must be")
    g = game(*in_phase("orks", "movement"))
    moved = g.when_rejected(
        c.Move(player="orks", counter="boyz-1", to=long), code="rules/unknown_area"
    )
    assert str(moved) == f"there is no area {short}"
    deployed = game().when_rejected(
        c.Deploy(player="orks", counter=long, to="plain_a"), code="rules/unknown_counter"
    )
    assert str(deployed) == f"there is no counter {short}"
    g = orks_attack(at("boyz-2", "plain_b"), at("mob-1", "plain_b"), at("ig-1", "plain_a"))
    g.events(at("ig-2", "plain_a"))
    attack(g, "plain_a", "plain_b", die=2)  # 5 vs 6 → 1:2, roll 2 → AR
    lost = g.when_rejected(c.TakeLoss(player="orks", counter=long), code="rules/bad_choice")
    assert str(lost).startswith(f"{short} cannot be taken as the loss in plain_b; choose one of")
    g.when(c.TakeLoss(player="orks", counter="mob-1"))
    wrong = g.when_rejected(
        c.Retreat(player="orks", counter=long, to="ash_b"), code="rules/bad_choice"
    )
    assert str(wrong) == f"boyz-2 retreats next, not {short}"
    far = g.when_rejected(
        c.Retreat(player="orks", counter="boyz-2", to=long), code="rules/bad_choice"
    )
    assert str(far).startswith(f"boyz-2 cannot retreat to {short}; it may go to")
    g = game(*in_phase("imperials", "movement"), *drawn("imperials", "drop-pod-1"))
    g.events(ReinforcementsArrived(turn=3, counters=["blood_angels", "dante"]))
    for counter, area, expected in (
        (long, "jungle_c", f"{short} is not a READY Marine counter"),
        ("blood_angels", long, f"blood_angels cannot land in {short} (terrain, enemy or stacking)"),
    ):
        pod = c.PlaySpecial(player="imperials", card="drop-pod-1", area=area, counter=counter)
        assert str(g.when_rejected(pod, code="rules/bad_target")) == expected
    g = game(*before_phase("imperials", "build"), *drawn("imperials", "reconstruction-1"))
    g.events(SiteRuined(site="hive_b", area="hive_b", defence=4, track=16))
    g.when(c.EndPhase(player="imperials"))
    rebuilt = c.PlaySpecial(player="imperials", card="reconstruction-1", area=long)
    assert str(g.when_rejected(rebuilt, code="rules/bad_target")) == (
        f"{short} holds no smoking ruins free of Orks to reconstruct"
    )


def test_building_placing_or_rebuilding_a_counter_the_game_does_not_know_names_it() -> None:
    """Given the Imperials buying, then placing, and the Orks rebuilding, when each names a
    counter the scenario has none of, then the refusal says so (``rules/unknown_counter``)."""
    g, _ = imperial_build()
    built = g.when_rejected(
        c.Build(player="imperials", counter="ig-99"), code="rules/unknown_counter"
    )
    assert str(built) == "there is no counter 'ig-99'"
    g.when(c.FinishBuilding(player="imperials"))
    placed = g.when_rejected(
        c.Place(player="imperials", counter="ig-99", to="hive_a"), code="rules/unknown_counter"
    )
    assert str(placed) == "there is no counter 'ig-99'"
    g, _ = ork_build(*RUINS, at("boyz-2", "hive_b"), at("boyz-3", "factory_f"), off("boyz-4"))
    rebuilt = g.when_rejected(
        c.Rebuild(player="orks", counter="boyz-99", to="hive_b"), code="rules/unknown_counter"
    )
    assert str(rebuilt) == "there is no counter 'boyz-99'"


def test_deploying_an_imperial_counter_in_the_ork_set_up_is_refused() -> None:
    """Given the Orks' set-up with ig-1 on the map, when the Orks redeploy ig-1, then it is
    refused: only Ork counters on the map are set up again (rules: Set-Up; BFA-18)."""
    g = game(at("ig-1", "hive_a"))
    refused = g.when_rejected(
        c.Deploy(player="orks", counter="ig-1", to="ork_a"), code="rules/not_your_counter"
    )
    assert str(refused) == "ig-1 is not an Ork counter on the map"


def test_an_attack_from_an_area_the_map_does_not_have_is_refused() -> None:
    g = game(*in_phase("orks", "combat"), at("ig-1", "plain_a"), at("boyz-2", "plain_b"))
    refused = g.when_rejected(
        c.Attack(player="orks", target="plain_a", stacks=["plain_b", "nowhere"]),
        code="rules/unknown_area",
    )
    assert str(refused) == "there is no area 'nowhere'"


def test_a_stack_of_fortifications_alone_cannot_join_an_attack_and_is_told_why() -> None:
    """Given fort-1 alone in plain_b beside Orks in plain_a, when the Imperials attack from
    plain_b, then it is refused: fortifications do not attack (rules: Special Units; Combat
    Phase)."""
    g = game(*in_phase("imperials", "combat"), at("fort-1", "plain_b"), at("boyz-2", "plain_a"))
    refused = g.when_rejected(
        c.Attack(player="imperials", target="plain_a", stacks=["plain_b"]),
        code="rules/no_attackers",
    )
    assert str(refused) == (
        "plain_b cannot join the attack: only fortifications of the imperials stand in "
        "plain_b, and they do not attack (rules: Combat Phase)"
    )


def test_an_advance_naming_a_counter_twice_is_refused() -> None:
    g = ghazghkull_s_boyz_won_a_de()
    refused = g.when_rejected(
        c.Advance(player="orks", counters=["boyz-2", "boyz-2"]), code="rules/bad_choice"
    )
    assert str(refused) == "a counter is named twice"


def test_a_card_that_targets_nothing_refuses_an_area_or_a_counter() -> None:
    """Given the Orks' combat phase and a Waaagh! in hand, when it is played naming an area, then
    it is refused: a die bonus is played for the phase, not on a place (BFA-11)."""
    g = game(*in_phase("orks", "combat"), *drawn("orks", "waaagh-1"))
    refused = g.when_rejected(
        c.PlaySpecial(player="orks", card="waaagh-1", area="plain_a"), code="rules/bad_target"
    )
    assert str(refused).endswith(" takes no area or counter")
