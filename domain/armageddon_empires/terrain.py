"""Terrain: what entering a hex costs in movement points and how it helps a defender (R12)."""

from typing import Annotated

import msgspec


class Terrain(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``move``: movement (and supply) points to enter; ``defense``: the terrain defence and
    observation modifier (manual p.27, p.30)."""

    move: Annotated[int, msgspec.Meta(ge=1, le=99)]
    defense: Annotated[int, msgspec.Meta(ge=0, le=99)] = 0


#: R12 (rules digest §13): move cost / defence and observation modifier; desert 0 and badlands 1
#: are the manual's (p.27, p.30), the rest are warlog's. A scenario's [terrain] table overrides.
TERRAIN_TABLE: dict[str, Terrain] = {
    "plains": Terrain(move=1, defense=0),
    "desert": Terrain(move=1, defense=0),
    "badlands": Terrain(move=2, defense=1),
    "forest": Terrain(move=2, defense=1),
    "hills": Terrain(move=2, defense=2),
    "urban": Terrain(move=2, defense=2),
    "swamp": Terrain(move=3, defense=1),
    "mountains": Terrain(move=3, defense=3),
}

#: the map legend every scenario starts from (AE-1): one token per terrain in a map row
DEFAULT_LEGEND: dict[str, str] = {
    ".": "plains",
    "d": "desert",
    "b": "badlands",
    "f": "forest",
    "h": "hills",
    "u": "urban",
    "s": "swamp",
    "m": "mountains",
}


def terrain_table(overrides: dict[str, Terrain]) -> dict[str, Terrain]:
    """R12's table with a scenario's overrides and additions applied."""
    return {**TERRAIN_TABLE, **overrides}
