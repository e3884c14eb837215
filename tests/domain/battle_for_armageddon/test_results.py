"""What every CRT result does (rules: Combat Results Table, Retreating, Special Units): losses,
eliminations, retreats and the advance, Yarrick ignoring retreats, hives ruined, leaders falling
with their stacks, and fortifications destroyed when their stack retreats (BFA-9)."""

from __future__ import annotations

from tests.domain.battle_for_armageddon.combat_helpers import (
    attack,
    imperials_attack,
    orks_attack,
    retreated_into_river_a,
)
from tests.domain.battle_for_armageddon.helpers import at, game, in_phase
from tests.given_when_then import Given, of, one, tags
from warlog.domain.battle_for_armageddon import board
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.combat_events import (
    Advanced,
    AttackDeclared,
    CombatEnded,
    CombatRolled,
    CounterRetreated,
    LossTaken,
    RetreatCompleted,
    RetreatIgnored,
    SiteRuined,
    StackEliminated,
)
from warlog.domain.battle_for_armageddon.movement_events import CounterEliminated
from warlog.domain.battle_for_armageddon.rules import RETREATING
from warlog.domain.battle_for_armageddon.ruleset import RULESET
from warlog.domain.core.events import Event


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


def ar_with_boyz_2_to_retreat() -> Given:
    """An AR: the Orks took mob-1 as their stack's loss; boyz-2 is left to retreat."""
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("mob-1", "plain_b"),
        at("ig-1", "plain_a"),
        at("ig-2", "plain_a"),
    )
    attack(g, "plain_a", "plain_b", die=2)  # 5 vs 6 → 1:2, roll 2 → AR
    g.when(c.TakeLoss(player="orks", counter="mob-1"))
    return g


def test_an_attacker_routed_from_its_hive_leaves_the_hive_intact() -> None:
    """Given ig-1 and riders-1 attacking from intact hive_a (3 vs boyz-2 and boyz-3, 4 → 1:2),
    when the roll is 1 (AR), then riders-1 is the loss and ig-1 retreats to hive_b, and hive_a
    stays intact with the build track unchanged: a hive flips only when its own stack, a
    defender, must retreat (rules: Special Units: "Destroyed and flipped to Smoking Ruins if
    forced to retreat"); it takes no part in an attack from its area."""
    g = imperials_attack(
        at("ig-1", "hive_a"),
        at("riders-1", "hive_a"),
        at("boyz-2", "plain_a"),
        at("boyz-3", "plain_a"),
    )
    track = board.build_track(g.state)
    rolled = one(attack(g, "plain_a", "hive_a", die=1, player="imperials"), CombatRolled)
    assert rolled.result == "AR"
    events = g.when(c.TakeLoss(player="imperials", counter="riders-1"))
    assert not of(events, SiteRuined)
    assert one(events, CounterRetreated) == CounterRetreated(
        counter="ig-1", from_area="hive_a", to="hive_b"
    )
    assert not g.state.sites["hive_a"].ruined
    assert board.build_track(g.state) == track


def test_an_attacking_stack_s_fortification_is_destroyed_when_the_stack_must_retreat() -> None:
    """Given ig-1, ig-2 and fort-1 in plain_b, when ig-1 and ig-2 attack boyz-2 and boyz-3 in
    plain_a (4 vs 4 → 1:1) and roll 1 (AR), then after the loss the fortification is destroyed:
    the counters it is stacked with are forced to retreat (rules: Special Units), attackers as
    much as defenders."""
    g = imperials_attack(
        at("ig-1", "plain_b"),
        at("ig-2", "plain_b"),
        at("fort-1", "plain_b"),
        at("boyz-2", "plain_a"),
        at("boyz-3", "plain_a"),
    )
    rolled = one(attack(g, "plain_a", "plain_b", die=1, player="imperials"), CombatRolled)
    assert rolled.result == "AR"
    events = g.when(c.TakeLoss(player="imperials", counter="ig-2"))
    fort = one(events, CounterEliminated)
    assert (fort.counter, fort.reason) == (
        "fort-1",
        "its stack was forced to retreat (rules: Special Units)",
    )
    assert g.state.counters["fort-1"].location != "plain_b"


