"""The battlefield of a battle (p.34, p.45; R13; AE-29, AE-30): the special attacks each unit
may make (Double, Area, Breakthrough, Multi-targeting), the damage modifiers of Composite
Armor and the Military Genius added to a pool. The set-up: ``battle_helpers``.
"""

from __future__ import annotations

from tests.domain.armageddon_empires.battle_helpers import (
    VERSUS_FOX,
    attack_at,
    committed,
    field,
    fought,
)
from tests.domain.armageddon_empires.helpers import army_block, only
from warlog.domain.armageddon_empires.battle_events import (
    ArmyCommitted,
    AttackBegan,
    AttackEnded,
    BattleEnded,
)
from warlog.domain.armageddon_empires.challenge_events import CardDamaged, ChallengeOpened
from warlog.domain.armageddon_empires.commands import Attack, CommitArmy, NextRound, TakePrerogative
from warlog.domain.armageddon_empires.ruleset import RULESET


def test_double_attack_strikes_the_same_target_again_and_composite_armor_takes_one_off() -> None:
    g = committed(attack_at(field(VERSUS_FOX), "red-x", "4,0"))
    g.when(NextRound(player="blue", choice="continue"), dice=[6, 6, 6, 1, 1, 1])
    lancer = "red.lancer.1"
    events = g.when(Attack(player="red", unit=lancer, target="blue.plated.1"), dice=[6, 6, 6, 1, 1])
    ended = only(events, AttackEnded)
    assert (ended.raw, ended.modifier, ended.damage) == (3, -1, 2)
    assert ended.explain().endswith("; it may strike again (double, p.34) (battle 1; R5, AE-29)")
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


def test_a_double_attack_that_leaves_the_enemy_army_no_unit_has_no_follow_up_and_wins() -> None:
    # given red's lancer (Double Attack) against blue's lone trooper, red striking first
    armies = army_block("red-x", "red", "3,0", units=("lancer",))
    g = fought(armies + army_block("blue-y", "blue", "4,0", units=("trooper",)))
    # when its first strike destroys the trooper (4 successes against none)
    events = g.when(
        Attack(player="red", unit="red.lancer.1", target="blue.trooper.1"), dice=[6] * 4 + [1] * 3
    )
    # then there is no target left to strike again (p.34): the fight is over and red wins it
    ended = only(events, AttackEnded)
    assert ended.battle.strike is None and "strike again" not in ended.explain()
    assert only(events, BattleEnded).battle.winner == "red"


def test_an_army_committed_all_in_its_back_row_fights_with_it_in_front() -> None:
    # given red's breaker (range 1: it reaches the front row only) attacks two blue troopers
    armies = army_block("red-x", "red", "3,0", units=("breaker",))
    g = attack_at(
        field(armies + army_block("blue-y", "blue", "4,0", units=("trooper",) * 2)), "red-x", "4,0"
    )
    g.when(CommitArmy(player="red", army="red-x"))
    # when blue commits both troopers to its back row
    events = g.when(
        CommitArmy(player="blue", army="blue-y", back=("blue.trooper.1", "blue.trooper.2")),
        dice=[6, 6, 6, 1, 1, 1],
    )
    # then, with no front row, its back row stands in front (AE-27): the breaker reaches both
    assert (
        only(events, ArmyCommitted)
        .explain()
        .endswith("; with no front row its back row stands in front (AE-27)")
    )
    assert RULESET.legal_commands(g.state, "red") == [
        Attack(player="red", unit="red.breaker.1", target="blue.trooper.1"),
        Attack(player="red", unit="red.breaker.1", target="blue.trooper.2"),
    ]


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
    # 2 successes against 1 (blue-y's three troopers, one over its Command Rating, defend with
    # 2 dice, AE-68): a hit of 1 of the back-row trooper's 2 points
    events = g.when(
        Attack(player="red", unit=breaker, target="blue.trooper.2"), dice=[6, 6, 1, 6, 1]
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


def test_double_attack_strikes_the_same_target_twice_and_no_more() -> None:
    armies = army_block("red-x", "red", "3,0", units=("lancer",)) + army_block(
        "blue-y", "blue", "4,0", units=("trooper",)
    )
    g = fought(armies)
    lancer, trooper = "red.lancer.1", "blue.trooper.1"
    # given the lancer's first strike and its Double Attack both miss (blue ends each
    # challenge with its prerogative, R5)
    for kind in ("attack", "double"):
        events = g.when(Attack(player="red", unit=lancer, target=trooper), dice=[1] * 7)
        assert only(events, AttackBegan).kind == kind
        g.when(TakePrerogative(player="blue"))
    # then the trooper still stands, but the lancer has struck twice (p.34: "attack the same
    # target twice in a single round"): the turn passes to blue
    assert g.state.armies["blue-y"].units == (trooper,)
    assert RULESET.decision(g.state).players == ("blue",)  # type: ignore[union-attr]
    assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, Attack)]


def test_breakthrough_follows_a_hit_even_when_armor_takes_all_its_damage() -> None:
    armies = army_block("red-x", "red", "3,0", units=("breaker",)) + army_block(
        "blue-y", "blue", "4,0", units=("plated", "trooper")
    )
    g = fought(armies, back=("blue.trooper.1",))
    breaker = "red.breaker.1"
    # given the breaker hits the front-row plated: 1 success against none, a hit of 1, and
    # Composite Armor −1 takes it all (p.34)
    events = g.when(Attack(player="red", unit=breaker, target="blue.plated.1"), dice=[6, 1, 1, 1])
    ended = only(events, AttackEnded)
    assert (ended.raw, ended.modifier, ended.damage) == (1, -1, 0)
    # then the hit was scored by the dice (a modifier changes the damage once a hit is scored,
    # p.28): the Breakthrough Attack on the back row is open (p.34; AE-30)
    assert RULESET.legal_commands(g.state, "red") == [
        Attack(player="red", unit=breaker, target="blue.trooper.1")
    ]
