"""Minefields (p.32, p.46; AE-50..AE-53), in given-when-then form.

The test map is plains along row 0 (no terrain die), and no card in play has Recce, so a move's
hidden observation rolls have no dice: the dice a move takes are the minefield's alone, in the
order of the army's cards (hero, then units), each challenge the minefield's dice then the
card's.
"""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from tests.domain.armageddon_empires.helpers import game, only, start_turns, toml
from tests.domain.armageddon_empires.invariants import check_invariants
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.abilities import ENGINEER, level
from warlog.domain.armageddon_empires.commands import EndTurn, MoveArmy
from warlog.domain.armageddon_empires.events import ArmyMoved
from warlog.domain.armageddon_empires.invariants import violations
from warlog.domain.armageddon_empires.limits import MAX_ARMIES_PER_HEX
from warlog.domain.armageddon_empires.minefield_events import (
    MinefieldsChecked,
    MinefieldsReported,
)
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.scenario_checks import bundled, parse_scenario
from warlog.domain.armageddon_empires.views import view
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import DiceRolled
from warlog.fuzz.noninterference import other_draws

#: our own test cards: a minefield (5 attack dice, 4 structure), a fast unit, a sapper
MINE_CARDS = """
[[cards]]
kind = "facility"
id = "mines"
name = "Test Mines"
defense = 0
structure = 4
abilities = ["Minefield 5"]

[[cards]]
kind = "unit"
id = "sprinter"
name = "Test Sprinter"
attack = 2
defense = 2
hit_points = 2
movement = 4

[[cards]]
kind = "unit"
id = "mailed"
name = "Test Mailed"
attack = 2
defense = 1
hit_points = 3
movement = 4
abilities = ["Composite Armor -1"]

[[cards]]
kind = "unit"
id = "sapper"
name = "Test Sapper"
attack = 1
defense = 1
hit_points = 2
movement = 4
abilities = ["Engineer 2"]
"""


def army(army_id: str, empire: str, at: str, hero: str | None, *units: str) -> str:
    hero_line = f'hero = "{hero}"\n' if hero else ""
    listed = ", ".join(f'"{u}"' for u in units)
    return f'\n[[armies]]\nid = "{army_id}"\nempire = "{empire}"\nat = "{at}"\n{hero_line}units = [{listed}]\n'


def minefield(mine_id: str, empire: str, at: str, damage: int = 0) -> str:
    return (
        f'\n[[minefields]]\nid = "{mine_id}"\nempire = "{empire}"\nat = "{at}"\n'
        f'card = "mines"\ndamage = {damage}\n'
    )


#: red's column of a hero (Test Runner: fate 1, 1 wound, movement 4) and two sprinters at 1,0
COLUMN = army("red-col", "red", "1,0", "runner", "sprinter", "sprinter")
FAR = army("blue-a", "blue", "6,5", None, "trooper")


def mined(armies: str = COLUMN + FAR, mines: str = minefield("blue-mines", "blue", "3,0")) -> Given:
    """Red to move first; blue's minefield at 3,0 unless told otherwise."""
    g = game(armies=MINE_CARDS + armies + mines)
    return start_turns(g, "red")


def faces(*parts: list[int]) -> list[int]:
    """A challenge's dice, pool by pool."""
    return [f for part in parts for f in part]


def reported(events: list[Any], controller: str = "blue") -> MinefieldsReported:
    """The one ``minefields_reported`` of ``controller`` among ``events`` (since version 23 one
    more follows, of no empire: AE-67)."""
    return only(
        [e for e in events if getattr(e, "controller", None) == controller], MinefieldsReported
    )


def move(g: Given, to: str, dice: list[int] | None, army_id: str = "red-col") -> list[Any]:
    return g.when(MoveArmy(player="red", army=army_id, to=to), dice=dice)


def test_an_army_entering_an_enemy_minefield_stops_there_at_once() -> None:
    g = mined()
    # runner: 5 vs 1 die; each sprinter: 5 vs 2 dice; no hit anywhere
    events = move(g, "5,0", [1] * 5 + [6] + ([1] * 5 + [6, 6]) * 2)
    moved = only(events, ArmyMoved)
    assert (moved.to, [s.to for s in moved.steps]) == ("3,0", ["2,0", "3,0"])
    assert g.state.armies["red-col"].at == "3,0"
    attack = only(events, MinefieldsChecked).attack
    assert attack is not None and attack.minefield == "blue-mines"
    assert [c.card for c in attack.challenges] == [
        "red.runner.1",
        "red.sprinter.1",
        "red.sprinter.2",
    ]
    loss = reported(events).loss
    assert loss is not None and (loss.lost, loss.removed) == (0, False)
    # red now knows the minefield; blue's own view shows it
    assert g.state.minefields["blue-mines"].known_to == ("red",)
    check_invariants(g.state)


