"""Single Combat (3 & 5 on the sheet): the challenge and its refusal, dice = level + traits +
Mighty Deeds, 5–6 to hit (4–6 Brutal), 1s re-rolled in the first round, Legendary Weapon hits
counting double, the kill at the loser's armour, rounds won and drawn, the third round."""

from __future__ import annotations

from tests.domain.heroic_battles.helpers import (
    engaged,
    gained,
    game,
    lost,
    phase,
    pool_of,
    rolling,
    with_hero_trait,
)
from tests.given_when_then import Given, of, one, tags
from warlog.domain.core.events import Event
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.pieces import combat_of
from warlog.domain.heroic_battles.state import DuelFrame
from warlog.domain.heroic_battles.tables import SINGLE_COMBAT


def melee_phase(*setup: Event) -> Given:
    """Red's melee phase begins: red may issue a challenge."""
    return game(*setup, *phase("melee", "red"))


def challenged(hero: str, opponent: str, *setup: Event) -> Given:
    g = melee_phase(*setup)
    g.when(c.Challenge(player="red", hero=hero, opponent=opponent), dice=[])
    return g


def dice_rolled(events: list[Event]) -> list[ev.SingleCombatDiceRolled]:
    return of(events, ev.SingleCombatDiceRolled)


# champion (red, level 1, Brutal, armour 3, stamina 1) against Proud (blue, level 2, Battle Smiter,
# armour 3, stamina 2), in the melee of the champion and the blue horde
CHAMPION_VS_PROUD = engaged("red-champion", "blue-horde")


def accepted_champion_vs_proud() -> Given:
    g = challenged("red-champion", "blue-proud", *CHAMPION_VS_PROUD)
    g.when(c.AcceptChallenge(player="blue", hero="blue-proud"), dice=[])
    g.when(c.SpendDeeds(player="red", hero="red-champion", deeds=0), dice=[])
    return g


# -- the challenge ------------------------------------------------------------------------------------


def test_the_phasing_force_may_challenge_an_enemy_hero_in_the_same_melee() -> None:
    g = melee_phase(*CHAMPION_VS_PROUD, *engaged("red-warriors", "blue-warriors", combat="melee-2"))
    decision = g.ruleset.decision(g.state)
    assert (decision.kind, decision.answers) == ("challenge", ("challenge", "no_challenge"))
    g.when_rejected(
        c.Challenge(player="red", hero="red-champion", opponent="blue-king"),
        code="rules/bad_challenge",
    )
    g.when_rejected(
        c.Challenge(player="red", hero="red-lord", opponent="blue-proud"),
        code="rules/bad_challenge",
    )
    refused = g.when_rejected(
        c.Challenge(player="red", hero="blue-proud", opponent="red-champion"),
        code="rules/not_your_unit",
    )
    assert str(refused) == "blue-proud belongs to blue: red cannot challenge with it"
    events = g.when(c.Challenge(player="red", hero="red-lord", opponent="blue-king"), dice=[])
    assert one(events, ev.ChallengeIssued).challenged == "blue-king"


def test_a_hero_refusing_a_challenge_costs_a_token_and_sits_out_the_phases_melees() -> None:
    g = challenged("red-lord", "blue-king", *engaged("red-warriors", "blue-warriors"))
    events = g.when(c.RefuseChallenge(player="blue", hero="blue-king"), dice=[])
    assert lost(events, "blue") == [(1, "a hero refuses a challenge to single combat")]
    assert g.state.heroes["blue-king"].refused
    g.when(c.DeclareMelee(player="red", combat="melee-1"), dice=[])
    events = g.when(c.DeclareMelee(player="blue", combat="melee-1"), dice=[3] * 27)
    assert "blue-king" not in [e.pool.owner for e in of(events, ev.CombatDiceRolled)]


def test_a_refused_challenge_ends_the_single_combat_before_it_begins_and_the_melee_follows() -> (
    None
):
    # given red's lord challenging blue's king in their melee
    g = challenged("red-lord", "blue-king", *engaged("red-warriors", "blue-warriors"))
    # when blue refuses
    events = g.when(c.RefuseChallenge(player="blue", hero="blue-king"), dice=[])
    # then the refusal names the king, no single combat is left to fight, and the melee begins
    assert events[0] == ev.ChallengeRefused(hero="blue-king")
    assert tags(events) == ["challenge_refused", "reputation_lost", "melee_began"]
    assert not any(isinstance(f, DuelFrame) for f in g.state.frames)
    assert g.state.heroes["blue-king"].refused
    assert events[0].explain() == (
        "blue-king refuses the challenge and adds no dice to this phase's melees (HB-17)"
    )


