"""The challenge engine (R5, R6; p.15, p.28, p.31, p.51): who acts, the prerogative, fate, accepts,
damage, duels and threshold challenges, in given-when-then form."""

from __future__ import annotations

import pytest

from tests.domain.armageddon_empires.arena import arena, begin, open_challenge, side, top
from tests.domain.armageddon_empires.helpers import only
from warlog.domain.armageddon_empires.autoplay import choose
from warlog.domain.armageddon_empires.challenge import Challenge, Outcome, Pool, Side
from warlog.domain.armageddon_empires.challenge_events import (
    CardDamaged,
    ChallengeAccepted,
    ChallengeResolved,
    FateSpent,
    PrerogativeTaken,
)
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    EndTurn,
    MoveArmy,
    PlayTactic,
    SpendFate,
    TakePrerogative,
)
from warlog.domain.armageddon_empires.events import RoundBegan
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.views import notices

RED_HERO = "red.captain.1"  # leads red-hunt
BLUE_HERO = "blue.quarry.1"  # alone in blue-quarry


def fight(attacker: list[int], defender: list[int], **kw: object) -> tuple[object, Challenge]:
    """Red's turn, and a challenge of red (attacker) against blue (defender) with these dice."""
    g = begin(arena())
    ch = open_challenge(
        g,
        side("red", attacker, hero=kw.pop("red_hero", None)),  # type: ignore[arg-type]
        side("blue", defender, hero=kw.pop("blue_hero", None)),  # type: ignore[arg-type]
        **kw,  # type: ignore[arg-type]
    )
    return g, ch


def test_the_defender_acts_first_and_takes_the_prerogative_while_the_dice_spare_it() -> None:
    g, _ = fight([4, 1], [5, 6])
    assert RULESET.active_players(g.state) == ["blue"]
    assert TakePrerogative(player="blue") in RULESET.legal_commands(g.state, "blue")
    events = g.when(TakePrerogative(player="blue"))
    assert [type(e) for e in events] == [PrerogativeTaken, ChallengeResolved]
    resolved = only(events, ChallengeResolved)
    assert resolved.outcome == Outcome(
        kind="opposed", ended_by="prerogative", attacker_successes=1, defender_successes=2
    )
    assert g.state.frames == () and RULESET.active_players(g.state) == ["red"]
    assert "Defender's Prerogative" in events[0].explain()


def test_equal_successes_spare_the_defender_so_the_prerogative_is_open() -> None:
    g, _ = fight([4, 1], [5, 1])
    assert TakePrerogative(player="blue") in RULESET.legal_commands(g.state, "blue")


def test_no_prerogative_while_the_dice_deal_the_defender_damage() -> None:
    g, _ = fight([4, 5], [1, 6])
    assert TakePrerogative(player="blue") not in RULESET.legal_commands(g.state, "blue")
    err = g.when_rejected(TakePrerogative(player="blue"), code="rules/no_prerogative")
    assert "deal the defender damage (2 > 1 successes)" in str(err)


def test_a_defender_that_acts_cedes_the_prerogative_for_the_rest_of_the_challenge() -> None:
    g, _ = fight([4, 5], [1, 6], blue_hero=BLUE_HERO)
    g.when(SpendFate(player="blue", count=1), dice=[6])  # now 2 against 2: no damage
    assert top(g).ceded and top(g).to_act == "attacker"
    g.when(AcceptChallenge(player="red"))
    assert top(g).to_act == "defender" and top(g).no_damage_to_defender()
    assert TakePrerogative(player="blue") not in RULESET.legal_commands(g.state, "blue")
    g.when_rejected(TakePrerogative(player="blue"), code="rules/no_prerogative")


def test_the_attacker_never_has_the_prerogative() -> None:
    g, _ = fight([4, 1], [5, 1], red_hero=RED_HERO)
    g.when(AcceptChallenge(player="blue"))
    assert top(g).to_act == "attacker"
    err = g.when_rejected(TakePrerogative(player="red"), code="rules/no_prerogative")
    assert (
        str(err)
        == "no Defender's Prerogative now: only the defender has the prerogative (p.28; R5)"
    )


