"""Hex control: who holds each hex (AE-5: a base, or the armies that are not stealthed).

A base (stronghold, outpost) controls its hex even with no army (p.18). Otherwise the empire
whose armies that are not stealthed stand in the hex controls it; stealthed armies control no
hex (p.27). A hex where armies of two empires stand unstealthed (a hunter with its prey, p.30) is
disputed: nobody controls it (AE-5). Since version 10 an empty army (no card) holds and
disputes nothing, as a stealthed army (AE-59). Since version 24 whether a hex of an empire's
base is disputed or besieged is judged, for that empire, by its sightings of this round (AE-35,
AE-56; ``SIEGES_AS_SEEN_SINCE``).
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.state import Army, GameState

#: AE-59: since this version an army that holds no card counts for nothing in its hex to the
#: other empire: no move meets it, it controls and disputes no hex, and its destruction by the
#: Empty Armies Rule is sealed for the other empire
EMPTY_ARMIES_UNSEEN_SINCE = 10
#: AE-59: since version 12 an army that holds no card is left out of a battle's sides wherever
#: the battle is (the Empty Armies Rule of p.33 destroys such armies only where a base stands):
#: version 11 and before listed one standing elsewhere, naming it to the other empire
EMPTY_ARMIES_NOWHERE_SINCE = 12
#: AE-35, AE-56: the version since which an empire judges whether a hex of its bases is
#: disputed or besieged by what it has seen there this round (its sightings, kept until the
#: round ends), never by a change it has not seen (a besieger's stealth, sealed for it); and
#: its base sees an army that ends a move in its hex (``observation.move_window``), so that
#: it sees every army that disputes or besieges it there. Before, the hex as it stood
SIEGES_AS_SEEN_SINCE = 24


def holds_ground(state: GameState, army: Army) -> bool:
    """Whether ``army`` counts in its hex for the other empire (AE-5, AE-17, AE-59): it is not
    stealthed and, since version 10, holds a card."""
    if army.stealthed:
        return False
    return state.rules_version < EMPTY_ARMIES_UNSEEN_SINCE or bool(army.cards())


def controllers(state: GameState) -> dict[str, str]:
    """``"q,r"`` → the empire that controls the hex; hexes nobody holds are absent."""
    out: dict[str, str] = {}
    disputed: set[str] = set()
    for army in state.armies.values():
        if not holds_ground(state, army):
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


def sieges_as_seen(state: GameState) -> bool:
    """Whether this game's empires judge the sieges and disputes of their bases' hexes by their
    sightings (AE-35, AE-56; ``SIEGES_AS_SEEN_SINCE``)."""
    return state.rules_version >= SIEGES_AS_SEEN_SINCE


def disputed(state: GameState, empire: str, at: str) -> bool:
    """True if an enemy army that holds ground stands in hex ``at`` (p.34: a disputed hex): since
    version 24 one that ``empire`` has seen there this round, not stealthed and holding a card
    (``SIEGES_AS_SEEN_SINCE``)."""
    if sieges_as_seen(state):
        return any(
            s.at == at and not s.stealthed and s.cards()
            for s in state.sightings.get(empire, {}).values()
        )
    return any(
        a.at == at and a.empire != empire and holds_ground(state, a) for a in state.armies.values()
    )
