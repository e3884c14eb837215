"""Why each event happened: every step of a move, a combat, a draw and a card played names its
arithmetic and the rule (the rules sheet's section, our ruling id) a player looks it up by."""

from __future__ import annotations

import msgspec

from tests.domain.battle_for_armageddon.helpers import at, game, in_phase, proving_ground
from tests.domain.battle_for_armageddon.test_specials import drawn
from tests.given_when_then import of, one
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.build_events import CounterPlaced
from warlog.domain.battle_for_armageddon.combat_events import (
    AttackDeclared,
    CombatEnded,
    CombatRolled,
    CounterRetreated,
    ResultStood,
    SiteRuined,
    StackEliminated,
)
from warlog.domain.battle_for_armageddon.movement_events import (
    ChapterReduced,
    CounterEliminated,
    CounterMoved,
)
from warlog.domain.battle_for_armageddon.special_card_events import (
    SpecialCardDrawn,
    SpecialCardPlayed,
)
from warlog.domain.battle_for_armageddon.turn_events import (
    CounterDeployed,
    InitiativeDecided,
    ReinforcementsArrived,
    TurnBegan,
)


def test_a_move_explains_how_many_areas_it_went_and_the_movement_rule() -> None:
    g = game(*in_phase("imperials", "movement"), at("ig-1", "hive_a"))
    moved = one(g.when(c.Move(player="imperials", counter="ig-1", to="plain_b")), CounterMoved)
    text = moved.explain()
    assert text.startswith(f"ig-1 moves 2 areas, {' → '.join(moved.path)}: at most its Move")
    assert "at most its Move (plus a Forced March card's bonus, BFA-11)" in text
    assert text.endswith(
        "ash waste and jungle stop a move (rules: Movement Phase; rules: Terrain Effects)"
    )


#: Ork boyz in plain_b and river_a, both beside plain_a, where a Marine Chapter stands alone
CHAPTER_UNDER_ATTACK = (
    *in_phase("orks", "combat"),
    at("boyz-2", "plain_b"),
    at("boyz-3", "plain_b"),
    at("boyz-4", "plain_b"),
    at("boyz-1", "river_a"),
    at("blood_angels", "plain_a"),
)


def test_a_combat_result_explains_its_steps_in_the_order_they_apply() -> None:
    g = game(*CHAPTER_UNDER_ATTACK)
    # 12 vs 4 → 3:1, a 6 → DE
    events = g.when(
        c.Attack(player="orks", target="plain_a", stacks=["plain_b", "river_a"]), dice=[6]
    )
    assert one(events, ResultStood).explain() == (
        "DE (Defender Eliminated) stands: the defender in plain_a is eliminated; the defender in "
        "plain_a retreats; the attacker may advance into plain_a (rules: Combat Results Table; "
        "BFA-4: losses, then retreats, then the advance)"
    )
    assert one(events, ChapterReduced).explain() == (
        "blood_angels in plain_a: defender eliminated (Combat Results Table) → it flips to its "
        "detachment side (rules: Special Units: Marine Chapters)"
    )
    assert (
        one(events, CounterRetreated)
        .explain()
        .startswith("blood_angels retreats one area, plain_a → hive_a, within stacking and terrain")
    )


def test_a_drawn_card_names_the_die_that_picked_it_among_the_cards_left() -> None:
    g = game()
    events = g.when(c.EndSetup(player="orks"), dice=[3, 1, 2])
    drawn = of(events, SpecialCardDrawn)
    assert drawn[0].explain() == (
        "the imperials draw barrage-1 (d3 3: card 3 of the 3 left; rules: Sequence of Play; BFA-10)"
    )
    assert "(the last card of the deck, no roll;" in drawn[3].explain()


def test_a_special_card_played_says_what_it_does_and_the_one_card_a_segment_rule() -> None:
    g = game(*in_phase("orks", "combat"), SpecialCardDrawn(player="orks", card="waaagh-1"))
    played = one(g.when(c.PlaySpecial(player="orks", card="waaagh-1")), SpecialCardPlayed)
    assert played.explain() == (
        "the orks play Waaagh! (waaagh-1): +1 to the player's CRT rolls for the rest of this "
        "combat phase; one Special Card per action segment (rules: Sequence of Play; BFA-11)"
    )


