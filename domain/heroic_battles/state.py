"""The game state: forces, units and heroes with their profiles and markers, melees, the turn
sequence and the procedures in progress (frames).

Frozen msgspec Structs that round-trip through msgpack (dict keys are str). ``evolve`` builds new
states with ``msgspec.structs.replace``; nothing here decides anything. warlog keeps no positions:
the players declare the geometry each command needs (docs/rulings.md, HB-1 … HB-33).
"""

from typing import Literal, Union

import msgspec

from warlog.domain.core.procedure import Frame
from warlog.domain.heroic_battles.scenario import Scenario
from warlog.domain.heroic_battles.tables import Facing, UnitType
from warlog.domain.heroic_battles.values import (
    Declaration,
    Ones,
    PendingTest,
    RetreatOrder,
    RiskEntry,
)

#: where the turn sequence stands (p.27): the phasing force's movement, its skirmishers' shooting
#: after movement, its melee; the shooting phase; "over" once the battle is decided
Phase = Literal["movement", "skirmish", "melee", "shooting", "over"]
#: why a unit or hero left the table ("" while it stands on it)
Gone = Literal["", "destroyed", "broken", "fled", "killed"]


class Force(msgspec.Struct, frozen=True):
    id: str
    name: str
    tokens: int


class Figure(msgspec.Struct, frozen=True, kw_only=True):
    """What units and heroes share: a profile (armour, stamina, reputation, traits, missile
    weapon), current stamina, whether it has left the table, and its markers and movement this
    phase."""

    id: str
    force: str
    name: str
    armour: int
    max_stamina: int
    stamina: int
    reputation: int
    traits: tuple[str, ...] = ()
    missile: str = ""
    range: int = 0
    gone: Gone = ""
    charging: bool = False
    winning: bool = False
    shot: bool = False
    #: movement actions taken this movement phase
    actions: int = 0
    #: its movement is over for this phase (HB-3)
    done: bool = False
    evaded: bool = False


class Unit(Figure, frozen=True, kw_only=True):
    """A unit: its type and dice besides what every figure has."""

    type: UnitType
    combat_dice: int
    shooting_dice: int
    shooting_armour: int
    #: it has taken a command test in its own movement phase (Drilled, HB-25)
    tested: bool = False


class Hero(Figure, frozen=True, kw_only=True):
    """A hero: its level, the Mighty Deeds it has left this turn, and its unit."""

    level: int
    #: the unit it is attached to; "" when it stands on its own
    unit: str = ""
    deeds: int = 0
    #: it fought a single combat this melee phase: it fights in no other melee of the phase
    dueled: bool = False
    #: it refused a challenge this melee phase (HB-17)
    refused: bool = False


class Combat(msgspec.Struct, frozen=True):
    """A melee: each force's fighters (units and unattached heroes) in the order they entered it,
    the first being its primary fighter (HB-7), and those engaged on their flank or rear."""

    id: str
    sides: dict[str, tuple[str, ...]]
    flanked: tuple[str, ...] = ()
    #: who charged whom in the flank or rear, (the charged, the charger), while both fight in
    #: it (HB-37)
    flankers: tuple[tuple[str, str], ...] = ()


# -- procedures in progress (the core engine's frames) -----------------------------------------------


class HbFrame(Frame, frozen=True, tag_field="frame"):
    """Base of this ruleset's frames (tagged, so that a snapshot decodes each as its own kind)."""


class TestFrame(HbFrame, frozen=True, tag="tests"):
    """Command tests taken one after the other; a failed one may be re-rolled (HB-28)."""

    tests: tuple[PendingTest, ...]


class ChargeFrame(HbFrame, frozen=True, tag="charge"):
    """A charge being resolved: the target's response, the charger's follow-up, contact."""

    charger: str
    target: str
    facing: Facing
    rough: bool = False
    barrier: bool = False
    stage: Literal["response", "follow_up", "contact"] = "response"


class ShootingFrame(HbFrame, frozen=True, tag="shooting"):
    """A shot being resolved (p.42): risk to heroes, stamina, the command test."""

    shooter: str
    target: str
    hits: int
    stage: Literal["risk", "damage", "done"] = "risk"
    #: the target has part of its base in rough terrain, as the shooter declared (HB-36)
    rough: bool = False


