"""The events of collateral damage and weapons of mass destruction (p.31–32; AE-45..AE-49).

Their hidden challenges are the referee's: every player gets events of the same shape whatever
the hex held — ``collateral_rolled`` (sealed for every player) and one ``fallout_suffered`` per
empire, its own cards' results sealed for it alone — so that the other empires learn nothing of
armies they have not sighted. What happens to a base is public (bases are): the facilities a WMD
destroys and the challenges of those it spares. Never imports ``state.py``.
"""

from typing import Annotated, Literal

import msgspec

from warlog.domain.armageddon_empires.air_events import AirStep
from warlog.domain.armageddon_empires.challenge import Pool, counted, successes
from warlog.domain.armageddon_empires.radiation import radiation_remainders
from warlog.domain.core.events import Event
from warlog.domain.core.seal import Hidden

FalloutKind = Literal["collateral", "wmd"]


class ArmyRoll(msgspec.Struct, frozen=True):
    """The hidden die of one army in a hex struck by a missile with collateral damage (AE-46)."""

    army: str
    face: int
    hit: bool


class RadiationDie(msgspec.Struct, frozen=True):
    """A card's die of one hidden radiation roll of a WMD strike since version 19 (AE-65)."""

    sides: int
    face: int


class Radiation(msgspec.Struct, frozen=True, omit_defaults=True):
    """Radiation taken by a card that survived its WMD challenge (p.31–32; AE-47): the
    weapon's ``strength`` less ``roll`` (a random 1..resistance; 0 with no resistance). Since
    version 19 (AE-65) ``dice``: the card's dice that made ``roll``, those of the radiation
    rolls whose prime divides its resistance (``radiation.radiation_roll``); empty before, and
    for a facility's public die."""

    strength: int
    resistance: int
    roll: int
    dice: tuple[RadiationDie, ...] = ()

    @property
    def damage(self) -> int:
        return max(0, self.strength - self.roll)

    def text(self) -> str:
        if not self.resistance:
            return f"radiation {self.strength} (resistance 0: nothing taken off, AE-47)"
        if not self.dice:
            return (
                f"radiation {self.strength} − {self.roll} (a random 1..{self.resistance}, its "
                f"resistance) = {self.damage}"
            )
        return (
            f"radiation {self.strength} − {self.roll} (a random 1..{self.resistance}, its "
            f"resistance, from its radiation dice, AE-65: {self._arithmetic()}) = {self.damage}"
        )

    def _arithmetic(self) -> str:
        """How ``roll`` comes from ``dice`` (``radiation.radiation_roll``), step by step."""
        faces = {d.sides: d.face for d in self.dice}
        remainders = radiation_remainders(self.resistance, faces)
        steps = [
            f"d{d.sides} {d.face}: ({d.face} − 1) mod {q} = {rest}"
            for d, (q, rest) in zip(self.dice, remainders, strict=True)
        ]
        x = self.roll - 1
        if len(remainders) > 1:
            left = " and ".join(f"{rest} mod {q}" for q, rest in remainders)
            steps.append(f"{x} is the number of 0..{self.resistance - 1} that leaves {left}")
        steps.append(f"1 + {x} = {self.roll}")
        return "; ".join(steps)


class FalloutHit(msgspec.Struct, frozen=True, kw_only=True):
    """One card's hidden challenge and what it took (p.31–32): the weapon's dice against its
    pool, the challenge's damage after its modifiers, and radiation if it survived (a WMD)."""

    card: str
    owner: str
    attack: int
    attack_faces: tuple[int, ...]
    pool: Pool
    defense_faces: tuple[int, ...]
    #: the challenge's damage: successes − defence successes, then the modifiers (``note``)
    damage: int
    note: str = ""
    radiation: Radiation | None = None
    total: int
    limit: int
    destroyed: bool

    @property
    def taken(self) -> int:
        """The damage the card took: the challenge's and the radiation's."""
        return self.damage + (0 if self.radiation is None else self.radiation.damage)

    def text(self) -> str:
        a, d = successes(self.attack_faces), successes(self.defense_faces)
        out = (
            f"{self.card}: {counted(a)} on {self.attack} dice {list(self.attack_faces)} against "
            f"{counted(d)} on its pool {self.pool.text()} {list(self.defense_faces)}: "
            f"{self.damage} damage"
        )
        if self.note:
            out += f" ({self.note})"
        if self.radiation is not None:
            out += f"; {self.radiation.text()}"
        out += f"; {self.total} of {self.limit}"
        return out + (" — destroyed and discarded (AE-24)" if self.destroyed else "")


class CollateralRolled(AirStep, frozen=True, tag="collateral_rolled"):
    """The hidden die of every army in the hex (p.31; AE-45, AE-46): an army is hit when it is
    at most the percentage's tens. Which armies, and their dice, are sealed for every player."""

    percent: int
    attack: int
    rolls: Annotated[tuple[ArmyRoll, ...], Hidden()]

    def explain(self) -> str:
        head = (
            f"{self.strike.name}: Collateral {self.percent}% {self.attack} Atk — one hidden die "
            f"per army in {self.strike.at} (p.31; AE-45, AE-46)"
        )
        if not self.rolls:
            return f"{head}: no army there"
        lines = [f"{head}:"]
        lines += [f"- {r.army}: {r.face} — {'hit' if r.hit else 'spared'}" for r in self.rolls]
        return "\n".join(lines)


class WmdDetonated(AirStep, frozen=True, tag="wmd_detonated"):
    """A Hydrogen Bomb or Grav Warhead strikes the whole hex instead of one target (p.31–32;
    AE-48): every facility without Hardened is destroyed (public, as bases are); ``hits``: the
    public WMD challenges of the Hardened facilities left."""

    weapon: str
    attack: int
    radiation: int
    destroyed: tuple[str, ...]
    hits: tuple[FalloutHit, ...] = ()

    def explain(self) -> str:
        head = (
            f"{self.strike.name}: {self.weapon} {self.attack}, {self.radiation} on "
            f"{self.strike.at} (p.31–32; AE-48)"
        )
        lines = [
            head,
            "- destroyed, not Hardened: " + (", ".join(self.destroyed) or "no facility"),
        ]
        lines += [f"- {h.text()}" for h in self.hits]
        lines.append("- every other card in the hex faces a hidden WMD challenge (p.31)")
        return "\n".join(lines)


class FalloutSuffered(Event, frozen=True, tag="fallout_suffered"):
    """What the hidden challenges of collateral damage or a WMD did to one empire's cards
    (p.31–32; AE-46..AE-49): sealed for that empire alone. Every empire gets one, hit or not."""

    strike: int
    kind: FalloutKind
    empire: str
    hits: Annotated[tuple[FalloutHit, ...], Hidden(owner="empire")]

    def explain(self) -> str:
        what = "collateral damage" if self.kind == "collateral" else "the WMD"
        head = f"air strike {self.strike}: {what} on {self.empire}'s cards (hidden, p.31; AE-49)"
        if not self.hits:
            return f"{head}: none"
        return "\n".join([f"{head}:", *(f"- {h.text()}" for h in self.hits)])


FALLOUT_EVENT_TYPES: tuple[type[Event], ...] = (CollateralRolled, WmdDetonated, FalloutSuffered)