def test_each_card_undergoes_one_challenge_and_the_minefield_loses_the_base_damage() -> None:
    g = mined()
    dice = faces(
        [6, 6, 6, 1, 1],  # runner: 3 − 1 = 2 wounds ≥ 1: killed
        [6],
        [6, 1, 1, 1, 1],  # sprinter 1: 1 − 0 = 1 of 2
        [1, 1],
        [1, 1, 1, 1, 1],  # sprinter 2: no damage
        [6, 6],
    )
    events = move(g, "5,0", dice)
    hidden = [e for e in events if isinstance(e, DiceRolled) and e.faces]
    # the referee's hidden roll (AE-53, version 9): both empires learn their part of its outcome
    # (red its challenges, blue its loss), so it is nobody's secret draw, and the fuzzer's twins,
    # which vary the other side's secret draws, leave it as it is
    assert hidden[0].hidden and hidden[0].roller == "" and len(hidden[0].faces) == 20
    assert not other_draws(events, "blue") and not other_draws(events, "red")
    attack = only(events, MinefieldsChecked).attack
    assert attack is not None
    runner, first, second = attack.challenges
    assert (runner.attack.size, runner.defense.size) == (5, 1)
    assert (runner.base_damage, runner.damage, runner.destroyed) == (2, 2, True)
    assert (first.defense.size, first.base_damage, first.total, first.destroyed) == (2, 1, 1, False)
    assert second.base_damage == 0
    loss = reported(events).loss
    assert loss is not None and (loss.lost, loss.total, loss.limit) == (3, 3, 4)
    state = g.state
    assert "red.runner.1" in state.empires["red"].discard
    assert state.armies["red-col"].cards() == ("red.sprinter.1", "red.sprinter.2")
    assert state.damage["red.sprinter.1"] == 1
    assert state.damage["blue.mines.1"] == 3
    assert not violations(state)
    assert "Minefield 5" in only(events, MinefieldsChecked).explain()


def test_a_minefield_strikes_each_card_at_its_own_defence_whatever_its_army_s_size() -> None:
    # given red's column of four sprinters and no hero, two over its Command Rating of 2
    g = mined(army("red-col", "red", "1,0", None, *["sprinter"] * 4) + FAR)
    # when it walks into blue's minefield, then each sprinter defends with its 2 dice: the
    # penalty of AE-68 is a battle's, not a minefield's (AE-52)
    events = move(g, "5,0", ([1] * 5 + [6, 6]) * 4)
    attack = only(events, MinefieldsChecked).attack
    assert attack is not None
    assert [c.defense.text() for c in attack.challenges] == ["2 = 2 (defense of Test Sprinter)"] * 4


def test_a_game_of_version_8_rolled_a_minefield_s_challenges_as_the_mover_s() -> None:
    g = mined()
    g.state = replace(g.state, rules_version=8)
    events = move(g, "5,0", [1] * 5 + [6] + ([1] * 5 + [6, 6]) * 2)
    (roll,) = [e for e in events if isinstance(e, DiceRolled) and e.faces]
    assert roll.roller == "red" and other_draws(events, "blue")


def test_damage_modifiers_reduce_the_card_s_damage_but_not_the_minefield_s_loss() -> None:
    g = mined(army("red-col", "red", "1,0", None, "mailed") + FAR)
    events = move(g, "5,0", faces([6, 6, 1, 1, 1], [1]))  # 2 − 0 = 2, Composite Armor −1
    attack = only(events, MinefieldsChecked).attack
    assert attack is not None
    (hit,) = attack.challenges
    assert (hit.base_damage, hit.modifier, hit.damage) == (2, -1, 1)
    loss = reported(events).loss
    assert loss is not None and loss.lost == 2


