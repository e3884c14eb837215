"""Events of shooting (Shooting, p.42): a shot, its hits, a side that shoots no more.

Past tense, each explaining itself with the rule's name and page and our ruling (HB-n);
``events.py`` imports every one of them, so ``events.X`` names them all."""

from warlog.domain.core.events import Event
from warlog.domain.core.summary import plural as _plural
from warlog.domain.heroic_battles import tables as t
from warlog.domain.heroic_battles.values import Pool


class ShotsFired(Event, frozen=True, tag="shots_fired"):
    """A unit or hero shoots (p.42): the declared geometry, the pool and the hits."""

    shooter: str
    target: str
    distance: int
    weapon_range: int
    in_killing_zone: bool
    pool: Pool
    obscured: bool = False
    overhead: bool = False
    behind: bool = False

    def explain(self) -> str:
        hero = any(term.label == f"hero {self.shooter} shooting" for term in self.pool.terms)
        if hero and not self.pool.base:
            where = "a hero, who has no Killing Zone (HB-2)"
        else:
            where = f"{'inside' if self.in_killing_zone else 'outside'} its Killing Zone"
        return (
            f"{self.shooter} shoots at {self.target}, {self.distance} ST away (range "
            f"{self.weapon_range} ST, {t.SHOOTING_RANGES}), {where}: "
            f"{self.pool.explain()} ({t.SHOOTING}; HB-18)"
        )


class TargetInRoughTerrain(Event, frozen=True, tag="target_in_rough_terrain"):
    """The unit a shot hit has part of its base in rough terrain, as the shooter declared: its
    command test for the hits is on 2D6 (p.26; HB-36, since version 2)."""

    unit: str

    def explain(self) -> str:
        return (
            f"{self.unit} has part of its base in rough terrain, as declared: a command test it "
            f"takes there is on 2D6, the lowest counts ({t.COMMAND_TESTS}; HB-36)"
        )


class HitsTaken(Event, frozen=True, tag="hits_taken"):
    """Shooting hits on a unit or unattached hero: 1 stamina per full Armour's worth (digest
    Rulings; HB-15)."""

    unit: str
    hits: int
    armour: int
    stamina_lost: int

    def explain(self) -> str:
        return (
            f"{self.unit} takes {_plural(self.hits, 'hit')} against Armour {self.armour}: "
            f"{self.hits} ÷ {self.armour}, rounded down = "
            f"{_plural(self.stamina_lost, 'stamina point')} lost (leftover hits are lost; "
            f"{t.SHOOTING})"
        )


class ShootingEnded(Event, frozen=True, tag="shooting_ended"):
    shooter: str
    target: str

    def explain(self) -> str:
        return f"{self.shooter}'s shot at {self.target} is resolved ({t.SHOOTING})"


class ShootingPassed(Event, frozen=True, tag="shooting_passed"):
    """A side shoots no more this shooting phase (HB-19)."""

    force: str
    reason: str = ""

    def explain(self) -> str:
        why = f": {self.reason}" if self.reason else ""
        return f"{self.force} shoot no more this phase{why} (HB-19)"
