"""Path costs on the map for moves and supply: terrain move costs (R12), entering no hex another
empire holds (AE-5).

Every search runs on the board's ``HexGraph``, built once per map (``board_graph``), and the
latest searches are remembered by their starts, blocked hexes and budget: terrain costs never
change in play, so a search's answer is a function of those alone. Only a
forged log's state can put an army or a base off the map, or at a hex written otherwise than
``"q,r"`` (``"07,1"``); such a hex is not a node, so a search from it falls back to the general
``cheapest_costs``/``cheapest_path``, which give the same answers, only slower.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Sequence
from typing import Any

from warlog.domain.armageddon_empires.state import Board
from warlog.domain.core.hexgrid import Hex, HexGraph, cheapest_costs, cheapest_path

#: how many maps (and board objects) keep their graph: the games in play share a few maps
GRAPH_CACHE_SIZE = 16

# Boards never change, so a graph may be shared by every search on an equal map. id(board) ->
# (the board, its graph): holding the board keeps its id from being reused; map -> its graph.
_by_board: dict[int, tuple[Board, HexGraph]] = {}
_by_map: dict[tuple[tuple[str, int], ...], HexGraph] = {}
_lock = threading.Lock()

#: how many searches ``_node_costs`` remembers (oldest dropped first)
SEARCH_CACHE_SIZE = 512
# (graph, start nodes, blocked nodes, budget) -> node -> least cost
_searches: dict[tuple[HexGraph, tuple[int, ...], frozenset[int], int], dict[int, int]] = {}


def board_graph(board: Board) -> HexGraph:
    """The board's hexes as a ``HexGraph``, each entered at its terrain's move cost (R12)."""
    found = _by_board.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    costs = {at: board.table[name].move for at, name in board.terrain.items()}
    key = tuple(costs.items())
    graph = _by_map.get(key)
    if graph is None:
        graph = HexGraph({Hex.parse(at): cost for at, cost in costs.items()})
    with _lock:
        _remember(_by_map, key, graph)
        _remember(_by_board, id(board), (board, graph))
    return graph


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
    """Put ``key`` in ``cache``, first dropping its oldest entry if it is full."""
    if key not in cache and len(cache) >= GRAPH_CACHE_SIZE:
        del cache[next(iter(cache))]
    cache[key] = value


def _blocked(graph: HexGraph, held: Collection[str]) -> frozenset[int]:
    """The nodes of the enemy-held hexes ``held`` (as ``"q,r"``) that are on the map."""
    index = graph.index
    return frozenset(index[at] for at in held if at in index)


def _enter(board: Board, held: Collection[str]) -> Callable[[Hex], int | None]:
    """The general searches' entry cost: the terrain's, None off the map or enemy-held."""

    def enter(h: Hex) -> int | None:
        at = str(h)
        return None if at in held else board.move_cost(at)

    return enter


def costs_from(
    board: Board, held: Collection[str], starts: Sequence[str], budget: int
) -> dict[str, int]:
    """``"q,r"`` → the least cost of a path to it from the nearest of ``starts`` entering no hex
    of ``held``, for costs ≤ ``budget``; the starts cost 0. From one start, in the order found."""
    graph = board_graph(board)
    nodes = [graph.index[at] for at in starts if at in graph.index]
    if len(nodes) < len(starts):
        return _costs_off_map(board, held, starts, budget)
    names = graph.names
    best = _node_costs(graph, tuple(nodes), _blocked(graph, held), budget)
    return {names[node]: cost for node, cost in best.items()}


def costs_ending_in(
    board: Board, held: Collection[str], start: str, ends: Collection[str], budget: int
) -> dict[str, int]:
    """``costs_from`` from ``start``, and after them each hex of ``ends`` (hexes of ``held`` a
    path may enter last: to fight or hunt there) whose least-cost path from ``start``, entering
    no other hex of ``held``, is within ``budget``, with that cost: what ``path_between`` with
    ``held`` less that end gives, for every end at the cost of one search."""
    graph = board_graph(board)
    index = graph.index
    if start not in index or any(at not in index for at in ends):
        reach = costs_from(board, held, [start], budget)
        for at in ends:
            found = path_between(board, set(held) - {at}, start, at)
            if found is not None and found[0] <= budget:
                reach[at] = found[0]
        return reach
    names = graph.names
    best = _node_costs(graph, (index[start],), _blocked(graph, held), budget)
    reach = {names[node]: cost for node, cost in best.items()}
    for node, cost in graph.ends_within(best, [index[at] for at in ends], budget):
        reach[names[node]] = cost
    return reach


def _node_costs(
    graph: HexGraph, starts: tuple[int, ...], blocked: frozenset[int], budget: int
) -> dict[int, int]:
    """``graph.costs_from``, remembered: the same search recurs from one decision to the next
    (an army that did not move, an empire's supply sources), as nothing but the held hexes
    changes on a map. The dict returned is shared: read it, never change it."""
    key = (graph, starts, blocked, budget)
    found = _searches.get(key)
    if found is None:
        found = graph.costs_from(starts, budget, blocked)
        with _lock:
            if key not in _searches and len(_searches) >= SEARCH_CACHE_SIZE:
                del _searches[next(iter(_searches))]
            _searches[key] = found
    return found


def _costs_off_map(
    board: Board, held: Collection[str], starts: Sequence[str], budget: int
) -> dict[str, int]:
    """``costs_from`` when a start is off the map: a general search from each start."""
    enter = _enter(board, held)
    best: dict[str, int] = {}
    for start in starts:
        for h, cost in cheapest_costs(Hex.parse(start), enter, budget).items():
            at = str(h)
            if cost < best.get(at, cost + 1):
                best[at] = cost
    return best


def path_between(
    board: Board, held: Collection[str], start: str, goal: str
) -> tuple[int, list[str]] | None:
    """The least-cost path from ``start`` to ``goal`` (both included, as ``"q,r"``) entering no
    hex of ``held``, and its cost; None when ``held`` blocks every path."""
    graph = board_graph(board)
    origin, target = graph.index.get(start), graph.index.get(goal)
    if origin is None or target is None:
        found = cheapest_path(Hex.parse(start), Hex.parse(goal), _enter(board, held))
        return None if found is None else (found[0], [str(h) for h in found[1]])
    found_nodes = graph.path(origin, target, _blocked(graph, held))
    if found_nodes is None:
        return None
    cost, nodes = found_nodes
    names = graph.names
    return cost, [names[node] for node in nodes]
