"""What every store shares: fork lineage, the chain's numbering, and the contract's refusals.

A fork holds only its own events; its prefix is read through its parent. These functions do that
arithmetic and word the errors, so that every store numbers, refuses and explains alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from warlog.domain.core.errors import ConflictError, InputError, StoreError, UnknownGame, quoted
from warlog.eventstore.chain import link
from warlog.eventstore.records import GameInfo, Pending, Record

# A lineage segment: events ``lo``..``hi`` (inclusive; ``hi`` None means "to the head") are
# stored under game ``owner``.
Segment = tuple[str, int, int | None]


def lineage(
    game: str,
    info_of: Callable[[str], GameInfo],
    head_of: Callable[[str], tuple[int, str]] | None = None,
    where: str = "the database",
) -> list[Segment]:
    """The segments holding a game's events, oldest first; UnknownGame from ``info_of``.

    A fork of P at N reads 1..N through P (itself possibly a fork) and N+1.. from itself; a
    fork of a fork cut below its parent's own fork point skips the parent entirely.
    StoreError (``store/corrupt``) for a catalogue that does not hold together: parents in a
    circle, a parent missing, and (given ``head_of``, the last event each game stores) a fork
    point past its parent's last event or past the fork's own: a read would give the wrong
    events without a word.
    """
    segments: list[Segment] = []
    owner, hi = game, None
    seen = set()
    while owner not in seen:
        seen.add(owner)
        try:
            info = info_of(owner)
        except UnknownGame:
            if owner == game:
                raise
            raise StoreError(
                f"{where} is damaged: game {game}'s lineage names game {owner}, which is not in "
                "the catalogue",
                "store/corrupt",
            ) from None
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
    if head_of is not None and len(segments) > 1:  # a fork: its cuts checked once
        _check_cuts(game, segments, head_of, where)
    return segments


def _check_cuts(
    game: str, segments: list[Segment], head_of: Callable[[str], tuple[int, str]], where: str
) -> None:
    """StoreError unless each segment of ``game``'s lineage lies within its owner's events."""
    for owner, lo, hi in segments:
        try:
            last = head_of(owner)[0]
        except UnknownGame:  # its catalogue row left, its events gone
            last = 0
        if lo > last or (hi is not None and hi > last):
            holds = f"whose last event is {last}" if last else "which stores no events"
            raise StoreError(
                f"{where} is damaged: game {game}'s lineage reads events {lo}.."
                f"{hi or 'its head'} of game {owner}, {holds} (a fork_at of the catalogue is "
                "wrong)",
                "store/corrupt",
            )


def read_parts(segments: list[Segment], from_seq: int, hi: int) -> list[tuple[str, int, int]]:
    """``(owner, lo, hi)`` of each segment's stretch of events ``from_seq``..``hi``: the rows a
    read of that range fetches, one query per part."""
    parts = []
    for owner, lo, seg_hi in segments:
        a, b = max(lo, from_seq), hi if seg_hi is None else min(seg_hi, hi)
        if a <= b:
            parts.append((owner, a, b))
    return parts


def first_missing(seqs: Iterable[int], lo: int) -> int:
    """The first seq from ``lo`` on that ``seqs`` (a part's rows from ``lo``, in seq order)
    lacks: for a part whose count of rows came short of its range (the error path only)."""
    expected = lo
    for seq in seqs:
        if seq != expected:
            break
        expected += 1
    return expected


class MissingEvent(StoreError):
    """A read needs an event the database has no row for (a row deleted): ``store/corrupt``,
    told apart only by the audit, for which a gap is a finding."""


def missing_event(game: str, seq: int) -> MissingEvent:
    """The error of a read that needs event ``seq`` of ``game`` when the database has no row
    there (a row deleted): every read says it in this one line (``store/corrupt``, exit 1)."""
    return MissingEvent(
        f"game {game} has no event {seq} (the log has a gap): the database is damaged",
        "store/corrupt",
    )


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


def catalogue_row(row: Sequence[Any], where: str) -> GameInfo:
    """The catalogue row ``(game, ruleset, parent, fork_at)`` read from the database ``where``,
    its types checked (once per game: a store caches it). StoreError ``store/corrupt`` naming
    the game and the field when the row is none a store writes: every read of the game, and
    of its forks, walks its lineage through it."""
    game, ruleset, parent, fork_at = row
    if type(game) is not str or not game:
        wrong = f"a game id {game!r}"
    elif type(ruleset) is not str or not ruleset:
        wrong = f"ruleset {ruleset!r}"
    elif parent is not None and (type(parent) is not str or not parent):
        wrong = f"parent {parent!r}"
    elif fork_at is not None and (type(fork_at) is not int or fork_at < 1):
        wrong = f"fork_at {fork_at!r}, not an event's seq"
    elif parent is None and fork_at is not None:  # its events 1..fork_at would be nowhere
        wrong = f"fork_at {fork_at} and no parent"
    else:
        return GameInfo(game, ruleset, parent, fork_at)
    named = f"game {game}'s" if type(game) is str and game else "a game's"
    raise StoreError(f"{where} is damaged: {named} catalogue row holds {wrong}", "store/corrupt")


def head_row(row: Sequence[Any], game: str, where: str) -> tuple[int, str]:
    """``(seq, hash)`` of a game's last row as the database ``where`` holds it; StoreError
    ``store/corrupt`` when they are not a number and a text (SQLite keeps what it is given:
    a seq written as text sorts after every number, so it is the head)."""
    seq, hash_ = row
    if type(seq) is int and type(hash_) is str:
        return seq, hash_
    wrong = f"seq {seq!r:.40}, not a number" if type(seq) is not int else "a hash that is not text"
    raise StoreError(f"{where} is damaged: game {game}'s last event has {wrong}", "store/corrupt")


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


def not_text(game: str, seq: int, type_: object, column: str, value: object) -> StoreError:
    """The read path's error for event ``seq`` of ``game`` whose ``column`` the database holds
    as ``value``, something else than text (bytes: a BLOB written into the log)."""
    kind = "bytes (a BLOB)" if isinstance(value, bytes) else type(value).__name__
    where = f"game {game}, event {seq}" if game else f"event {seq}"
    return StoreError(
        f"{where} ({type_}): the database holds its {column} as {kind}, not text: the database "
        "is damaged",
        "store/corrupt",
    )


def bad_event(game: str, seq: int) -> InputError:
    return InputError(
        f"event {seq} for game {game}: type, data and at must be text; nothing appended",
        "input/bad_event",
    )
