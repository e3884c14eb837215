"""Movement: Move in areas, terrain, enemy areas, and stacking at the end of the phase."""

from __future__ import annotations

from tests.domain.battle_for_armageddon.helpers import at, game, in_phase
from tests.given_when_then import Given, of, one
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.build_events import CounterPlaced
from warlog.domain.battle_for_armageddon.movement_events import CounterEliminated, CounterMoved
from warlog.domain.battle_for_armageddon.ruleset import RULESET


def test_a_counter_moves_up_to_its_move_in_areas() -> None:
    g = game(*in_phase("imperials", "movement"), at("ig-1", "hive_a"))
    events = g.when(c.Move(player="imperials", counter="ig-1", to="plain_b"))
    assert one(events, CounterMoved).path in (
        ["hive_a", "plain_a", "plain_b"],
        ["hive_a", "hive_b", "plain_b"],
    )
    assert g.state.counters["ig-1"].location == "plain_b"


def test_a_counter_cannot_move_beyond_its_move() -> None:
    g = game(*in_phase("imperials", "movement"), at("ig-1", "hive_a"))
    g.when_rejected(
        c.Move(player="imperials", counter="ig-1", to="hive_d"), code="rules/unreachable"
    )
    g.when(c.Move(player="imperials", counter="ig-1", to="hive_b"))
    g.when_rejected(
        c.Move(player="imperials", counter="ig-1", to="hive_a"), code="rules/already_moved"
    )


def test_mountains_sea_and_enemy_areas_cannot_be_entered() -> None:
    g = game(*in_phase("orks", "movement"), at("boyz-1", "ash_b"), at("ig-1", "plain_b"))
    g.when_rejected(c.Move(player="orks", counter="boyz-1", to="mount_c"), code="rules/unreachable")
    g.when_rejected(c.Move(player="orks", counter="boyz-1", to="plain_b"), code="rules/unreachable")
    g2 = game(*in_phase("orks", "movement"), at("boyz-1", "factory_f"), at("ig-1", "hive_a"))
    g2.when_rejected(c.Move(player="orks", counter="boyz-1", to="sea_d"), code="rules/unreachable")


def test_an_intact_hive_is_an_imperial_counter_the_orks_cannot_enter() -> None:
    g = game(*in_phase("orks", "movement"), at("boyz-1", "plain_a"))
    g.when_rejected(c.Move(player="orks", counter="boyz-1", to="hive_a"), code="rules/unreachable")


def test_ash_waste_and_jungle_stop_the_move() -> None:
    g = game(*in_phase("orks", "movement"), at("boyz-1", "ork_b"))
    # ork_b -> ash_b (stop) -> plain_b would be 2 areas, but the ash waste ends the move
    g.when_rejected(c.Move(player="orks", counter="boyz-1", to="plain_b"), code="rules/unreachable")
    g.when(c.Move(player="orks", counter="boyz-1", to="ash_b"))
    jungle = game(*in_phase("imperials", "movement"), at("ig-1", "plain_b"))
    jungle.when_rejected(
        c.Move(player="imperials", counter="ig-1", to="hive_e"), code="rules/unreachable"
    )
    jungle.when(c.Move(player="imperials", counter="ig-1", to="jungle_c"))


def test_moving_around_the_ash_waste_is_allowed() -> None:
    g = game(*in_phase("orks", "movement"), at("boyz-1", "ork_a"))
    g.when(c.Move(player="orks", counter="boyz-1", to="river_a"))


def test_counters_with_move_0_never_move() -> None:
    g = game(*in_phase("imperials", "movement"), at("fort-1", "hive_a"))
    g.when_rejected(
        c.Move(player="imperials", counter="fort-1", to="plain_a"), code="rules/cannot_move"
    )


def test_moving_the_opponents_counter_is_refused() -> None:
    g = game(*in_phase("orks", "movement"), at("ig-1", "hive_a"))
    g.when_rejected(
        c.Move(player="orks", counter="ig-1", to="plain_a"), code="rules/not_your_counter"
    )
    g.when_rejected(
        c.Move(player="orks", counter="nobody", to="plain_a"), code="rules/unknown_counter"
    )
    g.when_rejected(
        c.Move(player="orks", counter="boyz-1", to="atlantis"), code="rules/unknown_area"
    )


def test_stacks_may_pass_through_a_full_area_and_stacking_counts_only_at_the_end() -> None:
    g = game(
        *in_phase("imperials", "movement"),
        at("ig-1", "plain_a"),
        at("ig-2", "plain_a"),
        at("ig-3", "plain_a"),
        at("ig-4", "hive_a"),
    )
    # a fourth counter may pass through, and may even stop there for a while
    g.when(c.Move(player="imperials", counter="ig-4", to="plain_a"))
    g.when(c.Move(player="imperials", counter="ig-1", to="plain_b"))
    events = g.when(c.EndPhase(player="imperials"))
    assert not of(events, CounterEliminated)


def four_moved_into_plain_a() -> Given:
    """The Imperials' movement phase: ig-1 and ig-2 in plain_a, joined by ig-3, then ig-4."""
    g = game(
        *in_phase("imperials", "movement"),
        at("ig-1", "plain_a"),
        at("ig-2", "plain_a"),
        at("ig-3", "hive_a"),
        at("ig-4", "hive_a"),
    )
    g.when(c.Move(player="imperials", counter="ig-3", to="plain_a"))
    g.when(c.Move(player="imperials", counter="ig-4", to="plain_a"))
    return g


