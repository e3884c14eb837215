"""Scenarios: the TOML file's fields as typed Structs, which msgspec decodes it into.

``scenario_checks`` reads a file into them and checks it field by field; ``recorded_scenario``
is the form ``game_created`` records them in. The fields are documented in docs/scenarios.md.
"""

from typing import Annotated, Literal

import msgspec

from warlog.domain.armageddon_empires.cards import INDEPENDENT, CardType, Id
from warlog.domain.armageddon_empires.limits import (
    DEFAULT_HAND_LIMIT,
    DEFAULT_SUPPLY_RANGE,
    GARRISON_SUFFIX,
    MAX_UNITS_PER_ARMY,
)
from warlog.domain.armageddon_empires.resources import Resources
from warlog.domain.armageddon_empires.terrain import Terrain

CardList = Annotated[list[str], msgspec.Meta(max_length=200)]


class MapSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A parallelogram of ``width`` × ``height`` hexes: row r lists hexes (0,r) … (width−1,r)."""

    width: Annotated[int, msgspec.Meta(ge=1, le=64)]
    height: Annotated[int, msgspec.Meta(ge=1, le=64)]
    rows: list[str]
    legend: dict[str, str] = {}
    resources: dict[str, Resources] = {}


class EmpireSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Id
    name: str
    resources: Resources = Resources()
    hand: CardList = []
    deck: CardList = []
    #: AE-15: cards dealt at random from the deck into the hand when the game is created
    deal: Annotated[int, msgspec.Meta(ge=0, le=20)] = 0
    supply_range: Annotated[int, msgspec.Meta(ge=0, le=99)] = DEFAULT_SUPPLY_RANGE
    hand_limit: Annotated[int, msgspec.Meta(ge=1, le=20)] = DEFAULT_HAND_LIMIT


class BaseSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Id
    empire: str
    kind: Literal["stronghold", "outpost"]
    at: str
    card: str
    facilities: list[str] = []
    garrison: list[str] = []
    #: damage already taken by the base's card or a facility: card id -> damage (AE-22)
    damage: dict[str, int] = {}


class ArmySpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Id
    empire: str
    at: str
    hero: str | None = None
    units: Annotated[list[str], msgspec.Meta(max_length=MAX_UNITS_PER_ARMY)] = []
    #: starts stealthed (every card must have Stealth X, p.27)
    stealthed: bool = False
    #: damage already taken: card id -> damage on the army's first card of that type (AE-22)
    damage: dict[str, int] = {}


class MinefieldSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A minefield (p.32; AE-50): a facility card with ``Minefield X`` in a hex without a base,
    camouflaged (sealed for the other empire when the game is created); without ``empire``, an
    independent minefield, controlled by no empire and sealed for every one (since version 23,
    AE-67; ``controller`` reads it)."""

    id: Id
    #: the empire that controls it; left out: none (an independent minefield, AE-67), and left
    #: out of the recorded form
    empire: str | msgspec.UnsetType = msgspec.UNSET
    at: str
    card: str
    #: damage already taken (structure points lost, AE-22)
    damage: Annotated[int, msgspec.Meta(ge=0, le=99)] = 0


class ResearchEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A card a hero may create (p.28, p.32; digest §8.5; AE-73): the card type, its difficulty
    (the threshold of its challenge, ≥ 1) and what an attempt at it costs, in AP and resources,
    paid whether it succeeds or not."""

    card: str
    threshold: Annotated[int, msgspec.Meta(le=99)]
    ap: Annotated[int, msgspec.Meta(ge=0, le=99)]
    cost: Resources = Resources()


class Research(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The research lists (AE-73, since version 28): what each ability that creates cards
    offers, at most ``limits.RESEARCH_OFFER`` cards each (``creators.CREATORS``: a Tactician
    tactic cards, a Technologist attack and munition cards). Public: the scenario's."""

    tactician: list[ResearchEntry] = []
    technologist: list[ResearchEntry] = []


class Scenario(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A whole scenario file."""

    name: str
    max_rounds: Annotated[int, msgspec.Meta(ge=1, le=999)]
    map: MapSpec
    cards: list[CardType]
    empires: list[EmpireSpec]
    bases: list[BaseSpec]
    armies: list[ArmySpec] = []
    #: left out of the recorded form when absent, so that games recorded before minefields
    #: keep their canonical scenario (``placed_minefields`` reads it)
    minefields: list[MinefieldSpec] | msgspec.UnsetType = msgspec.UNSET
    #: true: the set-up is published with the scenario (the bundled ones), so its cards keep
    #: their numbers in set-up order (AE-62); left out of the recorded form when absent, so that
    #: games recorded before keep their canonical scenario (``setup_is_public`` reads it)
    public_setup: bool | msgspec.UnsetType = msgspec.UNSET
    #: AE-73: what the heroes who create cards may create (since version 28); left out of the
    #: recorded form when absent, so that games recorded before keep their canonical scenario
    research: Research | msgspec.UnsetType = msgspec.UNSET
    title: str = ""
    description: str = ""
    terrain: dict[str, Terrain] = {}


def research_lists(scenario: Scenario) -> Research:
    """The scenario's research lists (none when the file has no ``[research]``; AE-73)."""
    return Research() if isinstance(scenario.research, msgspec.UnsetType) else scenario.research


def placed_minefields(scenario: Scenario) -> list[MinefieldSpec]:
    """The scenario's minefields (none when the file has no ``[[minefields]]``)."""
    return [] if isinstance(scenario.minefields, msgspec.UnsetType) else scenario.minefields


def controller(mine: MinefieldSpec) -> str:
    """The empire that controls ``mine``; ``INDEPENDENT`` (no empire) for an independent
    minefield (AE-67)."""
    return INDEPENDENT if isinstance(mine.empire, msgspec.UnsetType) else mine.empire


def independent_minefields(scenario: Scenario) -> list[tuple[int, MinefieldSpec]]:
    """The scenario's independent minefields (AE-67), each with its place in ``minefields``."""
    placed = enumerate(placed_minefields(scenario))
    return [(i, m) for i, m in placed if controller(m) == INDEPENDENT]


def setup_is_public(scenario: Scenario) -> bool:
    """Whether the scenario declares its set-up published with it (``public_setup = true``)."""
    return scenario.public_setup is True


def placed_cards(scenario: Scenario) -> list[tuple[str, str]]:
    """(empire, card type) of every card of the set-up; an independent minefield's card is
    ``INDEPENDENT``'s, no empire's (AE-67)."""
    out = [(b.empire, c) for b in scenario.bases for c in (b.card, *b.facilities, *b.garrison)]
    out += [(a.empire, c) for a in scenario.armies for c in (a.hero, *a.units) if c]
    out += [(e.id, c) for e in scenario.empires for c in (*e.hand, *e.deck)]
    return out + [(controller(m), m.card) for m in placed_minefields(scenario)]


def garrison_id(base: str) -> str:
    """The id of the garrison army of base ``base`` (AE-8)."""
    return f"{base}{GARRISON_SUFFIX}"
