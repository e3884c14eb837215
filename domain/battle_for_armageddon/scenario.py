"""Scenarios: the TOML file decoded by msgspec into typed Structs, then checked as a whole.

Every error is an InputError ``input/bad_scenario`` naming the path of the bad field
(``$.counters[3].start: unknown area 'x'``). The fields are documented in docs/scenarios.md,
section "Battle for Armageddon". A scenario is checked under the rules version a game of it begins
under (the ruleset's ``parse_scenario`` and ``scenario_from_builtins`` pass their own): BFA-29's
limits hold since version 7, BFA-30's since version 8, and a game begun before keeps the checks
its scenario passed then.
"""

import re
from collections import Counter as Tally
from typing import Annotated, Any, Literal

import msgspec

from warlog.domain.battle_for_armageddon.rules import (
    BUILD_TRACK_START,
    FORTIFICATION_NO_DEFENCE_SINCE,
    HIVES,
    IMPERIALS,
    MARINE_CHAPTERS_IMPERIAL_SINCE,
    MAX_FORTIFICATIONS_PER_AREA,
    MAX_STACK,
    ORKS,
    PHASES,
    PLAYERS,
    SETUP,
    SPECIAL_UNITS,
    Side,
)
from warlog.domain.core.areagraph import AreaGraph
from warlog.domain.core.dice import MAX_SIDES
from warlog.domain.core.scenario import bad_scenario, convert_scenario, decode_scenario

#: an id: lowercase letters, digits, '_' and '-', starting with a letter or digit (``ID``,
#: checked by ``check`` rather than by the decoder: states holding the scenario are decoded
#: from every snapshot, and a pattern on each of hundreds of ids would cost more than the rest)
Id = Annotated[str, msgspec.Meta(max_length=64)]
ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
Terrain = Literal["clear", "ash_waste", "jungle", "mountains", "sea"]
Role = Literal["normal", "leader", "fortification", "chapter"]
Ability = Literal["", "reroll", "ignore_retreat"]
Effect = Literal[
    "reconstruction", "drop_pod", "forced_march", "barrage", "extra_build_points", "extra_rebuild"
]
Small = Annotated[int, msgspec.Meta(ge=0, le=99)]

#: terrain no counter may enter (seed 003 "Terrain Effects": block movement and supply)
IMPASSABLE: frozenset[str] = frozenset({"mountains", "sea"})
#: terrain that ends a counter's move when it enters (seed 003 "Terrain Effects")
STOPPING: frozenset[str] = frozenset({"ash_waste", "jungle"})
#: special-card effects only one side's deck may hold (they name that side's counters)
EFFECT_SIDE: dict[str, str] = {
    "reconstruction": IMPERIALS,
    "drop_pod": IMPERIALS,
    "extra_build_points": IMPERIALS,
    "extra_rebuild": ORKS,
}
#: special-card effects that add their ``value`` to something
VALUED_EFFECTS: frozenset[str] = frozenset(
    {"forced_march", "barrage", "extra_build_points", "extra_rebuild"}
)
#: where a counter may start besides an area
START_ASIDE = "aside"
START_LATER = "later"


class AreaSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Id
    name: str
    terrain: Terrain
    adjacent: list[Id]
    supply: Side | None = None
    ork_territory: bool = False


class RiverSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    areas: Annotated[list[Id], msgspec.Meta(min_length=2, max_length=2)]


class SiteSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A hive or factory (an Imperial counter that never moves)."""

    id: Id
    kind: Literal["hive", "factory"]
    name: str
    area: Id
    defence: Annotated[int, msgspec.Meta(ge=1, le=20)]


class CounterType(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Id
    name: str
    side: Side
    attack: Small
    defence: Small
    move: Small
    role: Role = "normal"
    ability: Ability = ""
    #: build points (Imperial build table); None: cannot be built or rebuilt
    cost: Annotated[int, msgspec.Meta(ge=1, le=99)] | None = None
    #: spaces on the production track before READY
    production: Annotated[int, msgspec.Meta(ge=1, le=9)] | None = None
    #: a chapter's detachment side
    reduced_name: str = ""
    reduced_attack: Small = 0
    reduced_defence: Small = 0
    reduced_move: Small = 0


class CounterSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Id
    type: Id
    name: str = ""
    tribe: str = ""
    #: an area id, "aside" (off the map, buildable) or "later" (arrives on turn ``arrives``)
    start: str = START_ASIDE
    arrives: Annotated[int, msgspec.Meta(ge=0, le=99)] = 0


class StrategyCardSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Id
    name: str
    phases: Annotated[
        list[Literal["movement", "combat", "build"]], msgspec.Meta(min_length=2, max_length=2)
    ]


class SpecialCardSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Id
    side: Side
    name: str
    effect: Effect
    value: Small = 0
    text: str = ""


class Scenario(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A whole scenario file."""

    name: Id
    areas: list[AreaSpec]
    sites: list[SiteSpec]
    counter_types: list[CounterType]
    counters: list[CounterSpec]
    strategy_cards: list[StrategyCardSpec]
    special_cards: list[SpecialCardSpec]
    tribes: list[str] = []
    rivers: list[RiverSpec] = []
    title: str = ""
    description: str = ""


