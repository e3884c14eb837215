"""Hex geometry: axial coordinates with a text form, distance, neighbours, cheapest paths.

``cheapest_costs`` and ``cheapest_path`` search any hexes through an ``enter_cost`` callback.
``HexGraph`` gives the same answers on one fixed map many times faster: its hexes are numbered
once, with their neighbours and entry costs, so a search handles plain ints.

A cost is that of entering a hex, whichever way it is entered, and the searches take hexes in
order of cost: the first way a search finds to a hex is its cheapest, so no hex is queued twice
and none is taken out stale.
"""

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from heapq import heappop, heappush

import msgspec

from warlog.domain.core.errors import InputError

# Axial directions, clockwise from east (q, r).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class Hex(msgspec.Struct, frozen=True, order=True, array_like=True):
    """An axial hex coordinate. ``str(Hex(3, -1)) == "3,-1"`` and ``Hex.parse("3,-1")`` undoes it."""

    q: int
    r: int

    @classmethod
    def parse(cls, text: str) -> "Hex":
        """Return the hex written as ``"q,r"``; raises InputError for anything else."""
        parts = text.split(",")
        try:
            if len(parts) != 2:
                raise ValueError
            return cls(int(parts[0]), int(parts[1]))
        except ValueError:
            raise InputError(
                f"bad hex {text!r}: write it as 'q,r', e.g. '3,-1'", "input/bad_hex"
            ) from None

    def __str__(self) -> str:
        return f"{self.q},{self.r}"

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"

    @property
    def s(self) -> int:
        return -self.q - self.r

    def neighbours(self) -> "Iterator[Hex]":
        for dq, dr in DIRECTIONS:
            yield Hex(self.q + dq, self.r + dr)

    def distance(self, other: "Hex") -> int:
        """Number of hex steps between the two hexes."""
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def cheapest_costs(
    start: Hex,
    enter_cost: Callable[[Hex], int | None],
    budget: int,
) -> dict[Hex, int]:
    """Every hex reachable from ``start`` within ``budget`` and the least total cost to it.

    ``enter_cost(h)`` is the cost of entering ``h``, or None when ``h`` cannot be entered
    (off the map, blocked). The start hex costs 0. Dijkstra over positive costs.
    """
    best: dict[Hex, int] = {start: 0}
    frontier: list[tuple[int, Hex]] = [(0, start)]
    while frontier:
        cost, here = heappop(frontier)
        for nxt in here.neighbours():
            step = enter_cost(nxt)
            if step is None:
                continue
            total = cost + step
            if total <= budget and total < best.get(nxt, total + 1):
                best[nxt] = total
                heappush(frontier, (total, nxt))
    return best


def cheapest_path(
    start: Hex,
    goal: Hex,
    enter_cost: Callable[[Hex], int | None],
) -> tuple[int, list[Hex]] | None:
    """The least-cost path from ``start`` to ``goal`` (both included) and its cost, or None."""
    best: dict[Hex, int] = {start: 0}
    came: dict[Hex, Hex] = {}
    frontier: list[tuple[int, Hex]] = [(0, start)]
    while frontier:
        cost, here = heappop(frontier)
        if here == goal:
            path = [here]
            while path[-1] != start:
                path.append(came[path[-1]])
            return cost, path[::-1]
        for nxt in here.neighbours():
            step = enter_cost(nxt)
            if step is None:
                continue
            total = cost + step
            if total < best.get(nxt, total + 1):
                best[nxt] = total
                came[nxt] = here
                heappush(frontier, (total, nxt))
    return None


class HexGraph:
    """The hexes of one map as numbered nodes, with their neighbours and entry costs.

    Build it once per map (``enter_costs``: every hex on the map and the positive cost of
    entering it) and search it many times. Nodes are numbered in ``Hex`` order (by q, then r),
    so breaking cost ties by node number is breaking them by ``Hex`` as ``cheapest_costs`` and
    ``cheapest_path`` do: on the map's hexes both give the same costs, the same paths, and
    ``costs_from`` from one start even the same dict order.
    """

    __slots__ = ("entry", "hexes", "index", "names", "steps")

    def __init__(self, enter_costs: Mapping[Hex, int]) -> None:
        #: node -> its hex, and its text form ``"q,r"``
        self.hexes: tuple[Hex, ...] = tuple(sorted(enter_costs))
        self.names: tuple[str, ...] = tuple(str(h) for h in self.hexes)
        #: ``"q,r"`` -> node
        self.index: dict[str, int] = {name: node for node, name in enumerate(self.names)}
        node_of = {h: node for node, h in enumerate(self.hexes)}
        #: node -> the cost of entering it
        self.entry: tuple[int, ...] = tuple(enter_costs[h] for h in self.hexes)
        #: node -> ``(neighbour, cost of entering it)`` for its neighbours on the map, in
        #: ``DIRECTIONS`` order (the order ``Hex.neighbours`` gives)
        self.steps: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((node_of[n], enter_costs[n]) for n in h.neighbours() if n in node_of)
            for h in self.hexes
        )

    def costs_from(
        self, starts: Iterable[int], budget: int, blocked: Collection[int] = ()
    ) -> dict[int, int]:
        """Every node reachable from one of ``starts`` within ``budget``, entering no node of
        ``blocked``, and the least total cost to it from the nearest start (starts cost 0).

        From one start this is ``cheapest_costs``; from several it is, node by node, the least
        of their ``cheapest_costs`` (one Dijkstra seeded with every start).
        """
        best = dict.fromkeys(starts, 0)
        frontier = [(0, node) for node in sorted(best)]
        steps = self.steps
        while frontier:
            cost, here = heappop(frontier)
            for nxt, step in steps[here]:
                total = cost + step
                if total <= budget and total < best.get(nxt, total + 1) and nxt not in blocked:
                    best[nxt] = total
                    heappush(frontier, (total, nxt))
        return best

    def ends_within(
        self, reach: Mapping[int, int], ends: Iterable[int], budget: int
    ) -> Iterator[tuple[int, int]]:
        """``(end, cost)`` for each node of ``ends`` that a path may enter last within ``budget``,
        and the least cost of such a path, given ``reach``: what ``costs_from`` gave for the same
        starts and budget with every end blocked (and any other blocked nodes).

        An end is entered from a neighbour ``reach`` holds, so its cost is the least of theirs plus
        its own entry cost: the cost of ``path`` to it with only that end unblocked (a least-cost
        path never enters its goal twice), without a search per end. A start among ``ends``
        costs 0.
        """
        entry, steps = self.entry, self.steps
        for end in ends:
            if end in reach:
                yield end, reach[end]
                continue
            came = [reach[n] for n, _ in steps[end] if n in reach]
            if came and min(came) + entry[end] <= budget:
                yield end, min(came) + entry[end]

    def path(
        self, start: int, goal: int, blocked: Collection[int] = ()
    ) -> tuple[int, list[int]] | None:
        """The least-cost path from ``start`` to ``goal`` (both included, entering no node of
        ``blocked``) and its cost, or None: ``cheapest_path`` on nodes."""
        best = {start: 0}
        came: dict[int, int] = {}
        frontier = [(0, start)]
        steps = self.steps
        while frontier:
            cost, here = heappop(frontier)
            if here == goal:
                path = [here]
                while path[-1] != start:
                    path.append(came[path[-1]])
                return cost, path[::-1]
            for nxt, step in steps[here]:
                total = cost + step
                if total < best.get(nxt, total + 1) and nxt not in blocked:
                    best[nxt] = total
                    came[nxt] = here
                    heappush(frontier, (total, nxt))
        return None
