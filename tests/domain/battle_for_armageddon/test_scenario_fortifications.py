"""A fortification has no defence of its own.

BFA-30 (version 8): the sheet's Special Units give a fortification only the doubling of the
defence of the counters it is stacked with, so a scenario whose fortification has a defence is
refused, naming the field. A game begun under version 7 or before keeps its scenario and the
defence it sums, and the explanation of its attacks names the fortification's term, so that the
arithmetic a player reads adds up."""

from __future__ import annotations

import pytest

from tests.domain.battle_for_armageddon.helpers import PROVING_GROUND, at, game, in_phase
from tests.given_when_then import one
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.combat_events import AttackDeclared
from warlog.domain.battle_for_armageddon.ruleset import RULESET, VERSIONS
from warlog.domain.battle_for_armageddon.scenario import parse_scenario, scenario_from_builtins
from warlog.domain.core.errors import InputError

REFUSAL = (
    "bad scenario: $.counter_types[3].defence: a fortification has no defence of its own, not 2: "
    "it doubles the defence of the counters it is stacked with (rules: Special Units; BFA-30)"
)


def fortification_with_defence_2() -> str:
    """The proving ground, its Fortifications given defence 2 (the sheet gives them none)."""
    text = PROVING_GROUND.read_text()
    old = 'id = "fortifications"\nname = "Fortifications"\nside = "imperials"\nattack = 0\ndefence = 0'
    assert old in text
    return text.replace(old, old.replace("defence = 0", "defence = 2"), 1)


def test_version_8_refuses_a_fortification_with_a_defence_of_its_own() -> None:
    # given a custom scenario whose fortification has defence 2
    text = fortification_with_defence_2()
    # when a game of it would begin under version 8, from a file or from an import
    recorded = VERSIONS["7"].recorded_scenario(VERSIONS["7"].parse_scenario(text.encode()))
    for parse in (
        lambda: RULESET.parse_scenario(text.encode()),
        lambda: parse_scenario(text),
        lambda: scenario_from_builtins(recorded, 8),
    ):
        with pytest.raises(InputError) as info:
            parse()
        # then it is refused in one line naming the field and the rule
        assert (info.value.code, str(info.value)) == ("input/bad_scenario", REFUSAL)


def test_a_game_begun_under_version_7_counts_the_fortifications_defence_and_explains_it() -> None:
    # given a game begun under version 7 of that scenario, ig-1 and fort-1 in hive_b
    scenario = VERSIONS["7"].parse_scenario(fortification_with_defence_2().encode())
    g = game(
        *in_phase("orks", "combat"),
        at("boyz-2", "plain_b"),
        at("ig-1", "hive_b"),
        at("fort-1", "hive_b"),
        scenario=scenario,
        version="7",
    )
    # when the Orks attack it
    events = g.when(c.Attack(player="orks", target="hive_b", stacks=["plain_b"]), dice=[1])
    # then the defence sums the fortification's 2, as version 7 did, and the explanation names it
    declared = one(events, AttackDeclared)
    assert (declared.defence_base, declared.defence_total) == (9, 18)
    assert declared.explain() == (
        "attack boyz-2 3 = 3 vs defence 2×(ig-1 3 + hive_b 4 + fort-1 2 = 9) fortified = 18 "
        "(fort-1: Fortifications double the defence of the counters they are stacked with, rules: "
        "Special Units; BFA-9: once, however many stand there; BFA-30: a fortification's own "
        "defence counts in a game begun under version 7 or before) → 1:4 (18 ÷ 3, rounded up = "
        "1:6, held at the table's first column, 1:4; rules: Combat Phase; BFA-24: odds rounded in "
        "the defender's favour)"
    )


def test_two_fortifications_own_defences_are_named_together() -> None:
    # given a game begun under version 7 of that scenario, ig-1, fort-1 and fort-2 in hive_b
    scenario = VERSIONS["7"].parse_scenario(fortification_with_defence_2().encode())
    g = game(
        *in_phase("orks", "combat"),
        at("boyz-2", "plain_b"),
        at("ig-1", "hive_b"),
        at("fort-1", "hive_b"),
        at("fort-2", "hive_b"),
        scenario=scenario,
        version="7",
    )
    # when the Orks attack it
    events = g.when(c.Attack(player="orks", target="hive_b", stacks=["plain_b"]), dice=[1])
    # then the two fortifications' 2 + 2 are one term of the sum, which adds up
    declared = one(events, AttackDeclared)
    assert declared.defence_base == 11
    assert "2×(ig-1 3 + hive_b 4 + (fort-1, fort-2) 4 = 11) fortified = 22" in declared.explain()