_bad = bad_scenario


def parse_scenario(data: bytes | str, version: int | None = None) -> Scenario:
    """The scenario in TOML ``data``, checked under ``version`` of the rules (``check``);
    InputError ``input/bad_scenario`` names the path."""
    return decode_scenario(data, Scenario, lambda sc: check(sc, version))


def scenario_from_builtins(obj: dict[str, Any], version: int | None = None) -> Scenario:
    """The scenario from its recorded JSON form (``game_created``), checked as a file is."""
    return convert_scenario(obj, Scenario, lambda sc: check(sc, version))


def _unique(items: list[Any], path: str) -> None:
    seen: set[str] = set()
    for i, item in enumerate(items):
        if item.id in seen:
            raise _bad(f"{path}[{i}].id", f"duplicate id {item.id!r}")
        seen.add(item.id)


def check(sc: Scenario, version: int | None = None) -> None:
    """Raise InputError naming the first field that breaks a rule the decoder cannot see, under
    ``version`` of the rules (None: the latest)."""
    _check_ids(sc)
    for path, items in (
        ("$.areas", sc.areas),
        ("$.sites", sc.sites),
        ("$.counter_types", sc.counter_types),
        ("$.counters", sc.counters),
        ("$.strategy_cards", sc.strategy_cards),
        ("$.special_cards", sc.special_cards),
    ):
        _unique(items, path)
    _check_map(sc)
    _check_sites(sc)
    _check_types(sc)
    _check_counters(sc)
    if version is None or version >= MARINE_CHAPTERS_IMPERIAL_SINCE:
        _check_marines(sc)
    if version is None or version >= FORTIFICATION_NO_DEFENCE_SINCE:
        _check_fortifications(sc)
    _check_cards(sc)


def _check_ids(sc: Scenario) -> None:
    ids: list[tuple[str, str]] = [("$.name", sc.name)]
    for i, a in enumerate(sc.areas):
        ids += [(f"$.areas[{i}].id", a.id)]
        ids += [(f"$.areas[{i}].adjacent[{j}]", x) for j, x in enumerate(a.adjacent)]
    for i, r in enumerate(sc.rivers):
        ids += [(f"$.rivers[{i}].areas[{j}]", x) for j, x in enumerate(r.areas)]
    for i, site in enumerate(sc.sites):
        ids += [(f"$.sites[{i}].id", site.id), (f"$.sites[{i}].area", site.area)]
    ids += [(f"$.counter_types[{i}].id", t.id) for i, t in enumerate(sc.counter_types)]
    for i, c in enumerate(sc.counters):
        ids += [(f"$.counters[{i}].id", c.id), (f"$.counters[{i}].type", c.type)]
    ids += [(f"$.strategy_cards[{i}].id", c.id) for i, c in enumerate(sc.strategy_cards)]
    ids += [(f"$.special_cards[{i}].id", c.id) for i, c in enumerate(sc.special_cards)]
    for path, value in ids:
        if not ID.fullmatch(value):
            raise _bad(
                path,
                f"{value[:64]!r} is not an id (lowercase letters, digits, '_' and '-', "
                "starting with a letter or digit)",
            )


def _check_map(sc: Scenario) -> None:
    areas = {a.id: a for a in sc.areas}
    for i, area in enumerate(sc.areas):
        for j, other in enumerate(area.adjacent):
            where = f"$.areas[{i}].adjacent[{j}]"
            if other not in areas:
                raise _bad(where, f"unknown area {other!r}")
            if other == area.id:
                raise _bad(where, f"{area.id!r} cannot be adjacent to itself")
            if area.id not in areas[other].adjacent:
                raise _bad(where, f"{other!r} does not list {area.id!r} back as adjacent")
        if area.supply is not None and area.terrain in IMPASSABLE:
            raise _bad(f"$.areas[{i}].supply", f"a supply area cannot be {area.terrain}")
    graph = AreaGraph({a.id: a.adjacent for a in sc.areas})
    for i, river in enumerate(sc.rivers):
        a, b = river.areas
        for j, end in enumerate(river.areas):
            if end not in areas:
                raise _bad(f"$.rivers[{i}].areas[{j}]", f"unknown area {end!r}")
        if not graph.adjacent(a, b):
            raise _bad(f"$.rivers[{i}].areas", f"{a!r} and {b!r} are not adjacent")
    for side in (IMPERIALS, ORKS):
        if not any(a.supply == side for a in sc.areas):
            raise _bad("$.areas", f"no supply area for the {side}")
    if not any(a.ork_territory for a in sc.areas):
        raise _bad("$.areas", "no area is in Ork Territory")
    for i, area in enumerate(sc.areas):
        if area.supply == ORKS and not area.ork_territory:
            raise _bad(f"$.areas[{i}].supply", "Ork supply areas lie in Ork Territory")


