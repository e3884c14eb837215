"""The event of a card's creation (p.28, p.32, p.45; AE-73; past tense, stable tag).

One event for every attempt, whether it creates the card or not, carrying its whole threshold
challenge (``challenge.Challenge``, resolved at once), so that ``explain`` prints the pool, the
dice, the fate spent and the arithmetic. All but the empire and the resources paid is sealed
for the researcher's empire: the other empire sees the same event, of the same shape, whoever
tried, wherever, for whichever card, with whatever dice. Never imports ``state.py``.
"""

from typing import Annotated

from warlog.domain.armageddon_empires.challenge import Challenge, Outcome, counted
from warlog.domain.armageddon_empires.resources import Resources
from warlog.domain.core.events import Event
from warlog.domain.core.seal import Hidden

#: the fields of ``research_attempted`` sealed for the researcher's empire (AE-73)
SEALED = frozenset({"hero", "at", "ability", "card", "ap_cost", "challenge", "outcome", "created"})


def verdict(outcome: Outcome, created: str | None, empire: str) -> str:
    """The arithmetic of a creation's challenge (p.28: ties succeed; AE-73)."""
    a, th = outcome.attacker_successes, outcome.threshold
    if created is not None:
        return (
            f"{counted(a)} ≥ threshold {th}: created, {created} into {empire}'s hand "
            "(ties succeed, p.28; AE-73)"
        )
    return (
        f"{counted(a)} < threshold {th}: not created; its AP and resources are spent all the "
        "same (p.28; AE-73)"
    )


class ResearchAttempted(Event, frozen=True, tag="research_attempted"):
    """A hero tries to create a card of his ability's research list (p.28, p.32, p.45; AE-73):
    its AP and resources are paid whether he succeeds or not, his threshold challenge is
    resolved at once (the referee's hidden rolls), and on success the new card, ``created``,
    goes to his empire's hand. Everything but the empire and the resources ``paid`` is sealed
    for it: the stockpile is public, the rest is the researcher's."""

    empire: str
    hero: Annotated[str, Hidden(owner="empire")]
    at: Annotated[str, Hidden(owner="empire")]
    #: the ability he creates by (Tactician, Technologist) and the card type he tries
    ability: Annotated[str, Hidden(owner="empire")]
    card: Annotated[str, Hidden(owner="empire")]
    ap_cost: Annotated[int, Hidden(owner="empire")]
    paid: Resources
    challenge: Annotated[Challenge, Hidden(owner="empire")]
    outcome: Annotated[Outcome, Hidden(owner="empire")]
    #: the id of the card created, None when the challenge fails
    created: Annotated[str | None, Hidden(owner="empire")]

    def explain(self) -> str:
        level = self.challenge.attacker.pool.size
        return (
            f"{self.empire}'s {self.hero} ({self.ability} {level}) at {self.at} tries to create "
            f"{self.card} (threshold {self.outcome.threshold}) for {self.ap_cost} AP and "
            f"{self.paid.text()}, paid whether or not he succeeds (p.28, p.32; AE-73)\n"
            f"{self.challenge.describe()}\n{verdict(self.outcome, self.created, self.empire)}"
        )

    def explain_sealed(self, closed: frozenset[str]) -> str | None:
        """The attempt, to the other empire: that it was made, and the resources paid."""
        if not closed <= SEALED:
            return None
        return (
            f"{self.empire} tries to create a card, paying {self.paid.text()} (p.28, p.32; "
            "AE-73): which hero, where, which card, its AP and its dice are its own to see"
        )


RESEARCH_EVENT_TYPES: tuple[type[Event], ...] = (ResearchAttempted,)
