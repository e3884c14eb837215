"""Moving armies: movement points, terrain costs, AP per card, one move a turn (AE-11).

- Allowance: the lowest movement among the army's cards, + its hero's Leader X (p.17, p.23).
- Path: the cheapest path by terrain move cost (R12), crossing no hex the mover's empire knows
  to be enemy-held (AE-5, AE-17): an enemy base (public), or for an army that is not stealthed,
  an enemy army that is not stealthed and that its empire sees this round, unless an army of its
  own stands there unstealthed (the hex is disputed, AE-5). A combat-capable army
  that is not stealthed may end its move in such a hex: to fight there (p.33; AE-25) or to hunt
  a hero alone (p.30). A stealthed army passes enemy armies (p.27) and enters no enemy base.
- Contact (AE-17): an army that is not stealthed and walks into an enemy army its empire did not
  see (one that is not stealthed) stops in the hex before; both are seen. Where that hex is its
  destination and it is combat-capable, it enters it, as it would a hex it knew held (AE-25).
- Minefields (p.32; AE-51): an army that enters a hex holding another empire's minefield stops
  there and is attacked (``minefields``).
- Arrival (AE-25): the engagement its empire chooses when enemy armies there can fight, or the
  capture of an undefended enemy base (``battle.arrive``).
- AP: 1 per hero and unit card (R10, p.23), Rapid Reaction cards free, − Pathfinder X (p.45).
- An army moves at most once per turn (p.23); garrisons never move (AE-8); out of supply at the
  start of the turn it moves one hex at most (p.30, see supply.py).
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from warlog.domain.armageddon_empires import minefields, paths
from warlog.domain.armageddon_empires.abilities import (
    LEADER,
    PATHFINDER,
    RAPID_REACTION,
    has,
    level,
)
from warlog.domain.armageddon_empires.battle import arrive
from warlog.domain.armageddon_empires.commands import MoveArmy
from warlog.domain.armageddon_empires.control import holds_ground
from warlog.domain.armageddon_empires.costs import MOVE_AP_PER_CARD
from warlog.domain.armageddon_empires.events import ArmyMoved, MoveStep
from warlog.domain.armageddon_empires.guards import hex_on_map, own_army, pay_ap
from warlog.domain.armageddon_empires.limits import MAX_ARMIES_PER_HEX
from warlog.domain.armageddon_empires.observation import move_window
from warlog.domain.armageddon_empires.state import Army, GameState
from warlog.domain.armageddon_empires.supply import move_limited
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError
from warlog.domain.core.hexgrid import Hex


class MoveCost(NamedTuple):
    """The AP of one move and how it is made up."""

    cards: int
    free_cards: int
    pathfinder: int
    ap: int


def allowance(state: GameState, army: Army) -> tuple[int, str]:
    """The army's movement points and the rule that gives them (army must not be empty)."""
    lowest = min(state.card(c).movement for c in army.cards())
    leader = 0 if army.hero is None else level(state.card(army.hero).abilities, LEADER)
    rule = f"lowest card movement {lowest} (p.17)"
    if leader:
        rule += f" + Leader {leader} (p.45)"
    return lowest + leader, rule


def move_cost(state: GameState, army: Army) -> MoveCost:
    """AP to move the army: 1 per card, Rapid Reaction cards free, − Pathfinder X, ≥ 0."""
    cards = army.cards()
    free = sum(1 for c in cards if has(state.card(c).abilities, RAPID_REACTION))
    pathfinder = 0 if army.hero is None else level(state.card(army.hero).abilities, PATHFINDER)
    ap = max(0, MOVE_AP_PER_CARD * (len(cards) - free) - pathfinder)
    return MoveCost(len(cards), free, pathfinder, ap)


