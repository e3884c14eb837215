"""Events of a melee (Melee, pp.50–62): declared, fought, decided, pursued, disengaged, ended.

Past tense, each explaining itself with the rule's name and page and our ruling (HB-n);
``events.py`` imports every one of them, so ``events.X`` names them all."""

from warlog.domain.core.events import Event
from warlog.domain.core.summary import plural as _plural
from warlog.domain.heroic_battles import tables as t
from warlog.domain.heroic_battles.values import Loss, Pool, Term, hit_range
from warlog.domain.heroic_battles.values import faces_text as _faces


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
