"""The melee being fought and who fights in it.

Its fighting heroes (HB-17), the units that may support it (HB-35), the Inspiring heroes out of a
melee, and the order the sides declare in.
"""

from __future__ import annotations

from warlog.domain.heroic_battles import pieces, rulings
from warlog.domain.heroic_battles.state import Combat, GameState, Hero, MeleeFrame, Unit


def fighting_heroes(state: GameState, c: Combat, force: str) -> list[Hero]:
    """The heroes of ``force`` who add their dice to melee ``c``: not those who fought a single
    combat this phase, nor those who refused a challenge (HB-17)."""
    return [h for h in pieces.heroes_in(state, c, force) if not h.dueled and not h.refused]


def supporters(state: GameState, force: str) -> list[Unit]:
    """Units of ``force`` that may be declared in support: on the table, not in a melee."""
    return [
        u
        for u in state.units.values()
        if u.force == force and rulings.may_support(bool(u.gone), pieces.in_melee(state, u.id))
    ]


def inspirers(state: GameState, force: str) -> list[Hero]:
    """Inspiring heroes of ``force`` not in a melee, with a Mighty Deed (trait, p.72)."""
    return [
        h
        for h in state.heroes.values()
        if h.force == force
        and not h.gone
        and h.deeds > 0
        and pieces.has(h, "inspiring")
        and not pieces.in_melee(state, h.id)
    ]


def melee_turn_order(state: GameState, c: Combat) -> list[str]:
    """The sides in the order they declare: the phasing force first."""
    return sorted(c.sides, key=lambda f: f != state.phasing)


def melee_frame(state: GameState) -> MeleeFrame:
    """The frame of the melee being fought."""
    frame = state.frames[-1]
    assert isinstance(frame, MeleeFrame)
    return frame


def melee_combat(state: GameState, frame: MeleeFrame) -> Combat:
    """The combat of the melee being fought; an empty one once it is gone from the table."""
    found = pieces.combat(state, frame.combat)
    return found if found is not None else Combat(id=frame.combat, sides={})