def known_held(state: GameState, army: Army) -> set[str]:
    """The hexes ``army``'s empire knows it may not enter or cross (module doc, AE-17)."""
    empire = army.empire
    held = {b.at for b in state.bases.values() if b.empire != empire}
    if army.stealthed:
        return held
    own = {
        a.at
        for a in state.armies.values()
        if a.empire == empire and not a.stealthed and a.id != army.id
    }
    for seen in state.sightings.get(empire, {}).values():
        if not seen.stealthed and seen.at not in own:
            held.add(seen.at)
    return held


def enterable(state: GameState, army: Army) -> set[str]:
    """The known-held hexes ``army`` may end its move in (module doc): all of them for a
    combat-capable army that is not stealthed, none for another."""
    if army.stealthed or not army.combat_capable:
        return set()
    # only hexes of the map as it writes them (a forged log may hold others)
    return {at for at in known_held(state, army) if at in state.board.terrain}


def huntable(state: GameState, army: Army) -> set[str]:
    """The known-held hexes ``army`` may end its move in: every enemy army its empire sees
    there that is not stealthed is a hero alone, and no enemy base stands there (p.30)."""
    if army.stealthed or not army.combat_capable:
        return set()
    bases = {b.at for b in state.bases.values() if b.empire != army.empire}
    by_hex: dict[str, bool] = {}
    for seen in state.sightings.get(army.empire, {}).values():
        if seen.stealthed or seen.at in bases:
            continue
        alone = seen.hero is not None and not seen.units
        by_hex[seen.at] = by_hex.get(seen.at, True) and alone
    return {at for at, ok in by_hex.items() if ok}


def _may_move(state: GameState, army: Army) -> bool:
    return (
        army.garrison_of is None
        and army.id not in state.empires[army.empire].moved
        and bool(army.cards())
    )


def _full(state: GameState, empire: str, at: str) -> bool:
    return len(state.armies_at(empire, at)) >= MAX_ARMIES_PER_HEX


def _full_hexes(state: GameState, empire: str) -> set[str]:
    """The hexes where ``_full`` holds for ``empire``, found in one pass over the armies."""
    count = Counter(a.at for a in state.armies.values() if a.empire == empire)
    return {at for at, n in count.items() if n >= MAX_ARMIES_PER_HEX}


def destinations(state: GameState, army: Army) -> dict[str, int]:
    """Every hex the army may move to now and the movement points it costs (empty if it may
    not move at all); AP is not checked here."""
    if not _may_move(state, army):
        return {}
    points, _ = allowance(state, army)
    start = Hex.parse(army.at)
    held = known_held(state, army)
    reach = paths.costs_ending_in(state.board, held, army.at, enterable(state, army), points)
    limited = move_limited(state, army)
    full = _full_hexes(state, army.empire)
    here = str(start)
    return {
        at: cost
        for at, cost in reach.items()
        if at != here and not (limited and start.distance(Hex.parse(at)) > 1) and at not in full
    }


