"""Events of heroes in harm's way: Risk to Heroes (p.46, pp.56–57) and Single Combat.

Past tense, each explaining itself with the rule's name and page and our ruling (HB-n);
``events.py`` imports every one of them, so ``events.X`` names them all."""

from typing import Literal

from warlog.domain.core.events import Event
from warlog.domain.core.summary import plural as _plural
from warlog.domain.heroic_battles import tables as t
from warlog.domain.heroic_battles.values import Pool, RiskEntry
from warlog.domain.heroic_battles.values import faces_text as _faces

# -- Risk to Heroes ------------------------------------------------------------------------------


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
        return (
            f"{self.force} issue no challenge this melee phase: in its melee phase a side may "
            f"issue one challenge to Single Combat with a Hero, or none ({t.TURN_SEQUENCE}; "
            "HB-17)"
        )


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
