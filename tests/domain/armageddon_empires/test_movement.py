"""Moving armies: AP 1 per card (p.23; AE-11), terrain cost (R12), one move a turn, entering enemy
hexes to fight (p.33)."""

from __future__ import annotations

import msgspec

from tests.domain.armageddon_empires.arena import HUNT, arena, begin
from tests.domain.armageddon_empires.helpers import (
    ARMIES,
    army_block,
    game,
    only,
    sight,
    start_turns,
)
from tests.domain.armageddon_empires.test_stealth import SNEAKS
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.battle_events import BaseCaptured, EngagementOffered
from warlog.domain.armageddon_empires.commands import CreateArmy, Engage, EngageStealth, MoveArmy
from warlog.domain.armageddon_empires.events import ArmyCreated, ArmyMoved, MoveStep, TurnBegan
from warlog.domain.armageddon_empires.movement import known_held
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.terrain import TERRAIN_TABLE


def moves_of(g: Given, army: str) -> list[str]:
    return sorted(
        c.to
        for c in RULESET.legal_commands(g.state, "red")
        if isinstance(c, MoveArmy) and c.army == army
    )


def test_a_move_costs_1_ap_per_card_and_the_terrain_cost_of_each_hex_entered() -> None:
    g = start_turns(game())
    events = g.when(MoveArmy(player="red", army="red-a", to="3,0"))
    # then each empire's move window: a hidden roll, its checks and what it sights (AE-17)
    assert [e.type_name() for e in events[1:]] == [
        "dice_rolled",
        "observation_checked",
        "armies_sighted",
    ] * 2
    assert events[:1] == [
        ArmyMoved(
            empire="red",
            army="red-a",
            origin="1,0",
            to="3,0",
            steps=(MoveStep("2,0", "plains", 1), MoveStep("3,0", "plains", 1)),
            move_points=2,
            allowance=2,
            allowance_rule="lowest card movement 2 (p.17)",
            cards=3,
            free_cards=0,
            pathfinder=0,
            ap_cost=3,
        )
    ]
    assert events[0].explain() == (
        "red-a moves 1,0 → 3,0: move cost 3 AP = 1 AP × 3 cards (p.23; AE-11); "
        "terrain cost 2 = plains 1 + plains 1 (R12) of 2 movement points (lowest card movement 2 (p.17))"
    )
    assert g.state.armies["red-a"].at == "3,0"
    assert g.state.empires["red"].ap == 12 - 3


def test_hills_cost_two_movement_points_to_enter() -> None:
    g = start_turns(game())
    moved = only(g.when(MoveArmy(player="red", army="red-b", to="2,1")), ArmyMoved)
    assert moved.steps == (MoveStep("1,1", "plains", 1), MoveStep("2,1", "hills", 2))
    assert moved.move_points == 3


def test_a_hex_beyond_the_army_s_movement_points_is_out_of_reach() -> None:
    g = start_turns(game())
    err = g.when_rejected(MoveArmy(player="red", army="red-a", to="2,1"), code="rules/out_of_reach")
    assert (
        str(err)
        == "reaching 2,1 costs 3 movement points; red-a has 2 (lowest card movement 2 (p.17))"
    )


def test_the_hero_s_movement_counts_toward_its_army_s_lowest_card_movement() -> None:
    # the Test Captain moves 3, the Test Scout 4: the army moves 3 (p.17)
    g = start_turns(
        game(armies=ARMIES + army_block("red-c", "red", "0,4", hero="captain", units=("scout",)))
    )
    err = g.when_rejected(MoveArmy(player="red", army="red-c", to="4,4"), code="rules/out_of_reach")
    assert str(err) == (
        "reaching 4,4 costs 4 movement points; red-c has 3 (lowest card movement 3 (p.17))"
    )
    assert only(g.when(MoveArmy(player="red", army="red-c", to="3,4")), ArmyMoved).allowance == 3


def test_rapid_reaction_cards_move_for_no_ap() -> None:
    g = start_turns(game())
    moved = only(g.when(MoveArmy(player="red", army="red-b", to="4,0")), ArmyMoved)
    assert moved.ap_cost == 0 and moved.free_cards == 1


def test_leader_adds_movement_and_pathfinder_lowers_the_ap() -> None:
    g = start_turns(
        game(armies=ARMIES + army_block("red-c", "red", "0,2", hero="guide", units=("trooper",)))
    )
    moved = only(g.when(MoveArmy(player="red", army="red-c", to="3,1")), ArmyMoved)
    assert moved.allowance == 3
    assert moved.allowance_rule == "lowest card movement 2 (p.17) + Leader 1 (p.45)"
    assert moved.ap_cost == 1 and moved.pathfinder == 1
    assert "− Pathfinder 1 (p.45)" in moved.explain()


