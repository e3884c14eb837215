"""What the audit's report tells a referee of a forged log: the fields that differ and their two
values, the findings in the log's order, one finding for one altered time, and a forged opening
or salt called what it is."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.forger import forge
from tests.recorded import FIXTURES
from warlog.arbiter.audit import Auditor, audit_records
from warlog.arbiter.audit_report import Difference
from warlog.arbiter.exchange import parse_lines
from warlog.domain import rulesets

GOLDEN = FIXTURES / "armageddon-empires" / "ae-golden.jsonl"

Events = list[dict[str, Any]]


def audited(tmp_path: Path, edit: Callable[[Events], None]) -> Auditor:
    """The golden game's export forged by ``edit`` (every opened seal and the chain recomputed
    after it, as a careful forger does), audited."""
    path = forge(GOLDEN, tmp_path / "forged.jsonl", edit)
    return audit_records(parse_lines(path.read_text().splitlines()), rulesets.get)


def test_a_changed_field_of_a_long_consequence_is_named_with_its_two_values(
    tmp_path: Path,
) -> None:
    """Given the golden game, when a forger gives the attacker of the challenge resolved at seq
    221 one success more (2 -> 3) and recomputes the chain, then the rules finding names the
    event type, the field and both values, in a short line; and the two sides it shows of that
    long event are not the same text."""

    def one_more_success(events: Events) -> None:
        outcome = events[220]["data"]["outcome"]
        assert (events[220]["type"], outcome["attacker_successes"]) == ("challenge_resolved", 2)
        outcome["attacker_successes"] = 3

    (finding,) = audited(tmp_path, one_more_success).findings
    assert (finding.seq, finding.check, finding.event_type) == (221, "rules", "challenge_resolved")
    assert finding.differences == [Difference("data.outcome.attacker_successes", "2", "3")]
    assert finding.line() == (
        "seq 221 [rules]: a consequence differs from what the rules derive from the command and "
        "its dice: challenge_resolved data.outcome.attacker_successes: expected 2, found 3"
    )
    assert finding.expected != finding.found
    assert finding.expected is not None and finding.found is not None
    assert '"attacker_successes":2' in finding.expected and len(finding.expected) <= 240
    assert '"attacker_successes":3' in finding.found and len(finding.found) <= 240


def test_a_forged_die_is_listed_before_the_consequence_it_changes(tmp_path: Path) -> None:
    """Given the golden game, when a forger changes the last face of red's challenge roll at seq
    216 (found when the seed is checked, at the end of the pass) and recomputes the chain, then
    the dice finding at 216 comes first and the challenge it changes (seq 218) after it, with
    the face that differs named there."""

    def another_face(events: Events) -> None:
        assert events[215]["data"]["faces"] == [6, 5, 2]
        events[215]["data"]["faces"] = [6, 5, 3]

    findings = audited(tmp_path, another_face).findings
    assert [(f.seq, f.check) for f in findings] == [(216, "dice"), (218, "rules")]
    assert findings[1].differences[0] == Difference("data.challenge.attacker.faces.2", "3", "2")


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


def test_an_opening_that_does_not_open_is_not_counted_as_still_sealed(tmp_path: Path) -> None:
    """Given the golden game, when red's first card dealt (seq 3) shows another card beside its
    seal (the chain untouched: it covers the seal alone), then the seal does not open (a
    finding), it is counted as such and not as still sealed, and the rules stop there for that
    reason, which no later reveal changes."""
    lines = GOLDEN.read_text().splitlines()
    event = json.loads(lines[2])
    event["data"]["card"]["value"] = "red.signal-bunker.1"
    lines[2] = json.dumps(event)
    auditor = audit_records(parse_lines(lines), rulesets.get)
    assert [f.line() for f in auditor.findings] == [
        "seq 3 [seal]: the seal at card does not open: the value and salt do not hash to the seal"
    ]
    proved = auditor.proved
    assert (proved.seals_false, proved.seals_closed, proved.rules_stopped_at) == (1, 0, 3)
    assert proved.rules_stopped_why == (
        "the value shown at card there does not open its seal (finding above): the value sealed "
        "is not known, so the rules cannot go on from it"
    )


def test_a_hidden_roll_whose_faces_do_not_open_is_not_counted_as_still_sealed() -> None:
    """Given the golden game, when the first hidden roll shows other faces beside its seal (the
    chain untouched), then the roll is counted as not verified because its faces do not open
    their seal, not as one whose faces stay sealed."""
    lines = GOLDEN.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"faces":{"sealed"' in line)
    event = json.loads(lines[at])
    event["data"]["faces"]["value"] = [1]
    lines[at] = json.dumps(event)
    auditor = audit_records(parse_lines(lines), rulesets.get)
    assert [(f.seq, f.check) for f in auditor.findings] == [(event["seq"], "seal")]
    assert (auditor.proved.dice_unopened, auditor.proved.dice_sealed) == (1, 0)
    assert "dice: 1 roll" in " ".join(auditor.proved.unchecked())


def test_a_salt_the_seed_does_not_derive_is_counted_apart_from_unchecked_ones(
    tmp_path: Path,
) -> None:
    """Given the golden game, when a forger gives red's first card another salt (and seals the
    card again under it), then the salt is a finding, counted as not the seed's, and no salt is
    left counted as unchecked (as if its seed were not revealed)."""

    def another_salt(events: Events) -> None:
        events[2]["data"]["card"]["salt"] = "11" * 32

    auditor = audited(tmp_path, another_salt)
    assert [(f.seq, f.check) for f in auditor.findings] == [(3, "seal")]
    proved = auditor.proved
    assert proved.salts_false == 1
    assert proved.seals_opened == proved.salts_verified + proved.salts_false
    assert not any(phrase.startswith("salts") for phrase in proved.unchecked())


def _at(seq: int) -> str:
    return str(json.loads(GOLDEN.read_text().splitlines()[seq - 1])["at"])
