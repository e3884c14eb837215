"""Assassinate (p.28, p.45, p.16; AE-71, version 27): who may make an attempt on whom, its
pools, the wounds and the kill, Slayer and Master Assassin, the random pick, the refusals, and
the games begun before version 27, in given-when-then form."""

from __future__ import annotations

import msgspec
import pytest

from tests.domain.armageddon_empires.arena import EMPIRES, arena, begin
from tests.domain.armageddon_empires.helpers import PICK, army_block, only, sight, with_ap
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.assassination_events import (
    CHOSEN_UNTOLD,
    AssassinationBegan,
    AssassinationEnded,
    AssassinationFoiled,
)
from warlog.domain.armageddon_empires.challenge_events import ChallengeOpened
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    Assassinate,
    Roll,
    TakePrerogative,
)
from warlog.domain.armageddon_empires.costs import ASSASSINATE_AP
from warlog.domain.armageddon_empires.invariants import violations
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.targets import TARGET_DICE, TARGET_SIDES
from warlog.domain.armageddon_empires.views import notices
from warlog.domain.core.events import DiceRolled, Event

#: the assassins of these tests (heroes: each stands with a stealthed wisp, so Stealth 4 too),
#: each to be placed before the arena's empires
ASSASSINS = """
[[cards]]
kind = "hero"
id = "knife"
name = "Test Knife"
fate = 1
wounds = 2
movement = 3
abilities = ["Assassin 3", "Stealth 4"]

[[cards]]
kind = "hero"
id = "master"
name = "Test Master"
fate = 0
wounds = 2
movement = 3
abilities = ["Assassin 2", "Master Assassin", "Stealth 4"]

[[cards]]
kind = "hero"
id = "slayer"
name = "Test Slayer"
fate = 0
wounds = 2
movement = 3
abilities = ["Assassin 2", "Slayer", "Stealth 4"]
"""

QUARRY = "blue.quarry.1"
SHADE = "blue.shade.1"


def assassins(hero: str = "knife", *blue: str) -> Given:
    """Red's ``hero`` (an assassin) in the stealthed army red-a at 2,1, with blue's quarry (fate
    4, wounds 3) and blue's ``blue`` armies there (``blue-quarry`` sighted by red unless left
    out), in red's turn."""
    armies = army_block("red-a", "red", "2,1", hero=hero, units=("wisp",)) + "stealthed = true\n"
    armies += army_block("blue-quarry", "blue", "2,1", hero="quarry")
    armies += army_block("blue-other", "blue", "2,1", hero="shade")
    g = begin(arena(armies, empires=ASSASSINS + EMPIRES))
    return sight(g, "red", *blue) if blue else g


def attempted(g: Given, cmd: Assassinate, dice: list[int]) -> list[Event]:
    """``cmd`` with its hidden pick (``PICK``), then the roll of ``dice`` its challenge waits for
    after that hidden roll (AE-37): the events of both."""
    events = g.when(cmd, dice=PICK)
    if g.state.awaiting is not None:
        events += g.when(Roll(player=cmd.player), dice=dice)
    return events


def both_accept(g: Given) -> list[Event]:
    events = g.when(AcceptChallenge(player="blue"))
    if g.state.frames:
        events += g.when(AcceptChallenge(player="red"))
    return events


KNIFE = Assassinate(player="red", card="red.knife.1")


def test_an_assassination_whose_wounds_reach_the_hero_s_wound_points_kills_him() -> None:
    # given red's Knife (Assassin 3) beside blue's Quarry (fate 4, wounds 3), sighted alone
    g = assassins("knife", "blue-quarry")
    ap = g.state.empires["red"].ap
    # when Knife attempts it: 3 successes against none
    events = attempted(g, KNIFE, [6, 6, 6, 1, 1, 1, 1])
    began = only(events, AssassinationBegan)
    assert began.frame.target == QUARRY and began.chosen_by == "only"
    assert began.ap_cost == ASSASSINATE_AP == 2
    opened = only(events, ChallengeOpened).challenge
    assert opened.kind == "opposed" and opened.purpose == "assassination"
    assert opened.attacker.pool.text() == "3 = 3 (Assassin 3 of Test Knife, p.45)"
    assert opened.defender is not None
    assert opened.defender.pool.text() == "4 = 4 (fate of Test Quarry, p.16)"
    # the target re-rolls with his fate; the assassin, a hero, with his own (AE-71)
    assert (opened.attacker.fate_hero, opened.defender.fate_hero) == ("red.knife.1", QUARRY)
    ended = only(both_accept(g), AssassinationEnded)
    # then 3 − 0 = 3 wounds, his 3 wound points: he is killed and discarded, his army with him
    assert (ended.wounds, ended.killed) == (3, True)
    assert ended.explain() == (
        "assassin 3 − target 0 successes = 3 wounds to blue.quarry.1: 3 of his 3 wound points "
        "(0 before, taken in the open; AE-71); they reach them: killed and discarded (p.16; AE-24)"
    )
    assert QUARRY in g.state.empires["blue"].discard
    assert "blue-quarry" not in g.state.armies and not g.state.frames
    assert g.state.empires["red"].ap == ap - ASSASSINATE_AP
    assert g.state.empires["red"].assassin_cards == ("red.knife.1",)
    # and the assassin's army keeps its stealth, unseen by blue (AE-71)
    assert g.state.armies["red-a"].stealthed
    assert "red-a" not in g.state.sightings.get("blue", {})
    assert violations(g.state) == []


