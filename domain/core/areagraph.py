"""Area-map geometry: named areas, their adjacency, river edges, reachability and paths.

Engine-neutral: an area game (Battle for Armageddon, or any point-to-point map) builds one
``AreaGraph`` from its scenario and asks it which areas a piece may reach, along which path, and
whether a line (of supply, of retreat) can be traced. What may be entered is the caller's rule,
handed in as a predicate; the graph only knows the shape of the map.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping

AreaTest = Callable[[str], bool]


def _always(_: str) -> bool:
    return True


def _never(_: str) -> bool:
    return False


def edge(a: str, b: str) -> frozenset[str]:
    """The undirected edge between two areas (the key of river and border sets)."""
    return frozenset((a, b))


class AreaGraph:
    """An undirected graph of areas; some edges are rivers.

    ``adjacency`` maps each area to its neighbours (listed on one side or both: the graph is made
    symmetric); ``rivers`` are pairs of adjacent areas separated by a river.
    """

    def __init__(
        self,
        adjacency: Mapping[str, Iterable[str]],
        rivers: Iterable[tuple[str, str]] = (),
    ) -> None:
        self._declared: dict[str, tuple[str, ...]] = {a: tuple(ns) for a, ns in adjacency.items()}
        links: dict[str, set[str]] = {a: set() for a in self._declared}
        for area, neighbours in self._declared.items():
            for other in neighbours:
                if other in links and other != area:
                    links[area].add(other)
                    links[other].add(area)
        self._order = {a: i for i, a in enumerate(self._declared)}
        self._links: dict[str, tuple[str, ...]] = {
            a: tuple(sorted(ns, key=self._order.__getitem__)) for a, ns in links.items()
        }
        self._rivers: frozenset[frozenset[str]] = frozenset(edge(a, b) for a, b in rivers)

    @property
    def areas(self) -> tuple[str, ...]:
        """Every area, in the order they were declared."""
        return tuple(self._declared)

    def __contains__(self, area: object) -> bool:
        return area in self._links

    def neighbours(self, area: str) -> tuple[str, ...]:
        """The areas adjacent to ``area`` (declaration order); KeyError for an unknown area."""
        return self._links[area]

    def adjacent(self, a: str, b: str) -> bool:
        return a in self._links and b in self._links[a]

    def river_between(self, a: str, b: str) -> bool:
        """True when ``a`` and ``b`` are adjacent across a river."""
        return edge(a, b) in self._rivers and self.adjacent(a, b)

    def problems(self) -> list[str]:
        """What is wrong with the map as declared: unknown or self neighbours, one-sided links,
        rivers that are not edges. Empty when the map is sound."""
        out: list[str] = []
        for area, neighbours in self._declared.items():
            for other in neighbours:
                if other == area:
                    out.append(f"{area!r} lists itself as adjacent")
                elif other not in self._declared:
                    out.append(f"{area!r} lists unknown area {other!r} as adjacent")
                elif area not in self._declared[other]:
                    out.append(f"{area!r} lists {other!r} as adjacent but not the other way round")
        for river in sorted(self._rivers, key=sorted):
            ends = sorted(river)
            a, b = ends[0], ends[-1]
            if not self.adjacent(a, b):
                out.append(f"river between {a!r} and {b!r} is not an edge of the map")
        return out

    def reachable(
        self,
        start: str,
        budget: int,
        can_enter: AreaTest = _always,
        stops: AreaTest = _never,
    ) -> dict[str, int]:
        """Every area reachable from ``start`` in at most ``budget`` steps, with its least steps.

        ``can_enter(a)`` says whether ``a`` may be entered at all; entering an area where
        ``stops(a)`` holds ends the move there (it is reached, but nothing beyond it through it).
        The start costs 0 and is always included.
        """
        best = {start: 0}
        frontier: deque[str] = deque([start])
        while frontier:
            here = frontier.popleft()
            steps = best[here]
            if steps >= budget or (here != start and stops(here)):
                continue
            for nxt in self._links[here]:
                if nxt not in best and can_enter(nxt):
                    best[nxt] = steps + 1
                    frontier.append(nxt)
        return best

    def paths(
        self, start: str, budget: int, can_enter: AreaTest = _always, stops: AreaTest = _never
    ) -> dict[str, list[str]]:
        """A shortest path (both ends included) to every area ``reachable`` from ``start`` but
        ``start`` itself: for each, the path ``path`` finds to it alone, in one search."""
        came: dict[str, str] = {start: start}
        steps = {start: 0}
        frontier: deque[str] = deque([start])
        while frontier:
            here = frontier.popleft()
            if steps[here] >= budget or (here != start and stops(here)):
                continue
            for nxt in self._links[here]:
                if nxt not in came and can_enter(nxt):
                    came[nxt] = here
                    steps[nxt] = steps[here] + 1
                    frontier.append(nxt)
        out: dict[str, list[str]] = {}
        for goal in came:
            if goal == start:
                continue
            path = [goal]
            while path[-1] != start:
                path.append(came[path[-1]])
            out[goal] = path[::-1]
        return out

    def path(
        self,
        start: str,
        goal: str | Iterable[str],
        can_enter: AreaTest = _always,
        stops: AreaTest = _never,
        budget: int | None = None,
    ) -> list[str] | None:
        """A shortest path from ``start`` to ``goal`` (or to the nearest of several goals), both
        ends included, under the same rules as ``reachable``; None when there is none.

        Ties are broken by declaration order, so the answer is deterministic.
        """
        goals = {goal} if isinstance(goal, str) else set(goal)
        if start in goals:
            return [start]
        came: dict[str, str] = {start: start}
        steps = {start: 0}
        frontier: deque[str] = deque([start])
        while frontier:
            here = frontier.popleft()
            if budget is not None and steps[here] >= budget:
                continue
            if here != start and stops(here):
                continue
            for nxt in self._links[here]:
                if nxt in came or not can_enter(nxt):
                    continue
                came[nxt] = here
                steps[nxt] = steps[here] + 1
                if nxt in goals:
                    out = [nxt]
                    while out[-1] != start:
                        out.append(came[out[-1]])
                    return out[::-1]
                frontier.append(nxt)
        return None

    def distances(self, start: str, can_enter: AreaTest = _always) -> dict[str, int]:
        """Least steps from ``start`` to every area reachable through enterable areas."""
        return self.reachable(start, len(self._links), can_enter)

    def components(self, can_enter: AreaTest = _always) -> list[list[str]]:
        """The connected groups of enterable areas (each in declaration order)."""
        seen: set[str] = set()
        out: list[list[str]] = []
        for area in self._declared:
            if area in seen or not can_enter(area):
                continue
            group = self.distances(area, can_enter)
            seen.update(group)
            out.append(sorted(group, key=self._order.__getitem__))
        return out
