"""docs/verify.py: the stand-alone verifier the log-format page prints, on exported games."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.eventstore.test_audit import race_game
from tests.forger import forge
from warlog.arbiter.exchange import export_line

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_verifier_on_the_page_is_the_file_and_short() -> None:
    page = (DOCS / "log-format.md").read_text()
    block = re.search(r"```python\n(.*?)```", page, re.S)
    assert block is not None
    source = (DOCS / "verify.py").read_text()
    assert block.group(1) == source
    assert len(source.splitlines()) < 100  # the page promises "under 100 lines"
    assert set(re.findall(r"^import (.*?)(?:  #.*)?$", source, re.M)) == {
        "hashlib, hmac, json, sys"
    }


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("export") / "game.jsonl"
    records = race_game(tmp_path_factory, [3, 3, 2, 3, 1, 3, 3, 3, 3, 3])
    path.write_text("".join(export_line(r) + "\n" for r in records))
    return path


def report(
    rolls: int,
    seals: int,
    unseeded: int = 0,
    typed: int = 0,
    unsalted: int = 0,
    closed: int = 0,
    receipts: int = 0,
) -> str:
    """The verifier's last word on a log it found nothing wrong with: what it checked, and each
    kind of thing it could not check, named and counted (zeros included)."""
    return (
        f"chain intact; {f'the {receipts} receipt(s) you kept, each in it' if receipts else 'no receipts given'}; "
        f"{rolls} rolls and {seals} seals checked against revealed seeds; not "
        f"checked: {unseeded} rolls (their seed not revealed, or their faces sealed), {typed} "
        f"rolls typed by a referee (no seed derives them), {unsalted} opened seals' salts "
        f"(their seed not revealed), {closed} seals still closed, the rules (not re-run: warlog "
        "audit does)\n"
    )


def run(path: Path, *receipts: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(DOCS / "verify.py"), str(path), *map(str, receipts)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_verifier_passes_an_exported_game_and_rederives_its_dice(export: Path) -> None:
    result = run(export)
    assert (result.returncode, result.stdout) == (0, report(10, 0))


def test_the_verifier_names_an_altered_event(export: Path, tmp_path: Path) -> None:
    lines = export.read_text().splitlines()
    event = json.loads(lines[4])
    event["data"]["forged"] = 1
    lines[4] = json.dumps(event)
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join(lines) + "\n")
    result = run(forged)
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == "seq 5: the chain is broken here"


def test_the_verifier_catches_forged_dice_even_with_a_recomputed_chain(
    export: Path, tmp_path: Path
) -> None:
    from tests.eventstore.tamper import rechain
    from warlog.arbiter.exchange import parse_lines
    from warlog.eventstore.records import Record

    records = list(parse_lines(export.read_text().splitlines()))
    i = next(i for i, r in enumerate(records) if r.type == "dice_rolled")
    data = json.loads(records[i].data)
    data["faces"] = [7 - f for f in data["faces"]]
    records[i] = Record(
        records[i].seq,
        records[i].type,
        json.dumps(data, separators=(",", ":")),
        records[i].at,
        "",
        "",
    )
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(export_line(r) + "\n" for r in rechain(records)))
    result = run(forged)
    assert result.returncode == 1
    assert f"seq {records[i].seq}: these faces do not come from the revealed seed" in result.stdout


def test_an_empty_file_is_not_an_intact_chain(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = run(empty)
    assert (result.returncode, result.stdout.strip()) == (1, "the file holds no event")


def test_a_roll_forged_after_a_same_dice_fork_is_named(tmp_path: Path) -> None:
    """Given a same-dice fork (its game_forked publishes the parent's revealed seed) whose first
    roll after the fork was forged and the chain made whole again, when the verifier reads its
    export, then that roll is named: the fork's rolls derive from the seed already public."""
    from tests.eventstore.conftest import fixed_clock
    from tests.eventstore.tamper import rechain
    from tests.toy import SCENARIO
    from warlog.arbiter.application import Arbiter
    from warlog.domain import rulesets
    from warlog.eventstore.memory_store import MemoryStore
    from warlog.eventstore.records import Record

    rulesets.register("dice-race", "tests.toy:RULESET")
    try:
        (tmp_path / "race.toml").write_bytes(SCENARIO)
        arb = Arbiter(MemoryStore(), rulesets.get, clock=fixed_clock(), seeds=lambda: bytes(32))
        game = arb.new_game("dice-race", str(tmp_path / "race.toml"), game="g1")
        for player in ("red", "blue"):
            arb.play(game, json.dumps({"type": "roll", "player": player, "count": 2}))
        at = arb.store.head(game)[0]
        arb.reveal(game)
        fork = arb.fork(game, at, new_game="g2", dice="same")
        arb.play(fork, json.dumps({"type": "roll", "player": "red", "count": 2}))
        records = list(arb.export_records(fork))
    finally:
        rulesets.unregister("dice-race")
    path = tmp_path / "fork.jsonl"
    path.write_text("".join(export_line(r) + "\n" for r in records))
    assert run(path).returncode == 0
    rolled = next(r for r in records if r.type == "dice_rolled" and r.seq > at)
    data = json.loads(rolled.data)
    data["faces"] = [data["faces"][0] % 6 + 1, *data["faces"][1:]]
    forged = [
        Record(r.seq, r.type, json.dumps(data, separators=(",", ":")), r.at, "", "")
        if r is rolled
        else r
        for r in records
    ]
    path.write_text("".join(export_line(r) + "\n" for r in rechain(forged)))
    result = run(path)
    assert result.returncode == 1
    assert f"seq {rolled.seq}: these faces do not come from the revealed seed" in result.stdout


# ---------------------------------------------------------------- receipts


def receipts_file(tmp_path: Path, export: Path, *seqs: int) -> Path:
    """The `SEQ HASH` lines a player kept with `warlog head GAME >> my-receipts.txt`."""
    events = {e["seq"]: e for e in map(json.loads, export.read_text().splitlines())}
    path = tmp_path / "my-receipts.txt"
    path.write_text("".join(f"{seq} {events[seq]['hash']}\n" for seq in seqs))
    return path


def test_the_verifier_finds_every_receipt_a_player_kept_in_the_log_it_was_given(
    export: Path, tmp_path: Path
) -> None:
    last = len(export.read_text().splitlines())
    result = run(export, receipts_file(tmp_path, export, 3, 7, last))
    assert (result.returncode, result.stdout) == (0, report(10, 0, receipts=3))


def test_a_log_cut_before_a_receipt_is_named_by_the_receipt(export: Path, tmp_path: Path) -> None:
    """Given a log cut after event 6 (a shorter legal game, its chain whole) and a player's
    receipt for event 9, when the verifier reads it with the receipt, then the receipt is named:
    the log ends before it, exit 1; without the receipt nothing in the file shows the cut."""
    kept = receipts_file(tmp_path, export, 3, 9)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(line + "\n" for line in export.read_text().splitlines()[:6]))
    assert run(cut).returncode == 0
    result = run(cut, kept)
    assert (result.returncode, result.stdout) == (
        1,
        "receipt 9: the log ends at seq 6, before it: it has been cut\n",
    )


