"""``explain``: the command and dice behind an event, and the rule with its arithmetic."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from warlog.domain.core.errors import InputError
from warlog.domain.core.events import BATCH_STARTS, CommandIssued, DiceRolled

if TYPE_CHECKING:
    from warlog.arbiter.application import Arbiter


def explain_event(arb: Arbiter, game: str, seq: int) -> dict[str, Any]:
    """A report on event ``seq``: its batch, the command that caused it, the dice, the rule."""
    loaded = arb.loaded(game)
    head, _ = arb.head(game)
    if not 1 <= seq <= head:
        raise InputError(
            f"game {game} has events 1..{head}; there is no event {seq}", "input/bad_seq"
        )
    window = list(arb.records(game, max(1, seq - 4096), min(head, seq + 4096)))
    index = next(i for i, r in enumerate(window) if r.seq == seq)
    start = index
    while start > 0 and window[start].type not in BATCH_STARTS:
        start -= 1
    end = index
    while end + 1 < len(window) and window[end + 1].type not in BATCH_STARTS:
        end += 1
    batch = window[start : end + 1]
    events = [loaded.codec.decode(r.type, r.data) for r in batch]
    target = events[index - start]
    command = None
    if isinstance(events[0], CommandIssued):
        command = {"seq": batch[0].seq, "player": events[0].player, "command": events[0].command}
    dice = [
        {
            "seq": r.seq,
            "sides": e.sides,
            "faces": list(e.faces),
            "purpose": e.purpose,
            "roller": e.roller,
        }
        for r, e in zip(batch, events, strict=True)
        if isinstance(e, DiceRolled)
    ]
    meta = arb.folded(game, seq).meta
    if meta.dice.mode == "manual":
        source = "manual: faces entered by the referee in the command's 'dice' list"
    elif meta.revealed or arb.folded(game).meta.revealed:
        source = (
            f"auto: HMAC-SHA256 of the revealed seed over '{meta.dice.stream}:{meta.dice.salt}:SEQ:BLOCK' "
            "(`warlog audit` re-derives every face)"
        )
    else:
        source = (
            f"auto: derived from the seed committed to as {meta.dice.commitment} (not yet revealed)"
        )
    return {
        "seq": seq,
        "type": batch[index - start].type,
        "data": json.loads(batch[index - start].data),
        "batch": [batch[0].seq, batch[-1].seq],
        "command": command,
        "dice": dice,
        "dice_source": source,
        "rule": target.explain(),
    }
