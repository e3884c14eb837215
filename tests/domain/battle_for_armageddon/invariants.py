"""The invariants of every Battle for Armageddon state at rest, as an assertion: the ruleset
declares them (``domain/battle_for_armageddon/invariants.py``); the generic Hypothesis state
machine and the random-play tests call ``check_invariants`` after every step."""

from __future__ import annotations

from warlog.domain.battle_for_armageddon.invariants import violations
from warlog.domain.battle_for_armageddon.state import GameState


def check_invariants(state: GameState) -> None:
    broken = violations(state)
    assert not broken, "; ".join(v.line() for v in broken)
