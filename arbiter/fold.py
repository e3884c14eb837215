"""The one fold of a stored game: the engine's meta and the ruleset's state, event by event.

Every reader of a log folds through ``Fold``: the application (play, seek, replay), the audit,
the Events view and the replay walk. Each event takes the steps of
``domain.core.fold.evolve_event`` for the ruleset's state (inlined: it is the hot loop of every
replay) and ``evolve_meta`` for the engine's own read (players, dice in force, the reveal).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import Any

import msgspec

from warlog.arbiter.initial import initial_state
from warlog.arbiter.meta import GameMeta, evolve_meta
from warlog.domain.core.errors import StoreError, WarlogError
from warlog.domain.core.events import CORE_TAGS, INERT_TAGS, Event, GameCreated
from warlog.domain.core.ruleset import AnyRuleset
from warlog.eventstore.records import Record

#: ``(seq, type, data, hash)``: the four columns of a stored event a fold reads
Row = tuple[int, str, str, str]
#: stored rows -> their clear events, in order (the sealed ones opened in one vault lookup)
RowDecoder = Callable[[Sequence[Row]], list[Event]]
#: rows decoded at a time: one vault lookup opens the sealed ones among them
CHUNK = 256


def unread(ruleset: AnyRuleset) -> frozenset[str]:
    """The tags of the events a replay of ``ruleset``'s games skips unread: they change no
    state (the core's commands and rolls, the ruleset's ``inert_events``)."""
    return INERT_TAGS | ruleset.inert_events


class Folded(msgspec.Struct):
    """A game folded up to ``seq``: the engine's meta and the ruleset's state; ``initial``, when
    known, the state ``game_created`` began it with (snapshots leave out what is still that)."""

    seq: int
    hash: str
    meta: GameMeta
    state: Any
    initial: Any = None


class Fold:
    """A fold in progress: ``apply`` one event at a time, or ``rows`` for a stretch of the log."""

    __slots__ = ("hash", "initial", "meta", "ruleset", "seq", "state")

    def __init__(self, ruleset: AnyRuleset, start: Folded | None = None) -> None:
        self.ruleset = ruleset
        self.seq = start.seq if start else 0
        self.hash = start.hash if start else ""
        self.meta: GameMeta | None = start.meta if start else None
        self.state: Any = start.state if start else None
        self.initial: Any = start.initial if start else None

    def apply(self, seq: int, type_: str, data: str, hash_: str, event: Event) -> None:
        """Fold the (clear) event at ``seq``; its row's ``type``, ``data`` (as stored: it keys
        the shared initial states) and ``hash``."""
        if type_ in CORE_TAGS:
            self.meta = evolve_meta(self.meta, seq, event)
            if isinstance(event, GameCreated):
                self.state = self.initial = initial_state(self.ruleset, data, event)
        elif self.state is not None:
            self.state = self.ruleset.evolve(self.state, event)
        self.seq, self.hash = seq, hash_

    def rows(self, rows: Iterable[Row], decode: RowDecoder) -> Fold:
        """Fold stored rows in seq order (``decode`` gives their clear events); the rows that
        change no state are skipped unread: commands and rolls (their consequences are the
        events after them) and the ruleset's inert events (``unread``; a store's
        ``read_rows(..., skip=unread(ruleset))`` leaves them out but the last)."""
        skip = unread(self.ruleset)
        evolve = self.ruleset.evolve
        it = iter(rows)
        while chunk := list(islice(it, CHUNK)):
            folded = [row for row in chunk if row[1] not in skip]
            state = self.state
            seq = folded[0][0] if folded else chunk[0][0]
            try:
                for (seq, type_, data, hash_), event in zip(folded, decode(folded), strict=True):
                    if type_ in CORE_TAGS:
                        self.state = state
                        self.apply(seq, type_, data, hash_, event)
                        state = self.state
                    elif state is not None:
                        state = evolve(state, event)
            except WarlogError:
                raise
            except Exception as exc:  # a damaged clear form, not a traceback (audit tells which)
                raise unfoldable(seq, exc) from exc
            self.state = state
            self.seq, self.hash = chunk[-1][0], chunk[-1][3]
        return self

    @property
    def folded(self) -> Folded:
        """The result; StoreError if no ``game_created`` was folded."""
        if self.meta is None:
            raise StoreError("the game has no game_created event", "store/corrupt")
        return Folded(self.seq, self.hash, self.meta, self.state, self.initial)


def unfoldable(seq: int, exc: Exception) -> StoreError:
    """Why event ``seq`` cannot be folded: its stored form (the log's data, or the key file's
    clear form of a sealed event) is damaged, or warlog has a bug; ``warlog audit`` tells which.
    The exception's text stays out: it may quote a value sealed from whoever reads the error
    (a server's player); its type says enough to start."""
    return StoreError(
        f"event {seq} does not fold into the game's state ({type(exc).__name__}): its stored "
        "form, or the key file's clear form of it, is damaged, or warlog has a bug (warlog "
        "audit GAME tells which)",
        "store/corrupt",
    )


def decoded(records: Iterable[Record], decode: RowDecoder) -> Iterator[tuple[Record, Event]]:
    """Each record with its clear event, decoded ``CHUNK`` records at a time."""
    it = iter(records)
    while chunk := list(islice(it, CHUNK)):
        yield from zip(chunk, decode([(r.seq, r.type, r.data, r.hash) for r in chunk]), strict=True)