def test_a_non_combatant_refuses_without_loss_and_a_proud_hero_never_refuses() -> None:
    g = challenged("red-champion", "blue-priest", *engaged("red-champion", "blue-priest"))
    assert lost(g.when(c.RefuseChallenge(player="blue", hero="blue-priest"), dice=[]), "blue") == []
    g = challenged("red-champion", "blue-proud", *CHAMPION_VS_PROUD)
    assert g.ruleset.legal_commands(g.state, "blue") == [
        c.AcceptChallenge(player="blue", hero="blue-proud")
    ]
    g.when_rejected(c.RefuseChallenge(player="blue", hero="blue-proud"), code="rules/proud")


def test_the_lower_level_hero_gains_a_token_for_taking_on_a_higher_level_one() -> None:
    g = challenged("red-champion", "blue-proud", *CHAMPION_VS_PROUD)
    events = g.when(c.AcceptChallenge(player="blue", hero="blue-proud"), dice=[])
    assert gained(events, "red") == ["a hero takes on a higher-level hero in single combat"]
    assert gained(events, "blue") == []


# -- the dice --------------------------------------------------------------------------------------------


def test_dice_are_level_plus_traits_plus_mighty_deeds() -> None:
    g = accepted_champion_vs_proud()
    events = g.when(c.SpendDeeds(player="blue", hero="blue-proud", deeds=2), dice=[3] + [3] * 5)
    pools = {e.pool.owner: e.pool for e in dice_rolled(events)}
    assert pools["red-champion"].build() == "1 Level dice of red-champion"
    assert pools["blue-proud"].build() == (
        "2 Level dice of blue-proud; +1D6 Battle Smiter → 3; +2D6 Mighty Deeds → 5"
    )
    assert g.state.heroes["blue-proud"].deeds == 0


def test_a_big_hero_adds_a_die_in_single_combat() -> None:
    """Given the Red Lord made Big, when he fights the Blue King in single combat, then his dice
    are his level and 1D6 for Big (Single Combat: "Level plus Traits")."""
    g = game(
        *engaged("red-warriors", "blue-warriors"),
        *phase("melee", "red"),
        scenario=with_hero_trait("red-lord", "big"),
    )
    g.when(c.Challenge(player="red", hero="red-lord", opponent="blue-king"), dice=[])
    g.when(c.AcceptChallenge(player="blue", hero="blue-king"), dice=[])
    g.when(c.SpendDeeds(player="red", hero="red-lord", deeds=0), dice=[])
    events = rolling(g, c.SpendDeeds(player="blue", hero="blue-king", deeds=0))
    assert pool_of(events, "red-lord").build() == "3 Level dice of red-lord; +1D6 Big → 4"


def test_mighty_deeds_committed_to_a_round_are_spent_when_its_dice_are_rolled() -> None:
    # given red's lord (3 Mighty Deeds) and blue's king in single combat, the lord asked first
    g = challenged("red-lord", "blue-king", *engaged("red-warriors", "blue-warriors"))
    accepted = g.when(c.AcceptChallenge(player="blue", hero="blue-king"), dice=[])
    assert one(accepted, ev.ChallengeAccepted).explain() == (
        "blue-king accepts the challenge: the single combat is fought before any melee (HB-31)"
    )
    assert g.state.heroes["red-lord"].deeds == 3
    # when red commits 1 of them to round 1
    events = g.when(c.SpendDeeds(player="red", hero="red-lord", deeds=1), dice=[])
    # then the commitment is recorded for the round, nothing is rolled yet, and blue is asked
    assert events == [ev.DeedsCommitted(hero="red-lord", deeds=1)]
    frame = g.state.frames[-1]
    assert isinstance(frame, DuelFrame) and (frame.round, frame.deeds) == (1, {"red-lord": 1})
    assert g.state.heroes["red-lord"].deeds == 3
    assert g.ruleset.decision(g.state).about == {"hero": "blue-king", "round": "1"}
    assert events[0].explain() == f"red-lord commits 1 Mighty Deed to this round ({SINGLE_COMBAT})"
    # and once blue has committed too, the round's dice add 1D6 for it and the deed is spent
    events = rolling(g, c.SpendDeeds(player="blue", hero="blue-king", deeds=0))
    assert pool_of(events, "red-lord").build() == "3 Level dice of red-lord; +1D6 Mighty Deed → 4"
    assert g.state.heroes["red-lord"].deeds == 2
    assert dice_rolled(events)[0].explain() == (
        "single combat round 1: 3 Level dice of red-lord; +1D6 Mighty Deed → 4; hits on 5–6: "
        "[3, 3, 3, 3] → 0 × 2 (Legendary Weapon, HB-12) → 0 hits (Single Combat)"
    )
    assert one(events, ev.SingleCombatRound).explain() == (
        "single combat round 1: hits red-lord 0, blue-king 0: a draw: both fight again "
        "(Single Combat)"
    )


