"""The intercept window (p.30–31; AE-40): the Air-To-Air challenge against the attack card and
each of an intercept's conditions. The set-up: ``air_helpers``.
"""

from __future__ import annotations

from msgspec.structs import replace

from tests.domain.armageddon_empires.air_helpers import accept_all, skies
from tests.domain.armageddon_empires.helpers import only, standing_in
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.air_events import AirStrikeEnded
from warlog.domain.armageddon_empires.challenge_events import CardDamaged, ChallengeOpened
from warlog.domain.armageddon_empires.commands import Intercept, PlayAttackCard
from warlog.domain.armageddon_empires.costs import MAX_AP_OWED
from warlog.domain.armageddon_empires.frames import AirStrike
from warlog.domain.armageddon_empires.ruleset import RULESET


def test_an_intercept_is_an_air_to_air_challenge_that_can_destroy_the_attack_card() -> None:
    g = skies(["hawk"], ["jay"])
    g.when(PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit"))
    # jay's Air To Air 3 against hawk's defence 2: 3 successes to 0 = 3 damage ≥ 2 hit points
    events = g.when(Intercept(player="blue", card="blue.jay.1"), dice=[6, 6, 6, 1, 1])
    opened = only(events, ChallengeOpened).challenge
    assert (opened.kind, opened.attacker.pool.size, opened.defender.pool.size) == (  # type: ignore[union-attr]
        "opposed",
        3,
        2,
    )
    assert g.state.empires["blue"].ap_owed == 2  # outside its turn (AE-19)
    events = accept_all(g)
    assert only(events, CardDamaged).destroyed
    ended = only(events, AirStrikeEnded)
    assert not ended.survived
    assert "red.hawk.1" in g.state.empires["red"].discard
    assert "red.hawk.1" not in g.state.empires["red"].hand
    assert g.state.frames == ()


# ---------------------------------------------------------------------- intercept conditions


def launched(g: Given) -> Given:
    g.when(PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit"))
    return g


def test_an_intercept_needs_the_card_in_range_of_a_base_that_is_not_besieged() -> None:
    g = skies(["hawk"], ["jay"])
    # blue's HQ moved out of jay's range 5 of 3,2 (blue-a still observes the hex)
    g.state = replace(
        g.state, bases={**g.state.bases, "blue-hq": replace(g.state.bases["blue-hq"], at="7,4")}
    )
    launched(g)
    assert RULESET.legal_commands(g.state, "blue") == [Intercept(player="blue")]
    err = g.when_rejected(Intercept(player="blue", card="blue.jay.1"), "rules/cannot_intercept")
    assert "beyond the range 5" in str(err)


def test_an_intercept_needs_a_base_that_is_not_besieged() -> None:
    # red's army besieges blue's HQ
    g = standing_in(skies(["hawk"], ["jay"]), "red-a", "4,2")
    launched(g)
    err = g.when_rejected(Intercept(player="blue", card="blue.jay.1"), "rules/cannot_intercept")
    assert "not besieged" in str(err)


def test_an_intercept_needs_a_card_of_the_interceptor_s_hand() -> None:
    g = launched(skies(["hawk"], ["jay"]))
    err = g.when_rejected(Intercept(player="blue", card="red.hawk.1"), "rules/cannot_intercept")
    assert str(err).endswith("'red.hawk.1' is not in blue's hand")


def test_an_intercept_needs_the_means_to_pay() -> None:
    g = skies(["hawk"], ["jay"], blue_energy=1)
    launched(g)
    err = g.when_rejected(Intercept(player="blue", card="blue.jay.1"), "rules/cannot_intercept")
    # the resources it lacks are named, not the AP it does not lack
    assert str(err).endswith("blue.jay.1 costs energy 2; blue has humans 9, materials 9, energy 1")


def test_an_intercept_needs_the_hex_observed() -> None:
    from warlog.domain.armageddon_empires.intercept import intercept_problem, observes

    g = skies(["hawk"], ["jay"])
    launched(g)
    strike = g.state.frames[-1]
    assert isinstance(strike, AirStrike)
    assert observes(g.state, "blue", "3,2")  # its army stands there
    # without its army there, blue's bases observe nothing at 3,2: no intercept
    gone = replace(g.state, armies={a: v for a, v in g.state.armies.items() if a != "blue-a"})
    assert not observes(gone, "blue", "3,2")
    assert "does not observe" in intercept_problem(gone, "blue", strike, "blue.jay.1")


def owing(ap_owed: int) -> Given:
    """Red's hawk launched at 3,2; blue, outside its turn, already owes ``ap_owed`` AP."""
    g = skies(["hawk"], ["jay"])
    blue = replace(g.state.empires["blue"], ap_owed=ap_owed)
    g.state = replace(g.state, empires={**g.state.empires, "blue": blue})
    return launched(g)


def test_an_intercept_outside_its_turn_may_owe_up_to_the_limit_of_ap_owed() -> None:
    # given blue owes 4: the jay's 2 AP bring it to the limit of 6 (AE-19), and it may intercept
    assert MAX_AP_OWED == 6
    g = owing(4)
    g.when(Intercept(player="blue", card="blue.jay.1"), dice=[1] * 5)
    assert g.state.empires["blue"].ap_owed == 6
    # given blue owes 5, the jay would bring it past the limit: refused, naming it
    err = owing(5).when_rejected(
        Intercept(player="blue", card="blue.jay.1"), "rules/cannot_intercept"
    )
    assert str(err).endswith("blue already owes 5 of at most 6 (AE-19)")


def test_an_interceptor_re_rolls_with_its_own_fate() -> None:
    g = launched(skies(["hawk"], ["jay"]))
    events = g.when(Intercept(player="blue", card="blue.jay.1"), dice=[1] * 5)
    opened = only(events, ChallengeOpened).challenge
    # the interceptor's side carries its own fate (p.19), the attack card's its own (R6)
    assert opened.attacker.fate_hero == "blue.jay.1"
    assert opened.defender is not None and opened.defender.fate_hero == "red.hawk.1"
