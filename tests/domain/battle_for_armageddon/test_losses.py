"""Losing counters: a Marine Chapter flips to its detachment side when first lost, must still
retreat, and leaves play for good the second time."""

from __future__ import annotations

from tests.domain.battle_for_armageddon.combat_helpers import attack, orks_attack
from tests.domain.battle_for_armageddon.helpers import at
from tests.given_when_then import one
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.combat_events import CounterRetreated, LossTaken
from warlog.domain.battle_for_armageddon.movement_events import ChapterReduced, CounterEliminated
from warlog.domain.battle_for_armageddon.ruleset import RULESET


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


def test_an_imperial_counter_the_build_table_does_not_list_is_removed_for_good() -> None:
    """Given ig-1 and Emplaced Guns (no build cost) in plain_a, when a DR (9 vs 4 → 2:1, roll 5)
    takes the guns as the loss, then they are removed from play, not put in the pool:
    "Counters not listed cannot be rebuilt" (seed 003, Build, with its Build Points table)."""
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-4", "plain_b"),
        at("ig-1", "plain_a"),
        at("guns-1", "plain_a"),
    )
    attack(g, "plain_a", "plain_b", die=5)
    loss = one(g.when(c.TakeLoss(player="imperials", counter="guns-1")), LossTaken)
    assert (loss.counter, loss.outcome, loss.to) == ("guns-1", "removed", "removed")
    assert "loses guns-1: removed" in loss.explain()
    assert g.state.counters["guns-1"].location == "removed"
