"""A refused command names what is wrong in the case at hand, as a tournament player reads it."""

from __future__ import annotations

from tests.domain.battle_for_armageddon.helpers import at, game, in_phase
from warlog.domain.battle_for_armageddon import commands as c


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
