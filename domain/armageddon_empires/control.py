"""Hex control: who holds each hex (AE-5: a base, or the armies that are not stealthed).

A base (stronghold, outpost) controls its hex even with no army (p.18). Otherwise the empire
whose armies that are not stealthed stand in the hex controls it; stealthed armies control no
hex (p.27). A hex where armies of two empires stand unstealthed (a hunter with its prey, p.30) is
disputed: nobody controls it (AE-5).
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.state import GameState


def controllers(state: GameState) -> dict[str, str]:
    """``"q,r"`` → the empire that controls the hex; hexes nobody holds are absent."""
    out: dict[str, str] = {}
    disputed: set[str] = set()
    for army in state.armies.values():
        if army.stealthed:
            continue
        held = out.setdefault(army.at, army.empire)
        if held != army.empire:
            disputed.add(army.at)
    for at in disputed:
        del out[at]
    for base in state.bases.values():
        out[base.at] = base.empire
    return out


def enemy_held(state: GameState, empire: str) -> set[str]:
    """The hexes another empire controls: supply paths may not enter them (p.26), nor moves
    that know of them (AE-17)."""
    return {at for at, owner in controllers(state).items() if owner != empire}


def disputed(state: GameState, empire: str, at: str) -> bool:
    """True if an enemy army that is not stealthed stands in hex ``at`` (p.34: a disputed hex)."""
    return any(a.at == at and a.empire != empire and not a.stealthed for a in state.armies.values())
