"""Hex geometry: axial coordinates with a text form, distance, neighbours, cheapest paths."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator

import msgspec

from domain.core.errors import InputError

# Axial directions, clockwise from east (q, r).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class Hex(msgspec.Struct, frozen=True, order=True, array_like=True):
    """An axial hex coordinate. ``str(Hex(3, -1)) == "3,-1"`` and ``Hex.parse("3,-1")`` undoes it."""

    q: int
    r: int

    @classmethod
    def parse(cls, text: str) -> Hex:
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

    def neighbours(self) -> Iterator[Hex]:
        for dq, dr in DIRECTIONS:
            yield Hex(self.q + dq, self.r + dr)

    def distance(self, other: Hex) -> int:
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


def within(center: Hex, radius: int, hexes: Iterable[Hex]) -> list[Hex]:
    """The hexes of ``hexes`` at most ``radius`` steps from ``center``."""
    return [h for h in hexes if center.distance(h) <= radius]