def test_an_army_moves_once_per_turn() -> None:
    g = start_turns(game())
    g.when(MoveArmy(player="red", army="red-b", to="1,1"))
    g.when_rejected(MoveArmy(player="red", army="red-b", to="2,0"), code="rules/already_moved")
    assert "red-b" not in {
        c.army for c in RULESET.legal_commands(g.state, "red") if isinstance(c, MoveArmy)
    }


def test_armies_move_again_in_their_next_turn() -> None:
    g = start_turns(game())
    g.when(MoveArmy(player="red", army="red-b", to="1,1"))
    g.events(TurnBegan(empire="red", place=1, base_ap=12, bonuses=(), ap=12))
    g.when(MoveArmy(player="red", army="red-b", to="2,0"))


def test_a_garrison_never_moves() -> None:
    g = start_turns(game())
    g.when_rejected(
        MoveArmy(player="red", army="red-hq-garrison", to="1,1"), code="rules/garrison_cannot_move"
    )


def test_an_empty_army_cannot_move() -> None:
    g = start_turns(game())
    g.when(CreateArmy(player="red", army="red-fresh", at="0,0"))
    g.when_rejected(MoveArmy(player="red", army="red-fresh", to="1,1"), code="rules/empty_army")


def test_entering_the_hex_of_an_enemy_army_in_sight_offers_the_engagement_choice() -> None:
    g = start_turns(game(armies=ARMIES + army_block("blue-b", "blue", "2,0", units=("trooper",))))
    sight(g, "red", "blue-b")
    events = g.when(MoveArmy(player="red", army="red-a", to="2,0"))
    offered = only(events, EngagementOffered)
    assert offered.engagement.choices == ("attack", "delay")
    assert g.state.armies["red-a"].at == "2,0"
    assert RULESET.legal_commands(g.state, "red") == [
        Engage(player="red", choice="attack"),
        Engage(player="red", choice="delay"),
    ]


def test_a_hero_alone_may_not_enter_the_hex_of_an_enemy_army_in_sight() -> None:
    armies = ARMIES + army_block("blue-b", "blue", "2,0", units=("trooper",))
    armies += army_block("red-lone", "red", "1,1", hero="guide")
    g = start_turns(game(armies=armies))
    sight(g, "red", "blue-b")
    g.when_rejected(MoveArmy(player="red", army="red-lone", to="2,0"), code="rules/enemy_hex")


def test_a_hex_every_way_into_which_the_mover_knows_to_be_enemy_held_is_out_of_reach() -> None:
    # given blue's armies, seen by red, on the three neighbours of the corner 7,0
    walls = [("blue-w1", "6,0"), ("blue-w2", "6,1"), ("blue-w3", "7,1")]
    armies = ARMIES + "".join(army_block(a, "blue", at, units=("trooper",)) for a, at in walls)
    g = sight(start_turns(game(armies=armies)), "red", *(a for a, _ in walls))
    # then no move of red's reaches 7,0 (AE-5, AE-17)
    assert "7,0" not in moves_of(g, "red-b")
    err = g.when_rejected(MoveArmy(player="red", army="red-b", to="7,0"), "rules/out_of_reach")
    assert str(err) == "no path from 0,1 to 7,0 avoids enemy-held hexes"


def test_walking_into_an_unseen_enemy_army_stops_short_and_both_see_each_other() -> None:
    g = start_turns(game(armies=ARMIES + army_block("blue-b", "blue", "2,0", units=("trooper",))))
    assert "3,0" in moves_of(g, "red-a")  # red does not know blue-b is there
    events = g.when(MoveArmy(player="red", army="red-a", to="3,0"), dice=[])
    moved = only(events, ArmyMoved)
    assert (moved.to, moved.contact, moved.ap_cost, moved.steps) == ("1,0", "2,0", 3, ())
    assert g.state.armies["red-a"].at == "1,0"
    assert g.state.sightings["red"]["blue-b"].how == "contact"
    assert g.state.sightings["blue"]["red-a"].at == "1,0"
    assert "walked into an unseen enemy army at 2,0" in moved.explain()
    assert not [e for e in events if isinstance(e, EngagementOffered)]


def test_walking_into_an_unseen_enemy_army_at_the_destination_enters_to_fight() -> None:
    g = start_turns(game(armies=ARMIES + army_block("blue-b", "blue", "3,0", units=("trooper",))))
    events = g.when(MoveArmy(player="red", army="red-a", to="3,0"), dice=[])
    moved = only(events, ArmyMoved)
    assert (moved.to, moved.contact) == ("3,0", "3,0")
    assert only(events, EngagementOffered).engagement.at == "3,0"