def test_ar_costs_a_counter_per_stack_and_the_survivors_retreat() -> None:
    g = ar_with_boyz_2_to_retreat()
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


def test_a_retreat_completes_once_its_last_counter_has_gone_and_the_combat_then_ends() -> None:
    # given an AR: the Orks took mob-1 as their loss and boyz-2 alone is left to retreat
    g = ar_with_boyz_2_to_retreat()
    # when boyz-2 retreats to jungle_c
    events = g.when(c.Retreat(player="orks", counter="boyz-2", to="jungle_c"))
    # then the attacker's retreat from plain_b is complete, before the combat ends (BFA-16)
    assert tags(events) == ["counter_retreated", "retreat_completed", "combat_ended"]
    completed = one(events, RetreatCompleted)
    assert completed == RetreatCompleted(side="attacker", area="plain_b")
    assert g.state.combat is None
    assert completed.explain() == (
        f"the attacker's retreat from plain_b is complete ({RETREATING}; BFA-16)"
    )


def ex_in_plain_a() -> Given:
    """Two Boyz in plain_b attack ig-1 and riders-1 in plain_a: 6 vs 4 → 1:1, a 4 → EX."""
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("ig-1", "plain_a"),
        at("riders-1", "plain_a"),
    )
    attack(g, "plain_a", "plain_b", die=4)
    return g


def test_ex_costs_both_sides_a_counter_and_the_defenders_retreat() -> None:
    g = ex_in_plain_a()
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


def test_the_attacker_may_advance_once_leaders_attacked_on_their_own_are_killed() -> None:
    """Given Ghazghkull alone in ash_b, when ig-1 (Move 2) attacks him from plain_b, then he is
    killed without a roll and the Imperials may advance ig-1 into ash_b (rules: Special Units,
    "killed ... if they are attacked on their own"; BFA-15: the attacker may advance)."""
    g = imperials_attack(at("ig-1", "plain_b"), at("ghazghkull", "ash_b"))
    g.when(c.Attack(player="imperials", target="ash_b", stacks=["plain_b"]), dice=[])
    assert g.state.counters["ghazghkull"].location == "removed"
    assert RULESET.legal_commands(g.state, "imperials") == [
        c.Advance(player="imperials", counters=[]),
        c.Advance(player="imperials", counters=["ig-1"]),
    ]
    events = g.when(c.Advance(player="imperials", counters=["ig-1"]))
    assert one(events, Advanced).to == "ash_b"
    assert g.state.counters["ig-1"].location == "ash_b"


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
    assert of(events, LossTaken)[1].explain() == (
        "defender in hive_b: no counter that counts for stacking to lose (rules: Combat Results "
        "Table; BFA-5)"
    )
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
    g = retreated_into_river_a(at("ig-2", "river_a"))
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


def test_a_hive_forced_to_retreat_flips_to_smoking_ruins_and_the_track_drops() -> None:
    g = orks_attack(at("boyz-2", "plain_b"), at("boyz-3", "plain_b"), at("boyz-4", "plain_b"))
    events = attack(g, "hive_b", "plain_b", die=5)  # 9 vs hive 4 → 2:1, 5 → DR
    ruined = one(events, SiteRuined)
    assert (ruined.site, ruined.track) == ("hive_b", 16)
    assert "drops by 4 to 16" in ruined.explain()
    assert g.state.sites["hive_b"].ruined
    g.when(c.Advance(player="orks", counters=["boyz-2"]))
    assert g.state.counters["boyz-2"].location == "hive_b"


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


