"""Random games: whatever the choices, every listed command is accepted, evolve is pure, and
the invariants hold (Hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.domain.armageddon_empires.games import (
    dice_for,
    encoded,
    play,
    with_independent_minefields,
)
from tests.domain.armageddon_empires.invariants import check_invariants
from warlog.domain.armageddon_empires.autoplay import choose
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.state import GameState


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_random_choices_only_meet_accepted_commands_and_pure_evolves(
    data: st.DataObject, seed: int
) -> None:
    def chooser(state: GameState, player: str, legal: list[Any]) -> Any:
        assert legal, f"{player} is active but has no legal command"
        for command in legal:
            RULESET.decide(state, command, dice_for(seed, 7))  # raises if listed but illegal
        if data.draw(st.booleans(), label="autoplay"):
            return choose(state, player, legal)
        return legal[data.draw(st.integers(0, len(legal) - 1), label="pick")]

    for before, _, events, after in play(seed=seed, chooser=chooser, max_commands=60):
        snapshot = encoded(before)
        state = before
        for event in events:
            state = RULESET.evolve(state, event)
        assert encoded(before) == snapshot, "evolve changed its input"
        assert state == after
        check_invariants(after)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_random_choices_among_independent_minefields_keep_the_invariants(
    data: st.DataObject, seed: int
) -> None:
    """The same, in the bundled scenario with independent minefields on its roads (AE-67)."""

    def chooser(state: GameState, player: str, legal: list[Any]) -> Any:
        if data.draw(st.booleans(), label="autoplay"):
            return choose(state, player, legal)
        return legal[data.draw(st.integers(0, len(legal) - 1), label="pick")]

    scenario = with_independent_minefields()
    for before, _, events, after in play(seed, chooser, max_commands=80, scenario=scenario):
        state = before
        for event in events:
            state = RULESET.evolve(state, event)
        assert state == after
        check_invariants(after)
