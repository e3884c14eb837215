"""Ground battles (p.33–34; R8, R13; AE-25..AE-36): the engagement, set-up and rows, rounds of
Ground Combat Challenges with special attacks and damage modifiers, Next Round and retreat, and
how a battle ends (a garrison's loss, an army with no hex to retreat to, a base changing hands).

Every empire holds no card here, and no hero has fate but where a test says so, so that every
challenge ends by two automatic accepts (AE-20) and a test types only the dice that matter.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from tests.domain.armageddon_empires.games import play
from tests.domain.armageddon_empires.helpers import army_block, game, only, sight, start_turns
from tests.domain.armageddon_empires.invariants import check_invariants
from tests.given_when_then import Given
from warlog.domain.armageddon_empires import battlefield as bf
from warlog.domain.armageddon_empires.autoplay import choose
from warlog.domain.armageddon_empires.battle_events import (
    ArmyDestroyed,
    ArmyRetreated,
    AttackBegan,
    AttackEnded,
    BaseCaptured,
    BattleBegan,
    BattleEnded,
    BattleRoundBegan,
    BattleRoundEnded,
    DelayedBattlesCalled,
    EngagementOffered,
    NextRoundChosen,
    RetreatEnded,
)
from warlog.domain.armageddon_empires.challenge_events import CardDamaged, ChallengeOpened
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    Attack,
    CommitArmy,
    EndTurn,
    Engage,
    MoveArmy,
    NextRound,
    Roll,
    SetUpBattle,
    TakePrerogative,
)
from warlog.domain.armageddon_empires.frames import Battle
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.state import GameState

BATTLE_CARDS = """
[[cards]]
kind = "unit"
id = "lancer"
name = "Test Lancer"
attack = 4
defense = 2
hit_points = 3
movement = 2
abilities = ["Double Attack"]

[[cards]]
kind = "unit"
id = "plated"
name = "Test Plated"
attack = 2
defense = 1
hit_points = 4
movement = 2
abilities = ["Composite Armor -1"]

[[cards]]
kind = "unit"
id = "spray"
name = "Test Spray"
attack = 2
defense = 1
hit_points = 2
movement = 2
abilities = ["Area Attack"]

[[cards]]
kind = "hero"
id = "fox"
name = "Test Fox"
fate = 0
wounds = 2
movement = 3
abilities = ["Trickster 2"]

[[cards]]
kind = "unit"
id = "breaker"
name = "Test Breaker"
attack = 3
defense = 1
hit_points = 3
movement = 2
abilities = ["Breakthrough Attack"]

[[cards]]
kind = "unit"
id = "splitter"
name = "Test Splitter"
attack = 4
defense = 1
hit_points = 3
movement = 2
abilities = ["Multi-targeting"]

[[cards]]
kind = "unit"
id = "marksman"
name = "Test Marksman"
attack = 3
defense = 1
hit_points = 2
movement = 2
abilities = ["Sniper Attack"]

[[cards]]
kind = "hero"
id = "warden"
name = "Test Warden"
fate = 2
wounds = 2
movement = 3
"""

#: no cards in hand: every challenge is accepted automatically on both sides (AE-20)
EMPTY_HANDS = """
[[empires]]
id = "red"
name = "Red"
resources = { humans = 9, materials = 9, energy = 5, technology = 1 }
hand = []
deck = ["trooper"]

[[empires]]
id = "blue"
name = "Blue"
resources = { humans = 9, materials = 9, energy = 5 }
hand = []
deck = ["trooper"]
"""

#: blue's HQ at 7,5 with a trooper in its garrison
GARRISONED = """
[[bases]]
id = "red-hq"
empire = "red"
kind = "stronghold"
at = "0,0"
card = "keep"

[[bases]]
id = "blue-hq"
empire = "blue"
kind = "stronghold"
at = "7,5"
card = "keep"
garrison = ["trooper"]
"""


def field(armies: str, **parts: str) -> Given:
    """Red's turn, red's armies in sight of blue's (none of them hidden)."""
    g = start_turns(game(armies=BATTLE_CARDS + armies, empires=EMPTY_HANDS, **parts))
    blue = [a.id for a in g.state.armies.values() if a.empire == "blue" and a.cards()]
    return sight(g, "red", *blue)


