"""Rounds of ground combat (p.34; R13; AE-29..AE-31, AE-58): battle initiative and its ties, a
Sniper Attack's AP (owed, in its empire's turn or not), and the end of a battle that deals
nothing: after round 12 before version 26, after 12 rounds in a row without a hit since. The
set-up: ``battle_helpers``.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from tests.domain.armageddon_empires.battle_helpers import (
    VERSUS_FOX,
    attack_at,
    committed,
    field,
    fought,
)
from tests.domain.armageddon_empires.helpers import army_block, only
from tests.given_when_then import Given
from warlog.domain.armageddon_empires import battlefield as bf
from warlog.domain.armageddon_empires.battle_events import (
    AttackBegan,
    BattleEnded,
    BattleRoundBegan,
    BattleRoundEnded,
    NextRoundChosen,
)
from warlog.domain.armageddon_empires.challenge_events import CardDamaged, ChallengeOpened
from warlog.domain.armageddon_empires.commands import Attack, NextRound, TakePrerogative
from warlog.domain.armageddon_empires.ruleset import RULESET


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
    assert began.explain().endswith("; 1 AP owed until its next turn (AE-19, AE-58) (p.34)")
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


def test_a_strike_names_a_part_of_its_attack_only_with_multi_targeting() -> None:
    g = fought(TROOPERS)
    err = g.when_rejected(
        Attack(player="red", unit="red.trooper.2", target="blue.trooper.1", strength=1),
        "rules/bad_attack",
    )
    assert str(err) == (
        "red.trooper.2 may strike blue.trooper.1 now, but not with strength 1: 'strength' may be "
        "none (none: its whole attack; a part only with Multi-targeting, p.34; AE-30)"
    )


def test_a_game_of_version_7_paid_a_sniper_s_ap_in_its_own_turn_from_the_turn_s_ap() -> None:
    # given a game of version 7, red's own turn, 3 AP left
    armies = army_block("red-x", "red", "3,0", units=("marksman",)) + army_block(
        "blue-y", "blue", "4,0", hero="warden", units=("trooper",)
    )
    g = fought(armies)
    red = replace(g.state.empires["red"], ap=3)
    g.state = replace(g.state, rules_version=7, empires={**g.state.empires, "red": red})
    # when red's marksman snipes blue's warden
    events = g.when(
        Attack(player="red", unit="red.marksman.1", target="blue.warden.1"), dice=[1] * 5
    )
    # then its 1 AP is paid at once, not owed (AE-58: owed in its own turn only since version 8)
    began = only(events, AttackBegan)
    assert (began.ap_cost, began.owed) == (1, False)
    assert began.explain().endswith("; 1 AP paid (p.34)")
    assert (g.state.empires["red"].ap, g.state.empires["red"].ap_owed) == (2, 0)


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


#: one trooper a side at 4,0: every strike of all 1s misses, so no round decides the battle
TROOPERS = army_block("red-x", "red", "3,0", units=("trooper",)) + army_block(
    "blue-y", "blue", "4,0", units=("trooper",)
)


MISS = [1, 1, 1, 1, 1, 1]
#: a trooper's strike (3 attack dice, then 3 defence dice) that takes 1 hit point of its 2
HIT = [6, 1, 1, 1, 1, 1]


def undecided_round(g: Given, hit: bool = False) -> list[Any]:
    """Each trooper strikes in turn and misses (its defender ends the challenge with the
    prerogative), or with ``hit`` the first one hits; the events of the round's last command."""
    events: list[Any] = []
    for n in range(2):
        striker = RULESET.decision(g.state).players[0]  # type: ignore[union-attr]
        (strike,) = [c for c in RULESET.legal_commands(g.state, striker) if isinstance(c, Attack)]
        if hit and n == 0:
            events = g.when(strike, dice=HIT)
            continue
        g.when(strike, dice=MISS)
        events = g.when(TakePrerogative(player="blue" if striker == "red" else "red"))
    return events


def next_round(g: Given) -> None:
    """Both empires continue; round initiative is a tie (blue strikes first)."""
    g.when(NextRound(player="red", choice="continue"))
    g.when(NextRound(player="blue", choice="continue"), dice=MISS)


def test_a_version_25_battle_still_undecided_after_round_12_ends_with_the_attacker_retreating_all() -> (
    None
):
    # given a battle of a game begun under version 25, whose rounds deal nothing
    g = fought(TROOPERS)
    g.ruleset, g.state = RULESET.at_version("25"), replace(g.state, rules_version=25)
    for _ in range(11):
        assert only(undecided_round(g), BattleRoundEnded).battle.stage == "choose"
        next_round(g)
    assert bf.top_battle(g.state).round == 12
    events = undecided_round(g)
    # AE-31 before version 26: no Next Round choice and no round 13; the attacker retreats all
    assert not [e for e in events if isinstance(e, (BattleRoundEnded, BattleRoundBegan))]
    chosen = only(events, NextRoundChosen)
    assert (chosen.empire, chosen.choice, chosen.retreating) == ("red", "retreat_all", ("red-x",))
    assert chosen.forced == "the battle is still undecided after 12 rounds"
    assert chosen.explain() == (
        "red must retreat all: the battle is still undecided after 12 rounds (AE-31): red-x; "
        "1 retreat challenge to come (R8)"
    )
    # its retreat challenge follows (seeded dice), and blue, having held, wins the battle
    ended = only(events, BattleEnded)
    assert (ended.winner, ended.loser) == ("blue", "red")
    assert g.state.frames == ()


