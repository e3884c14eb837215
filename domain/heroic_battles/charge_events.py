"""Events of charges (Charges, p.30; Evades, p.38; counter charges, HB-23): declared, failed,
answered by an evade, a counter charge or a stand, pressed, and the contact that begins a melee.

Past tense, each explaining itself with the rule's name and page and our ruling (HB-n);
``events.py`` imports every one of them, so ``events.X`` names them all."""

from warlog.domain.core.events import Event
from warlog.domain.heroic_battles import tables as t


class ChargeDeclared(Event, frozen=True, tag="charge_declared"):
    """A charge: a movement action straight ahead into contact (p.30); flank and rear charges
    start behind the target's front line, as the players declare."""

    unit: str
    target: str
    facing: t.Facing
    action: int
    rough: bool = False
    barrier: bool = False

    def explain(self) -> str:
        return (
            f"{self.unit} charges {self.target} in the {self.facing} "
            f"(movement action {self.action}; {t.MOVEMENT})"
        )


class ChargeFailed(Event, frozen=True, tag="charge_failed"):
    unit: str

    def explain(self) -> str:
        return f"{self.unit} failed its command test: the charge does not move (HB-3)"


class EvadeDeclared(Event, frozen=True, tag="evade_declared"):
    unit: str

    def explain(self) -> str:
        return f"{self.unit} attempts to evade the charge ({t.EVADES})"


class Evaded(Event, frozen=True, tag="evaded"):
    """An evade: an immediate movement action away from the charging enemy (p.38)."""

    unit: str
    half_st: int

    def explain(self) -> str:
        return (
            f"{self.unit} evades up to {t.half_st(self.half_st)} away from the charge; the charger "
            f"moves a full movement action straight ahead and may still make contact ({t.EVADES})"
        )


class EvadeFailed(Event, frozen=True, tag="evade_failed"):
    unit: str

    def explain(self) -> str:
        return f"{self.unit} failed to evade: it fights as usual ({t.EVADES})"


class CounterChargeDeclared(Event, frozen=True, tag="counter_charge_declared"):
    unit: str

    def explain(self) -> str:
        return f"{self.unit} attempts to counter charge (HB-23)"


class CounterCharged(Event, frozen=True, tag="counter_charged"):
    unit: str

    def explain(self) -> str:
        return f"{self.unit} counter charges: it takes a Charging marker without moving (HB-23)"


class ChargeReceived(Event, frozen=True, tag="charge_received"):
    unit: str

    def explain(self) -> str:
        return (
            f"{self.unit} stands to receive the charge: it neither evades ({t.EVADES}; HB-22) "
            f"nor counter-charges (Counter Charge, {t.TRAITS}; HB-23)"
        )


class ChargePressed(Event, frozen=True, tag="charge_pressed"):
    """After an evade, the charger's full movement action straight ahead: contact or not."""

    unit: str
    contact: bool

    def explain(self) -> str:
        if self.contact:
            return f"{self.unit} follows straight ahead and still makes contact ({t.EVADES})"
        return f"{self.unit} follows straight ahead and falls short ({t.EVADES})"


class ChargeContacted(Event, frozen=True, tag="charge_contacted"):
    """Contact: a melee begins, or the charger joins the target's melee (HB-7)."""

    unit: str
    target: str
    facing: str
    combat: str
    joined: bool

    def explain(self) -> str:
        how = f"joins melee {self.combat}" if self.joined else f"melee {self.combat} begins"
        flank = (
            f"; {self.target} is engaged in its {self.facing} by {self.unit} (a unit fights on "
            "half dice while an enemy that charged it there still fights: "
            f"{t.COMBAT_PENALTIES}; HB-37; a hero's dice are never halved, HB-18)"
            if self.facing != "front"
            else ""
        )
        return (
            f"{self.unit} contacts {self.target} and may take a bonus Get In! move of "
            f"{t.half_st(t.GET_IN_HALF_ST)}: {how}; Charging marker{flank} ({t.MOVEMENT})"
        )
