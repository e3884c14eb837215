"""Board queries: who stands where, counter values, stacking, terrain, movement and supply lines.

Pure functions of the state; the rules they encode cite seed 003 or a BFA ruling.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from warlog.domain.battle_for_armageddon.rules import (
    FORTIFICATIONS_STACK_SINCE,
    IMPERIALS,
    MAX_FORTIFICATIONS_PER_AREA,
    MAX_STACK,
    OFF_MAP,
    opponent,
)
from warlog.domain.battle_for_armageddon.scenario import (
    IMPASSABLE,
    STOPPING,
    AreaSpec,
    CounterType,
    Scenario,
)
from warlog.domain.battle_for_armageddon.state import Counter, GameState, Site
from warlog.domain.core.areagraph import AreaGraph
from warlog.domain.core.errors import quoted


class _Tables(NamedTuple):
    """A scenario's graph and lookup tables."""

    scenario: Scenario
    graph: AreaGraph
    areas: dict[str, AreaSpec]
    types: dict[str, CounterType]
    #: counter id -> its printed name in the scenario ("" when it has none)
    names: dict[str, str]
    #: the areas that end a move (ash waste and jungle)
    stopping: frozenset[str]


_GRAPHS: dict[int, _Tables] = {}


def _tables(sc: Scenario) -> _Tables:
    """The scenario's graph and lookup tables, built once per scenario object (a pure cache)."""
    hit = _GRAPHS.get(id(sc))
    if hit is not None and hit.scenario is sc:
        return hit
    graph = AreaGraph(
        {a.id: a.adjacent for a in sc.areas},
        [(r.areas[0], r.areas[1]) for r in sc.rivers],
    )
    entry = _Tables(
        sc,
        graph,
        {a.id: a for a in sc.areas},
        {t.id: t for t in sc.counter_types},
        {c.id: c.name for c in reversed(sc.counters) if c.name},
        frozenset(a.id for a in sc.areas if a.terrain in STOPPING),
    )
    if len(_GRAPHS) > 64:
        _GRAPHS.clear()
    _GRAPHS[id(sc)] = entry
    return entry


def graph(state: GameState) -> AreaGraph:
    return _tables(state.scenario).graph


def area(state: GameState, area_id: str) -> AreaSpec:
    return _tables(state.scenario).areas[area_id]


def is_area(state: GameState, area_id: str) -> bool:
    return area_id in _tables(state.scenario).areas


def area_named(state: GameState, text: str) -> str:
    """An area a command names, for a refusal: as it is if the map has it, else quoted short
    (whatever a client typed, the refusal stays one readable line)."""
    return text if is_area(state, text) else quoted(text)


def counter_named(state: GameState, text: str) -> str:
    """A counter a command names, for a refusal: as it is if the game has it, else quoted."""
    return text if text in state.counters else quoted(text)


def ctype(state: GameState, counter: Counter) -> CounterType:
    return _tables(state.scenario).types[counter.type]


def name_of(state: GameState, counter: Counter) -> str:
    """The counter's printed name (a detachment once its chapter is reduced)."""
    return printed(state, counter)[0]


def printed(state: GameState, counter: Counter) -> tuple[str, int, int, int]:
    """The counter's name, attack, defence and move on the side it shows now (a chapter's
    detachment side once reduced), in one lookup (views read every counter's)."""
    tables = _tables(state.scenario)
    t = tables.types[counter.type]
    spec_name = tables.names.get(counter.id, "")
    if counter.reduced:
        base, values = t.reduced_name, (t.reduced_attack, t.reduced_defence, t.reduced_move)
    else:
        base, values = t.name, (t.attack, t.defence, t.move)
    return (f"{spec_name} ({base})" if spec_name else base, *values)


def attack_of(state: GameState, counter: Counter) -> int:
    t = ctype(state, counter)
    return t.reduced_attack if counter.reduced else t.attack


def defence_of(state: GameState, counter: Counter) -> int:
    t = ctype(state, counter)
    return t.reduced_defence if counter.reduced else t.defence


def move_of(state: GameState, counter: Counter) -> int:
    t = ctype(state, counter)
    return t.reduced_move if counter.reduced else t.move


def role(state: GameState, counter: Counter) -> str:
    return ctype(state, counter).role


def counts_for_stacking(state: GameState, counter: Counter) -> bool:
    """seed 003 "Stacking": leaders and fortifications are free; chapters and the rest count."""
    return ctype(state, counter).role in ("normal", "chapter")


def is_leader(state: GameState, counter: Counter) -> bool:
    return ctype(state, counter).role == "leader"


def is_fortification(state: GameState, counter: Counter) -> bool:
    return ctype(state, counter).role == "fortification"


def has_ability(state: GameState, counter: Counter, ability: str) -> bool:
    return ctype(state, counter).ability == ability


def on_map(counter: Counter) -> bool:
    return counter.location not in OFF_MAP


class _Where(NamedTuple):
    """Who stands where in one state: its counters by location (in scenario order) and the
    sides occupying each area (BFA-17: an intact hive or factory is an Imperial counter)."""

    counters: dict[str, Counter]
    sites: dict[str, Site]
    by_location: dict[str, list[Counter]]
    sides: dict[str, set[str]]
    #: side -> the areas its counters may enter (``open_to``), filled in when first asked
    open: dict[str, frozenset[str]]


_WHERE: dict[int, _Where] = {}


