"""Scenarios: the TOML file decoded by msgspec into typed Structs, then checked as a whole.

A scenario is two forces of units and heroes with their profiles, reputation and starting
Reputation Tokens, which force attacks, and how many turns the battle lasts. Every error is an
InputError ``input/bad_scenario`` naming the path of the bad field
(``$.forces[1].heroes[0].attached_to: ...``). The fields are documented in docs/scenarios.md,
section "Midgard: Heroic Battles".
"""

from typing import Annotated, Any, Literal

import msgspec

from warlog.domain.core.scenario import bad_scenario, convert_scenario, decode_scenario
from warlog.domain.heroic_battles.tables import RANGES, UnitType

Id = Annotated[str, msgspec.Meta(pattern=r"^[a-z0-9][a-z0-9_-]*\Z", max_length=64)]
Small = Annotated[int, msgspec.Meta(ge=0, le=99)]
Positive = Annotated[int, msgspec.Meta(ge=1, le=99)]
Points = Annotated[int, msgspec.Meta(ge=0, le=999)]

#: the unit traits this version plays (each has its effect; see docs/scenarios.md)
UnitTrait = Literal[
    "agile",
    "big",
    "brittle",
    "brutal",
    "counter_charge",
    "disengage",
    "drilled",
    "evade",
    "fearsome",
    "flying",
    "impetuous",
    "marksman",
    "reluctant",
    "slow",
    "spears_as_tribute",
    "steadfast",
    "towering",
]
#: the hero traits this version plays
HeroTrait = Literal[
    "army_commander",
    "battle_smiter",
    "big",
    "brutal",
    "fearsome",
    "flying",
    "inspiring",
    "legendary_weapon",
    "marksman",
    "mounted",
    "non_combatant",
    "proud",
]
Missile = Literal[
    "",
    "javelin",
    "short_bow",
    "mounted_bow",
    "bow",
    "mounted_elf_bow",
    "sling",
    "boulder",
    "dragons_breath",
    "longbow",
    "crossbow",
    "elf_bow",
    "light_artillery",
    "heavy_artillery",
]
FORCES_PER_BATTLE = 2
MAX_TURNS = 20


class UnitSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One unit and its profile (type, dice, armour, stamina, traits, missile weapon)."""

    id: Id
    name: str
    type: UnitType
    points: Points
    reputation: Small
    combat_dice: Small
    armour: Positive
    stamina: Positive
    shooting_dice: Small = 0
    #: the armour against shooting when it differs (Skirmisher Shooters: 2, 3 against shooting);
    #: 0 means the same as ``armour``
    shooting_armour: Small = 0
    missile: Missile = ""
    traits: list[UnitTrait] = []
    #: the published profile it is built from, for people
    profile: str = ""


class HeroSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One hero: level (1 Champion … 4 Legendary), stamina, armour, traits, missile weapon and the
    unit it starts attached to ("" for none)."""

    id: Id
    name: str
    level: Annotated[int, msgspec.Meta(ge=1, le=4)]
    stamina: Positive
    armour: Positive
    points: Points
    reputation: Small
    traits: list[HeroTrait] = []
    missile: Missile = ""
    attached_to: str = ""


class ForceSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One side: its units and heroes and its starting Reputation Tokens."""

    id: Id
    name: str
    reputation_tokens: Small
    units: list[UnitSpec] = []
    heroes: list[HeroSpec] = []


class Scenario(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A whole scenario file."""

    name: Id
    attacker: Id
    turns: Annotated[int, msgspec.Meta(ge=1, le=MAX_TURNS)]
    forces: list[ForceSpec]
    title: str = ""
    description: str = ""
    #: where the profiles come from (shown to people)
    source: str = ""


_bad = bad_scenario


def parse_scenario(data: bytes | str) -> Scenario:
    """The scenario in TOML ``data``, checked; InputError ``input/bad_scenario`` names the path."""
    return decode_scenario(data, Scenario, check)


def scenario_from_builtins(obj: dict[str, Any]) -> Scenario:
    """The scenario from its recorded JSON form (``game_created``), checked as a file is."""
    return convert_scenario(obj, Scenario, check)


def check(sc: Scenario) -> None:
    """Raise InputError naming the first field that breaks a rule the decoder cannot see."""
    if len(sc.forces) != FORCES_PER_BATTLE:
        raise _bad("$.forces", f"a battle has {FORCES_PER_BATTLE} forces, not {len(sc.forces)}")
    seen: dict[str, str] = {}
    for i, force in enumerate(sc.forces):
        where = f"$.forces[{i}]"
        if force.id in seen:
            raise _bad(f"{where}.id", f"id {force.id!r} is already {seen[force.id]}")
        seen[force.id] = "a force"
        if not force.units and not force.heroes:
            raise _bad(where, "a force needs at least one unit or hero")
        for j, unit in enumerate(force.units):
            _check_unit(unit, f"{where}.units[{j}]", seen)
        units = {u.id for u in force.units}
        commanders = 0
        for j, hero in enumerate(force.heroes):
            _check_hero(hero, f"{where}.heroes[{j}]", seen, units)
            commanders += "army_commander" in hero.traits
            if commanders > 1:
                raise _bad(f"{where}.heroes[{j}].traits", "a force has one Army Commander")
    if sc.attacker not in {f.id for f in sc.forces}:
        raise _bad("$.attacker", f"no force {sc.attacker!r}")


def _check_id(item_id: str, where: str, seen: dict[str, str], what: str) -> None:
    if item_id in seen:
        raise _bad(f"{where}.id", f"id {item_id!r} is already {seen[item_id]}")
    seen[item_id] = what


def _check_unit(unit: UnitSpec, where: str, seen: dict[str, str]) -> None:
    _check_id(unit.id, where, seen, "a unit")
    if len(set(unit.traits)) != len(unit.traits):
        raise _bad(f"{where}.traits", "a trait is named twice")
    if "big" in unit.traits and "towering" in unit.traits:
        raise _bad(f"{where}.traits", "a unit is Big or Towering, not both")
    if unit.shooting_dice and not unit.missile:
        raise _bad(f"{where}.missile", "a unit with shooting dice needs its missile weapon")
    if unit.missile and not unit.shooting_dice:
        raise _bad(f"{where}.shooting_dice", f"a unit with a {unit.missile} needs shooting dice")
    if unit.missile and unit.missile not in RANGES:  # pragma: no cover - the Literal refuses it
        raise _bad(f"{where}.missile", f"unknown missile weapon {unit.missile!r}")


def _check_hero(hero: HeroSpec, where: str, seen: dict[str, str], units: set[str]) -> None:
    _check_id(hero.id, where, seen, "a hero")
    if len(set(hero.traits)) != len(hero.traits):
        raise _bad(f"{where}.traits", "a trait is named twice")
    if "mounted" in hero.traits and "flying" in hero.traits:
        raise _bad(f"{where}.traits", "a hero is Mounted or Flying, not both")
    if hero.attached_to and hero.attached_to not in units:
        raise _bad(
            f"{where}.attached_to", f"{hero.attached_to!r} is not a unit of the hero's force"
        )
