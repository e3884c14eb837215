"""Every integrity promise, tried as an attacker (or a careless user) would: each attack that
once broke a promise, with the contract's exit code and one line naming what is wrong."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.command import one_line, run
from tests.eventstore.tamper import forged, rechain
from tests.toy import SCENARIO
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.exchange import export_line, parse_lines
from warlog.domain import rulesets
from warlog.eventstore.memory_store import MemoryStore
from warlog.eventstore.records import Record

SEED = bytes(range(32))


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    rulesets.register("dice-race", "tests.toy:RULESET")
    yield
    rulesets.unregister("dice-race")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "w.db"


def race(db: Path, tmp_path: Path, game: str = "g1", *extra: str) -> str:
    (tmp_path / "race.toml").write_bytes(SCENARIO)
    status, out, err = run(
        db, "new", "dice-race", "--scenario", str(tmp_path / "race.toml"), "--game", game, *extra
    )
    assert status == 0, err
    return out.strip()


# ---------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ('{"type": "roll", "player": "red", "player": "blue", "count": 1}', "input/duplicate_key"),
        ("   ", "input/empty_command"),
        ('{"type": "roll", "player": "red", "count": NaN}', "input/bad_json"),
        ("[" * 100_000, "input/bad_json"),
        ('{"type": "roll", "player": "red", "count": ' + "9" * 5000 + "}", "input/bad_json"),
    ],
    ids=["duplicate-key", "empty", "nan", "deep", "huge-number"],
)
def test_a_bad_command_is_one_short_line_exit_1_and_appends_nothing(
    db: Path, tmp_path: Path, text: str, code: str
) -> None:
    game = race(db, tmp_path)
    before = run(db, "head", game)[1]
    status, out, err = run(db, "play", game, text)
    assert status == 1 and out == ""
    assert len(one_line(err, code)) < 240  # a short prefix of what it quotes, never all of it
    assert run(db, "head", game)[1] == before


def test_stdin_with_no_command_is_an_error_not_a_silent_no_op(db: Path, tmp_path: Path) -> None:
    game = race(db, tmp_path)
    status, _, err = run(db, "play", game, "-", input="\n\n")
    assert status == 1
    one_line(err, "input/empty_command")


@pytest.mark.parametrize(
    ("content", "what"),
    [(b"\xff\xfe not utf-8", "not UTF-8"), (b"a = " + b"[" * 5000, "")],
    ids=["not-utf8", "nested"],
)
def test_a_scenario_that_is_not_text_or_nests_too_deeply_is_a_bad_scenario(
    db: Path, tmp_path: Path, content: bytes, what: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(content)
    status, _, err = run(db, "new", "battle-for-armageddon", "--scenario", str(path))
    assert status == 1
    assert what in one_line(err, "input/bad_scenario")


def test_a_scenario_needing_a_die_of_more_than_256_sides_is_refused_up_front(
    db: Path, tmp_path: Path
) -> None:
    """Given an Imperial special-card deck of 300 (a draw would need a d300, which the dice
    contract does not define: it once hung `play`), then `new` refuses the scenario."""
    bundled = rulesets.bundled_scenario(rulesets.get("battle-for-armageddon"), "second-war")
    assert bundled is not None
    extra = "".join(
        f'\n[[special_cards]]\nid = "ballast-{i}"\nside = "imperials"\nname = "Ballast"\n'
        'effect = "forced_march"\nvalue = 1\ntext = "x"\n'
        for i in range(300)
    )
    path = tmp_path / "huge.toml"
    path.write_text(bundled.decode() + extra)
    status, _, err = run(db, "new", "battle-for-armageddon", "--scenario", str(path))
    assert status == 1
    assert "at most 256 sides" in one_line(err, "input/bad_scenario")


def test_an_argument_is_a_file_only_when_it_looks_like_a_path(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a file named like a game id in the working directory, `audit g1` audits the game;
    and no game id can look like a file."""
    game = race(db, tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / game).write_text("not an export")
    status, out, _ = run(db, "audit", game)
    assert status == 0 and f"audit of {game}" in out
    status, _, err = run(
        db, "new", "dice-race", "--scenario", str(tmp_path / "race.toml"), "--game", "x.jsonl"
    )
    assert status == 1
    one_line(err, "input/bad_game_id")


# ---------------------------------------------------------------------- audit says what it proved