def _where(state: GameState) -> _Where:
    """The state's ``_Where``, built once per counters and sites (a pure cache: states are
    immutable, and an entry is used only for the very dicts it was built from)."""
    counters, sites = state.counters, state.sites
    hit = _WHERE.get(id(counters))
    if hit is not None and hit.counters is counters and hit.sites is sites:
        return hit
    by_location: dict[str, list[Counter]] = {}
    sides: dict[str, set[str]] = {}
    for c in counters.values():
        by_location.setdefault(c.location, []).append(c)
        sides.setdefault(c.location, set()).add(c.side)
    for site in sites.values():
        if not site.ruined:
            sides.setdefault(site.area, set()).add(IMPERIALS)
    if len(_WHERE) > 256:
        _WHERE.clear()
    found = _WHERE[id(counters)] = _Where(counters, sites, by_location, sides, {})
    return found


def counters_in(state: GameState, area_id: str, side: str | None = None) -> list[Counter]:
    """The counters in an area (of one side), in scenario order."""
    return [c for c in _where(state).by_location.get(area_id, ()) if side is None or c.side == side]


def site_in(state: GameState, area_id: str) -> Site | None:
    for site in state.sites.values():
        if site.area == area_id:
            return site
    return None


def intact_site_in(state: GameState, area_id: str) -> Site | None:
    site = site_in(state, area_id)
    return site if site is not None and not site.ruined else None


def occupied_by(state: GameState, area_id: str, side: str) -> bool:
    """True if any counter of ``side`` stands in the area (BFA-17: an intact hive or factory is
    an Imperial counter; smoking ruins belong to nobody)."""
    return side in _where(state).sides.get(area_id, ())


def enemy_occupied(state: GameState, area_id: str, side: str) -> bool:
    return occupied_by(state, area_id, opponent(side))


def passable(state: GameState, area_id: str) -> bool:
    """seed 003 "Terrain Effects": mountains and sea block movement and supply."""
    return area(state, area_id).terrain not in IMPASSABLE


def stacking_problem(state: GameState, area_id: str, counters: Iterable[Counter]) -> str | None:
    """Why ``counters`` (one side's whole stack) may not stand together in the area, or None.

    seed 003 "Stacking": at most 3 counters that count, any number of free ones, no Ork tribes
    mixed (Ghazghkull joins any tribe); BFA-9: any number of fortifications since version 5,
    one per area in games begun under 4 and before.
    """
    types = _tables(state.scenario).types
    normal = forts = 0
    tribes: set[str] = set()
    for c in counters:
        role = types[c.type].role
        if role in ("normal", "chapter"):
            normal += 1
        elif role == "fortification":
            forts += 1
        if c.tribe:
            tribes.add(c.tribe)
    if normal > MAX_STACK:
        return f"{normal} counters in {area_id} (at most {MAX_STACK} count for stacking)"
    if len(tribes) > 1:
        return f"Ork tribes {', '.join(sorted(tribes))} mixed in {area_id}"
    if forts > MAX_FORTIFICATIONS_PER_AREA and state.rules_version < FORTIFICATIONS_STACK_SINCE:
        return f"{forts} fortifications in {area_id} (BFA-9: one per area)"
    return None


def fits(state: GameState, area_id: str, joining: Iterable[Counter]) -> bool:
    """True if ``joining`` may be added to what its side already has in the area."""
    joining = list(joining)
    if not joining:
        return True
    ids = {c.id for c in joining}
    here = [c for c in counters_in(state, area_id, joining[0].side) if c.id not in ids]
    return stacking_problem(state, area_id, [*here, *joining]) is None


def open_to(state: GameState, area_id: str, side: str) -> bool:
    """An area a counter of ``side`` may enter at all: passable terrain, no enemy counter."""
    return area_id in open_areas(state, side)


def open_areas(state: GameState, side: str) -> frozenset[str]:
    """Every area ``open_to`` a counter of ``side``, found once per state and side."""
    where = _where(state)
    found = where.open.get(side)
    if found is None:
        enemy = opponent(side)
        found = where.open[side] = frozenset(
            a.id
            for a in state.scenario.areas
            if a.terrain not in IMPASSABLE and enemy not in where.sides.get(a.id, ())
        )
    return found


def move_paths(state: GameState, counter: Counter, budget: int) -> dict[str, list[str]]:
    """Every area the counter may move to within ``budget`` areas, with a shortest path.

    seed 003 "Movement Phase": not into mountains, sea or enemy-occupied areas; ash waste and
    jungle stop the move. Stacking is not checked here (it counts at the end of the phase).
    """
    tables = _tables(state.scenario)
    return tables.graph.paths(
        counter.location,
        budget,
        open_areas(state, counter.side).__contains__,
        tables.stopping.__contains__,
    )


def supply_areas(state: GameState, side: str) -> list[str]:
    return [a.id for a in state.scenario.areas if a.supply == side]


def supply_line(state: GameState, area_id: str, side: str) -> list[str] | None:
    """A line from the area to one of the side's supply areas, or None when it is cut.

    seed 003 "Supply": any length, not into enemy-occupied areas or sea (nor mountains, seed
    "Terrain Effects"); ash waste is allowed.
    """
    goals = [a for a in supply_areas(state, side) if not enemy_occupied(state, a, side)]
    if not goals:
        return None
    return graph(state).path(area_id, goals, lambda a: open_to(state, a, side))


def build_track(state: GameState) -> int:
    """seed 003 "Build Phase": each intact hive and factory yields its defence value."""
    return sum(s.defence for s in state.sites.values() if not s.ruined)
