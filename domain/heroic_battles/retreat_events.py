"""Events of retreats (Retreating, pp.47–48, 59–60): ordered, each run, or cancelled.

Past tense, each explaining itself with the rule's name and page and our ruling (HB-n);
``events.py`` imports every one of them, so ``events.X`` names them all."""

from warlog.domain.core.events import Event
from warlog.domain.heroic_battles import tables as t
from warlog.domain.heroic_battles.values import RetreatOrder


def _retreat_rule(half_st: int) -> str:
    """Where a retreat's distance comes from: ½ ST (Retreating), or 1 ST from a Fearsome winner."""
    if half_st > t.RETREAT_HALF_ST:
        return f"a Fearsome winner: {t.half_st(half_st)}, trait p.66; HB-33"
    return t.RETREATING


class RetreatsOrdered(Event, frozen=True, tag="retreats_ordered"):
    orders: list[RetreatOrder]

    def explain(self) -> str:
        return "; ".join(
            f"{o.unit} must retreat {t.half_st(o.half_st)} ({_retreat_rule(o.half_st)})"
            for o in self.orders
        )


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
