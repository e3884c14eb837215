"""Combat (BFA-8, BFA-9, BFA-14, BFA-15, BFA-24, BFA-25): declaring attacks, odds and
fortifications, the roll's modifiers, leaders attacked on their own, and rerolls with the leader
each records."""

from __future__ import annotations

import msgspec

from tests.domain.battle_for_armageddon.combat_helpers import (
    attack,
    imperials_attack,
    orks_attack,
    retreated_into_river_a,
)
from tests.domain.battle_for_armageddon.helpers import PROVING_GROUND, at, game, in_phase
from tests.given_when_then import of, one
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.combat_events import (
    AttackDeclared,
    CombatRolled,
    ResultKept,
    ResultStood,
)
from warlog.domain.battle_for_armageddon.rules import SPECIAL_UNITS
from warlog.domain.battle_for_armageddon.ruleset import RULESET
from warlog.domain.battle_for_armageddon.scenario import parse_scenario
from warlog.eventstore.codec import Codec

#: Ghazghkull's stack (6) attacking Dante's (6) at 1:1: both sides have a leader who may reroll
GHAZGHKULL_VS_DANTE = (
    at("boyz-2", "plain_b"),
    at("ghazghkull", "plain_b"),
    at("blood_angels", "plain_a"),
    at("dante", "plain_a"),
)


def test_the_attack_names_its_totals_and_column() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("mob-1", "plain_b"),
        at("ig-1", "plain_a"),
    )
    events = attack(g, "plain_a", "plain_b", die=4)
    declared = one(events, AttackDeclared)
    assert (declared.attack_total, declared.defence_total, declared.column) == (8, 3, "2:1")
    assert declared.explain().startswith(
        "attack boyz-2 3 + boyz-3 3 + mob-1 2 = 8 vs defence ig-1 3 = 3 → 2:1"
    )
    rolled = one(events, CombatRolled)
    assert (rolled.die, rolled.total, rolled.result) == (4, 4, "EX")
    assert rolled.explain() == (
        "attack 8 vs defence 3 → 2:1; d6 4 = 4 → EX (Exchange; rules: Combat Results Table; BFA-25)"
    )


def test_other_adjacent_stacks_join_the_attack() -> None:
    g = orks_attack(at("boyz-2", "plain_b"), at("boyz-1", "river_a"), at("ig-1", "plain_a"))
    declared = one(attack(g, "plain_a", "plain_b", "river_a", die=6), AttackDeclared)
    assert declared.attackers == {"boyz-2": "plain_b", "boyz-1": "river_a"}
    assert declared.column == "2:1"


def test_an_attack_must_be_on_an_adjacent_enemy_area_from_a_stack_that_has_not_attacked() -> None:
    g = orks_attack(at("boyz-2", "plain_b"), at("ig-1", "plain_a"), at("ig-2", "hive_e"))
    g.when_rejected(
        c.Attack(player="orks", target="hive_e", stacks=["plain_b"]), code="rules/not_adjacent"
    )
    g.when_rejected(
        c.Attack(player="orks", target="river_a", stacks=["plain_b"]), code="rules/no_enemy"
    )
    g.when_rejected(
        c.Attack(player="orks", target="plain_a", stacks=["hive_a"]), code="rules/no_attackers"
    )
    g.when_rejected(c.Attack(player="orks", target="plain_a", stacks=[]), code="rules/no_attackers")
    g.when_rejected(
        c.Attack(player="imperials", target="plain_b", stacks=["plain_a"]),
        code="rules/not_your_turn",
    )


