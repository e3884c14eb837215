"""The invariants of every Heroic Battles state at rest, as an assertion: the ruleset declares
them (``domain/heroic_battles/invariants.py``); the generic Hypothesis state machine calls
``check_invariants`` after every step."""

from __future__ import annotations

from warlog.domain.heroic_battles.invariants import violations
from warlog.domain.heroic_battles.state import GameState


def check_invariants(state: GameState) -> None:
    broken = violations(state)
    assert not broken, "; ".join(v.line() for v in broken)