def test_an_assassination_short_of_his_wound_points_wounds_the_hero() -> None:
    g = assassins("knife", "blue-quarry")
    # when Knife's 3 successes beat the Quarry's 1
    attempted(g, KNIFE, [6, 6, 6, 6, 1, 1, 1])
    ended = only(both_accept(g), AssassinationEnded)
    # then he takes 2 wounds of his 3 and lives, his army with him
    assert (ended.wounds, ended.killed) == (2, False)
    assert g.state.damage[QUARRY] == 2 and g.state.armies["blue-quarry"].hero == QUARRY
    texts = [n.text for n in notices(g.state, g.state, ended)]
    assert texts == ["Round 1: blue.quarry.1 takes 2 wounds from red's assassin red.knife.1"] * 2


def test_a_kill_s_explanation_counts_the_wounds_the_hero_had_before_and_his_wound_points() -> None:
    # given blue's Quarry (3 wound points) already wounded twice
    g = assassins("knife", "blue-quarry")
    g.state = msgspec.structs.replace(g.state, damage={QUARRY: 2})
    # when Knife's 3 successes beat the Quarry's 2: 1 wound
    attempted(g, KNIFE, [6, 6, 6, 6, 6, 1, 1])
    ended = only(both_accept(g), AssassinationEnded)
    # then the explanation shows the arithmetic of the kill: 2 before + 1 = 3 of 3 (p.16)
    assert (ended.wounds, ended.killed, ended.wounded_before, ended.wound_points) == (1, True, 2, 3)
    assert ended.explain() == (
        "assassin 3 − target 2 successes = 1 wound to blue.quarry.1: 3 of his 3 wound points "
        "(2 before, taken in the open; AE-71); they reach them: killed and discarded (p.16; "
        "AE-24)"
    )


def test_the_wounds_a_hidden_challenge_dealt_the_hero_are_not_told_to_the_assassin() -> None:
    # given blue's Quarry (3 wound points) with 2 wounds, 1 of them dealt by a hidden challenge
    # (collateral damage, WMD or a minefield: its holder's secret, AE-49)
    g = assassins("knife", "blue-quarry")
    g.state = msgspec.structs.replace(g.state, damage={QUARRY: 2}, hidden_damage={QUARRY: 1})
    # when Knife's 3 successes beat the Quarry's 2: 1 wound, his third
    attempted(g, KNIFE, [6, 6, 6, 6, 6, 1, 1])
    ended = only(both_accept(g), AssassinationEnded)
    # then he dies, and the event, public to red, counts only the wound taken in the open
    assert (ended.wounds, ended.killed, ended.wounded_before, ended.wound_points) == (1, True, 1, 3)
    assert ended.explain() == (
        "assassin 3 − target 2 successes = 1 wound to blue.quarry.1: 2 of his 3 wound points "
        "(1 before, taken in the open; AE-71); with those dealt him unseen, they reach them: "
        "killed and discarded (p.16)"
    )


def test_a_slayer_kills_with_a_single_wound() -> None:
    # given red's Slayer (Assassin 2) beside blue's Quarry (3 wound points)
    g = assassins("slayer", "blue-quarry")
    # when its 2 successes beat the Quarry's 1: 1 wound
    attempted(g, Assassinate(player="red", card="red.slayer.1"), [6, 6, 6, 1, 1, 1])
    ended = only(both_accept(g), AssassinationEnded)
    # then a single wound kills him (p.45)
    assert (ended.wounds, ended.killed) == (1, True)
    assert ended.explain().endswith("a single wound kills: killed and discarded (p.45)")
    assert QUARRY in g.state.empires["blue"].discard and QUARRY not in g.state.damage


