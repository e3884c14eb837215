"""Combat: declaring attacks, odds, modifiers, and what every CRT result does."""

from __future__ import annotations

import msgspec

from tests.domain.battle_for_armageddon.helpers import PROVING_GROUND, at, game, in_phase
from tests.given_when_then import Given, of, one
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.combat_events import (
    Advanced,
    AttackDeclared,
    CombatEnded,
    CombatRolled,
    CounterRetreated,
    LossTaken,
    RetreatIgnored,
    SiteRuined,
    StackEliminated,
)
from warlog.domain.battle_for_armageddon.movement_events import ChapterReduced, CounterEliminated
from warlog.domain.battle_for_armageddon.ruleset import RULESET
from warlog.domain.battle_for_armageddon.scenario import parse_scenario
from warlog.domain.core.events import Event
from warlog.eventstore.codec import Codec


def orks_attack(*setup: Event, turn: int = 2, version: str = "") -> Given:
    return game(*in_phase("orks", "combat", turn=turn), *setup, version=version)


def imperials_attack(*setup: Event) -> Given:
    return game(*in_phase("imperials", "combat"), *setup)


def attack(g: Given, target: str, *stacks: str, die: int, player: str = "orks") -> list[Event]:
    return g.when(c.Attack(player=player, target=target, stacks=list(stacks)), dice=[die])


# -- declaring ------------------------------------------------------------------------------------


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


# -- results --------------------------------------------------------------------------------------


def test_ae_eliminates_every_attacker() -> None:
    g = orks_attack(at("mob-1", "plain_b"), at("ig-1", "plain_a"), at("ig-2", "plain_a"))
    events = attack(g, "plain_a", "plain_b", die=1)  # 2 vs 6 → 1:3, roll 1 → AE
    assert one(events, CombatRolled).result == "AE"
    assert g.state.counters["mob-1"].location == "pool"
    assert one(events, CombatEnded).summary.startswith(
        "orks attacked plain_a from plain_b at 1:3: AE"
    )


def test_as_costs_one_counter_from_each_attacking_stack_chosen_by_its_owner() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("mob-1", "plain_b"),
        at("boyz-1", "river_a"),
        at("ig-1", "plain_a"),
        at("ig-2", "plain_a"),
    )
    events = attack(g, "plain_a", "plain_b", "river_a", die=2)  # 8 vs 6 → 1:1, roll 2 → AS
    assert one(events, CombatRolled).result == "AS"
    # plain_b holds two counters: the Orks choose; river_a's only counter would follow on its own
    assert RULESET.active_players(g.state) == ["orks"]
    legal = RULESET.legal_commands(g.state, "orks")
    assert legal == [
        c.TakeLoss(player="orks", counter="boyz-2"),
        c.TakeLoss(player="orks", counter="mob-1"),
    ]
    g.when_rejected(c.TakeLoss(player="orks", counter="boyz-1"), code="rules/bad_choice")
    g.when_rejected(c.TakeLoss(player="imperials", counter="mob-1"), code="rules/not_your_turn")
    g.when_rejected(
        c.Attack(player="orks", target="hive_a", stacks=["plain_a"]), code="rules/decision_pending"
    )
    events = g.when(c.TakeLoss(player="orks", counter="mob-1"))
    losses = of(events, LossTaken)
    assert [(x.area, x.counter) for x in losses] == [("plain_b", "mob-1"), ("river_a", "boyz-1")]
    assert g.state.combat is None
    assert g.state.counters["boyz-2"].location == "plain_b"


def test_ar_costs_a_counter_per_stack_and_the_survivors_retreat() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("mob-1", "plain_b"),
        at("ig-1", "plain_a"),
        at("ig-2", "plain_a"),
    )
    attack(g, "plain_a", "plain_b", die=2)  # 5 vs 6 → 1:2, roll 2 → AR
    g.when(c.TakeLoss(player="orks", counter="mob-1"))
    # boyz-2 may retreat to hive_b? no: an intact hive is Imperial; jungle_c or ash_b
    assert RULESET.legal_commands(g.state, "orks") == [
        c.Retreat(player="orks", counter="boyz-2", to="ash_b"),
        c.Retreat(player="orks", counter="boyz-2", to="jungle_c"),
    ]
    g.when_rejected(
        c.Retreat(player="orks", counter="boyz-2", to="hive_b"), code="rules/bad_choice"
    )
    events = g.when(c.Retreat(player="orks", counter="boyz-2", to="jungle_c"))
    assert one(events, CombatEnded).result == "AR"
    assert g.state.counters["boyz-2"].location == "jungle_c"
    assert "boyz-2" in g.state.retreated