def test_a_version_25_battle_ends_after_round_12_even_when_its_strikes_still_hurt() -> None:
    # given a version-25 battle in which blue's trooper hits red's in round 12
    g = fought(TROOPERS)
    g.ruleset, g.state = RULESET.at_version("25"), replace(g.state, rules_version=25)
    for _ in range(11):
        undecided_round(g)
        next_round(g)
    # then the cap ends it all the same
    chosen = only(undecided_round(g, hit=True), NextRoundChosen)
    assert chosen.forced == "the battle is still undecided after 12 rounds"


def test_a_version_25_battle_keeps_no_count_of_its_rounds_without_a_hit() -> None:
    # given a version-25 battle in which the first strike of round 1 hits
    g = fought(TROOPERS)
    g.ruleset, g.state = RULESET.at_version("25"), replace(g.state, rules_version=25)
    undecided_round(g, hit=True)
    assert sum(g.state.damage.values()) == 1
    # then its state holds no stalemate count (AE-31 counts only since version 26), as version
    # 25 kept none: a snapshot written before version 26 and a fold today agree
    assert g.state.hurt_round == 0


def test_a_battle_whose_strikes_still_hurt_goes_on_past_round_12() -> None:
    # given a battle in which blue's trooper hits red's in round 5 and nothing else lands
    g = fought(TROOPERS)
    for n in range(1, 13):
        ended = only(undecided_round(g, hit=n == 5), BattleRoundEnded)
        # then every round, the 12th too, ends with the empires' Next Round choice (AE-31)
        assert (ended.battle.round, ended.battle.stage) == (n, "choose")
        next_round(g)
    assert g.state.damage == {"red.trooper.2": 1}
    assert bf.top_battle(g.state).round == 13


def test_twelve_rounds_in_a_row_without_a_hit_point_lost_end_the_battle_as_a_stalemate() -> None:
    # given a battle whose only hit is in round 5, then 12 rounds in which nothing lands
    g = fought(TROOPERS)
    for n in range(1, 17):
        assert only(undecided_round(g, hit=n == 5), BattleRoundEnded).battle.stage == "choose"
        next_round(g)
    assert bf.top_battle(g.state).round == 17
    events = undecided_round(g)
    # then after round 17 no Next Round choice: the attacker retreats all and loses (AE-31)
    assert not [e for e in events if isinstance(e, (BattleRoundEnded, BattleRoundBegan))]
    chosen = only(events, NextRoundChosen)
    assert (chosen.empire, chosen.choice, chosen.retreating) == ("red", "retreat_all", ("red-x",))
    assert chosen.explain() == (
        "red must retreat all: no strike of either side has taken a hit point for 12 rounds, a "
        "stalemate (AE-31): red-x; 1 retreat challenge to come (R8)"
    )
    ended = only(events, BattleEnded)
    assert (ended.winner, ended.loser) == ("blue", "red")
    assert g.state.frames == ()


def test_a_new_battle_counts_its_rounds_without_a_hit_from_its_own_start() -> None:
    # given a card was last hurt in round 5 of an earlier battle
    g = field(VERSUS_FOX)
    g.state = replace(g.state, hurt_round=5)
    # when red attacks blue-y, then the new battle has seen no hit yet (AE-31)
    assert attack_at(g, "red-x", "4,0").state.hurt_round == 0


def test_aggressive_x_of_the_army_s_hero_is_added_to_its_battle_initiative() -> None:
    brawler = """
[[cards]]
kind = "hero"
id = "brawler"
name = "Test Brawler"
fate = 0
wounds = 2
movement = 3
abilities = ["Aggressive 1"]
"""
    # given red's army led by a hero with Aggressive 1 (p.45)
    armies = (
        brawler
        + army_block("red-x", "red", "3,0", hero="brawler", units=("trooper",))
        + army_block("blue-y", "blue", "4,0", units=("trooper",))
    )
    # when round one's initiative rolls 1 success a side
    g = fought(armies, initiative=[6, 1, 1, 6, 1, 1])
    began = only(g.history, BattleRoundBegan)
    # then red's 1 + Aggressive 1 = 2 beats blue's 1: no tie for the defender, red strikes first
    # (R13; AE-29)
    assert began.aggressive == {"red": 1, "blue": 0}
    assert began.battle.first == "red"
    assert RULESET.decision(g.state).players == ("red",)  # type: ignore[union-attr]


def test_a_game_of_version_8_owes_a_sniper_s_ap_in_its_own_turn_already() -> None:
    armies = army_block("red-x", "red", "3,0", units=("marksman",)) + army_block(
        "blue-y", "blue", "4,0", hero="warden", units=("trooper",)
    )
    sniper = Attack(player="red", unit="red.marksman.1", target="blue.warden.1")
    # given a game begun under version 8, red's own turn and no AP left
    g = fought(armies)
    red = replace(g.state.empires["red"], ap=0)
    g.state = replace(g.state, rules_version=8, empires={**g.state.empires, "red": red})
    # then the sniper is offered all the same, its 1 AP owed (AE-58: since version 8)
    assert sniper in RULESET.legal_commands(g.state, "red")
    began = only(g.when(sniper, dice=[1] * 5), AttackBegan)
    assert (began.ap_cost, began.owed) == (1, True)
