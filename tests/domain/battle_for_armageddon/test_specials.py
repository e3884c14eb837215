"""Special cards: Reconstruction, Imperial Drop Pod, bonuses, and one card per action segment."""

from __future__ import annotations

from msgspec.structs import replace

from tests.domain.battle_for_armageddon.helpers import (
    PROVING_GROUND,
    at,
    before_phase,
    game,
    in_phase,
    off,
    proving_ground,
    second_war,
)
from tests.given_when_then import Given, one
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.build_events import CounterPlaced
from warlog.domain.battle_for_armageddon.combat_events import CombatRolled, SiteRuined
from warlog.domain.battle_for_armageddon.movement_events import CounterMoved
from warlog.domain.battle_for_armageddon.ruleset import RULESET
from warlog.domain.battle_for_armageddon.scenario import Scenario, parse_scenario
from warlog.domain.battle_for_armageddon.special_card_events import (
    SiteRebuilt,
    SpecialCardDrawn,
    SpecialCardPlayed,
)
from warlog.domain.battle_for_armageddon.turn_events import (
    PhaseBegan,
    PhaseEnded,
    ReinforcementsArrived,
)
from warlog.domain.core.events import Event


def drawn(player: str, *cards: str) -> list[SpecialCardDrawn]:
    return [SpecialCardDrawn(player=player, card=card) for card in cards]


def test_reconstruction_rebuilds_smoking_ruins_free_of_orks() -> None:
    g = game(
        *before_phase("imperials", "build"),
        *drawn("imperials", "reconstruction-1"),
        SiteRuined(site="hive_b", area="hive_b", defence=4, track=16),
    )
    g.when(c.EndPhase(player="imperials"))
    events = g.when(c.PlaySpecial(player="imperials", card="reconstruction-1", area="hive_b"))
    rebuilt = one(events, SiteRebuilt)
    assert (rebuilt.site, rebuilt.track) == ("hive_b", 20)
    assert not g.state.sites["hive_b"].ruined
    assert g.state.discards["imperials"] == ("reconstruction-1",)


def test_reconstruction_needs_ruins_without_an_ork_on_them() -> None:
    g = game(
        *before_phase("imperials", "build"),
        *drawn("imperials", "reconstruction-1"),
        SiteRuined(site="hive_b", area="hive_b", defence=4, track=16),
        at("boyz-2", "hive_b"),
    )
    g.when(c.EndPhase(player="imperials"))
    g.when_rejected(
        c.PlaySpecial(player="imperials", card="reconstruction-1", area="hive_b"),
        code="rules/bad_target",
    )
    g.when_rejected(
        c.PlaySpecial(player="imperials", card="reconstruction-1", area="hive_a"),
        code="rules/bad_target",
    )


def test_a_card_is_played_in_the_phase_its_effect_names() -> None:
    g = game(
        *in_phase("imperials", "movement"), *drawn("imperials", "reconstruction-1", "barrage-1")
    )
    g.when_rejected(c.PlaySpecial(player="imperials", card="barrage-1"), code="rules/wrong_timing")
    g.when_rejected(c.PlaySpecial(player="imperials", card="waaagh-1"), code="rules/not_in_hand")
    g.when_rejected(c.PlaySpecial(player="orks", card="waaagh-1"), code="rules/not_your_turn")


def test_only_one_special_card_per_action_segment() -> None:
    g = game(
        *in_phase("imperials", "combat"),
        *drawn("imperials", "barrage-1", "reconstruction-1"),
        SpecialCardDrawn(player="imperials", card="drop-pod-1"),
    )
    g.when(c.PlaySpecial(player="imperials", card="barrage-1"))
    g.events(
        PhaseEnded(phase="combat", player="imperials"),
        PhaseBegan(phase="movement", player="imperials", index=1),
    )
    g.events(ReinforcementsArrived(turn=3, counters=["blood_angels"]))
    g.when_rejected(
        c.PlaySpecial(player="imperials", card="drop-pod-1", area="hive_c", counter="blood_angels"),
        code="rules/special_limit",
    )
    assert not [
        x for x in RULESET.legal_commands(g.state, "imperials") if isinstance(x, c.PlaySpecial)
    ]