def test_ex_costs_both_sides_a_counter_and_the_defenders_retreat() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("ig-1", "plain_a"),
        at("riders-1", "plain_a"),
    )
    attack(g, "plain_a", "plain_b", die=4)  # 6 vs 4 → 1:1, roll 4 → EX
    g.when(c.TakeLoss(player="orks", counter="boyz-3"))
    g.when(c.TakeLoss(player="imperials", counter="riders-1"))
    # ig-1 may retreat to hive_a or river_a; the Imperials choose
    assert {
        x.to for x in RULESET.legal_commands(g.state, "imperials") if isinstance(x, c.Retreat)
    } == {
        "hive_a",
        "river_a",
    }
    g.when(c.Retreat(player="imperials", counter="ig-1", to="hive_a"))
    assert RULESET.legal_commands(g.state, "orks") == [
        c.Advance(player="orks", counters=[]),
        c.Advance(player="orks", counters=["boyz-2"]),
    ]
    events = g.when(c.Advance(player="orks", counters=["boyz-2"]))
    assert one(events, Advanced).to == "plain_a"
    assert g.state.counters["boyz-2"].location == "plain_a"
    assert g.state.combat is None


def test_dw_makes_every_defender_retreat_and_lets_the_attacker_advance() -> None:
    g = orks_attack(at("boyz-2", "plain_b"), at("boyz-3", "plain_b"), at("ig-1", "plain_a"))
    attack(g, "plain_a", "plain_b", die=6)  # 6 vs 3 → 2:1, roll 6 → DW
    g.when(c.Retreat(player="imperials", counter="ig-1", to="river_a"))
    assert g.state.counters["ig-1"].location == "river_a"
    g.when(c.Advance(player="orks", counters=["boyz-2", "boyz-3"]))
    assert g.state.counters["boyz-3"].location == "plain_a"


def test_dr_eliminates_one_defender_and_the_rest_retreat() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-4", "plain_b"),
        at("ig-1", "plain_a"),
        at("riders-1", "plain_a"),
    )
    events = attack(g, "plain_a", "plain_b", die=5)  # 9 vs 4 → 2:1, roll 5 → DR
    assert one(events, CombatRolled).result == "DR"
    g.when(c.TakeLoss(player="imperials", counter="ig-1"))
    g.when(c.Retreat(player="imperials", counter="riders-1", to="hive_a"))
    g.when(c.Advance(player="orks", counters=[]))
    assert g.state.counters["ig-1"].location == "pool"
    assert g.state.counters["riders-1"].location == "hive_a"
    assert g.state.counters["boyz-2"].location == "plain_b"


def test_de_eliminates_every_defender() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-4", "plain_b"),
        at("ig-1", "plain_a"),
    )
    events = attack(g, "plain_a", "plain_b", die=6)  # 9 vs 3 → 3:1, roll 6 → DE
    assert one(events, CombatRolled).result == "DE"
    assert g.state.counters["ig-1"].location == "pool"
    assert one(events, StackEliminated).counters == ["ig-1"]
    assert RULESET.active_players(g.state) == ["orks"]  # the advance


def test_a_counter_with_nowhere_to_go_is_eliminated_instead_of_retreating() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-1", "river_a"),
        at("ig-1", "plain_a"),
        at("ig-2", "hive_a"),
        at("ig-3", "hive_a"),
        at("ig-4", "hive_a"),
    )
    events = attack(g, "plain_a", "plain_b", "river_a", die=6)  # 6 vs 3 → 2:1, 6 → DW
    eliminated = one(events, CounterEliminated)
    assert (eliminated.counter, eliminated.reason) == (
        "ig-1",
        "could not retreat (rules: Retreating)",
    )


def test_counters_with_move_0_cannot_retreat() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("ig-1", "hive_b"),
        at("fort-1", "hive_b"),
    )
    g.events(CounterEliminated(counter="ig-1", area="hive_b", reason="test", to="pool"))
    events = attack(g, "hive_b", "plain_b", die=6)  # 6 vs 2×4 = 8 → 1:2, 6 → EX
    assert one(events, CombatRolled).result == "EX"
    events = g.when(c.TakeLoss(player="orks", counter="boyz-3"))
    # the fortification cannot be taken as a loss; the retreat destroys it and ruins the hive
    assert [x.counter for x in of(events, LossTaken)] == ["boyz-3", ""]
    assert one(events, SiteRuined).site == "hive_b"
    assert any(e.counter == "fort-1" for e in of(events, CounterEliminated))