def race_log(reveal: bool = True, dice: str = "auto") -> list[Record]:
    import tempfile

    arb = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: SEED)
    with tempfile.TemporaryDirectory() as tmp:
        scenario = Path(tmp) / "race.toml"
        scenario.write_bytes(SCENARIO)
        game = arb.new_game("dice-race", str(scenario), game="g1", dice=dice)
    typed = {"dice": [3, 4]} if dice == "manual" else {}
    for player in ("red", "blue", "red"):
        arb.play(game, json.dumps({"type": "roll", "player": player, "count": 2, **typed}))
    if reveal:
        arb.reveal(game)
    return list(parse_lines(export_line(r) for r in arb.export_records(game)))


def write(tmp_path: Path, records: list[Record], name: str = "game.jsonl") -> str:
    path = tmp_path / name
    path.write_text("".join(export_line(r) + "\n" for r in records))
    return str(path)


def test_audit_from_past_the_end_is_an_error(db: Path, tmp_path: Path) -> None:
    path = write(tmp_path, race_log())
    status, _, err = run(db, "audit", path, "--from", "999")
    assert status == 1
    one_line(err, "input/bad_seq")


def test_dice_under_a_seed_never_revealed_are_not_verified(db: Path, tmp_path: Path) -> None:
    path = write(tmp_path, race_log(reveal=False))
    status, out, _ = run(db, "audit", path)
    assert status == 0
    assert "3 rolls NOT verified (their seed is not revealed in this log)" in out
    assert "dice verified" not in out


def test_a_referees_typed_dice_are_never_called_verified(db: Path, tmp_path: Path) -> None:
    # given a revealed manual-dice game: the referee typed every roll, no seed derives them
    path = write(tmp_path, race_log(dice="manual"))
    # when it is audited
    status, out, _ = run(db, "audit", path)
    # then it is clean, and the dice line says that no roll was verified and why
    assert status == 0
    assert (
        "  dice: 0 rolls re-derived from a revealed seed; 3 rolls typed by the referee, NOT "
        "verified (no seed derives them)"
    ) in out
    assert "every roll" not in out


def test_a_false_roll_is_counted_apart_never_under_every_roll(db: Path, tmp_path: Path) -> None:
    # given a revealed game whose first roll (seq 3) was forged and the chain made whole again
    rolled = race_log()
    faces = json.loads(rolled[2].data)["faces"]
    path = write(tmp_path, forged(rolled, 3, {"faces": [faces[0] % 6 + 1, faces[1]]}))
    # when it is audited, then the roll is a finding and the dice line counts it apart
    status, out, _ = run(db, "audit", path)
    assert status == 4 and "seq 3 [dice]: the faces are not the ones the seed" in out
    assert "  dice: 2 rolls re-derived from a revealed seed; 1 roll NOT the seed's" in out
    assert "every roll" not in out


def test_an_audit_from_a_seq_says_its_dice_line_covers_only_the_rolls_from_there(
    db: Path, tmp_path: Path
) -> None:
    path = write(tmp_path, race_log())
    status, out, _ = run(db, "audit", path, "--from", "5")
    assert status == 0
    assert "  dice from seq 5: 2 rolls re-derived from a revealed seed" in out
    assert "every roll" not in out
    status, out, _ = run(db, "audit", path)
    assert "  dice verified: every roll re-derived from the revealed seed (3 rolls)" in out


def test_the_verifier_says_whether_dice_were_checked(tmp_path: Path) -> None:
    import subprocess
    import sys

    docs = Path(__file__).resolve().parents[2] / "docs" / "verify.py"
    for reveal, said in ((True, "3 rolls and 0 seals checked"), (False, "not checked: 3 rolls")):
        path = write(tmp_path, race_log(reveal), f"r{reveal}.jsonl")
        out = subprocess.run([sys.executable, str(docs), path], capture_output=True, text=True)
        assert out.returncode == 0 and said in out.stdout


@pytest.mark.parametrize(
    ("forge", "words"),
    [
        (lambda rs: forged(rs, 3, {"sides": 300}), "dice"),
        (lambda rs: forged(rs, 3, {"sides": 0}), "dice"),
        (lambda rs: forged(rs, 1, {"game": "elsewhere"}), "the dice stream is not the game's id"),
    ],
    ids=["die-of-300", "die-of-0", "stream"],
)
def test_a_forged_log_is_a_finding_never_a_hang_or_a_crash(forge, words: str) -> None:  # type: ignore[no-untyped-def]
    findings = audit_records(forge(race_log()), rulesets.get).findings
    assert findings and any(words in f.line() for f in findings)