def test_the_challenger_commits_its_mighty_deeds_first() -> None:
    """Given the Red Lord's challenge accepted by the Blue King, when red commits deeds for the
    king before the lord has committed his, then it is refused: the challenger commits first."""
    g = challenged("red-lord", "blue-king", *engaged("red-warriors", "blue-warriors"))
    g.when(c.AcceptChallenge(player="blue", hero="blue-king"), dice=[])
    refused = g.when_rejected(
        c.SpendDeeds(player="red", hero="blue-king", deeds=0), code="rules/bad_choice"
    )
    assert str(refused) == "red-lord commits its Mighty Deeds first"


def test_heroes_count_as_charging_in_the_first_round_and_re_roll_their_1s() -> None:
    g = accepted_champion_vs_proud()
    events = g.when(c.SpendDeeds(player="blue", hero="blue-proud", deeds=0), dice=[1, 3, 3, 1])
    assert one(events, ev.DiceAwaited).roller == "red"
    events = g.when(c.Roll(player="red"), dice=[4])  # Brutal: a hit
    assert one(events, ev.OnesRerolled).hits == 1
    awaited = one(events, ev.DiceAwaited)  # the Proud hero's 1 now
    assert (awaited.roller, awaited.dice) == ("blue", 1)


def test_5_or_6_hits_and_4_for_a_brutal_hero() -> None:
    g = accepted_champion_vs_proud()
    events = g.when(c.SpendDeeds(player="blue", hero="blue-proud", deeds=0), dice=[4, 4, 5, 6])
    hits = {e.pool.owner: e.pool.hits for e in dice_rolled(events)}
    assert hits == {"red-champion": 1, "blue-proud": 2}


def test_legendary_weapon_hits_count_double_in_single_combat() -> None:
    g = challenged("red-lord", "blue-king", *engaged("red-warriors", "blue-warriors"))
    g.when(c.AcceptChallenge(player="blue", hero="blue-king"), dice=[])
    g.when(c.SpendDeeds(player="red", hero="red-lord", deeds=0), dice=[])
    events = g.when(c.SpendDeeds(player="blue", hero="blue-king", deeds=0), dice=[6, 3, 3, 5, 3])
    pool = pool_of(events, "red-lord")
    assert pool.hits == 2 and "→ 1 × 2 (Legendary Weapon, HB-12)" in pool.explain()
    assert one(events, ev.SingleCombatRound).hits == {"red-lord": 2, "blue-king": 1}


def test_a_legendary_weapons_1_re_rolled_into_a_hit_counts_double_too() -> None:
    """Single Combat: heroes count as charging in the first round (re-roll 1s) and Legendary
    Weapon hits inflict 2 hits (HB-12). Given the Red Lord's 1 in round 1 against the Blue
    King's misses, when it is re-rolled into a 6, then the lord scores 2 hits, not 1."""
    g = challenged("red-lord", "blue-king", *engaged("red-warriors", "blue-warriors"))
    g.when(c.AcceptChallenge(player="blue", hero="blue-king"), dice=[])
    g.when(c.SpendDeeds(player="red", hero="red-lord", deeds=0), dice=[])
    g.when(c.SpendDeeds(player="blue", hero="blue-king", deeds=0), dice=[1, 3, 3, 3, 3])
    events = g.when(c.Roll(player="red"), dice=[6])
    assert one(events, ev.OnesRerolled).hits == 2
    assert one(events, ev.SingleCombatRound).hits == {"red-lord": 2, "blue-king": 0}


# -- the results -------------------------------------------------------------------------------------------


