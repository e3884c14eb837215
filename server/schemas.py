"""The bodies the server reads and writes (msgspec Structs: Litestar encodes them and describes
them in the OpenAPI document as they are)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from warlog.arbiter.ids import FILE_SUFFIX, GAME_ID
from warlog.eventstore.records import Record

#: checked by the arbiter (`input/bad_game_id`, the CLI's line), not by a pattern here, whose
#: failure would name a regex rather than the rule
GameId = Annotated[
    str,
    msgspec.Meta(
        description=f"1-64 letters, digits, '_', '.' or '-', starting with a letter or digit "
        f"(the pattern {GAME_ID.pattern}) and not ending in {FILE_SUFFIX}"
    ),
]


class NewGame(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``POST /games``: a bundled scenario by name (never a path on the server)."""

    ruleset: str
    scenario: str | None = None
    game: GameId | None = None
    dice: Literal["auto", "manual"] = "auto"
    salt: str = ""


class CreatedGame(msgspec.Struct, frozen=True):
    """The new game's id and one token per player (shown once: only their digests are kept)."""

    game: str
    tokens: dict[str, str]


class Head(msgspec.Struct, frozen=True):
    """The last event: a receipt (``seq`` and its chain ``hash``)."""

    seq: int
    hash: str


class GameSummary(msgspec.Struct, frozen=True):
    game: str
    ruleset: str
    version: str
    players: list[str]
    head: Head
    over: bool


class ExportedEvent(msgspec.Struct, frozen=True):
    """One event in the export format, as the caller may see it: ``data`` is its chained form
    byte for byte (sealed values ``{"sealed": H}``, the caller's own opened with ``value`` and
    ``salt``), so the caller can check every hash."""

    seq: int
    type: str
    at: str
    data: msgspec.Raw
    prev: str
    hash: str

    @classmethod
    def of(cls, record: Record) -> ExportedEvent:
        return cls(
            record.seq,
            record.type,
            record.at,
            msgspec.Raw(record.data.encode()),
            record.prev,
            record.hash,
        )


class Verdict(msgspec.Struct, frozen=True):
    """An accepted command: its batch as the caller may see it and the new head."""

    events: list[ExportedEvent]
    head: Head


class Legal(msgspec.Struct, frozen=True):
    commands: list[dict[str, Any]]


class Revealed(msgspec.Struct, frozen=True):
    seq: int


class Findings(msgspec.Struct, frozen=True):
    """What the audit found (empty when it found nothing; what it could not check is in
    `warlog audit`'s report)."""

    findings: list[dict[str, Any]]


class RulesetRow(msgspec.Struct, frozen=True):
    name: str
    version: str
    #: the earlier versions whose games it still plays on, newest first
    kept_versions: list[str]
    scenarios: list[str]


class EventsView(msgspec.Struct, frozen=True):
    """The in-game Events view: entries per empire (one tab each) at the current round."""

    round: int
    tabs: dict[str, list[dict[str, Any]]]