def test_a_barrage_adds_to_the_players_crt_rolls_for_the_phase() -> None:
    g = game(
        *in_phase("orks", "combat"),
        *drawn("orks", "waaagh-1"),
        at("boyz-2", "plain_b"),
        at("ig-1", "plain_a"),
    )
    g.when(c.PlaySpecial(player="orks", card="waaagh-1"))
    rolled = one(
        g.when(c.Attack(player="orks", target="plain_a", stacks=["plain_b"]), dice=[3]),
        CombatRolled,
    )
    assert [(m.name, m.value) for m in rolled.modifiers] == [("special card", 1)]
    assert rolled.total == 4


def test_the_drop_pod_lands_a_ready_marine_in_any_open_area() -> None:
    g = game(
        *in_phase("imperials", "movement"),
        *drawn("imperials", "drop-pod-1"),
        at("boyz-2", "plain_b"),
    )
    g.events(ReinforcementsArrived(turn=3, counters=["blood_angels", "dante"]))
    plays = [
        x for x in RULESET.legal_commands(g.state, "imperials") if isinstance(x, c.PlaySpecial)
    ]
    assert {x.counter for x in plays} == {"blood_angels", "dante"}
    assert all(x.area not in ("plain_b", "mount_c", "sea_d") for x in plays)
    g.when_rejected(
        c.PlaySpecial(
            player="imperials", card="drop-pod-1", area="plain_b", counter="blood_angels"
        ),
        code="rules/bad_target",
    )
    g.when_rejected(
        c.PlaySpecial(player="imperials", card="drop-pod-1", area="jungle_c", counter="ig-1"),
        code="rules/bad_target",
    )
    events = g.when(
        c.PlaySpecial(
            player="imperials", card="drop-pod-1", area="jungle_c", counter="blood_angels"
        )
    )
    assert one(events, CounterPlaced).reason == "Imperial Drop Pod"
    assert g.state.counters["blood_angels"].location == "jungle_c"
    g.when_rejected(
        c.Move(player="imperials", counter="blood_angels", to="plain_a"), code="rules/already_moved"
    )


def test_the_drop_pod_lands_only_the_marines_not_a_counter_built_into_the_ready_box() -> None:
    """Given Imperial Guard ig-1 built into the READY box and the Marines arrived, when the
    Imperials play the Drop Pod for ig-1, then it is refused and legal offers it only for the
    Marines (sheet p.3 "Special Units": the chapters "enter play using the normal rules or the
    Imperial Drop Pod"; BFA-22)."""
    g = game(
        *in_phase("imperials", "movement"),
        *drawn("imperials", "drop-pod-1"),
        off("ig-1", to="ready"),
        ReinforcementsArrived(turn=3, counters=["blood_angels", "dante"]),
    )
    assert g.state.counters["ig-1"].location == "ready"
    plays = [
        x for x in RULESET.legal_commands(g.state, "imperials") if isinstance(x, c.PlaySpecial)
    ]
    assert {x.counter for x in plays} == {"blood_angels", "dante"}
    g.when_rejected(
        c.PlaySpecial(player="imperials", card="drop-pod-1", area="plain_b", counter="ig-1"),
        code="rules/bad_target",
    )


def test_the_drop_pod_cannot_land_a_chapter_on_a_full_stack() -> None:
    """Given three Imperial Guard in plain_a, when the Drop Pod lands the Blood Angels there, then
    it is refused and legal does not offer it (sheet p.1 "Stacking": up to 3 counters; BFA-22:
    within stacking)."""
    g = game(
        *in_phase("imperials", "movement"),
        *drawn("imperials", "drop-pod-1"),
        at("ig-1", "plain_a"),
        at("ig-2", "plain_a"),
        at("ig-3", "plain_a"),
        ReinforcementsArrived(turn=3, counters=["blood_angels", "dante"]),
    )
    areas = {
        x.area
        for x in RULESET.legal_commands(g.state, "imperials")
        if isinstance(x, c.PlaySpecial) and x.counter == "blood_angels"
    }
    assert "plain_b" in areas
    assert "plain_a" not in areas
    g.when_rejected(
        c.PlaySpecial(
            player="imperials", card="drop-pod-1", area="plain_a", counter="blood_angels"
        ),
        code="rules/bad_target",
    )


