"""Invariants of every Armageddon Empires state; the generic Hypothesis machine calls
``check_invariants`` after every step."""

from __future__ import annotations

from collections import Counter
from typing import Any

from warlog.domain.armageddon_empires.abilities import STEALTH, level
from warlog.domain.armageddon_empires.cards import damage_limit
from warlog.domain.armageddon_empires.challenge import Challenge, successes
from warlog.domain.armageddon_empires.costs import MAX_AP_OWED
from warlog.domain.armageddon_empires.limits import (
    MAX_ARMIES_PER_HEX,
    MAX_HEROES_PER_ARMY,
    MAX_UNITS_PER_ARMY,
)
from warlog.domain.armageddon_empires.state import GameState


def card_places(state: GameState) -> Counter[str]:
    """How many places hold each card instance (hand, deck, discard, a base, an army, a
    minefield)."""
    places: Counter[str] = Counter()
    for empire in state.empires.values():
        places.update(empire.hand)
        places.update(empire.deck)
        places.update(empire.discard)
    for base in state.bases.values():
        places.update((base.card, *base.facilities, *base.prisoners))
    for army in state.armies.values():
        places.update(army.cards())
    places.update(m.card for m in state.minefields.values())
    return places


def _stealth(state: GameState, card: str) -> int:
    return level(state.card(card).abilities, STEALTH)


def check_invariants(state: Any) -> None:
    """Assert what must hold after every event: no negative AP or resources; every card in
    exactly one place and held by its owner; army limits; garrisons at their bases and their
    owners'; a stealthed army's cards can all stealth; prisoners
    are enemy heroes; fate never negative nor beyond the hero's; successes never exceed dice;
    AP owed within its bound; sightings of enemy armies that exist; a coherent round clock."""
    assert isinstance(state, GameState)
    for empire in state.empires.values():
        assert empire.ap >= 0, f"{empire.id} has {empire.ap} AP"
        r = empire.resources
        assert min(r.humans, r.materials, r.energy, r.technology) >= 0, f"{empire.id}: {r}"
        assert len(empire.hand) <= empire.hand_limit, f"{empire.id}'s hand is over its limit"
        for card in (*empire.hand, *empire.deck, *empire.discard):
            assert state.instances[card].owner == empire.id, f"{card} is not {empire.id}'s"
    places = card_places(state)
    assert set(places) == set(state.instances), "a card is missing or unknown"
    twice = [c for c, n in places.items() if n != 1]
    assert not twice, f"cards in more than one place: {twice}"
    per_hex: Counter[tuple[str, str]] = Counter()
    holder: dict[str, str] = {}
    for army in state.armies.values():
        hero_ok = army.hero is None or state.card(army.hero).kind == "hero"
        assert hero_ok, f"{army.id}'s hero slot holds a non-hero"
        assert all(state.card(u).kind == "unit" for u in army.units), f"{army.id} holds a non-unit"
        assert (
            len(army.units) <= MAX_UNITS_PER_ARMY and (army.hero is not None) <= MAX_HEROES_PER_ARMY
        )
        assert all(state.instances[c].owner == army.empire for c in army.cards())
        assert army.at in state.board.terrain, f"{army.id} is off the map"
        if army.garrison_of is not None:
            base = state.bases[army.garrison_of]
            assert base.garrison == army.id and base.at == army.at and base.empire == army.empire
        per_hex[army.empire, army.at] += 1
        holder.setdefault(army.at, army.empire)
        if army.stealthed:
            level = min((lv for c in army.cards() for lv in [_stealth(state, c)]), default=1)
            assert level > 0, f"{army.id} is stealthed with a card that cannot stealth"
    assert max(per_hex.values(), default=0) <= MAX_ARMIES_PER_HEX, "too many armies in a hex"
    for base in state.bases.values():
        assert base.garrison in state.armies, f"{base.id} lost its garrison"
        # enemy armies may stand in a base's hex now: besieging it, their attack delayed, or
        # stealthed (p.26, p.33); a base's garrison is always its owner's
        assert state.armies[base.garrison].empire == base.empire
        for hero in base.prisoners:
            assert state.card(hero).kind == "hero" and state.instances[hero].owner != base.empire
        assert state.card(base.card).kind == "facility"
        assert all(state.card(f).kind == "facility" for f in base.facilities)
    assert 1 <= state.round <= state.max_rounds
    for hero, spent in state.fate_spent.items():
        assert 0 <= spent <= state.card(hero).spec.fate, f"{hero} spent {spent} fate"  # type: ignore[union-attr]
    for empire in state.empires.values():
        assert 0 <= empire.ap_owed <= MAX_AP_OWED, f"{empire.id} owes {empire.ap_owed} AP"
    for frame in state.frames:
        if isinstance(frame, Challenge):
            for side in (frame.attacker, frame.defender):
                if side is not None:
                    # R1: faces 4, 5 and 6 are successes
                    assert successes(side.faces) == sum(1 for f in side.faces if f >= 4)
                    assert side.fate_bonus >= 0 and side.fate_spent >= 0
    for card, taken in state.damage.items():
        assert 0 < taken < damage_limit(state.card(card).spec), f"{card} should be destroyed"
    for observer, seen in state.sightings.items():
        assert all(s.empire != observer for s in seen.values()), f"{observer} sights itself"
        assert set(seen) <= set(state.armies), f"{observer} sights an army that is gone"
    if state.phase == "turns":
        assert state.current in state.order and not state.bids
    elif state.phase == "initiative":
        assert state.current is None and set(state.bids) <= set(state.seats)
    else:
        assert state.current is None
