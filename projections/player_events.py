"""A player's events: the log as one player may see it.

Each event goes through the ruleset's ``visible_event`` (the engine's own events too: a
``command_issued`` or ``dice_rolled`` may carry what the other side must not see); an event
the player may not see at all is left out, a redacted one is re-encoded in its redacted form.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from warlog.domain.core.ruleset import AnyRuleset
from warlog.eventstore.codec import Codec
from warlog.eventstore.records import Record


def as_seen_by(
    ruleset: AnyRuleset, codec: Codec, records: Iterable[Record], player: str
) -> Iterator[Record]:
    """``records`` as ``player`` may see them (the caller has checked the player is known)."""
    for record in records:
        event = codec.decode(record.type, record.data)
        shown = ruleset.visible_event(event, player)
        if shown is None:
            continue
        if shown is not event:
            _, data = codec.encode(shown)
            record = Record(record.seq, record.type, data, record.at, record.prev, record.hash)
        yield record
