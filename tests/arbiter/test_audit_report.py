"""What the audit's report tells a referee of a forged log: one finding for one altered time."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.forger import forge
from tests.recorded import FIXTURES
from warlog.arbiter.audit import Auditor, audit_records
from warlog.arbiter.exchange import parse_lines
from warlog.domain import rulesets

GOLDEN = FIXTURES / "armageddon-empires" / "ae-golden.jsonl"

Events = list[dict[str, Any]]


def audited(tmp_path: Path, edit: Callable[[Events], None]) -> Auditor:
    """The golden game's export forged by ``edit`` (every opened seal and the chain recomputed
    after it, as a careful forger does), audited."""
    path = forge(GOLDEN, tmp_path / "forged.jsonl", edit)
    return audit_records(parse_lines(path.read_text().splitlines()), rulesets.get)


def test_one_altered_time_is_one_finding_naming_the_event_before(tmp_path: Path) -> None:
    """Given the golden game, when a forger puts the time of seq 1000 an hour later and
    recomputes the chain, then the audit finds one time going backwards, at seq 1001, naming
    seq 1000's time; not one finding for every later event until the times catch up."""

    def an_hour_later(events: Events) -> None:
        events[999]["at"] = "2026-11-24T02:43:43.000Z"

    findings = audited(tmp_path, an_hour_later).findings
    assert [f.line() for f in findings] == [
        f"seq 1001 [sequence]: 'at' goes backwards: {_at(1001)} is earlier than seq 1000's "
        "2026-11-24T02:43:43.000Z"
    ]


def _at(seq: int) -> str:
    return str(json.loads(GOLDEN.read_text().splitlines()[seq - 1])["at"])