def test_a_malformed_or_backwards_at_is_a_finding() -> None:
    records = race_log()
    for bad in ("yesterday", "2020-01-01T00:00:00.000Z"):
        out = list(records)
        r = out[4]
        out[4] = Record(r.seq, r.type, r.data, bad, "", "")
        findings = audit_records(rechain(out), rulesets.get).findings
        assert any("'at'" in f.message for f in findings), bad


def test_a_same_dice_fork_that_does_not_show_its_revealed_seed_is_a_finding() -> None:
    arb = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: SEED)
    records = race_log()
    game = arb.import_records(records)
    fork = arb.fork(game, 5, new_game="f", dice="same")
    log = list(parse_lines(export_line(r) for r in arb.export_records(fork)))
    assert audit_records(log, rulesets.get).findings == []
    without_seed = forged(log, 6, {"seed": None})
    findings = audit_records(without_seed, rulesets.get).findings
    assert any("does not show" in f.message for f in findings)


def test_import_runs_the_whole_audit_and_refuses_what_it_cannot_check(
    db: Path, tmp_path: Path
) -> None:
    sealed = write(tmp_path, race_log(reveal=False), "live.jsonl")
    status, _, err = run(db, "import", sealed, "--game", "copy")
    assert status == 0, err  # the toy seals nothing: its rules are checked in full
    rolled = race_log()
    wrong = forged(rolled, 4, {"successes": 3})  # a consequence the rules do not derive
    status, _, err = run(db, "import", write(tmp_path, wrong, "wrong.jsonl"), "--game", "w")
    assert status == 4
    one_line(err, "import/broken_log")


def test_a_live_armageddon_empires_export_imports_only_chain_only(db: Path, tmp_path: Path) -> None:
    arb = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: SEED)
    game = arb.new_game("armageddon-empires", game="ae")
    path = write(tmp_path, list(arb.export_records(game)), "ae.jsonl")
    status, _, err = run(db, "import", path)
    assert status == 4
    assert "--chain-only" in one_line(err, "import/unchecked")
    status, out, err = run(db, "import", path, "--chain-only")
    assert (status, out.strip()) == (0, "ae"), err


# ---------------------------------------------------------------------- forged seals


@pytest.fixture(scope="module")
def sealed_log() -> list[Record]:
    """A revealed Armageddon Empires game: its export opens every seal."""
    from warlog.arbiter.autoplay import autoplay

    arb = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: SEED)
    game = arb.new_game("armageddon-empires", game="ae")
    autoplay(arb, game, 20)
    arb.reveal(game)
    return list(parse_lines(export_line(r) for r in arb.export_records(game)))


def first(records: list[Record], type_: str) -> Record:
    return next(r for r in records if r.type == type_)


def replaced(records: list[Record], record: Record, data: dict[str, object]) -> list[Record]:
    out = [
        Record(r.seq, r.type, json.dumps(data, separators=(",", ":")), r.at, "", "")
        if r.seq == record.seq
        else r
        for r in records
    ]
    return rechain(out)


def test_an_untouched_sealed_log_audits_clean_and_opens_every_seal(
    sealed_log: list[Record],
) -> None:
    auditor = audit_records(sealed_log, rulesets.get)
    assert auditor.findings == []
    assert auditor.proved.seals_opened > 0 and auditor.proved.seals_closed == 0
    assert auditor.proved.salts_verified == auditor.proved.seals_opened


def test_an_opening_with_another_value_does_not_open(sealed_log: list[Record]) -> None:
    drawn = first(sealed_log, "card_dealt")
    data = json.loads(drawn.data)
    data["card"]["value"] = "red.signal-bunker.1"  # a card the seal does not hold
    findings = audit_records(replaced(sealed_log, drawn, data), rulesets.get).findings
    assert any(f.check == "seal" and "does not open" in f.message for f in findings)


def test_a_hidden_value_put_in_the_clear_is_a_finding(sealed_log: list[Record]) -> None:
    drawn = first(sealed_log, "card_dealt")
    data = json.loads(drawn.data)
    data["card"] = data["card"]["value"]  # unsealed, the chain recomputed
    findings = audit_records(replaced(sealed_log, drawn, data), rulesets.get).findings
    assert any("card is in the clear; the rules keep it hidden" in f.message for f in findings)