def attack_at(g: Given, army: str, to: str) -> Given:
    """``army`` moves in and attacks; both sides set up with no joiner."""
    g.when(MoveArmy(player="red", army=army, to=to))
    g.when(Engage(player="red", choice="attack"))
    g.when(SetUpBattle(player="red"))
    g.when(SetUpBattle(player="blue"))
    return g


#: red's lancer and plated against blue's Trickster with a plated and a trooper, at 4,0 (plains)
VERSUS_FOX = army_block("red-x", "red", "3,0", units=("lancer", "plated")) + army_block(
    "blue-y", "blue", "4,0", hero="fox", units=("plated", "trooper")
)


def committed(g: Given) -> Given:
    """Red commits red-x all in front; blue commits blue-y with its trooper in the back row."""
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(CommitArmy(player="blue", army="blue-y", back=("blue.trooper.1",)))
    return g


def test_moving_into_enemies_in_sight_offers_attack_or_delay_and_attacking_begins_a_battle() -> (
    None
):
    g = field(VERSUS_FOX)
    events = g.when(MoveArmy(player="red", army="red-x", to="4,0"))
    assert only(events, EngagementOffered).engagement.choices == ("attack", "delay")
    began = only(g.when(Engage(player="red", choice="attack")), BattleBegan)
    assert (began.battle.attacker.armies, began.battle.defender.armies) == (("red-x",), ("blue-y",))
    # both sides are asked to set up, whether or not they have a stealthed army to join (AE-26)
    assert RULESET.legal_commands(g.state, "red") == [SetUpBattle(player="red")]
    g.when(SetUpBattle(player="red"))
    assert RULESET.legal_commands(g.state, "blue") == [SetUpBattle(player="blue")]
    g.when(SetUpBattle(player="blue"))
    # the rows are the committing empire's choice (R13): every split of its units is offered
    backs = {c.back for c in RULESET.legal_commands(g.state, "red") if isinstance(c, CommitArmy)}
    assert backs == {(), ("red.lancer.1",), ("red.plated.1",), ("red.lancer.1", "red.plated.1")}


def test_a_trickster_retreats_before_round_one_against_average_attack_plus_one_minus_its_level() -> (
    None
):
    g = committed(attack_at(field(VERSUS_FOX), "red-x", "4,0"))
    # p.34: a Trickster may retreat before its army's first round
    assert RULESET.decision(g.state).players == ("blue",)  # type: ignore[union-attr]
    events = g.when(NextRound(player="blue", choice="retreat_army"), dice=[6, 6, 1])
    opened = only(events, ChallengeOpened).challenge
    # pursuers: (4 + 2) / 2 = 3, + 1, − Trickster 2 = 2 dice (R8; AE-28)
    assert opened.attacker.pool.size == 2
    assert [t.value for t in opened.attacker.pool.terms] == [3, 1, -2]
    # the plated's Composite Armor −1 does not apply in a retreat (p.34)
    assert only(events, CardDamaged).amount == 2
    assert only(events, RetreatEnded).damage == 2
    assert g.state.damage["blue.plated.1"] == 2
    # the trooper's retreat rolls in a command of its own (AE-37): 2 pursuers + 3 defence
    assert RULESET.legal_commands(g.state, "red") == [Roll(player="red")]
    g.when(Roll(player="red"), dice=[1, 1, 1, 1, 1])
    assert "blue.trooper.1" not in g.state.damage


def test_the_pursuers_average_attack_is_rounded_down() -> None:
    brute = """
[[cards]]
kind = "unit"
id = "brute"
name = "Test Brute"
attack = 5
defense = 1
hit_points = 3
movement = 2
"""
    armies = brute + VERSUS_FOX.replace(
        'units = ["lancer", "plated"]', 'units = ["brute", "lancer"]'
    )
    g = committed(attack_at(field(armies), "red-x", "4,0"))
    assert g.state.armies["red-x"].units == ("red.brute.1", "red.lancer.1")
    events = g.when(NextRound(player="blue", choice="retreat_army"), dice=[1, 1, 1, 1])
    opened = only(events, ChallengeOpened).challenge
    # pursuers: (5 + 4) / 2 = 4.5 rounded down to 4, + 1, − Trickster 2 = 3 dice (R8; AE-28)
    assert [t.value for t in opened.attacker.pool.terms] == [4, 1, -2]
    assert opened.attacker.pool.size == 3
    assert "(5 + 4) / 2 rounded down" in opened.attacker.pool.text()


