"""Commands: every choice the rules give a player, and every measurement only the table shows,
as tagged, frozen msgspec Structs.

warlog keeps no positions: a command carries what the players measured (a shot's distance in ST,
inside the Killing Zone or not, obscured, a flank or rear charge, rough terrain, a barrier, a hill
held, which friends support, what a retreat runs into). ``unit`` names a unit or an unattached
hero. JSON examples::

    {"type": "move", "player": "saxons", "unit": "duguth-1"}
    {"type": "charge", "player": "saxons", "unit": "duguth-1", "target": "pedyt-2", "facing": "flank"}
    {"type": "shoot", "player": "britons", "shooter": "scouts", "target": "geoguth-1",
     "distance": 3, "in_killing_zone": false, "none_in_killing_zone": true, "obscured": true}
    {"type": "declare_melee", "player": "saxons", "combat": "melee-1", "supports": ["duguth-2"],
     "deeds": {"aelle": 2}}
    {"type": "declare_retreat", "player": "britons", "unit": "pedyt-2", "into": "friends",
     "friend": "pedyt-3"}
"""

from typing import Annotated, Literal, Union

import msgspec

from warlog.domain.core.ruleset import Command

Deeds = Annotated[int, msgspec.Meta(ge=0, le=99)]
Distance = Annotated[int, msgspec.Meta(ge=0, le=99)]

# -- movement phase (pp.30–40) ------------------------------------------------------------------------


class Move(Command, frozen=True, tag="move"):
    """One movement action: ``direction`` "ahead" (full distance straight ahead) or "any" (half
    distance for Warriors, Heavy Riders and Monstrosities; full for the others); ``rough`` if a
    test would be taken in rough terrain; ``barrier`` if it crosses one."""

    unit: str
    direction: Literal["ahead", "any"] = "ahead"
    rough: bool = False
    barrier: bool = False


class Charge(Command, frozen=True, tag="charge"):
    """A charge straight ahead into ``target`` (a movement action); ``facing`` is the target's
    side it strikes ("flank" and "rear" need the whole base behind the target's front line)."""

    unit: str
    target: str
    facing: Literal["front", "flank", "rear"] = "front"
    rough: bool = False
    barrier: bool = False


class ChangeFacing(Command, frozen=True, tag="change_facing"):
    """A unit's first and only movement action: a command test, then any facing; ``rough`` if
    the unit has part of its base in rough terrain (HB-36)."""

    unit: str
    rough: bool = False


class JoinUnit(Command, frozen=True, tag="join_unit"):
    """An unattached hero joins a friendly unit (a movement action, HB-5)."""

    hero: str
    unit: str


class LeaveUnit(Command, frozen=True, tag="leave_unit"):
    """A hero leaves its unit (HB-5)."""

    hero: str


class EndMovement(Command, frozen=True, tag="end_movement"):
    """The phasing force has finished moving."""


# -- a charge being resolved -------------------------------------------------------------------------


class Evade(Command, frozen=True, tag="evade"):
    """The charged unit (Evade trait) or unattached hero evades (p.38); ``rough`` if the unit
    has part of its base in rough terrain (HB-36)."""

    unit: str
    rough: bool = False


class CounterCharge(Command, frozen=True, tag="counter_charge"):
    """The charged unit with Counter Charge counter charges (HB-23)."""

    unit: str


class ReceiveCharge(Command, frozen=True, tag="receive_charge"):
    """The charged unit or hero stands and receives the charge."""

    unit: str


class PressCharge(Command, frozen=True, tag="press_charge"):
    """After an evade: does the charger's full movement action straight ahead still make contact?"""

    contact: bool


# -- a roll the game waits for ---------------------------------------------------------------------


class Roll(Command, frozen=True, tag="roll"):
    """Make the roll the game waits for (its dice in ``dice`` with manual dice)."""


# -- command tests ------------------------------------------------------------------------------------


class RerollTest(Command, frozen=True, tag="reroll_test"):
    """A hero within 2 ST spends a Mighty Deed to re-roll the failed command test (HB-28)."""

    hero: str


class AcceptTest(Command, frozen=True, tag="accept_test"):
    """The failed command test stands."""


# -- shooting (p.42) ----------------------------------------------------------------------------------


