"""Hex geometry and searches: ``HexGraph`` gives what a plain Dijkstra over ``Hex`` gives (the
original ``cheapest_costs``/``cheapest_path``, kept below as the reference) on any map, with
any blocked hexes: the same costs, the same paths (ties broken alike), the same order."""

from __future__ import annotations

import heapq
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warlog.domain.core.errors import InputError
from warlog.domain.core.hexgrid import Hex, HexGraph, cheapest_costs, cheapest_path

# ---------------------------------------------------------------- the reference (do not tune)


def reference_cheapest_costs(
    start: Hex, enter_cost: Callable[[Hex], int | None], budget: int
) -> dict[Hex, int]:
    """The original ``hexgrid.cheapest_costs``, verbatim: Dijkstra over ``Hex`` objects."""
    best: dict[Hex, int] = {start: 0}
    frontier: list[tuple[int, Hex]] = [(0, start)]
    while frontier:
        cost, here = heapq.heappop(frontier)
        if cost > best.get(here, cost):
            continue
        for nxt in here.neighbours():
            step = enter_cost(nxt)
            if step is None:
                continue
            total = cost + step
            if total <= budget and total < best.get(nxt, total + 1):
                best[nxt] = total
                heapq.heappush(frontier, (total, nxt))
    return best


def reference_cheapest_path(
    start: Hex, goal: Hex, enter_cost: Callable[[Hex], int | None]
) -> tuple[int, list[Hex]] | None:
    """The original ``hexgrid.cheapest_path``, verbatim."""
    best: dict[Hex, int] = {start: 0}
    came: dict[Hex, Hex] = {}
    frontier: list[tuple[int, Hex]] = [(0, start)]
    while frontier:
        cost, here = heapq.heappop(frontier)
        if here == goal:
            path = [here]
            while path[-1] != start:
                path.append(came[path[-1]])
            return cost, path[::-1]
        if cost > best.get(here, cost):
            continue
        for nxt in here.neighbours():
            step = enter_cost(nxt)
            if step is None:
                continue
            total = cost + step
            if total < best.get(nxt, total + 1):
                best[nxt] = total
                came[nxt] = here
                heapq.heappush(frontier, (total, nxt))
    return None


# ---------------------------------------------------------------- maps

# small, ragged maps (holes, negative coordinates) with few distinct costs, so that equal-cost
# paths and ties in the frontier are common
coords = st.tuples(st.integers(-4, 4), st.integers(-4, 4)).map(lambda qr: Hex(*qr))
maps = st.dictionaries(coords, st.integers(1, 3), min_size=1, max_size=60)


class Case:
    """A map, some blocked hexes on it and the entry-cost callback the reference searches use."""

    def __init__(self, costs: dict[Hex, int], blocked: set[Hex]) -> None:
        self.costs, self.blocked = costs, blocked
        self.graph = HexGraph(costs)
        self.blocked_nodes = {self.node(h) for h in blocked}

    def node(self, h: Hex) -> int:
        return self.graph.index[str(h)]

    def enter(self, h: Hex) -> int | None:
        return None if h in self.blocked else self.costs.get(h)


