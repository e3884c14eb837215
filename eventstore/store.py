"""The store contract: what every log backend (SQLite, in-memory, PostgreSQL) provides.

The store knows rows, never rules. It numbers events, links the hash chain, enforces the
``(game, seq)`` optimistic-concurrency check and shares a parent's prefix with its forks. It holds
nothing secret: keys, the clear values of sealed events and snapshots are in the vault
(``vault.py``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from typing import Protocol, Self

from warlog.eventstore.lineage import Segment
from warlog.eventstore.records import GameInfo, Pending, Record


class Closing(ABC):
    """``with store: …`` closes the store at the end (a backend that holds a connection)."""

    @abstractmethod
    def close(self) -> None:
        """Release the backend's connection."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Store(Protocol):
    def create_game(self, info: GameInfo, first: Sequence[Pending]) -> list[Record]:
        """Register a new game and append its first batch (seq 1..). ConflictError if it exists.

        For a fork (``info.parent`` set) the parent's events 1..``info.fork_at`` become the fork's
        prefix without copying, and ``first`` continues the chain from the parent's hash at
        ``fork_at``. UnknownGame if the parent is unknown, InputError if fork_at is past its head.
        """
        ...

    def append(self, game: str, batch: Sequence[Pending], expected_seq: int) -> list[Record]:
        """Append one batch atomically after ``expected_seq`` (the head the caller decided on).

        ConflictError (nothing appended) if the head has moved; UnknownGame if no such game.
        """
        ...

    def read(self, game: str, from_seq: int = 1, to_seq: int | None = None) -> Iterator[Record]:
        """The game's records from ``from_seq`` to ``to_seq`` inclusive (to the head if None),
        in seq order, following the fork lineage."""
        ...

    def read_rows(
        self,
        game: str,
        from_seq: int = 1,
        to_seq: int | None = None,
        *,
        skip: frozenset[str] = frozenset(),
    ) -> Iterator[tuple[int, str, str, str]]:
        """``(seq, type, data, hash)`` of the same records as ``read``: what a fold needs,
        without building Records (replay and seek go through here). Rows whose type is in
        ``skip`` are left out, except the last row of the range, on which a fold ends; such a
        read first counts the rows of each lineage segment it covers, and a row missing from
        the database (deleted: unseen among the rows left out) is a StoreError
        (``store/corrupt``, ``lineage.missing_event``) naming the first one, for ``game``. A
        read that leaves nothing out yields what is there: its reader sees every seq."""
        ...

    def head(self, game: str) -> tuple[int, str]:
        """``(seq, hash)`` of the last event. UnknownGame if no such game."""
        ...

    def info(self, game: str) -> GameInfo:
        """The game's catalogue row. UnknownGame if no such game."""
        ...

    def games(self) -> list[GameInfo]: ...

    def first_rows(self) -> dict[str, tuple[int, str, str]]:
        """``game -> (seq, type, data)`` of the first event each game stores itself: its event
        1, or a fork's first after its cut. One read for the whole catalogue (the keys each
        game brings are found there without reading its log); a game with no such row is left
        out."""
        ...

    def lineage(self, game: str) -> list[Segment]:
        """The segments ``(owner, lo, hi)`` holding the game's events, oldest first. UnknownGame."""
        ...
