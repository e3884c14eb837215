"""Retreating (pp.47–48, 59–60): what a retreat runs into (HB-11), the knock-on tests of friends
pushed back (Steadfast excepted), a blocked retreat, leaving the table, breaking on the last
stamina point (HB-32) and the Brittle trait."""

from __future__ import annotations

from msgspec.structs import replace

from tests.domain.heroic_battles.helpers import (
    declare,
    engaged,
    fighting,
    game,
    lost,
    needed,
    proving_ground,
    wounded,
)
from tests.given_when_then import Given, of, one, tags
from warlog.domain.core.events import Event
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.scenario import Scenario
from warlog.domain.heroic_battles.values import RetreatOrder


def retreating(unit: str, *setup: Event) -> Given:
    """``unit`` (of blue) has begun a ½ ST retreat from shooting; blue declares what it meets."""
    order = RetreatOrder(unit=unit, half_st=1, cause="shooting")
    return game(*setup, ev.RetreatsOrdered(orders=[order]), ev.RetreatBegan(unit=unit, half_st=1))


def retreat(unit: str, into: str, friend: str = "") -> c.DeclareRetreat:
    return c.DeclareRetreat(player="blue", unit=unit, into=into, friend=friend)  # type: ignore[arg-type]


def test_the_owner_declares_what_the_retreat_runs_into() -> None:
    g = retreating("blue-warriors")
    decision = g.ruleset.decision(g.state)
    assert (decision.kind, decision.players, decision.about["distance"]) == (
        "retreat",
        ("blue",),
        "½ ST",
    )
    assert decision.options[:3] == ("clear", "blocked", "off_table")
    assert "friends:blue-horde" in decision.options
    events = g.when(retreat("blue-warriors", "clear"), dice=[])
    assert tags(events) == ["unit_retreated"]
    assert g.state.frames == ()


def test_retreating_into_friends_pushes_them_back_and_both_test_or_lose_a_stamina_point() -> None:
    g = retreating("blue-warriors")
    events = g.when(retreat("blue-warriors", "friends", "blue-horde"), dice=[4])
    called = one(events, ev.CommandTestsCalled)
    assert [(t.unit, t.purpose) for t in called.tests] == [
        ("blue-warriors", "retreated_into"),
        ("blue-horde", "retreated_into"),
    ]
    assert one(events, ev.DiceAwaited).what == "blue-horde's command test"
    g.when(c.Roll(player="blue"), dice=[1])
    events = g.when(c.AcceptTest(player="blue"), dice=[])
    stamina = one(events, ev.StaminaLost)
    assert (stamina.unit, stamina.stamina) == ("blue-horde", 1)


def test_a_steadfast_unit_retreated_into_takes_no_test() -> None:
    g = retreating("blue-warriors")
    events = g.when(retreat("blue-warriors", "friends", "blue-steadfast"), dice=[4])
    assert [t.unit for t in one(events, ev.CommandTestsCalled).tests] == ["blue-warriors"]


def test_a_blocked_retreat_stops_a_blades_length_away_and_costs_a_stamina_point() -> None:
    g = retreating("blue-warriors")
    events = g.when(retreat("blue-warriors", "blocked"), dice=[])
    assert one(events, ev.StaminaLost).unit == "blue-warriors"
    assert g.state.units["blue-warriors"].stamina == 3


def test_a_unit_retreating_off_the_table_is_destroyed_with_its_hero() -> None:
    g = retreating("blue-warriors")
    events = g.when(retreat("blue-warriors", "off_table"), dice=[])
    assert one(events, ev.UnitDestroyed).how == "fled"
    assert one(events, ev.HeroKilled) == ev.HeroKilled(hero="blue-king", cause="retreat")
    assert lost(events, "blue") == [(2, "blue-warriors is fled"), (3, "blue-king is killed")]


def test_a_hero_retreating_off_the_table_is_killed_whatever_its_stamina() -> None:
    """Given Blue Proud, unattached with 2 stamina, retreating, when blue declares the retreat
    runs off the table, then he is killed (sheet pp.47-48: "Units and Heroes retreating from the
    table are destroyed")."""
    order = RetreatOrder(unit="blue-proud", half_st=1, cause="shooting")
    g = game(
        ev.HeroLeft(hero="blue-proud", unit="blue-horde", in_melee=False),
        ev.RetreatsOrdered(orders=[order]),
        ev.RetreatBegan(unit="blue-proud", half_st=1),
    )
    assert g.state.heroes["blue-proud"].stamina == 2
    events = g.when(c.DeclareRetreat(player="blue", unit="blue-proud", into="off_table"), dice=[])
    assert one(events, ev.HeroKilled) == ev.HeroKilled(hero="blue-proud", cause="retreat")
    assert g.state.heroes["blue-proud"].gone