class Shoot(Command, frozen=True, tag="shoot"):
    """``shooter`` shoots at ``target``: the distance in whole ST rounded up (HB-1), whether the
    target is inside the shooter's Killing Zone (outside it, the players declare none is inside,
    HB-2), obscured, overhead fire, the shooter's base entirely behind the target's front line,
    the Mighty Deeds of heroes attached to the shooter (or of the hero shooting), and whether the
    target has part of its base in rough terrain (its command test if hit, HB-36)."""

    shooter: str
    target: str
    distance: Distance
    in_killing_zone: bool = True
    none_in_killing_zone: bool = False
    obscured: bool = False
    overhead: bool = False
    behind: bool = False
    deeds: dict[str, Deeds] = {}
    target_rough: bool = False


class EndShooting(Command, frozen=True, tag="end_shooting"):
    """Shoot no more: ends the skirmishers' shooting after movement, or passes in the shooting
    phase (HB-19)."""


# -- Risk to Heroes -----------------------------------------------------------------------------------


class RerollRisk(Command, frozen=True, tag="reroll_risk"):
    """The hero re-rolls one 1 of its Risk to Heroes roll (a Mighty Deed and a token, HB-29)."""

    hero: str


class AcceptRisk(Command, frozen=True, tag="accept_risk"):
    """The Risk to Heroes roll stands."""

    hero: str


# -- melee (pp.50–62) ---------------------------------------------------------------------------------


class Challenge(Command, frozen=True, tag="challenge"):
    """The phasing force's one challenge to single combat: ``hero`` challenges ``opponent``."""

    hero: str
    opponent: str


class NoChallenge(Command, frozen=True, tag="no_challenge"):
    """No challenge this melee phase."""


class AcceptChallenge(Command, frozen=True, tag="accept_challenge"):
    hero: str


class RefuseChallenge(Command, frozen=True, tag="refuse_challenge"):
    """Refuse (a token, unless Non-Combatant; a Proud hero never refuses)."""

    hero: str


class SpendDeeds(Command, frozen=True, tag="spend_deeds"):
    """Mighty Deeds for this round of single combat (1D6 each; 0 spends none)."""

    hero: str
    deeds: Deeds


class DeclareMelee(Command, frozen=True, tag="declare_melee"):
    """A side's declaration for the melee: friendly units in support position, a hill or barrier
    held, its fighters with part of their base in rough terrain, its fighting heroes' Mighty
    Deeds for combat dice, Inspiring heroes' deeds for support saves (not in a melee)."""

    combat: str
    supports: list[str] = []
    holding: bool = False
    rough: list[str] = []
    deeds: dict[str, Deeds] = {}
    inspire: dict[str, Deeds] = {}


class Pursue(Command, frozen=True, tag="pursue"):
    """The winners follow the retreating enemy: the melee goes on (HB-10)."""


class HoldGround(Command, frozen=True, tag="hold_ground"):
    """The winners stay: the melee ends (HB-10)."""


class Disengage(Command, frozen=True, tag="disengage"):
    """A unit with Disengage tries to leave the melee (HB-24)."""

    unit: str


class StayEngaged(Command, frozen=True, tag="stay_engaged"):
    unit: str


# -- retreats -------------------------------------------------------------------------------------------


class DeclareRetreat(Command, frozen=True, tag="declare_retreat"):
    """What the ½ ST retreat runs into (HB-11): nothing, ``friends`` (name the ``friend``),
    something that blocks it, or the table edge; ``rough``: which of the two units that then
    test (the retreater, the friend) have part of their base in rough terrain (HB-36)."""

    unit: str
    into: Literal["clear", "friends", "blocked", "off_table"]
    friend: str = ""
    rough: list[str] = []


HbCommand = Union[  # noqa: UP007 - msgspec decodes a typing.Union of tagged Structs
    Move,
    Charge,
    ChangeFacing,
    JoinUnit,
    LeaveUnit,
    EndMovement,
    Evade,
    CounterCharge,
    ReceiveCharge,
    PressCharge,
    RerollTest,
    AcceptTest,
    Shoot,
    EndShooting,
    RerollRisk,
    AcceptRisk,
    Challenge,
    NoChallenge,
    AcceptChallenge,
    RefuseChallenge,
    SpendDeeds,
    DeclareMelee,
    Pursue,
    HoldGround,
    Disengage,
    StayEngaged,
    DeclareRetreat,
    Roll,
]
COMMAND_TYPES: tuple[type[Command], ...] = HbCommand.__args__  # type: ignore[attr-defined]
