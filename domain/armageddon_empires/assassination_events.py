"""The events of an assassination attempt (p.28, p.45, p.16; AE-71; past tense, stable tags).

Its challenge's own events (``challenge_opened`` … ``challenge_resolved``) are the challenges'
(``challenge_events``). Never imports ``state.py``.
"""

from typing import Annotated, Literal

from warlog.domain.armageddon_empires.frames import Assassination
from warlog.domain.core.events import Event
from warlog.domain.core.seal import Hidden
from warlog.domain.core.summary import plural

AssassinChosenBy = Literal["only", "die", "master assassin"]

#: what the target's empire is told of how the target was chosen (AE-71): the same words
#: whichever way it was
CHOSEN_UNTOLD = (
    "the only hero spotted there, one picked by the referee's hidden roll, or one named by a "
    "Master Assassin (p.45; AE-71)"
)


class AssassinationBegan(Event, frozen=True, tag="assassination_began"):
    """Assassinate (p.28, p.45; AE-71): the assassin's AP is spent, the target is chosen, the
    frame goes on the stack and its challenge opens next. The heroes its empire had spotted
    there (``candidates``) and how the target was chosen (``chosen_by``) are sealed for the
    assassin's empire: they tell what it saw."""

    frame: Assassination
    ap_cost: int
    candidates: Annotated[tuple[str, ...], Hidden(owner="empire")]
    chosen_by: Annotated[AssassinChosenBy, Hidden(owner="empire")]

    @property
    def empire(self) -> str:
        """The assassin's empire, whose ``candidates`` and ``chosen_by`` are."""
        return self.frame.empire

    def _opening(self) -> str:
        f = self.frame
        slayer = "; a Slayer: a single wound kills (p.45)" if f.slayer else ""
        return (
            f"{f.empire}'s {f.assassin} (Assassin {f.level}) attempts to assassinate "
            f"{f.target_empire}'s hero {f.target} at {f.at} for {self.ap_cost} AP "
            f"(p.28, p.45; R11; AE-71){slayer}"
        )

    def explain(self) -> str:
        how = {
            "only": "the only hero its empire spotted there",
            "die": f"picked by the referee's hidden roll among {', '.join(self.candidates)} "
            "(AE-71)",
            "master assassin": "named by the assassin, a Master Assassin (p.45)",
        }[self.chosen_by]
        return f"{self._opening()}; target: {how}"

    def explain_sealed(self, closed: frozenset[str]) -> str | None:
        """The attempt, to the target's empire: all but what the assassin's empire saw."""
        if not closed <= {"candidates", "chosen_by"}:
            return None
        return f"{self._opening()}; target: {CHOSEN_UNTOLD}"


class AssassinationFoiled(Event, frozen=True, tag="assassination_foiled"):
    """Assassinate (p.28; AE-71) finds the hero its empire saw gone from the army it saw him in,
    or the army gone or hidden by stealth: no challenge; the AP is spent, the card has made its
    attempt this turn, and its empire's sighting of that army is dropped. All but the empire and
    the AP are sealed for it: the other empire learns only that an attempt of its was foiled."""

    empire: str
    card: Annotated[str, Hidden(owner="empire")]
    at: Annotated[str, Hidden(owner="empire")]
    target: Annotated[str, Hidden(owner="empire")]
    target_army: Annotated[str, Hidden(owner="empire")]
    ap_cost: int

    def explain(self) -> str:
        return (
            f"{self.card} of {self.empire} attempts to assassinate {self.target} at {self.at} "
            f"for {self.ap_cost} AP (R11; AE-71), but he is not found in {self.target_army} "
            "(gone, or hidden by stealth): only a hero spotted there is a target (p.28; AE-71)"
        )


def verdict(frame: Assassination, wounds: int, killed: bool, before: int, points: int) -> str:
    """The arithmetic of an assassination's outcome (p.16, p.45; AE-71): the wounds, and the
    hero's wounds after them of his wound points, with those he had ``before``."""
    o = frame.outcome
    if o is None:
        return "the challenge is not resolved yet"
    a, d = o.attacker_successes, o.defender_successes
    if not wounds:
        return (
            f"assassin {a} successes do not exceed the target's {d}: the attempt fails, and "
            "nothing more befalls either side (AE-71)"
        )
    out = (
        f"assassin {a} − target {d} successes = {plural(wounds, 'wound')} to {frame.target}: "
        f"{before + wounds} of his {points} wound points ({before} before, taken in the open; "
        "AE-71)"
    )
    if frame.slayer:
        return (
            out
            + "; the assassin is a Slayer, and a single wound kills: killed and discarded (p.45)"
        )
    if killed and before + wounds < points:  # with wounds dealt him out of sight (AE-49)
        return out + "; with those dealt him unseen, they reach them: killed and discarded (p.16)"
    if killed:
        return out + "; they reach them: killed and discarded (p.16; AE-24)"
    return out + "; he survives them, wounded (p.16)"


class AssassinationEnded(Event, frozen=True, tag="assassination_ended"):
    """The attempt's challenge is resolved and its frame leaves the stack (AE-71): the target
    takes its wounds, and is killed and discarded at his wound points, or at a single wound from
    a Slayer (p.45); an army he leaves empty is disbanded (AE-24)."""

    frame: Assassination
    wounds: int
    killed: bool
    #: the wounds the target had taken in the open before the attempt (never those hidden
    #: challenges dealt him, AE-49), and his wound points (p.16), so that the explanation shows
    #: whether the wounds reach them
    wounded_before: int = 0
    wound_points: int = 0

    def explain(self) -> str:
        return verdict(self.frame, self.wounds, self.killed, self.wounded_before, self.wound_points)


ASSASSINATION_EVENT_TYPES: tuple[type[Event], ...] = (
    AssassinationBegan,
    AssassinationFoiled,
    AssassinationEnded,
)