def test_continue_begins_the_round_with_battle_initiative_and_the_winner_strikes_first() -> None:
    g = committed(attack_at(field(VERSUS_FOX), "red-x", "4,0"))
    events = g.when(NextRound(player="blue", choice="continue"), dice=[6, 6, 1, 6, 1, 1])
    began = only(events, BattleRoundBegan)
    assert (began.battle.round, began.battle.first) == (1, "red")
    assert began.rolls == {"red": (6, 6, 1), "blue": (6, 1, 1)}
    # reach (R13): red's front row reaches only blue's front row with range 1
    strikes = RULESET.legal_commands(g.state, "red")
    assert {(c.unit, c.target) for c in strikes if isinstance(c, Attack)} == {
        ("red.lancer.1", "blue.plated.1"),
        ("red.plated.1", "blue.plated.1"),
    }


def test_initiative_ties_go_to_the_defender() -> None:
    g = committed(attack_at(field(VERSUS_FOX), "red-x", "4,0"))
    events = g.when(NextRound(player="blue", choice="continue"), dice=[6, 1, 1, 6, 1, 1])
    assert only(events, BattleRoundBegan).battle.first == "blue"


def test_double_attack_strikes_the_same_target_again_and_composite_armor_takes_one_off() -> None:
    g = committed(attack_at(field(VERSUS_FOX), "red-x", "4,0"))
    g.when(NextRound(player="blue", choice="continue"), dice=[6, 6, 6, 1, 1, 1])
    lancer = "red.lancer.1"
    events = g.when(Attack(player="red", unit=lancer, target="blue.plated.1"), dice=[6, 6, 6, 1, 1])
    ended = only(events, AttackEnded)
    assert (ended.raw, ended.modifier, ended.damage) == (3, -1, 2)
    # the follow-up: the same target again, nothing else (p.34)
    assert RULESET.legal_commands(g.state, "red") == [
        Attack(player="red", unit=lancer, target="blue.plated.1")
    ]
    events = g.when(Attack(player="red", unit=lancer, target="blue.plated.1"), dice=[6, 6, 6, 1, 1])
    assert only(events, AttackBegan).kind == "double"
    assert only(events, CardDamaged).destroyed  # 2 + 2 of 4
    assert "blue.plated.1" not in g.state.armies["blue-y"].units
    # with its front row gone the trooper stands in front and blue strikes next (R13)
    assert RULESET.decision(g.state).players == ("blue",)  # type: ignore[union-attr]


def test_area_attack_strikes_another_target_in_the_same_row() -> None:
    armies = army_block("red-x", "red", "3,0", units=("spray",)) + army_block(
        "blue-y", "blue", "4,0", units=("trooper", "trooper")
    )
    g = attack_at(field(armies), "red-x", "4,0")
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(CommitArmy(player="blue", army="blue-y"), dice=[6, 6, 6, 1, 1, 1])
    # 1 success against none: 1 damage of the trooper's 2
    g.when(Attack(player="red", unit="red.spray.1", target="blue.trooper.1"), dice=[6, 1, 1, 1, 1])
    assert RULESET.legal_commands(g.state, "red") == [
        Attack(player="red", unit="red.spray.1", target="blue.trooper.2")
    ]
    events = g.when(
        Attack(player="red", unit="red.spray.1", target="blue.trooper.2"), dice=[6, 6, 1, 1, 1]
    )
    assert only(events, AttackBegan).kind == "area"


def fought(armies: str, back: tuple[str, ...] = (), initiative: list[int] | None = None) -> Given:
    """Red's red-x attacks blue-y at 4,0; blue commits with ``back`` in its back row and round
    one's initiative rolls ``initiative`` (red wins with 6 6 6 against 1 1 1)."""
    g = attack_at(field(armies), "red-x", "4,0")
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(
        CommitArmy(player="blue", army="blue-y", back=back), dice=initiative or [6, 6, 6, 1, 1, 1]
    )
    return g


