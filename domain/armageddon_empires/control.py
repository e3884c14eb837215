"""Hex control: who holds each hex (AE-5: the empire with a base or an army there)."""

from __future__ import annotations

from warlog.domain.armageddon_empires.state import GameState


def controllers(state: GameState) -> dict[str, str]:
    """``"q,r"`` → the empire that controls the hex; hexes nobody holds are absent.

    A base (stronghold, outpost) controls its hex even with no army (p.18); otherwise an army
    does. Without battles two empires never share a hex, so there is no dispute to settle.
    """
    out: dict[str, str] = {}
    for army in state.armies.values():
        out[army.at] = army.empire
    for base in state.bases.values():
        out[base.at] = base.empire
    return out


def enemy_held(state: GameState, empire: str) -> set[str]:
    """The hexes another empire controls: supply paths and moves may not enter them."""
    return {at for at, owner in controllers(state).items() if owner != empire}