@st.composite
def cases(draw: st.DrawFn) -> tuple[Case, list[Hex]]:
    """A map, blocked hexes and 1–3 chosen hexes of it (starts, or a start and a goal)."""
    costs = draw(maps)
    hexes = sorted(costs)
    blocked = draw(st.sets(st.sampled_from(hexes), max_size=len(hexes) // 3))
    chosen = draw(st.lists(st.sampled_from(hexes), min_size=1, max_size=3))
    return Case(costs, blocked), chosen


# ---------------------------------------------------------------- HexGraph vs the reference


@settings(max_examples=300)
@given(case=cases(), budget=st.integers(0, 12))
def test_costs_from_one_start_are_the_reference_costs_in_the_same_order(
    case: tuple[Case, list[Hex]], budget: int
) -> None:
    c, (start, *_) = case
    want = reference_cheapest_costs(start, c.enter, budget)
    got = c.graph.costs_from([c.node(start)], budget, c.blocked_nodes)
    assert [(c.graph.hexes[n], cost) for n, cost in got.items()] == list(want.items())


@settings(max_examples=300)
@given(case=cases(), budget=st.integers(0, 12))
def test_costs_from_several_starts_are_the_least_of_each_starts_reference_costs(
    case: tuple[Case, list[Hex]], budget: int
) -> None:
    c, starts = case
    want: dict[Hex, int] = {}
    for start in starts:
        for h, cost in reference_cheapest_costs(start, c.enter, budget).items():
            want[h] = min(cost, want.get(h, cost))
    got = c.graph.costs_from([c.node(s) for s in starts], budget, c.blocked_nodes)
    assert {c.graph.hexes[n]: cost for n, cost in got.items()} == want


@settings(max_examples=300)
@given(case=cases())
def test_path_is_the_reference_path(case: tuple[Case, list[Hex]]) -> None:
    c, (start, *rest) = case
    goal = rest[0] if rest else start
    want = reference_cheapest_path(start, goal, c.enter)
    found = c.graph.path(c.node(start), c.node(goal), c.blocked_nodes)
    got = None if found is None else (found[0], [c.graph.hexes[n] for n in found[1]])
    assert got == want


@settings(max_examples=300)
@given(case=cases(), budget=st.integers(0, 12))
def test_an_end_costs_what_the_reference_path_to_it_costs_with_only_that_end_unblocked(
    case: tuple[Case, list[Hex]], budget: int
) -> None:
    c, (start, *_) = case
    ends = sorted(c.blocked | {start})
    reach = c.graph.costs_from([c.node(start)], budget, {c.node(h) for h in ends})
    got = dict(c.graph.ends_within(reach, [c.node(h) for h in ends], budget))
    want = {}
    for end in ends:
        found = reference_cheapest_path(
            start, end, lambda h, end=end: c.costs.get(h) if h == end or h not in ends else None
        )
        if found is not None and found[0] <= budget:
            want[c.node(end)] = found[0]
    assert got == want


@settings(max_examples=100)
@given(case=cases(), budget=st.integers(0, 12))
def test_the_general_searches_are_still_the_reference(
    case: tuple[Case, list[Hex]], budget: int
) -> None:
    c, (start, *rest) = case
    goal = rest[0] if rest else start
    assert list(cheapest_costs(start, c.enter, budget).items()) == list(
        reference_cheapest_costs(start, c.enter, budget).items()
    )
    assert cheapest_path(start, goal, c.enter) == reference_cheapest_path(start, goal, c.enter)


# ---------------------------------------------------------------- the graph itself


def test_nodes_are_numbered_in_hex_order_with_their_text_form() -> None:
    graph = HexGraph({Hex(1, 0): 1, Hex(0, 1): 2, Hex(0, 0): 3, Hex(-1, 2): 1})
    assert graph.hexes == (Hex(-1, 2), Hex(0, 0), Hex(0, 1), Hex(1, 0))
    assert graph.names == ("-1,2", "0,0", "0,1", "1,0")
    assert graph.index == {"-1,2": 0, "0,0": 1, "0,1": 2, "1,0": 3}


def test_steps_list_the_neighbours_on_the_map_clockwise_from_east_with_their_cost() -> None:
    graph = HexGraph({Hex(0, 0): 1, Hex(1, 0): 2, Hex(0, 1): 3, Hex(-1, 1): 1, Hex(5, 5): 1})
    east, south_west, south_east = graph.index["1,0"], graph.index["-1,1"], graph.index["0,1"]
    assert graph.steps[graph.index["0,0"]] == ((east, 2), (south_west, 1), (south_east, 3))
    assert graph.steps[graph.index["5,5"]] == ()


def test_an_equal_cost_tie_takes_the_path_through_the_lower_hex() -> None:
    # 0,0 -> 2,-1 costs 2 through 1,0 and through 1,-1 (both neighbour both ends); the frontier
    # pops (1, Hex(1,-1)) before (1, Hex(1,0)), so the path goes through 1,-1
    costs = {Hex(0, 0): 1, Hex(1, 0): 1, Hex(1, -1): 1, Hex(2, -1): 1}
    graph = HexGraph(costs)
    found = graph.path(graph.index["0,0"], graph.index["2,-1"])
    assert found == (2, [graph.index["0,0"], graph.index["1,-1"], graph.index["2,-1"]])
    assert reference_cheapest_path(Hex(0, 0), Hex(2, -1), costs.get) == (
        2,
        [Hex(0, 0), Hex(1, -1), Hex(2, -1)],
    )


def test_a_path_never_enters_a_blocked_hex() -> None:
    # the same two equal ways from 0,0 to 2,-1: with 1,-1 blocked the path takes 1,0; with both
    # blocked there is none, though every hex is on the map
    graph = HexGraph({Hex(0, 0): 1, Hex(1, 0): 1, Hex(1, -1): 1, Hex(2, -1): 1})
    start, goal, east, north_east = (graph.index[h] for h in ("0,0", "2,-1", "1,0", "1,-1"))
    assert graph.path(start, goal, {north_east}) == (2, [start, east, goal])
    assert graph.path(start, goal, {north_east, east}) is None


def test_hex_text_form_round_trips_and_distance_counts_steps() -> None:
    assert str(Hex(3, -1)) == "3,-1"
    assert Hex.parse("3,-1") == Hex(3, -1)
    assert Hex(3, -1).s == -2  # cube coordinates: q + r + s == 0
    for bad in ("3", "3,-1,2", "3;-1", "a,b"):
        with pytest.raises(InputError) as info:
            Hex.parse(bad)
        assert info.value.code == "input/bad_hex"
    assert Hex(0, 0).distance(Hex(2, -1)) == 2
    assert Hex(0, 0).distance(Hex(-3, 3)) == 3


def test_a_hex_s_repr_is_the_expression_that_makes_it() -> None:
    assert repr(Hex(3, -1)) == "Hex(3, -1)"
    assert eval(repr(Hex(3, -1)), {"Hex": Hex}) == Hex(3, -1)