def test_a_log_with_its_chain_recomputed_is_not_the_one_a_receipt_holds(
    export: Path, tmp_path: Path
) -> None:
    """Given a log as long as the one a player was given, event 3 changed and every hash after
    it recomputed (a whole chain), when the verifier reads it with the player's receipts, then
    every receipt from event 3 on is named, exit 1; the receipt before the change still holds."""
    from tests.eventstore.tamper import relink
    from warlog.arbiter.exchange import parse_lines

    lines = export.read_text().splitlines()
    kept = receipts_file(tmp_path, export, 2, 3, len(lines))
    records = list(parse_lines(lines))
    records[2] = msgspec.structs.replace(records[2], at="2026-01-01T00:00:00Z")
    forged = tmp_path / "rechained.jsonl"
    forged.write_text("".join(export_line(r) + "\n" for r in relink(records)))
    assert run(forged).returncode == 0
    result = run(forged, kept)
    assert (result.returncode, result.stdout) == (
        1,
        "receipt 3: event 3 here is not the one your receipt holds: this is not the log you were"
        " given\n"
        f"receipt {len(lines)}: event {len(lines)} here is not the one your receipt holds: this is"
        " not the log you were given\n",
    )


@pytest.mark.parametrize(
    "line", ["12", "twelve " + "a" * 64, "0 " + "a" * 64, "12 abc", "1 2 3", "12 " + "g" * 64]
)
def test_a_receipts_file_with_a_line_that_is_no_receipt_is_one_line(
    export: Path, tmp_path: Path, line: str
) -> None:
    path = tmp_path / "my-receipts.txt"
    path.write_text(f"3 {'b' * 64}\n\n{line}\n")
    assert one_error(run(export, path)) == (
        f"verify.py: {path} holds a line that is not a receipt `SEQ HASH`: {line}"
    )