def test_an_initiative_roll_explains_the_dice_and_a_tie_cites_its_ruling_once() -> None:
    g = game(*in_phase("orks", "build", turn=1))
    g.events(TurnBegan(turn=2))
    chosen = [
        c.ChooseStrategy(player="imperials", cards=["movement-combat", "combat-build"]),
        c.ChooseStrategy(player="orks", cards=["movement-combat", "combat-build"]),
    ]
    g.when(chosen[0])
    decided = one(g.when(chosen[1], dice=[4, 4, 1, 1]), InitiativeDecided)
    text = decided.explain()
    assert text.startswith("turn 2: Imperial d6 4 against Ork d6 4 → the ")
    assert text.count("BFA-1") == 1 and "tie: to the side without the initiative" in text


def test_an_attackers_elimination_and_retreat_explain_the_attackers_rules() -> None:
    g = game(*in_phase("orks", "combat"), at("mob-1", "plain_b"), at("ig-1", "plain_a"))
    g.events(at("ig-2", "plain_a"))
    # 2 vs 6 → 1:3, a 1 → AE
    events = g.when(c.Attack(player="orks", target="plain_a", stacks=["plain_b"]), dice=[1])
    eliminated = one(events, StackEliminated).explain()
    assert eliminated.startswith("the attacker's stack in plain_b is eliminated")
    assert "BFA-20" not in eliminated  # the already-retreated share only a defender's fate
    assert "its leaders die only if nothing else of their side is left in the area" in eliminated

    routed = game(
        *in_phase("orks", "combat"),
        at("boyz-2", "plain_b"),
        at("mob-1", "plain_b"),
        at("ig-1", "plain_a"),
        at("ig-2", "plain_a"),
    )
    # 5 vs 6 → 1:2, a 2 → AR: a loss, then the attacker's retreat
    routed.when(c.Attack(player="orks", target="plain_a", stacks=["plain_b"]), dice=[2])
    routed.when(c.TakeLoss(player="orks", counter="mob-1"))
    events = routed.when(c.Retreat(player="orks", counter="boyz-2", to="jungle_c"))
    assert (
        one(events, CounterRetreated)
        .explain()
        .startswith(
            "boyz-2 retreats one area, plain_b → jungle_c, within stacking and terrain; it takes no "
            "further part in this combat phase: it joins no attack (BFA-8)"
        )
    )


def test_a_combat_s_summary_names_the_attacker_s_retreat_and_only_what_it_did() -> None:
    # given an Ork attack that will be routed (version 3 on)
    setup = (
        *in_phase("orks", "combat"),
        at("boyz-2", "plain_b"),
        at("mob-1", "plain_b"),
        at("ig-1", "plain_a"),
        at("ig-2", "plain_a"),
    )
    g = game(*setup)
    # 5 vs 6 → 1:2, a 2 → AR: a loss from the attacking stack, then its retreat
    g.when(c.Attack(player="orks", target="plain_a", stacks=["plain_b"]), dice=[2])
    g.when(c.TakeLoss(player="orks", counter="mob-1"))
    events = g.when(c.Retreat(player="orks", counter="boyz-2", to="jungle_c"))
    assert one(events, CombatEnded).summary == (
        "orks attacked plain_a from plain_b at 1:2: AR; orks lost mob-1; retreated: boyz-2"
    )
    # under version 2 (its games play on under it) the attacker's retreat went unsaid
    old = game(*setup)
    old.state = msgspec.structs.replace(old.state, rules_version=2)
    old.when(c.Attack(player="orks", target="plain_a", stacks=["plain_b"]), dice=[2])
    old.when(c.TakeLoss(player="orks", counter="mob-1"))
    events = old.when(c.Retreat(player="orks", counter="boyz-2", to="jungle_c"))
    assert (
        one(events, CombatEnded).summary
        == "orks attacked plain_a from plain_b at 1:2: AR; orks lost mob-1"
    )


def test_a_chapter_reduced_before_the_combat_is_not_said_to_be_reduced_by_it() -> None:
    for version, said in ((3, ""), (2, "; reduced to detachments: blood_angels")):
        g = game(*CHAPTER_UNDER_ATTACK)
        g.events(ChapterReduced(counter="blood_angels", area="plain_a", reason="an earlier loss"))
        g.state = msgspec.structs.replace(g.state, rules_version=version)
        # at 6:1 a 6 → DE: the detachment, hit again, is removed for good
        g.when(c.Attack(player="orks", target="plain_a", stacks=["plain_b", "river_a"]), dice=[6])
        events = g.when(c.Advance(player="orks", counters=[]))
        assert one(events, CombatEnded).summary == (
            f"orks attacked plain_a from plain_b, river_a at 6:1: DE; imperials lost blood_angels{said}"
        )


