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
from tests.domain.armageddon_empires.helpers import (
    Scripted,
    army_block,
    game,
    only,
    sight,
    standing_in,
    with_ap,
)
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.air_events import AirStrikeLaunched, AirStrikeLaunchedSealed
from warlog.domain.armageddon_empires.air_launch import HELO_FROM_ARMY_DAMAGE, legal_strikes
from warlog.domain.armageddon_empires.challenge_events import CardDamaged
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


def test_only_an_attack_card_of_the_hand_is_played_and_only_a_precise_one_names_its_target() -> (
    None
):
    # given red's hawk and plate in hand, and blue's jay in blue's
    g = skies(["hawk", "plate"], ["jay"])
    # then red cannot play blue's card, nor its plate, which is no attack card (p.19)
    err = g.when_rejected(
        PlayAttackCard(player="red", card="blue.jay.1", at="3,2", aim="unit"), "rules/not_in_hand"
    )
    assert str(err) == "card 'blue.jay.1' is not in red's hand"
    err = g.when_rejected(
        PlayAttackCard(player="red", card="red.plate.1", at="3,2", aim="unit"),
        "rules/not_an_attack_card",
    )
    assert str(err) == "red.plate.1 is not an attack card (p.19)"
    # and the hawk, without Precision Targeting, strikes a random target: it names none (p.31)
    err = g.when_rejected(
        PlayAttackCard(player="red", card="red.hawk.1", at="3,2", target="blue.plate.1"),
        "rules/no_precision_targeting",
    )
    assert "leave 'target' out (p.31)" in str(err)


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


def test_a_game_of_version_12_already_flies_a_helo_from_its_base_and_seals_where_from() -> None:
    # given the base 5 hexes away and an army 4 away, a helo of range 5, in a game of version 12
    launched = helo_strike(5, version=12)
    # then it flies from the base, unhurt (AE-39 since version 12), and only red learns where
    assert (launched.launched_from, launched.distance, launched.launch_damage) == ("red-hq", 5, 0)
    assert secrets_of(launched) == [("launched_from", "red"), ("distance", "red")]


def chopper_skies(range_: int, hit_points: int = 1) -> Given:
    """Red's helo of ``range_`` and ``hit_points`` in the hand (``helo_strike``'s set-up)."""
    chopper = CHOPPER.format(range=range_).replace("hit_points = 1", f"hit_points = {hit_points}")
    return skies(["chopper"], [], more=chopper)


CHOPPER_ON_BLUE_A = PlayAttackCard(player="red", card="red.chopper.1", at="3,2", aim="unit")


def test_a_helo_launched_from_an_army_takes_1_damage_first_and_flies_on() -> None:
    # given a helo of 2 hit points that reaches 3,2 only from red's army red-a
    g = chopper_skies(4, hit_points=2)
    # when it is played
    events = g.when(CHOPPER_ON_BLUE_A)
    # then it takes 1 damage before its challenges (p.19; AE-39), and flies on with 1 left
    launched = only(events, AirStrikeLaunched)
    assert launched.launch_damage == 1
    assert "a helo launched from an army takes 1 damage first (p.19; AE-39)" in launched.explain()
    damaged = only(events, CardDamaged)
    assert (damaged.card, damaged.amount, damaged.destroyed) == ("red.chopper.1", 1, False)
    assert "red.chopper.1" in g.state.empires["red"].hand


def test_a_helo_flies_only_from_an_army_not_stealthed_and_in_supply() -> None:
    # given a helo that reaches 3,2 only from red-a
    for why in ("stealthed", "out of supply"):
        g = chopper_skies(4)
        if why == "stealthed":
            army = replace(g.state.armies["red-a"], stealthed=True)
            g.state = replace(g.state, armies={**g.state.armies, "red-a": army})
        else:
            red = replace(g.state.empires["red"], out_of_supply=("red-a",))
            g.state = replace(g.state, empires={**g.state.empires, "red": red})
        # then red-a, stealthed or out of supply, launches nothing (p.19; AE-39)
        err = g.when_rejected(CHOPPER_ON_BLUE_A, code="rules/out_of_range")
        assert "(p.19; AE-39)" in str(err), why