def test_a_leader_whose_only_companion_is_his_hive_loses_nothing_to_a_dr() -> None:
    """Given Yarrick alone on intact hive_b, when two Boyz attack (6 vs 2 + 4 = 6 → 1:1) and roll
    6 (DR), then no counter can be taken and nothing is lost: the hive stands with him, so not
    "all the counters with him are eliminated" (rules: Special Units; BFA-5), and his stack
    ignores the retreat."""
    g = orks_attack(at("boyz-2", "plain_b"), at("boyz-3", "plain_b"), at("yarrick", "hive_b"))
    events = attack(g, "hive_b", "plain_b", die=6)
    assert one(events, CombatRolled).result == "DR"
    loss = one(events, LossTaken)
    assert (loss.side, loss.counter, loss.outcome) == ("defender", "", "none")
    assert not of(events, CounterEliminated)
    assert one(events, RetreatIgnored).leader == "yarrick"
    assert g.state.counters["yarrick"].location == "hive_b"


def ghazghkull_s_boyz_won_a_de() -> Given:
    """Ghazghkull and two Boyz in plain_b beat ig-1 out of plain_a (9 vs 3 → 3:1, a 6 → DE) and
    keep the result: the advance is theirs to choose."""
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("ghazghkull", "plain_b"),
        at("ig-1", "plain_a"),
    )
    attack(g, "plain_a", "plain_b", die=6)
    g.when(c.KeepResult(player="orks"))
    return g


def test_a_leader_left_behind_by_an_advance_lives_on() -> None:
    g = ghazghkull_s_boyz_won_a_de()
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


def test_the_advance_is_offered_with_and_without_the_leader() -> None:
    """Given Ghazghkull and two Boyz who won a DE from plain_b, when legal lists the advances,
    then each group of Boyz is offered alone and with Ghazghkull, staying put first."""
    g = ghazghkull_s_boyz_won_a_de()
    assert [x.counters for x in RULESET.legal_commands(g.state, "orks")] == [
        [],
        ["ghazghkull"],
        ["boyz-2"],
        ["boyz-2", "ghazghkull"],
        ["boyz-3"],
        ["boyz-3", "ghazghkull"],
        ["boyz-2", "boyz-3"],
        ["boyz-2", "boyz-3", "ghazghkull"],
    ]


def test_a_refused_loss_or_retreat_names_every_choice_there_is() -> None:
    """Given an EX in plain_a, when a player names a loss or a retreat that is not on offer,
    then the refusal lists all the choices, so the player can pick one."""
    g = ex_in_plain_a()
    refused = g.when_rejected(c.TakeLoss(player="orks", counter="boyz-1"), code="rules/bad_choice")
    assert str(refused).endswith("choose one of boyz-2, boyz-3")
    g.when(c.TakeLoss(player="orks", counter="boyz-3"))
    g.when(c.TakeLoss(player="imperials", counter="riders-1"))
    refused = g.when_rejected(
        c.Retreat(player="imperials", counter="ig-1", to="plain_b"), code="rules/bad_choice"
    )
    assert str(refused).endswith("it may go to hive_a, river_a")


def test_a_leader_whose_stack_was_lost_attacking_from_his_hive_falls_when_it_must_retreat() -> None:
    """Given riders-1 and Dante attacking from intact hive_a (3 vs boyz-2 and boyz-3 → 1:2),
    when the roll is 1 (AR) and kept, then riders-1 is the loss (the hive keeps Dante company),
    but the retreat leaves him no counter to go with: he is killed, and hive_a stays intact
    (rules: Special Units; BFA-15)."""
    g = imperials_attack(
        at("riders-1", "hive_a"),
        at("dante", "hive_a"),
        at("boyz-2", "plain_a"),
        at("boyz-3", "plain_a"),
    )
    assert one(attack(g, "plain_a", "hive_a", die=1, player="imperials"), CombatRolled).result == (
        "AR"
    )
    events = g.when(c.KeepResult(player="imperials"))
    assert [(e.counter, e.reason) for e in of(events, CounterEliminated)] == [
        ("dante", "all the counters with him are gone (rules: Special Units)")
    ]
    assert one(events, LossTaken).counter == "riders-1"
    assert g.state.counters["dante"].location == "removed"
    assert not g.state.sites["hive_a"].ruined
