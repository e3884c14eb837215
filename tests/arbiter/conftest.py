"""An arbiter on a memory store with a dice race created and a few commands played."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from tests.eventstore.conftest import SEED, fixed_clock
from tests.toy import SCENARIO, rulesets
from warlog.arbiter.application import Arbiter
from warlog.eventstore.memory_store import MemoryStore


def roll(player: str, count: int = 3) -> str:
    return json.dumps({"type": "roll", "player": player, "count": count})


def play(arb: Arbiter, game: str, commands: int) -> None:
    """Play ``commands`` rolls, each by the player whose turn it is."""
    for _ in range(commands):
        state = arb.state(game)
        arb.play(game, roll(state.players[state.turn]))


@pytest.fixture
def arb() -> Arbiter:
    """Snapshots every 4 events; the first key drawn is ``SEED``, each later one another."""
    keys = itertools.chain([SEED], (bytes([n]) * 32 for n in itertools.count(1)))
    return Arbiter(
        MemoryStore(), rulesets, clock=fixed_clock(), seeds=lambda: next(keys), snapshot_every=4
    )


@pytest.fixture
def race(arb: Arbiter, tmp_path: Path) -> str:
    """A dice race ``g1`` on ``arb``, three commands played (each a batch of a few events)."""
    scenario = tmp_path / "race.toml"
    scenario.write_bytes(SCENARIO)
    game = arb.new_game("dice-race", str(scenario), game="g1")
    play(arb, game, 3)
    return game
