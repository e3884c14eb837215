"""The events of a sabotage (p.29, p.45, p.48; AE-72; past tense; stable tags).

Each carries the whole mission (``frames.SabotageMission``), so that ``explain`` on either prints
who sabotaged what, how its target was picked and, once it is over, the arithmetic of its
damage. Never imports ``state.py``.
"""

from typing import Literal

from warlog.domain.armageddon_empires.challenge import counted
from warlog.domain.armageddon_empires.frames import SabotageMission
from warlog.domain.core.events import Event
from warlog.domain.core.summary import plural

SabotagePick = Literal["only", "die", "master saboteur"]


class SabotageBegan(Event, frozen=True, tag="sabotage_began"):
    """A saboteur sabotages a facility of the enemy base in its hex (p.29, p.45; AE-72): the AP
    is spent, the target picked (at random among the base's facilities, or named by a Master
    Saboteur), the mission goes on the stack; its challenge opens next. The base's empire is
    shown the saboteur card it faces, not the army it stands in."""

    frame: SabotageMission
    ap_cost: int
    candidates: tuple[str, ...]
    chosen_by: SabotagePick

    def explain(self) -> str:
        f = self.frame
        how = {
            "only": "the base's only facility",
            "die": f"picked by the referee's hidden roll among {', '.join(self.candidates)} "
            "(p.45; AE-72)",
            "master saboteur": "named by the saboteur, a Master Saboteur (p.45)",
        }[self.chosen_by]
        out = (
            f"{f.empire}'s saboteur {f.saboteur} (Saboteur {f.level}) sabotages {f.target} of "
            f"{f.target_empire}'s {f.base} at {f.at} for {self.ap_cost} AP (R11; AE-72); "
            f"target: {how}"
        )
        if f.counter_intel:
            out += (
                f"; Counter Intel {f.counter_intel} (level {f.intel_level}) stands in the hex: "
                f"the facility defends with {f.intel_level} fate and the challenge is a duel, its "
                "surplus wounding the saboteur (p.29, p.48)"
            )
        return out


def saboteur_hurt(frame: SabotageMission, amount: int) -> str:
    """What a duel's surplus of ``amount`` is to the saboteur: wounds to a hero, damage to a
    unit, which has hit points."""
    return f"{amount} damage" if frame.unit else plural(amount, "wound")


def sabotage_verdict(frame: SabotageMission, dealt: int, wounds: int, note: str) -> str:
    """The arithmetic of a resolved sabotage (p.29, p.45; R5, R14; AE-72)."""
    o = frame.outcome
    if o is None:
        return "the challenge is not resolved yet"
    a, d = o.attacker_successes, o.defender_successes
    if a > d:
        out = (
            f"saboteur {counted(a)} > facility {counted(d)}: {a - d} damage to {frame.target} (R5)"
        )
        if note:
            out += f", {note}"
        return out + f": {dealt} dealt"
    out = f"saboteur {counted(a)} ≤ facility {counted(d)}: no damage to {frame.target} (R5)"
    if wounds:
        unit = " (a unit: to its hit points)" if frame.unit else ""
        out += (
            f"; a duel (Counter Intel, p.29, p.48): the facility's surplus {d} − {a} = "
            f"{saboteur_hurt(frame, wounds)} to {frame.saboteur}{unit}"
        )
    return out


class SabotageEnded(Event, frozen=True, tag="sabotage_ended"):
    """The sabotage's challenge is over (p.29; R5): the facility takes the saboteur's surplus,
    less its damage modifiers, halved if Hardened, and a Demolitionist's single point destroys
    it (R14; AE-72); in a duel the facility's surplus wounds the saboteur (p.29, p.48). The
    damage follows as ``card_damaged`` (and ``base_razed`` for a base's own card, AE-34)."""

    frame: SabotageMission
    #: the damage the facility takes, modifiers applied (0: none)
    dealt: int
    #: the wounds the saboteur takes in a duel, damage to its hit points for a unit (0: none)
    wounds: int
    #: how ``dealt`` was reached from the surplus: modifiers, Hardened, Demolitionist
    note: str = ""

    def explain(self) -> str:
        return sabotage_verdict(self.frame, self.dealt, self.wounds, self.note)


SABOTAGE_EVENT_TYPES: tuple[type[Event], ...] = (SabotageBegan, SabotageEnded)