def test_a_difference_of_hits_equal_to_the_losers_armour_kills_it_outright() -> None:
    g = accepted_champion_vs_proud()
    events = g.when(c.SpendDeeds(player="blue", hero="blue-proud", deeds=0), dice=[3, 5, 5, 6])
    result = one(events, ev.SingleCombatRound)
    assert (result.result, result.winner, result.loser, result.loser_armour) == (
        "kill",
        "blue-proud",
        "red-champion",
        3,
    )
    assert (
        "difference 3 ≥ red-champion's Armour 3: red-champion is killed outright"
        in result.explain()
    )
    assert gained(events, "blue") == [
        "a hero kills its opponent outright in single combat",
        "a Proud hero kills an enemy hero in single combat (p.74)",
    ]
    assert one(events, ev.HeroKilled).cause == "single_combat"
    assert one(events, ev.DiceAwaited).what == "Hero Death of red-champion"


def test_one_hit_short_of_the_armour_the_round_is_won_for_a_stamina_point_and_a_token() -> None:
    g = challenged("red-lord", "blue-proud", *engaged("red-warriors", "blue-horde"))
    g.when(c.AcceptChallenge(player="blue", hero="blue-proud"), dice=[])
    g.when(c.SpendDeeds(player="red", hero="red-lord", deeds=0), dice=[])
    events = g.when(
        c.SpendDeeds(player="blue", hero="blue-proud", deeds=0), dice=[5, 3, 3, 3, 3, 3]
    )
    result = one(events, ev.SingleCombatRound)
    assert (result.result, result.hits) == ("win", {"red-lord": 2, "blue-proud": 0})
    assert "difference 2 < blue-proud's Armour 3" in result.explain()
    assert gained(events, "red") == ["a hero wins a round of single combat"]
    assert one(events, ev.StaminaLost).unit == "blue-proud"
    assert g.state.heroes["blue-proud"].stamina == 1
    assert g.ruleset.decision(g.state).kind == "melee"  # the melee is fought next


def test_a_draw_in_the_first_two_rounds_gives_both_a_token_and_they_fight_again() -> None:
    g = accepted_champion_vs_proud()
    events = g.when(c.SpendDeeds(player="blue", hero="blue-proud", deeds=0), dice=[3, 3, 3, 3])
    assert one(events, ev.SingleCombatRound).result == "draw"
    assert gained(events, "red") == ["a hero draws a round of single combat"]
    assert gained(events, "blue") == ["a hero draws a round of single combat"]
    decision = g.ruleset.decision(g.state)
    assert (decision.kind, decision.about["round"]) == ("single_combat_deeds", "2")


def test_a_draw_in_the_third_round_costs_both_a_stamina_point_and_may_kill_both() -> None:
    g = challenged("red-champion", "blue-priest", *engaged("red-champion", "blue-priest"))
    g.when(c.AcceptChallenge(player="blue", hero="blue-priest"), dice=[])
    g.when(c.SpendDeeds(player="red", hero="red-champion", deeds=0), dice=[3, 3])  # round 1
    g.when(c.SpendDeeds(player="red", hero="red-champion", deeds=0), dice=[2, 2])  # round 2
    events = g.when(c.SpendDeeds(player="red", hero="red-champion", deeds=0), dice=[5, 6])
    result = one(events, ev.SingleCombatRound)
    assert (result.round, result.result) == (3, "final_draw")
    assert "both lose 1 stamina point" in result.explain()
    assert [e.hero for e in of(events, ev.HeroKilled)] == ["red-champion", "blue-priest"]
    assert g.state.forces["red"].tokens == 10 + 3 and g.state.forces["blue"].tokens == 10 + 3
    events = g.when(c.Roll(player="blue"), dice=[2])  # the last to fall rolls first
    died = one(events, ev.HeroDeathRolled)
    assert (died.hero, died.outcome, died.target) == ("blue-priest", "food_for_ravens", "")
    events = g.when(c.Roll(player="red"), dice=[6])
    died = one(events, ev.HeroDeathRolled)
    assert (died.hero, died.outcome, died.target) == ("red-champion", "final_blow", "")
    assert died.explain().startswith(
        "red-champion, Hero Death 1D6 6: Though I die, I smite thee!: nobody is left to strike"
    )


def test_after_a_single_combat_its_heroes_add_no_dice_to_the_melee() -> None:
    g = challenged("red-lord", "blue-proud", *engaged("red-warriors", "blue-horde"))
    g.when(c.AcceptChallenge(player="blue", hero="blue-proud"), dice=[])
    g.when(c.SpendDeeds(player="red", hero="red-lord", deeds=0), dice=[])
    events = g.when(
        c.SpendDeeds(player="blue", hero="blue-proud", deeds=0), dice=[5, 3, 3, 3, 3, 3]
    )
    assert tags(events)[-1] == "melee_began"
    g.when(c.DeclareMelee(player="red", combat="melee-1"), dice=[])
    events = g.when(c.DeclareMelee(player="blue", combat="melee-1"), dice=[3] * 20)
    owners = [e.pool.owner for e in of(events, ev.CombatDiceRolled)]
    assert owners == ["red-warriors", "blue-horde"]