def test_a_receipt_written_in_capitals_is_the_same_receipt(export: Path, tmp_path: Path) -> None:
    kept = receipts_file(tmp_path, export, 3)
    kept.write_text(kept.read_text().upper())
    result = run(export, kept)
    assert (result.returncode, result.stdout) == (0, report(10, 0, receipts=1))


def test_an_empty_receipts_file_is_one_line_not_no_receipts_given(
    export: Path, tmp_path: Path
) -> None:
    path = tmp_path / "my-receipts.txt"
    path.write_text("\n")
    assert one_error(run(export, path)) == f"verify.py: {path} holds no receipt"


# ---------------------------------------------------------------- hostile files

FIXTURES = DOCS.parent / "fixtures"


def one_error(result: subprocess.CompletedProcess[str]) -> str:
    assert (result.returncode, result.stdout) == (1, ""), result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


@pytest.mark.parametrize("sides", [257, 0, -6, "6", None])
def test_a_die_the_contract_cannot_derive_is_one_line_naming_its_line(
    tmp_path: Path, sides: object
) -> None:
    """Given a golden game whose 51st event rolls a die no seed can derive (257 sides once
    made the verifier loop for ever: no byte is ever accepted; 0 divided by zero), with the
    chain recomputed, when the verifier reads it, then it ends at once with one line naming
    the file's line and the die, exit 1."""

    def edit(events: list[dict[str, Any]]) -> None:
        assert events[50]["type"] == "dice_rolled"
        events[50]["data"]["sides"] = sides

    path = forge(
        FIXTURES / "battle-for-armageddon" / "bfa-golden.jsonl", tmp_path / "f.jsonl", edit
    )
    line = one_error(run(path))
    assert line.startswith(f"verify.py: {path} line 51 is not an event warlog writes (")
    assert f"a die of {json.dumps(sides)} sides" in line


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"seq": 1, "data": ' + '{"a": ' * 100_000 + "1" + "}" * 100_001 + "\n", "Recursion"),
        (
            '{"seq":1,"type":"game_created","at":"a","data":{"x":"\\ud800"},"prev":"","hash":""}\n',
            "surrogates",
        ),
        ('{"seq": 1, "type": "game_created", "data": {}}\n', "KeyError"),
        ("[1, 2]\n", "TypeError"),
        ('{"seq": 1, "data": ' + "9" * 5000 + "}\n", "ValueError"),
        ("not json\n", "JSONDecodeError"),
    ],
    ids=["deep", "lone-surrogate", "missing-field", "not-an-object", "huge-number", "not-json"],
)
def test_a_line_that_is_not_an_event_is_one_line_naming_it(
    tmp_path: Path, export: Path, text: str, words: str
) -> None:
    """Given an export whose third line is hostile (nested beyond Python's recursion limit, a
    lone surrogate no UTF-8 holds, not an event), when the verifier reads it, then it says so
    in one line naming line 3, exit 1, never a traceback."""
    lines = export.read_text().splitlines(keepends=True)
    path = tmp_path / "hostile.jsonl"
    path.write_text("".join([*lines[:2], text, *lines[2:]]), encoding="utf-8")
    line = one_error(run(path))
    assert line.startswith(f"verify.py: {path} line 3 is not an event warlog writes (")
    assert words in line


def test_a_line_that_is_not_utf8_is_named(tmp_path: Path, export: Path) -> None:
    lines = export.read_bytes().splitlines(keepends=True)
    path = tmp_path / "bytes.jsonl"
    path.write_bytes(b"".join([*lines[:4], b'{"seq": 5, "type": "\xff"}\n', *lines[4:]]))
    line = one_error(run(path))
    assert line.startswith(f"verify.py: {path} line 5 is not an event warlog writes (")
    assert "UnicodeDecodeError" in line