#: red's breaker against two blue troopers, the second in blue's back row
BREAKER = army_block("red-x", "red", "3,0", units=("breaker",)) + army_block(
    "blue-y", "blue", "4,0", units=("trooper", "trooper")
)


def test_breakthrough_attack_after_a_front_row_hit_strikes_the_back_row_at_full_strength() -> None:
    g = fought(BREAKER, back=("blue.trooper.2",))
    breaker = "red.breaker.1"
    # range 1 reaches only blue's front row (R13)
    assert RULESET.legal_commands(g.state, "red") == [
        Attack(player="red", unit=breaker, target="blue.trooper.1")
    ]
    # 3 dice against the trooper's 3: 2 successes against 1, a hit of 1 of its 2 points
    events = g.when(
        Attack(player="red", unit=breaker, target="blue.trooper.1"), dice=[6, 6, 1, 6, 1, 1]
    )
    assert (only(events, AttackEnded).raw, only(events, CardDamaged).amount) == (1, 1)
    # the hit opens the back row to it, and only the back row (p.34)
    assert RULESET.legal_commands(g.state, "red") == [
        Attack(player="red", unit=breaker, target="blue.trooper.2")
    ]
    events = g.when(
        Attack(player="red", unit=breaker, target="blue.trooper.2"), dice=[6, 6, 6, 1, 1, 1]
    )
    began = only(events, AttackBegan)
    assert (began.kind, began.strength) == ("breakthrough", 3)
    # at full strength: the breaker's whole attack of 3 dice against the trooper's 3
    opened = only(events, ChallengeOpened).challenge
    assert (opened.attacker.pool.size, opened.defender.pool.size) == (3, 3)
    assert only(events, CardDamaged).destroyed  # 3 successes against none: 3 of its 2 points
    assert g.state.armies["blue-y"].units == ("blue.trooper.1",)
    assert g.state.damage["blue.trooper.1"] == 1
    # one follow-up only: the turn passes to blue
    assert RULESET.decision(g.state).players == ("blue",)  # type: ignore[union-attr]


def test_breakthrough_attack_is_not_offered_after_a_miss() -> None:
    g = fought(BREAKER, back=("blue.trooper.2",))
    breaker = "red.breaker.1"
    # no success against 1: no hit, so blue may end the challenge with its prerogative (R5)
    g.when(Attack(player="red", unit=breaker, target="blue.trooper.1"), dice=[1, 1, 1, 6, 1, 1])
    events = g.when(TakePrerogative(player="blue"))
    ended = only(events, AttackEnded)
    assert (ended.raw, ended.damage) == (0, 0)
    assert RULESET.decision(g.state).players == ("blue",)  # type: ignore[union-attr]
    assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, Attack)]


#: a range-2 Breakthrough unit, and blue with two troopers in its back row
LONG_BREAKER = (
    """
[[cards]]
kind = "unit"
id = "long-breaker"
name = "Test Long Breaker"
attack = 3
defense = 1
hit_points = 3
movement = 2
range = 2
abilities = ["Breakthrough Attack"]
"""
    + army_block("red-x", "red", "3,0", units=("long-breaker",))
    + army_block("blue-y", "blue", "4,0", units=("trooper", "trooper", "trooper"))
)


def test_breakthrough_attack_is_not_offered_after_a_back_row_hit() -> None:
    g = fought(LONG_BREAKER, back=("blue.trooper.2", "blue.trooper.3"))
    breaker = "red.long-breaker.1"
    # range 2 reaches blue's back row from the first strike (R13)
    assert Attack(player="red", unit=breaker, target="blue.trooper.2") in (
        RULESET.legal_commands(g.state, "red")
    )
    # 2 successes against 1: a hit of 1 of the back-row trooper's 2 points
    events = g.when(
        Attack(player="red", unit=breaker, target="blue.trooper.2"), dice=[6, 6, 1, 6, 1, 1]
    )
    ended = only(events, AttackEnded)
    assert (ended.raw, ended.damage) == (1, 1)
    # a Breakthrough strike follows only a hit on the front row (p.34): the turn passes to blue
    assert ended.battle.strike is None
    assert RULESET.decision(g.state).players == ("blue",)  # type: ignore[union-attr]
    assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, Attack)]