def test_a_slayer_s_failed_attempt_kills_nobody() -> None:
    # given red's Slayer (Assassin 2) beside blue's Quarry
    g = assassins("slayer", "blue-quarry")
    # when his dice make no success against the Quarry's one
    attempted(g, Assassinate(player="red", card="red.slayer.1"), [1, 1, 6, 1, 1, 1])
    ended = only(g.when(TakePrerogative(player="blue")), AssassinationEnded)
    # then no wound is dealt, and a Slayer's single wound kills only when there is one (p.45)
    assert (ended.wounds, ended.killed) == (0, False)
    assert QUARRY not in g.state.empires["blue"].discard and QUARRY in g.state.instances


def test_the_attempt_shows_blue_the_assassin_s_card_type() -> None:
    # given red's Knife, a card type blue has never seen, beside blue's Quarry
    g = assassins("knife", "blue-quarry")
    assert "knife" not in g.state.empires["blue"].seen
    # when the Knife makes his attempt
    attempted(g, KNIFE, [6, 6, 6, 1, 1, 1, 1])
    # then blue has seen the card that made it ("by which card", AE-71), not its army
    assert "knife" in g.state.empires["blue"].seen
    assert "red-a" not in g.state.sightings.get("blue", {})


def test_a_failed_attempt_costs_the_assassin_its_ap_and_nothing_more() -> None:
    g = assassins("knife", "blue-quarry")
    attempted(g, KNIFE, [6, 1, 1, 6, 6, 1, 1])
    # the dice deal the Quarry no wound: blue may take the Defender's Prerogative (R5)
    assert TakePrerogative(player="blue") in RULESET.legal_commands(g.state, "blue")
    ended = only(g.when(TakePrerogative(player="blue")), AssassinationEnded)
    assert (ended.wounds, ended.killed) == (0, False)
    assert "nothing more befalls either side (AE-71)" in ended.explain()
    assert QUARRY not in g.state.damage and g.state.armies["red-a"].stealthed


def test_a_master_assassin_names_his_target_and_another_assassin_may_not() -> None:
    # given red's Master Assassin beside the Quarry and the Shade, both sighted
    g = assassins("master", "blue-quarry", "blue-other")
    legal = [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, Assassinate)]
    assert {c.target for c in legal} == {None, QUARRY, SHADE}
    named = Assassinate(player="red", card="red.master.1", target=SHADE)
    began = only(g.when(named, dice=PICK), AssassinationBegan)
    assert began.chosen_by == "master assassin" and began.frame.target == SHADE
    assert began.candidates == (SHADE, QUARRY)  # by army: blue-other, blue-quarry
    # and Knife, no Master Assassin, is refused naming one
    g2 = assassins("knife", "blue-quarry", "blue-other")
    err = g2.when_rejected(
        Assassinate(player="red", card="red.knife.1", target=QUARRY), "rules/no_master_assassin"
    )
    assert err.message == (
        "only a Master Assassin names the target; leave 'target' out and it is picked at random "
        "(p.45)"
    )


def test_without_a_master_assassin_a_hidden_roll_picks_the_target_in_every_attempt() -> None:
    g = assassins("knife", "blue-quarry", "blue-other")
    # AE-71: the hunt's hidden pick (AE-21), the referee's, 3 d210 read as one number: 1, of 2
    # targets the second by army id (blue-other, then blue-quarry)
    events = g.when(KNIFE, dice=[1, 1, 2])
    assert events[0] == DiceRolled(
        sides=TARGET_SIDES,
        faces=[1, 1, 2],
        purpose="assassination target",
        roller="",
        hidden=True,
    )
    began = only(events, AssassinationBegan)
    assert began.chosen_by == "die" and began.frame.target == QUARRY
    # the target's empire is told the attempt, not what red saw nor how it chose
    assert began.explain_sealed(frozenset({"candidates", "chosen_by"})) == (
        "red's red.knife.1 (Assassin 3) attempts to assassinate blue's hero blue.quarry.1 at 2,1 "
        f"for 2 AP (p.28, p.45; R11; AE-71); target: {CHOSEN_UNTOLD}"
    )
    # and an attempt on the only hero spotted rolls the same hidden dice
    g2 = assassins("knife", "blue-quarry")
    pick = g2.when(KNIFE, dice=PICK)[0]
    assert pick == msgspec.structs.replace(events[0], faces=[1] * TARGET_DICE)


