"""What an attack card may strike in a hex, and who holds it there (p.31; AE-41, AE-42).

An aircraft or helo strikes a unit of an enemy army its empire has sighted there this round
(judged by the sighting alone, since version 7: a target gone since is found out when the card
arrives, ``standing``) or a facility of the enemy base there; a missile strikes only a facility.
A card in the hex is fired as a gunner, and defended as a target, by the empire that holds it
(``holder_in_hex``).
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.frames import Aim, AirStrike
from warlog.domain.armageddon_empires.state import Base, GameState


def enemy_base(state: GameState, empire: str, at: str) -> Base | None:
    """The base of another empire in hex ``at``, if any."""
    base = state.base_at(at)
    return base if base is not None and base.empire != empire else None


#: AE-42: the rules version since which an air strike's unit targets are judged by sightings
SIGHTED_TARGETS_SINCE = 7


def unit_targets(state: GameState, empire: str, at: str) -> list[str]:
    """The units an attack card of ``empire`` may aim at in hex ``at`` (AE-42): those of the
    enemy armies it has sighted there this round, as it saw them, by army. Judged by its
    sightings alone, as AE-38 judges a hunt: a change it has not seen (stealth engaged, cards
    moved out or in) never changes what it is offered or refused; the strike finds it out
    (``standing``). In a game played under version 6, only those still standing there."""
    if state.rules_version < SIGHTED_TARGETS_SINCE:
        return _version_6_targets(state, empire, at)
    seen = state.sightings.get(empire, {})
    out: list[str] = []
    for army in sorted(seen):
        sighted = seen[army]
        if sighted.empire != empire and sighted.at == at and not sighted.stealthed:
            out += sighted.units
    return out


def _version_6_targets(state: GameState, empire: str, at: str) -> list[str]:
    """Version 6's AE-42, kept so that its games play on and re-derive: the units of the enemy
    armies in hex ``at`` that are not stealthed and that ``empire`` has sighted this round,
    those still in them, by army."""
    seen = state.sightings.get(empire, {})
    out: list[str] = []
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        sighted = seen.get(army.id)
        if army.empire == empire or army.at != at or army.stealthed or sighted is None:
            continue
        out += [u for u in army.units if u in sighted.units]
    return out


def standing(state: GameState, empire: str, at: str, target: str) -> bool:
    """Whether ``target`` is still there to strike when the card arrives (AE-42): a unit in an
    enemy army in hex ``at`` that is not stealthed, or a facility of the enemy base there."""
    if target in facility_targets(state, empire, at):
        return True
    return any(
        army.empire != empire and army.at == at and not army.stealthed and target in army.units
        for army in state.armies.values()
    )


def facility_targets(state: GameState, empire: str, at: str) -> list[str]:
    """The facilities of the enemy base in hex ``at``: its own card first (AE-42)."""
    base = enemy_base(state, empire, at)
    return [] if base is None else [base.card, *base.facilities]


def targets(state: GameState, empire: str, at: str, aim: Aim) -> list[str]:
    return unit_targets(state, empire, at) if aim == "unit" else facility_targets(state, empire, at)


def holder_in_hex(state: GameState, strike: AirStrike, card: str) -> str:
    """The empire that holds ``card`` in the strike's hex, fires it as a gunner (AE-41) and
    defends it as a target (AE-42, since version 14): the holder of the base it stands at (a
    captured base's cards are its captor's, AE-34), else its army's."""
    base = enemy_base(state, strike.empire, strike.at)
    if base is not None and card in (base.card, *base.facilities):
        return base.empire
    army = next((a for a in state.armies.values() if card in a.units), None)
    return state.instances[card].owner if army is None else army.empire