def test_the_defending_card_s_hero_adds_its_military_genius_to_the_defence() -> None:
    strategist = """
[[cards]]
kind = "hero"
id = "strategist"
name = "Test Strategist"
fate = 0
wounds = 2
movement = 3
abilities = ["Military Genius 1"]
"""
    armies = (
        strategist
        + army_block("red-x", "red", "3,0", units=("breaker",))
        + army_block("blue-y", "blue", "4,0", hero="strategist", units=("trooper",))
    )
    g = fought(armies)
    # the breaker's 3 dice against the trooper's defence 3 + Military Genius 1 (p.45; AE-29)
    events = g.when(
        Attack(player="red", unit="red.breaker.1", target="blue.trooper.1"), dice=[1] * 7
    )
    opened = only(events, ChallengeOpened).challenge
    assert opened.defender is not None
    assert [(t.value, t.label) for t in opened.defender.pool.terms] == [
        (3, "defense of Test Trooper"),
        (1, "Military Genius 1 of Test Strategist, p.45"),
    ]
    assert (opened.attacker.pool.size, opened.defender.pool.size) == (3, 4)


def test_multi_targeting_splits_the_attack_points_one_challenge_per_target() -> None:
    armies = army_block("red-x", "red", "3,0", units=("splitter",)) + army_block(
        "blue-y", "blue", "4,0", units=("trooper", "trooper")
    )
    g = fought(armies)
    splitter = "red.splitter.1"
    # every split of its 4 points on each target it reaches, or all 4 on one (p.34; AE-30)
    strikes = RULESET.legal_commands(g.state, "red")
    assert {(c.target, c.strength) for c in strikes if isinstance(c, Attack)} == {
        (t, s) for t in ("blue.trooper.1", "blue.trooper.2") for s in (1, 2, 3, None)
    }
    # 3 of the 4 points on the first trooper: 3 dice against its 3; 3 successes against 1
    events = g.when(
        Attack(player="red", unit=splitter, target="blue.trooper.1", strength=3),
        dice=[6, 6, 6, 6, 1, 1],
    )
    assert only(events, AttackBegan).strength == 3
    opened = only(events, ChallengeOpened).challenge
    assert (opened.attacker.pool.size, opened.defender.pool.size) == (3, 3)
    assert only(events, CardDamaged).amount == 2 and only(events, CardDamaged).destroyed
    # the last point goes to another target, as a separate challenge
    assert RULESET.legal_commands(g.state, "red") == [
        Attack(player="red", unit=splitter, target="blue.trooper.2")
    ]
    events = g.when(Attack(player="red", unit=splitter, target="blue.trooper.2"), dice=[6, 1, 1, 1])
    began = only(events, AttackBegan)
    assert (began.kind, began.strength) == ("multi", 1)
    assert only(events, ChallengeOpened).challenge.attacker.pool.size == 1
    assert only(events, CardDamaged).amount == 1
    # the points are spent: the turn passes to blue
    assert RULESET.decision(g.state).players == ("blue",)  # type: ignore[union-attr]


def test_a_multi_targeting_unit_striking_with_all_its_points_has_no_second_target() -> None:
    armies = army_block("red-x", "red", "3,0", units=("splitter",)) + army_block(
        "blue-y", "blue", "4,0", units=("trooper", "trooper")
    )
    g = fought(armies)
    events = g.when(
        Attack(player="red", unit="red.splitter.1", target="blue.trooper.1"),
        dice=[6, 1, 1, 1, 1, 1, 1],
    )
    assert only(events, ChallengeOpened).challenge.attacker.pool.size == 4
    assert RULESET.decision(g.state).players == ("blue",)  # type: ignore[union-attr]


