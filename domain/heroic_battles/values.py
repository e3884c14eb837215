"""Small values shared by events and state: dice pools with their terms, pending command tests,
heroes at risk, melee declarations and retreat orders.

A **pool** is a number of dice built step by step, each step a **term** (a halving for a penalty,
or dice added for a bonus), then rolled: ``Pool.explain()`` prints it the way a referee checks it
("12 Combat Dice; half stamina → 6; obscured → 3; +1D6 hero → 4; hits on 5–6: …").
"""

from typing import Literal

import msgspec

TestPurpose = Literal[
    "movement",
    "charge",
    "facing",
    "evade",
    "counter_charge",
    "shot",
    "break",
    "retreated_into",
    "disengage",
]


class Term(msgspec.Struct, frozen=True):
    """One step in building a pool: ``dice`` after it; a halving (penalty) or a bonus."""

    label: str
    dice: int
    halving: bool = False


def faces_text(faces: list[int] | tuple[int, ...]) -> str:
    """[4, 1, 6]"""
    return "[" + ", ".join(str(f) for f in faces) + "]"


def hit_range(hit_on: int) -> str:
    """5 → "5–6"."""
    return f"{hit_on}–6"


class Pool(msgspec.Struct, frozen=True, kw_only=True):
    """A pool of dice: whose, from what base, each term in order, the roll and the hits.

    ``reroll_reason`` says why its 1s are rolled again (a Charging or Winning marker, the first
    round of a single combat); the re-roll is its own roll (``ones_rerolled``), since how many
    dice it takes is only known once this one is rolled. ``legendary`` marks a Legendary
    Weapon's dice; ``hit_value`` is what each hit counts for (2 for those in single combat).
    """

    owner: str
    label: str
    base: int
    terms: list[Term] = []
    dice: int
    hit_on: int
    faces: list[int] = []
    reroll_reason: str = ""
    hits: int = 0
    legendary: bool = False
    hit_value: int = 1

    @property
    def ones(self) -> int:
        """The 1s to roll again (none without a reason to)."""
        return sum(1 for f in self.faces if f == 1) if self.reroll_reason else 0

    def build(self) -> str:
        """How the dice were counted: "12 Combat Dice; half stamina → 6; +1D6 hero → 7"."""
        parts = [f"{self.base} {self.label}"]
        before = self.base
        for t in self.terms:
            if t.halving:
                parts.append(f"{t.label} → {t.dice}")
            else:
                parts.append(f"+{t.dice - before}D6 {t.label} → {t.dice}")
            before = t.dice
        return "; ".join(parts)

    def explain(self) -> str:
        """The build, the roll and the hits, in one line."""
        text = f"{self.build()}; hits on {hit_range(self.hit_on)}: {faces_text(self.faces)}"
        if self.hit_value != 1:
            text += f" → {self.hits // self.hit_value} × {self.hit_value} (Legendary Weapon, HB-12)"
        text += f" → {self.hits} hit{'s' if self.hits != 1 else ''}"
        if self.legendary and self.hit_value == 1:
            text += (
                " (Legendary Weapon dice: each hit costs 1 stamina whatever the Armour, and "
                "support saves remove these first, HB-12)"
            )
        if self.ones:
            text += f"; {self.ones} × 1 to re-roll ({self.reroll_reason})"
        return text


class Ones(msgspec.Struct, frozen=True, kw_only=True):
    """1s of a pool still to be rolled again, and how their new faces hit."""

    force: str
    owner: str
    count: int
    hit_on: int
    reason: str
    hit_value: int = 1
    legendary: bool = False


class PendingTest(msgspec.Struct, frozen=True, kw_only=True):
    """A command test to take (p.26): for whom, why, on how many dice (the lower counts); for a
    "movement" test, the movement action it is for; after the roll, its faces and result."""

    unit: str
    purpose: TestPurpose
    dice: int
    reasons: tuple[str, ...] = ()
    direction: str = ""
    rough: bool = False
    barrier: bool = False
    rolled: bool = False
    faces: tuple[int, ...] = ()
    passed: bool = False
    rerollable: bool = False
    #: re-rolls taken (HB-28)
    rerolls: int = 0


class RiskEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A hero at risk: the hits its unit took and, in melee, the enemy its final blow strikes."""

    hero: str
    hits: int
    enemy: str = ""
    rolled: bool = False
    faces: tuple[int, ...] = ()
    rerolled: bool = False


class Declaration(msgspec.Struct, frozen=True, kw_only=True):
    """What a side declared for a melee: supporting units, a hill or barrier held, its fighters
    in rough terrain, Mighty Deeds for combat dice and Inspiring heroes' deeds for saves."""

    supports: tuple[str, ...] = ()
    holding: bool = False
    rough: tuple[str, ...] = ()
    deeds: dict[str, int] = {}
    inspire: dict[str, int] = {}


class RetreatOrder(msgspec.Struct, frozen=True, kw_only=True):
    """A unit or hero that must retreat, how far (half ST) and why."""

    unit: str
    half_st: int
    cause: Literal["melee", "shooting"]
    stage: Literal["start", "declare"] = "start"


class Loss(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One primary fighter's stamina loss in a melee: the hits it took after saves, those from
    Legendary Weapons among them (HB-12), its armour and the stamina lost; since version 4
    whether the one losing it is an unattached hero (HB-15: True), or a unit (False)."""

    unit: str
    hits: int
    legendary: int
    armour: int
    stamina_lost: int
    #: HB-15, since version 4 (``rulings.UNATTACHED_HERO_LOSS_MARKED_SINCE``): an unattached
    #: hero's loss (True) or a unit's (False); None, left out of the log, in a game of version 3
    #: or before, whose losses do not say (their logs encode as they always did)
    hero: bool | None = None
