"""What a battle's steps explain to a referee: where the battle stands, in the game's words, with
the manual's pages."""

from __future__ import annotations

from tests.recorded import recorded
from warlog.domain.armageddon_empires.battle_events import BattleAdvanced
from warlog.domain.armageddon_empires.frames import Battle, BattleSide

RED = BattleSide(empire="red", armies=("red-vanguard",), fighting="red-vanguard")
BLUE = BattleSide(
    empire="blue", armies=("blue-r2-1", "blue-spire-garrison"), fighting="blue-spire-garrison"
)


def test_a_battle_moving_on_to_its_next_round_says_so_in_the_game_s_words() -> None:
    # given battle 2 at 3,8 after 13 rounds, each side with an army in the fight
    battle = Battle(number=2, at="3,8", attacker=RED, defender=BLUE, stage="round", round=13)
    # when it moves on, then its explanation names the next round, the page and who fights
    assert BattleAdvanced(battle=battle, why="both sides have an army in the fight").explain() == (
        "battle 2 at 3,8 moves on: both sides have an army in the fight (p.33). 13 rounds "
        "fought; round 14 is next (p.33; R13). red fights with red-vanguard (its armies in the "
        "battle: red-vanguard); blue fights with blue-spire-garrison (its armies in the battle: "
        "blue-r2-1, blue-spire-garrison)"
    )


def test_a_battle_that_ends_names_its_winner_and_the_side_left_without_an_army() -> None:
    # given the same battle, ended: blue has no army left in the fight
    out = BattleSide(empire="blue", armies=BLUE.armies, out=("blue-r2-1",))
    battle = Battle(
        number=2, at="3,8", attacker=RED, defender=out, stage="end", round=14, winner="red"
    )
    why = "blue has no combat-capable army left to fight (p.34)"
    # when it moves on, then the page its reason carries is not repeated, and the winner named
    assert BattleAdvanced(battle=battle, why=why).explain() == (
        "battle 2 at 3,8 moves on: blue has no combat-capable army left to fight (p.34). 14 "
        "rounds fought; the battle is over: red wins (p.34). red fights with red-vanguard (its "
        "armies in the battle: red-vanguard); blue has no army in the fight (its armies in the "
        "battle: blue-r2-1, blue-spire-garrison; out of the fight: blue-r2-1)"
    )


def test_no_battle_step_of_the_golden_game_explains_itself_by_the_program_s_state() -> None:
    # given Armageddon Empires' golden game; when it is replayed
    arb, game = recorded("armageddon-empires", "ae-golden")
    head, _ = arb.head(game)
    said = [s["explain"] for s in arb.replay(game, 1, head) if s["type"] == "battle_advanced"]
    # then every battle that moves on says so with a page, and never by its stage's name
    assert said and all(" (p.3" in text for text in said)
    assert not [text for text in said if "stage " in text or " fighting;" in text]
