"""Whole games for the tests: autoplay or chosen moves from the bundled scenario."""

from __future__ import annotations

import importlib.resources
from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from warlog.domain.armageddon_empires.autoplay import choose
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.scenario import Scenario
from warlog.domain.armageddon_empires.scenario_checks import bundled, parse_scenario
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.dice import SeededDice
from warlog.domain.core.events import Event

BUNDLED = "cinder-and-glass"

Chooser = Callable[[GameState, str, list[Any]], Any]


#: independent minefields (AE-67) on the roads the policy's armies take early in a game of the
#: bundled scenario (blue's from its 5th command, red's from its 15th; seed 0), of its
#: ``glass-caltrops`` card
INDEPENDENT_AT = {"dust-a": "3,4", "dust-b": "3,6", "dust-c": "2,7"}


def independent_minefields_text() -> str:
    """The bundled scenario's file, its set-up hidden (as a custom one's), with independent
    minefields at ``INDEPENDENT_AT``."""
    package = importlib.resources.files("warlog.domain.armageddon_empires.scenarios")
    text = package.joinpath(f"{BUNDLED}.toml").read_text(encoding="utf-8")
    text = text.replace("public_setup = true\n", "")
    for mine, at in INDEPENDENT_AT.items():
        text += f'\n[[minefields]]\nid = "{mine}"\nat = "{at}"\ncard = "glass-caltrops"\n'
    return text


def with_independent_minefields() -> Scenario:
    """``independent_minefields_text``'s scenario."""
    return parse_scenario(independent_minefields_text())


def dice_for(seed: int, seq: int) -> SeededDice:
    return SeededDice(seed.to_bytes(32, "big"), "test", "", seq)


def play(
    seed: int = 0,
    chooser: Chooser = choose,
    max_commands: int = 5000,
    scenario: Scenario | None = None,
) -> Iterator[tuple[GameState, Any, list[Event], GameState]]:
    """Yield ``(before, command, events, after)`` for every command of a game of ``scenario``
    (the bundled one unless told) until it is over (or ``max_commands``)."""
    state = RULESET.initial_state(bundled(BUNDLED) if scenario is None else scenario)
    seq = 2
    for _ in range(max_commands):
        if RULESET.is_terminal(state):
            return
        player = RULESET.active_players(state)[0]
        command = chooser(state, player, RULESET.legal_commands(state, player))
        events = RULESET.decide(state, command, dice_for(seed, seq))
        seq += 1 + len(events)
        after = state
        for event in events:
            after = RULESET.evolve(after, event)
        yield state, command, events, after
        state = after


def encoded(state: GameState) -> bytes:
    return msgspec.msgpack.encode(state)