def test_a_melee_of_two_heroes_after_their_single_combat_rolls_no_dice_and_is_a_draw() -> None:
    """Given the Red Champion fighting Blue Proud alone (he has left his horde), when Proud loses
    their single combat's first round and lives, then in the melee that follows neither adds a
    die (HB-17): no hit is scored, and the melee is a draw that goes on (HB-8)."""
    g = challenged(
        "red-champion",
        "blue-proud",
        ev.HeroLeft(hero="blue-proud", unit="blue-horde"),
        *engaged("red-champion", "blue-proud"),
    )
    g.when(c.AcceptChallenge(player="blue", hero="blue-proud"), dice=[])
    g.when(c.SpendDeeds(player="red", hero="red-champion", deeds=0), dice=[])
    g.when(c.SpendDeeds(player="blue", hero="blue-proud", deeds=0), dice=[5, 3, 3, 3])
    g.when(c.DeclareMelee(player="red", combat="melee-1"), dice=[])
    events = g.when(c.DeclareMelee(player="blue", combat="melee-1"), dice=[])
    assert not of(events, ev.CombatDiceRolled)
    assert (
        one(events, ev.MeleeHitsCounted)
        .explain()
        .startswith("red-champion (red) takes 0 hits; blue-proud (blue) takes 0 hits")
    )
    assert one(events, ev.MeleeDecided).outcome == "draw"
    assert combat_of(g.state, "red-champion") is not None


def test_in_the_second_round_1s_stand_and_a_hero_without_mighty_deeds_is_not_asked() -> None:
    """Given the champion (level 1, one Mighty Deed) against Proud, when the champion spends his
    deed in a drawn first round, then only he spends one; in round two only Proud is asked for
    deeds, and a 1 rolled is not re-rolled: only the first round counts as charging (sheet 3 & 5)."""
    g = challenged("red-champion", "blue-proud", *CHAMPION_VS_PROUD)
    g.when(c.AcceptChallenge(player="blue", hero="blue-proud"), dice=[])
    g.when(c.SpendDeeds(player="red", hero="red-champion", deeds=1), dice=[])
    events = g.when(c.SpendDeeds(player="blue", hero="blue-proud", deeds=0), dice=[3] * 5)
    assert [e.hero for e in of(events, ev.DeedsSpent)] == ["red-champion"]
    assert one(events, ev.SingleCombatRound).result == "draw"
    decision = g.ruleset.decision(g.state)
    assert (decision.about["hero"], decision.about["round"]) == ("blue-proud", "2")
    events = g.when(c.SpendDeeds(player="blue", hero="blue-proud", deeds=0), dice=[1, 3, 3, 3])
    assert not of(events, ev.DeedsSpent)
    assert pool_of(events, "red-champion").faces == [1]
    assert one(events, ev.SingleCombatRound).result == "draw"


def test_a_hero_may_commit_any_number_of_his_mighty_deeds_to_a_round() -> None:
    """Given the Red Lord (level 3: 3 Mighty Deeds) whose challenge is accepted, when legal
    lists his commitments, then 0 to 3 are offered."""
    g = challenged("red-lord", "blue-king", *engaged("red-warriors", "blue-warriors"))
    g.when(c.AcceptChallenge(player="blue", hero="blue-king"), dice=[])
    assert [x.deeds for x in g.ruleset.legal_commands(g.state, "red")] == [0, 1, 2, 3]


def test_every_hero_of_the_phasing_force_may_challenge_every_enemy_hero_in_his_melee() -> None:
    """Given the Red Lord (with red's warriors) and the Red Champion both in the melee of blue's
    warriors and king, when legal lists red's challenges, then each red hero may challenge the
    Blue King, or red issues none (HB-17)."""
    g = melee_phase(
        *engaged("red-warriors", "blue-warriors"),
        *engaged("red-champion", "blue-warriors", joined=True),
    )
    assert g.ruleset.legal_commands(g.state, "red") == [
        c.Challenge(player="red", hero="red-lord", opponent="blue-king"),
        c.Challenge(player="red", hero="red-champion", opponent="blue-king"),
        c.NoChallenge(player="red"),
    ]
