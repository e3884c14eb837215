"""The state before the first command: the scenario's forces, units and heroes with their profiles,
turn 1 begun: its phase 1 done (every hero has Mighty Deeds equal to its level, p.28) and the
attacker's movement phase waiting (p.27). Later turns begin with ``turn_began`` events."""

from __future__ import annotations

from warlog.domain.heroic_battles.scenario import Scenario
from warlog.domain.heroic_battles.state import Force, GameState, Hero, Unit
from warlog.domain.heroic_battles.tables import RANGES

FIRST_TURN = 1


def initial_state(scenario: Scenario) -> GameState:
    forces: dict[str, Force] = {}
    units: dict[str, Unit] = {}
    heroes: dict[str, Hero] = {}
    for f in scenario.forces:
        forces[f.id] = Force(id=f.id, name=f.name, tokens=f.reputation_tokens)
        for u in f.units:
            units[u.id] = Unit(
                id=u.id,
                force=f.id,
                name=u.name,
                type=u.type,
                combat_dice=u.combat_dice,
                shooting_dice=u.shooting_dice,
                armour=u.armour,
                shooting_armour=u.shooting_armour or u.armour,
                max_stamina=u.stamina,
                stamina=u.stamina,
                reputation=u.reputation,
                traits=tuple(u.traits),
                missile=u.missile,
                range=RANGES.get(u.missile, 0),
            )
        for h in f.heroes:
            heroes[h.id] = Hero(
                id=h.id,
                force=f.id,
                name=h.name,
                level=h.level,
                armour=h.armour,
                max_stamina=h.stamina,
                stamina=h.stamina,
                reputation=h.reputation,
                traits=tuple(h.traits),
                missile=h.missile,
                range=RANGES.get(h.missile, 0),
                unit=h.attached_to,
                deeds=h.level,
            )
    attacker = scenario.attacker
    defender = next(f.id for f in scenario.forces if f.id != attacker)
    return GameState(
        scenario=scenario,
        forces=forces,
        units=units,
        heroes=heroes,
        attacker=attacker,
        defender=defender,
        turn=FIRST_TURN,
        phase="movement",
        phasing=attacker,
    )
