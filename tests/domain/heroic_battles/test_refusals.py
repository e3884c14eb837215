"""A refused command names what is wrong in the case at hand, as a tournament player reads it:
why an answer is closed to the side that must answer, a hero challenged by its own side, a hero
who refused a challenge offering Mighty Deeds, a hero joined as if it were a unit."""

from __future__ import annotations

import json

import pytest

from tests.recorded import recorded as recorded_game
from tests.recorded import refused
from warlog.arbiter.application import Arbiter


@pytest.fixture()
def battle() -> tuple[Arbiter, str]:
    """The recorded battle forked after its first event: the saxons' first movement phase."""
    arb, game = recorded_game("heroic-battles", "hb-golden")
    return arb, arb.fork(game, 1, dice="new")


def test_the_side_that_must_answer_is_told_why_an_answer_is_closed_to_it(
    battle: tuple[Arbiter, str],
) -> None:
    arb, game = battle
    charge = {"unit": "duguth-2", "target": "mounted-comitatus-1", "facing": "front"}
    arb.play(game, json.dumps({"type": "charge", "player": "saxons", **charge}))
    head = arb.head(game)
    # mounted-comitatus-1 has no Evade trait: the britons are told so, with the rule
    assert refused(arb, game, type="evade", player="britons", unit="mounted-comitatus-1") == (
        "rules/cannot_evade: mounted-comitatus-1 cannot evade: it has no Evade trait, and only "
        "such a unit or an unattached hero evades (HB-22)"
    )
    assert arb.head(game) == head  # nothing is appended
    # the other side still waits, in the same words as before
    assert refused(arb, game, type="evade", player="saxons", unit="mounted-comitatus-1") == (
        "rules/decision_pending: evade must wait: the game waits for britons to answer the "
        "charge of duguth-2 on mounted-comitatus-1 first"
    )


def test_a_hero_joins_a_unit_not_another_hero(battle: tuple[Arbiter, str]) -> None:
    arb, game = battle
    arb.play(game, json.dumps({"type": "leave_unit", "player": "saxons", "hero": "osric"}))
    message = refused(arb, game, type="join_unit", player="saxons", hero="osric", unit="aelle")
    assert message == "rules/unknown_unit: 'aelle' is a hero, not a unit: a hero joins a unit"


@pytest.fixture()
def recorded() -> tuple[Arbiter, str]:
    return recorded_game("heroic-battles", "hb-golden")


def test_a_hero_challenges_an_enemy_hero_not_one_of_its_own_side(
    recorded: tuple[Arbiter, str],
) -> None:
    arb, game = recorded
    melee = arb.fork(game, 226, dice="new")  # the saxons may challenge before their melees
    challenge = {"type": "challenge", "player": "saxons", "hero": "aelle", "opponent": "hussa"}
    assert refused(arb, melee, **challenge) == (
        "rules/bad_challenge: hussa is a saxons hero: challenge an enemy hero in aelle's melee "
        "(HB-17)"
    )


def test_a_hero_who_refused_a_challenge_is_told_why_it_spends_no_deeds_in_melee(
    recorded: tuple[Arbiter, str],
) -> None:
    arb, game = recorded
    melee = arb.fork(game, 232, dice="new")  # kai refused aelle's challenge
    arb.play(melee, json.dumps({"type": "declare_melee", "player": "saxons", "combat": "melee-1"}))
    declare = {"type": "declare_melee", "player": "britons", "combat": "melee-1"}
    assert refused(arb, melee, **declare, deeds={"kai": 1}) == (
        "rules/bad_deeds: kai refused a challenge this phase and adds no dice to its melees (HB-17)"
    )


def test_a_long_name_that_names_nothing_is_quoted_short(battle: tuple[Arbiter, str]) -> None:
    """Given the saxons' movement phase, when a command names a target, a unit or a hero by
    ten thousand characters, then the refusal quotes the first of them only, in one line."""
    arb, game = battle
    long = "x" * 10_000
    quoted = repr("x" * 57 + "...")
    for command, says in (
        ({"type": "charge", "unit": "duguth-2", "target": long, "facing": "front"}, "unit or hero"),
        ({"type": "move", "unit": long}, "unit or hero"),
        ({"type": "leave_unit", "hero": long}, "hero"),
    ):
        message = refused(arb, game, player="saxons", **command)
        assert message.startswith("rules/unknown_")
        assert f"there is no {says} {quoted} in this battle" in message
        assert len(message) < 200 and "\n" not in message


def test_a_long_name_in_a_shot_or_a_challenge_is_quoted_short(
    recorded: tuple[Arbiter, str],
) -> None:
    """Given the saxons about to shoot, and later about to challenge before their melees, when
    the shooter, the target, the hero or the opponent is named by ten thousand characters, then
    the refusal quotes the first of them only, in one line."""
    arb, game = recorded
    long = "x" * 10_000
    quoted = repr("x" * 57 + "...")
    shooting = arb.fork(game, 24, dice="new")  # slingers-1 shoots next
    melee = arb.fork(game, 226, dice="new")  # the saxons may challenge before their melees
    shot = {"type": "shoot", "shooter": "slingers-1", "target": "comitatus", "distance": 1}
    challenge = {"type": "challenge", "hero": "aelle", "opponent": "hussa"}
    for fork, command, says in (
        (shooting, {**shot, "shooter": long}, "unit or hero"),
        (shooting, {**shot, "target": long}, "unit or hero"),
        (melee, {**challenge, "hero": long}, "hero"),
        (melee, {**challenge, "opponent": long}, "hero"),
    ):
        message = refused(arb, fork, player="saxons", **command)
        assert message.startswith("rules/unknown_")
        assert f"there is no {says} {quoted} in this battle" in message
        assert len(message) < 200 and "\n" not in message
