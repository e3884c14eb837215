"""The build phase's events (rules: Build Phase, Imperial; Build Phase, Ork).

The build points and Ork rebuilds counted, counters built on the production track, placed from
READY and rebuilt; tags are stable. Never imports ``state.py``.
"""

import msgspec

from warlog.domain.battle_for_armageddon.rules import (
    BUILD_IMPERIAL,
    BUILD_ORK,
    FIRST_TURN_BUILD_DIVISOR,
    RUINS_PER_ORK_REBUILD,
)
from warlog.domain.core.events import Event
from warlog.domain.core.summary import plural


class BuildPointsCounted(Event, frozen=True, tag="build_points_counted"):
    """Imperial build phase: the points to spend, from the hives and factories still standing."""

    points: int
    track: int
    halved: bool
    sites: list[str]

    def explain(self) -> str:
        text = f"build track {self.track} (intact hives and factories: {', '.join(self.sites) or 'none'})"
        if self.halved:
            text += (
                f"; halved on turn 1 (rules: First Turn Surprise; BFA-6): "
                f"{self.track} ÷ {FIRST_TURN_BUILD_DIVISOR}, rounded down = {self.points}"
            )
        return text + f" → {self.points} build points ({BUILD_IMPERIAL})"


class RebuildsCounted(Event, frozen=True, tag="rebuilds_counted"):
    """Ork build phase: one rebuild for each 2 smoking ruins the Orks garrison."""

    rebuilds: int
    ruins: list[str]

    def explain(self) -> str:
        return (
            f"{plural(len(self.ruins), 'garrisoned smoking ruin')} "
            f"({', '.join(self.ruins) or 'none'}) ÷ {RUINS_PER_ORK_REBUILD}, rounded down = "
            f"{plural(self.rebuilds, 'rebuild')} ({BUILD_ORK})"
        )


class CounterBuilt(Event, frozen=True, tag="counter_built"):
    counter: str
    cost: int
    points_left: int
    spaces: int

    def explain(self) -> str:
        return (
            f"{self.counter} costs {self.cost} (the build table) → {self.points_left} points "
            f"left; it goes {self.spaces} spaces from READY on the production track "
            f"({BUILD_IMPERIAL})"
        )


class ProductionAdvanced(Event, frozen=True, tag="production_advanced"):
    """The production track moves one space towards READY; unspent points are lost."""

    spaces: dict[str, int]
    ready: list[str]
    lost: int

    def explain(self) -> str:
        return (
            f"production track moves one space: READY now {', '.join(self.ready) or 'nothing new'}; "
            f"{self.lost} unspent build points lost (rules: Build Phase)"
        )


class CounterPlaced(Event, frozen=True, tag="counter_placed"):
    counter: str
    area: str
    reason: str
    #: counts as moved this movement phase (drop pod)
    moved: bool = False
    #: since version 8 (``rules.BUILD_OVERSTACK_SINCE``, BFA-12): the stacking limit the
    #: placement breaks; left out of the encoding for a placement within stacking, as in every
    #: event of version 7 and before
    overstacking: str | msgspec.UnsetType = msgspec.UNSET

    def explain(self) -> str:
        if self.moved:
            return (
                f"{self.counter} lands in {self.area} ({self.reason}): any area open to it, "
                "within stacking; it counts as moved (BFA-22)"
            )
        if isinstance(self.overstacking, str):
            return (
                f"{self.counter} is placed in {self.area} ({self.reason}): onto an intact hive or "
                f"factory, over the stacking limits ({self.overstacking}), as the Build Phase "
                "allows; unless the stack is within them at the end of the imperials' next "
                "movement phase, the counters that arrived last are lost then "
                f"({BUILD_IMPERIAL}; BFA-12, BFA-2)"
            )
        return (
            f"{self.counter} is placed in {self.area} ({self.reason}): onto an intact hive or "
            f"factory, within stacking ({BUILD_IMPERIAL}; BFA-12)"
        )


class CounterRebuilt(Event, frozen=True, tag="counter_rebuilt"):
    counter: str
    area: str

    def explain(self) -> str:
        return (
            f"{self.counter} is rebuilt in {self.area}: one of this phase's rebuilds, placed on "
            f"a garrisoned smoking ruin or in an Ork supply area, within stacking ({BUILD_ORK})"
        )