def test_the_marines_also_enter_through_the_build_phase() -> None:
    g = game(
        *before_phase("imperials", "build"),
        ReinforcementsArrived(turn=3, counters=["blood_angels", "dante"]),
    )
    g.when(c.EndPhase(player="imperials"))
    g.when(c.FinishBuilding(player="imperials"))
    g.when(c.Place(player="imperials", counter="dante", to="hive_a"))
    assert g.state.counters["dante"].location == "hive_a"


def test_a_mek_workshop_gives_the_orks_one_more_rebuild() -> None:
    g = game(*before_phase("orks", "build"), *drawn("orks", "mek-1"), off("boyz-4"))
    g.when(c.EndPhase(player="orks"))
    assert g.state.rebuilds == 0
    g.when(c.PlaySpecial(player="orks", card="mek-1"))
    assert g.state.rebuilds == 1
    g.when(c.Rebuild(player="orks", counter="boyz-4", to="ork_c"))
    assert g.state.counters["boyz-4"].location == "ork_c"


# -- BFA-28: a card is played as the first copy of its kind not played yet ---------------------


def three_waaaghs() -> Scenario:
    """The proving ground with three copies of the Waaagh! (waaagh-1, -2, -3) in the Ork deck."""
    text = PROVING_GROUND.read_text()
    copies = [
        f'\n[[special_cards]]\nid = "waaagh-{n}"\nside = "orks"\nname = "Waaagh!"\n'
        'effect = "barrage"\nvalue = 1\n'
        for n in (2, 3)
    ]
    return parse_scenario((text + "".join(copies)).encode())


def holding(card: str, version: str = "") -> Given:
    """The Orks' combat phase, the Orks holding the Waaagh! copy ``card``."""
    return game(
        *in_phase("orks", "combat"), *drawn("orks", card), scenario=three_waaaghs(), version=version
    )


def test_a_card_is_played_as_the_first_copy_not_played_whichever_copy_was_drawn() -> None:
    """Given the Orks holding waaagh-3, when they play a Waaagh!, then it is played and shown as
    waaagh-1 (no copy played yet), as it would be had the draw given waaagh-1: the copy held
    leaves the hand and waaagh-1, still in the deck, takes its id; the next is waaagh-2."""
    g = holding("waaagh-3")
    assert [
        x.card for x in RULESET.legal_commands(g.state, "orks") if isinstance(x, c.PlaySpecial)
    ] == ["waaagh-1"]
    played = one(g.when(c.PlaySpecial(player="orks", card="waaagh-1")), SpecialCardPlayed)
    assert (played.card, played.name) == ("waaagh-1", "Waaagh!")
    assert g.state.hands["orks"] == ()
    assert g.state.discards["orks"] == ("waaagh-1",)
    assert sorted(x for x in g.state.decks["orks"] if x.startswith("waaagh")) == [
        "waaagh-2",
        "waaagh-3",
    ]
    drawn_one = holding("waaagh-1")
    drawn_one.when(c.PlaySpecial(player="orks", card="waaagh-1"))
    assert drawn_one.state.discards == g.state.discards


def test_a_copy_other_than_the_first_not_played_is_refused_in_the_same_words_held_or_not() -> None:
    """Given the Orks holding waaagh-3, when they name waaagh-3 or waaagh-2, then each is refused
    naming waaagh-1, the same refusal whichever copy they hold; a Waaagh! not held is refused."""
    for held in ("waaagh-3", "waaagh-2"):
        g = holding(held)
        for named in ("waaagh-2", "waaagh-3"):
            refused = g.when_rejected(
                c.PlaySpecial(player="orks", card=named), code="rules/bad_choice"
            )
            assert refused.message == (
                "a Waaagh! is played as waaagh-1, the first copy not played yet, whichever copy "
                "is held (BFA-28)"
            )
    g = game(*in_phase("orks", "combat"), scenario=three_waaaghs())
    g.when_rejected(c.PlaySpecial(player="orks", card="waaagh-1"), code="rules/not_in_hand")