def test_an_area_is_attacked_at_most_once_a_phase_and_a_stack_attacks_once() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-1", "river_a"),
        at("ig-1", "plain_a"),
        at("ig-2", "hive_b"),
        at("fort-1", "hive_b"),
    )
    attack(g, "plain_a", "river_a", die=3)  # 1:1 across the river: 3 - 1 = 2 → AS, boyz-1 lost
    assert g.state.combat is None
    g.when_rejected(
        c.Attack(player="orks", target="plain_a", stacks=["plain_b"]), code="rules/already_attacked"
    )
    attack(g, "hive_b", "plain_b", die=1)  # 3 vs 2×(3+4) = 14 → 1:4, AE
    g.when_rejected(
        c.Attack(player="orks", target="hive_b", stacks=["plain_b"]), code="rules/already_attacked"
    )


def test_a_stack_named_twice_in_one_attack_is_refused() -> None:
    """Given boyz-2 and boyz-3 in plain_b next to ig-1, when the Orks name plain_b twice in one
    attack, then it is refused: a stack attacks once, with its whole strength (rules: Combat
    Phase), and naming it again must not count its attack twice."""
    g = orks_attack(at("boyz-2", "plain_b"), at("boyz-3", "plain_b"), at("ig-1", "plain_a"))
    refused = g.when_rejected(
        c.Attack(player="orks", target="plain_a", stacks=["plain_b", "plain_b"]),
        code="rules/bad_choice",
    )
    assert str(refused) == "a stack is named twice"


def test_a_stack_that_has_attacked_cannot_attack_again_in_the_phase() -> None:
    """Given boyz-2 and boyz-3 in plain_b, next to ig-1 in plain_a and ig-2 in hive_b, when they
    attack plain_a and the result (AS) leaves boyz-2 in plain_b, then boyz-2 cannot attack
    hive_b in the same combat phase (rules: Combat Phase: each stack makes one attack; BFA-8)."""
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("ig-1", "plain_a"),
        at("ig-2", "hive_b"),
    )
    attack(g, "plain_a", "plain_b", die=1)  # 6 vs 3 → 2:1, roll 1 → AS
    g.when(c.TakeLoss(player="orks", counter="boyz-3"))
    assert g.state.counters["boyz-2"].location == "plain_b"
    refused = g.when_rejected(
        c.Attack(player="orks", target="hive_b", stacks=["plain_b"]), code="rules/no_attackers"
    )
    assert "has attacked or retreated this combat phase (BFA-8)" in str(refused)
    legal = RULESET.legal_commands(g.state, "orks")
    assert not [x for x in legal if isinstance(x, c.Attack) and x.target == "hive_b"]


def test_a_river_takes_one_off_the_roll_only_when_every_attacker_is_across_it() -> None:
    g = orks_attack(at("boyz-1", "river_a"), at("ig-1", "plain_a"))
    rolled = one(attack(g, "plain_a", "river_a", die=6), CombatRolled)
    assert [m.value for m in rolled.modifiers] == [-1]
    assert (rolled.total, rolled.result) == (5, "EX")
    assert "d6 6 −1 (every attacker across a river" in rolled.explain()
    g2 = orks_attack(at("boyz-1", "river_a"), at("boyz-2", "plain_b"), at("ig-1", "plain_a"))
    assert one(attack(g2, "plain_a", "river_a", "plain_b", die=6), CombatRolled).modifiers == []


def test_the_orks_add_one_to_their_attacks_on_turn_1() -> None:
    g = orks_attack(at("boyz-2", "plain_b"), at("ig-1", "plain_a"), turn=1)
    rolled = one(attack(g, "plain_a", "plain_b", die=3), CombatRolled)
    assert [m.value for m in rolled.modifiers] == [1]
    assert (rolled.total, rolled.result) == (4, "EX")


def test_only_the_orks_add_one_to_their_attacks_on_turn_1() -> None:
    """Given turn 1 and the Imperials attacking boyz-2 with ig-1 (2 vs 2 → 1:1), when they roll
    a 3, then no modifier applies and the result is AS: the +1 of the first turn is the Orks'
    alone (rules: First Turn Surprise; BFA-25)."""
    g = game(
        *in_phase("imperials", "combat", turn=1), at("ig-1", "plain_a"), at("boyz-2", "plain_b")
    )
    rolled = one(attack(g, "plain_b", "plain_a", die=3, player="imperials"), CombatRolled)
    assert rolled.modifiers == []
    assert (rolled.total, rolled.result) == (3, "AS")