def test_the_minefield_is_removed_when_spent_and_the_rest_of_the_army_is_spared() -> None:
    g = mined(mines=minefield("blue-mines", "blue", "3,0", damage=2))
    dice = [6, 6, 6, 1, 1] + [1] + [1] * 7 + [1] * 7  # the runner's challenge: 3 base damage
    events = move(g, "5,0", dice)
    attack = only(events, MinefieldsChecked).attack
    assert attack is not None
    assert [c.card for c in attack.challenges] == ["red.runner.1"]
    assert attack.spared == ("red.sprinter.1", "red.sprinter.2") and attack.removed
    loss = reported(events).loss
    assert loss is not None and (loss.lost, loss.total, loss.removed) == (3, 5, True)
    assert "blue-mines" not in g.state.minefields
    assert "blue.mines.1" in g.state.empires["blue"].discard
    assert "blue.mines.1" not in g.state.damage
    assert not violations(g.state)
    check_invariants(g.state)


def test_engineer_units_are_immune_and_take_their_x_off_the_minefield_s_dice() -> None:
    g = mined(army("red-col", "red", "1,0", None, "sapper", "sprinter") + FAR)
    events = move(g, "5,0", faces([6, 6, 6], [1, 1]))  # 5 − Engineer 2 = 3 dice against 2
    attack = only(events, MinefieldsChecked).attack
    assert attack is not None
    assert attack.immune == ("red.sapper.1",) and attack.engineer == 2
    (hit,) = attack.challenges
    assert hit.card == "red.sprinter.1"
    assert hit.attack.size == 3 and "Engineer 2 of Test Sapper" in hit.attack.text()
    assert (hit.base_damage, hit.destroyed) == (3, True)
    assert g.state.armies["red-col"].cards() == ("red.sapper.1",)


def test_an_engineer_already_in_the_hex_shields_the_army_that_enters() -> None:
    armies = army("red-dig", "red", "3,0", None, "sapper") + COLUMN + FAR
    mines = minefield("blue-mines", "blue", "4,0")
    g = start_turns(game(armies=MINE_CARDS + armies + mines), "red")
    g.when(MoveArmy(player="red", army="red-dig", to="4,0"), dice=[])  # immune, no challenge
    events = move(g, "5,0", [1] * 3 + [1] + ([1] * 3 + [1, 1]) * 2)
    attack = only(events, MinefieldsChecked).attack
    assert attack is not None and attack.engineer_card == "red.sapper.1"
    assert [c.attack.size for c in attack.challenges] == [3, 3, 3]


def test_an_army_destroyed_by_a_minefield_is_disbanded() -> None:
    g = mined(army("red-col", "red", "1,0", "runner") + FAR)
    events = move(g, "5,0", [6] * 5 + [1])
    attack = only(events, MinefieldsChecked).attack
    assert attack is not None and attack.disbanded
    assert (
        "- red-col is left empty and disbanded (AE-24)" in only(events, MinefieldsChecked).explain()
    )
    assert "red-col" not in g.state.armies
    assert not violations(g.state)


def test_the_army_leaves_next_turn_unharmed_and_is_attacked_again_when_it_comes_back() -> None:
    g = mined()
    move(g, "5,0", [1] * 5 + [6] + ([1] * 5 + [6, 6]) * 2)
    g.when(EndTurn(player="red"))
    g.when(EndTurn(player="blue"))
    start_turns(g, "red")
    events = move(g, "4,0", None)
    assert only(events, ArmyMoved).to == "4,0"
    assert only(events, MinefieldsChecked).attack is None
    assert reported(events).loss is None
    g.when(EndTurn(player="red"))
    g.when(EndTurn(player="blue"))
    start_turns(g, "red")
    events = move(g, "2,0", None)
    assert only(events, ArmyMoved).to == "3,0"
    assert only(events, MinefieldsChecked).attack is not None


def test_an_army_stopped_by_contact_before_its_first_step_is_not_attacked_again() -> None:
    # given red's column stopped last turn in blue's minefield at 3,0, and blue's army at 4,0,
    # which red has not seen
    g = mined(COLUMN + army("blue-b", "blue", "4,0", None, "trooper") + FAR)
    move(g, "5,0", [1] * 5 + [6] + ([1] * 5 + [6, 6]) * 2)
    g.when(EndTurn(player="red"))
    g.when(EndTurn(player="blue"))
    start_turns(g, "red")
    assert "blue-b" not in g.state.sightings.get("red", {})
    # when it moves on through 4,0 and walks into blue's army at its first step
    events = move(g, "5,0", None)
    # then it stays where it stood: it entered no hex, so the minefield does not attack it again
    # (AE-17, AE-51: only entering a mined hex is attacked)
    moved = only(events, ArmyMoved)
    assert (moved.origin, moved.to, moved.contact, moved.steps) == ("3,0", "3,0", "4,0", ())
    assert only(events, MinefieldsChecked).attack is None
    assert reported(events).loss is None


