"""What every store shares: fork lineage, the chain's numbering, and the contract's refusals.

A fork holds only its own events; its prefix is read through its parent. These functions do that
arithmetic and word the errors, so that every store numbers, refuses and explains alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from warlog.domain.core.errors import ConflictError, InputError, StoreError, UnknownGame, quoted
from warlog.eventstore.chain import link
from warlog.eventstore.records import GameInfo, Pending, Record

# A lineage segment: events ``lo``..``hi`` (inclusive; ``hi`` None means "to the head") are
# stored under game ``owner``.
Segment = tuple[str, int, int | None]


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


def read_parts(segments: list[Segment], from_seq: int, hi: int) -> list[tuple[str, int, int]]:
    """``(owner, lo, hi)`` of each segment's stretch of events ``from_seq``..``hi``: the rows a
    read of that range fetches, one query per part."""
    parts = []
    for owner, lo, seg_hi in segments:
        a, b = max(lo, from_seq), hi if seg_hi is None else min(seg_hi, hi)
        if a <= b:
            parts.append((owner, a, b))
    return parts


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
    return UnknownGame(f"unknown game {quoted(game)}")


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