def test_a_salt_that_the_seed_does_not_derive_is_a_finding(sealed_log: list[Record]) -> None:
    """A forger who re-seals a value under a salt of their choosing (so that the seal opens)
    is caught once the seed is revealed."""
    import hashlib

    drawn = first(sealed_log, "card_dealt")
    data = json.loads(drawn.data)
    salt = "0" * 64
    value = data["card"]["value"]
    data["card"] = {
        "sealed": hashlib.sha256(f"{salt}\n{json.dumps(value)}".encode()).hexdigest(),
        "value": value,
        "salt": salt,
    }
    findings = audit_records(replaced(sealed_log, drawn, data), rulesets.get).findings
    assert any("salt" in f.message and "seed" in f.message for f in findings)


def test_an_error_quoting_a_huge_input_stays_one_short_line(db: Path, tmp_path: Path) -> None:
    status, _, err = run(db, "new", "dice-race", "--scenario", "x" * 100_000)
    assert status == 1
    line = one_line(err, "input/unknown_scenario")
    assert len(line) < 200 and "not a bundled one" in line


def test_a_database_handed_out_without_its_key_file_lists_and_exports_its_games(
    tmp_path: Path,
) -> None:
    """Given a game in play whose database is handed out without its key file, when `games`
    and `export` run on it, then the game is listed (whose move is not told: that needs the
    sealed values) and exported in its public form, whose chain checks, with exit 0 and nothing
    on stderr (no traceback when the process ends)."""
    db = tmp_path / "handed.db"

    def warlog(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "warlog", *args, "--db", str(db)],
            capture_output=True,
            text=True,
            check=False,
        )

    assert warlog("new", "armageddon-empires", "--game", "a1").returncode == 0
    bid = '{"type": "buy_initiative", "player": "red", "count": 1}'
    assert warlog("play", "a1", bid).returncode == 0
    Path(f"{db}.keys").unlink()
    listed = warlog("games")
    assert (listed.returncode, listed.stderr) == (0, "")
    assert "a1" in listed.stdout and "key file" in listed.stdout
    exported = warlog("export", "a1")
    assert (exported.returncode, exported.stderr) == (0, "")
    lines = exported.stdout.splitlines()
    assert len(lines) == 19 and '"sealed"' in exported.stdout
    (tmp_path / "a1.jsonl").write_text(exported.stdout, encoding="utf-8")
    verify = Path(__file__).resolve().parents[2] / "docs" / "verify.py"
    checked = subprocess.run(
        [sys.executable, str(verify), str(tmp_path / "a1.jsonl")], capture_output=True, text=True
    )
    assert checked.returncode == 0 and checked.stdout.startswith("chain intact")


@pytest.mark.parametrize("command", ["play", "reveal"])
def test_a_key_file_whose_seed_is_not_the_one_committed_to_is_refused(
    db: Path, tmp_path: Path, command: str
) -> None:
    """Given a game whose key file holds another seed under the game's commitment (damaged),
    when a command would roll or seal with it (play) or publish it (reveal), then it is refused
    as a corrupt file, exit 1 and one line, and nothing is appended: dice rolled from a wrong
    seed could never be proven fair."""
    import sqlite3

    game = race(db, tmp_path)
    before = run(db, "head", game)[1]
    with sqlite3.connect(f"{db}.keys") as keys:
        keys.execute("UPDATE keys SET seed = ?", (bytes(32),))
    keys.close()
    roll = json.dumps({"type": "roll", "player": "red", "count": 2})
    args = ("reveal", game, "--yes") if command == "reveal" else ("play", game, roll)
    status, out, err = run(db, *args)
    line = one_line(err, "store/corrupt")
    assert (status, out) == (1, "")
    assert "key file" in line and "is not the seed committed to" in line
    assert run(db, "head", game)[1] == before


