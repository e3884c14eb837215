"""The build phase: Imperial build points, the production track and placement; Ork rebuilds.

seed 003 "Build Phase" (Imperial and Orc), "First Turn Surprise" (build points halved).
"""

from __future__ import annotations

import msgspec

from warlog.domain.battle_for_armageddon import board
from warlog.domain.battle_for_armageddon.build_events import (
    BuildPointsCounted,
    CounterBuilt,
    CounterPlaced,
    CounterRebuilt,
    ProductionAdvanced,
    RebuildsCounted,
)
from warlog.domain.battle_for_armageddon.commands import Build, Place, Rebuild
from warlog.domain.battle_for_armageddon.rules import (
    BUILD_OVERSTACK_SINCE,
    FIRST_TURN,
    FIRST_TURN_BUILD_DIVISOR,
    IMPERIALS,
    ORKS,
    POOL,
    READY,
    RUINS_PER_ORK_REBUILD,
    STACKING,
    TRACK,
)
from warlog.domain.battle_for_armageddon.state import Counter, GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import quoted, reject


def begin(batch: Batch[GameState], player: str) -> None:
    """Count what the build phase gives: Imperial build points or Ork rebuilds."""
    state = batch.state
    if player == IMPERIALS:
        track = board.build_track(state)
        halved = state.turn == FIRST_TURN
        points = track // FIRST_TURN_BUILD_DIVISOR if halved else track
        sites = [s.id for s in state.sites.values() if not s.ruined]
        batch.emit(BuildPointsCounted(points=points, track=track, halved=halved, sites=sites))
    else:
        ruins = garrisoned_ruins(state)
        batch.emit(RebuildsCounted(rebuilds=len(ruins) // RUINS_PER_ORK_REBUILD, ruins=ruins))


def garrisoned_ruins(state: GameState) -> list[str]:
    """Smoking ruins with an Ork counter on them (seed 003: the ruins the Orks control)."""
    return [
        s.id
        for s in state.sites.values()
        if s.ruined and any(x.side == ORKS for x in board.counters_in(state, s.area))
    ]


# -- Imperial -----------------------------------------------------------------------------------


def buildable(state: GameState) -> list[Counter]:
    """Imperial counters off the map that the build table lists and the points can pay for."""
    out: list[Counter] = []
    for x in state.counters.values():
        if x.side != IMPERIALS or x.location != POOL:
            continue
        cost = board.ctype(state, x).cost
        if cost is not None and cost <= state.build_points:
            out.append(x)
    return out


def build(batch: Batch[GameState], cmd: Build) -> None:
    state = batch.state
    counter = state.counters.get(cmd.counter)
    if counter is None:
        raise reject(f"there is no counter {quoted(cmd.counter)}", "unknown_counter")
    t = board.ctype(state, counter)
    if counter.side != IMPERIALS or t.cost is None:
        raise reject(
            f"{cmd.counter} is not on the build table (rules: Build Phase, Imperial)",
            "not_buildable",
        )
    if counter.location != POOL:
        raise reject(
            f"{cmd.counter} is not set aside or destroyed ({counter.location})", "not_buildable"
        )
    if t.cost > state.build_points:
        raise reject(
            f"{t.name} costs {t.cost}; {state.build_points} build points left", "cannot_afford"
        )
    assert t.production is not None
    batch.emit(
        CounterBuilt(
            counter=counter.id,
            cost=t.cost,
            points_left=state.build_points - t.cost,
            spaces=t.production,
        )
    )


def finish_building(batch: Batch[GameState]) -> None:
    """seed 003: unspent points are lost; every counter on the track moves one space to READY."""
    state = batch.state
    spaces: dict[str, int] = {}
    ready: list[str] = []
    for x in state.counters.values():
        if x.location != TRACK:
            continue
        if x.track <= 1:
            ready.append(x.id)
        else:
            spaces[x.id] = x.track - 1
    batch.emit(ProductionAdvanced(spaces=spaces, ready=ready, lost=state.build_points))


def placements(state: GameState, counter: Counter) -> list[str]:
    """seed 003: READY counters go onto a hive or factory (BFA-12: one still standing), within
    stacking in games begun under version 7 and before, over it too since version 8
    (``rules.BUILD_OVERSTACK_SINCE``)."""
    overstack = state.rules_version >= BUILD_OVERSTACK_SINCE
    return [
        s.area
        for s in state.sites.values()
        if not s.ruined
        and not board.enemy_occupied(state, s.area, IMPERIALS)
        and (overstack or board.fits(state, s.area, [counter]))
    ]


def place(batch: Batch[GameState], cmd: Place) -> None:
    state = batch.state
    counter = state.counters.get(cmd.counter)
    if counter is None:
        raise reject(f"there is no counter {quoted(cmd.counter)}", "unknown_counter")
    if counter.side != IMPERIALS or counter.location != READY:
        raise reject(f"{cmd.counter} is not in the READY box", "not_ready")
    if cmd.to not in placements(state, counter):
        if state.rules_version >= BUILD_OVERSTACK_SINCE:
            room = ""
        else:
            room = f" with room in its stack{_crowding(state, cmd.to, counter, STACKING)}"
        raise reject(
            f"{cmd.counter} cannot be placed in {board.area_named(state, cmd.to)}: it must be an "
            f"intact hive or factory{room} (rules: Build Phase, Imperial; BFA-12)",
            "bad_place",
        )
    stack = [*board.counters_in(state, cmd.to, IMPERIALS), counter]
    problem = board.stacking_problem(state, cmd.to, stack)
    batch.emit(
        CounterPlaced(
            counter=counter.id,
            area=cmd.to,
            reason="from the READY box",
            overstacking=msgspec.UNSET if problem is None else problem,
        )
    )


def _crowding(state: GameState, area: str, counter: Counter, rule: str) -> str:
    """Why ``counter`` would break stacking in ``area`` with its side's stack there, as a
    parenthesis for a refusal citing ``rule``, or "" (no such area, or room). The fortification
    cap, where the game's version keeps it, cites BFA-9 in the problem itself."""
    if not board.is_area(state, area):
        return ""
    stack = [*board.counters_in(state, area, counter.side), counter]
    problem = board.stacking_problem(state, area, stack)
    return f" ({problem}; {rule})" if problem else ""


# -- Ork ----------------------------------------------------------------------------------------


def rebuildable(state: GameState) -> list[Counter]:
    """Destroyed Ork counters (Ghazghkull is never rebuilt, seed 003)."""
    return [
        x
        for x in state.counters.values()
        if x.side == ORKS and x.location == POOL and not board.is_leader(state, x)
    ]


def rebuild_areas(state: GameState, counter: Counter) -> list[str]:
    """seed 003: on a garrisoned smoking ruin or an Ork supply area, within stacking."""
    ruins = {state.sites[s].area for s in garrisoned_ruins(state)}
    candidates = [a.id for a in state.scenario.areas if a.id in ruins or a.supply == ORKS]
    return [
        a for a in candidates if board.open_to(state, a, ORKS) and board.fits(state, a, [counter])
    ]


def rebuild(batch: Batch[GameState], cmd: Rebuild) -> None:
    state = batch.state
    if state.rebuilds <= 0:
        raise reject(
            "no Ork rebuild left this phase (one per 2 garrisoned ruins, and a card's extra "
            "rebuilds; rules: Build Phase, Ork)",
            "no_rebuilds",
        )
    counter = state.counters.get(cmd.counter)
    if counter is None:
        raise reject(f"there is no counter {quoted(cmd.counter)}", "unknown_counter")
    if counter not in rebuildable(state):
        raise reject(
            f"{cmd.counter} is not a destroyed Ork counter that can be rebuilt", "not_buildable"
        )
    if cmd.to not in rebuild_areas(state, counter):
        why = _crowding(state, cmd.to, counter, STACKING)
        raise reject(
            f"{cmd.counter} cannot be rebuilt in {board.area_named(state, cmd.to)}: it must be a "
            "garrisoned smoking ruin or "
            f"an Ork supply area, free of Imperials, with room in its stack{why} (rules: Build "
            "Phase, Ork)",
            "bad_place",
        )
    batch.emit(CounterRebuilt(counter=counter.id, area=cmd.to))
