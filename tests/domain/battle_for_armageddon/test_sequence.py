"""The sequence of play: set-up, the strategy segment, action segments, the victory segment."""

from __future__ import annotations

from tests.domain.battle_for_armageddon.helpers import at, game, in_phase, second_war
from tests.given_when_then import Given, of, one, tags
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.ruleset import RULESET
from warlog.domain.battle_for_armageddon.special_card_events import SpecialCardDrawn
from warlog.domain.battle_for_armageddon.turn_events import (
    ActionSegmentBegan,
    GameEnded,
    InitiativeDecided,
    PhaseBegan,
    PhaseEnded,
    ReinforcementsArrived,
    TurnBegan,
)


def test_the_orks_set_up_in_ork_territory_only() -> None:
    g = game()
    g.when(c.Deploy(player="orks", counter="boyz-1", to="ork_c"), dice=[])
    assert g.state.counters["boyz-1"].location == "ork_c"
    g.when_rejected(
        c.Deploy(player="orks", counter="boyz-1", to="plain_a"), code="rules/not_ork_territory"
    )
    g.when_rejected(
        c.Deploy(player="imperials", counter="boyz-1", to="ork_a"), code="rules/not_your_turn"
    )


def test_set_up_offers_each_ork_counter_on_the_map_the_other_areas_it_fits() -> None:
    """Given the proving ground's default Ork set-up (ork_a holds 3 Goff Boyz and Ghazghkull,
    ork_b 2 Evil Sunz, ork_c a Goff Boyz and a Mob), when legal lists the set-up, then each
    counter may move to another Ork Territory area within stacking (BFA-18), or set-up ends."""
    g = game()
    assert RULESET.legal_commands(g.state, "orks") == [
        c.Deploy(player="orks", counter="boyz-1", to="ork_c"),
        c.Deploy(player="orks", counter="boyz-2", to="ork_c"),
        c.Deploy(player="orks", counter="boyz-3", to="ork_c"),
        c.Deploy(player="orks", counter="ghazghkull", to="ork_b"),
        c.Deploy(player="orks", counter="ghazghkull", to="ork_c"),
        c.EndSetup(player="orks"),
    ]


def test_set_up_cannot_mix_tribes() -> None:
    g = game()
    g.when_rejected(c.Deploy(player="orks", counter="sunz-1", to="ork_a"), code="rules/overstacked")


def test_ending_set_up_deals_two_special_cards_each_and_begins_turn_1() -> None:
    g = game()
    # Imperial deck 3 cards: d3 then d2; Ork deck 2 cards: d2, then the last one needs no roll
    events = g.when(c.EndSetup(player="orks"), dice=[1, 1, 2])
    assert tags(events)[:1] == ["setup_ended"]
    assert len(of(events, SpecialCardDrawn)) == 4
    assert len(g.state.hands["imperials"]) == 2 and len(g.state.hands["orks"]) == 2
    assert one(events, TurnBegan).turn == 1
    assert g.state.stage == "strategy"
    assert RULESET.active_players(g.state) == ["imperials", "orks"]


def test_a_draw_picks_among_the_remaining_cards_with_one_die() -> None:
    g = game()
    events = g.when(c.EndSetup(player="orks"), dice=[3, 1, 2])
    drawn = of(events, SpecialCardDrawn)
    assert [(d.card, d.face, d.deck_size) for d in drawn[:2]] == [
        ("barrage-1", 3, 3),
        ("reconstruction-1", 1, 2),
    ]
    assert drawn[3].deck_size == 1 and drawn[3].face == 1


def _turn_one() -> Given:
    g = game()
    g.when(c.EndSetup(player="orks"), dice=[1, 1, 1])
    return g


def test_strategy_choices_are_two_different_known_cards() -> None:
    g = _turn_one()
    g.when_rejected(
        c.ChooseStrategy(player="orks", cards=["movement-combat"]), code="rules/bad_strategy"
    )
    g.when_rejected(
        c.ChooseStrategy(player="orks", cards=["movement-combat", "movement-combat"]),
        code="rules/bad_strategy",
    )
    g.when_rejected(
        c.ChooseStrategy(player="orks", cards=["movement-combat", "rest"]),
        code="rules/bad_strategy",
    )
    g.when(c.ChooseStrategy(player="orks", cards=["movement-combat", "combat-build"]), dice=[])
    g.when_rejected(
        c.ChooseStrategy(player="orks", cards=["combat-build", "movement-combat"]),
        code="rules/already_chosen",
    )
    assert RULESET.active_players(g.state) == ["imperials"]