def test_an_accepting_defender_keeps_the_prerogative() -> None:
    g, _ = fight([4, 1], [5, 1], red_hero=RED_HERO)
    g.when(AcceptChallenge(player="blue"))
    g.when(SpendFate(player="red", count=1), dice=[2])  # red's re-roll fails again
    assert top(g).to_act == "defender" and not top(g).ceded
    assert TakePrerogative(player="blue") in RULESET.legal_commands(g.state, "blue")


def test_two_accepts_in_a_row_end_the_challenge_and_an_act_between_starts_again() -> None:
    g, _ = fight([4, 1], [1, 1], red_hero=RED_HERO)
    g.when(AcceptChallenge(player="blue"))
    assert top(g).accepts == 1
    g.when(SpendFate(player="red", count=1), dice=[5])
    assert top(g).accepts == 0
    g.when(AcceptChallenge(player="blue"))
    events = g.when(AcceptChallenge(player="red"))
    resolved = only(events, ChallengeResolved)
    assert resolved.outcome.ended_by == "accepts" and resolved.outcome.damage_to_defender == 2
    assert "attacker 2 − defender 0 successes = 2 damage to the defender (p.28; R5)" in (
        resolved.explain()
    )


def test_an_outcome_cites_the_page_that_deals_its_damage_and_a_capture_kill_deals_none() -> None:
    # given an opposed challenge's result, 2 successes to 0, and one of 1 to 1
    hit = Outcome(kind="opposed", ended_by="accepts", attacker_successes=2, damage_to_defender=2)
    tie = Outcome(kind="opposed", ended_by="accepts", attacker_successes=1, defender_successes=1)
    # when it is told for air combat, a retreat, a Sniper Attack and a sabotage, then it cites
    # their page
    for purpose, page in (
        ("air strike 1 air to ground", "p.31"),
        ("air strike 2 air to air", "p.31"),
        ("air strike 1 ground to air", "p.31"),
        ("battle 1 retreat", "p.34"),
        ("battle 1 sniper", "p.34"),
        ("sabotage", "p.29"),
        ("battle 1 ground combat", "p.28"),
    ):
        assert hit.text(purpose) == (
            f"attacker 2 − defender 0 successes = 2 damage to the defender ({page}; R5)"
        )
        assert tie.text(purpose) == (
            f"attacker 1 − defender 1 successes: no damage (the attacker must have more, {page}; "
            "R5)"
        )
    # and a Capture Kill's says its successes are compared, with no damage (p.30; R4)
    assert hit.text("capture kill") == (
        "attacker 2 successes, defender 0 successes: a Capture Kill deals no damage; its "
        "verdict, the next event, compares the successes (p.30; R4)"
    )


def test_the_events_view_cites_the_page_of_an_air_challenge_s_damage_for_both_sides() -> None:
    # given blue's gunner's challenge of red's attack card, ended 2 successes to 0
    state = begin(arena()).state
    gunner = Challenge(
        number=1,
        kind="opposed",
        purpose="air strike 1 ground to air",
        round=1,
        attacker=Side(empire="blue", name="Flak", pool=Pool(())),
        defender=Side(empire="red", name="Hawk", pool=Pool(())),
        deals_damage=True,
    )
    hit = Outcome(kind="opposed", ended_by="accepts", attacker_successes=2, damage_to_defender=2)
    # when it leaves the stack, then both sides' Events view cites p.31 beside R5
    entries = notices(state, state, ChallengeResolved(challenge=gunner, outcome=hit))
    assert {(n.empire, n.text) for n in entries} == {
        (
            empire,
            "Round 1: challenge 1 (air strike 1 ground to air): attacker 2 − defender 0 "
            "successes = 2 damage to the defender (p.31; R5), before the card's damage modifiers",
        )
        for empire in ("red", "blue")
    }


def test_damage_needs_strictly_more_attacker_successes() -> None:
    g, _ = fight([4, 1], [5, 1], red_hero=RED_HERO)
    g.when(AcceptChallenge(player="blue"))
    resolved = only(g.when(AcceptChallenge(player="red")), ChallengeResolved)
    assert resolved.outcome.damage_to_defender == 0 and resolved.outcome.damage_to_attacker == 0


