"""Every tactic effect of p.51, given a challenge, when a side plays the card, then the dice and
fate as the rules say; and what a tactic costs in and outside one's own turn (R11; AE-19)."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from tests.domain.armageddon_empires.arena import arena, begin, open_challenge, side, top
from tests.domain.armageddon_empires.helpers import only
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.challenge_events import TacticPlayed
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    EndTurn,
    PlayTactic,
    SpendFate,
)
from warlog.domain.armageddon_empires.costs import MAX_AP_OWED, TACTIC_AP
from warlog.domain.armageddon_empires.events import TurnBegan
from warlog.domain.armageddon_empires.ruleset import RULESET

RED_HERO = "red.captain.1"  # fate 2
BLUE_HERO = "blue.quarry.1"  # fate 4


def red_defends(
    red: list[int], blue: list[int], red_hero: str | None = None, blue_hero: str | None = None
) -> Given:
    """Red's turn; blue attacks red, so red (the defender) acts first and plays from its hand."""
    g = begin(arena())
    open_challenge(g, side("blue", blue, hero=blue_hero), side("red", red, hero=red_hero))
    assert RULESET.active_players(g.state) == ["red"]
    return g


def play(g: Given, card: str, dice: list[int] | None = None) -> TacticPlayed:
    return only(g.when(PlayTactic(player="red", card=card), dice=dice or []), TacticPlayed)


def red_faces(g: Given) -> tuple[int, ...]:
    d = top(g).defender
    assert d is not None
    return d.faces


def blue_faces(g: Given) -> tuple[int, ...]:
    return top(g).attacker.faces


def test_plus_x_fate_adds_fate_for_this_challenge_to_a_side_that_has_fate() -> None:
    g = red_defends([1, 1, 1], [6, 6], red_hero=RED_HERO)
    played = play(g, "red.t-fate.1")
    assert top(g).side("defender").fate_bonus == 2 and "+2 Fate Points" in played.explain()
    # now 4 fate (2 granted + the captain's 2): the granted fate goes first
    g.when(AcceptChallenge(player="blue"))
    g.when(SpendFate(player="red", count=3), dice=[6, 6, 1])
    assert top(g).side("defender").fate_bonus == 0
    assert g.state.fate_spent == {RED_HERO: 1}


def test_plus_x_fate_needs_fate_already_available() -> None:
    g = red_defends([1, 1], [6, 6])
    assert PlayTactic(player="red", card="red.t-fate.1") not in RULESET.legal_commands(
        g.state, "red"
    )
    g.when_rejected(PlayTactic(player="red", card="red.t-fate.1"), code="rules/tactic_not_playable")


def test_minus_x_opponent_fate_burns_the_opponent_hero_s_fate_until_the_round_ends() -> None:
    g = red_defends([1], [6], blue_hero=BLUE_HERO)
    played = play(g, "red.t-drain.1")
    assert (played.burnt_hero, played.burnt) == (BLUE_HERO, 2)
    assert g.state.fate_spent == {BLUE_HERO: 2}


def test_minus_x_opponent_fate_needs_an_opponent_with_fate() -> None:
    g = red_defends([1], [6])
    g.when_rejected(
        PlayTactic(player="red", card="red.t-drain.1"), code="rules/tactic_not_playable"
    )


def test_minus_x_opponent_fate_never_takes_more_than_there_is() -> None:
    g = red_defends([1], [6], blue_hero=BLUE_HERO)
    g.state = msgspec.structs.replace(g.state, fate_spent={BLUE_HERO: 3})
    played = play(g, "red.t-drain.1")
    assert played.burnt == 1 and g.state.fate_spent == {BLUE_HERO: 4}


def test_plus_x_dice_rolls_x_more_dice_into_the_pool() -> None:
    g = red_defends([1, 5], [6, 6])
    played = play(g, "red.t-dice.1", dice=[4, 2])
    assert red_faces(g) == (1, 5, 4, 2) and played.rolled == (4, 2)