def move_army(batch: Batch[GameState], cmd: MoveArmy) -> None:
    """``army_moved``; RulesError for a garrison, a second move, an empty army, an enemy-held
    or full destination, one beyond reach or beyond the out-of-supply limit, too little AP."""
    state = batch.state
    empire = state.empires[cmd.player]
    army = own_army(state, cmd.player, cmd.army)
    if army.garrison_of is not None:
        raise RulesError(
            f"{army.id} is the garrison of base {army.garrison_of}; garrisons never move (AE-8)",
            "rules/garrison_cannot_move",
        )
    if army.id in empire.moved:
        raise RulesError(f"{army.id} has already moved this turn (p.23)", "rules/already_moved")
    if not army.cards():
        raise RulesError(
            f"{army.id} is empty; an army without cards cannot move", "rules/empty_army"
        )
    to = hex_on_map(state, cmd.to)
    if to == army.at:
        raise RulesError(f"{army.id} is already at {to}", "rules/already_there")
    held = known_held(state, army)
    if to in held and to not in enterable(state, army):
        raise RulesError(
            f"hex {to} holds an enemy base or an enemy army {army.empire} sees; only a "
            "combat-capable army that is not stealthed enters it, to fight (p.33) or hunt (p.30)",
            "rules/enemy_hex",
        )
    if _full(state, army.empire, to):
        raise RulesError(
            f"hex {to} already holds {MAX_ARMIES_PER_HEX} armies of {army.empire} (p.23)",
            "rules/hex_full",
        )
    start, goal = Hex.parse(army.at), Hex.parse(to)
    limited = move_limited(state, army)
    if limited and start.distance(goal) > 1:
        raise RulesError(
            f"{army.id} began the turn out of supply and may move only one hex (p.30)",
            "rules/out_of_supply_limit",
        )
    points, rule = allowance(state, army)
    found = paths.path_between(state.board, held - {to}, army.at, to)
    if found is None:
        raise RulesError(
            f"no path from {army.at} to {to} avoids enemy-held hexes", "rules/out_of_reach"
        )
    move_points, path = found
    if move_points > points:
        raise RulesError(
            f"reaching {to} costs {move_points} movement points; {army.id} has {points} ({rule})",
            "rules/out_of_reach",
        )
    cost = move_cost(state, army)
    pay_ap(empire, cost.ap, f"moving {army.id}")
    path, contact, contacted = _walk(state, army, minefields.stop_at(state, army, path))
    board = state.board
    steps = tuple(
        MoveStep(at, board.terrain[at], board.table[board.terrain[at]].move) for at in path[1:]
    )
    batch.emit(
        ArmyMoved(
            empire=army.empire,
            army=army.id,
            origin=army.at,
            to=path[-1],
            steps=steps,
            move_points=sum(step.cost for step in steps),
            allowance=points,
            allowance_rule=rule,
            cards=cost.cards,
            free_cards=cost.free_cards,
            pathfinder=cost.pathfinder,
            ap_cost=cost.ap,
            out_of_supply=limited,
            contact=contact,
        )
    )
    # who had it in sight, before a minefield may take it from every sight (AE-17, AE-53)
    sighted_by = [o for o, seen in batch.state.sightings.items() if army.id in seen]
    minefields.spring(batch, army.id, entered=len(path) > 1)
    move_window(batch, army.id, contacted, sighted_by)
    if army.id in batch.state.armies:  # a minefield may have destroyed it (AE-52)
        arrive(batch, army.id)


def _walk(state: GameState, army: Army, path: list[str]) -> tuple[list[str], str, list[str]]:
    """The path as walked (AE-17): an army that is not stealthed stops before the first hex
    where it walks into enemy armies that hold ground (not stealthed; since version 10 holding a
    card, AE-59) and that its empire did not see there, unless that hex is its destination and it is combat-capable (it enters, AE-25); it
    never stops in a hex already full of its own armies. Returns the path walked, the contact
    hex ("" if none) and the armies met."""
    if army.stealthed:
        return path, "", []
    seen = state.sightings.get(army.empire, {})
    for i, at in enumerate(path[1:], start=1):
        met = [
            a
            for a in state.armies.values()
            if a.at == at
            and a.empire != army.empire
            and holds_ground(state, a)
            and a.id not in seen
        ]
        if at == path[-1] and met and army.combat_capable:
            return path, at, sorted(a.id for a in met)
        if met:
            walked = path[:i]
            full = _full_hexes(state, army.empire)
            while len(walked) > 1 and walked[-1] in full:
                walked.pop()
            return walked, at, sorted(a.id for a in met)
    return path, "", []


def legal_moves(state: GameState, player: str) -> list[MoveArmy]:
    """Every move of every army of ``player`` that may move and whose AP it can pay."""
    ap = state.empires[player].ap
    out: list[MoveArmy] = []
    for army in state.armies.values():
        if army.empire != player or not _may_move(state, army) or move_cost(state, army).ap > ap:
            continue
        for to in sorted(destinations(state, army)):
            out.append(MoveArmy(player=player, army=army.id, to=to))
    return out
