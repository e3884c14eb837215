"""Victory: capture or destroy the enemy HQ (p.15); in this version, also the last round (AE-10).

AE-10: an empire that no longer holds its stronghold (the HQ card) may retake it until the end
of the turn (p.15); only then is it out. Play goes on in the meantime: the game is over only
once ``game_ended`` says so.
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.state import GameState


def without_hq(state: GameState) -> list[str]:
    """The empires that no longer hold their own stronghold (the HQ card, p.15), in seat order;
    an enemy's HQ captured does not stand for one's own. Checked at the end of each turn
    (``turns.end_turn``), never sooner (AE-10)."""
    holding = {
        b.empire
        for b in state.bases.values()
        if b.kind == "stronghold" and state.instances[b.card].owner == b.empire
    }
    return [e for e in state.seats if e not in holding]


def is_over(state: GameState) -> bool:
    """True once the game is over (``game_ended``): a lost HQ ends it only at the end of the
    turn (AE-10)."""
    return state.phase == "over"