def test_modified_rolls_are_clamped_before_the_table() -> None:
    g = orks_attack(at("boyz-2", "plain_b"), at("ig-1", "plain_a"), turn=1)
    rolled = one(attack(g, "plain_a", "plain_b", die=6), CombatRolled)
    assert rolled.total == 6
    assert "= 7, clamped to 6" in rolled.explain()


def test_a_fortification_doubles_the_defence_of_its_stack_and_hive() -> None:
    g = orks_attack(at("boyz-2", "plain_b"), at("ig-1", "hive_b"), at("fort-1", "hive_b"))
    declared = one(attack(g, "hive_b", "plain_b", die=6), AttackDeclared)
    assert (declared.defence_base, declared.defence_total, declared.fortified) == (7, 14, True)
    assert "2×(ig-1 3 + hive_b 4 = 7) fortified = 14" in declared.explain()
    assert declared.column == "1:4"


def test_two_fortifications_double_the_defence_once() -> None:
    """Given ig-1, fort-1 and fort-2 in hive_b (version 5: any number stack), when 3 Boyz attack
    it, then the defence is 2×(ig-1 3 + hive_b 4 = 7) = 14, not 28: 9 vs 14 reads 1:2 (doubled
    twice it would read 1:4)."""
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-4", "plain_b"),
        at("ig-1", "hive_b"),
        at("fort-1", "hive_b"),
        at("fort-2", "hive_b"),
    )
    declared = one(attack(g, "hive_b", "plain_b", die=6), AttackDeclared)
    assert (declared.attack_total, declared.defence_base, declared.defence_total) == (9, 7, 14)
    assert declared.fortified
    assert declared.column == "1:2"
    assert "2×(ig-1 3 + hive_b 4 = 7) fortified = 14" in declared.explain()


def test_leaders_attacked_on_their_own_are_killed_without_a_roll() -> None:
    g = imperials_attack(at("ig-1", "plain_b"), at("ghazghkull", "ash_b"))
    events = g.when(c.Attack(player="imperials", target="ash_b", stacks=["plain_b"]), dice=[])
    assert one(events, AttackDeclared).alone
    assert not of(events, CombatRolled)
    assert g.state.counters["ghazghkull"].location == "removed"


def test_a_leader_with_counters_that_retreated_to_him_is_not_attacked_on_his_own() -> None:
    """Given ig-1 retreated this phase into river_a, where Dante stands, when the Orks attack
    river_a, then Dante is not "attacked on his own" (BFA-15: only leaders in the area): ig-1
    does not defend (rules: Retreating), but the CRT is rolled at Dante's defence alone."""
    g = retreated_into_river_a(at("dante", "river_a"))
    events = attack(g, "river_a", "ork_a", die=6)  # 3 vs Dante 2 → 1:1, 6 → DR
    declared = one(events, AttackDeclared)
    assert (declared.defenders, declared.passive, declared.alone) == (["dante"], ["ig-1"], False)
    assert (declared.defence_total, declared.column) == (2, "1:1")
    assert one(events, CombatRolled).result == "DR"
    assert g.state.counters["dante"].location == "river_a"  # the Imperials may still reroll


def test_a_leader_on_an_intact_hive_is_not_attacked_on_his_own() -> None:
    """Given Yarrick alone on intact hive_b, when two Boyz attack it, then he is not "attacked
    on his own" (BFA-15: no intact site with him): the hive defends with him, 6 vs 2 + 4 = 6
    → 1:1, and the CRT is rolled."""
    g = orks_attack(at("boyz-2", "plain_b"), at("boyz-3", "plain_b"), at("yarrick", "hive_b"))
    events = attack(g, "hive_b", "plain_b", die=2)  # 1:1, roll 2 → AS
    declared = one(events, AttackDeclared)
    assert (declared.alone, declared.defence_total, declared.column) == (False, 6, "1:1")
    assert one(events, CombatRolled).result == "AS"
    assert g.state.counters["yarrick"].location == "hive_b"


