"""The in-game Events view (R9): per-empire entries that expire after their duration in rounds.

An entry posted in round t with duration d is shown in rounds t .. t+d-1 and is gone when round
t+d begins. The log keeps everything; ``--all`` shows expired entries too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from warlog.domain.core.errors import StoreError
from warlog.domain.core.events import CORE_TAGS, Event, GameCreated
from warlog.domain.core.fold import evolve_event
from warlog.domain.core.ruleset import AnyRuleset


class Entry(msgspec.Struct, frozen=True):
    """One Events-view entry, with the event that posted it."""

    seq: int
    empire: str
    round: int
    duration: int
    text: str

    @property
    def last_round(self) -> int:
        return self.round + self.duration - 1

    def in_force(self, round_: int) -> bool:
        return self.round <= round_ <= self.last_round


class EventsView:
    """Folds records into entries; ``position`` is the last seq folded (feed more to catch up)."""

    def __init__(self, ruleset: AnyRuleset) -> None:
        self._ruleset = ruleset
        self._state: Any = None
        self.entries: list[Entry] = []
        self.position = 0
        self.players: list[str] = []

    @classmethod
    def after(cls, ruleset: AnyRuleset, state: Any, players: list[str]) -> EventsView:
        """An Events view of the events that follow ``state`` (whatever the events before it
        posted is not in it): what a stretch of a game adds to each tab."""
        view = cls(ruleset)
        view._state, view.players = state, list(players)
        return view

    def feed(self, events: Iterable[tuple[int, Event]]) -> EventsView:
        """Fold ``(seq, event)`` pairs (clear events, in seq order) into the entries."""
        ruleset = self._ruleset
        for seq, event in events:
            self.position = seq
            before = self._state
            self._state = evolve_event(ruleset, before, event)
            if isinstance(event, GameCreated):
                self.players = list(event.players)
            if event.type_name() in CORE_TAGS:
                continue
            if self._state is None:  # a ruleset event before any game_created: a damaged log
                raise StoreError(
                    f"event {seq} ({event.type_name()}) comes before the log's game_created: "
                    "the log is damaged; `warlog audit` lists what is wrong",
                    "store/corrupt",
                )
            round_ = ruleset.round_of(self._state)
            for notice in ruleset.notices(before, self._state, event):
                self.entries.append(
                    Entry(seq, notice.empire, round_, max(1, notice.duration), notice.text)
                )
        return self

    @property
    def round(self) -> int:
        return int(self._ruleset.round_of(self._state)) if self._state is not None else 0

    def tabs(self, empire: str | None = None, show_all: bool = False) -> dict[str, list[Entry]]:
        """Entries per empire (one tab each), those in force at the current round unless ``show_all``."""
        now = self.round
        empires = [empire] if empire else self.players
        return {
            e: [x for x in self.entries if x.empire == e and (show_all or x.in_force(now))]
            for e in empires
        }
