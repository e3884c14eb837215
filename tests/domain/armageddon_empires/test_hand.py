"""The hand: drawing at random from the deck (AE-6) and deploying cards at bases (p.18, p.48)."""

from __future__ import annotations

from tests.domain.armageddon_empires.helpers import (
    BASES,
    EMPIRES,
    game,
    only,
    scenario,
    start_turns,
    with_ap,
)
from warlog.domain.armageddon_empires.commands import DeployCard, DrawCard
from warlog.domain.armageddon_empires.costs import DRAW_CARD_AP
from warlog.domain.armageddon_empires.events import CardDealt, CardDeployed, CardDrawn, TurnBegan
from warlog.domain.armageddon_empires.resources import Resources
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.core.dice import ManualDice
from warlog.domain.core.events import DiceRolled


def test_a_draw_rolls_one_die_per_card_in_the_deck_to_pick_it_for_2_ap() -> None:
    g = start_turns(game())
    assert g.state.empires["red"].deck == ("red.trooper.5", "red.scout.3", "red.guide.1")
    events = g.when(DrawCard(player="red"), dice=[2])
    assert events == [
        DiceRolled(sides=3, faces=[2], purpose="card draw", roller="red", hidden=True),
        CardDrawn(empire="red", card="red.scout.3", ap_cost=2, deck_left=2),
    ]
    red = g.state.empires["red"]
    assert red.hand[-1] == "red.scout.3" and "red.scout.3" not in red.deck
    assert red.ap == 10


def test_the_last_card_of_the_deck_is_drawn_without_a_roll() -> None:
    g = start_turns(game(), first="blue")
    g.when(DrawCard(player="blue"), dice=[1])
    events = g.when(DrawCard(player="blue"), dice=[])
    assert events == [CardDrawn(empire="blue", card="blue.trooper.4", ap_cost=2, deck_left=0)]
    g.when_rejected(DrawCard(player="blue"), code="rules/deck_empty")


def test_the_opening_deal_picks_each_card_by_a_die_and_deals_the_last_of_the_deck_without() -> None:
    # given blue's deck of two troopers, two dealt at the start (AE-15)
    state = RULESET.initial_state(scenario(empires=EMPIRES + "deal = 2\n"))
    # when the game begins, the first deal's hidden die picks the second trooper
    dice = ManualDice([2])
    events = RULESET.begin(state, dice)
    dice.check_all_used()
    # then the last card left is dealt without a roll, as a draw takes it (AE-6)
    rolled = only(events, DiceRolled)
    assert (rolled.sides, rolled.roller, rolled.hidden) == (2, "blue", True)
    assert [e for e in events if isinstance(e, CardDealt)] == [
        CardDealt(empire="blue", card="blue.trooper.4", deck_left=1),
        CardDealt(empire="blue", card="blue.trooper.3", deck_left=0),
    ]


def test_a_full_hand_draws_no_more() -> None:
    g = start_turns(game())
    g.when(DrawCard(player="red"), dice=[1])  # the sixth card
    err = g.when_rejected(DrawCard(player="red"), code="rules/hand_full")
    assert "6 cards" in str(err)
    assert not any(isinstance(c, DrawCard) for c in RULESET.legal_commands(g.state, "red"))


def test_a_unit_deploys_into_the_garrison_for_its_resources_and_half_their_total_in_ap() -> None:
    g = start_turns(game())
    events = g.when(DeployCard(player="red", card="red.trooper.4", base="red-hq"))
    assert events == [
        CardDeployed(
            empire="red",
            card="red.trooper.4",
            base="red-hq",
            army="red-hq-garrison",
            paid=Resources(humans=2, materials=1),
            ap_cost=1,
        )
    ]
    assert events[0].explain() == (
        "red deploys red.trooper.4 into the garrison red-hq-garrison of red-hq: pays humans 2, "
        "materials 1 and 1 AP = 3 resource points ÷ 2, rounded down (p.18; R3)"
    )
    assert g.state.armies["red-hq-garrison"].units == ("red.trooper.1", "red.trooper.4")
    assert g.state.empires["red"].resources == Resources(
        humans=7, materials=8, energy=5, technology=1
    )
    assert "red.trooper.4" not in g.state.empires["red"].hand


def test_a_hero_deploys_as_the_garrison_s_leader() -> None:
    g = start_turns(game())
    g.when(DeployCard(player="red", card="red.captain.2", base="red-hq"))
    assert g.state.armies["red-hq-garrison"].hero == "red.captain.2"


def test_rapid_reaction_deploys_for_no_ap() -> None:
    g = start_turns(game())
    event = only(g.when(DeployCard(player="red", card="red.scout.2", base="red-hq")), CardDeployed)
    assert event.ap_cost == 0 and event.rapid_reaction


def test_a_facility_takes_a_free_slot_at_the_base() -> None:
    g = start_turns(game())
    event = only(
        g.when(DeployCard(player="red", card="red.depot.1", base="red-camp")), CardDeployed
    )
    assert event.army is None and event.ap_cost == 1
    assert g.state.bases["red-camp"].facilities == ("red.depot.1",)