def test_a_besieged_base_launches_nothing() -> None:
    # given blue's army besieging red's HQ, the one base from which the hawk reaches 4,2
    g = standing_in(skies(["hawk"], []), "blue-a", "0,0")
    # then the hawk may not fly from it (p.19; AE-39)
    g.when_rejected(
        PlayAttackCard(player="red", card="red.hawk.1", at="4,2", aim="facility"),
        code="rules/out_of_range",
    )


#: a missile of range 2, and a red army holding a Mobile Launcher 2 hexes from blue's HQ
LAUNCHER = """
[[cards]]
kind = "attack"
id = "quill"
name = "Test Quill"
craft = "missile"
attack = 2
defense = 1
fate = 0
hit_points = 1
range = 2
ap = 1

[[cards]]
kind = "unit"
id = "launcher"
name = "Test Launcher"
attack = 1
defense = 1
hit_points = 2
movement = 1
abilities = ["Mobile Launcher"]
""" + army_block("red-l", "red", "2,2", units=("launcher",))


def test_a_missile_flies_from_an_army_holding_a_mobile_launcher_and_takes_no_launch_damage() -> (
    None
):
    # given a missile that reaches blue's HQ only from red-l, which holds a Mobile Launcher
    g = skies(["quill"], [], more=LAUNCHER)
    # when it is played on the HQ
    events = g.when(PlayAttackCard(player="red", card="red.quill.1", at="4,2"))
    # then it flies from the army (p.19), and only a helo takes damage launching from one
    launched = only(events, AirStrikeLaunched)
    assert (launched.launched_from, launched.distance, launched.launch_damage) == ("red-l", 2, 0)
    assert not any(isinstance(e, CardDamaged) for e in events)
    # given the army without its launcher, nothing of red's reaches the HQ
    g = skies(["quill"], [], more=LAUNCHER.replace('["Mobile Launcher"]', "[]"))
    g.when_rejected(
        PlayAttackCard(player="red", card="red.quill.1", at="4,2"), code="rules/out_of_range"
    )


def test_an_attack_card_needs_its_ap_and_may_spend_the_last() -> None:
    hawk = PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit")
    # given red with 1 AP, the hawk costing 2: refused, naming both (p.19)
    err = with_ap(skies(["hawk"], []), "red", 1).when_rejected(hawk, code="rules/not_enough_ap")
    assert str(err).endswith("red.hawk.1 costs 2 AP; red has 1")
    # given red with exactly 2: played, leaving none
    g = with_ap(skies(["hawk"], []), "red", 2)
    g.when(hawk)
    assert g.state.empires["red"].ap == 0


PRECISE_MISSILE = """
[[cards]]
kind = "attack"
id = "lance"
name = "Test Lance"
craft = "missile"
attack = 5
defense = 1
fate = 0
hit_points = 1
range = 6
ap = 1
abilities = ["Precision Targeting"]
"""


def test_a_missile_with_precision_targeting_may_name_a_facility_never_a_unit() -> None:
    # given red's precise missile, and blue's army blue-b, sighted, at blue's HQ
    g = skies(
        ["lance"], [], more=PRECISE_MISSILE + army_block("blue-b", "blue", "4,2", units=("plate",))
    )
    g = sight(g, "red", "blue-b")
    unit = g.state.armies["blue-b"].units[0]
    # then it may not name blue-b's unit (p.31: a missile strikes a facility)
    err = g.when_rejected(
        PlayAttackCard(player="red", card="red.lance.1", at="4,2", target=unit),
        code="rules/no_air_target",
    )
    assert "targets: blue.keep.1, blue.bunker.1 (p.31; AE-42)" in str(err)
    # and is offered the HQ's facilities alone
    offered = {s.target for s in legal_strikes(g.state, "red") if s.card == "red.lance.1"}
    assert offered == {"blue.keep.1", "blue.bunker.1"}