def _check_sites(sc: Scenario) -> None:
    areas = {a.id: a for a in sc.areas}
    used: set[str] = set()
    for i, site in enumerate(sc.sites):
        where = f"$.sites[{i}].area"
        if site.area not in areas:
            raise _bad(where, f"unknown area {site.area!r}")
        if areas[site.area].terrain in IMPASSABLE:
            raise _bad(where, f"a {site.kind} cannot stand in {areas[site.area].terrain}")
        if areas[site.area].ork_territory:
            raise _bad(where, f"a {site.kind} cannot stand in Ork Territory")
        if site.area in used:
            raise _bad(where, f"area {site.area!r} already holds a hive or factory")
        used.add(site.area)
    hives = sum(1 for s in sc.sites if s.kind == "hive")
    if hives != HIVES:
        raise _bad("$.sites", f"{hives} hives; the game has {HIVES} (rules: Victory Conditions)")
    total = sum(s.defence for s in sc.sites)
    if total != BUILD_TRACK_START:
        raise _bad(
            "$.sites",
            f"hive and factory defences add up to {total}; the build track starts at "
            f"{BUILD_TRACK_START} (rules: Setup)",
        )


def _check_types(sc: Scenario) -> None:
    for i, t in enumerate(sc.counter_types):
        where = f"$.counter_types[{i}]"
        if (t.cost is None) != (t.production is None):
            raise _bad(where, "cost and production go together (a buildable type has both)")
        if t.cost is not None and t.side != IMPERIALS:
            raise _bad(f"{where}.cost", "only Imperial counters are bought with build points")
        if t.role == "fortification" and (t.side != IMPERIALS or t.move != 0):
            raise _bad(f"{where}.role", "fortifications are Imperial and have Move 0")
        if t.role == "chapter" and not t.reduced_name:
            raise _bad(f"{where}.reduced_name", "a chapter needs its detachment side")
        if t.role == "chapter" and t.cost is not None:
            raise _bad(f"{where}.cost", "Marine Chapters cannot be rebuilt (rules: Special Units)")
        if t.ability and t.role != "leader":
            raise _bad(f"{where}.ability", "only leaders have special abilities")


def _check_counters(sc: Scenario) -> None:
    areas = {a.id: a for a in sc.areas}
    types = {t.id: t for t in sc.counter_types}
    site_areas = {s.area for s in sc.sites}
    normal: Tally[str] = Tally()
    forts: Tally[str] = Tally()
    tribes_in: dict[str, set[str]] = {}
    sides_in: dict[str, set[str]] = {a: {IMPERIALS} for a in site_areas}
    for i, c in enumerate(sc.counters):
        where = f"$.counters[{i}]"
        t = types.get(c.type)
        if t is None:
            raise _bad(f"{where}.type", f"unknown counter type {c.type!r}")
        if t.side == ORKS and t.role == "normal":
            if c.tribe not in sc.tribes:
                raise _bad(
                    f"{where}.tribe", f"an Ork counter needs a tribe of $.tribes, not {c.tribe!r}"
                )
        elif c.tribe:
            raise _bad(f"{where}.tribe", "only normal Ork counters belong to a tribe")
        if c.start == START_LATER:
            if c.arrives < 1:
                raise _bad(
                    f"{where}.arrives", "a counter that starts 'later' needs its arrival turn"
                )
            continue
        if c.arrives:
            raise _bad(f"{where}.arrives", "only a counter that starts 'later' has an arrival turn")
        if c.start == START_ASIDE and t.side == ORKS:
            raise _bad(
                f"{where}.start",
                "the Orks set up all their counters in Ork Territory (rules: Setup)",
            )
        if c.start == START_ASIDE:
            continue
        area = areas.get(c.start)
        if area is None:
            raise _bad(f"{where}.start", f"unknown area {c.start!r} (or 'aside', 'later')")
        if area.terrain in IMPASSABLE:
            raise _bad(f"{where}.start", f"no counter may stand in {area.terrain}")
        if t.side == ORKS and not area.ork_territory:
            raise _bad(f"{where}.start", "the Orks set up in Ork Territory (rules: Setup)")
        if t.role == "fortification" and c.start not in site_areas:
            raise _bad(f"{where}.start", "fortifications stand on a hive or factory")
        sides_in.setdefault(c.start, set()).add(t.side)
        if len(sides_in[c.start]) > 1:
            raise _bad(f"{where}.start", f"Imperial and Ork counters both in {c.start!r}")
        if t.role in ("normal", "chapter"):
            normal[c.start] += 1
            if normal[c.start] > MAX_STACK:
                raise _bad(
                    f"{where}.start", f"more than {MAX_STACK} counters stacked in {c.start!r}"
                )
        if t.role == "fortification":
            forts[c.start] += 1
            # BFA-9: checked alike whatever version a game of it begins under (an imported
            # game_created names its own), as versions 4 and before hold one per area
            if forts[c.start] > MAX_FORTIFICATIONS_PER_AREA:
                raise _bad(f"{where}.start", f"a second fortification in {c.start!r} (BFA-9)")
        if c.tribe:
            tribes_in.setdefault(c.start, set()).add(c.tribe)
            if len(tribes_in[c.start]) > 1:
                raise _bad(f"{where}.tribe", f"Ork tribes mixed in {c.start!r} (rules: Stacking)")


