"""Events of fighting: shots, Risk to Heroes, melees, single combats, losses and retreats,
past tense, each explaining itself with the rule's name and page and our ruling (HB-n).

Split from ``events.py`` (which imports every one of them, so ``events.X`` names them all)."""

from typing import Literal

from warlog.domain.core.events import Event
from warlog.domain.core.summary import plural as _plural
from warlog.domain.heroic_battles import tables as t
from warlog.domain.heroic_battles.values import (
    Loss,
    Pool,
    RetreatOrder,
    RiskEntry,
    Term,
    hit_range,
)
from warlog.domain.heroic_battles.values import (
    faces_text as _faces,
)

CauseOfDeath = Literal["melee", "single_combat", "shooting", "retreat", "final_blow"]

#: each cause of a hero's death in a player's words
_DEATH_CAUSES: dict[str, str] = {
    "melee": "in melee",
    "single_combat": "in single combat",
    "shooting": "by shooting",
    "retreat": "in a retreat",
    "final_blow": "by a final blow",
}


# -- shooting ---------------------------------------------------------------------------------------


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


class HeroesAtRisk(Event, frozen=True, tag="heroes_at_risk"):
    """The heroes of units that took hits must roll for Risk to Heroes (p.46, pp.56–57)."""

    entries: list[RiskEntry]

    def explain(self) -> str:
        if not self.entries:
            return (
                "no hero is at risk: no unit with a hero attached took a hit (an unattached hero "
                f"takes its hits by its Armour, HB-15) ({t.RISK_TO_HEROES})"
            )
        return (
            "; ".join(
                f"{e.hero}'s unit took {_plural(e.hits, 'hit')}: {t.risk_dice(e.hits)}D6"
                for e in self.entries
            )
            + f" ({t.RISK_TO_HEROES})"
        )


class RiskRolled(Event, frozen=True, tag="risk_rolled"):
    hero: str
    hits: int
    faces: list[int]
    ones: int
    rerollable: bool = False

    def explain(self) -> str:
        more = (
            "; the hero may re-roll one 1 for a Mighty Deed and a Reputation Token (HB-29)"
            if self.rerollable
            else ""
        )
        lost = _plural(self.ones, "stamina point")
        lost = f"{lost} to lose unless re-rolled" if self.rerollable else f"{lost} lost"
        return (
            f"{self.hero}, Risk to Heroes for {_plural(self.hits, 'hit')}: "
            f"{len(self.faces)}D6 {_faces(self.faces)} → {self.ones} × 1 = "
            f"{lost} ({t.RISK_TO_HEROES}){more}"
        )


class RiskRerolled(Event, frozen=True, tag="risk_rerolled"):
    """One 1 of a Risk to Heroes roll re-rolled for a Mighty Deed (p.28; HB-29)."""

    hero: str
    face: int

    def explain(self) -> str:
        verdict = "another 1" if self.face == t.RISK_FACE else "saved"
        return f"{self.hero} re-rolls a 1 with a Mighty Deed ({t.MIGHTY_DEEDS}; HB-29): {self.face}, {verdict}"


