"""Random legal play: decide accepts every legal command, evolve never mutates its input, the
invariants hold after every step, and the state round-trips through msgpack. Autoplay finishes."""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.domain.battle_for_armageddon.helpers import (
    at,
    before_phase,
    game,
    in_phase,
    off,
    proving_ground,
    second_war,
)
from tests.domain.battle_for_armageddon.invariants import check_invariants
from tests.domain.battle_for_armageddon.test_specials import drawn
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.autoplay import choose
from warlog.domain.battle_for_armageddon.combat_events import SiteRuined
from warlog.domain.battle_for_armageddon.ruleset import RULESET
from warlog.domain.battle_for_armageddon.scenario import Scenario
from warlog.domain.battle_for_armageddon.state import GameState
from warlog.domain.battle_for_armageddon.turn_events import ReinforcementsArrived
from warlog.domain.core.dice import SeededDice

ENCODER = msgspec.msgpack.Encoder()
DECODER = msgspec.msgpack.Decoder(GameState)


def play_randomly(scenario: Scenario, rng: random.Random, seed: bytes, steps: int) -> GameState:
    state = RULESET.initial_state(scenario)
    check_invariants(state)
    seq = 2
    for step in range(steps):
        if RULESET.is_terminal(state):
            break
        players = RULESET.active_players(state)
        assert players, "nobody may act in a live game"
        player = rng.choice(players)
        legal = list(RULESET.legal_commands(state, player))
        assert legal, f"{player} has nothing legal in {state.stage}/{state.phase}"
        command = rng.choice(legal)
        events = RULESET.decide(state, command, SeededDice(seed, "random", "", seq))
        for event in events:
            before = ENCODER.encode(state)
            after = RULESET.evolve(state, event)
            assert ENCODER.encode(state) == before, f"evolve mutated its input on {event}"
            state = after
        check_invariants(state)
        if step % 25 == 0:
            assert DECODER.decode(ENCODER.encode(state)) == state
        seq += len(events) + 1
    return state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_random_legal_play_on_the_bundled_scenario(seed: int) -> None:
    play_randomly(second_war(), random.Random(seed), seed.to_bytes(32, "big"), steps=400)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_random_legal_play_on_the_proving_ground(seed: int) -> None:
    play_randomly(proving_ground(), random.Random(seed), seed.to_bytes(32, "big"), steps=300)


def autoplay(seed: bytes) -> tuple[GameState, int]:
    state = RULESET.initial_state(second_war())
    seq, commands = 2, 0
    while not RULESET.is_terminal(state):
        player = RULESET.active_players(state)[0]
        legal = list(RULESET.legal_commands(state, player))
        command = choose(state, player, legal)
        assert command in legal
        events = RULESET.decide(state, command, SeededDice(seed, "auto", "", seq))
        for event in events:
            state = RULESET.evolve(state, event)
        check_invariants(state)
        seq += len(events) + 1
        commands += 1
        assert commands < 5000, "autoplay does not finish"
    return state, commands


def test_two_autoplayers_finish_the_game_deterministically() -> None:
    first, n = autoplay(bytes(32))
    again, m = autoplay(bytes(32))
    assert first.result in ("orks", "imperials", "draw")
    assert (first, n) == (again, m)


def test_autoplay_has_nothing_to_choose_from_an_empty_list_or_a_finished_game() -> None:
    state = RULESET.initial_state(proving_ground())
    with pytest.raises(ValueError, match="nothing to choose from"):
        choose(state, "orks", [])
    over = msgspec.structs.replace(state, stage="over")
    with pytest.raises(ValueError, match="nothing to choose from"):
        choose(over, "orks", [c.EndSetup(player="orks")])


def test_autoplay_takes_the_first_strategy_offered_when_its_own_pair_is_not() -> None:
    g = game()
    g.when(c.EndSetup(player="orks"), dice=[1, 1, 1])
    offered = [
        c.ChooseStrategy(player="orks", cards=["combat-build", "build-combat"]),
        c.ChooseStrategy(player="orks", cards=["build-combat", "combat-build"]),
    ]
    assert choose(g.state, "orks", offered) == offered[0]


def test_autoplay_lands_a_drop_pod_on_the_intact_site_nearest_the_orks() -> None:
    """Given the Imperials' movement phase with a Drop Pod in hand and the Marines READY, when the
    autoplayer chooses, then it lands the Blood Angels on hive_d, the intact site nearest the
    one Ork, in hive_e (hive_a is offered first, four areas away); with no Ork on the map every
    site is as far, and it takes the first offered."""
    g = game(*in_phase("imperials", "movement"), *drawn("imperials", "drop-pod-1"))
    g.events(ReinforcementsArrived(turn=3, counters=["blood_angels", "dante"]))
    g.events(off("boyz-1"), off("sunz-1"), at("boyz-2", "hive_e"))

    def pod(area: str) -> c.PlaySpecial:
        return c.PlaySpecial(
            player="imperials", card="drop-pod-1", area=area, counter="blood_angels"
        )

    assert choose(g.state, "imperials", list(RULESET.legal_commands(g.state, "imperials"))) == (
        pod("hive_d")
    )
    g.events(off("boyz-2"))
    assert choose(g.state, "imperials", list(RULESET.legal_commands(g.state, "imperials"))) == (
        pod("hive_a")
    )


def test_autoplay_keeps_a_mek_workshop_while_nothing_can_be_rebuilt() -> None:
    g = game(*before_phase("orks", "build"), *drawn("orks", "mek-1"))
    g.when(c.EndPhase(player="orks"))
    assert choose(g.state, "orks", list(RULESET.legal_commands(g.state, "orks"))) == (
        c.EndPhase(player="orks")
    )
    g.events(off("boyz-4"))
    assert choose(g.state, "orks", list(RULESET.legal_commands(g.state, "orks"))) == (
        c.PlaySpecial(player="orks", card="mek-1")
    )


def test_autoplay_places_ready_counters_within_stacking_only() -> None:
    """Given Rough Riders READY, three Imperial Guard in hive_a and an Ork next to it, when the
    autoplayer places, then it takes hive_b, the nearest site with room, not hive_a, which
    version 8 offers over the limits (BFA-12): the Imperials hold their hives, so a counter placed
    there would be lost when their next movement phase ends. With no room anywhere it stops."""
    g = game(
        *before_phase("imperials", "build"),
        at("ig-2", "hive_a"),
        at("ig-3", "hive_a"),
        at("ig-4", "hive_a"),
        at("boyz-2", "plain_a"),
    )
    g.when(c.EndPhase(player="imperials"))
    g.when(c.Build(player="imperials", counter="riders-1"))
    g.when(c.FinishBuilding(player="imperials"))
    legal = list(RULESET.legal_commands(g.state, "imperials"))
    assert c.Place(player="imperials", counter="riders-1", to="hive_a") in legal
    assert choose(g.state, "imperials", legal) == (
        c.Place(player="imperials", counter="riders-1", to="hive_b")
    )
    g.events(
        *(
            SiteRuined(site=site, area=site, defence=defence, track=0)
            for site, defence in (
                ("hive_b", 4),
                ("hive_c", 4),
                ("hive_d", 4),
                ("hive_e", 2),
                ("factory_f", 2),
            )
        )
    )
    legal = list(RULESET.legal_commands(g.state, "imperials"))
    assert [x for x in legal if isinstance(x, c.Place)] == [
        c.Place(player="imperials", counter="riders-1", to="hive_a")
    ]
    assert choose(g.state, "imperials", legal) == c.EndPhase(player="imperials")