def test_a_sniper_strikes_the_enemy_hero_against_its_fate_for_one_ap_owed() -> None:
    armies = army_block("red-x", "red", "3,0", units=("marksman",)) + army_block(
        "blue-y", "blue", "4,0", hero="warden", units=("trooper",)
    )
    g = fought(armies)
    marksman, hero = "red.marksman.1", "blue.warden.1"
    assert Attack(player="red", unit=marksman, target=hero) in RULESET.legal_commands(
        g.state, "red"
    )
    ap = g.state.empires["red"].ap
    # 3 dice against the warden's fate of 2 (p.16): 3 successes against 2, 1 wound
    events = g.when(Attack(player="red", unit=marksman, target=hero), dice=[6, 6, 6, 6, 6])
    began = only(events, AttackBegan)
    # owed in red's own turn too (AE-58), paid when its next turn begins (AE-19)
    assert (began.kind, began.ap_cost, began.owed) == ("sniper", 1, True)
    opened = only(events, ChallengeOpened).challenge
    assert (opened.attacker.pool.size, opened.defender.pool.size) == (3, 2)
    assert [t.value for t in opened.defender.pool.terms] == [2]
    assert only(events, CardDamaged).amount == 1
    assert (g.state.empires["red"].ap, g.state.empires["red"].ap_owed) == (ap, 1)
    assert g.state.damage[hero] == 1


def test_whether_a_sniper_may_strike_in_its_own_turn_never_tells_the_ap_left() -> None:
    armies = army_block("red-x", "red", "3,0", units=("marksman",)) + army_block(
        "blue-y", "blue", "4,0", hero="warden", units=("trooper",)
    )
    sniper = Attack(player="red", unit="red.marksman.1", target="blue.warden.1")
    # given red's AP, sealed for blue, is all spent or not (AE-17)
    for ap in (0, 3):
        g = fought(armies)
        g.state = replace(
            g.state, empires={**g.state.empires, "red": replace(g.state.empires["red"], ap=ap)}
        )
        # then its sniper is offered all the same (AE-58): the battle waits for red either way
        assert sniper in RULESET.legal_commands(g.state, "red")
        # ... though a game of version 7 paid it from the turn's AP: offered only with AP left
        g.state = replace(g.state, rules_version=7)
        assert (sniper in RULESET.legal_commands(g.state, "red")) == (ap > 0)


def test_a_sniper_outside_its_empires_turn_owes_the_ap() -> None:
    # red attacks in its turn; blue's marksman wins the initiative and snipes red's captain
    armies = army_block("red-x", "red", "3,0", hero="captain", units=("trooper",)) + army_block(
        "blue-y", "blue", "4,0", units=("marksman",)
    )
    g = fought(armies, initiative=[1, 1, 1, 6, 6, 6])
    sniper = Attack(player="blue", unit="blue.marksman.1", target="red.captain.1")
    assert sniper in RULESET.legal_commands(g.state, "blue")
    events = g.when(sniper, dice=[6, 6, 6, 6, 6])
    began = only(events, AttackBegan)
    assert (began.kind, began.ap_cost, began.owed) == ("sniper", 1, True)
    assert g.state.empires["blue"].ap_owed == 1
    assert g.state.damage["red.captain.1"] == 1


def test_retreat_all_loses_the_battle_and_the_beaten_army_falls_back_toward_its_base() -> None:
    g = committed(attack_at(field(VERSUS_FOX), "red-x", "4,0"))
    g.when(NextRound(player="blue", choice="retreat_all"), dice=[6, 6, 1])
    events = g.when(Roll(player="red"), dice=[6, 1, 1, 1, 1])
    ended = only(events, BattleEnded)
    assert (ended.winner, ended.loser) == ("red", "blue")
    retreated = only(events, ArmyRetreated)
    assert (retreated.army, retreated.origin) == ("blue-y", "4,0")
    assert g.state.armies["blue-y"].at == retreated.to != "4,0"
    assert g.state.frames == ()
    # the turn goes on: red's own commands again
    assert EndTurn(player="red") in RULESET.legal_commands(g.state, "red")


def test_a_beaten_army_with_no_free_hex_to_retreat_to_is_destroyed() -> None:
    # blue's army in the corner 7,0; every neighbour on the map holds a red army that can fight
    armies = (
        army_block("red-x", "red", "6,0", units=("lancer",))
        + army_block("red-w1", "red", "6,0", units=("trooper",))
        + army_block("red-w2", "red", "6,1", units=("trooper",))
        + army_block("red-w3", "red", "7,1", units=("trooper",))
        + army_block("blue-y", "blue", "7,0", hero="fox", units=("plated",))
    )
    g = attack_at(field(armies), "red-x", "7,0")
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(CommitArmy(player="blue", army="blue-y"))
    # pursuers 4 + 1 − Trickster 2 = 3 dice against the plated's 1: 3 damage of its 4
    g.when(NextRound(player="blue", choice="retreat_all"), dice=[6, 6, 6, 1])
    destroyed = [e for e in g.history if isinstance(e, ArmyDestroyed)]
    assert [d.army for d in destroyed] == ["blue-y"]
    assert destroyed[0].why == (
        "no neighbour is free of enemy bases and of un-stealthed combat-capable enemies with "
        "room for it (p.34; AE-32)"
    )
    assert "blue-y" not in g.state.armies