def test_version_3_plays_and_shows_the_copy_held() -> None:
    """Given a game begun under version 3 and the Orks holding waaagh-3, then they play it as
    waaagh-3, as that version recorded it."""
    g = holding("waaagh-3", version="3")
    played = one(g.when(c.PlaySpecial(player="orks", card="waaagh-3")), SpecialCardPlayed)
    assert played.card == "waaagh-3"
    g = holding("waaagh-3", version="3")
    g.when_rejected(c.PlaySpecial(player="orks", card="waaagh-1"), code="rules/not_in_hand")


def test_a_game_begun_under_version_4_plays_a_card_as_its_first_unplayed_copy() -> None:
    """Given a game begun under version 4 (the first with BFA-28) and the Orks holding waaagh-3,
    when they play a Waaagh!, then it is played and shown as waaagh-1."""
    g = holding("waaagh-3", version="4")
    played = one(g.when(c.PlaySpecial(player="orks", card="waaagh-1")), SpecialCardPlayed)
    assert played.card == "waaagh-1"


def test_legal_offers_one_play_per_kind_and_cards_of_another_value_are_another_kind() -> None:
    """Given the Orks holding waaagh-1 and a Waaagh! of value 2 (another card, though it has the
    same name), when legal lists their plays, then both are offered, each once."""
    big = (
        '\n[[special_cards]]\nid = "waaagh-big"\nside = "orks"\nname = "Waaagh!"\n'
        'effect = "barrage"\nvalue = 2\n'
    )
    scenario = parse_scenario((PROVING_GROUND.read_text() + big).encode())
    g = game(
        *in_phase("orks", "combat"), *drawn("orks", "waaagh-1", "waaagh-big"), scenario=scenario
    )
    plays = [
        x.card for x in RULESET.legal_commands(g.state, "orks") if isinstance(x, c.PlaySpecial)
    ]
    assert plays == ["waaagh-1", "waaagh-big"]


# -- Rail Transport (forced_march) and Emergency Production (extra_build_points) -----------------


def with_card(card: str) -> Scenario:
    """The proving ground with the special card ``card`` of the bundled scenario (second-war)."""
    spec = next(x for x in second_war().special_cards if x.id == card)
    ground = proving_ground()
    return replace(ground, special_cards=[*ground.special_cards, spec])


def test_rail_transport_gives_one_more_move_to_the_counters_that_move_after_it() -> None:
    """Given the Imperials' movement phase, ig-1 (Move 2) in hive_a, guns-1 (Move 0) in hive_b
    and Rail Transport (the scenario's card: +1 Move) in hand, when they play it, then ig-1
    reaches hive_d, 3 areas away, which Move 2 could not, and no further: hive_e, 4 away, is
    refused naming Move 3; a counter with Move 0 still cannot move."""
    scenario = with_card("rail-transport-1")
    spec = next(x for x in scenario.special_cards if x.id == "rail-transport-1")
    assert (spec.name, spec.effect, spec.value) == ("Rail Transport", "forced_march", 1)
    assert "+1 Move" in spec.text
    g = game(
        *in_phase("imperials", "movement"),
        *drawn("imperials", "rail-transport-1"),
        at("ig-1", "hive_a"),
        at("guns-1", "hive_b"),
        scenario=scenario,
    )
    refused = g.when_rejected(
        c.Move(player="imperials", counter="ig-1", to="hive_d"), code="rules/unreachable"
    )
    assert "with Move 2" in refused.message
    played = one(
        g.when(c.PlaySpecial(player="imperials", card="rail-transport-1")), SpecialCardPlayed
    )
    assert (played.effect, played.value) == ("forced_march", 1)
    assert g.state.move_bonus == 1
    refused = g.when_rejected(
        c.Move(player="imperials", counter="ig-1", to="hive_e"), code="rules/unreachable"
    )
    assert refused.message.startswith("ig-1 cannot reach hive_e from hive_a with Move 3 ")
    g.when_rejected(
        c.Move(player="imperials", counter="guns-1", to="hive_a"), code="rules/cannot_move"
    )
    moves = {
        x.to
        for x in RULESET.legal_commands(g.state, "imperials")
        if isinstance(x, c.Move) and x.counter == "ig-1"
    }
    assert "hive_d" in moves and "hive_e" not in moves
    moved = one(g.when(c.Move(player="imperials", counter="ig-1", to="hive_d")), CounterMoved)
    assert moved.path == ["hive_a", "hive_b", "hive_c", "hive_d"]