def test_on_turn_1_the_orks_have_the_initiative_and_reveal_first() -> None:
    g = _turn_one()
    g.when(c.ChooseStrategy(player="orks", cards=["movement-combat", "combat-build"]), dice=[])
    # the last choice of the segment: no initiative roll on turn 1, then a draw each (d1 and d1)
    events = g.when(
        c.ChooseStrategy(player="imperials", cards=["build-movement", "combat-build"]), dice=[]
    )
    initiative = one(events, InitiativeDecided)
    assert initiative.player == "orks" and "First Turn Surprise" in initiative.explain()
    segment = one(events, ActionSegmentBegan)
    assert (segment.segment, segment.player, segment.card) == (1, "orks", "movement-combat")
    assert one(events, PhaseBegan).phase == "movement"
    assert RULESET.active_players(g.state) == ["orks"]


def test_segments_alternate_winner_loser_winner_loser() -> None:
    g = _turn_one()
    g.when(c.ChooseStrategy(player="orks", cards=["movement-combat", "combat-build"]), dice=[])
    g.when(c.ChooseStrategy(player="imperials", cards=["build-movement", "combat-build"]), dice=[])
    seen = []
    for _ in range(8):
        player = g.state.phasing
        seen.append((g.state.segment, player, g.state.phase))
        events = g.when(c.EndPhase(player=player))
        if any(isinstance(e, (GameEnded, TurnBegan)) for e in events):
            break
    assert seen == [
        (1, "orks", "movement"),
        (1, "orks", "combat"),
        (2, "imperials", "build"),
        (2, "imperials", "movement"),
        (3, "orks", "combat"),
        (3, "orks", "build"),
        (4, "imperials", "combat"),
        (4, "imperials", "build"),
    ]
    assert g.state.turn == 2 and g.state.stage == "strategy"


def test_from_turn_2_initiative_is_rolled_and_a_tie_changes_hands() -> None:
    g = game(TurnBegan(turn=2), InitiativeDecided(player="orks", turn=1, reason="test"))
    g.when(c.ChooseStrategy(player="orks", cards=["movement-combat", "combat-build"]), dice=[])
    events = g.when(
        c.ChooseStrategy(player="imperials", cards=["build-movement", "combat-build"]),
        dice=[4, 4, 1, 1],  # initiative d6 each, then a draw from each 3- and 2-card deck
    )
    initiative = one(events, InitiativeDecided)
    assert initiative.player == "imperials"
    assert "tie" in initiative.reason
    assert g.state.phasing == "imperials"


def test_a_higher_initiative_roll_wins() -> None:
    g = game(TurnBegan(turn=2))
    g.when(c.ChooseStrategy(player="orks", cards=["movement-combat", "combat-build"]), dice=[])
    events = g.when(
        c.ChooseStrategy(player="imperials", cards=["build-movement", "combat-build"]),
        dice=[2, 5, 1, 1],
    )
    assert one(events, InitiativeDecided).player == "orks"
    assert "Imperial d6 2 against Ork d6 5" in one(events, InitiativeDecided).explain()


def test_the_marines_enter_the_ready_box_on_turn_3() -> None:
    g = game(*in_phase("imperials", "combat", turn=2))
    g.events(
        PhaseEnded(phase="combat", player="imperials"),
        ActionSegmentBegan(
            segment=4, player="orks", card="combat-build", phases=["combat", "build"]
        ),
        PhaseBegan(phase="build", player="orks", index=1),
    )
    events = g.when(c.EndPhase(player="orks"))
    arrived = one(events, ReinforcementsArrived)
    assert sorted(arrived.counters) == ["blood_angels", "dante"]
    assert g.state.counters["dante"].location == "ready"


def test_commands_out_of_turn_or_phase_are_refused() -> None:
    g = game(*in_phase("orks", "movement"), at("ig-1", "plain_a"))
    g.when_rejected(
        c.Move(player="imperials", counter="ig-1", to="hive_a"), code="rules/not_your_turn"
    )
    g.when_rejected(
        c.Attack(player="orks", target="plain_a", stacks=["river_a"]), code="rules/wrong_phase"
    )
    g.when_rejected(c.TakeLoss(player="orks", counter="boyz-1"), code="rules/wrong_phase")
    g.when_rejected(c.EndSetup(player="orks"), code="rules/wrong_phase")
    g.when_rejected(c.Build(player="imperials", counter="ig-2"), code="rules/wrong_phase")
    g.when_rejected(c.EndPhase(player="elves"), code="input/unknown_player")


def test_the_bundled_scenario_starts_with_the_imperial_set_up_and_the_orks_at_home() -> None:
    sc = second_war()
    state = RULESET.initial_state(sc)
    areas = {a.id: a for a in sc.areas}
    orks = [x for x in state.counters.values() if x.side == "orks"]
    assert orks and all(areas[x.location].ork_territory for x in orks)
    imperials_on_map = [
        x for x in state.counters.values() if x.side == "imperials" and x.location in areas
    ]
    assert len(imperials_on_map) >= 10
    assert state.stage == "setup" and state.turn == 1
    assert RULESET.active_players(state) == ["orks"]