def test_a_phase_that_ends_overstacked_loses_the_counters_that_moved_in_last() -> None:
    g = four_moved_into_plain_a()
    events = g.when(c.EndPhase(player="imperials"))
    lost = one(events, CounterEliminated)
    assert (lost.counter, lost.reason.endswith("(BFA-2)")) == ("ig-4", True)
    assert [x.id for x in g.state.counters.values() if x.location == "plain_a"] == [
        "ig-1",
        "ig-2",
        "ig-3",
    ]


#: a Rough Riders counter placed on hive_a over the limits in the last Imperial build phase
#: (version 8, BFA-12), as ``build.place`` records it
RIDERS_PLACED_OVER = CounterPlaced(
    counter="riders-1",
    area="hive_a",
    reason="from the READY box",
    overstacking="4 counters in hive_a (at most 3 count for stacking)",
)


def full_hive_a_and_riders_placed_over() -> Given:
    """The Imperials' movement phase, with ig-2, ig-3 and ig-4 in hive_a and riders-1 placed
    over them in the build phase before."""
    return game(
        *in_phase("imperials", "movement"),
        at("ig-1", "hive_b"),
        at("ig-2", "hive_a"),
        at("ig-3", "hive_a"),
        at("ig-4", "hive_a"),
        RIDERS_PLACED_OVER,
    )


def test_a_counter_placed_over_the_limits_is_lost_if_still_over_them_as_the_movement_ends() -> None:
    """Given riders-1 placed over the limits on hive_a's three Imperial Guard in the last build
    phase, when the Imperials end their movement phase with nothing moved, then riders-1 (the
    counter that arrived last) is lost to the pool and the Guard stay (BFA-12, BFA-2)."""
    g = full_hive_a_and_riders_placed_over()
    events = g.when(c.EndPhase(player="imperials"))
    lost = one(events, CounterEliminated)
    assert (lost.counter, lost.area, lost.to, lost.reason) == (
        "riders-1",
        "hive_a",
        "pool",
        "placed over the stacking limits in the build phase and still overstacked at the end of "
        "the movement phase (BFA-12, BFA-2)",
    )
    assert [x.id for x in g.state.counters.values() if x.location == "hive_a"] == [
        "ig-2",
        "ig-3",
        "ig-4",
    ]
    assert g.state.overstacked == ()
    assert RULESET.invariants(g.state) == []


def test_counters_that_moved_in_are_lost_before_those_placed_over_the_limits() -> None:
    """Given riders-1 placed over the limits on hive_a, when ig-2 moves out, ig-1 moves in and the
    Imperials end the phase, then ig-1, which arrived last, is lost and riders-1 stays (BFA-2)."""
    g = full_hive_a_and_riders_placed_over()
    g.when(c.Move(player="imperials", counter="ig-2", to="plain_a"))
    g.when(c.Move(player="imperials", counter="ig-1", to="hive_a"))
    lost = one(g.when(c.EndPhase(player="imperials")), CounterEliminated)
    assert (lost.counter, lost.reason) == (
        "ig-1",
        "overstacked at the end of the movement phase (BFA-2)",
    )
    assert g.state.counters["riders-1"].location == "hive_a"
    assert RULESET.invariants(g.state) == []


def test_a_stack_within_the_limits_as_the_movement_ends_loses_nothing() -> None:
    """Given riders-1 placed over the limits on hive_a, when ig-2 moves out and the Imperials end
    the phase, then nothing is lost and the placement no longer counts as over the limits."""
    g = full_hive_a_and_riders_placed_over()
    g.when(c.Move(player="imperials", counter="ig-2", to="plain_a"))
    events = g.when(c.EndPhase(player="imperials"))
    assert not of(events, CounterEliminated)
    assert g.state.overstacked == ()


def test_ork_tribes_may_not_end_the_phase_together() -> None:
    g = game(*in_phase("orks", "movement"), at("boyz-1", "ork_a"), at("sunz-1", "ork_b"))
    g.when(c.Move(player="orks", counter="sunz-1", to="ork_a"))
    events = g.when(c.EndPhase(player="orks"))
    assert one(events, CounterEliminated).counter == "sunz-1"


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


def test_ghazghkull_joins_a_stack_of_any_tribe_for_free() -> None:
    g = game(
        *in_phase("orks", "movement"),
        at("boyz-1", "ork_a"),
        at("boyz-2", "ork_a"),
        at("boyz-3", "ork_a"),
        at("ghazghkull", "ork_b"),
    )
    g.when(c.Move(player="orks", counter="ghazghkull", to="ork_a"))
    events = g.when(c.EndPhase(player="orks"))
    assert not of(events, CounterEliminated)


def test_legal_moves_never_overstack() -> None:
    g = game(
        *in_phase("imperials", "movement"),
        at("ig-1", "plain_a"),
        at("ig-2", "plain_a"),
        at("ig-3", "plain_a"),
        at("ig-4", "hive_a"),
    )
    moves = [m for m in RULESET.legal_commands(g.state, "imperials") if isinstance(m, c.Move)]
    assert c.Move(player="imperials", counter="ig-4", to="hive_b") in moves
    assert all(not (m.counter == "ig-4" and m.to == "plain_a") for m in moves)


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
