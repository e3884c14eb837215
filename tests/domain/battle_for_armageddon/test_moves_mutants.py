"""Rules outside combat pinned where a mutation review found them untested: stacking, the build
table's last point, the Drop Pod, and the version gates of BFA-9 and BFA-28."""

from __future__ import annotations

from tests.domain.battle_for_armageddon.helpers import at, game, in_phase, off
from tests.domain.battle_for_armageddon.test_build import imperial_build
from tests.domain.battle_for_armageddon.test_specials import drawn, holding
from tests.given_when_then import one
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.movement_events import CounterEliminated
from warlog.domain.battle_for_armageddon.ruleset import RULESET
from warlog.domain.battle_for_armageddon.special_card_events import SpecialCardPlayed
from warlog.domain.battle_for_armageddon.turn_events import ReinforcementsArrived


def test_of_two_tribes_ending_the_movement_phase_together_the_one_that_moved_in_last_is_lost() -> (
    None
):
    """Given Goffs boyz-1 and Evil Sunz sunz-1 moving, in that order, into the empty river_a, when
    the Orks end the phase, then sunz-1 is lost and boyz-1 stays (sheet p.1 "Stacking": no Ork
    counters of different tribes stacked together; BFA-2: the counters that moved in last go)."""
    g = game(*in_phase("orks", "movement"), at("boyz-1", "ork_a"), at("sunz-1", "ork_b"))
    g.when(c.Move(player="orks", counter="boyz-1", to="river_a"))
    g.when(c.Move(player="orks", counter="sunz-1", to="river_a"))
    lost = one(g.when(c.EndPhase(player="orks")), CounterEliminated)
    assert (lost.counter, lost.reason) == (
        "sunz-1",
        "overstacked at the end of the movement phase (BFA-2)",
    )
    assert g.state.counters["boyz-1"].location == "river_a"


def test_a_marine_chapter_counts_for_stacking() -> None:
    """Given three Imperial Guard in plain_a and the Blood Angels chapter in hive_a, when legal
    lists the chapter's moves, then plain_a is not among them (sheet p.3 "Special Units": "The
    following counters do count for stacking: Marine Chapters"; p.1 "Stacking": up to 3)."""
    g = game(
        *in_phase("imperials", "movement"),
        at("ig-1", "plain_a"),
        at("ig-2", "plain_a"),
        at("ig-3", "plain_a"),
        at("blood_angels", "hive_a"),
    )
    moves = {
        x.to
        for x in RULESET.legal_commands(g.state, "imperials")
        if isinstance(x, c.Move) and x.counter == "blood_angels"
    }
    assert "plain_b" in moves
    assert "plain_a" not in moves


def test_a_game_begun_under_version_5_stacks_any_number_of_fortifications() -> None:
    """Given a game begun under version 5 (the first without BFA-9's cap) and fort-1 in hive_a,
    when fort-2 is placed there, then both stand in hive_a (sheet p.1 "Stacking": fortifications
    are among the counters of which any number may stack)."""
    g, _ = imperial_build(at("fort-1", "hive_a"), version="5")
    g.when(c.Build(player="imperials", counter="fort-2"))
    g.when(c.FinishBuilding(player="imperials"))
    g.when(c.Place(player="imperials", counter="fort-2", to="hive_a"))
    assert [x.id for x in g.state.counters.values() if x.location == "hive_a"] == [
        "fort-1",
        "fort-2",
    ]


def test_a_counter_costing_exactly_the_points_left_is_offered() -> None:
    """Given turn 1's 10 build points (20 halved) and 9 spent, when legal lists the builds, then
    the Rough Riders (cost 1) are offered and an Imperial Guard (cost 2) is not (sheet p.3 build
    table; p.1 "First Turn Surprise")."""
    g, _ = imperial_build(turn=1)
    for counter in ("titan-1", "ig-1", "ig-2"):
        g.when(c.Build(player="imperials", counter=counter))
    assert g.state.build_points == 1
    builds = {
        x.counter for x in RULESET.legal_commands(g.state, "imperials") if isinstance(x, c.Build)
    }
    assert "riders-1" in builds
    assert "ig-3" not in builds


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


def test_a_game_begun_under_version_4_plays_a_card_as_its_first_unplayed_copy() -> None:
    """Given a game begun under version 4 (the first with BFA-28) and the Orks holding waaagh-3,
    when they play a Waaagh!, then it is played and shown as waaagh-1."""
    g = holding("waaagh-3", version="4")
    played = one(g.when(c.PlaySpecial(player="orks", card="waaagh-1")), SpecialCardPlayed)
    assert played.card == "waaagh-1"
