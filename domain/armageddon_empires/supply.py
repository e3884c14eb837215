"""Supply: range 4 by path cost from non-besieged strongholds and outposts (p.26, p.30; AE-12).

An army is in supply when a path from one of its empire's sources reaches its hex with summed
movement costs (R12) ≤ the supply range (+ its hero's Raider X), entering no enemy-held hex.
Out of supply at the start of its turn, it may move only one hex (p.30), unless it is hero-only
(p.30) or all its units are Commando (p.46).
"""

from __future__ import annotations

from warlog.domain.armageddon_empires import paths
from warlog.domain.armageddon_empires.abilities import COMMANDO, MOBILE_SUPPLY, RAIDER, has, level
from warlog.domain.armageddon_empires.control import enemy_held, sieges_as_seen
from warlog.domain.armageddon_empires.guards import BASE_KINDS
from warlog.domain.armageddon_empires.state import Army, Base, GameState


def is_besieged(state: GameState, base: Base) -> bool:
    """A base with a combat-capable enemy army that is not stealthed in its hex (p.26; AE-35):
    since version 24 one that the base's empire has seen there this round so, holding a unit
    card and not stealthed, since every reader of the siege is that empire's (its supply, its
    prisoners' AP, its repairs, its launch points, interceptions and captives) and must not tell
    it of a change it has not seen (``control.SIEGES_AS_SEEN_SINCE``; AE-56)."""
    if sieges_as_seen(state):
        return any(
            s.at == base.at and s.units and not s.stealthed
            for s in state.sightings.get(base.empire, {}).values()
        )
    return any(
        a.at == base.at and a.empire != base.empire and a.combat_capable and not a.stealthed
        for a in state.armies.values()
    )


def supply_sources(state: GameState, empire: str) -> list[Base]:
    """The empire's strongholds and outposts that are not besieged (p.24, p.26)."""
    return [
        b
        for b in state.bases.values()
        if b.empire == empire and b.kind in BASE_KINDS and not is_besieged(state, b)
    ]


def supply_costs(state: GameState, empire: str, budget: int) -> dict[str, int]:
    """Hex → the least path cost from any source of ``empire``, for costs ≤ ``budget``."""
    sources = [b.at for b in supply_sources(state, empire)]
    return paths.costs_from(state.board, enemy_held(state, empire), sources, budget)


def raider(state: GameState, army: Army) -> int:
    """Raider X of the army's hero: +X supply range for that army (p.45)."""
    return 0 if army.hero is None else level(state.card(army.hero).abilities, RAIDER)


def out_of_supply(state: GameState, empire: str) -> tuple[str, ...]:
    """The ids of the empire's field armies that are out of supply now, sorted."""
    field = [a for a in state.armies.values() if a.empire == empire and a.garrison_of is None]
    if not field:
        return ()
    srange = state.empires[empire].supply_range
    ranges = [srange + raider(state, a) for a in field]  # each army's supply range
    costs = supply_costs(state, empire, max(ranges))
    mobile = {
        a.at
        for a in state.armies.values()
        if a.empire == empire and any(has(state.card(c).abilities, MOBILE_SUPPLY) for c in a.units)
    }
    out = [
        a.id
        for a, reach in zip(field, ranges, strict=True)
        if costs.get(a.at, reach + 1) > reach and a.at not in mobile
    ]
    return tuple(sorted(out))


def move_limited(state: GameState, army: Army) -> bool:
    """True if the army may move only one hex this turn: out of supply at turn start (p.30),
    with units (hero-only armies are exempt, p.30), not all of them Commando (p.46)."""
    if army.id not in state.empires[army.empire].out_of_supply or not army.units:
        return False
    return not all(has(state.card(u).abilities, COMMANDO) for u in army.units)