def test_a_duel_turns_the_defender_s_surplus_on_the_attacker_s_card_and_destroys_it() -> None:
    g = begin(arena())
    # red's tracker (2 hit points) duels blue's trooper: blue has 3 successes to red's 1
    open_challenge(
        g,
        side("red", [6, 1, 1], card="red.tracker.1"),
        side("blue", [6, 5, 4], card="blue.trooper.1"),
        kind="duel",
        deals_damage=True,
    )
    g.when(AcceptChallenge(player="blue"))
    events = g.when(AcceptChallenge(player="red"))
    resolved = only(events, ChallengeResolved)
    assert (resolved.outcome.damage_to_attacker, resolved.outcome.damage_to_defender) == (2, 0)
    assert (
        "attacker 1 − defender 3 successes: the defender's surplus 3 − 1 = 2 damage to the "
        "attacker (a duel, p.31)" in resolved.explain()
    )
    damaged = only(events, CardDamaged)
    assert (damaged.card, damaged.total, damaged.limit, damaged.destroyed) == (
        "red.tracker.1",
        2,
        2,
        True,
    )
    assert "red.tracker.1" in g.state.empires["red"].discard
    assert "red.tracker.1" not in g.state.armies["red-hunt"].units


def test_an_opposed_challenge_never_damages_the_attacker() -> None:
    g = begin(arena())
    open_challenge(
        g,
        side("red", [6, 1, 1], card="red.tracker.1"),
        side("blue", [6, 5, 4], card="blue.trooper.1"),
        deals_damage=True,
    )
    g.when(AcceptChallenge(player="blue"))
    events = g.when(AcceptChallenge(player="red"))
    assert not [e for e in events if isinstance(e, CardDamaged)]


def test_damage_short_of_the_hit_points_is_kept_on_the_card() -> None:
    g = begin(arena())
    open_challenge(
        g, side("red", [6, 1]), side("blue", [1, 1], card="blue.trooper.1"), deals_damage=True
    )
    g.when(AcceptChallenge(player="blue"))
    damaged = only(g.when(AcceptChallenge(player="red")), CardDamaged)
    assert not damaged.destroyed and g.state.damage == {"blue.trooper.1": 1}


@pytest.mark.parametrize(("faces", "succeeded"), [([6, 5, 1], True), ([6, 1, 1], False)])
def test_a_threshold_challenge_succeeds_on_ties_and_ends_on_one_accept(
    faces: list[int], succeeded: bool
) -> None:
    g = begin(arena())
    open_challenge(g, side("red", faces), None, kind="threshold", threshold=2)
    events = g.when(AcceptChallenge(player="red"))
    resolved = only(events, ChallengeResolved)
    assert resolved.outcome.succeeded is succeeded
    assert "ties succeed, p.28" in resolved.explain()


@pytest.mark.parametrize(
    ("faces", "answer"), [([6, 1, 1], PlayTactic), ([6, 5, 1], AcceptChallenge)]
)
def test_autoplay_plays_a_tactic_while_a_threshold_challenge_falls_short_else_accepts(
    faces: list[int], answer: type
) -> None:
    g = begin(arena())
    open_challenge(g, side("red", faces), None, kind="threshold", threshold=2)
    picked = choose(g.state, "red", RULESET.legal_commands(g.state, "red"))
    assert isinstance(picked, answer)


def test_fate_re_rolls_failed_dice_one_point_a_die_and_stays_spent_until_the_next_round() -> None:
    g, _ = fight([6, 6, 5], [1, 1, 4], blue_hero=BLUE_HERO)
    events = g.when(SpendFate(player="blue", count=2), dice=[5, 2])
    spent = only(events, FateSpent)
    assert (spent.positions, spent.rolled, spent.from_hero) == ((0, 1), (5, 2), 2)
    assert top(g).defender is not None and top(g).defender.faces == (5, 2, 4)
    assert g.state.fate_spent == {BLUE_HERO: 2}
    g.when(AcceptChallenge(player="red"))
    g.when(AcceptChallenge(player="blue"))  # the challenge ends; the spent fate does not return
    assert g.state.fate_spent == {BLUE_HERO: 2}
    g.events(RoundBegan(round=2, last_round=4))
    assert g.state.fate_spent == {}


