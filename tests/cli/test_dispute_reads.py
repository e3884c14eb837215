"""What a referee is told of a damaged or forged log by audit, import, replay and the reads:
true reasons for what was not checked, the import's first finding with its count, a file
replayed only once audited, and a row missing from a database named by every read of it."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.cli.command import one_line, run, succeeded
from tests.forger import forge
from tests.recorded import FIXTURES

GOLDEN = FIXTURES / "armageddon-empires" / "ae-golden.jsonl"

Events = list[dict[str, Any]]


def one_more_success(events: Events) -> None:
    """The attacker of the challenge resolved at seq 221 given one success more (2 -> 3)."""
    events[220]["data"]["outcome"]["attacker_successes"] = 3


def test_a_revealed_game_audited_without_its_key_file_says_where_its_values_are(
    tmp_path: Path,
) -> None:
    """Given the revealed golden game imported into a database, when its key file is moved
    away and the game audited, then the rules line says the seed is revealed but the values
    are not in the database (its key file holds them), not that the seed is not revealed; and
    the audit of the export that database then writes says the values are sealed in the file
    though the seed is revealed."""
    db = tmp_path / "w.db"
    succeeded(db, "import", str(GOLDEN))
    shutil.move(tmp_path / "w.db.keys", tmp_path / "elsewhere.keys")
    out = succeeded(db, "audit", "ae-golden").splitlines()
    assert out[2] == (
        "  rules: 0 batches re-derived; not checked from seq 1 on (the seed that sealed the "
        "values there is revealed at seq 3215, but the values are not in this database (only "
        "their digests are): its key file holds them, and so does the export made with it "
        "after the reveal)"
    )
    succeeded(db, "export", "ae-golden", "-o", str(tmp_path / "sealed.jsonl"))
    out = succeeded(db, "audit", str(tmp_path / "sealed.jsonl")).splitlines()
    assert out[2] == (
        "  rules: 0 batches re-derived; not checked from seq 1 on (a value there is still sealed "
        "in this file, though the seed that sealed it is revealed at seq 3215: the export made "
        "with the arbiter's key file after the reveal opens every seal)"
    )


def test_an_opening_that_does_not_open_is_reported_as_such_in_the_summary(
    tmp_path: Path,
) -> None:
    """Given the golden game's export, when red's first card dealt (seq 3) shows another card
    beside its seal, then the audit (exit 4) says in its summary that the rules stop there
    because the value sealed is not known, and that the seal does not open: not that it is
    still sealed."""
    lines = GOLDEN.read_text().splitlines()
    event = json.loads(lines[2])
    event["data"]["card"]["value"] = "red.signal-bunker.1"
    lines[2] = json.dumps(event)
    path = tmp_path / "forged.jsonl"
    path.write_text("\n".join(lines) + "\n")
    status, out, _ = run(tmp_path / "w.db", "audit", str(path))
    assert status == 4
    rules, seals = (
        next(line for line in out.splitlines() if line.startswith(f"  {what}:"))
        for what in ("rules", "seals")
    )
    assert rules == (
        "  rules: 0 batches re-derived; not checked from seq 3 on (the value shown at card "
        "there does not open its seal (finding above): the value sealed is not known, so the "
        "rules cannot go on from it)"
    )
    assert seals.endswith(
        "; 1 does not open (the value shown is not the one sealed: finding above)"
    )
    assert "still sealed" not in out


def test_a_hidden_roll_whose_faces_do_not_open_is_reported_as_such_in_the_dice_line(
    tmp_path: Path,
) -> None:
    """Given the golden game's export, when its first hidden roll shows other faces beside its
    seal, then the audit's dice line says the faces shown do not open their seal (it said
    they stay sealed)."""
    lines = GOLDEN.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"faces":{"sealed"' in line)
    event = json.loads(lines[at])
    event["data"]["faces"]["value"] = [1]
    lines[at] = json.dumps(event)
    path = tmp_path / "forged.jsonl"
    path.write_text("\n".join(lines) + "\n")
    status, out, _ = run(tmp_path / "w.db", "audit", str(path))
    assert status == 4
    dice = next(line for line in out.splitlines() if line.startswith("  dice"))
    assert dice.endswith(
        "; 1 roll NOT verified (the faces shown do not open its seal: finding above)"
    )


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


def test_replaying_a_file_forged_under_the_rules_is_refused_as_its_audit_refuses_it(
    tmp_path: Path,
) -> None:
    """Given the golden game forged at seq 221 with the chain recomputed (a legal chain, a
    consequence the rules do not derive), when the file is replayed, even a stretch before the
    forgery, then it is refused (exit 4) with the audit's finding, nothing replayed."""
    path = forge(GOLDEN, tmp_path / "forged.jsonl", one_more_success)
    status, out, err = run(tmp_path / "w.db", "replay", str(path), "--to", "5")
    assert (status, out) == (4, "")
    assert one_line(err, "import/broken_log") == (
        "error[import/broken_log]: refusing a broken log: seq 221 [rules]: a consequence "
        "differs from what the rules derive from the command and its dice: challenge_resolved "
        "data.outcome.attacker_successes: expected 2, found 3"
    )


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A new Armageddon Empires game ``a1`` (its hands dealt, sealed) in ``w.db``; the working
    directory is ``tmp_path``."""
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "w.db"
    succeeded(db, "new", "armageddon-empires", "--game", "a1")
    return db


@pytest.mark.parametrize(
    "written", [("export", "a1"), ("events", "a1", "--as", "red", "--json")], ids=["export", "red"]
)
def test_replaying_a_file_with_sealed_values_says_what_the_file_lacks(
    live: Path, written: tuple[str, ...]
) -> None:
    """Given a live game's export, or the events red may see written as JSON Lines, when the
    file is replayed, then it is one line (store/sealed, exit 1) saying the file holds values
    still sealed from event 1 on and which file replays; no key file is involved."""
    Path("game.jsonl").write_text(succeeded(live, *written))
    status, out, err = run(live, "replay", "./game.jsonl")
    assert (status, out) == (1, "")
    assert one_line(err, "store/sealed") == (
        "error[store/sealed]: ./game.jsonl holds values still sealed (from event 1 on): replay "
        "cannot fold them without their clear forms; the export made with the key file after "
        "the reveal replays (`warlog audit FILE` checks what it can of this one)"
    )


def test_replaying_a_referees_opened_export_of_a_live_game_says_its_seed_is_not_in_it(
    live: Path,
) -> None:
    """Given a live game's export opened by the referee (export --open), when the file is
    replayed, then it is one line (store/sealed, exit 1) saying the file opens values under a
    seed it does not reveal."""
    succeeded(live, "export", "a1", "--open", "-o", "open.jsonl")
    status, out, err = run(live, "replay", "open.jsonl")
    assert (status, out) == (1, "")
    assert one_line(err, "store/sealed").startswith(
        "error[store/sealed]: open.jsonl opens values under a seed it does not reveal (a "
        "referee's export --open of a game still being played): replay cannot read them "
        "without it; "
    )


@pytest.fixture
def gapped(live: Path) -> Path:
    """The live game ``a1`` with its row 9 deleted from the database."""
    with sqlite3.connect(live) as conn:
        conn.execute("DELETE FROM events WHERE game = 'a1' AND seq = 9")
    conn.close()
    return live


GAP_READS = [
    ("events", "a1"),
    ("events", "a1", "--from", "5", "--to", "12", "--json"),
    ("events", "a1", "--from", "9", "--to", "9"),
    ("export", "a1", "-o", "out.jsonl"),
    ("export", "a1", "--open"),
    ("replay", "a1", "--from", "5"),
    ("state", "a1", "--at", "9"),
    ("log", "a1", "--all"),
]


@pytest.mark.parametrize("args", GAP_READS, ids=[" ".join(a[2:]) or a[0] for a in GAP_READS])
def test_a_read_of_every_row_names_a_row_missing_from_the_database(
    gapped: Path, args: tuple[str, ...]
) -> None:
    """Given a game whose row 9 was deleted from the database, when its events are listed,
    exported or replayed over that row, its Events view shown, or its state asked for after
    event 9, then it stops
    there with one line naming the game and the missing event (store/corrupt, exit 1), no
    event after it shown and no file written (it skipped from 8 to 10, or told the state after
    event 8, with exit 0)."""
    status, out, err = run(gapped, *args)
    assert status == 1
    assert one_line(err, "store/corrupt") == (
        "error[store/corrupt]: game a1 has no event 9 (the log has a gap): the database is damaged"
    )
    assert all(seq < 9 for seq in shown_seqs(out)), out
    assert not Path("out.jsonl").exists()


def shown_seqs(out: str) -> list[int]:
    """The seqs of the events a read printed (a listing's, a replay's or JSON Lines')."""
    found = re.findall(r'(?m)^(?:\s*(\d+)  \w|\{"seq": (\d+),)', out)
    return [int(text or line) for text, line in found]


def test_an_export_names_a_row_that_does_not_follow_the_one_before_it(live: Path) -> None:
    """Given a game whose row 9 was given another prev in the database, when it is exported,
    then it is one line saying event 9 does not follow event 8 (store/corrupt, exit 1)."""
    with sqlite3.connect(live) as conn:
        conn.execute("UPDATE events SET prev = ? WHERE game = 'a1' AND seq = 9", ("0" * 64,))
    conn.close()
    status, out, err = run(live, "export", "a1")
    assert status == 1 and shown_seqs(out) == list(range(1, 9))
    assert one_line(err, "store/corrupt") == (
        "error[store/corrupt]: game a1: event 9 does not follow event 8 (its prev is not that "
        "event's hash): the database is damaged"
    )


@pytest.mark.parametrize("command", ["audit", "import", "replay"])
def test_a_file_that_is_not_json_lines_is_bad_input_and_a_line_that_is_no_event_an_invalid_log(
    live: Path, command: str
) -> None:
    """Given a game's export with its second line cut in half, when it is audited, imported or
    replayed, then the file is bad input (input/bad_json, exit 1: it is not JSON Lines), named
    with its line; and given the export with its second line's 'at' taken out, then the log
    is invalid (import/invalid_event, exit 4)."""
    lines = succeeded(live, "export", "a1").splitlines()
    Path("cut.jsonl").write_text("\n".join([lines[0], lines[1][: len(lines[1]) // 2]]) + "\n")
    status, out, err = run(live, command, "cut.jsonl")
    assert (status, out) == (1, "")
    assert one_line(err, "input/bad_json").startswith(
        "error[input/bad_json]: cut.jsonl line 2 is not JSON: "
    )
    event = json.loads(lines[1])
    del event["at"]
    Path("no-at.jsonl").write_text("\n".join([lines[0], json.dumps(event)]) + "\n")
    status, out, err = run(live, command, "no-at.jsonl")
    assert (status, out) == (4, "")
    assert one_line(err, "import/invalid_event") == (
        "error[import/invalid_event]: no-at.jsonl: line 2: missing at"
    )


def test_a_log_cut_inside_a_batch_is_said_to_end_there_by_import_and_fuzz(
    tmp_path: Path,
) -> None:
    """Given the golden game's first 18 events (a copy cut inside the batch of seq 18, whose
    rules derive one more event), when it is imported or fuzzed, then each refuses it (exit 4)
    saying what is known: the log ends inside that batch, not that the rules changed or the
    log was altered."""
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(GOLDEN.read_text().splitlines(keepends=True)[:18]))
    finding = (
        "seq 19 [rules]: the log ends inside this batch: the rules derive more events from its "
        "command than it holds (a copy cut short, such as part of an export, or rules that now "
        "derive more) (expected: initiative_dice_bought "
    )
    status, out, err = run(tmp_path / "w.db", "import", str(cut))
    line = one_line(err, "import/broken_log")
    assert (status, out) == (4, "")
    assert line.startswith(
        f"error[import/broken_log]: refusing a log that ends inside a batch: {finding}"
    ), line
    assert line.endswith("; found: the end of the log)"), line
    status, out, err = run(tmp_path / "w.db", "fuzz", str(cut), "--examples", "1")
    line = one_line(err, "fuzz/source_not_clean")
    assert (status, out) == (4, "")
    # a long folder's name is cut from its start to leave room for the finding
    assert line.startswith("error[fuzz/source_not_clean]: cannot fuzz "), line
    assert f"cut.jsonl: this log is incomplete: {finding[:128]}" in line, line
    assert line.endswith(
        "; found: the end of the log); a source must audit clean under the rules installed"
    ), line


def test_a_log_cut_between_a_command_and_its_roll_is_one_finding_of_where_it_ends(
    tmp_path: Path,
) -> None:
    """Given the golden game cut just after a command whose batch rolls next (seq 388, a fate
    re-roll of 4 d6), when it is audited and imported, then the audit has one finding, that the
    log ends inside that batch (not also a roll "not matching the rules"), and import refuses it
    as a log that ends inside a batch (exit 4)."""
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(GOLDEN.read_text().splitlines(keepends=True)[:388]))
    status, out, _ = run(tmp_path / "w.db", "audit", str(cut), "--json")
    findings = json.loads(out)["findings"]
    assert status == 4
    assert [(f["seq"], f["check"]) for f in findings] == [(389, "rules")]
    assert findings[0]["message"].startswith("the log ends inside this batch")
    status, out, err = run(tmp_path / "w.db", "import", str(cut))
    line = one_line(err, "import/broken_log")
    assert (status, out) == (4, "")
    assert line.startswith("error[import/broken_log]: refusing a log that ends inside a batch: ")


def test_a_log_of_a_later_version_is_not_said_to_be_broken_by_import_or_fuzz(
    tmp_path: Path,
) -> None:
    """Given the golden game claiming version 99 with its chain recomputed (as a newer warlog
    would write it), when it is imported or fuzzed, then each refuses it (exit 4) saying it was
    played under rules this warlog does not have, which a newer warlog may have written, not
    that it is broken, altered or damaged."""
    path = forge(GOLDEN, tmp_path / "v99.jsonl", lambda e: e[0]["data"].update(version="99"))
    finding = (
        "seq 1 [version]: played under armageddon-empires version 99, which this warlog does "
        "not play: a newer warlog may have written it (it plays 28, "
    )
    status, out, err = run(tmp_path / "w.db", "import", str(path))
    line = one_line(err, "import/broken_log")
    assert (status, out) == (4, "")
    assert line.startswith(
        "error[import/broken_log]: refusing a log played under rules this warlog does not "
        f"have: {finding}"
    ), line
    assert line.endswith("), so rules re-derivation was not done"), line
    status, out, err = run(tmp_path / "w.db", "fuzz", str(path), "--examples", "1")
    line = one_line(err, "fuzz/source_not_clean")
    assert (status, out) == (4, "")
    assert line.startswith("error[fuzz/source_not_clean]: cannot fuzz "), line
    assert (
        f"v99.jsonl: this log was played under rules this warlog does not have: {finding}" in line
    ), line
    assert "altered" not in line, line