class RiskResolved(Event, frozen=True, tag="risk_resolved"):
    """The hero loses a stamina point for each 1 that stands."""

    hero: str
    stamina_lost: int
    void: bool = False

    def explain(self) -> str:
        if self.void:
            return f"{self.hero} is no longer on the table: no risk"
        return (
            f"{self.hero} loses {_plural(self.stamina_lost, 'stamina point')} ({t.RISK_TO_HEROES})"
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


# -- melee ---------------------------------------------------------------------------------------------


class MeleeBegan(Event, frozen=True, tag="melee_began"):
    """A melee is fought (pp.50–62); the phasing force declares first."""

    combat: str
    sides: dict[str, list[str]]

    def explain(self) -> str:
        return (
            f"melee {self.combat}: "
            + " against ".join(f"{f} ({', '.join(x)})" for f, x in self.sides.items())
            + f" ({t.MELEE}; HB-31)"
        )


class MeleeDeclared(Event, frozen=True, tag="melee_declared"):
    """What a side declares for a melee: the table's geometry and its heroes' Mighty Deeds."""

    combat: str
    force: str
    supports: list[str] = []
    holding: bool = False
    rough: list[str] = []
    deeds: dict[str, int] = {}
    inspire: dict[str, int] = {}

    def explain(self) -> str:
        parts = []
        if self.supports:
            parts.append(f"supported by {', '.join(self.supports)}")
        if self.holding:
            parts.append("holding a hill or barrier")
        if self.rough:
            parts.append(f"in rough terrain: {', '.join(self.rough)}")
        for h, n in self.deeds.items():
            parts.append(f"{h} spends {_plural(n, 'Mighty Deed')} on combat dice")
        for h, n in self.inspire.items():
            parts.append(f"{h} inspires with {_plural(n, 'Mighty Deed')}")
        declared = "; ".join(parts) or "nothing declared"
        return f"{self.force} in melee {self.combat}: {declared} ({t.MELEE})"


class CombatDiceRolled(Event, frozen=True, tag="combat_dice_rolled"):
    """One fighter's combat dice (Combat Dice Penalties, Melee pp.50–62; Bonuses, p.55)."""

    combat: str
    force: str
    pool: Pool

    def explain(self) -> str:
        flank = (
            "; HB-37, since version 3: a flank or rear engagement halves the dice while an "
            "enemy that charged there still fights"
            if any(term.label == t.FLANK_OR_REAR for term in self.pool.terms)
            else ""
        )
        return (
            f"{self.force} in melee {self.combat}: {self.pool.explain()} "
            f"({t.COMBAT_PENALTIES}; {t.COMBAT_BONUSES}; HB-18{flank})"
        )


class SupportSavesRolled(Event, frozen=True, tag="support_saves_rolled"):
    """A side's support saves: each 5 or 6 removes a hit (Legendary Weapon hits first, HB-12)."""

    combat: str
    force: str
    terms: list[Term]
    faces: list[int]
    saves: int

    def explain(self) -> str:
        dice = " + ".join(f"{x.dice}D6 {x.label}" for x in self.terms) or "no save dice"
        supports = (
            "; HB-35: any friendly unit on the table and not in a melee may be declared in support"
            if any(x.label.startswith(t.SUPPORT_TERM) for x in self.terms)
            else ""
        )
        return (
            f"{self.force} support saves ({t.SUPPORT_SAVES}{supports}): {dice}: "
            f"{_faces(self.faces)} → {_plural(self.saves, 'save')} on "
            f"{hit_range(t.SUPPORT_SAVE_ON)}"
        )


class MeleeHitsCounted(Event, frozen=True, tag="melee_hits_counted"):
    """The hits each side's primary fighter takes: the enemy's hits, less its saves, Legendary
    Weapon hits removed first (HB-7, HB-12)."""

    combat: str
    scored: dict[str, int]
    legendary: dict[str, int]
    saves: dict[str, int]
    conceded: dict[str, int]
    legendary_conceded: dict[str, int]
    primaries: dict[str, str]

    def explain(self) -> str:
        parts = []
        legendary, saved_first = False, False
        for force, primary in self.primaries.items():
            enemy = next(f for f in self.scored if f != force)
            hits = self.scored[enemy]
            lw = self.legendary.get(enemy, 0)
            text = f"{primary} ({force}) takes {_plural(hits, 'hit')}"
            if lw:
                text += f" ({lw} from a Legendary Weapon)"
                legendary = True
            if self.saves.get(force):
                text += f" − {self.saves[force]} saved"
                if lw:
                    text += ", the Legendary Weapon hits first"
                    saved_first = True
                text += f" → {self.conceded[force]}"
                if lw:
                    text += (
                        f", {self.legendary_conceded.get(force, 0)} of them from a Legendary Weapon"
                    )
            parts.append(text)
        rules = "HB-7: every hit lands on the enemy's primary fighter"
        if saved_first:
            rules += "; HB-12: support saves remove Legendary Weapon hits first"
        elif legendary:
            rules += "; HB-12"
        return "; ".join(parts) + f" ({rules})"


class MeleeDamage(Event, frozen=True, tag="melee_damage"):
    """Stamina removed in melee: 1 per Legendary Weapon hit (HB-12), then 1 per full Armour's
    worth of the other hits; leftover hits are lost (digest Rulings). An unattached hero takes
    its hits by its Armour, like a unit (HB-15): since version 4 each loss says whether it is
    such a hero's, and only that loss cites HB-15 (before, every melee's losses cited it)."""

    combat: str
    losses: list[Loss]

    def explain(self) -> str:
        if not self.losses:
            return f"melee {self.combat}: no stamina lost"
        # version 3 and before: no loss says whose it is, and the whole melee cites HB-15
        unmarked = any(x.hero is None for x in self.losses)
        parts = []
        for x in self.losses:
            plain = f"{x.hits - x.legendary} ÷ Armour {x.armour}, rounded down"
            if x.legendary:
                plain = f"{_plural(x.legendary, 'Legendary Weapon hit')} × 1 + ({plain})"
            who = f"{x.unit}, an unattached hero, by its Armour (HB-15)" if x.hero else x.unit
            parts.append(f"{who}: {plain} = {_plural(x.stamina_lost, 'stamina point')} lost")
        legendary = (
            "; HB-12: each Legendary Weapon hit costs 1 stamina whatever the Armour"
            if any(x.legendary for x in self.losses)
            else ""
        )
        heroes = "; an unattached hero by its Armour, HB-15" if unmarked else ""
        return "; ".join(parts) + f" (leftover hits are lost; {t.MELEE}{legendary}{heroes})"


class MeleeDecided(Event, frozen=True, tag="melee_decided"):
    """The outcome of a melee (destroyed, draw, fighting victory; HB-8)."""

    combat: str
    outcome: str
    winner: str
    loser: str
    scored: dict[str, int]

    def explain(self) -> str:
        hits = ", ".join(f"{f} {n}" for f, n in self.scored.items())
        if self.outcome == "draw" and len(set(self.scored.values())) > 1:
            return (
                f"melee {self.combat}: hits after saves {hits}, but neither side has a fighter "
                "left: no winner; the melee ends (HB-8)"
            )
        if self.outcome == "draw":
            return (
                f"melee {self.combat}: hits after saves {hits}: a draw; the melee goes on while "
                "both sides have a fighter in it (HB-8)"
            )
        if self.outcome == "destroyed":
            return (
                f"melee {self.combat}: {self.loser} have no fighter left: {self.winner} win (HB-8)"
            )
        return (
            f"melee {self.combat}: hits after saves {hits}: a fighting victory for {self.winner}; "
            f"{self.loser} retreat; Winning markers (HB-8, HB-9)"
        )


class RetreatsOrdered(Event, frozen=True, tag="retreats_ordered"):
    orders: list[RetreatOrder]

    def explain(self) -> str:
        return "; ".join(
            f"{o.unit} must retreat {t.half_st(o.half_st)} ({_retreat_rule(o.half_st)})"
            for o in self.orders
        )


class Pursued(Event, frozen=True, tag="pursued"):
    combat: str
    force: str
    forced: bool = False

    def explain(self) -> str:
        why = " (an Impetuous unit must pursue)" if self.forced else ""
        return f"{self.force} pursue: melee {self.combat} goes on{why} (HB-10)"


class HeldGround(Event, frozen=True, tag="held_ground"):
    combat: str
    force: str

    def explain(self) -> str:
        return f"{self.force} hold their ground: melee {self.combat} ends (HB-10)"


class DisengageDeclared(Event, frozen=True, tag="disengage_declared"):
    unit: str

    def explain(self) -> str:
        return f"{self.unit} attempts to disengage (HB-24)"


class Disengaged(Event, frozen=True, tag="disengaged"):
    unit: str

    def explain(self) -> str:
        return f"{self.unit} disengages: it moves back 1 ST out of the melee (HB-24)"


class StayedEngaged(Event, frozen=True, tag="stayed_engaged"):
    unit: str

    def explain(self) -> str:
        return f"{self.unit} stays in the melee (HB-24)"


class MeleeEnded(Event, frozen=True, tag="melee_ended"):
    combat: str

    def explain(self) -> str:
        return f"melee {self.combat} has been fought this phase ({t.MELEE}; HB-31)"


# -- single combat -----------------------------------------------------------------------------------


class ChallengeIssued(Event, frozen=True, tag="challenge_issued"):
    challenger: str
    challenged: str

    def explain(self) -> str:
        return (
            f"{self.challenger} challenges {self.challenged} to single combat ({t.SINGLE_COMBAT})"
        )


class ChallengeForgone(Event, frozen=True, tag="challenge_forgone"):
    force: str

    def explain(self) -> str:
        return f"{self.force} issue no challenge this melee phase"


class ChallengeRefused(Event, frozen=True, tag="challenge_refused"):
    hero: str

    def explain(self) -> str:
        return f"{self.hero} refuses the challenge and adds no dice to this phase's melees (HB-17)"


class ChallengeAccepted(Event, frozen=True, tag="challenge_accepted"):
    hero: str

    def explain(self) -> str:
        return f"{self.hero} accepts the challenge: the single combat is fought before any melee (HB-31)"


class DeedsCommitted(Event, frozen=True, tag="deeds_committed"):
    """A hero's Mighty Deeds for this round of single combat (1D6 each)."""

    hero: str
    deeds: int

    def explain(self) -> str:
        return f"{self.hero} commits {_plural(self.deeds, 'Mighty Deed')} to this round ({t.SINGLE_COMBAT})"


class SingleCombatDiceRolled(Event, frozen=True, tag="single_combat_dice_rolled"):
    """A hero's dice in a round of single combat: its level, traits and Mighty Deeds."""

    round: int
    pool: Pool

    def explain(self) -> str:
        return f"single combat round {self.round}: {self.pool.explain()} ({t.SINGLE_COMBAT})"


class SingleCombatRound(Event, frozen=True, tag="single_combat_round"):
    """A round's result: the hits (Legendary Weapon hits counting 2), the difference against
    the loser's armour (killed outright when it reaches it), or a draw."""

    round: int
    hits: dict[str, int]
    result: Literal["kill", "win", "draw", "final_draw"]
    winner: str = ""
    loser: str = ""
    loser_armour: int = 0

    def explain(self) -> str:
        hits = ", ".join(f"{h} {n}" for h, n in self.hits.items())
        if self.result in ("kill", "win"):
            diff = self.hits[self.winner] - self.hits[self.loser]
            if self.result == "kill":
                verdict = (
                    f"difference {diff} ≥ {self.loser}'s Armour {self.loser_armour}: "
                    f"{self.loser} is killed outright"
                )
            else:
                verdict = (
                    f"difference {diff} < {self.loser}'s Armour {self.loser_armour}: "
                    f"{self.winner} wins the round, {self.loser} loses 1 stamina point"
                )
        elif self.result == "draw":
            verdict = "a draw: both fight again"
        else:
            verdict = "a draw in the third round: both lose 1 stamina point"
        return f"single combat round {self.round}: hits {hits}: {verdict} ({t.SINGLE_COMBAT})"


# -- losses --------------------------------------------------------------------------------------------


class StaminaLost(Event, frozen=True, tag="stamina_lost"):
    """A unit or hero loses stamina outside the hits of a shot or melee (a blocked retreat, a failed
    test when retreated into, a final blow, single combat)."""

    unit: str
    stamina: int
    reason: str

    def explain(self) -> str:
        return f"{self.unit} loses {_plural(self.stamina, 'stamina point')}: {self.reason}"


class UnitDestroyed(Event, frozen=True, tag="unit_destroyed"):
    """A unit with no stamina left (or broken) is removed; its heroes stay (HB-16)."""

    unit: str
    reason: str
    how: Literal["destroyed", "broken", "fled"] = "destroyed"

    def explain(self) -> str:
        text = f"{self.unit} is removed: {self.reason}"
        if self.how == "broken":
            text += (
                "; a unit retreating on its last stamina point (2 or less if Brittle, p.68) "
                "tests or breaks (HB-32)"
            )
        return text


class HeroKilled(Event, frozen=True, tag="hero_killed"):
    """A hero dies. In combat the Hero Death table (p.57) is rolled next (``hero_death_rolled``);
    elsewhere its force loses its whole Reputation, with no roll (HB-14)."""

    hero: str
    cause: CauseOfDeath
    enemy: str = ""

    def explain(self) -> str:
        how = _DEATH_CAUSES.get(self.cause, self.cause)
        if self.cause in ("melee", "single_combat", "final_blow"):
            return f"{self.hero} is killed {how}: the Hero Death table is rolled ({t.HERO_DEATH})"
        return f"{self.hero} is killed {how} (no Hero Death roll outside combat, HB-14)"


class HeroDeathRolled(Event, frozen=True, tag="hero_death_rolled"):
    """Hero Death in Combat (p.57): 1–3 food for ravens, 4–5 a famous death, 6 a final blow at
    ``target`` ("" when there is nobody left to strike, HB-13)."""

    hero: str
    roll: int
    outcome: str
    target: str = ""

    def explain(self) -> str:
        blow = f": a final blow at {self.target}" if self.target else ""
        if self.outcome == "final_blow" and not self.target:
            blow = ": nobody is left to strike"
        return (
            f"{self.hero}, Hero Death 1D6 {self.roll}: {t.DEATH_NAMES.get(self.outcome, self.outcome)}"
            f"{blow} ({t.HERO_DEATH}; HB-13)"
        )


class HeroUnattached(Event, frozen=True, tag="hero_unattached"):
    """A hero whose unit was removed stands on its own (HB-16); in a melee that goes on it fights
    on in it."""

    hero: str
    unit: str
    combat: str = ""

    def explain(self) -> str:
        on = f"; it fights on in melee {self.combat}" if self.combat else ""
        return f"{self.hero} survives {self.unit} and stands on its own{on} (HB-16)"


class FinalBlowStruck(Event, frozen=True, tag="final_blow_struck"):
    """A dying hero's final blow (p.57): the enemy must roll 4+ on 1D6 or lose 1 stamina."""

    hero: str
    target: str
    roll: int
    saved: bool

    def explain(self) -> str:
        if not self.roll:
            return f"{self.target} is no longer on the table: {self.hero}'s final blow does nothing (HB-13)"
        verdict = "no effect" if self.saved else "1 stamina point lost"
        return (
            f"{self.hero}'s final blow at {self.target}: 1D6 {self.roll} "
            f"({t.FINAL_BLOW_SAVE_ON}+ saves) → {verdict} ({t.HERO_DEATH})"
        )


# -- retreats -----------------------------------------------------------------------------------------


def _retreat_rule(half_st: int) -> str:
    """Where a retreat's distance comes from: ½ ST (Retreating), or 1 ST from a Fearsome winner."""
    if half_st > t.RETREAT_HALF_ST:
        return f"a Fearsome winner: {t.half_st(half_st)}, trait p.66; HB-33"
    return t.RETREATING


class RetreatBegan(Event, frozen=True, tag="retreat_began"):
    unit: str
    half_st: int

    def explain(self) -> str:
        return (
            f"{self.unit} retreats directly back {t.half_st(self.half_st)} "
            f"({_retreat_rule(self.half_st)})"
        )


class UnitRetreated(Event, frozen=True, tag="unit_retreated"):
    """What the retreat ran into, as its owner declares (HB-11)."""

    unit: str
    half_st: int
    into: str
    friend: str = ""

    def explain(self) -> str:
        what = {
            "clear": "nothing in the way",
            "friends": f"into {self.friend}, which is pushed back; each unit tests or loses 1 "
            "stamina (a hero never tests, nor does a Steadfast unit, p.70)",
            "blocked": "blocked by enemy troops, impassable terrain or a combat: it stops a "
            "Blade's Length away and loses 1 stamina",
            "off_table": "off the table: destroyed",
        }[self.into]
        return (
            f"{self.unit} retreats {t.half_st(self.half_st)}: {what} "
            f"({_retreat_rule(self.half_st)}; HB-11)"
        )


class RetreatCancelled(Event, frozen=True, tag="retreat_cancelled"):
    unit: str

    def explain(self) -> str:
        return f"{self.unit} is no longer on the table: no retreat ({t.RETREATING})"