def test_a_garrison_never_retreats_and_falls_with_its_base() -> None:
    armies = army_block("red-x", "red", "6,5", units=("trooper",))
    g = field(armies, bases=GARRISONED)
    events = g.when(MoveArmy(player="red", army="red-x", to="7,5"))
    assert only(events, EngagementOffered).engagement.choices == ("attack", "delay", "siege")
    g.when(Engage(player="red", choice="attack"))
    g.when(SetUpBattle(player="red"))
    g.when(SetUpBattle(player="blue"))
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(CommitArmy(player="blue", army="blue-hq-garrison"), dice=[6, 6, 6, 1, 1, 1])
    # each trooper deals the other 1 damage of its 2 (2 successes against 1)
    hit = [6, 6, 1, 6, 1, 1]
    g.when(Attack(player="red", unit="red.trooper.1", target="blue.trooper.1"), dice=hit)
    g.when(Attack(player="blue", unit="blue.trooper.1", target="red.trooper.1"), dice=hit)
    g.when(NextRound(player="red", choice="continue"))
    events = g.when(NextRound(player="blue", choice="retreat_army"))
    chosen = only(events, NextRoundChosen)
    # no retreat challenge for a garrison (p.34); with no army left blue has lost
    assert chosen.garrisons == ("blue-hq-garrison",) and not chosen.battle.retreats
    assert only(events, BattleEnded).winner == "red"
    destroyed = only(events, ArmyDestroyed)
    assert destroyed.army == "blue-hq-garrison"
    assert destroyed.why == (
        "its retreat was chosen, and a garrison never retreats: its battle is lost (p.34)"
    )
    captured = only(events, BaseCaptured)
    assert (captured.base, captured.empire) == ("blue-hq", "red")


def garrison_fought_to_its_last_unit(version: int | None = None) -> list[Any]:
    """Blue's HQ garrisoned by the warden and a trooper; red-x attacks and its trooper destroys
    blue's at once: the events of that strike."""
    g = field(
        army_block("red-x", "red", "6,5", units=("trooper",)),
        bases=GARRISONED.replace('garrison = ["trooper"]', 'garrison = ["warden", "trooper"]'),
    )
    if version is not None:
        g.state = replace(g.state, rules_version=version)
    g.when(MoveArmy(player="red", army="red-x", to="7,5"))
    g.when(Engage(player="red", choice="attack"))
    g.when(SetUpBattle(player="red"))
    g.when(SetUpBattle(player="blue"))
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(CommitArmy(player="blue", army="blue-hq-garrison"), dice=[6, 6, 6, 1, 1, 1])
    # 3 successes against none: 3 damage, the trooper's 2 hit points gone
    events = g.when(
        Attack(player="red", unit="red.trooper.1", target="blue.trooper.1"), dice=[6, 6, 6, 1, 1, 1]
    )
    while (waiting := RULESET.decision(g.state)) is not None and waiting.kind == "challenge":
        events += g.when(AcceptChallenge(player=waiting.players[0]))
    return events


def test_a_garrison_that_fights_to_its_last_unit_gives_up_its_hero_as_a_prisoner() -> None:
    # given blue's garrison of a hero and a trooper, when red destroys the trooper
    events = garrison_fought_to_its_last_unit()
    # then blue has lost, its garrison is not destroyed (its retreat was never chosen, p.34)
    # and the warden is taken prisoner with the base (AE-34), not discarded
    assert only(events, BattleEnded).winner == "red"
    assert not [e for e in events if isinstance(e, ArmyDestroyed)]
    captured = only(events, BaseCaptured)
    assert (captured.base, captured.empire, captured.taken) == (
        "blue-hq",
        "red",
        ("blue.warden.1",),
    )