@pytest.mark.parametrize("make", ["directory", "missing"])
def test_a_file_that_cannot_be_read_is_one_line(tmp_path: Path, make: str) -> None:
    path = tmp_path / "d.jsonl"
    if make == "directory":
        path.mkdir()
    line = one_error(run(path))
    assert line.startswith(f"verify.py: cannot read {path} (")


# ---------------------------------------------------------------- what it did not check


def cli_export(tmp_path: Path, *new: str, reveal: bool = False) -> Path:
    """A new game made and exported by the command line (not revealed unless ``reveal``: its
    seals stay closed)."""
    from click.testing import CliRunner

    from warlog.cli.main import cli

    db, path = str(tmp_path / "w.db"), tmp_path / "game.jsonl"
    revealing = [["reveal", "g1", "--yes"]] if reveal else []
    for args in (["new", *new, "--game", "g1"], *revealing, ["export", "g1", "-o", str(path)]):
        result = CliRunner().invoke(cli, ["--db", db, *args])
        assert result.exit_code == 0, result.output
    return path


def test_seals_still_closed_are_counted_as_not_checked(tmp_path: Path) -> None:
    """Given a new Armageddon Empires game exported before the reveal (its hands dealt under
    seal), when the verifier reads it, then it counts the closed seals and the sealed rolls as
    not checked, as audit does, rather than leave the seals out (it once said "8 not
    checked" of 8 rolls and 33 seals). Its 29 seals: 13 in ``game_created`` (each empire's hand,
    deck, armies and minefields, one list each since version 15, AE-61; each base's garrison;
    the independent minefields, one list sealed for every player since version 23, AE-67) and
    the deal's 8 cards and 8 dice."""
    from click.testing import CliRunner

    from warlog.cli.main import cli

    path = cli_export(tmp_path, "armageddon-empires")
    result = run(path)
    assert (result.returncode, result.stdout) == (0, report(0, 0, unseeded=8, closed=29))
    audit = CliRunner().invoke(cli, ["--db", str(tmp_path / "a.db"), "audit", str(path)])
    assert "8 rolls NOT verified" in audit.stdout and "29 still sealed" in audit.stdout


def test_a_manual_dice_game_s_deal_is_derived_from_its_seed(tmp_path: Path) -> None:
    """Given a revealed Armageddon Empires game with manual dice (the referee types the dice of
    commands, but the opening's deal rolls on the game's seed, as in an auto game), when the
    verifier and the audit read its export, then both derive the deal's 8 rolls from the
    revealed seed and call none of them typed by a referee (which would leave them unchecked)."""
    from click.testing import CliRunner

    from warlog.cli.main import cli

    path = cli_export(tmp_path, "armageddon-empires", "--dice", "manual", reveal=True)
    result = run(path)
    assert (result.returncode, result.stdout) == (0, report(8, 29))
    audit = CliRunner().invoke(cli, ["--db", str(tmp_path / "a.db"), "audit", str(path)])
    assert "  dice verified: every roll re-derived from the revealed seed (8 rolls)" in audit.stdout


def race_export(tmp_path: Path, reveal: bool) -> Path:
    """The toy dice race in a manual-dice game: three rolls a referee typed."""
    from tests.eventstore.conftest import fixed_clock
    from tests.toy import SCENARIO
    from warlog.arbiter.application import Arbiter
    from warlog.domain import rulesets
    from warlog.eventstore.memory_store import MemoryStore

    rulesets.register("dice-race", "tests.toy:RULESET")
    try:
        (tmp_path / "race.toml").write_bytes(SCENARIO)
        arb = Arbiter(MemoryStore(), rulesets.get, clock=fixed_clock(), seeds=lambda: bytes(32))
        game = arb.new_game("dice-race", str(tmp_path / "race.toml"), game="g1", dice="manual")
        for player in ("red", "blue", "red"):
            command = {"type": "roll", "player": player, "count": 2, "dice": [3, 4]}
            arb.play(game, json.dumps(command))
        if reveal:
            arb.reveal(game)
        records = list(arb.export_records(game))
    finally:
        rulesets.unregister("dice-race")
    path = tmp_path / f"manual-{reveal}.jsonl"
    path.write_text("".join(export_line(r) + "\n" for r in records))
    return path


