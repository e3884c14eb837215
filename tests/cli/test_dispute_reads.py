"""What a referee is told of a forged log by import: its first finding, with the count of the
others."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.cli.command import one_line, run
from tests.forger import forge
from tests.recorded import FIXTURES

GOLDEN = FIXTURES / "armageddon-empires" / "ae-golden.jsonl"

Events = list[dict[str, Any]]


def one_more_success(events: Events) -> None:
    """The attacker of the challenge resolved at seq 221 given one success more (2 -> 3)."""
    events[220]["data"]["outcome"]["attacker_successes"] = 3


def test_import_names_the_first_finding_by_seq_and_keeps_the_count_in_its_one_line(
    tmp_path: Path,
) -> None:
    """Given the golden game forged at seq 221 in many fields of a long event (its first
    finding long) and at a later challenge, when it is imported, then the one line (exit 4)
    names the finding at 221, cut to fit, and still ends with the count of the others."""

    def forged(events: Events) -> None:
        one_more_success(events)
        challenge = events[220]["data"]["challenge"]
        challenge["purpose"] = "x" * 200
        challenge["story"] = ["y" * 200 for _ in challenge["story"]]
        events[229]["data"]["outcome"]["attacker_successes"] += 1

    path = forge(GOLDEN, tmp_path / "forged.jsonl", forged)
    status, out, err = run(tmp_path / "w.db", "import", str(path))
    line = one_line(err, "import/broken_log")
    assert (status, out) == (4, "")
    assert line.startswith(
        "error[import/broken_log]: refusing a broken log: seq 221 [rules]: a consequence "
        "differs from what the rules derive from the command and its dice: challenge_resolved "
        "data.challenge.purpose: expected "
    )
    assert line.endswith("… (and 1 more; `warlog audit FILE` lists them)")
    assert len(line) <= len("error[import/broken_log]: ") + 400