def test_ghazghkull_lets_the_orks_reroll_and_the_second_result_stands() -> None:
    g = orks_attack(at("boyz-2", "plain_b"), at("ghazghkull", "plain_b"), at("ig-1", "plain_a"))
    attack(g, "plain_a", "plain_b", die=1)  # 6 vs 3 → 2:1, 1 → AS
    assert RULESET.legal_commands(g.state, "orks") == [
        c.Reroll(player="orks"),
        c.KeepResult(player="orks"),
    ]
    events = g.when(c.Reroll(player="orks"), dice=[1])
    rolled = one(events, CombatRolled)
    assert rolled.reroll and rolled.result == "AS"
    # the loss is boyz-2 (Ghazghkull cannot be taken); he is then alone and falls with it
    assert g.state.counters["boyz-2"].location == "pool"
    assert g.state.counters["ghazghkull"].location == "removed"


def test_dante_lets_the_defender_reroll_once_the_attacker_keeps() -> None:
    g = orks_attack(*GHAZGHKULL_VS_DANTE)
    attack(g, "plain_a", "plain_b", die=6)  # 6 vs 6 → 1:1, 6 → DR
    g.when(c.KeepResult(player="orks"))
    assert RULESET.active_players(g.state) == ["imperials"]
    events = g.when(c.Reroll(player="imperials"), dice=[2])
    assert one(events, CombatRolled).result == "AS"
    assert g.state.counters["boyz-2"].location == "pool"


def test_a_side_that_keeps_the_result_passes_the_reroll_to_the_other_and_both_keeping_it_stands() -> (
    None
):
    # given Ghazghkull's stack attacking Dante's: the CRT die rolled, both sides may reroll
    g = orks_attack(*GHAZGHKULL_VS_DANTE)
    attack(g, "plain_a", "plain_b", die=6)  # 6 vs 6 → 1:1, 6 → DR
    # when the attacker keeps the result
    events = g.when(c.KeepResult(player="orks"))
    # then that is all that happens: the keep is recorded and the defender is asked (BFA-14)
    assert events == [ResultKept(player="orks")]
    assert g.state.combat is not None and g.state.combat.kept == ("orks",)
    assert RULESET.active_players(g.state) == ["imperials"]
    assert events[0].explain() == (
        "the orks keep the result: their leader does not reroll the CRT die "
        f"({SPECIAL_UNITS}; BFA-14)"
    )
    # and when the defender keeps it too, the result stands
    events = g.when(c.KeepResult(player="imperials"))
    assert events[0] == ResultKept(player="imperials")
    assert one(events, ResultStood).result == "DR"


def test_a_reroll_records_the_leader_of_the_side_that_rerolled() -> None:
    """Given Ghazghkull attacking Dante's stack (version 6), when the attacker keeps the result
    and the defender rerolls, then the reroll records Dante, the Imperials' leader, by id and
    printed name; the first roll, no reroll, records no leader."""
    g = orks_attack(*GHAZGHKULL_VS_DANTE)
    first = one(attack(g, "plain_a", "plain_b", die=6), CombatRolled)
    assert first.leader is msgspec.UNSET and first.leader_name is msgspec.UNSET
    g.when(c.KeepResult(player="orks"))
    rolled = one(g.when(c.Reroll(player="imperials"), dice=[2]), CombatRolled)
    assert (rolled.reroll, rolled.leader, rolled.leader_name) == (True, "dante", "Commander Dante")