def test_an_empire_s_own_minefield_never_stops_its_armies() -> None:
    g = mined(mines=minefield("red-mines", "red", "3,0"))
    events = move(g, "5,0", [])
    assert only(events, ArmyMoved).to == "5,0"
    assert only(events, MinefieldsChecked).attack is None
    assert reported(events).loss is None


def test_a_game_without_minefield_cards_adds_no_event_to_a_move() -> None:
    no_mines = MINE_CARDS.replace('abilities = ["Minefield 5"]', "abilities = []")
    g = start_turns(game(armies=no_mines + COLUMN + FAR), "red")
    events = move(g, "5,0", [])
    assert not any(isinstance(e, MinefieldsChecked | MinefieldsReported) for e in events)


def test_a_minefield_card_in_the_catalogue_checks_every_move_though_none_is_placed() -> None:
    # AE-54: from the public catalogue, not from what a hand or deck holds, so that the events
    # of a move never tell whether the other side holds a minefield card
    g = mined(mines="")
    events = move(g, "5,0", [])
    assert only(events, MinefieldsChecked).attack is None


def test_the_mover_sees_the_minefield_it_walked_into_but_not_its_damage() -> None:
    g = mined(mines=minefield("blue-mines", "blue", "3,0", damage=1))
    assert view(g.state, "red")["minefields"] == {}
    assert view(g.state, "blue")["minefields"]["blue-mines"]["at"] == "3,0"
    move(g, "5,0", [6, 1, 1, 1, 1] + [1] + ([1] * 5 + [6, 6]) * 2)
    red = view(g.state, "red")
    assert red["minefields"]["blue-mines"]["at"] == "3,0"
    assert "blue.mines.1" in red["instances"] and "blue.mines.1" not in red["damage"]
    assert view(g.state, "blue")["damage"]["blue.mines.1"] == 2


def test_minefields_are_sealed_in_the_game_s_creation_for_the_other_empire() -> None:
    scenario = parse_scenario(
        toml(armies=MINE_CARDS + COLUMN + FAR + minefield("blue-mines", "blue", "3,0"))
    )
    assert ("empires.1.minefields", "blue") in RULESET.hidden_setup(scenario)
    recorded = RULESET.recorded_scenario(scenario)
    assert [m["id"] for m in recorded["empires"][1]["minefields"]] == ["blue-mines"]
    assert recorded["empires"][0]["minefields"] == [] and "minefields" not in recorded
    # version 14 and before sealed each minefield on its own, at the top level
    old = RULESET.at_version("14")
    assert old is not None and ("minefields.0", "blue") in old.hidden_setup(scenario)
    assert [m["id"] for m in old.recorded_scenario(scenario)["minefields"]] == ["blue-mines"]