class RiskFrame(HbFrame, frozen=True, tag="risk"):
    """Risk to Heroes (p.46, pp.56–57), hero by hero."""

    entries: tuple[RiskEntry, ...]
    in_combat: bool


MeleeStage = Literal[
    "declare", "fight", "rerolls", "count", "risk", "damage", "outcome", "pursuit", "disengage"
]


class MeleeFrame(HbFrame, frozen=True, tag="melee"):
    """A melee being fought (pp.50–62), step by step."""

    combat: str
    stage: MeleeStage = "declare"
    declared: dict[str, Declaration] = {}
    #: force -> hits its dice scored, and of those, hits from Legendary Weapons (HB-12)
    scored: dict[str, int] = {}
    legendary: dict[str, int] = {}
    #: force -> its support saves
    saves: dict[str, int] = {}
    #: 1s still to roll again (a Charging or Winning marker)
    ones: tuple[Ones, ...] = ()
    #: force -> hits that landed on its primary fighter after saves, and the Legendary ones
    conceded: dict[str, int] = {}
    legendary_conceded: dict[str, int] = {}
    #: force -> its primary fighter when the dice were rolled
    primaries: dict[str, str] = {}
    winner: str = ""
    loser: str = ""
    outcome: str = ""
    #: units already asked whether to disengage (HB-24)
    asked: tuple[str, ...] = ()


class DuelFrame(HbFrame, frozen=True, tag="single_combat"):
    """A single combat (up to three rounds)."""

    challenger: str
    challenged: str
    round: int = 1
    stage: Literal["answer", "deeds", "rerolls"] = "answer"
    #: hero -> Mighty Deeds committed this round (a hero that has committed is a key)
    deeds: dict[str, int] = {}
    #: hero -> hits this round so far
    hits: dict[str, int] = {}
    #: 1s still to roll again (the first round)
    ones: tuple[Ones, ...] = ()


class FallFrame(HbFrame, frozen=True, tag="hero_death"):
    """A hero killed in combat: the Hero Death table (p.57) is to be rolled."""

    hero: str
    cause: str
    enemy: str = ""


class BlowFrame(HbFrame, frozen=True, tag="final_blow"):
    """A dying hero's final blow (p.57): the target's roll."""

    hero: str
    target: str


class RetreatFrame(HbFrame, frozen=True, tag="retreats"):
    """Retreats (pp.47–48, 59–60), one unit after the other."""

    orders: tuple[RetreatOrder, ...]


AnyFrame = Union[  # noqa: UP007 - msgspec decodes a typing.Union of tagged Structs
    TestFrame,
    ChargeFrame,
    ShootingFrame,
    RiskFrame,
    MeleeFrame,
    DuelFrame,
    FallFrame,
    BlowFrame,
    RetreatFrame,
]


class Awaiting(msgspec.Struct, frozen=True):
    """A roll the game waits for (``roll``): whose dice, how many, what for."""

    roller: str
    dice: int
    what: str


class GameState(msgspec.Struct, frozen=True, kw_only=True):
    scenario: Scenario
    forces: dict[str, Force]
    units: dict[str, Unit]
    heroes: dict[str, Hero]
    attacker: str
    defender: str
    combats: tuple[Combat, ...] = ()
    frames: tuple[AnyFrame, ...] = ()
    turn: int = 0
    phase: Phase = "movement"
    #: the force whose movement, skirmish shooting or melee it is
    phasing: str = ""
    #: the unit or hero moving now (HB-3)
    mover: str = ""
    #: melees still to fight this melee phase (HB-31)
    melee_queue: tuple[str, ...] = ()
    #: the phasing force has issued or declined its challenge this melee phase
    challenge_done: bool = False
    #: the side whose shot it is in the shooting phase, and the sides that passed (HB-19)
    shooting_side: str = ""
    passed: tuple[str, ...] = ()
    #: melees begun so far (their ids count them)
    combats_begun: int = 0
    #: a hero has earned the token for charging into the first combat of the game (p.23, HB-38)
    first_combat_earned: bool = False
    #: a roll waiting for its own command (its count depends on faces rolled just before)
    awaiting: Awaiting | None = None
    result: str = ""
    #: the version of the rules the game began under (a rule changed since asks it)
    rules_version: int = 1