def test_a_normal_counter_with_move_0_cannot_retreat_and_is_eliminated() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-4", "plain_b"),
        at("ig-1", "plain_a"),
        at("guns-1", "plain_a"),  # Emplaced Guns: Move 0, not a fortification
    )
    events = attack(g, "plain_a", "plain_b", die=5)  # 9 vs 3+1 = 4 → 2:1, roll 5 → DR
    assert one(events, CombatRolled).result == "DR"
    events = g.when(c.TakeLoss(player="imperials", counter="ig-1"))
    # hive_a and river_a are open to it, but with Move 0 it has nowhere to go
    gone = [e for e in of(events, CounterEliminated) if e.counter == "guns-1"]
    assert [e.reason for e in gone] == ["could not retreat (rules: Retreating)"]
    assert of(events, CounterRetreated) == []
    assert g.state.counters["guns-1"].location != "plain_a"
    assert RULESET.active_players(g.state) == ["orks"]  # the advance


def test_a_counter_that_already_retreated_does_not_defend_and_dies_if_forced_again() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-1", "ork_a"),
        at("ghazghkull", "ork_b"),
        at("ig-1", "plain_a"),
        at("ig-2", "river_a"),
    )
    attack(g, "plain_a", "plain_b", die=6)  # 6 vs 3 → 2:1, 6 → DW
    g.when(c.Retreat(player="imperials", counter="ig-1", to="river_a"))
    g.when(c.Advance(player="orks", counters=[]))
    events = attack(g, "river_a", "ork_a", die=6)  # 3 vs ig-2 alone (ig-1 does not count) → 1:1
    declared = one(events, AttackDeclared)
    assert (declared.defenders, declared.passive, declared.defence_total) == (["ig-2"], ["ig-1"], 3)
    assert one(events, CombatRolled).result == "DR"
    # ig-2 is the loss (ig-1 cannot absorb it); ig-1 must retreat again and is destroyed
    assert g.state.counters["ig-2"].location == "pool"
    gone = [e for e in events if isinstance(e, CounterEliminated) and e.counter == "ig-1"]
    assert gone and "second time" in gone[0].reason


def test_advance_is_limited_to_three_counters_with_move_2() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("mob-1", "plain_b"),
        at("boyz-1", "river_a"),
        at("ig-1", "plain_a"),
    )
    g.events(at("boyz-4", "river_a"))
    attack(g, "plain_a", "plain_b", "river_a", die=6)  # 14 vs 3 → 4:1, 6 → DE
    options = RULESET.legal_commands(g.state, "orks")
    assert c.Advance(player="orks", counters=["boyz-2", "boyz-3", "boyz-1"]) in options
    assert all("mob-1" not in x.counters for x in options if isinstance(x, c.Advance))
    g.when_rejected(
        c.Advance(player="orks", counters=["boyz-2", "boyz-3", "boyz-1", "boyz-4"]),
        code="rules/bad_choice",
    )
    g.when_rejected(c.Advance(player="orks", counters=["mob-1"]), code="rules/bad_choice")
    g.when(c.Advance(player="orks", counters=["boyz-1", "boyz-4"]))
    assert g.state.counters["boyz-4"].location == "plain_a"


def test_yarricks_stack_ignores_retreats_but_takes_its_losses() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-4", "plain_b"),
        at("ig-1", "hive_b"),
        at("yarrick", "hive_b"),
    )
    events = attack(g, "hive_b", "plain_b", die=6)  # 9 vs 3+2+4 = 9 → 1:1, 6 → DR
    assert one(events, CombatRolled).result == "DR"
    assert g.state.counters["ig-1"].location == "pool"
    assert one(events, RetreatIgnored).leader == "yarrick"
    assert not of(events, SiteRuined)
    assert g.state.counters["yarrick"].location == "hive_b"
    assert one(events, Advanced).counters == []


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
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("ghazghkull", "plain_b"),
        at("blood_angels", "plain_a"),
        at("dante", "plain_a"),
    )
    attack(g, "plain_a", "plain_b", die=6)  # 6 vs 6 → 1:1, 6 → DR
    g.when(c.KeepResult(player="orks"))
    assert RULESET.active_players(g.state) == ["imperials"]
    events = g.when(c.Reroll(player="imperials"), dice=[2])
    assert one(events, CombatRolled).result == "AS"
    assert g.state.counters["boyz-2"].location == "pool"


