"""The ruleset's own invariants name what broke in words a rules developer can act on (the
fuzzer and the random-play tests print them)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from tests.domain.battle_for_armageddon.combat_helpers import attack, orks_attack
from tests.domain.battle_for_armageddon.helpers import at, game, in_phase, second_war
from warlog.domain.battle_for_armageddon.invariants import violations
from warlog.domain.battle_for_armageddon.ruleset import RULESET
from warlog.domain.battle_for_armageddon.state import GameState


def test_a_special_card_held_twice_is_named_with_where_each_copy_is() -> None:
    """Given the Second War's opening, when a card of the Orks' deck is also in their hand
    (an evolve that played it and forgot to take it from the hand), then the invariant names
    that card alone, how many times it is held and where, not every card the Orks hold."""
    state = RULESET.initial_state(second_war())
    deck = state.decks["orks"]
    card = deck[0]
    broken = replace(state, hands={**state.hands, "orks": (*state.hands["orks"], card)})
    (violation,) = violations(broken)
    assert violation.line() == (
        f"special_cards_conserved: the orks' cards, each once: {card} 2 times, 1 in the deck, "
        "1 in the hand"
    )
    lost = replace(state, decks={**state.decks, "orks": deck[1:]})
    assert [v.line() for v in violations(lost)] == [
        f"special_cards_conserved: the orks' cards, each once: {card} 0 times"
    ]
    assert violations(state) == []


def test_the_cards_held_other_than_once_are_named_in_order_of_their_ids() -> None:
    """Given the Second War's opening, when every card of the Orks' deck is also in their hand,
    then the invariant names them in the order of their ids, the same in every process (the
    fuzzer compares messages across runs; a set's order changes with PYTHONHASHSEED)."""
    state = RULESET.initial_state(second_war())
    deck = state.decks["orks"]
    broken = replace(state, hands={**state.hands, "orks": deck})
    (violation,) = violations(broken)
    assert violation.line() == "special_cards_conserved: the orks' cards, each once: " + "; ".join(
        f"{card} 2 times, 1 in the deck, 1 in the hand" for card in sorted(deck)
    )


def broken(state: GameState) -> list[str]:
    return [v.line() for v in violations(state)]


def orks_in(phase: str) -> GameState:
    """The proving ground in the Orks' first action segment of turn 2, on ``phase``."""
    return game(*in_phase("orks", phase)).state


def with_counter(state: GameState, counter: str, **changes: Any) -> GameState:
    moved = replace(state.counters[counter], **changes)
    return replace(state, counters={**state.counters, counter: moved})


def test_the_scenario_s_counters_and_sites_are_conserved() -> None:
    state = orks_in("movement")
    assert broken(state) == []
    counters = {k: v for k, v in state.counters.items() if k != "mob-1"}
    assert broken(replace(state, counters=counters)) == [
        "counters_conserved: a counter of the scenario is lost or invented"
    ]
    assert broken(with_counter(state, "mob-1", id="boyz-4")) == [
        "counters_conserved: mob-1 holds counter boyz-4"
    ]
    sites = {k: v for k, v in state.sites.items() if k != "hive_b"}
    assert broken(replace(state, sites=sites)) == [
        "sites_conserved: a hive or factory is lost or invented"
    ]


def test_a_counter_stands_in_a_known_area_it_may_enter() -> None:
    state = orks_in("movement")
    assert broken(with_counter(state, "mob-1", location="ork_z")) == [
        "counters_placed: mob-1 is nowhere: 'ork_z'"
    ]
    assert broken(with_counter(state, "mob-1", location="mount_c")) == [
        "counters_placed: mob-1 stands in impassable mount_c"
    ]
    assert broken(with_counter(state, "mob-1", location="removed")) == []


def test_a_counter_is_spaces_out_on_the_production_track_only_there() -> None:
    state = orks_in("movement")
    assert broken(with_counter(state, "ig-2", location="track", track=1)) == []
    assert broken(with_counter(state, "ig-2", location="track", track=0)) == [
        "production_track: ig-2 is 0 spaces out at track"
    ]
    assert broken(with_counter(state, "ig-2", track=1)) == [
        "production_track: ig-2 is 1 spaces out at pool"
    ]


def test_only_a_chapter_is_reduced() -> None:
    state = orks_in("movement")
    assert broken(with_counter(state, "blood_angels", reduced=True)) == []
    assert broken(with_counter(state, "ig-2", reduced=True)) == [
        "reduced_chapters: ig-2 is reduced but not a chapter"
    ]


def test_ghazghkull_never_returns_to_the_pool() -> None:
    """Ghazghkull can never be rebuilt (seed 003 "Build (Ork)"); Yarrick may wait in the pool."""
    state = orks_in("movement")
    assert state.counters["yarrick"].location == "pool"
    assert broken(with_counter(state, "ghazghkull", location="removed")) == []
    assert broken(with_counter(state, "ghazghkull", location="pool")) == [
        "ghazghkull_never_rebuilt: ghazghkull is in the pool"
    ]


def test_the_two_sides_never_share_an_area() -> None:
    """BFA-17: an intact hive counts as an Imperial counter; a ruined one holds nobody."""
    state = with_counter(orks_in("movement"), "ig-1", location="plain_a")
    assert broken(with_counter(state, "mob-1", location="plain_a")) == [
        "one_side_per_area: both sides stand in plain_a"
    ]
    assert broken(with_counter(state, "mob-1", location="hive_a")) == [
        "one_side_per_area: both sides stand in hive_a"
    ]
    ruined = replace(
        state, sites={**state.sites, "hive_a": replace(state.sites["hive_a"], ruined=True)}
    )
    assert broken(with_counter(ruined, "mob-1", location="hive_a")) == []


def test_stacking_holds_except_while_the_movement_phase_is_in_progress() -> None:
    """Seed 003 "Stacking": the three Goff boyz with Ghazghkull (who counts for nothing) stand
    together in ork_a, four do not, but only once the movement phase is over; tribes never
    mix."""
    state = orks_in("combat")
    assert broken(state) == []
    assert broken(with_counter(state, "mob-1", location="ork_b")) == [
        "stacking: Ork tribes evil_sunz, goffs mixed in ork_b"
    ]
    four = with_counter(state, "boyz-4", location="ork_a")
    assert broken(four) == ["stacking: 4 counters in ork_a (at most 3 count for stacking)"]
    assert broken(replace(four, phase="movement")) == []


def test_build_points_and_rebuilds_are_never_negative() -> None:
    state = orks_in("build")
    assert broken(replace(state, build_points=0, rebuilds=0)) == []
    assert broken(replace(state, build_points=-1)) == [
        f"build_never_negative: -1 build points, {state.rebuilds} rebuilds"
    ]
    assert broken(replace(state, rebuilds=-1)) == [
        f"build_never_negative: {state.build_points} build points, -1 rebuilds"
    ]


def test_the_turn_stays_within_the_game_s_eight() -> None:
    state = orks_in("movement")
    assert broken(replace(state, turn=8)) == []
    assert broken(replace(state, turn=9)) == ["turns: turn 9 of 8"]
    assert broken(replace(state, turn=0)) == ["turns: turn 0 of 8"]


def test_the_game_is_over_exactly_when_it_has_a_result() -> None:
    state = orks_in("movement")
    assert broken(replace(state, result="orks")) == ["result: stage action with result 'orks'"]
    over = replace(state, stage="over", combat=None)
    assert broken(over) == ["result: stage over with result ''"]
    assert broken(replace(over, result="orks")) == []


def test_an_action_segment_is_phased_by_a_player_in_a_known_phase_after_both_choices() -> None:
    state = orks_in("movement")
    assert broken(replace(state, segment=4)) == []
    assert broken(replace(state, segment=5)) == ["segments: segment 5 phased by 'orks'"]
    assert broken(replace(state, segment=0)) == ["segments: segment 0 phased by 'orks'"]
    assert broken(replace(state, phasing="")) == ["segments: segment 1 phased by ''"]
    assert broken(replace(state, phase="supply")) == ["segments: an unknown phase 'supply'"]
    one = {k: v for k, v in state.choices.items() if k == "orks"}
    assert broken(replace(state, choices=one)) == [
        "segments: an action segment before both strategy choices"
    ]


def beaten_out_of_plain_a() -> GameState:
    """The Orks' attack on ig-1 in plain_a came out DW: the Imperials must choose its retreat."""
    g = orks_attack(at("boyz-2", "plain_b"), at("boyz-3", "plain_b"), at("ig-1", "plain_a"))
    attack(g, "plain_a", "plain_b", die=6)
    return g.state


def test_a_combat_is_fought_in_the_combat_phase_and_at_rest_waits_for_a_decision() -> None:
    state = beaten_out_of_plain_a()
    assert state.combat is not None and broken(state) == []
    assert broken(replace(state, phase="movement")) == ["combat: a combat in the movement phase"]
    assert broken(replace(state, phase="")) == ["combat: a combat in the no phase"]
    assert broken(replace(state, combat=replace(state.combat, steps=()))) == [
        "combat: a combat step was left undone"
    ]


def test_a_build_step_is_taken_in_a_build_phase_only() -> None:
    state = orks_in("build")
    assert broken(replace(state, build_step="rebuild")) == []
    assert broken(replace(orks_in("combat"), build_step="rebuild")) == [
        "build: build step 'rebuild' outside a build phase"
    ]