def _check_marines(sc: Scenario) -> None:
    """BFA-29 (``rules.MARINE_CHAPTERS_IMPERIAL_SINCE``): the Marine Chapters are Imperial and
    start "later", in the READY box on their arrival turn (rules: Special Units), and every Ork
    counter is set up, none arriving later (rules: Setup). Their turn and number stay the
    scenario's."""
    for i, t in enumerate(sc.counter_types):
        if t.role == "chapter" and t.side != IMPERIALS:
            raise _bad(
                f"$.counter_types[{i}].side",
                f"Marine Chapters are Imperial ({SPECIAL_UNITS}; BFA-29)",
            )
    types = {t.id: t for t in sc.counter_types}
    for i, c in enumerate(sc.counters):
        t = types[c.type]
        if t.role == "chapter" and c.start != START_LATER:
            raise _bad(
                f"$.counters[{i}].start",
                "a Marine Chapter starts 'later', entering the READY box on its arrival turn "
                f"({SPECIAL_UNITS}; BFA-29)",
            )
        if t.side == ORKS and c.start == START_LATER:
            raise _bad(
                f"$.counters[{i}].start",
                f"the Orks set up all their counters in Ork Territory, none 'later' ({SETUP}; BFA-29)",
            )


def _check_fortifications(sc: Scenario) -> None:
    """BFA-30 (``rules.FORTIFICATION_NO_DEFENCE_SINCE``): a fortification has no defence of its
    own; it doubles the defence of the counters it is stacked with (rules: Special Units)."""
    for i, t in enumerate(sc.counter_types):
        if t.role == "fortification" and t.defence != 0:
            raise _bad(
                f"$.counter_types[{i}].defence",
                f"a fortification has no defence of its own, not {t.defence}: it doubles the "
                f"defence of the counters it is stacked with ({SPECIAL_UNITS}; BFA-30)",
            )


def _check_cards(sc: Scenario) -> None:
    for i, card in enumerate(sc.strategy_cards):
        if card.phases[0] == card.phases[1]:
            raise _bad(
                f"$.strategy_cards[{i}].phases", "a strategy card names two different phases"
            )
        for j, phase in enumerate(card.phases):
            if phase not in PHASES:  # pragma: no cover - the Literal already refuses it
                raise _bad(f"$.strategy_cards[{i}].phases[{j}]", f"unknown phase {phase!r}")
    if len(sc.strategy_cards) < 2:
        raise _bad("$.strategy_cards", "each player needs at least 2 strategy cards to choose")
    for player in PLAYERS:
        deck = sum(1 for c in sc.special_cards if c.side == player)
        if deck > MAX_SIDES:
            raise _bad(
                "$.special_cards",
                f"the {player} have {deck} special cards: a draw picks one with a single die, which "
                f"has at most {MAX_SIDES} sides (the dice contract)",
            )
    for i, special in enumerate(sc.special_cards):
        side = EFFECT_SIDE.get(special.effect)
        if side is not None and side != special.side:
            raise _bad(
                f"$.special_cards[{i}].effect", f"{special.effect!r} is a card of the {side}"
            )
        if special.effect in VALUED_EFFECTS and special.value < 1:
            raise _bad(
                f"$.special_cards[{i}].value", f"{special.effect!r} needs a value of 1 or more"
            )