def test_a_reroll_records_the_leader_of_the_side_that_rerolled() -> None:
    """Given Ghazghkull attacking Dante's stack (version 6), when the attacker keeps the result
    and the defender rerolls, then the reroll records Dante, the Imperials' leader, by id and
    printed name; the first roll, no reroll, records no leader."""
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("ghazghkull", "plain_b"),
        at("blood_angels", "plain_a"),
        at("dante", "plain_a"),
    )
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
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("ghazghkull", "plain_b"),
        at("blood_angels", "plain_a"),
        at("dante", "plain_a"),
    )
    attack(g, "plain_a", "plain_b", die=6)
    events = g.when(c.Reroll(player="orks"), dice=[4])  # 1:1, 4 → EX, and it stands
    assert one(events, CombatRolled).result == "EX"
    assert RULESET.active_players(g.state) == ["imperials"]
    assert all(not isinstance(x, c.Reroll) for x in RULESET.legal_commands(g.state, "imperials"))


def test_a_hive_forced_to_retreat_flips_to_smoking_ruins_and_the_track_drops() -> None:
    g = orks_attack(at("boyz-2", "plain_b"), at("boyz-3", "plain_b"), at("boyz-4", "plain_b"))
    events = attack(g, "hive_b", "plain_b", die=5)  # 9 vs hive 4 → 2:1, 5 → DR
    ruined = one(events, SiteRuined)
    assert (ruined.site, ruined.track) == ("hive_b", 16)
    assert "drops by 4 to 16" in ruined.explain()
    assert g.state.sites["hive_b"].ruined
    g.when(c.Advance(player="orks", counters=["boyz-2"]))
    assert g.state.counters["boyz-2"].location == "hive_b"


def test_a_chapter_flips_to_a_detachment_then_leaves_play() -> None:
    g2 = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-4", "plain_b"),
        at("blood_angels", "plain_a"),
    )
    events = attack(g2, "plain_a", "plain_b", die=5)  # 2:1, 5 → DR: the loss flips the chapter
    assert one(events, LossTaken).outcome == "reduced"
    assert g2.state.counters["blood_angels"].reduced
    g2.when(c.Retreat(player="imperials", counter="blood_angels", to="hive_a"))
    assert g2.state.counters["blood_angels"].location == "hive_a"
    assert RULESET.view(g2.state, None)["counters"]["blood_angels"]["defence"] == 2


def test_de_flips_a_chapter_which_must_then_retreat() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-4", "plain_b"),
        at("boyz-1", "river_a"),
        at("blood_angels", "plain_a"),
    )
    events = attack(g, "plain_a", "plain_b", "river_a", die=6)  # 12 vs 4 → 3:1, 6 → DE
    assert one(events, ChapterReduced).counter == "blood_angels"
    # its only way out is hive_a (plain_b and river_a hold Orks): it goes there by itself
    assert one(events, CounterRetreated).to == "hive_a"
    assert g.state.counters["blood_angels"].reduced
    assert RULESET.active_players(g.state) == ["orks"]


def test_a_detachment_lost_again_is_removed_for_good() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-4", "plain_b"),
        at("blood_angels", "plain_a"),
        ChapterReduced(counter="blood_angels", area="plain_a", reason="test"),
    )
    events = attack(g, "plain_a", "plain_b", die=5)  # 9 vs 2 → 4:1, 5 → DE
    assert one(events, CounterEliminated).to == "removed"


def test_leaders_attacked_on_their_own_are_killed_without_a_roll() -> None:
    g = imperials_attack(at("ig-1", "plain_b"), at("ghazghkull", "ash_b"))
    events = g.when(c.Attack(player="imperials", target="ash_b", stacks=["plain_b"]), dice=[])
    assert one(events, AttackDeclared).alone
    assert not of(events, CombatRolled)
    assert g.state.counters["ghazghkull"].location == "removed"


def test_leaders_die_when_all_the_counters_with_them_are_gone() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("ig-1", "plain_a"),
        at("dante", "plain_a"),
    )
    attack(g, "plain_a", "plain_b", die=6)  # 6 vs 5 → 1:1, 6 → DR
    g.when(c.KeepResult(player="imperials"))
    assert g.state.counters["ig-1"].location == "pool"
    assert g.state.counters["dante"].location == "removed"


