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
