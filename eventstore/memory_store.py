"""The in-memory log: the store contract in plain dicts and lists (fast tests, Hypothesis, demos).

It keeps the same semantics as the SQLite store, down to the error codes and messages: a fork
holds only its own events and reads its prefix through its parent, snapshots are keyed by the
game that owns the event they follow. Not thread-safe.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import islice

from domain.core.errors import ConflictError, InputError, StoreError, UnknownGame
from eventstore.chain import GENESIS, link
from eventstore.records import GameInfo, Pending, Record

# A lineage segment: events ``lo``..``hi`` (inclusive; ``hi`` None means "to the head") are
# stored under game ``owner``.
Segment = tuple[str, int, int | None]


class MemoryStore:
    """A ``Store`` held in process memory; everything is lost when it is dropped."""

    def __init__(self) -> None:
        self._infos: dict[str, GameInfo] = {}
        self._events: dict[str, list[Record]] = {}  # own events only, seq fork_at+1 ..
        self._snapshots: dict[tuple[str, str], dict[int, bytes]] = {}  # (owner, version) -> seq
        self._secrets: dict[str, bytes] = {}

    def __repr__(self) -> str:
        return f"MemoryStore(<{len(self._infos)} games>)"

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
        if from_seq < 1:
            raise bad_from_seq(game, from_seq)
        plan = self._segments(game)
        head = self._own(game)[-1].seq
        hi = head if to_seq is None else min(to_seq, head)
        parts = []
        for owner, lo, seg_hi in plan:
            a, b = max(lo, from_seq), hi if seg_hi is None else min(seg_hi, hi)
            if a <= b:
                offset = lo  # own list index 0 holds seq ``lo``
                parts.append((self._events[owner], a - offset, b - offset + 1))
        return _stream(parts)

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

    # ------------------------------------------------------------------ caches

    def put_snapshot(self, game: str, seq: int, version: str, state: bytes) -> None:
        """Store (or overwrite) the ``version`` snapshot after event ``seq``.

        Kept under the game that owns event ``seq``, so a fork's snapshot of the shared prefix
        serves the parent and its other forks. UnknownGame; InputError if ``seq`` is not 1..head.
        """
        head = self.head(game)[0]
        check_snapshot_seq(game, seq, head)
        owner = owner_of(self._segments(game), seq)
        self._snapshots.setdefault((owner, version), {})[seq] = bytes(state)

    def latest_snapshot(self, game: str, seq: int, version: str) -> tuple[int, bytes] | None:
        """``(seq, state)`` of the newest ``version`` snapshot at or before ``seq`` on the
        game's lineage, or None. UnknownGame."""
        for owner, lo, hi in reversed(self._segments(game)):
            top = seq if hi is None else min(seq, hi)
            if top < lo:
                continue
            found = self._snapshots.get((owner, version), {})
            best = max((s for s in found if lo <= s <= top), default=None)
            if best is not None:
                return best, found[best]
        return None

    def put_secret(self, game: str, seed: bytes) -> None:
        """Keep the game's dice seed. UnknownGame; ConflictError if a different seed is held."""
        self.info(game)
        held = self._secrets.get(game)
        if held is not None and held != seed:
            raise secret_exists(game)
        self._secrets[game] = bytes(seed)

    def secret(self, game: str) -> bytes | None:
        """The game's dice seed, or None if this store holds none. UnknownGame."""
        self.info(game)
        return self._secrets.get(game)

    # ------------------------------------------------------------------ inside

    def _own(self, game: str) -> list[Record]:
        try:
            return self._events[game]
        except KeyError:
            raise unknown_game(game) from None

    def _record(self, game: str, seq: int) -> Record:
        owner = owner_of(self._segments(game), seq)
        own = self._events[owner]
        return own[seq - own[0].seq]

    def _segments(self, game: str) -> list[Segment]:
        return lineage(game, self.info)


def _stream(parts: list[tuple[list[Record], int, int]]) -> Iterator[Record]:
    for records, start, stop in parts:
        yield from islice(records, start, stop)


# ---------------------------------------------------------------------- shared with every store
# The contract's arithmetic and wording, so that all stores number, refuse and explain alike.


