"""``explain``: the command and dice behind an event, and the rule with its arithmetic — as the
reader may see them (a seal closed to the reader stays closed, and a rule that would tell its
value is withheld)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from warlog.arbiter.sealing import event_secrets, sealing_version
from warlog.arbiter.states import no_event
from warlog.domain.core.dice import commitment_of
from warlog.domain.core.events import BATCH_STARTS, CommandIssued, DiceRevealed, DiceRolled
from warlog.domain.core.owned_rolls import owner_of
from warlog.domain.core.seal import is_seal
from warlog.eventstore.lineage import missing_event
from warlog.projections.replay import WITHHELD, explained

if TYPE_CHECKING:
    from warlog.arbiter.application import Arbiter


def explain_event(arb: Arbiter, game: str, seq: int, player: str | None = None) -> dict[str, Any]:
    """A report on event ``seq`` for ``player`` (None: the referee): its batch, the command that
    caused it, the dice, the rule. InputError for an event outside the game or an unknown
    player; StoreError (``store/corrupt``) when the log has no row at ``seq``."""
    loaded = arb.loaded(game)
    head, _ = arb.head(game)
    if not 1 <= seq <= head:
        raise no_event(game, head, seq)
    reader = arb.reader(game, player)
    lo, hi = max(1, seq - 4096), min(head, seq + 4096)
    window = list(arb.records(game, lo, hi))
    index = next((i for i, r in enumerate(window) if r.seq == seq), None)
    if index is None:  # its row deleted
        raise missing_event(game, seq)
    start = index
    while start > 0 and window[start].type not in BATCH_STARTS:
        start -= 1
    end = index
    while end + 1 < len(window) and window[end + 1].type not in BATCH_STARTS:
        end += 1
    first, last = window[start].seq, window[end].seq
    shown = list(arb.forms(game, reader, first, last))
    decode = arb.decoder(loaded.codec, game)
    events = decode([(r.seq, r.type, r.data, r.hash) for r in window[start : end + 1]])
    data = [json.loads(r.data) for r in shown]
    target = index - start
    command = None
    if isinstance(events[0], CommandIssued):
        command = {"seq": first, "player": data[0]["player"], "command": data[0]["command"]}
    dice = [
        {
            "seq": r.seq,
            "sides": d["sides"],
            "faces": "sealed"
            if is_seal(d["faces"]) and len(d["faces"]) == 1
            else _faces(d["faces"]),
            "purpose": d.get("purpose", ""),
            "roller": d.get("roller", ""),
        }
        for r, d, e in zip(shown, data, events, strict=True)
        if isinstance(e, DiceRolled)
    ]
    meta = arb.folded(game, seq).meta
    revealed = (meta.dice.commitment or "") in arb.folded(game).meta.opened
    if meta.dice.mode == "manual":
        source = "manual: faces entered by the referee in the command's 'dice' list"
    elif revealed:
        source = (
            f"auto: HMAC-SHA256 of the revealed seed over '{meta.dice.stream}:{meta.dice.salt}:SEQ:BLOCK' "
            "(`warlog audit` re-derives every face)"
        )
    else:
        source = (
            f"auto: derived from the seed committed to as {meta.dice.commitment} (not yet revealed)"
        )
    rule = explained(events[target], data[target])
    if rule is not None and isinstance(events[target], DiceRolled):
        version = sealing_version(loaded.ruleset)
        rule += "\n" + _served(events, data, shown, target, version)
    report: dict[str, Any] = {
        "seq": seq,
        "type": shown[target].type,
        "data": data[target],
        "batch": [first, last],
        "command": command,
        "dice": dice,
        "dice_source": source,
        "rule": WITHHELD if rule is None else rule,
    }
    event = events[target]
    if isinstance(event, DiceRevealed):
        report["commitment"] = opens_commitment(event, meta.dice.commitment, meta.spec_seq)
    procedure = None if rule is None else events[target].part_of()
    if procedure is not None:
        began = _began(arb, game, reader, seq, procedure)
        if began is not None:
            report["procedure"] = {"name": procedure, "began": began}
    return report


def _served(
    events: list[Any], data: list[Any], shown: list[Any], target: int, version: int | None
) -> str:
    """The rule a roll serves, as the reader may read it: that of the first event after the
    rolls it is one of (the one their faces decide), unless it is one owner's among a split
    roll's (``owned_rolls.owner_of``: an empire's dice of a strike's fallout, AE-66): then that
    of the first of those events whose sealed values are that owner's (its ``fallout_suffered``,
    which rolls of several owners' are followed by in the owners' order), else the first."""
    after = list(zip(events, data, shown, strict=True))[target + 1 :]
    start = next((i for i, (e, _, _) in enumerate(after) if not isinstance(e, DiceRolled)), None)
    if start is None:
        return "the roll serves the rest of its batch (no event after it in the batch uses it yet)"
    end = next(
        (i for i, (e, _, _) in enumerate(after) if i > start and isinstance(e, DiceRolled)),
        len(after),
    )
    run = after[start:end]
    owner = owner_of(events[target].purpose)
    event, seen, record = next(
        (
            step
            for step in run
            if owner is not None
            and any(whose == owner for _, whose in event_secrets(step[0], version=version))
        ),
        run[0],
    )
    served = explained(event, seen)
    if served is None:
        return f"the roll serves event {record.seq} ({record.type}), whose rule is withheld"
    return f"the roll serves event {record.seq} ({record.type}): {served}"


def opens_commitment(revealed: DiceRevealed, commitment: str | None, made_at: int) -> str:
    """Whether a published seed opens the commitment in force (made at seq ``made_at``): the
    check a player makes of a reveal, told rather than left to the reader."""
    try:
        digest = commitment_of(bytes.fromhex(revealed.seed))
    except ValueError:
        digest = None
    if commitment and digest == commitment:
        return f"the seed's sha256 is the commitment made at event {made_at}: it opens it"
    return (
        f"the seed does NOT open the commitment made at event {made_at} ({commitment}): nothing "
        "sealed or rolled under it is proved by this seed (`warlog audit` reports it)"
    )


def _began(arb: Arbiter, game: str, reader: str, seq: int, procedure: str) -> int | None:
    """The seq of the event at or before ``seq`` that began ``procedure``, when ``reader`` may
    read its rule (a seq of a step hidden from the reader is not given away)."""
    decode = arb.decoder(arb.loaded(game).codec, game)
    lo = max(1, seq - 4096)
    for record in reversed(list(arb.records(game, lo, seq))):
        (event,) = decode([(record.seq, record.type, record.data, record.hash)])
        if event.begins() and event.part_of() == procedure:
            (shown,) = arb.forms(game, reader, record.seq, record.seq)
            if explained(event, json.loads(shown.data)) is None:
                return None
            return record.seq
    return None


def _faces(faces: Any) -> Any:
    """Faces as a reader sees them: a list, or the value of an opened seal."""
    return faces["value"] if is_seal(faces) else faces
