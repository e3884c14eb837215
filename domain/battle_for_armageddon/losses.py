"""Losing counters: where an eliminated counter goes, and chapters flipping to detachments.

seed 003: Marine Chapters flip to their detachment side when first eliminated and leave play for
good the second time; leaders (Ghazghkull, Yarrick, Dante) never return; Imperial counters the
build table does not list cannot be rebuilt; Ork counters return through Ork rebuilds.
"""

from __future__ import annotations

from warlog.domain.battle_for_armageddon import board
from warlog.domain.battle_for_armageddon.movement_events import ChapterReduced, CounterEliminated
from warlog.domain.battle_for_armageddon.rules import POOL, REMOVED
from warlog.domain.battle_for_armageddon.state import Counter, GameState
from warlog.domain.core.batch import Batch


def destination(state: GameState, counter: Counter) -> str:
    """Where an eliminated counter goes: the pool (rebuildable) or out of the game."""
    t = board.ctype(state, counter)
    if t.role in ("leader", "chapter"):
        return REMOVED
    if t.side == "imperials":
        return POOL if t.cost is not None else REMOVED
    return POOL


def outcome(state: GameState, counter: Counter) -> tuple[str, str]:
    """``(outcome, to)`` of eliminating the counter: ``("reduced", "")`` for a full chapter,
    ``("destroyed", "pool")`` or ``("removed", "removed")`` otherwise."""
    if board.role(state, counter) == "chapter" and not counter.reduced:
        return "reduced", ""
    to = destination(state, counter)
    return ("destroyed" if to == POOL else "removed"), to


def eliminate(batch: Batch[GameState], counter_id: str, reason: str) -> None:
    """Emit the elimination of one counter (a full chapter flips instead)."""
    counter = batch.state.counters[counter_id]
    what, to = outcome(batch.state, counter)
    if what == "reduced":
        batch.emit(ChapterReduced(counter=counter.id, area=counter.location, reason=reason))
    else:
        batch.emit(
            CounterEliminated(counter=counter.id, area=counter.location, reason=reason, to=to)
        )