#: a second Ork leader able to reroll, listed before Ghazghkull (a custom scenario's)
WARBOSS = (
    '\n[[counter_types]]\nid = "warboss"\nname = "Big Mek Warboss"\nside = "orks"\n'
    'attack = 2\ndefence = 2\nmove = 2\nrole = "leader"\nability = "reroll"\n'
)


def test_of_two_leaders_able_to_reroll_the_reroll_names_the_one_the_side_was_asked_for() -> None:
    """Given a scenario that gives the reroll to a Warboss too, and a Warboss and Ghazghkull in
    two stacks of one attack, when the Orks reroll, then the reroll names the first of them in
    the attack (``results.reroll_leader``: the stack named first), the Warboss."""
    text = PROVING_GROUND.read_text().replace(
        '[[counters]]\nid = "ghazghkull"',
        '[[counters]]\nid = "warboss-1"\ntype = "warboss"\nstart = "ork_c"\n\n'
        '[[counters]]\nid = "ghazghkull"',
        1,
    )
    scenario = parse_scenario((text + WARBOSS).encode())
    g = game(
        *in_phase("orks", "combat"),
        at("boyz-2", "plain_b"),
        at("warboss-1", "plain_b"),
        at("boyz-1", "river_a"),
        at("ghazghkull", "river_a"),
        at("ig-1", "plain_a"),
        scenario=scenario,
    )
    attack(g, "plain_a", "plain_b", "river_a", die=1)
    rolled = one(g.when(c.Reroll(player="orks"), dice=[1]), CombatRolled)
    assert (rolled.leader, rolled.leader_name) == ("warboss-1", "Big Mek Warboss")
    assert "a reroll by Big Mek Warboss (warboss-1), the orks' leader" in rolled.explain()


def test_version_5_records_a_reroll_as_it_did_without_a_leader() -> None:
    """Given a game begun under version 5, when the Orks reroll, then the event has no leader
    and its row's data is byte for byte what version 5 logged."""
    g = orks_attack(
        at("boyz-2", "plain_b"), at("ghazghkull", "plain_b"), at("ig-1", "plain_a"), version="5"
    )
    attack(g, "plain_a", "plain_b", die=1)  # 6 vs 3 → 2:1, 1 → AS
    rolled = one(g.when(c.Reroll(player="orks"), dice=[1]), CombatRolled)
    assert rolled.leader is msgspec.UNSET and rolled.leader_name is msgspec.UNSET
    assert Codec.for_ruleset(RULESET).encode(rolled) == (
        "combat_rolled",
        '{"player":"orks","target":"plain_a","attack_total":6,"defence_total":3,"column":"2:1",'
        '"die":1,"modifiers":[],"total":1,"result":"AS","reroll":true}',
    )


def test_a_rerolled_result_cannot_be_rerolled_again() -> None:
    g = orks_attack(*GHAZGHKULL_VS_DANTE)
    attack(g, "plain_a", "plain_b", die=6)
    events = g.when(c.Reroll(player="orks"), dice=[4])  # 1:1, 4 → EX, and it stands
    assert one(events, CombatRolled).result == "EX"
    assert RULESET.active_players(g.state) == ["imperials"]
    assert all(not isinstance(x, c.Reroll) for x in RULESET.legal_commands(g.state, "imperials"))


def test_an_attack_is_offered_from_each_stack_alone_and_from_all_together() -> None:
    """Given Orks in ork_a and ash_b, both next to ig-2 in river_a, when legal lists the
    attacks, then river_a may be attacked from either stack or from both (rules: Combat Phase:
    stacks next to the target may join one attack)."""
    g = orks_attack(
        at("boyz-2", "plain_b"), at("sunz-1", "ash_b"), at("ig-1", "plain_a"), at("ig-2", "river_a")
    )
    on_river_a = [
        x.stacks
        for x in RULESET.legal_commands(g.state, "orks")
        if isinstance(x, c.Attack) and x.target == "river_a"
    ]
    assert on_river_a == [["ork_a"], ["ash_b"], ["ork_a", "ash_b"]]
