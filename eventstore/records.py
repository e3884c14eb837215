"""Rows of the log as the store sees them: no rules, only text."""

import msgspec


class Record(msgspec.Struct, frozen=True):
    """One stored event (contract row): ``data`` is the compact JSON text that the hash covers."""

    seq: int
    type: str
    data: str
    at: str
    prev: str
    hash: str


class Pending(msgspec.Struct, frozen=True):
    """An event about to be appended: the store assigns ``seq``, ``prev`` and ``hash``."""

    type: str
    data: str
    at: str


class GameInfo(msgspec.Struct, frozen=True):
    """A game's row in the catalogue. A fork's events 1..fork_at are its parent's."""

    game: str
    ruleset: str
    parent: str | None = None
    fork_at: int | None = None