def test_a_retreat_runs_only_into_a_friend_not_in_melee() -> None:
    g = retreating("blue-warriors", *engaged("red-brutes", "blue-horde"))
    g.when_rejected(retreat("blue-warriors", "friends", "blue-horde"), code="rules/bad_retreat")
    g.when_rejected(retreat("blue-warriors", "friends", "red-archers"), code="rules/bad_retreat")
    g.when_rejected(retreat("blue-warriors", "clear", "blue-scouts"), code="rules/bad_retreat")
    g.when_rejected(retreat("blue-giant", "clear"), code="rules/bad_choice")


def test_a_unit_retreating_on_its_last_stamina_point_tests_or_breaks() -> None:
    g = game(*engaged("red-brutes", "blue-steadfast"), wounded("blue-steadfast", 2), *fighting())
    g.when(declare("red"), dice=[])
    events = g.when(declare("blue"), dice=[4, 4, 4] + [3] * 7 + [3] * 7)
    assert g.state.units["blue-steadfast"].stamina == 1
    assert one(events, ev.RetreatBegan).unit == "blue-steadfast"
    assert one(events, ev.DiceAwaited).what == "blue-steadfast's command test"
    events = g.when(c.Roll(player="blue"), dice=[2])
    assert one(events, ev.CommandTestTaken).reasons == ["retreating on its last stamina point"]
    events = g.when(c.AcceptTest(player="blue"), dice=[])
    destroyed = one(events, ev.UnitDestroyed)
    assert (destroyed.unit, destroyed.how) == ("blue-steadfast", "broken")
    assert lost(events, "blue") == [(2, "blue-steadfast is broken")]
    order = tags(events)
    assert order.index("retreat_cancelled") < order.index("held_ground")  # nobody to pursue


def test_a_brittle_unit_tests_or_breaks_with_two_stamina_points_left() -> None:
    g = game(*engaged("red-brutes", "blue-horde"), wounded("blue-horde", 1), *fighting())
    g.when(declare("red"), dice=[])
    events = g.when(declare("blue"), dice=[4, 4] + [3] * 8 + [3] * 8 + [3] * 2)
    assert one(events, ev.DiceAwaited).what == "Risk to Heroes of blue-proud"
    events = g.when(c.Roll(player="blue"), dice=[3])
    assert g.state.units["blue-horde"].stamina == 2
    assert of(events, ev.RetreatBegan)
    assert one(events, ev.CommandTestsCalled).tests[0].reasons == (
        "Brittle, retreating with 2 stamina or less",
    )


# -- how far a beaten unit retreats (HB-33) ---------------------------------------------------------


def with_fearsome_brutes() -> Scenario:
    """The proving ground with the red brutes Fearsome too."""
    sc = proving_ground()
    red = sc.forces[0]
    units = [
        replace(u, traits=[*u.traits, "fearsome"]) if u.id == "red-brutes" else u for u in red.units
    ]
    return replace(sc, forces=[replace(red, units=units), sc.forces[1]])


def fearsome_brutes_win_against(target: str) -> list[Event]:
    """The Fearsome red-brutes (no 1s) score 4 hits against ``target``'s none."""
    g = game(*engaged("red-brutes", target), *fighting(), scenario=with_fearsome_brutes())
    g.when(declare("red"), dice=[])
    count = len(needed(g, declare("blue")))
    events = g.when(declare("blue"), dice=[5, 5, 5, 5] + [3] * (count - 4))
    decided = one(events, ev.MeleeDecided)
    assert (decided.winner, decided.loser) == ("red", "blue")
    return events


def test_a_unit_beaten_by_a_fearsome_winner_retreats_1_st() -> None:
    orders = one(fearsome_brutes_win_against("blue-steadfast"), ev.RetreatsOrdered).orders
    assert [(o.unit, o.half_st) for o in orders] == [("blue-steadfast", 2)]


def test_a_fearsome_unit_beaten_by_a_fearsome_winner_retreats_only_half_an_st() -> None:
    orders = one(fearsome_brutes_win_against("blue-giant"), ev.RetreatsOrdered).orders
    assert [(o.unit, o.half_st) for o in orders] == [("blue-giant", 1)]
