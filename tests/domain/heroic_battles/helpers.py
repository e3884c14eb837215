"""Test helpers: the proving-ground scenario, set-up events, dice, and event filters.

The proving ground (``proving_ground.toml``): red attacks with red-warriors (Red Lord attached:
level 3, Army Commander, Legendary Weapon), red-brutes (Brutal, Spears as Tribute), red-riders
(Counter Charge, Disengage, javelins), red-archers (bow, Marksman), red-skirmishers (Agile, Evade,
javelins) and the unattached Red Champion (level 1, Brutal, bow); blue defends with blue-warriors
(Blue King attached: level 2, Army Commander, Inspiring), blue-horde (Impetuous, Brittle; Blue
Proud attached: level 2, Proud, Battle Smiter), blue-giant (Towering, Brutal, Fearsome, boulders),
blue-scouts (light riders: Evade, Counter Charge, Disengage), blue-steadfast (Steadfast, Drilled,
Big) and the unattached Blue Priest (level 1, Non-Combatant). Turn 1 begins in red's movement.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from tests.given_when_then import Given, of, tags
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import Event
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.ruleset import RULESET, VERSIONS
from warlog.domain.heroic_battles.scenario import Scenario, parse_scenario
from warlog.domain.heroic_battles.values import Pool

E = TypeVar("E", bound=Event)

PROVING_GROUND = Path(__file__).with_name("proving_ground.toml")


@functools.cache
def proving_ground() -> Scenario:
    return parse_scenario(PROVING_GROUND.read_bytes())


@functools.cache
def open_field() -> Scenario:
    data = importlib.resources.files(RULESET.scenario_package).joinpath("open-field.toml")
    return parse_scenario(data.read_bytes())


def game(*events: Event, scenario: Scenario | None = None, version: str = "") -> Given:
    """A proving-ground battle after ``events`` (turn 1, red's movement phase before them),
    under the latest rules or the kept ``version``."""
    ruleset = VERSIONS[version] if version else RULESET
    return Given(ruleset, scenario or proving_ground()).events(*events)


# -- set-up events -----------------------------------------------------------------------------------


def engaged(
    charger: str,
    target: str,
    combat: str = "melee-1",
    facing: str = "front",
    joined: bool = False,
) -> list[Event]:
    """``charger`` charged ``target`` and made contact (a melee begins or is joined)."""
    return [
        ev.ChargeDeclared(unit=charger, target=target, facing=facing, action=1),  # type: ignore[arg-type]
        ev.ChargeContacted(
            unit=charger, target=target, facing=facing, combat=combat, joined=joined
        ),
    ]


def wounded(unit: str, stamina: int) -> ev.StaminaLost:
    return ev.StaminaLost(unit=unit, stamina=stamina, reason="test set-up")


def phase(name: str, force: str = "") -> list[Event]:
    """End the current phase and begin ``name`` of ``force``."""
    return [ev.PhaseEnded(phase="movement", force="red"), ev.PhaseBegan(phase=name, force=force)]


#: blue's movement phase follows red's (the sheet's turn sequence, p.27)
BLUE_MOVES = tuple(phase("movement", "blue"))


def fighting(combat: str = "melee-1", force: str = "red") -> list[Event]:
    """``force``'s melee phase has begun and melee ``combat`` is being fought (declarations)."""
    return [
        *phase("melee", force),
        ev.ChallengeForgone(force=force),
        ev.MeleeBegan(combat=combat, sides={}),
    ]


def shooting_phase() -> list[Event]:
    """The shooting phase (the defender, blue, shoots first)."""
    return phase("shooting")


# -- dice ------------------------------------------------------------------------------------------------


def needed(g: Given, command: Any) -> list[int]:
    """The sides of every die ``command`` rolls when every die shows the same face (asked the way
    a referee is: the command refused with the count)."""
    try:
        g.when(command, dice=[], apply=False)
    except InputError as exc:
        if exc.code != "input/dice_count":
            raise
        return [int(s) for n, s in re.findall(r"(\d+) d(\d+)", exc.message) for _ in range(int(n))]
    return []


def rolling(g: Given, command: Any, face: int = 3) -> list[Event]:
    """Play ``command`` with every die showing ``face`` (3: no hit, no 1 to re-roll, a command
    test passed)."""
    count = len(needed(g, command))
    return g.when(command, dice=[face] * count)


def declare(force: str, combat: str = "melee-1", **kw: Any) -> c.DeclareMelee:
    return c.DeclareMelee(player=force, combat=combat, **kw)


# -- reading events --------------------------------------------------------------------------------------


def pool_of(events: list[Event], owner: str) -> Pool:
    """The combat, shooting or single-combat pool of ``owner`` among ``events``."""
    for e in events:
        pooled = ev.CombatDiceRolled | ev.ShotsFired | ev.SingleCombatDiceRolled
        if isinstance(e, pooled) and e.pool.owner == owner:
            return e.pool
    raise AssertionError(f"no pool of {owner} in {tags(events)}")


def gained(events: list[Event], force: str) -> list[str]:
    return [e.reason for e in of(events, ev.ReputationGained) if e.force == force]


def lost(events: list[Event], force: str) -> list[tuple[int, str]]:
    return [(e.tokens, e.reason) for e in of(events, ev.ReputationLost) if e.force == force]


def with_hero_trait(hero: str, trait: str) -> Scenario:
    """The proving ground with ``hero`` (of either force) given ``trait`` too."""
    sc = proving_ground()
    forces = [
        msgspec.structs.replace(
            f,
            heroes=[
                msgspec.structs.replace(h, traits=[*h.traits, trait]) if h.id == hero else h
                for h in f.heroes
            ],
        )
        for f in sc.forces
    ]
    return msgspec.structs.replace(sc, forces=forces)