# -- the rule a referee looks up for each number of a combat (the referee's findings) -------------


def test_a_fortified_defence_names_its_fortifications_and_cites_the_doubling_rule() -> None:
    # given ig-1 with two fortifications in hive_b (any number stack since version 5)
    g = game(
        *in_phase("orks", "combat"),
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-4", "plain_b"),
        at("ig-1", "hive_b"),
        at("fort-1", "hive_b"),
        at("fort-2", "hive_b"),
    )
    # when 3 Boyz attack it
    events = g.when(c.Attack(player="orks", target="hive_b", stacks=["plain_b"]), dice=[6])
    # then the doubling names the fortifications, the sheet's Special Units and BFA-9
    assert one(events, AttackDeclared).explain() == (
        "attack boyz-2 3 + boyz-3 3 + boyz-4 3 = 9 vs defence 2×(ig-1 3 + hive_b 4 = 7) fortified "
        "= 14 (fort-1, fort-2: Fortifications double the defence of the counters they are stacked "
        "with, rules: Special Units; BFA-9: once, however many stand there) → 1:2 (rules: Combat "
        "Phase; BFA-24: odds rounded in the defender's favour)"
    )


def test_odds_beyond_the_last_column_say_they_were_capped() -> None:
    g = game(
        *in_phase("orks", "combat"),
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-4", "plain_b"),
        at("riders-1", "plain_a"),
    )
    events = g.when(c.Attack(player="orks", target="plain_a", stacks=["plain_b"]), dice=[3])
    assert (
        one(events, AttackDeclared)
        .explain()
        .endswith(
            "= 9 vs defence riders-1 1 = 1 → 7:1 (9 ÷ 1, rounded down = 9:1, capped at the table's "
            "last column, 7:1; rules: Combat Phase; BFA-24: odds rounded in the defender's favour)"
        )
    )
    # and the roll on that column says so too, where a reader of the roll alone looks
    assert (
        one(events, CombatRolled)
        .explain()
        .startswith(
            "attack 9 vs defence 1 → 7:1 (9 ÷ 1, rounded down = 9:1, capped at the table's last "
            "column, 7:1; BFA-24); d6 3"
        )
    )


def test_odds_beyond_the_first_column_say_they_were_held_at_it() -> None:
    g = game(
        *in_phase("orks", "combat"),
        at("boyz-2", "plain_b"),
        at("ig-1", "hive_b"),
        at("fort-1", "hive_b"),
    )
    events = g.when(c.Attack(player="orks", target="hive_b", stacks=["plain_b"]), dice=[3])
    assert (
        one(events, AttackDeclared)
        .explain()
        .endswith(
            "→ 1:4 (14 ÷ 3, rounded up = 1:5, held at the table's first column, 1:4; rules: Combat "
            "Phase; BFA-24: odds rounded in the defender's favour)"
        )
    )


def test_odds_at_the_table_s_edge_columns_are_read_as_they_are() -> None:
    """Given attacks whose odds land exactly on the last column (7:1) and the first (1:4),
    when they are explained, then the column is given with the common rules only: nothing was
    capped or held."""
    for attack, defence, column in ((7, 1, "7:1"), (1, 4, "1:4")):
        declared = AttackDeclared(
            player="orks",
            target="plain_a",
            stacks=["plain_b"],
            attackers={"boyz-2": "plain_b"},
            defenders=["riders-1"],
            passive=[],
            attack_total=attack,
            defence_base=defence,
            defence_total=defence,
            fortified=False,
            column=column,
            attack_parts=[f"boyz-2 {attack}"],
            defence_parts=[f"riders-1 {defence}"],
        )
        assert declared.explain() == (
            f"attack boyz-2 {attack} = {attack} vs defence riders-1 {defence} = {defence} → "
            f"{column} (rules: Combat Phase; BFA-24: odds rounded in the defender's favour)"
        )