def test_re_roll_x_opponent_success_dice_re_rolls_the_first_x_of_them() -> None:
    g = red_defends([1], [1, 6, 5, 4])
    play(g, "red.t-spoil.1", dice=[2, 6])
    assert blue_faces(g) == (1, 2, 6, 4)


def test_re_roll_x_opponent_successes_rolls_only_those_there_are() -> None:
    g = red_defends([1], [1, 6])
    play(g, "red.t-spoil.1", dice=[3])
    assert blue_faces(g) == (1, 3)


def test_plus_x_success_dice_adds_x_dice_showing_success() -> None:
    g = red_defends([1], [6, 6])
    play(g, "red.t-sure.1")
    assert red_faces(g) == (1, 6, 6)


def test_minus_x_enemy_success_dice_removes_x_successful_enemy_dice() -> None:
    g = red_defends([1], [6, 1, 5, 4])
    play(g, "red.t-strip.1")
    assert blue_faces(g) == (1, 4)


def test_turn_x_failure_dice_into_successes() -> None:
    g = red_defends([1, 6, 2, 3], [6, 6])
    play(g, "red.t-turn.1")
    assert red_faces(g) == (6, 6, 6, 3)


def test_turn_x_success_dice_into_failures() -> None:
    g = red_defends([1], [6, 1, 5, 4])
    play(g, "red.t-foil.1")
    assert blue_faces(g) == (1, 1, 1, 4)


def test_re_roll_your_dice_pool() -> None:
    g = red_defends([1, 6, 2], [6, 6])
    play(g, "red.t-again.1", dice=[4, 4, 3])
    assert red_faces(g) == (4, 4, 3)


def test_re_roll_your_opponent_s_die_pool() -> None:
    g = red_defends([1], [6, 6, 1])
    play(g, "red.t-upset.1", dice=[1, 2, 6])
    assert blue_faces(g) == (1, 2, 6)


def test_a_played_tactic_is_discarded_cedes_the_prerogative_and_costs_its_ap() -> None:
    g = red_defends([6, 6], [1, 1])
    ap = g.state.empires["red"].ap
    played = play(g, "red.t-sure.1")
    assert "red.t-sure.1" in g.state.empires["red"].discard
    assert "red.t-sure.1" not in g.state.empires["red"].hand
    assert g.state.empires["red"].ap == ap - TACTIC_AP and not played.owed
    assert top(g).ceded and top(g).to_act == "attacker"
    assert "'+2 Success Dice' for 1 AP (R11)" in played.explain()


def test_a_card_not_in_hand_or_not_a_tactic_is_refused() -> None:
    g = red_defends([1], [6])
    g.when_rejected(PlayTactic(player="red", card="blue.t-fate.1"), code="rules/not_in_hand")
    g.when_rejected(PlayTactic(player="red", card="red.dart.1"), code="rules/not_a_tactic")


def test_effects_on_the_opponent_are_not_playable_in_a_threshold_challenge() -> None:
    g = begin(arena())
    open_challenge(g, side("red", [1, 1]), None, kind="threshold", threshold=1)
    offered = {c.card for c in RULESET.legal_commands(g.state, "red") if isinstance(c, PlayTactic)}
    assert offered == {"red.t-dice.1", "red.t-sure.1", "red.t-turn.1", "red.t-again.1"}
    g.when_rejected(PlayTactic(player="red", card="red.t-foil.1"), code="rules/tactic_not_playable")