def test_a_leader_left_behind_by_an_advance_lives_on() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("ghazghkull", "plain_b"),
        at("ig-1", "plain_a"),
    )
    attack(g, "plain_a", "plain_b", die=6)  # 9 vs 3 → 3:1, 6 → DE
    g.when(c.KeepResult(player="orks"))
    g.when(c.Advance(player="orks", counters=["boyz-2", "boyz-3"]))
    assert g.state.counters["ghazghkull"].location == "plain_b"
    assert g.state.combat is None


def test_a_leader_retreats_with_his_stack() -> None:
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-4", "plain_b"),
        at("ig-1", "plain_a"),
        at("dante", "plain_a"),
    )
    attack(g, "plain_a", "plain_b", die=6)  # 9 vs 5 → 1:1, 6 → DR
    g.when(c.KeepResult(player="imperials"))
    # ig-1 is the only loss there is: Dante is left alone and falls with it
    assert g.state.counters["dante"].location == "removed"
    g2 = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("ig-1", "plain_a"),
        at("ig-2", "plain_a"),
        at("dante", "plain_a"),
    )
    attack(g2, "plain_a", "plain_b", die=6)  # 6 vs 8 → 1:2, 6 → EX
    g2.when(c.KeepResult(player="imperials"))
    g2.when(c.TakeLoss(player="orks", counter="boyz-3"))
    g2.when(c.TakeLoss(player="imperials", counter="ig-2"))
    g2.when(c.Retreat(player="imperials", counter="ig-1", to="river_a"))
    assert RULESET.legal_commands(g2.state, "imperials") == [
        c.Retreat(player="imperials", counter="dante", to="hive_a"),
        c.Retreat(player="imperials", counter="dante", to="river_a"),
    ]
    g2.when(c.Retreat(player="imperials", counter="dante", to="river_a"))
    assert g2.state.counters["dante"].location == "river_a"


# -- fortifications (BFA-9 since version 5; rules: Special Units) ----------------------------------


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


def forced_back_twice(version: str) -> tuple[Given, list[Event]]:
    """ig-1 retreats into river_a, where ig-2 and fort-1 stand (fort-2 too since version 5), and
    the Orks attack river_a: 3 vs 2×3 = 6 → 1:2, 6 → EX. ig-2 is the loss; the stack must
    retreat, which destroys its fortifications and ig-1, forced to retreat a second time."""
    forts = [at("fort-1", "river_a")] + ([at("fort-2", "river_a")] if not version else [])
    g = game(
        *in_phase("orks", "combat"),
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-1", "ork_a"),
        at("ghazghkull", "ork_b"),
        at("ig-1", "plain_a"),
        at("ig-2", "river_a"),
        *forts,
        version=version,
    )
    attack(g, "plain_a", "plain_b", die=6)  # 6 vs 3 → 2:1, 6 → DW
    g.when(c.Retreat(player="imperials", counter="ig-1", to="river_a"))
    g.when(c.Advance(player="orks", counters=[]))
    events = attack(g, "river_a", "ork_a", die=6)
    declared = one(events, AttackDeclared)
    assert (declared.defence_total, declared.column) == (6, "1:2")
    assert one(events, CombatRolled).result == "EX"
    return g, events


def test_a_fortification_its_stack_retreat_destroys_cites_special_units_since_version_5() -> None:
    """Given a stack with two fortifications and a counter that already retreated, when it is
    forced to retreat, then both fortifications are destroyed citing Special Units (they are
    "destroyed if counters they are stacked with are forced to retreat") and the counter forced
    back a second time still cites Retreating."""
    _, events = forced_back_twice(version="")
    reasons = {e.counter: e.reason for e in of(events, CounterEliminated)}
    assert reasons["fort-1"] == "its stack was forced to retreat (rules: Special Units)"
    assert reasons["fort-2"] == "its stack was forced to retreat (rules: Special Units)"
    assert reasons["ig-1"] == "forced to retreat a second time in the phase (rules: Retreating)"


def test_version_4_cites_retreating_for_a_fortification_its_stack_retreat_destroys() -> None:
    """Given a game begun under version 4, then the fortification's reason is the one that
    version logged, byte for byte."""
    _, events = forced_back_twice(version="4")
    reasons = {e.counter: e.reason for e in of(events, CounterEliminated)}
    assert reasons["fort-1"] == "its stack was forced to retreat (rules: Retreating)"
    assert reasons["ig-1"] == "forced to retreat a second time in the phase (rules: Retreating)"