def test_a_game_of_version_11_keeps_its_rules_the_garrison_and_its_hero_destroyed() -> None:
    events = garrison_fought_to_its_last_unit(version=11)
    destroyed = only(events, ArmyDestroyed)
    assert (destroyed.army, destroyed.cards) == ("blue-hq-garrison", ("blue.warden.1",))
    assert destroyed.why == "a garrison never retreats, and its battle is lost (p.34)"
    assert only(events, BaseCaptured).taken == ()


#: one trooper a side at 4,0: every strike of all 1s misses, so no round decides the battle
TROOPERS = army_block("red-x", "red", "3,0", units=("trooper",)) + army_block(
    "blue-y", "blue", "4,0", units=("trooper",)
)
MISS = [1, 1, 1, 1, 1, 1]


def undecided_round(g: Given) -> list[Any]:
    """Each trooper strikes in turn and misses (its defender ends the challenge with the
    prerogative); the events of the round's last command."""
    events: list[Any] = []
    for _ in range(2):
        striker = RULESET.decision(g.state).players[0]  # type: ignore[union-attr]
        (strike,) = [c for c in RULESET.legal_commands(g.state, striker) if isinstance(c, Attack)]
        g.when(strike, dice=MISS)
        events = g.when(TakePrerogative(player="blue" if striker == "red" else "red"))
    return events


def test_a_battle_still_undecided_after_round_12_ends_with_the_attacker_retreating_all() -> None:
    g = fought(TROOPERS)
    for _ in range(11):
        assert only(undecided_round(g), BattleRoundEnded).battle.stage == "choose"
        g.when(NextRound(player="red", choice="continue"))
        g.when(NextRound(player="blue", choice="continue"), dice=MISS)  # initiative: a tie
    assert bf.top_battle(g.state).round == 12
    events = undecided_round(g)
    # AE-31: no Next Round choice and no round 13; the attacker is made to retreat all
    assert not [e for e in events if isinstance(e, (BattleRoundEnded, BattleRoundBegan))]
    chosen = only(events, NextRoundChosen)
    assert (chosen.empire, chosen.choice, chosen.retreating) == ("red", "retreat_all", ("red-x",))
    assert chosen.forced == "the battle is still undecided after 12 rounds"
    # its retreat challenge follows (seeded dice), and blue, having held, wins the battle
    ended = only(events, BattleEnded)
    assert (ended.winner, ended.loser) == ("blue", "red")
    assert g.state.frames == ()


def test_a_delayed_attack_is_fought_when_its_empire_ends_the_turn() -> None:
    g = field(VERSUS_FOX)
    g.when(MoveArmy(player="red", army="red-x", to="4,0"))
    g.when(Engage(player="red", choice="delay"))
    assert g.state.delayed == ("4,0",) and not g.state.frames
    events = g.when(EndTurn(player="red"))
    assert only(events, DelayedBattlesCalled).hexes == ("4,0",)
    assert only(events, BattleBegan).started_by == "delayed"


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**16), picks=st.randoms(use_true_random=False))
def test_every_battle_of_a_random_game_ends_and_the_game_ends_with_nothing_legal_after(
    seed: int, picks: random.Random
) -> None:
    """Random legal choices (half of them the autoplay policy's, so that games move on) from
    the bundled scenario: every battle that begins ends, no state leaves a card in two places or
    damage at a card's points (``check_invariants``), and once the game is over nobody may act."""

    def chooser(state: GameState, player: str, legal: list[Any]) -> Any:
        return picks.choice(legal) if picks.random() < 0.5 else choose(state, player, legal)

    began = ended = 0
    final = None
    for _, _, events, after in play(seed=seed, chooser=chooser, max_commands=3000):
        began += sum(isinstance(e, BattleBegan) for e in events)
        ended += sum(isinstance(e, BattleEnded) for e in events)
        check_invariants(after)
        final = after
    assert final is not None and RULESET.is_terminal(final)
    assert began == ended + sum(isinstance(f, Battle) for f in final.frames)
    assert not any(isinstance(f, Battle) for f in final.frames)
    assert all(RULESET.legal_commands(final, p) == [] for p in final.seats)
