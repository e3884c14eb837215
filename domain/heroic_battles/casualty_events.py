"""Events of losses: stamina, units removed, heroes killed (Hero Death in Combat, p.57).

Past tense, each explaining itself with the rule's name and page and our ruling (HB-n);
``events.py`` imports every one of them, so ``events.X`` names them all."""

from typing import Literal

from warlog.domain.core.events import Event
from warlog.domain.core.summary import plural as _plural
from warlog.domain.heroic_battles import tables as t

CauseOfDeath = Literal["melee", "single_combat", "shooting", "retreat", "final_blow"]

#: each cause of a hero's death in a player's words
_DEATH_CAUSES: dict[str, str] = {
    "melee": "in melee",
    "single_combat": "in single combat",
    "shooting": "by shooting",
    "retreat": "in a retreat",
    "final_blow": "by a final blow",
}


class StaminaLost(Event, frozen=True, tag="stamina_lost"):
    """A unit or hero loses stamina outside the hits of a shot or melee (a blocked retreat, a failed
    test when retreated into, a final blow, single combat)."""

    unit: str
    stamina: int
    reason: str

    def explain(self) -> str:
        text = f"{self.unit} loses {_plural(self.stamina, 'stamina point')}: {self.reason}"
        # the reasons of blocked retreats and drawn single combats name their rule; these two
        # recorded reasons do not, so the rule is named here
        if self.reason.endswith("'s final blow"):
            text += f" ({t.HERO_DEATH}; HB-13)"
        elif self.reason.startswith("lost a round of single combat"):
            text += f" ({t.SINGLE_COMBAT}; HB-17)"
        return text


class UnitDestroyed(Event, frozen=True, tag="unit_destroyed"):
    """A unit with no stamina left (or broken) is removed; its heroes stay (HB-16)."""

    unit: str
    reason: str
    how: Literal["destroyed", "broken", "fled"] = "destroyed"

    def explain(self) -> str:
        text = f"{self.unit} is removed: {self.reason}"
        if self.how == "destroyed":
            # the recorded reasons of a melee's and a shot's losses name no page
            if self.reason.startswith("cut down in"):
                text += f" ({t.MELEE}: Remove Stamina)"
            elif self.reason.startswith("shot down by"):
                text += f" ({t.SHOOTING}: Remove Stamina)"
            text += (
                "; a unit with no stamina left is destroyed and its force loses its Reputation "
                f"Points ({t.REPUTATION}); what becomes of a hero in it: HB-16"
            )
        elif self.how == "broken":
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
