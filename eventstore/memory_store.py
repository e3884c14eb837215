"""The in-memory log: the store contract in plain dicts and lists (fast tests, Hypothesis, demos).

It keeps the same semantics as the SQLite store, down to the error codes and messages: a fork
holds only its own events and reads its prefix through its parent, snapshots are keyed by the
game that owns the event they follow. Not thread-safe.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from itertools import islice
from operator import attrgetter

from warlog.eventstore.chain import GENESIS
from warlog.eventstore.lineage import (
    Segment,
    bad_from_seq,
    chain_records,
    check_fork_at,
    check_info,
    conflict,
    empty_batch,
    first_missing,
    game_exists,
    lineage,
    missing_event,
    owner_of,
    parent_head,
    read_parts,
    unknown_game,
)
from warlog.eventstore.records import GameInfo, Pending, Record


class MemoryStore:
    """A ``Store`` held in process memory; everything is lost when it is dropped."""

    def __init__(self) -> None:
        self._infos: dict[str, GameInfo] = {}
        self._events: dict[str, list[Record]] = {}  # own events only, seq fork_at+1 ..

    def __repr__(self) -> str:
        return f"MemoryStore(<{len(self._infos)} games>)"

    def copy(self) -> MemoryStore:
        """A store holding the same games, which the two go on appending to apart (records are
        immutable and shared; each game's list of them is copied)."""
        other = MemoryStore()
        other._infos = dict(self._infos)
        other._events = {game: list(records) for game, records in self._events.items()}
        return other

    # ------------------------------------------------------------------ the log

    def create_game(self, info: GameInfo, first: Sequence[Pending]) -> list[Record]:
        """Register ``info.game`` and append ``first`` after GENESIS or the fork point.

        ConflictError if the game exists; UnknownGame for an unknown parent; InputError for an
        empty ``first``, a bad event or a fork point outside the parent's 1..head.
        """
        check_info(info)
        if not first:
            raise empty_batch(info.game)
        if info.game in self._infos:
            raise game_exists(info.game)
        start, prev = 0, GENESIS
        if info.parent is not None:
            assert info.fork_at is not None  # check_info
            head = parent_head(info, self.head)
            check_fork_at(info, head)
            start, prev = info.fork_at, self._record(info.parent, info.fork_at).hash
        records = chain_records(info.game, first, start, prev)
        self._infos[info.game] = info
        self._events[info.game] = records
        return list(records)

    def append(self, game: str, batch: Sequence[Pending], expected_seq: int) -> list[Record]:
        """Append ``batch`` after ``expected_seq``; the new records.

        ConflictError (nothing appended) if the head is elsewhere; UnknownGame; InputError for an
        empty batch or a bad event.
        """
        if not batch:
            raise empty_batch(game)
        own = self._own(game)
        last = own[-1]
        if last.seq != expected_seq:
            raise conflict(game, last.seq, expected_seq)
        records = chain_records(game, batch, last.seq, last.hash)  # raises before anything is added
        own.extend(records)
        return records

    def read(self, game: str, from_seq: int = 1, to_seq: int | None = None) -> Iterator[Record]:
        """The records ``from_seq``..``to_seq`` (clamped to the head at the time of the call).

        UnknownGame and InputError (from_seq < 1) are raised here, not on first iteration.
        """
        return _stream([self._slice(*part) for part in self._plan(game, from_seq, to_seq)])

    def read_rows(
        self,
        game: str,
        from_seq: int = 1,
        to_seq: int | None = None,
        *,
        skip: frozenset[str] = frozenset(),
    ) -> Iterator[tuple[int, str, str, str]]:
        """``(seq, type, data, hash)`` of the records ``read`` yields, as plain tuples; those
        whose type is in ``skip`` left out, except the last. Leaving rows out, it first counts
        each part's records: StoreError (``store/corrupt``) naming the first event missing."""
        parts = self._plan(game, from_seq, to_seq)
        slices = [self._slice(*part) for part in parts]
        if skip:
            for (_, lo, hi), (records, start, stop) in zip(parts, slices, strict=True):
                if stop - start != hi - lo + 1:
                    seqs = (r.seq for r in islice(records, start, stop))
                    raise missing_event(game, first_missing(seqs, lo))
        last = parts[-1][2] if parts else 0
        return (
            (r.seq, r.type, r.data, r.hash)
            for r in _stream(slices)
            if r.type not in skip or r.seq == last
        )

    def head(self, game: str) -> tuple[int, str]:
        """``(seq, hash)`` of the game's last event. UnknownGame."""
        last = self._own(game)[-1]
        return last.seq, last.hash

    def info(self, game: str) -> GameInfo:
        """The catalogue row. UnknownGame."""
        try:
            return self._infos[game]
        except KeyError:
            raise unknown_game(game) from None

    def games(self) -> list[GameInfo]:
        """Every game, sorted by id, with its lineage (parent, fork_at)."""
        return [self._infos[g] for g in sorted(self._infos)]

    def first_rows(self) -> dict[str, tuple[int, str, str]]:
        """``game -> (seq, type, data)`` of the first event each game stores itself."""
        return {game: (own[0].seq, own[0].type, own[0].data) for game, own in self._events.items()}

    def lineage(self, game: str) -> list[Segment]:
        """The segments holding the game's events, oldest first (``lineage.lineage``)."""
        return self._segments(game)

    # ------------------------------------------------------------------ inside

    def _own(self, game: str) -> list[Record]:
        try:
            return self._events[game]
        except KeyError:
            raise unknown_game(game) from None

    def _plan(self, game: str, from_seq: int, to_seq: int | None) -> list[tuple[str, int, int]]:
        """``(owner, lo, hi)`` for each lineage segment the read covers (clamped to the head
        of now); UnknownGame, InputError (from_seq < 1)."""
        if from_seq < 1:
            raise bad_from_seq(game, from_seq)
        segments = self._segments(game)
        head = self._own(game)[-1].seq
        return read_parts(segments, from_seq, head if to_seq is None else min(to_seq, head))

    def _slice(self, owner: str, lo: int, hi: int) -> tuple[list[Record], int, int]:
        """``owner``'s own records and the stretch of them holding seqs ``lo``..``hi``, found by
        seq (a record taken out of the list by hand leaves a gap, not a shift)."""
        own = self._events[owner]
        return own, bisect_left(own, lo, key=_seq), bisect_right(own, hi, key=_seq)

    def _record(self, game: str, seq: int) -> Record:
        owner = owner_of(self._segments(game), seq)
        own = self._events[owner]
        return own[seq - own[0].seq]

    def _segments(self, game: str) -> list[Segment]:
        return lineage(game, self.info)


_seq = attrgetter("seq")


def _stream(parts: list[tuple[list[Record], int, int]]) -> Iterator[Record]:
    for records, start, stop in parts:
        yield from islice(records, start, stop)
