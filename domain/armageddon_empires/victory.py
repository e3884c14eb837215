"""Victory: capture or destroy the enemy HQ (p.15); in this version, also the last round (AE-10)."""

from __future__ import annotations

from warlog.domain.armageddon_empires.state import GameState


def without_hq(state: GameState) -> list[str]:
    """The empires that no longer hold a stronghold (the HQ card, p.15), in seat order.

    Without battles an HQ cannot fall yet; the check is here so that the end is in one place.
    """
    holding = {b.empire for b in state.bases.values() if b.kind == "stronghold"}
    return [e for e in state.seats if e not in holding]


def is_over(state: GameState) -> bool:
    """True once the game is over (``game_ended``) or an empire has lost its HQ."""
    return state.phase == "over" or bool(without_hq(state))
