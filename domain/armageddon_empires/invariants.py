"""What holds of every Armageddon Empires state at rest (after a whole command's batch).

The basic invariants, each named: AP and stockpiles are never negative, no hand holds more than
its limit, every card instance is in exactly one place (a captured hero is its captor's prisoner,
at a base; a minefield's card in its minefield) and held by its owner, a card lost face down is
in its owner's discard pile, minefields stand in the open (at most one of an empire in a
hex), armies keep to the
limits of p.22–23 and stand on the map, garrisons stay at their bases, and the round clock is
coherent. ``invariants`` is the ruleset's ``Rules.invariants`` (its class imports it).
"""

from __future__ import annotations

from collections import Counter

from warlog.domain.armageddon_empires.limits import (
    MAX_ARMIES_PER_HEX,
    MAX_HEROES_PER_ARMY,
    MAX_UNITS_PER_ARMY,
)
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.invariants import Violation


def violations(state: GameState) -> list[Violation]:
    """The invariants ``state`` breaks; empty when all hold."""
    out: list[Violation] = []
    places: Counter[str] = Counter()
    for empire in state.empires.values():
        if empire.ap < 0:
            out.append(Violation("ap_never_negative", f"{empire.id} has {empire.ap} AP"))
        r = empire.resources
        if min(r.humans, r.materials, r.energy, r.technology) < 0:
            out.append(Violation("stockpile_never_negative", f"{empire.id} holds {r}"))
        if len(empire.hand) > empire.hand_limit:
            out.append(Violation("hand_limit", f"{empire.id} holds {len(empire.hand)} cards"))
        for card in (*empire.hand, *empire.deck, *empire.discard):
            places[card] += 1
            if state.instances[card].owner != empire.id:
                out.append(Violation("cards_held_by_owner", f"{empire.id} holds {card}"))
        if not set(empire.face_down) <= set(empire.discard):  # AE-49: face down in the pile
            out.append(Violation("face_down_in_discard", f"{empire.id}: {empire.face_down}"))
    for base in state.bases.values():
        places.update(
            (base.card, *base.facilities, *base.prisoners)
        )  # p.24, p.30: prisoners held at a base
        if base.garrison not in state.armies:
            out.append(Violation("garrisons", f"{base.id} lost its garrison"))
    bases_at = {b.at for b in state.bases.values()}
    mined = Counter((m.empire, m.at) for m in state.minefields.values())
    if any(n > 1 for n in mined.values()):  # AE-54: never two an empire knows of in a hex
        out.append(Violation("minefields_in_the_open", f"two in one hex: {sorted(mined)}"))
    for mine in state.minefields.values():  # p.32; AE-50: a facility in the open
        places[mine.card] += 1
        if mine.at not in state.board.terrain or mine.at in bases_at:
            out.append(Violation("minefields_in_the_open", f"{mine.id} is at {mine.at}"))
        if state.instances[mine.card].owner != mine.empire:
            out.append(Violation("cards_held_by_owner", f"{mine.empire} holds {mine.card}"))
    per_hex: Counter[tuple[str, str]] = Counter()
    for army in state.armies.values():
        places.update(army.cards())
        # an army's cards are its empire's (AE-66 rolls an army's dice and its cards' under one
        # empire: the army's for its collateral die, each card's owner for its challenge)
        strays = [c for c in army.cards() if state.instances[c].owner != army.empire]
        if strays:
            out.append(Violation("cards_held_by_owner", f"{army.id} holds {strays}"))
        if len(army.units) > MAX_UNITS_PER_ARMY or (army.hero is not None) > MAX_HEROES_PER_ARMY:
            out.append(Violation("army_size", f"{army.id} holds {len(army.units)} units"))
        if army.at not in state.board.terrain:
            out.append(Violation("armies_on_the_map", f"{army.id} is at {army.at}"))
        if army.garrison_of is not None:
            home = state.bases.get(army.garrison_of)
            if home is None or home.garrison != army.id or home.at != army.at:
                out.append(Violation("garrisons", f"{army.id} is not at its base"))
        per_hex[army.empire, army.at] += 1
    crowded = [f"{e} at {at}" for (e, at), n in per_hex.items() if n > MAX_ARMIES_PER_HEX]
    if crowded:
        out.append(Violation("armies_per_hex", f"more than {MAX_ARMIES_PER_HEX}: {crowded}"))
    if set(places) != set(state.instances) or any(n != 1 for n in places.values()):
        wrong = sorted(
            {*set(state.instances) ^ set(places), *(c for c, n in places.items() if n != 1)}
        )
        out.append(Violation("cards_in_one_place", f"cards not in exactly one place: {wrong}"))
    if not 1 <= state.round <= state.max_rounds:
        out.append(Violation("rounds", f"round {state.round} of {state.max_rounds}"))
    return out


#: the ruleset's ``invariants`` (``ArmageddonEmpires`` imports it into its class body)
invariants = staticmethod(violations)