def test_a_hero_not_spotted_is_no_target_one_clear_line() -> None:
    # given red's Knife beside blue's heroes, neither sighted this round
    g = assassins("knife")
    err = g.when_rejected(KNIFE, "rules/no_target")
    assert err.message == (
        "red has spotted no enemy hero at 2,1 this round outside a stealthed army (p.28; AE-71)"
    )
    assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, Assassinate)]


def test_an_attempt_with_too_little_ap_is_refused() -> None:
    g = with_ap(assassins("knife", "blue-quarry"), "red", ASSASSINATE_AP - 1)
    err = g.when_rejected(KNIFE, "rules/not_enough_ap")
    assert err.message == "Assassinate costs 2 AP; red has 1"


def test_a_card_makes_one_attempt_a_turn_and_only_a_card_with_assassin_x_makes_one() -> None:
    g = assassins("knife", "blue-quarry")
    attempted(g, KNIFE, [1, 1, 1, 6, 6, 6, 6])
    g.when(TakePrerogative(player="blue"))
    err = g.when_rejected(KNIFE, "rules/already_assassinated")
    assert err.message == "red.knife.1 has already made an assassination attempt this turn (AE-71)"
    err = g.when_rejected(Assassinate(player="red", card="red.wisp.1"), "rules/not_an_assassin")
    assert err.message == "red.wisp.1 has no Assassin X; only a card with it assassinates (p.45)"


def test_an_attempt_on_a_hero_gone_from_the_army_seen_is_foiled_and_tells_blue_nothing() -> None:
    # given red saw the Quarry in blue-quarry, which has since engaged stealth unseen
    g = assassins("knife", "blue-quarry")
    hidden = msgspec.structs.replace(g.state.armies["blue-quarry"], stealthed=True)
    g.state = msgspec.structs.replace(g.state, armies={**g.state.armies, "blue-quarry": hidden})
    ap = g.state.empires["red"].ap
    foiled = only(g.when(KNIFE, dice=PICK), AssassinationFoiled)
    # then no challenge: the AP is spent, the card has made its attempt, red's sighting dropped
    assert (foiled.target, foiled.target_army, foiled.at) == (QUARRY, "blue-quarry", "2,1")
    assert not g.state.frames and g.state.empires["red"].ap == ap - ASSASSINATE_AP
    assert "blue-quarry" not in g.state.sightings["red"]
    assert [n.empire for n in notices(g.state, g.state, foiled)] == ["red"]
    # and blue's view of red does not list the card that made an attempt this turn
    assert g.state.empires["red"].assassin_cards == ("red.knife.1",)
    assert "assassins" not in RULESET.view(g.state, "blue")["empires"]["red"]


@pytest.mark.parametrize("version", ["26", "25"])
def test_a_game_begun_before_version_27_refuses_the_command(version: str) -> None:
    # given the same position in a game begun under an earlier version (its scenario accepted
    # there only as recorded: a new one of 26 refuses the ability, AE-70)
    g = assassins("knife", "blue-quarry")
    old = RULESET.at_version(version)
    assert old is not None
    g.ruleset = old
    g.state = msgspec.structs.replace(g.state, rules_version=int(version))
    err = g.when_rejected(KNIFE, "rules/not_in_this_version")
    assert err.message == (
        f"assassinate is not played under version {version} of these rules (since version 27, "
        "AE-71)"
    )
    assert not [c for c in old.legal_commands(g.state, "red") if isinstance(c, Assassinate)]


def test_the_invariants_hold_an_empire_s_assassins_to_its_own_assassin_cards_in_its_turn() -> None:
    g = assassins("knife", "blue-quarry")
    red = g.state.empires["red"]
    for listed in (("red.wisp.1",), ("red.knife.1", "red.knife.1")):
        wrong = msgspec.structs.replace(red, assassins=listed)
        state = msgspec.structs.replace(g.state, empires={**g.state.empires, "red": wrong})
        assert [v.name for v in violations(state)] == ["assassins_once_a_turn"]
    blue = msgspec.structs.replace(g.state.empires["blue"], assassins=("blue.quarry.1",))
    state = msgspec.structs.replace(g.state, empires={**g.state.empires, "blue": blue})
    assert [v.name for v in violations(state)] == ["assassins_once_a_turn"]