def test_entering_an_undefended_enemy_base_captures_it() -> None:
    g = start_turns(
        game(
            armies=ARMIES.replace('at = "6,5"', 'at = "5,5"')
            + army_block("red-c", "red", "6,5", units=("scout",))
        )
    )
    events = g.when(MoveArmy(player="red", army="red-c", to="7,5"))
    captured = only(events, BaseCaptured)
    assert (captured.base, captured.empire, captured.previous) == ("blue-hq", "red", "blue")
    assert g.state.bases["blue-hq"].empire == "red"


def test_an_enemy_hex_in_sight_cannot_be_crossed() -> None:
    free = start_turns(game())
    assert "3,0" in moves_of(free, "red-a")
    g = start_turns(game(armies=ARMIES + army_block("blue-b", "blue", "2,0", units=("trooper",))))
    sight(g, "red", "blue-b")
    assert "2,0" in moves_of(g, "red-a") and "3,0" not in moves_of(g, "red-a")
    g.when_rejected(MoveArmy(player="red", army="red-a", to="3,0"), code="rules/out_of_reach")


def test_no_more_than_eight_armies_of_one_empire_share_a_hex() -> None:
    g = start_turns(game())
    g.events(*(ArmyCreated(empire="red", army=f"x{i}", at="2,0", ap_cost=0) for i in range(8)))
    g.when_rejected(MoveArmy(player="red", army="red-b", to="2,0"), code="rules/hex_full")
    assert "2,0" not in moves_of(g, "red-b")


def test_a_move_needs_the_ap_for_every_card() -> None:
    g = start_turns(game())
    g.events(TurnBegan(empire="red", place=1, base_ap=2, bonuses=(), ap=2))
    err = g.when_rejected(
        MoveArmy(player="red", army="red-a", to="2,0"), code="rules/not_enough_ap"
    )
    assert str(err) == "moving red-a costs 3 AP; red has 2"
    assert moves_of(g, "red-a") == []


def test_unknown_foreign_and_off_map_targets_are_named() -> None:
    g = start_turns(game())
    g.when_rejected(MoveArmy(player="red", army="ghost", to="2,0"), code="rules/unknown_army")
    g.when_rejected(MoveArmy(player="red", army="blue-a", to="5,5"), code="rules/unknown_army")
    g.when_rejected(MoveArmy(player="red", army="red-b", to="0,-1"), code="rules/off_map")
    g.when_rejected(MoveArmy(player="red", army="red-b", to="up"), code="input/bad_hex")
    g.when_rejected(MoveArmy(player="red", army="red-b", to="0,1"), code="rules/already_there")


def test_legal_moves_are_every_hex_within_the_movement_points() -> None:
    g = start_turns(game())
    # red-a: 2 movement points on plains from 1,0, the hills at 2,1 costing 2
    assert moves_of(g, "red-a") == ["0,0", "0,1", "0,2", "1,1", "1,2", "2,0", "3,0"]


def test_another_empires_army_is_refused_in_the_words_of_one_nobody_has() -> None:
    # given blue's army blue-a, hidden from red (AE-17), and no army "blue-z"
    g = start_turns(game())
    # when red names each of them
    theirs = g.when_rejected(MoveArmy(player="red", army="blue-a", to="5,5"), "rules/unknown_army")
    nobodys = g.when_rejected(MoveArmy(player="red", army="blue-z", to="5,5"), "rules/unknown_army")
    # then the two refusals differ only in the name: red learns nothing of blue's armies
    assert str(theirs) == "red has no army 'blue-a'"
    assert str(nobodys) == "red has no army 'blue-z'"


def test_a_hero_alone_walking_into_an_unseen_enemy_at_its_destination_stops_short() -> None:
    """AE-17, AE-25: only a combat-capable army enters the hex of an enemy it walks into there;
    a hero alone (Test Runner, movement 4) stops in the hex before and both are seen."""
    armies = ARMIES + army_block("blue-b", "blue", "3,0", units=("trooper",))
    g = start_turns(game(armies=armies + army_block("red-lone", "red", "1,1", hero="runner")))
    moved = only(g.when(MoveArmy(player="red", army="red-lone", to="3,0"), dice=[]), ArmyMoved)
    assert (moved.to, moved.contact) == ("2,0", "3,0")
    assert g.state.armies["red-lone"].at == "2,0"


def test_an_army_whose_move_costs_exactly_the_ap_left_may_move() -> None:
    """Given red with 3 AP and red-a's move costing 3 (1 per card, p.23), its moves are
    offered and it moves, leaving red 0 AP."""
    g = start_turns(game())
    g.events(TurnBegan(empire="red", place=1, base_ap=3, bonuses=(), ap=3))
    assert moves_of(g, "red-a") == ["0,0", "0,1", "0,2", "1,1", "1,2", "2,0", "3,0"]
    g.when(MoveArmy(player="red", army="red-a", to="2,0"))
    assert g.state.empires["red"].ap == 0


