"""Bases that change hands or fall (p.15, p.18, p.24, p.34; AE-34), and damage that may raze one.

- **Capture** (p.18, p.34; AE-34): a stronghold or outpost is captured by the winner of a battle
  in its hex, or on entry by a combat-capable enemy army when no army there can defend it. Its
  card and facilities go to the captor (a captured HQ must be retaken by the end of the turn,
  p.15; AE-10); a hero in its garrison (which has no unit left) is taken prisoner there; the
  captor's own heroes held there go free; the captor raises a new, empty garrison.
- **Razing** (AE-34): a base whose own card is destroyed (by an air strike or a weapon of mass
  destruction) is razed: its facilities are discarded, the heroes held there go free, and its
  garrison becomes an army in the field. A razed HQ is lost for good (p.15).
- **Freed heroes** go back to their empire's hand, or to its discard pile if the hand is full.
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.battle_events import BaseCaptured
from warlog.domain.armageddon_empires.state import Base, GameState
from warlog.domain.core.batch import Batch


def base_of_card(state: GameState, card: str) -> Base | None:
    """The base whose own card (stronghold or outpost) ``card`` is."""
    return next((b for b in state.bases.values() if b.card == card), None)


def capture_base(batch: Batch[GameState], base: Base, captor: str, battle: int = 0) -> None:
    """``base_captured`` (module doc)."""
    state = batch.state
    garrison = state.armies.get(base.garrison)
    taken = () if garrison is None or garrison.hero is None else (garrison.hero,)
    freed = tuple(p for p in base.prisoners if state.instances[p].owner == captor)
    batch.emit(
        BaseCaptured(
            base=base.id,
            empire=captor,
            previous=base.empire,
            at=base.at,
            taken=taken,
            freed=freed,
            battle=battle,
        )
    )