@pytest.mark.parametrize(
    ("mines", "message"),
    [
        (
            '\n[[minefields]]\nid = "m"\nempire = "blue"\nat = "3,0"\ncard = "sprinter"\n',
            "Minefield X",
        ),
        ('\n[[minefields]]\nid = "m"\nempire = "blue"\nat = "0,0"\ncard = "mines"\n', "base"),
        (
            '\n[[minefields]]\nid = "m"\nempire = "blue"\nat = "1,0"\ncard = "mines"\n',
            "another empire",
        ),
        (minefield("m", "blue", "3,0") + minefield("n", "red", "3,0"), "already holds a minefield"),
        (minefield("m", "green", "3,0"), "unknown empire"),
        (minefield("m", "blue", "3,0", damage=4), "removed"),
    ],
)
def test_a_bad_minefield_is_rejected_with_its_path(mines: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        game(armies=MINE_CARDS + COLUMN + FAR + mines)
    assert "$.minefields[" in str(info.value) and message in str(info.value)


def test_the_summary_lists_the_minefields_an_empire_knows() -> None:
    g = mined(mines=minefield("blue-mines", "blue", "3,0", damage=1))
    move(g, "5,0", [1] * 5 + [6] + ([1] * 5 + [6, 6]) * 2)
    red = RULESET.summary(view(g.state, "red"), "red")
    (table,) = [t for t in red.tables if t.title == "minefields"]
    assert table.rows == [["blue-mines", "blue", "3,0", "blue.mines.1", "unknown"]]
    blue = RULESET.summary(view(g.state, "blue"), "blue")
    (table,) = [t for t in blue.tables if t.title == "minefields"]
    assert table.rows == [["blue-mines", "blue", "3,0", "blue.mines.1", "1"]]


def test_the_bundled_scenario_mines_an_approach_for_each_empire_and_gives_blue_sappers() -> None:
    state = RULESET.initial_state(bundled("cinder-and-glass"))
    assert {m.empire: m.at for m in state.minefields.values()} == {"red": "6,4", "blue": "6,5"}
    assert state.mined and not violations(state)
    sappers = state.armies["blue-sappers"]
    assert [level(state.card(u).abilities, ENGINEER) for u in sappers.units] == [2]
    assert view(state, "red")["minefields"].keys() == {"red-tanglewire"}


def test_a_minefield_that_scores_nothing_keeps_no_damage_entry() -> None:
    g = mined()
    move(g, "5,0", [1] * 5 + [6] + ([1] * 5 + [6, 6]) * 2)
    assert "blue.mines.1" not in g.state.damage


def test_cards_a_minefield_destroys_lie_face_down_for_the_minefield_s_empire() -> None:
    g = mined()
    move(g, "5,0", [6] * 5 + [1] + ([1] * 5 + [6, 6]) * 2)
    assert "red.runner.1" in view(g.state, "red")["empires"]["red"]["discard"]
    assert "red.runner.1" not in view(g.state, "blue")["empires"]["red"]["discard"]


def test_a_card_at_its_points_is_destroyed_and_a_minefield_at_its_structure_is_removed() -> None:
    # given blue's minefield with 2 of its 4 structure left, and red's two sprinters (2 points)
    two = army("red-col", "red", "1,0", None, "sprinter", "sprinter") + FAR
    g = mined(two, minefield("blue-mines", "blue", "3,0", damage=2))
    # when the first sprinter's challenge scores 2 − 0: exactly its points, exactly what is left
    events = move(g, "5,0", faces([6, 6, 1, 1, 1], [1, 1], [1] * 7))
    attack = only(events, MinefieldsChecked).attack
    assert attack is not None
    (hit,) = attack.challenges
    # then the sprinter is destroyed at its points (AE-24), the minefield removed at none left,
    # the second sprinter spared (p.32; AE-52), and the army, not all destroyed, stands
    assert (hit.card, hit.total, hit.limit, hit.destroyed) == ("red.sprinter.1", 2, 2, True)
    assert attack.removed and attack.spared == ("red.sprinter.2",)
    assert not attack.disbanded
    assert g.state.armies["red-col"].cards() == ("red.sprinter.2",)
    assert "blue-mines" not in g.state.minefields


def test_a_minefield_is_spent_by_the_base_damage_though_armor_reduced_the_card_s() -> None:
    # given blue's minefield with 2 of its 4 structure left, and red's mailed unit (armor −1)
    mailed = army("red-col", "red", "1,0", None, "mailed") + FAR
    g = mined(mailed, minefield("blue-mines", "blue", "3,0", damage=2))
    # when its challenge scores 2 − 0, of which the card takes 1
    events = move(g, "5,0", faces([6, 6, 1, 1, 1], [1]))
    # then the minefield loses the base damage 2 and is removed (p.32; AE-52)
    loss = reported(events).loss
    assert loss is not None and (loss.lost, loss.total, loss.removed) == (2, 4, True)
    assert "blue-mines" not in g.state.minefields


def test_a_hex_holding_the_most_armies_of_the_mover_s_empire_is_crossed_though_mined() -> None:
    # given blue's minefield at 3,0, where red already has the most armies a hex may hold
    assert MAX_ARMIES_PER_HEX == 8
    full = "".join(army(f"red-{i}", "red", "2,3", None, "sprinter") for i in range(8))
    g = mined(COLUMN + full + FAR)
    armies = {k: replace(a, at="3,0") if a.at == "2,3" else a for k, a in g.state.armies.items()}
    g.state = replace(g.state, armies=armies)
    # when red's column moves through it to 5,0
    moved = only(move(g, "5,0", []), ArmyMoved)
    # then it does not stop there, since it could not (p.23; AE-51)
    assert moved.to == "5,0"