#: a hero whose Pathfinder 2 is more than the one card of an army of it alone
PATHFINDER = """
[[cards]]
kind = "hero"
id = "tracker"
name = "Test Tracker"
fate = 1
wounds = 1
movement = 2
abilities = ["Pathfinder 2"]
"""


def test_pathfinder_takes_a_move_s_ap_to_nothing_and_never_below() -> None:
    """p.45: Pathfinder X takes X off the move's AP, never below 0: a hero alone with
    Pathfinder 2 moves for 0 AP, and red's AP stays as it was."""
    g = start_turns(game(armies=ARMIES + PATHFINDER + army_block("red-t", "red", "2,2", "tracker")))
    ap = g.state.empires["red"].ap
    moved = only(g.when(MoveArmy(player="red", army="red-t", to="1,2")), ArmyMoved)
    assert (moved.cards, moved.pathfinder, moved.ap_cost) == (1, 2, 0)
    assert "move cost 0 AP = 1 AP × 1 card (p.23; AE-11) − Pathfinder 2 (p.45), never below 0" in (
        moved.explain()
    )
    assert g.state.empires["red"].ap == ap


def test_a_stealthed_army_passes_through_an_enemy_army_its_empire_sees() -> None:
    """p.27: a stealthed army passes enemy armies, even one its empire sees there (AE-17): red's
    stealthed red-sneak crosses blue-wall's hex 3,2, the cheapest way to 4,2."""
    g = begin(arena(SNEAKS + army_block("blue-wall", "blue", "3,2", units=("trooper",))))
    sight(g, "red", "blue-wall")
    g.when(EngageStealth(player="red", army="red-sneak"))
    moved = only(g.when(MoveArmy(player="red", army="red-sneak", to="4,2"), dice=[]), ArmyMoved)
    assert [step.to for step in moved.steps] == ["3,2", "4,2"]


def test_each_terrain_costs_and_defends_as_r12_says() -> None:
    """R12 (rules digest §13; desert 0 and badlands 1 the manual's, p.27, p.30): move cost /
    defence and observation modifier of each terrain, as docs/scenarios.md prints them."""
    table = {name: (t.move, t.defense) for name, t in TERRAIN_TABLE.items()}
    assert table == {
        "plains": (1, 0),
        "desert": (1, 0),
        "badlands": (2, 1),
        "forest": (2, 1),
        "hills": (2, 2),
        "urban": (2, 2),
        "swamp": (3, 1),
        "mountains": (3, 3),
    }


def test_an_army_pays_each_terrain_s_cost_to_enter_it() -> None:
    """R12: a scout (movement 4) steps from 1,3 into the swamp at 2,3 for 3 movement points."""
    g = start_turns(game(armies=ARMIES + army_block("red-c", "red", "1,3", units=("scout",))))
    moved = only(g.when(MoveArmy(player="red", army="red-c", to="2,3")), ArmyMoved)
    assert (moved.steps, moved.move_points) == ((MoveStep("2,3", "swamp", 3),), 3)


def test_an_army_stopped_by_contact_never_stops_in_a_hex_already_full_of_its_armies() -> None:
    """AE-17, p.23: red-c walks 0,0 → 1,0 → 2,0 → 3,0 and meets blue's unseen blue-b at 2,0;
    the hex before, 1,0, already holds 8 red armies, so red-c stops where it began."""
    seven = "".join(army_block(f"red-f{i}", "red", "1,0", units=("trooper",)) for i in range(7))
    armies = ARMIES + seven + army_block("blue-b", "blue", "2,0", units=("trooper",))
    g = start_turns(game(armies=armies + army_block("red-c", "red", "0,0", units=("scout",))))
    moved = only(g.when(MoveArmy(player="red", army="red-c", to="3,0"), dice=[]), ArmyMoved)
    assert (moved.origin, moved.to, moved.contact, moved.steps) == ("0,0", "0,0", "2,0", ())
    assert len(g.state.armies_at("red", "1,0")) == 8


def test_a_seen_enemy_sharing_a_hex_with_an_open_army_of_ours_bars_none_of_our_others() -> None:
    """AE-5, AE-17: red-hunt stands openly with blue's quarry at 2,1, which red has sighted: the
    hex is disputed, no enemy's, so red's other armies may cross it; a stealthed red-hunt holds
    nothing there, and then the quarry's hex is held against them."""
    g = sight(
        begin(arena(HUNT + army_block("red-far", "red", "0,3", units=("trooper",)))),
        "red",
        "blue-quarry",
    )
    far = g.state.armies["red-far"]
    assert "2,1" not in known_held(g.state, far)
    hidden = msgspec.structs.replace(g.state.armies["red-hunt"], stealthed=True)
    g.state = msgspec.structs.replace(g.state, armies={**g.state.armies, "red-hunt": hidden})
    assert "2,1" in known_held(g.state, far)