def test_a_defence_of_0_left_by_counters_that_already_retreated_cites_its_rulings() -> None:
    # given ig-1 beaten back from plain_a into the empty river_a this combat phase
    g = game(
        *in_phase("orks", "combat"),
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-1", "ork_a"),
        at("ghazghkull", "ork_b"),
        at("ig-1", "plain_a"),
    )
    g.when(c.Attack(player="orks", target="plain_a", stacks=["plain_b"]), dice=[6])  # 6:1 → DW
    g.when(c.Retreat(player="imperials", counter="ig-1", to="river_a"))
    g.when(c.Advance(player="orks", counters=[]))
    # when river_a is attacked, ig-1 does not count: the defence is 0
    events = g.when(c.Attack(player="orks", target="river_a", stacks=["ork_a"]), dice=[6])
    # then the line cites the sheet's Retreating section, BFA-20 and BFA-3
    assert one(events, AttackDeclared).explain() == (
        "attack boyz-1 3 = 3 vs defence 0 = 0; already retreated, not counted: ig-1 (they do not "
        "defend, rules: Retreating; they share the defending stack's fate, BFA-20) → 7:1 (a "
        "defence of 0 reads 7:1, BFA-3; rules: Combat Phase; BFA-24: odds rounded in the "
        "defender's favour)"
    )


def rerolled_by_the_orks(version: str = "") -> CombatRolled:
    """Ghazghkull and Boyz attack Dante's Blood Angels (6 vs 6 → 1:1, a 6 → DR), and the Orks
    reroll a 4 → EX: the reroll's ``combat_rolled``."""
    g = game(
        *in_phase("orks", "combat"),
        at("boyz-2", "plain_b"),
        at("ghazghkull", "plain_b"),
        at("blood_angels", "plain_a"),
        at("dante", "plain_a"),
        version=version,
    )
    g.when(c.Attack(player="orks", target="plain_a", stacks=["plain_b"]), dice=[6])
    return one(g.when(c.Reroll(player="orks"), dice=[4]), CombatRolled)


def test_a_reroll_names_the_leader_who_made_it_and_the_rule_that_the_new_result_stands() -> None:
    """Given the Orks reroll with Ghazghkull in the attack (version 6), when a referee reads the
    reroll, then it names Ghazghkull by his printed name and id, the leader whose ability let
    the side reroll, not the rule's two leaders of the published game."""
    assert rerolled_by_the_orks().explain() == (
        "attack 6 vs defence 6 → 1:1; d6 4 = 4 → EX (Exchange; rules: Combat Results Table; "
        "BFA-25); a reroll by Warlord Ghazghkull Thraka (ghazghkull), the orks' leader in the "
        "combat: a leader able to reroll lets his side reroll the CRT die for a combat he is in "
        "(rules: Special Units; BFA-14: one reroll per combat, the new result stands)"
    )


def test_version_5_explains_a_reroll_as_it_did_without_naming_the_leader() -> None:
    """Given a game begun under version 5, when the Orks reroll, then the explanation is the one
    that version gave, word for word: its event names no leader to explain."""
    rolled = rerolled_by_the_orks(version="5")
    assert rolled.leader is msgspec.UNSET
    assert rolled.explain() == (
        "attack 6 vs defence 6 → 1:1; d6 4 = 4 → EX (Exchange; rules: Combat Results Table; "
        "BFA-25); a reroll by the orks' leader: Ghazghkull may reroll a result on the CRT for his "
        "stack, Dante for any stack he is in (rules: Special Units; BFA-14: one reroll per "
        "combat, the new result stands)"
    )


def test_a_special_cards_die_modifier_cites_the_rule_for_playing_it() -> None:
    g = game(
        *in_phase("orks", "combat"),
        SpecialCardDrawn(player="orks", card="waaagh-1"),
        at("boyz-2", "plain_b"),
        at("ig-1", "plain_a"),
    )
    g.when(c.PlaySpecial(player="orks", card="waaagh-1"))
    events = g.when(c.Attack(player="orks", target="plain_a", stacks=["plain_b"]), dice=[2])
    assert one(events, CombatRolled).explain() == (
        "attack 3 vs defence 3 → 1:1; d6 2 +1 (a special card played this combat phase, BFA-11) "
        "= 3 → AS (Attacker Stopped; rules: Combat Results Table; BFA-25)"
    )


def test_a_hive_ruined_by_a_retreat_cites_the_special_units_rule_that_ruins_it() -> None:
    g = game(
        *in_phase("orks", "combat"),
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-4", "plain_b"),
    )
    # 9 vs the hive's 4 → 2:1, a 5 → DR: the hive alone is forced to retreat
    events = g.when(c.Attack(player="orks", target="hive_b", stacks=["plain_b"]), dice=[5])
    assert one(events, SiteRuined).explain() == (
        "hive_b is destroyed and flipped to smoking ruins: the defenders of its area were forced "
        "to retreat or eliminated (rules: Special Units: Hives and Factories are destroyed and "
        "flipped to Smoking Ruins if forced to retreat); the build track drops by 4 to 16, the "
        "site's defence (rules: Build Phase, Imperial)"
    )