def lineage(game: str, info_of: Callable[[str], GameInfo]) -> list[Segment]:
    """The segments holding a game's events, oldest first; UnknownGame from ``info_of``.

    A fork of P at N reads 1..N through P (itself possibly a fork) and N+1.. from itself; a
    fork of a fork cut below its parent's own fork point skips the parent entirely.
    """
    segments: list[Segment] = []
    owner, hi = game, None
    seen = set()
    while owner not in seen:
        seen.add(owner)
        info = info_of(owner)
        lo = (info.fork_at or 0) + 1
        if hi is None or hi >= lo:
            segments.append((owner, lo, hi))
        if info.parent is None or info.fork_at is None:
            break
        hi = info.fork_at if hi is None else min(hi, info.fork_at)
        owner = info.parent
    else:
        raise StoreError(f"game {game}'s lineage runs in a circle through {owner}", "store/corrupt")
    segments.reverse()
    return segments


def owner_of(segments: list[Segment], seq: int) -> str:
    """The game that stores event ``seq`` (which the caller has checked is 1..head)."""
    for owner, lo, hi in segments:
        if lo <= seq and (hi is None or seq <= hi):
            return owner
    raise AssertionError(f"seq {seq} is on no segment")  # callers check 1..head first


def chain_records(game: str, batch: Sequence[Pending], seq: int, prev: str) -> list[Record]:
    """Number and link ``batch`` after event ``seq`` whose hash is ``prev``.

    InputError (before anything is stored) if an event's type, data or at is not text.
    """
    records = []
    for pending in batch:
        seq += 1
        type_, data, at = pending.type, pending.data, pending.at
        if type(type_) is not str or type(data) is not str or type(at) is not str:
            raise bad_event(game, seq)
        hash_ = link(prev, seq, type_, at, data)
        records.append(Record(seq, type_, data, at, prev, hash_))
        prev = hash_
    return records


def check_info(info: GameInfo) -> None:
    if not isinstance(info.game, str) or not info.game:
        raise InputError("a game needs a non-empty id", "input/bad_game_id")
    if not isinstance(info.ruleset, str) or not info.ruleset:
        raise InputError(f"game {info.game} needs a ruleset name", "input/bad_ruleset")
    if (info.parent is None) != (info.fork_at is None):
        raise InputError(
            f"game {info.game}: a fork needs both parent and fork_at (got parent={info.parent!r}, "
            f"fork_at={info.fork_at!r})",
            "input/bad_fork",
        )


def parent_head(info: GameInfo, head_of: Callable[[str], tuple[int, str]]) -> int:
    """The head seq of the game ``info`` forks; UnknownGame naming the parent."""
    assert info.parent is not None
    try:
        return head_of(info.parent)[0]
    except UnknownGame:
        raise UnknownGame(f"cannot fork unknown game {info.parent!r}") from None


def check_fork_at(info: GameInfo, parent_head: int) -> None:
    assert info.fork_at is not None
    if not 1 <= info.fork_at <= parent_head:
        raise InputError(
            f"cannot fork game {info.parent} at {info.fork_at}: it has events 1..{parent_head}",
            "input/bad_fork_at",
        )


def check_snapshot_seq(game: str, seq: int, head: int) -> None:
    if not 1 <= seq <= head:
        raise InputError(
            f"no snapshot of game {game} at seq {seq}: it has events 1..{head}", "input/bad_seq"
        )


def empty_batch(game: str) -> InputError:
    return InputError(f"nothing to append to game {game}: the batch is empty", "input/empty_batch")


def game_exists(game: str) -> ConflictError:
    return ConflictError(f"game {game} already exists", "store/game_exists")


def bad_from_seq(game: str, from_seq: int) -> InputError:
    return InputError(f"events of game {game} start at seq 1, not {from_seq}", "input/bad_seq")


def conflict(game: str, head: int, expected: int) -> ConflictError:
    return ConflictError(
        f"game {game} has moved on: head is {head}, expected {expected}; nothing appended, retry"
    )


def unknown_game(game: str) -> UnknownGame:
    return UnknownGame(f"unknown game {game!r}")


def secret_exists(game: str) -> ConflictError:
    return ConflictError(
        f"game {game} already has a different dice seed; a seed is never replaced",
        "store/secret_exists",
    )


def bad_event(game: str, seq: int) -> InputError:
    return InputError(
        f"event {seq} for game {game}: type, data and at must be text; nothing appended",
        "input/bad_event",
    )
