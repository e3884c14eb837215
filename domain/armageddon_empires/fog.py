"""Fog of war: what an empire has seen of the enemy's armies this round, and the hidden checks.

An empire sees an enemy army only once it has **sighted** it this round (R7; digest 3.1): by a
hidden observation check it won, by contact (armies that are not stealthed walking into each
other are seen regardless, digest 3.1), or as a participant of a challenge (a Capture Kill
destealths and shows every hunting army in the hex, p.30). Sightings end when the next round
begins; an army that moves or engages stealth is kept in sight only by a fresh check (AE-17).

Values only (no game state): the sighting events carry them.
"""

from typing import Literal

import msgspec

from warlog.domain.armageddon_empires.challenge import Pool, counted, successes

SeenBy = Literal["observation", "contact", "challenge", "battle"]


class Sighting(msgspec.Struct, frozen=True, kw_only=True):
    """An enemy army as an empire saw it: where, with which cards, how and when."""

    army: str
    empire: str
    at: str
    hero: str | None = None
    units: tuple[str, ...] = ()
    stealthed: bool = False
    round: int = 1
    how: SeenBy = "observation"
    #: how it was seen, with the arithmetic of the check that found it
    detail: str = ""

    def cards(self) -> tuple[str, ...]:
        return self.units if self.hero is None else (self.hero, *self.units)


class Check(msgspec.Struct, frozen=True, kw_only=True):
    """One hidden observation check (R7; p.27): the observer's best pool into the hider's hex
    against the hider's detection pool; the hider is revealed only on strictly more successes."""

    army: str
    at: str
    observer: Pool
    hider: Pool
    observer_faces: tuple[int, ...]
    hider_faces: tuple[int, ...]

    @property
    def detected(self) -> bool:
        return successes(self.observer_faces) > successes(self.hider_faces)

    def text(self) -> str:
        verdict = "revealed" if self.detected else "stays hidden (ties stay hidden, R7)"
        return (
            f"{self.army} at {self.at}: observation {self.observer.text()} rolled "
            f"{list(self.observer_faces)} = {counted(successes(self.observer_faces))}; detection "
            f"{self.hider.text()} rolled {list(self.hider_faces)} = "
            f"{counted(successes(self.hider_faces))}: {verdict}"
        )
