"""The movement phase: counters move up to their Move in areas; stacking counts at the end.

seed 003 "Movement Phase" and "Terrain Effects"; BFA-2 for a phase that ends over the limits.
"""

from __future__ import annotations

from warlog.domain.battle_for_armageddon import board
from warlog.domain.battle_for_armageddon.commands import Move
from warlog.domain.battle_for_armageddon.losses import eliminate
from warlog.domain.battle_for_armageddon.movement_events import CounterMoved
from warlog.domain.battle_for_armageddon.state import Counter, GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import quoted, reject

#: BFA-2: why a counter leaves the map when its area is over the limits as the phase ends
OVERSTACKED = "overstacked at the end of the movement phase (BFA-2)"
#: BFA-2 and BFA-12 (since version 8): why a counter placed over the limits in a build phase
#: leaves the map when its area is still over them as the Imperials' next movement phase ends
PLACED_OVERSTACKED = (
    "placed over the stacking limits in the build phase and still overstacked at the end of the "
    "movement phase (BFA-12, BFA-2)"
)


def budget(state: GameState, counter: Counter) -> int:
    """The areas the counter may move this phase: its Move plus any card bonus (none for Move 0)."""
    base = board.move_of(state, counter)
    return base + state.move_bonus if base > 0 else 0


def movable(state: GameState, player: str) -> list[Counter]:
    """The counters of ``player`` that may still move this phase."""
    return [
        x
        for x in state.counters.values()
        if x.side == player and board.on_map(x) and x.id not in state.moved and budget(state, x) > 0
    ]


def move(batch: Batch[GameState], cmd: Move) -> None:
    state = batch.state
    counter = state.counters.get(cmd.counter)
    if counter is None:
        raise reject(f"there is no counter {quoted(cmd.counter)}", "unknown_counter")
    if counter.side != cmd.player:
        raise reject(
            f"{cmd.counter} is a counter of the {counter.side}: the {cmd.player} cannot move it",
            "not_your_counter",
        )
    if not board.on_map(counter):
        raise reject(f"{cmd.counter} is not on the map ({counter.location})", "cannot_move")
    if counter.id in state.moved:
        raise reject(f"{cmd.counter} has already moved this phase", "already_moved")
    if budget(state, counter) <= 0:
        raise reject(f"{cmd.counter} has Move 0", "cannot_move")
    if not board.is_area(state, cmd.to):
        raise reject(f"there is no area {quoted(cmd.to)}", "unknown_area")
    paths = board.move_paths(state, counter, budget(state, counter))
    path = paths.get(cmd.to)
    if path is None:
        raise reject(
            f"{cmd.counter} cannot reach {cmd.to} from {counter.location} with Move "
            f"{budget(state, counter)} (no mountains, sea or enemy-occupied areas; ash waste and "
            "jungle stop a move)",
            "unreachable",
        )
    batch.emit(CounterMoved(counter=counter.id, from_area=counter.location, to=cmd.to, path=path))


def destinations(state: GameState, counter: Counter) -> list[str]:
    """Where the counter may move and still be within stacking (what ``legal`` offers)."""
    return [
        a
        for a in board.move_paths(state, counter, budget(state, counter))
        if board.fits(state, a, [counter])
    ]


def enforce_stacking(batch: Batch[GameState], player: str) -> None:
    """BFA-2: at the end of the movement phase an area over the limits loses the counters that
    moved in last (first those of a second Ork tribe, then the excess) until it is within them.

    Since version 8 (BFA-12, ``rules.BUILD_OVERSTACK_SINCE``) the counters placed over the limits
    in a build phase since the Imperials' last movement phase arrived before those that moved in
    this phase: they are lost after them, the last placed first, until the area is within them.
    """
    state = batch.state
    areas = sorted(
        {x.location for x in state.counters.values() if x.side == player and board.on_map(x)}
    )
    for area in areas:
        stack = board.counters_in(batch.state, area, player)
        if board.stacking_problem(batch.state, area, stack) is None:
            continue
        moved_here = [
            cid for cid in batch.state.moved if batch.state.counters[cid].location == area
        ]
        stayed = [x for x in stack if x.id not in moved_here and x.tribe]
        keep = (
            stayed[0].tribe
            if stayed
            else next(
                (
                    batch.state.counters[c].tribe
                    for c in moved_here
                    if batch.state.counters[c].tribe
                ),
                "",
            )
        )
        for cid in reversed(moved_here):
            x = batch.state.counters[cid]
            if x.tribe and x.tribe != keep:
                eliminate(batch, cid, OVERSTACKED)
        placed_here = [
            cid
            for cid in batch.state.overstacked
            if batch.state.counters[cid].location == area and cid not in moved_here
        ]
        for cid in reversed([*placed_here, *moved_here]):
            stack = board.counters_in(batch.state, area, player)
            if board.stacking_problem(batch.state, area, stack) is None:
                break
            reason = OVERSTACKED if cid in moved_here else PLACED_OVERSTACKED
            x = batch.state.counters[cid]
            while x.location == area and board.counts_for_stacking(batch.state, x):
                eliminate(batch, cid, reason)
                x = batch.state.counters[cid]
