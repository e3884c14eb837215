"""Playing an attack card on a hex (p.19; AE-39): what it costs and where it may be played, and
where it flies from, which only its empire learns. The set-up: ``air_helpers``.
"""

from __future__ import annotations

from msgspec.structs import replace

from tests.domain.armageddon_empires.air_helpers import (
    AIR_CARDS,
    ARMIES,
    BASES,
    ROWS,
    empires,
    skies,
)
from tests.domain.armageddon_empires.helpers import Scripted, game, only
from warlog.domain.armageddon_empires.air_events import AirStrikeLaunched, AirStrikeLaunchedSealed
from warlog.domain.armageddon_empires.air_launch import HELO_FROM_ARMY_DAMAGE
from warlog.domain.armageddon_empires.commands import (
    BuyInitiative,
    DeployCard,
    Intercept,
    PlayAttackCard,
)
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.core.seal import secrets_of


def test_an_aircraft_played_on_a_hex_pays_its_ap_and_resources_and_opens_the_intercept_window() -> (
    None
):
    g = skies(["hawk"], ["jay"])
    ap, energy = g.state.empires["red"].ap, g.state.empires["red"].resources.energy
    events = g.when(PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit"))
    launched = only(events, AirStrikeLaunched)
    assert (launched.launched_from, launched.distance) == ("red-hq", 5)
    assert g.state.empires["red"].ap == ap - 2
    assert g.state.empires["red"].resources.energy == energy - 1
    # blue holds a card: it is asked, whatever its hand holds (AE-40)
    waiting = RULESET.decision(g.state)
    assert waiting is not None and (waiting.kind, waiting.players) == ("intercept", ("blue",))
    assert RULESET.legal_commands(g.state, "blue") == [
        Intercept(player="blue", card="blue.jay.1"),
        Intercept(player="blue"),
    ]


def test_an_attack_card_is_played_not_deployed_and_only_within_range() -> None:
    g = skies(["jay"], [])
    g.when_rejected(
        DeployCard(player="red", card="red.jay.1", base="red-hq"), "rules/not_deployable"
    )
    # jay's range 5 reaches 3,2 (5 hexes) but not 4,2 (6 hexes)
    g.when_rejected(
        PlayAttackCard(player="red", card="red.jay.1", at="4,2", aim="facility"),
        code="rules/out_of_range",
    )
    g.when_rejected(PlayAttackCard(player="red", card="red.jay.1", at="3,2"), code="rules/no_aim")


def test_both_initiative_purchases_are_needed_before_a_strike() -> None:
    g = game(
        ROWS,
        armies=AIR_CARDS + ARMIES,
        bases=BASES.replace("{garrison}", "[]"),
        empires=empires(["hawk"], []),
        resources="",
    )
    g.when(BuyInitiative(player="red", count=0))
    g.when_rejected(
        PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit"),
        code="rules/wrong_phase",
    )
    assert Scripted  # the helpers' dice are used by start_turns


# -- AE-39: where a helo flies from ------------------------------------------------------------

CHOPPER = """
[[cards]]
kind = "attack"
id = "chopper"
name = "Test Chopper"
craft = "helo"
attack = 3
defense = 1
fate = 0
hit_points = 1
range = {range}
ap = 1
"""


def helo_strike(range_: int, version: int | None = None) -> AirStrikeLaunched:
    """Red plays its 1-hit-point helo on 3,2: red-hq (0,0) is 5 hexes away, its army red-a
    (0,1) 4."""
    g = skies(["chopper"], [], more=CHOPPER.format(range=range_))
    if version is not None:
        g.state = replace(g.state, rules_version=version)
    return only(
        g.when(PlayAttackCard(player="red", card="red.chopper.1", at="3,2", aim="unit")),
        AirStrikeLaunched,
    )


def test_a_helo_flies_from_its_base_in_range_though_an_army_is_nearer() -> None:
    # given the base 5 hexes away and an army 4 away, a helo of range 5: from the base, unhurt
    launched = helo_strike(5)
    assert (launched.launched_from, launched.distance, launched.launch_damage) == ("red-hq", 5, 0)
    # given range 4, only the army reaches: from the army, taking its launch damage (p.19)
    launched = helo_strike(4)
    assert (launched.launched_from, launched.distance) == ("red-a", 4)
    assert launched.launch_damage == HELO_FROM_ARMY_DAMAGE


def test_a_game_of_version_11_keeps_its_rules_a_helo_flies_from_the_nearest() -> None:
    launched = helo_strike(5, version=11)
    assert (launched.launched_from, launched.distance) == ("red-a", 4)
    assert launched.launch_damage == HELO_FROM_ARMY_DAMAGE
    # and names where it flew from to everyone
    assert type(launched) is AirStrikeLaunched and secrets_of(launched) == []


def test_where_an_attack_card_flew_from_is_its_empire_s_alone() -> None:
    # given red's helo that reaches 3,2 only from its army red-a, which blue may not have seen
    launched = helo_strike(4)
    # then the army it flew from and its distance are sealed for red (AE-39): blue's log and
    # feed hold neither; the launch damage, which the card's own damage shows, stays public
    assert isinstance(launched, AirStrikeLaunchedSealed)
    assert secrets_of(launched) == [("launched_from", "red"), ("distance", "red")]
    # and so are they when it flies from a base, so that a seal tells nothing of where
    assert secrets_of(helo_strike(5)) == [("launched_from", "red"), ("distance", "red")]
