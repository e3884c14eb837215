"""The one fold of a stored game: the engine's meta and the ruleset's state, event by event.

Every reader of a log folds through ``Fold``: the application (play, seek, replay), the audit,
the Events view and the replay walk. Each event goes through ``domain.core.fold.evolve_event``
for the ruleset's state and ``evolve_meta`` for the engine's own read (players, dice in force,
the reveal).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from warlog.arbiter.initial import initial_state
from warlog.arbiter.meta import GameMeta, evolve_meta
from warlog.domain.core.errors import StoreError
from warlog.domain.core.events import CORE_TAGS, INERT_TAGS, Event, GameCreated
from warlog.domain.core.fold import evolve_event
from warlog.domain.core.ruleset import AnyRuleset

#: ``(seq, type, data, hash)``: the four columns of a stored event a fold reads
Row = tuple[int, str, str, str]


class Folded(msgspec.Struct):
    """A game folded up to ``seq``: the engine's meta and the ruleset's state."""

    seq: int
    hash: str
    meta: GameMeta
    state: Any


class Fold:
    """A fold in progress: ``apply`` one event at a time, or ``rows`` for a stretch of the log."""

    __slots__ = ("hash", "meta", "ruleset", "seq", "state")

    def __init__(self, ruleset: AnyRuleset, start: Folded | None = None) -> None:
        self.ruleset = ruleset
        self.seq = start.seq if start else 0
        self.hash = start.hash if start else ""
        self.meta: GameMeta | None = start.meta if start else None
        self.state: Any = start.state if start else None

    def apply(self, seq: int, type_: str, data: str, hash_: str, event: Event) -> None:
        """Fold the (clear) event at ``seq``; its row's ``type``, ``data`` (as stored: it keys
        the shared initial states) and ``hash``."""
        ruleset = self.ruleset
        if type_ in CORE_TAGS:
            self.meta = evolve_meta(self.meta, seq, event)
            if isinstance(event, GameCreated):
                self.state = evolve_event(ruleset, None, event, _initial(ruleset, data))
        else:
            self.state = evolve_event(ruleset, self.state, event)
        self.seq, self.hash = seq, hash_

    def rows(self, rows: Iterable[Row], decode: Callable[[int, str, str, str], Event]) -> Fold:
        """Fold stored rows in seq order (``decode(seq, type, data, hash)`` gives the clear
        event); commands and rolls change no state and are skipped unread (their consequences
        are the events after them)."""
        for seq, type_, data, hash_ in rows:
            if type_ in INERT_TAGS:
                self.seq, self.hash = seq, hash_
                continue
            self.apply(seq, type_, data, hash_, decode(seq, type_, data, hash_))
        return self

    @property
    def folded(self) -> Folded:
        """The result; StoreError if no ``game_created`` was folded."""
        if self.meta is None:
            raise StoreError("the game has no game_created event", "store/corrupt")
        return Folded(self.seq, self.hash, self.meta, self.state)


def _initial(ruleset: AnyRuleset, data: str) -> Callable[[GameCreated], Any]:
    return lambda event: initial_state(ruleset, data, event)
