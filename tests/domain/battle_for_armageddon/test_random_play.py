"""Random legal play: decide accepts every legal command, evolve never mutates its input, the
invariants hold after every step, and the state round-trips through msgpack. Autoplay finishes."""

from __future__ import annotations

import random

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.domain.battle_for_armageddon.helpers import proving_ground, second_war
from tests.domain.battle_for_armageddon.invariants import check_invariants
from warlog.domain.battle_for_armageddon.autoplay import choose
from warlog.domain.battle_for_armageddon.ruleset import RULESET
from warlog.domain.battle_for_armageddon.scenario import Scenario
from warlog.domain.battle_for_armageddon.state import GameState
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