@pytest.mark.parametrize(
    ("reveal", "said"),
    [(True, report(0, 3, typed=3)), (False, report(0, 0, typed=3, closed=3))],
    ids=["revealed", "live"],
)
def test_a_referees_typed_dice_are_named_as_not_derivable(
    tmp_path: Path, reveal: bool, said: str
) -> None:
    """Given a manual-dice game whose referee typed three rolls (each command's list sealed),
    when the verifier reads its export, then it names the three rolls as typed by a referee,
    which no seed derives, rather than "0 not checked"; revealed, the sealed lists are
    checked against the seed."""
    result = run(race_export(tmp_path, reveal))
    assert (result.returncode, result.stdout) == (0, said)


def test_a_game_made_manual_by_a_forger_shows_its_rolls_unchecked(tmp_path: Path) -> None:
    """Given the golden Battle for Armageddon game (59 rolls, 84 seals, all derivable from its
    revealed seed), forged into a manual-dice game whose 51st event rolls a 6, the chain
    recomputed, when the verifier reads it, then it cannot tell (the mode is in the chained
    game_created: a re-chained log is another log, which a player's receipt refutes), but it
    says that no roll was checked: all 59 are named as typed by a referee, where it had said
    "0 not checked"."""
    golden = FIXTURES / "battle-for-armageddon" / "bfa-golden.jsonl"
    untouched = run(golden)
    assert (untouched.returncode, untouched.stdout) == (0, report(59, 84))

    def edit(events: list[dict[str, Any]]) -> None:
        events[0]["data"]["dice"]["mode"] = "manual"
        events[50]["data"]["faces"] = [6]

    result = run(forge(golden, tmp_path / "manual.jsonl", edit))
    assert (result.returncode, result.stdout) == (0, report(0, 84, typed=59))


# ---------------------------------------------------------------- each check, met by its forgery


def second_face_changed(events: list[dict[str, Any]]) -> None:
    roll = next(e for e in events if e["type"] == "dice_rolled" and len(e["data"]["faces"]) > 1)
    roll["data"]["faces"][1] = roll["data"]["faces"][1] % 6 + 1


def seed_replaced(events: list[dict[str, Any]]) -> None:
    assert events[-1]["type"] == "dice_revealed"
    events[-1]["data"]["seed"] = bytes(range(1, 33)).hex()


def own_salt(events: list[dict[str, Any]]) -> None:
    events[1]["data"]["command"]["dice"]["salt"] = "11" * 32  # the forger reseals under it


def value_changed_seal_kept(lines: list[str]) -> None:
    event = json.loads(lines[1])
    event["data"]["command"]["dice"]["value"] = [3, 5]  # the seal (and the chain) as they were
    lines[1] = json.dumps(event)


def prev_field_changed(lines: list[str]) -> None:
    event = json.loads(lines[4])
    event["prev"] = "f" * 64  # its hash as it was: the hash covers the prev the chain carries
    lines[4] = json.dumps(event)


@pytest.mark.parametrize(
    ("manual", "forger", "edit", "said"),
    [
        (False, True, lambda events: events.pop(4), "seq 6: the chain is broken here"),
        (False, False, prev_field_changed, "seq 5: the chain is broken here"),
        (False, True, second_face_changed, "these faces do not come from the revealed seed"),
        (False, True, seed_replaced, "the seed does not open the commitment in force"),
        (True, False, value_changed_seal_kept, "seq 2: the seal of command.dice does not open"),
        (
            True,
            True,
            own_salt,
            "seq 2: the salt of command.dice does not come from the revealed seed",
        ),
    ],
    ids=["seq-skipped", "prev-field", "second-face", "seed-of-another", "value", "salt"],
)
def test_each_forgery_is_named_by_the_verifier_s_check_for_it(
    export: Path, tmp_path: Path, manual: bool, forger: bool, edit: Any, said: str
) -> None:
    """Given a revealed export (the auto race, or the manual one whose commands' dice are
    sealed and opened), when it is edited as the case says (by the careful forger, who
    recomputes every opened seal and the whole chain, or by hand), then the verifier names
    it, exit 1: a mutant of each of these checks once let the edit through as intact."""
    source = race_export(tmp_path, reveal=True) if manual else export
    path = tmp_path / "edited.jsonl"
    if forger:
        forge(source, path, edit)
    else:
        lines = source.read_text().splitlines()
        edit(lines)
        path.write_text("\n".join(lines) + "\n")
    result = run(path)
    assert result.returncode == 1
    assert any(line.endswith(said) for line in result.stdout.splitlines()), result.stdout
