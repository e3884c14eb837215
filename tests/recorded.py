"""The recorded games of fixtures/ in a memory arbiter, and a command's refusal as its one line,
for the tests that read a real game where a dispute would look."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from warlog.arbiter.application import Arbiter
from warlog.arbiter.sources import file_records, memory_arbiter
from warlog.domain.core.errors import WarlogError
from warlog.domain.core.events import Event
from warlog.eventstore.records import Record

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def recorded(ruleset: str, name: str) -> tuple[Arbiter, str]:
    """The recorded game ``fixtures/<ruleset>/<name>.jsonl`` imported into a new memory arbiter,
    and its id."""
    arb = memory_arbiter()
    return arb, arb.import_records(file_records(str(FIXTURES / ruleset / f"{name}.jsonl")))


def refused(arb: Arbiter, game: str, **command: object) -> str:
    """``code: message`` of the refusal of ``command`` (the test fails if it is accepted)."""
    with pytest.raises(WarlogError) as info:
        arb.play(game, json.dumps(command))
    return f"{info.value.code}: {info.value.message}"


def clear_events(arb: Arbiter, game: str) -> tuple[list[Record], list[Event]]:
    """Every record of ``game`` and its clear event (sealed values opened), in order."""
    head, _ = arb.head(game)
    records = list(arb.records(game, 1, head))
    decode = arb.decoder(arb.loaded(game).codec, game)
    return records, decode([(r.seq, r.type, r.data, r.hash) for r in records])