def test_leaders_attacked_on_their_own_are_explained_as_killed_without_a_roll() -> None:
    g = game(*in_phase("imperials", "combat"), at("ig-1", "plain_b"), at("ghazghkull", "ash_b"))
    events = g.when(c.Attack(player="imperials", target="ash_b", stacks=["plain_b"]), dice=[])
    assert one(events, AttackDeclared).explain() == (
        "ash_b: leaders attacked on their own are killed (rules: Special Units)"
    )
    assert one(events, ResultStood).explain() == (
        "leaders attacked on their own are killed without a roll: the defender in ash_b is "
        "eliminated; the attacker may advance into ash_b (rules: Special Units; BFA-15)"
    )


def test_an_attack_of_0_cites_its_ruling_for_the_column() -> None:
    """Given a scenario whose Rough Riders attack 0, when riders-1 alone attacks boyz-2, then the
    odds are read 1:4 and the explanation cites BFA-3 (an attack total of 0 reads 1:4)."""
    ground = proving_ground()
    weak = [
        msgspec.structs.replace(t, attack=0) if t.id == "rough_riders" else t
        for t in ground.counter_types
    ]
    g = game(
        *in_phase("imperials", "combat"),
        at("riders-1", "plain_b"),
        at("boyz-2", "plain_a"),
        scenario=msgspec.structs.replace(ground, counter_types=weak),
    )
    events = g.when(c.Attack(player="imperials", target="plain_a", stacks=["plain_b"]), dice=[3])
    assert one(events, AttackDeclared).explain() == (
        "attack riders-1 0 = 0 vs defence boyz-2 2 = 2 → 1:4 (an attack of 0 reads 1:4, BFA-3; "
        "rules: Combat Phase; BFA-24: odds rounded in the defender's favour)"
    )


def test_a_drop_pod_landing_explains_that_the_counter_counts_as_moved() -> None:
    g = game(*in_phase("imperials", "movement"), *drawn("imperials", "drop-pod-1"))
    g.events(ReinforcementsArrived(turn=3, counters=["blood_angels", "dante"]))
    pod = c.PlaySpecial(
        player="imperials", card="drop-pod-1", area="jungle_c", counter="blood_angels"
    )
    assert one(g.when(pod), CounterPlaced).explain() == (
        "blood_angels lands in jungle_c (Imperial Drop Pod): any area open to it, within "
        "stacking; it counts as moved (BFA-22)"
    )


def test_an_ork_redeployment_cites_the_set_up_rule() -> None:
    deployed = one(
        game().when(c.Deploy(player="orks", counter="boyz-1", to="ork_c")), CounterDeployed
    )
    assert deployed.explain() == (
        "boyz-1 is set up in ork_c: the Ork player sets up in Ork Territory, within stacking "
        "(rules: Setup; BFA-18)"
    )


def test_an_eliminated_counter_says_in_the_sheet_s_words_where_it_goes() -> None:
    # given ig-1 alone in plain_a, and a Marine detachment (a chapter already reduced) there
    pooled = game(*CHAPTER_UNDER_ATTACK[:-1], at("ig-1", "plain_a"))
    gone = game(*CHAPTER_UNDER_ATTACK)
    gone.events(ChapterReduced(counter="blood_angels", area="plain_a", reason="an earlier loss"))
    # when each is eliminated by a DE (at 6:1 or more a 6)
    attack = c.Attack(player="orks", target="plain_a", stacks=["plain_b", "river_a"])
    ig = one(pooled.when(attack, dice=[6]), CounterEliminated)
    marines = one(gone.when(attack, dice=[6]), CounterEliminated)
    # then ig-1 is destroyed, to be rebuilt in a build phase, the rules sheet's sections named
    assert ig.explain() == (
        "ig-1 in plain_a: defender eliminated (Combat Results Table) → pool: destroyed, off the "
        "map; the build phase may rebuild it if the build table lists it (rules: Build Phase, "
        "Imperial; rules: Build Phase, Ork)"
    )
    # and the detachment leaves play for good
    assert marines.explain() == (
        "blood_angels in plain_a: defender eliminated (Combat Results Table) → removed: out of "
        "play for good, never rebuilt (leaders, detachments and counters the build table does "
        "not list; rules: Build Phase, Imperial: counters not listed cannot be rebuilt)"
    )