@pytest.mark.parametrize(
    ("damage", "status", "said"),
    [
        (
            "UPDATE openings SET owners = replace(owners, '\"red\"', '\"blue\"') WHERE seq = 2",
            4,
            "seq 2 [seal]: the key file gives the value at faces to blue; the rules give it to red",
        ),
        (
            "UPDATE openings SET owners = '{}' WHERE seq = 2",
            4,
            "seq 2 [seal]: the key file opens no value for the seal at faces",
        ),
        (
            """UPDATE openings SET owners = '{"faces":"red","bogus":null}' WHERE seq = 2""",
            4,
            "seq 2 [seal]: the key file names bogus, which the rules do not seal",
        ),
        (
            "DELETE FROM openings WHERE seq = 2",
            4,
            "seq 2 [seal]: the key file holds no opening of it: 1 sealed value not opened",
        ),
        (
            "UPDATE openings SET clear = '{not json' WHERE seq = 2",
            4,
            "seq 2 [seal]: the key file's clear form of it is not JSON: 1 sealed value not opened",
        ),
        (
            "UPDATE openings SET owners = 'garbage' WHERE seq = 2",
            1,
            "error[store/corrupt]: the key file",
        ),
    ],
    ids=[
        "owner-swapped",
        "path-dropped",
        "path-added",
        "opening-deleted",
        "clear-not-json",
        "owners-unreadable",
    ],
)
def test_the_arbiters_audit_of_its_key_file_names_each_damage(
    tmp_path: Path, damage: str, status: int, said: str
) -> None:
    """Given an Armageddon Empires game whose key file was damaged at event 2 (red's first dealt
    card is picked by a roll sealed for red), when the arbiter audits the game, then the damage is a finding on
    that event (exit 4) naming what the key file got wrong, and re-derivation stops there for
    that reason (not "the seed is not revealed"); a key file it cannot read is exit 1."""
    import sqlite3

    db = tmp_path / "ae.db"
    assert run(db, "new", "armageddon-empires", "--game", "a1")[0] == 0
    with sqlite3.connect(f"{db}.keys") as keys:
        keys.execute(damage)
    keys.close()
    code, out, err = run(db, "audit", "a1")
    assert code == status, err
    assert said in (out if status == 4 else err)
    if "not opened" in said or "opens no value" in said:
        assert "not checked from seq 2 on (the key file does not open its sealed values" in out


def test_a_revealed_game_handed_out_without_its_key_file_audits_and_exports_sealed(
    tmp_path: Path,
) -> None:
    """Given a revealed game whose database is handed out without its key file (the values the
    seals hold live there), when it is audited and exported, then both work: the export keeps
    every seal closed, and the audit checks the chain and the rolls the log shows, saying that
    the sealed rolls are not verified because their faces stay sealed (not "the seed is not
    revealed": it is)."""
    db = tmp_path / "handed.db"
    assert run(db, "new", "armageddon-empires", "--game", "a1")[0] == 0
    assert run(db, "play", "a1", '{"type": "buy_initiative", "player": "red", "count": 1}')[0] == 0
    assert run(db, "reveal", "a1", "--yes")[0] == 0
    Path(f"{db}.keys").unlink()
    status, out, err = run(db, "audit", "a1")
    assert (status, err) == (0, "")
    assert "rolls NOT verified (their faces stay sealed)" in out
    assert "seed is not revealed" not in out.split("dice:")[1]
    assert "0 of " in out and "still sealed (not checked)" in out
    status, exported, err = run(db, "export", "a1")
    assert (status, err) == (0, "")
    assert '"sealed"' in exported and '"value"' not in exported


@pytest.mark.parametrize("ruleset", ["heroic-battles", "battle-for-armageddon"])
def test_a_game_that_seals_nothing_audits_from_a_database_handed_out_without_its_key_file(
    tmp_path: Path, ruleset: str
) -> None:
    """Given a game in which nothing is sealed yet (Heroic Battles seals nothing; a Battle for
    Armageddon game just created), whose database is handed out without its key file, when it
    is audited, then the rules are re-derived to its end and the audit is clean, exit 0: the
    arbiter's snapshots live in the key file, so there are none to compare (before, the audit
    went on to compare them and failed with store/no_key_file)."""
    db = tmp_path / "handed.db"
    assert run(db, "new", ruleset, "--game", "g1")[0] == 0
    first = run(db, "legal", "g1")[1].splitlines()[0]
    if ruleset == "heroic-battles":
        assert run(db, "play", "g1", first)[0] == 0
    Path(f"{db}.keys").unlink()
    status, out, err = run(db, "audit", "g1")
    assert (status, err) == (0, "")
    assert out.startswith("audit of g1: clean (no findings)")
    assert f"rules: every command from seq 1 re-derived under {ruleset}" in out
    assert "snapshots" not in out
