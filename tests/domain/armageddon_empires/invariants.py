"""The invariants of every Armageddon Empires state at rest, as an assertion: the ruleset
declares them (``domain/armageddon_empires/invariants.py``); the generic Hypothesis state machine
and the random-play tests call ``check_invariants`` after every step."""

from __future__ import annotations

from warlog.domain.armageddon_empires.invariants import violations
from warlog.domain.armageddon_empires.state import GameState


def check_invariants(state: GameState) -> None:
    broken = violations(state)
    assert not broken, "; ".join(v.line() for v in broken)
