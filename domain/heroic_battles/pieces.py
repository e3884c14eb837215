"""Units and heroes on the table: finding them, whose they are, who is with whom, who is in a melee.

A **piece** is what stands on the table on its own: a unit, or a hero not attached to a unit. An
attached hero goes where its unit goes. Lookups that name a piece raise a RulesError with a
stable ``rules/...`` code when the name is wrong, so that no odd input escapes as a KeyError.
"""

from __future__ import annotations

from collections.abc import Iterator

from warlog.domain.core.errors import RulesError, quoted, reject
from warlog.domain.heroic_battles import tables
from warlog.domain.heroic_battles.state import Combat, GameState, Hero, Unit

Piece = Unit | Hero


def piece(state: GameState, pid: str) -> Piece | None:
    """The unit or hero ``pid`` (on the table or not), or None."""
    found: Piece | None = state.units.get(pid)
    return found if found is not None else state.heroes.get(pid)


def find(state: GameState, pid: str, what: str = "unit or hero") -> Piece:
    """The unit or hero ``pid``; ``rules/unknown_unit`` if there is none."""
    found = piece(state, pid)
    if found is None:
        raise reject(f"there is no {what} {quoted(pid)} in this battle", "unknown_unit")
    return found


def find_hero(state: GameState, hid: str) -> Hero:
    """The hero ``hid``; ``rules/unknown_hero`` if there is none."""
    found = state.heroes.get(hid)
    if found is None:
        raise reject(f"there is no hero {quoted(hid)} in this battle", "unknown_hero")
    return found


def own(p: Piece, player: str, verb: str) -> RulesError | None:
    """``rules/not_your_unit`` if ``player`` does not command ``p``; ``rules/gone`` if it has
    left the table."""
    if p.force != player:
        return reject(f"{p.id} belongs to {p.force}: {player} cannot {verb} it", "not_your_unit")
    if p.gone:
        return reject(f"{p.id} is no longer on the table ({p.gone})", "gone")
    return None


def opponent(state: GameState, force: str) -> str:
    return state.defender if force == state.attacker else state.attacker


def forces(state: GameState) -> tuple[str, str]:
    """The two forces, attacker first."""
    return (state.attacker, state.defender)


def has(p: Piece, trait: str) -> bool:
    return trait in p.traits


def is_unit(p: Piece) -> bool:
    return isinstance(p, Unit)


def standing(p: Piece) -> bool:
    """On the table as a piece of its own: a unit, or an unattached hero, not gone."""
    if p.gone:
        return False
    return isinstance(p, Unit) or not p.unit


def pieces(state: GameState, force: str | None = None) -> Iterator[Piece]:
    """Every unit and unattached hero on the table (of ``force``), units first, scenario order."""
    for u in state.units.values():
        if not u.gone and (force is None or u.force == force):
            yield u
    for h in state.heroes.values():
        if standing(h) and (force is None or h.force == force):
            yield h


def attached(state: GameState, uid: str) -> list[Hero]:
    """The heroes on the table attached to unit ``uid``."""
    return [h for h in state.heroes.values() if h.unit == uid and not h.gone]


def on_table_count(state: GameState, force: str) -> int:
    """Units and heroes of ``force`` still on the table."""
    units = sum(1 for u in state.units.values() if u.force == force and not u.gone)
    return units + sum(1 for h in state.heroes.values() if h.force == force and not h.gone)


def combat(state: GameState, cid: str) -> Combat | None:
    for c in state.combats:
        if c.id == cid:
            return c
    return None


def combat_of(state: GameState, pid: str) -> Combat | None:
    """The melee ``pid`` fights in (an attached hero: its unit's), or None."""
    p = piece(state, pid)
    if isinstance(p, Hero) and p.unit:
        pid = p.unit
    for c in state.combats:
        if any(pid in side for side in c.sides.values()):
            return c
    return None


def in_melee(state: GameState, pid: str) -> bool:
    return combat_of(state, pid) is not None


def engaged(c: Combat) -> bool:
    """Both sides of the melee still have a fighter."""
    return len(c.sides) == 2 and all(c.sides.values())


def fighters(c: Combat, force: str) -> tuple[str, ...]:
    return c.sides.get(force, ())


def heroes_in(state: GameState, c: Combat, force: str) -> list[Hero]:
    """The heroes of ``force`` in melee ``c``: attached to its fighters or fighting on their own."""
    out: list[Hero] = []
    for fid in fighters(c, force):
        p = piece(state, fid)
        if isinstance(p, Hero):
            out.append(p)
        else:
            out.extend(attached(state, fid))
    return [h for h in out if not h.gone]


def at_half_strength(u: Unit) -> bool:
    """Half or less of its original stamina left."""
    return u.stamina * 2 <= u.max_stamina


def full_strength(u: Unit) -> bool:
    return u.stamina >= u.max_stamina


def armour_against_shooting(p: Piece) -> int:
    if isinstance(p, Unit):
        return p.shooting_armour or p.armour
    return p.armour


def move_half_st(p: Piece) -> int:
    """One movement action, in half ST (p.30): by unit type; heroes on foot 1 ST, mounted 2 ST;
    Flying units and heroes 4 ST."""
    if has(p, "flying"):
        return tables.FLYING_HALF_ST
    if isinstance(p, Unit):
        return tables.MOVE_HALF_ST[p.type]
    return tables.MOUNTED_HALF_ST if has(p, "mounted") else tables.HERO_ON_FOOT_HALF_ST


def free_mover(p: Piece) -> bool:
    """Moves its full distance in any direction (Skirmishers, Light Riders, heroes)."""
    return isinstance(p, Hero) or p.type in tables.FREE_MOVERS


def commander(state: GameState, force: str) -> Hero | None:
    """The force's Army Commander on the table, if any."""
    for h in state.heroes.values():
        if h.force == force and not h.gone and has(h, "army_commander"):
            return h
    return None


def with_commander(state: GameState, pid: str) -> bool:
    """``pid`` is its force's Army Commander, or a unit it is attached to."""
    p = piece(state, pid)
    if p is None:
        return False
    ac = commander(state, p.force)
    return ac is not None and (ac.id == pid or ac.unit == pid)


def deeds_heroes(state: GameState, force: str) -> list[Hero]:
    """The force's heroes on the table with a Mighty Deed left."""
    return [h for h in state.heroes.values() if h.force == force and not h.gone and h.deeds > 0]