def test_fate_is_limited_by_the_points_left_and_by_the_failed_dice() -> None:
    g, _ = fight([6, 6, 5, 5, 5], [1, 1, 1, 1, 1], blue_hero=BLUE_HERO)  # Quarry: fate 4
    assert [
        c.count for c in RULESET.legal_commands(g.state, "blue") if isinstance(c, SpendFate)
    ] == [
        1,
        2,
        3,
        4,
    ]
    g.when_rejected(SpendFate(player="blue", count=5), code="rules/not_enough_fate")
    g2, _ = fight([6, 6], [1, 6], blue_hero=BLUE_HERO)
    g2.when_rejected(SpendFate(player="blue", count=2), code="rules/no_failed_dice")


def test_a_side_without_a_hero_has_no_fate() -> None:
    g, _ = fight([6, 6], [1, 1])
    g.when_rejected(SpendFate(player="blue", count=1), code="rules/not_enough_fate")


def test_anything_but_an_answer_waits_for_the_open_challenge() -> None:
    g, _ = fight([6, 6], [1, 1], blue_hero=BLUE_HERO)
    g.when_rejected(EndTurn(player="red"), code="rules/decision_pending")
    g.when_rejected(EndTurn(player="blue"), code="rules/decision_pending")
    g.when_rejected(
        MoveArmy(player="red", army="red-hunt", to="3,1"), code="rules/decision_pending"
    )
    g.when_rejected(AcceptChallenge(player="red"), code="rules/not_your_turn")
    assert RULESET.legal_commands(g.state, "red") == []


def test_answers_outside_a_challenge_are_in_the_wrong_phase() -> None:
    g = begin(arena())
    g.when_rejected(AcceptChallenge(player="red"), code="rules/wrong_phase")
    g.when_rejected(SpendFate(player="red", count=1), code="rules/wrong_phase")


EMPTY_HANDS = """
[[empires]]
id = "red"
name = "Red"

[[empires]]
id = "blue"
name = "Blue"
"""


def test_a_side_with_no_move_but_accept_as_both_can_see_accepts_automatically() -> None:
    # blue holds cards (none may help it, but red cannot know that), so blue is asked
    g, _ = fight([6, 6], [1, 1])
    assert RULESET.active_players(g.state) == ["blue"]
    assert RULESET.legal_commands(g.state, "blue")[-1] == AcceptChallenge(player="blue")
    # with an empty hand, no fate and no prerogative, blue accepts at once and red is asked
    g2 = begin(arena(empires=EMPTY_HANDS))
    open_challenge(g2, side("red", [6, 1], hero=RED_HERO), side("blue", [1, 1]))
    accepted = only(g2.history, ChallengeAccepted)
    assert accepted.automatic and accepted.empire == "blue"
    assert "accepts automatically" in accepted.explain()
    assert RULESET.active_players(g2.state) == ["red"]


def test_when_neither_side_can_do_anything_the_challenge_resolves_at_once() -> None:
    g = begin(arena(empires=EMPTY_HANDS))
    open_challenge(g, side("red", [6, 6]), side("blue", [1, 1]))
    kinds = [type(e) for e in g.history[-3:]]
    assert kinds == [ChallengeAccepted, ChallengeAccepted, ChallengeResolved]
    assert g.state.frames == () and RULESET.active_players(g.state) == ["red"]


def test_in_a_duel_the_defender_keeps_the_prerogative_while_the_dice_spare_it() -> None:
    # given a duel (p.31: Air To Air against an Air To Air card, Ground To Air against HARM)
    # whose dice deal the defender no damage: 1 success against 2
    g, _ = fight([6, 1], [6, 5], kind="duel")
    # then the defender may still end it with the Defender's Prerogative (p.31: "the defender
    # still maintains the right of Defender's Prerogative"; R5)
    assert TakePrerogative(player="blue") in RULESET.legal_commands(g.state, "blue")
    resolved = only(g.when(TakePrerogative(player="blue")), ChallengeResolved)
    # and the duel's surplus still turns on the attacker (p.31)
    assert (resolved.outcome.ended_by, resolved.outcome.damage_to_attacker) == ("prerogative", 1)
