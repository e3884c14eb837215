"""The round of turns: initiative dice, AP by initiative order, end of turn, round start."""

from __future__ import annotations

from tests.domain.armageddon_empires.helpers import game, start_turns
from warlog.domain.armageddon_empires.commands import BuyInitiative, DeployCard, EndTurn, MoveArmy
from warlog.domain.armageddon_empires.events import (
    ApBonus,
    GameEnded,
    InitiativeDetermined,
    InitiativeDiceBought,
    ResourcesCollected,
    RoundBegan,
    SupplyTraced,
    TurnBegan,
    TurnEnded,
)
from warlog.domain.armageddon_empires.resources import Resources
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.sighting_events import ArmiesSighted, ObservationChecked
from warlog.domain.core.events import DiceRolled

#: the round's observation window when no empire reaches an enemy army: each empire's empty
#: hidden roll, its (no) checks and (no) sightings, whatever the enemy holds (AE-17)
ROUND_WINDOW = [
    event
    for empire in ("red", "blue")
    for event in (
        DiceRolled(sides=6, faces=[], purpose=f"observation by {empire}", hidden=True),
        ObservationChecked(observer=empire, window="round", checks=()),
        ArmiesSighted(observer=empire, window="round", seen=(), lost=()),
    )
]


def test_the_first_buy_waits_for_the_other_empire_and_rolls_nothing() -> None:
    g = game()
    events = g.when(BuyInitiative(player="red", count=2))
    assert events == [InitiativeDiceBought(empire="red", count=2)]
    assert RULESET.active_players(g.state) == ["blue"]


def test_most_successes_goes_first_with_12_ap_and_pays_its_dice_in_energy() -> None:
    g = game()
    g.when(BuyInitiative(player="red", count=3))
    events = g.when(BuyInitiative(player="blue", count=2), dice=[4, 5, 1, 6, 3])
    assert events == [
        InitiativeDiceBought(empire="blue", count=2),
        DiceRolled(sides=6, faces=[4, 5, 1], purpose="initiative", roller="red"),
        DiceRolled(sides=6, faces=[6, 3], purpose="initiative", roller="blue"),
        InitiativeDetermined(
            order=("red", "blue"),
            dice={"red": 3, "blue": 2},
            successes={"red": 2, "blue": 1},
            paid={"red": Resources(energy=3), "blue": Resources(energy=2)},
        ),
        *ROUND_WINDOW,
        TurnBegan(empire="red", place=1, base_ap=12, bonuses=(), ap=12),
        SupplyTraced(
            empire="red",
            supply_range=4,
            sources=("red-hq at 0,0", "red-camp at 0,4"),
            out_of_supply=(),
        ),
    ]
    assert g.state.empires["red"].resources.energy == 5 - 3
    assert g.state.empires["blue"].resources.energy == 5 - 2
    assert g.state.current == "red" and g.state.empires["red"].ap == 12


def test_the_second_empire_gets_6_ap_when_the_first_ends_its_turn() -> None:
    g = start_turns(game(), first="blue")
    events = g.when(EndTurn(player="blue"))
    assert events[0] == TurnEnded(empire="blue", ap_lost=12)
    assert events[1] == TurnBegan(empire="red", place=2, base_ap=6, bonuses=(), ap=6)
    assert g.state.empires["red"].ap == 6


def test_unspent_ap_is_lost_at_the_end_of_the_turn() -> None:
    g = start_turns(game())
    g.when(MoveArmy(player="red", army="red-b", to="1,1"))
    assert g.state.empires["red"].ap == 12  # a Rapid Reaction scout moves for 0 AP
    g.when(MoveArmy(player="red", army="red-a", to="2,0"))
    assert g.state.empires["red"].ap == 9
    events = g.when(EndTurn(player="red"))
    assert events[0] == TurnEnded(empire="red", ap_lost=9)
    assert g.state.empires["red"].ap == 0


def test_tied_rolls_are_re_rolled() -> None:
    g = game()
    g.when(BuyInitiative(player="red", count=1))
    events = g.when(BuyInitiative(player="blue", count=1), dice=[6, 6, 1, 5])
    result = next(e for e in events if isinstance(e, InitiativeDetermined))
    assert result.order == ("blue", "red")
    assert result.rerolls == 1 and result.successes == {"red": 0, "blue": 1}
    assert [e.purpose for e in events if isinstance(e, DiceRolled)] == [
        "initiative",
        "initiative",
        "initiative re-roll 1",
        "initiative re-roll 1",
        "observation by red",
        "observation by blue",
    ]


def test_empty_pools_re_roll_one_die_each() -> None:
    g = game()
    g.when(BuyInitiative(player="red", count=0))
    events = g.when(BuyInitiative(player="blue", count=0), dice=[2, 4])
    assert [e.faces for e in events if isinstance(e, DiceRolled)] == [[2], [4], [], []]
    assert g.state.order == ("blue", "red")


