"""Changes of state shared by the ``evolve`` functions of every area (applies only; no checks).

Never mutates its input: every changed Struct is rebuilt with ``msgspec.structs.replace`` and
every changed dict is copied.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from warlog.domain.armageddon_empires.state import Army, Empire, GameState


def with_empire(state: GameState, empire: Empire) -> GameState:
    return replace(state, empires={**state.empires, empire.id: empire})


def with_armies(state: GameState, *armies: Army) -> GameState:
    return replace(state, armies={**state.armies, **{a.id: a for a in armies}})


def see(state: GameState, empire: str, cards: tuple[str, ...]) -> GameState:
    """``empire`` has now seen the card types of ``cards`` (its catalogue, AE-7)."""
    if not cards:
        return state
    emp = state.empires[empire]
    types = {state.instances[c].card for c in cards}
    if types.issubset(emp.seen):
        return state
    return with_empire(state, replace(emp, seen=tuple(sorted({*emp.seen, *types}))))


def spend(state: GameState, empire: str, ap: int) -> GameState:
    emp = state.empires[empire]
    return with_empire(state, replace(emp, ap=emp.ap - ap)) if ap else state


def remove_army(state: GameState, army_id: str) -> GameState:
    """The state without the army (emptied, AE-24): no empire keeps it in sight or in its
    lists of this turn."""
    armies = dict(state.armies)
    gone = armies.pop(army_id)
    emp = state.empires[gone.empire]
    emp = replace(
        emp,
        moved=tuple(a for a in emp.moved if a != army_id),
        hunted=tuple(a for a in emp.hunted if a != army_id),
        out_of_supply=tuple(a for a in emp.out_of_supply if a != army_id),
    )
    sightings = {
        o: {a: s for a, s in seen.items() if a != army_id} for o, seen in state.sightings.items()
    }
    return with_empire(replace(state, armies=armies, sightings=sightings), emp)


def without_card(state: GameState, card: str) -> tuple[GameState, str | None]:
    """The state with ``card`` taken out of its army, base or hand; the army it left, if any."""
    for army in state.armies.values():
        if card in army.cards():
            hero = None if army.hero == card else army.hero
            units = tuple(u for u in army.units if u != card)
            return with_armies(state, replace(army, hero=hero, units=units)), army.id
    for base in state.bases.values():
        if card in base.facilities or card in base.prisoners:
            base = replace(
                base,
                facilities=tuple(f for f in base.facilities if f != card),
                prisoners=tuple(p for p in base.prisoners if p != card),
            )
            return replace(state, bases={**state.bases, base.id: base}), None
    for emp in state.empires.values():
        if card in emp.hand:
            hand = tuple(c for c in emp.hand if c != card)
            return with_empire(state, replace(emp, hand=hand)), None
    return state, None


def discard(state: GameState, card: str) -> GameState:
    owner = state.instances[card].owner
    emp = state.empires[owner]
    damage = {c: d for c, d in state.damage.items() if c != card}
    if card in state.hidden_damage:
        state = replace(state, hidden_damage=_without(state.hidden_damage, card))
    return with_empire(replace(state, damage=damage), replace(emp, discard=(*emp.discard, card)))


def left_empty(state: GameState, army_id: str | None) -> GameState:
    if army_id is None:
        return state
    army = state.armies[army_id]
    if army.cards() or army.garrison_of is not None:
        return state
    return remove_army(state, army_id)


def forget_card(state: GameState, card: str) -> GameState:
    """Every empire's sightings without ``card``, destroyed, captured or killed in the open: the
    armies it saw no longer show it (AE-17)."""
    if not any(card in s.cards() for seen in state.sightings.values() for s in seen.values()):
        return state
    sightings = {
        observer: {
            a: replace(
                s,
                hero=None if s.hero == card else s.hero,
                units=tuple(u for u in s.units if u != card),
            )
            for a, s in seen.items()
        }
        for observer, seen in state.sightings.items()
    }
    return replace(state, sightings=sightings)


def free_hero(state: GameState, hero: str) -> GameState:
    """A freed prisoner (AE-34) goes back to its empire's hand, or to its discard pile if the
    hand is full; ``hero`` must already be out of the base's prisoners."""
    owner = state.instances[hero].owner
    emp = state.empires[owner]
    if len(emp.hand) < emp.hand_limit:
        return with_empire(state, replace(emp, hand=(*emp.hand, hero)))
    return discard(state, hero)


def _without(damage: dict[str, int], card: str) -> dict[str, int]:
    return {c: d for c, d in damage.items() if c != card}


def hidden_damage(state: GameState, card: str, amount: int, total: int) -> GameState:
    """``card`` took ``amount`` in a hidden challenge, ``total`` in all (AE-49, AE-53): the
    amount is its owner's to see alone."""
    if not amount:
        return state
    secret = {**state.hidden_damage, card: state.hidden_damage.get(card, 0) + amount}
    return replace(state, damage={**state.damage, card: total}, hidden_damage=secret)


#: AE-49: since version 12 a repair, sealed for its empire, does not show in the other
#: empires' views: for them the card keeps the damage they saw dealt in the open (its
#: ``hidden_damage`` goes below 0 by as much). Version 11 and before cleared it from every
#: view, so that an empire that had the army in sight saw which card was mended, and by how much
REPAIR_UNSEEN_SINCE = 12


def repaired(state: GameState, card: str) -> GameState:
    """``card`` at full strength again (p.34): no damage; since version 12 the other empires
    still see what they saw dealt in the open (``REPAIR_UNSEEN_SINCE``)."""
    secret = _without(state.hidden_damage, card)
    if state.rules_version >= REPAIR_UNSEEN_SINCE:
        seen = state.damage.get(card, 0) - state.hidden_damage.get(card, 0)
        if seen > 0:
            secret[card] = -seen
    return replace(state, damage=_without(state.damage, card), hidden_damage=secret)


def hidden_loss(state: GameState, card: str) -> GameState:
    """A card destroyed by a hidden challenge (AE-49): out of its army, into its owner's discard
    pile face down; an emptied army (not a garrison) is gone. An empire that has the army in
    sight this round sees it lose the card, as it would see it gone; no other learns of it."""
    state, army_id = without_card(state, card)
    state = forget_card(discard(state, card), card)
    owner = state.instances[card].owner
    emp = state.empires[owner]
    state = with_empire(state, replace(emp, face_down=(*emp.face_down, card)))
    return left_empty(state, army_id)


def new_turn_for_agents(state: GameState, empire: str) -> GameState:
    """``empire``'s assassins, saboteurs and researchers may act again (once a turn, AE-71,
    AE-72, AE-73): its ``assassins``, ``sabotaged`` and ``researched`` left out again (UNSET),
    as in a game where none has."""
    emp = state.empires[empire]
    kept = (emp.sabotaged, emp.assassins, emp.researched)
    if all(isinstance(k, msgspec.UnsetType) for k in kept):
        return state
    return with_empire(
        state,
        replace(emp, assassins=msgspec.UNSET, sabotaged=msgspec.UNSET, researched=msgspec.UNSET),
    )
