"""Resources: the four stockpiled kinds (Humans, Materials, Energy, Technology; manual p.20)."""

from typing import Annotated

import msgspec

Amount = Annotated[int, msgspec.Meta(ge=0, le=9999)]

KINDS: tuple[str, ...] = ("humans", "materials", "energy", "technology")


class Resources(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """An amount of each resource kind; also a card's resource cost and a hex's yield."""

    humans: Amount = 0
    materials: Amount = 0
    energy: Amount = 0
    technology: Amount = 0

    def total(self) -> int:
        """All resource points together (the base of deployment AP, manual p.18)."""
        return self.humans + self.materials + self.energy + self.technology

    def __add__(self, other: "Resources") -> "Resources":
        return Resources(
            self.humans + other.humans,
            self.materials + other.materials,
            self.energy + other.energy,
            self.technology + other.technology,
        )

    def times(self, n: int) -> "Resources":
        return Resources(self.humans * n, self.materials * n, self.energy * n, self.technology * n)

    def covers(self, cost: "Resources") -> bool:
        """True if this stockpile can pay ``cost``."""
        return (
            self.humans >= cost.humans
            and self.materials >= cost.materials
            and self.energy >= cost.energy
            and self.technology >= cost.technology
        )

    def minus(self, cost: "Resources") -> "Resources":
        """The stockpile after paying ``cost`` (``decide`` checks ``covers`` first)."""
        return Resources(
            self.humans - cost.humans,
            self.materials - cost.materials,
            self.energy - cost.energy,
            self.technology - cost.technology,
        )

    def text(self) -> str:
        """E.g. ``"materials 2, energy 1"``; ``"nothing"`` when empty."""
        parts = [f"{k} {getattr(self, k)}" for k in KINDS if getattr(self, k)]
        return ", ".join(parts) or "nothing"


NOTHING = Resources()