def emergency(*setup: Event) -> Given:
    """The Imperials' build phase counted, Emergency Production (the scenario's card: +3 build
    points) in hand."""
    g = game(
        *before_phase("imperials", "build"),
        *drawn("imperials", "emergency-production-1"),
        *setup,
        scenario=with_card("emergency-production-1"),
    )
    g.when(c.EndPhase(player="imperials"))
    return g


def test_emergency_production_adds_three_build_points_to_spend_this_phase() -> None:
    """Given hive_b and hive_c in smoking ruins (12 build points), when the Imperials play
    Emergency Production, then they have 15, and spend all 15; one point more is refused."""
    g = emergency(
        SiteRuined(site="hive_b", area="hive_b", defence=4, track=16),
        SiteRuined(site="hive_c", area="hive_c", defence=4, track=12),
    )
    assert g.state.build_points == 12
    spec = next(x for x in g.state.scenario.special_cards if x.id == "emergency-production-1")
    assert (spec.name, spec.effect, spec.value) == ("Emergency Production", "extra_build_points", 3)
    assert "+3 build points" in spec.text
    played = one(
        g.when(c.PlaySpecial(player="imperials", card="emergency-production-1")),
        SpecialCardPlayed,
    )
    assert (played.effect, played.value) == ("extra_build_points", 3)
    assert g.state.build_points == 15
    for counter in ("titan-1", "ig-1", "ig-2", "ig-3", "ig-4", "gangs-1"):  # 5 + 4×2 + 2 = 15
        g.when(c.Build(player="imperials", counter=counter))
    assert g.state.build_points == 0
    refused = g.when_rejected(
        c.Build(player="imperials", counter="riders-1"), code="rules/cannot_afford"
    )
    assert refused.message == "Rough Riders costs 1; 0 build points left"


def test_emergency_production_is_refused_once_the_production_track_has_moved() -> None:
    """Given the Imperials have finished buying (the track moved), when they play Emergency
    Production, then it is refused, and legal does not offer it."""
    g = emergency()
    g.when(c.FinishBuilding(player="imperials"))
    refused = g.when_rejected(
        c.PlaySpecial(player="imperials", card="emergency-production-1"),
        code="rules/wrong_timing",
    )
    assert refused.message == "Emergency Production is played before the production track moves"
    assert not [
        x for x in RULESET.legal_commands(g.state, "imperials") if isinstance(x, c.PlaySpecial)
    ]
    assert g.state.build_points == 0


def test_a_long_card_name_that_names_nothing_is_quoted_short() -> None:
    """Given the Orks' combat phase, when they play a special card named by ten thousand
    characters, then the refusal quotes the first of them only, in one line: as a card of
    theirs they do not have (version 4 on, BFA-28) and as a card not in their hand (version 3)."""
    long = "x" * 10_000
    quoted = repr("x" * 57 + "...")
    for version, says in (
        ("", "is not one of the orks' special cards"),
        ("3", "is not in the orks' hand"),
    ):
        refused = holding("waaagh-3", version=version).when_rejected(
            c.PlaySpecial(player="orks", card=long), code="rules/not_in_hand"
        )
        assert refused.message == f"{quoted} {says}"