def test_ties_that_outlast_three_re_rolls_give_the_first_turn_to_last_round_s_last_empire() -> None:
    g = game()
    g.when(BuyInitiative(player="red", count=0))
    events = g.when(BuyInitiative(player="blue", count=0), dice=[1] * 6)
    result = next(e for e in events if isinstance(e, InitiativeDetermined))
    assert result.fallback and result.rerolls == 3
    assert result.order == ("blue", "red")  # round 1: the seat order's last goes first
    assert "went last in the previous round" in result.explain()
    # each empire's notice says so too
    notices = RULESET.notices(g.state, g.state, result)
    assert [n.empire for n in notices] == ["blue", "red"]
    assert all(
        n.text.endswith(
            "(after 3 tied rolls re-rolled, AE-3); the tie outlasted the re-rolls: AE-3's "
            "fallback order decided"
        )
        for n in notices
    )


def test_a_new_round_collects_the_resources_of_each_empire_s_base_hexes() -> None:
    g = start_turns(game())
    g.when(EndTurn(player="red"))
    events = g.when(EndTurn(player="blue"))
    assert events[1:] == [
        RoundBegan(round=2, last_round=3),
        ResourcesCollected(
            empire="red",
            gained=Resources(humans=1, materials=1, energy=2),
            sources=("red-camp at 0,4: humans 1", "red-hq at 0,0: materials 1, energy 2"),
        ),
        ResourcesCollected(
            empire="blue", gained=Resources(energy=1), sources=("blue-hq at 7,5: energy 1",)
        ),
    ]
    assert g.state.round == 2 and g.state.phase == "initiative"
    assert g.state.empires["red"].resources == Resources(
        humans=10, materials=10, energy=7, technology=1
    )
    assert RULESET.is_round_start(events[1])


def test_the_game_ends_after_the_scenario_s_last_round() -> None:
    g = start_turns(game(max_rounds=1))
    g.when(EndTurn(player="red"))
    events = g.when(EndTurn(player="blue"))
    assert isinstance(events[-1], GameEnded) and events[-1].winner is None
    assert RULESET.is_terminal(g.state)
    assert RULESET.legal_commands(g.state, "red") == []
    assert RULESET.active_players(g.state) == []
    g.when_rejected(BuyInitiative(player="red", count=0), code="rules/game_over")


def test_ap_bonus_facilities_add_their_level_to_the_turn_s_ap() -> None:
    g = start_turns(game())
    g.when(DeployCard(player="red", card="red.depot.1", base="red-hq"))
    g.when(EndTurn(player="red"))
    g.when(EndTurn(player="blue"))
    g.when(BuyInitiative(player="red", count=0))
    events = g.when(BuyInitiative(player="blue", count=0), dice=[6, 1])
    began = next(e for e in events if isinstance(e, TurnBegan))
    assert began == TurnBegan(
        empire="red", place=1, base_ap=12, bonuses=(ApBonus(source="red.depot.1", ap=2),), ap=14
    )
    assert began.explain() == (
        "red starts its turn with 14 AP = 12 for initiative place 1 (R10, p.11) "
        "+ 2 from red.depot.1 (AP Bonus, p.48)"
    )


def test_turn_commands_during_the_initiative_phase_are_out_of_phase() -> None:
    game().when_rejected(MoveArmy(player="red", army="red-a", to="2,0"), code="rules/wrong_phase")


def test_buying_initiative_during_the_turns_is_out_of_phase() -> None:
    start_turns(game()).when_rejected(
        BuyInitiative(player="blue", count=1), code="rules/wrong_phase"
    )


def test_the_other_empire_cannot_act_in_a_turn_that_is_not_its_own() -> None:
    g = start_turns(game())
    g.when_rejected(MoveArmy(player="blue", army="blue-a", to="5,5"), code="rules/not_your_turn")
    g.when_rejected(EndTurn(player="blue"), code="rules/not_your_turn")


def test_an_unknown_player_is_rejected() -> None:
    game().when_rejected(BuyInitiative(player="green", count=0), code="input/unknown_player")


def test_initiative_is_bought_once_a_round_within_the_limit_and_the_stockpile() -> None:
    g = game()
    g.when_rejected(BuyInitiative(player="red", count=11), code="rules/too_many_dice")
    g.when_rejected(BuyInitiative(player="red", count=6), code="rules/not_enough_resources")
    g.when(BuyInitiative(player="red", count=5))
    g.when_rejected(BuyInitiative(player="red", count=0), code="rules/already_bought")


def test_legal_initiative_purchases_are_every_affordable_count() -> None:
    g = game()
    legal = RULESET.legal_commands(g.state, "red")
    assert [c.count for c in legal if isinstance(c, BuyInitiative)] == [0, 1, 2, 3, 4, 5]
    assert len(legal) == 6
    assert RULESET.active_players(g.state) == ["red", "blue"]