def test_a_base_with_every_slot_taken_has_no_room_for_a_facility() -> None:
    full = BASES.replace('card = "camp"', 'card = "camp"\nfacilities = ["depot"]')
    g = start_turns(game(bases=full))
    g.when_rejected(
        DeployCard(player="red", card="red.depot.2", base="red-camp"), code="rules/no_facility_slot"
    )


def test_heroes_and_units_need_a_barracks_at_the_base() -> None:
    g = start_turns(game())
    g.when_rejected(
        DeployCard(player="red", card="red.trooper.4", base="red-camp"), code="rules/no_barracks"
    )


def test_attack_cards_are_not_deployed() -> None:
    g = start_turns(game())
    err = g.when_rejected(
        DeployCard(player="red", card="red.dart.1", base="red-hq"), code="rules/not_deployable"
    )
    assert "played on a hex" in str(err)


def test_a_second_hq_is_never_deployed() -> None:
    g = start_turns(
        game(empires=EMPIRES.replace('hand = ["trooper", "scout"', 'hand = ["keep", "scout"'))
    )
    g.when_rejected(
        DeployCard(player="red", card="red.keep.2", base="red-hq"), code="rules/second_hq"
    )


def test_a_deployment_needs_the_card_in_hand_an_own_base_resources_ap_and_room() -> None:
    g = start_turns(game())
    g.when_rejected(
        DeployCard(player="red", card="red.trooper.5", base="red-hq"), code="rules/not_in_hand"
    )
    g.when_rejected(
        DeployCard(player="red", card="red.trooper.4", base="blue-hq"), code="rules/not_your_base"
    )
    g.when_rejected(
        DeployCard(player="red", card="red.trooper.4", base="nowhere"), code="rules/unknown_base"
    )
    g.events(TurnBegan(empire="red", place=1, base_ap=0, bonuses=(), ap=0))
    g.when_rejected(
        DeployCard(player="red", card="red.trooper.4", base="red-hq"), code="rules/not_enough_ap"
    )
    g.when(DeployCard(player="red", card="red.scout.2", base="red-hq"))  # Rapid Reaction: 0 AP
    poor = EMPIRES.replace(
        "resources = { humans = 9, materials = 9, energy = 5, technology = 1 }",
        "resources = { humans = 1 }",
    )
    g2 = start_turns(game(empires=poor))
    err = g2.when_rejected(
        DeployCard(player="red", card="red.trooper.4", base="red-hq"),
        code="rules/not_enough_resources",
    )
    assert str(err) == "red.trooper.4 costs humans 2, materials 1; red has humans 1"


def test_a_full_garrison_takes_no_more_cards() -> None:
    eight = BASES.replace(
        'garrison = ["trooper"]', "garrison = [" + ", ".join(['"trooper"'] * 8) + ', "guide"]'
    )
    g = start_turns(game(bases=eight))
    g.when_rejected(
        DeployCard(player="red", card="red.trooper.11", base="red-hq"), code="rules/army_full"
    )
    g.when_rejected(
        DeployCard(player="red", card="red.captain.2", base="red-hq"), code="rules/army_full"
    )


def test_legal_deployments_are_every_card_at_every_base_that_takes_it() -> None:
    g = start_turns(game())
    deploys = {
        (c.card, c.base)
        for c in RULESET.legal_commands(g.state, "red")
        if isinstance(c, DeployCard)
    }
    assert deploys == {
        ("red.trooper.4", "red-hq"),
        ("red.scout.2", "red-hq"),
        ("red.captain.2", "red-hq"),
        ("red.depot.1", "red-hq"),
        ("red.depot.1", "red-camp"),
    }


def test_a_draw_is_offered_with_exactly_its_2_ap_left() -> None:
    g = with_ap(start_turns(game()), "red", DRAW_CARD_AP)
    assert DrawCard(player="red") in RULESET.legal_commands(g.state, "red")
    g.when(DrawCard(player="red"), dice=[1])
    assert g.state.empires["red"].ap == 0


def test_a_barracks_among_the_facilities_takes_heroes_and_units() -> None:
    # p.48: the base's cards include a Barracks, its own card or one of its facilities
    barracks = (
        '\n[[cards]]\nkind = "facility"\nid = "barracks"\nname = "Test Barracks"\n'
        'defense = 1\nstructure = 2\nabilities = ["Barracks"]\n'
    )
    with_barracks = BASES.replace('card = "camp"', 'card = "camp"\nfacilities = ["barracks"]')
    g = start_turns(game(bases=with_barracks, extra=barracks))
    deployed = only(
        g.when(DeployCard(player="red", card="red.trooper.4", base="red-camp")), CardDeployed
    )
    assert deployed.army == "red-camp-garrison"
    assert g.state.armies["red-camp-garrison"].units == ("red.trooper.4",)
