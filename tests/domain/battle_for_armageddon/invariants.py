"""Invariants of every Battle for Armageddon state at rest (after a whole command's batch).

``check_invariants(state)`` raises AssertionError naming what is broken; the generic Hypothesis
state machine calls it after every step.
"""

from __future__ import annotations

from collections import Counter as Tally

from warlog.domain.battle_for_armageddon import board, results
from warlog.domain.battle_for_armageddon.rules import (
    ACTION_SEGMENTS,
    LAST_TURN,
    OFF_MAP,
    ORKS,
    PHASES,
    PLAYERS,
    POOL,
    TRACK,
)
from warlog.domain.battle_for_armageddon.scenario import IMPASSABLE
from warlog.domain.battle_for_armageddon.state import GameState
from warlog.domain.core.procedure import Decision


def check_invariants(state: GameState) -> None:
    sc = state.scenario
    areas = {a.id: a for a in sc.areas}
    # every counter of the scenario is in exactly one place, a known one
    assert sorted(state.counters) == sorted(x.id for x in sc.counters), "counters lost or invented"
    for cid, x in state.counters.items():
        assert x.id == cid
        assert x.location in areas or x.location in OFF_MAP, f"{cid} is nowhere: {x.location!r}"
        if x.location in areas:
            assert areas[x.location].terrain not in IMPASSABLE, f"{cid} stands in {x.location}"
        assert (x.track >= 1) == (x.location == TRACK), f"{cid}: track {x.track} at {x.location}"
        assert not x.reduced or board.role(state, x) == "chapter", f"{cid} reduced but no chapter"
        if board.is_leader(state, x) and x.side == ORKS:
            assert x.location != POOL, "Ghazghkull can never be rebuilt"
    assert sorted(state.sites) == sorted(s.id for s in sc.sites)
    # no area holds both sides; stacking holds outside a movement phase (it counts at its end)
    for a in areas:
        imperial = board.occupied_by(state, a, "imperials")
        assert not (imperial and board.occupied_by(state, a, ORKS)), f"both sides in {a}"
        if state.phase != "movement":
            for side in PLAYERS:
                problem = board.stacking_problem(state, a, board.counters_in(state, a, side))
                assert problem is None, problem
    # special cards: each side's cards are in exactly one of deck, hand, discards
    for side in PLAYERS:
        mine = Tally(c.id for c in sc.special_cards if c.side == side)
        held = Tally([*state.decks[side], *state.hands[side], *state.discards[side]])
        assert held == mine, f"{side} special cards: {held} != {mine}"
    assert state.build_points >= 0 and state.rebuilds >= 0
    assert 1 <= state.turn <= LAST_TURN
    assert (state.stage == "over") == bool(state.result)
    if state.stage == "action":
        assert state.phasing in PLAYERS and 1 <= state.segment <= ACTION_SEGMENTS
        assert state.phase in (*PHASES, "")
        assert set(state.choices) == set(PLAYERS)
    if state.combat is not None:
        assert state.stage == "action" and state.phase == "combat"
        waiting = results.combat_next(state, state.combat)
        assert isinstance(waiting, Decision), "a combat step was left undone"
    if state.build_step:
        assert state.phase == "build"
