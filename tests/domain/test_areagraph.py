"""Area-map geometry: adjacency, rivers, reachability with stopping terrain, paths, soundness."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from warlog.domain.core.areagraph import AreaGraph, edge

# a - b - c - d
# |   |
# e - f       g (alone)
LINE = {
    "a": ["b", "e"],
    "b": ["a", "c", "f"],
    "c": ["b", "d"],
    "d": ["c"],
    "e": ["a", "f"],
    "f": ["b", "e"],
    "g": [],
}


def test_neighbours_are_symmetric_and_in_declaration_order() -> None:
    g = AreaGraph(LINE)
    assert g.neighbours("b") == ("a", "c", "f")
    assert g.adjacent("a", "e") and g.adjacent("e", "a")
    assert not g.adjacent("a", "c")
    assert "g" in g and "z" not in g
    assert g.areas == ("a", "b", "c", "d", "e", "f", "g")
    # declaration order, not the order of the names
    assert AreaGraph({"z": ["a"], "a": ["z", "m"], "m": ["a"]}).neighbours("a") == ("z", "m")


def test_a_link_declared_on_one_side_only_is_reported_but_still_linked() -> None:
    g = AreaGraph({"a": ["b"], "b": []})
    assert g.adjacent("b", "a")
    assert g.problems() == ["'a' lists 'b' as adjacent but not the other way round"]


def test_unknown_and_self_links_are_reported() -> None:
    g = AreaGraph({"a": ["a", "x"]})
    assert g.problems() == [
        "'a' lists itself as adjacent",
        "'a' lists unknown area 'x' as adjacent",
    ]
    assert g.neighbours("a") == ()  # an area is never its own neighbour


def test_rivers_lie_on_edges() -> None:
    g = AreaGraph(LINE, rivers=[("b", "c"), ("a", "d")])
    assert g.river_between("c", "b")
    assert not g.river_between("a", "b")
    assert g.problems() == ["river between 'a' and 'd' is not an edge of the map"]
    assert not g.river_between("a", "d")  # a river off the map's edges separates nothing
    assert edge("a", "b") == edge("b", "a")


def test_reachable_counts_steps_within_the_budget() -> None:
    g = AreaGraph(LINE)
    assert g.reachable("a", 2) == {"a": 0, "b": 1, "e": 1, "c": 2, "f": 2}
    assert g.reachable("a", 0) == {"a": 0}


def test_areas_that_cannot_be_entered_block_the_way() -> None:
    g = AreaGraph(LINE)
    assert "c" not in g.reachable("a", 5, can_enter=lambda x: x != "b")
    assert g.reachable("a", 5, can_enter=lambda x: x != "b")["f"] == 2


def test_entering_a_stopping_area_ends_the_move_there() -> None:
    g = AreaGraph(LINE)
    reach = g.reachable("a", 5, stops=lambda x: x == "b")
    assert "b" in reach and "c" not in reach
    # starting in a stopping area does not stop you
    assert g.reachable("b", 1, stops=lambda x: x == "b")["c"] == 1


def test_paths_are_shortest_and_deterministic() -> None:
    g = AreaGraph(LINE)
    assert g.path("e", "c") == ["e", "a", "b", "c"] or g.path("e", "c") == ["e", "f", "b", "c"]
    assert g.path("e", "c") == g.path("e", "c")
    assert g.path("a", "a") == ["a"]
    assert g.path("a", "g") is None
    assert g.path("a", ["d", "f"]) == ["a", "b", "f"]
    assert g.path("a", "c", budget=1) is None
    assert g.path("a", "c", stops=lambda x: x == "b") is None


def test_components_group_the_connected_areas() -> None:
    g = AreaGraph(LINE)
    assert g.components() == [["a", "b", "c", "d", "e", "f"], ["g"]]
    assert g.components(lambda x: x != "b") == [["a", "e", "f"], ["c", "d"], ["g"]]


@st.composite
def graphs(draw: st.DrawFn) -> dict[str, list[str]]:
    n = draw(st.integers(min_value=1, max_value=9))
    names = [f"n{i}" for i in range(n)]
    links: dict[str, set[str]] = {a: set() for a in names}
    for a in names:
        for b in draw(st.lists(st.sampled_from(names), max_size=3)):
            if a != b:
                links[a].add(b)
                links[b].add(a)
    return {a: sorted(b) for a, b in links.items()}


@given(graphs(), st.integers(min_value=0, max_value=5))
def test_every_reachable_area_has_a_path_of_that_length(
    adj: dict[str, list[str]], budget: int
) -> None:
    g = AreaGraph(adj)
    assert g.problems() == []
    start = next(iter(adj))
    for area, steps in g.reachable(start, budget).items():
        path = g.path(start, area, budget=budget)
        assert path is not None and len(path) - 1 == steps
        assert all(g.adjacent(x, y) for x, y in pairwise(path))


@given(graphs(), st.integers(min_value=0, max_value=5), st.sets(st.integers(0, 8)))
def test_paths_finds_in_one_search_the_path_path_finds_to_each_area(
    adj: dict[str, list[str]], budget: int, stopping: set[int]
) -> None:
    """Given any graph, budget and stopping areas, when every path is asked for at once, then each
    is the one ``path`` finds to that area alone, and every area ``reachable`` but the start has
    one."""
    g = AreaGraph(adj)
    start = next(iter(adj))
    stops = {f"n{i}" for i in stopping}
    found = g.paths(start, budget, stops=lambda a: a in stops)
    reach = g.reachable(start, budget, stops=lambda a: a in stops)
    assert list(found) == [a for a in reach if a != start]
    for area, path in found.items():
        assert path == g.path(start, area, stops=lambda a: a in stops, budget=budget)