def test_outside_its_own_turn_an_empire_owes_the_ap_and_pays_it_when_its_turn_begins() -> None:
    g = begin(arena())  # red's turn: blue defends
    open_challenge(g, side("red", [6, 6]), side("blue", [1, 1], hero=BLUE_HERO))
    played = only(
        g.when(PlayTactic(player="blue", card="blue.t-again.1"), dice=[6, 6]), TacticPlayed
    )
    assert played.owed and g.state.empires["blue"].ap_owed == TACTIC_AP
    assert "owed until its next turn (AE-19)" in played.explain()
    g.when(AcceptChallenge(player="red"))
    g.when(AcceptChallenge(player="blue"))
    began = only(g.when(EndTurn(player="red")), TurnBegan)
    assert (began.owed, began.ap) == (TACTIC_AP, 6 - TACTIC_AP)
    assert g.state.empires["blue"].ap_owed == 0
    assert "− 1 owed (tactics and interceptors outside its last turn, AE-19" in began.explain()


def test_an_empire_owes_at_most_the_ap_of_a_last_place() -> None:
    g = begin(arena())
    g.state = msgspec.structs.replace(
        g.state,
        empires={
            **g.state.empires,
            "blue": msgspec.structs.replace(g.state.empires["blue"], ap_owed=MAX_AP_OWED),
        },
    )
    open_challenge(g, side("red", [6, 6]), side("blue", [1, 1], hero=BLUE_HERO))
    assert not [c for c in RULESET.legal_commands(g.state, "blue") if isinstance(c, PlayTactic)]
    err = g.when_rejected(
        PlayTactic(player="blue", card="blue.t-again.1"), code="rules/not_enough_ap"
    )
    assert "already owes 6 of at most 6" in str(err)


def test_in_its_own_turn_an_empire_pays_a_tactic_from_the_ap_it_has() -> None:
    # given red, in its own turn, with no AP left, defending in a challenge
    g = red_defends([1, 1], [6, 6])
    g.state = msgspec.structs.replace(
        g.state,
        empires={
            **g.state.empires,
            "red": msgspec.structs.replace(g.state.empires["red"], ap=TACTIC_AP - 1),
        },
    )
    # then it may play no tactic card: it pays from its AP, and owes none (R11; AE-19)
    assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, PlayTactic)]
    err = g.when_rejected(PlayTactic(player="red", card="red.t-again.1"), "rules/not_enough_ap")
    assert str(err) == f"a tactic card costs {TACTIC_AP} AP; red has {TACTIC_AP - 1}"


def test_minus_x_opponent_fate_takes_fate_a_card_gave_before_the_hero_s() -> None:
    # given blue, attacking with its quarry's 4 fate, granted 2 more by its own +2 Fate card
    g = red_defends([1], [6], blue_hero=BLUE_HERO)
    g.when(AcceptChallenge(player="red"))
    g.when(PlayTactic(player="blue", card="blue.t-fate.1"))
    assert top(g).attacker.fate_bonus == 2
    # when red plays −2 Opponent Fate Points (p.51)
    played = play(g, "red.t-drain.1")
    # then the 2 the card gave go first, as fate a card gave is spent first (AE-16), and the
    # quarry's own fate is not burnt
    assert top(g).attacker.fate_bonus == 0
    assert (played.burnt_hero, played.burnt) == (None, 0)
    assert BLUE_HERO not in g.state.fate_spent


def test_an_empire_may_owe_up_to_the_cap_exactly_so_a_tactic_that_reaches_it_is_played() -> None:
    # given red's turn, blue defending and owing one tactic short of the cap (AE-19: at most 6,
    # the AP of the last of two initiative places, R10 p.11)
    g = begin(arena())
    blue = replace(g.state.empires["blue"], ap_owed=MAX_AP_OWED - TACTIC_AP)
    g.state = replace(g.state, empires={**g.state.empires, "blue": blue})
    open_challenge(g, side("red", [6, 6]), side("blue", [1, 1], hero=BLUE_HERO))
    # then the tactic card is among blue's answers, and when blue plays it
    tactic = PlayTactic(player="blue", card="blue.t-again.1")
    assert tactic in RULESET.legal_commands(g.state, "blue")
    played = only(g.when(tactic, dice=[6, 6]), TacticPlayed)
    # then it is owed, and blue owes the cap exactly
    assert played.owed and g.state.empires["blue"].ap_owed == MAX_AP_OWED
