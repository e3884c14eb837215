"""What an audit says when it cannot check everything, and two gaps a tamper review found: the
salts of a game's hidden set-up left unchecked when the rules stopped, and an empty 'at'."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from msgspec.structs import replace

from tests.forger import forge
from tests.recorded import FIXTURES
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.autoplay import autoplay
from warlog.arbiter.exchange import parse_lines
from warlog.cli.main import cli
from warlog.domain import rulesets
from warlog.eventstore.memory_store import MemoryStore

GOLDEN = FIXTURES / "armageddon-empires" / "ae-golden.jsonl"


Events = list[dict[str, Any]]


def dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def audit(
    tmp_path: Path, edit: Callable[[Events], None], *more: str, source: Path = GOLDEN
) -> tuple[int, list[str]]:
    """``source`` forged by ``edit`` (every opened seal and the chain recomputed after it), then
    audited: the exit code and the report's lines."""
    path = forge(source, tmp_path / "forged.jsonl", edit)
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "w.db"), "audit", str(path), *more])
    return result.exit_code, result.stdout.splitlines()


def first_sealed_roll(events: Events) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "dice_rolled" and "sealed" in dump(e["data"]))


def test_a_revealed_log_with_one_value_closed_again_is_not_called_clean(tmp_path: Path) -> None:
    """Given the revealed golden game's export, when one opened value is closed again (its value
    and salt taken out: the chain is unchanged), then the audit finds nothing but does not call
    the log clean: its headline says not everything could be checked, and the rules line says
    why they stopped there: the value is sealed though its seed is revealed."""
    closed: list[dict[str, Any]] = []

    def close_one(events: Events) -> None:
        closed.append(first_sealed_roll(events))
        del closed[0]["data"]["faces"]["value"], closed[0]["data"]["faces"]["salt"]

    status, out = audit(tmp_path, close_one)
    roll = closed[0]
    assert status == 0
    assert out[0].endswith(
        ": no findings in 3215 events, but NOT everything could be checked (below)"
    )
    rules = next(x for x in out if x.startswith("  rules:"))
    assert f"not checked from seq {roll['seq']} on" in rules
    assert "though the seed that sealed it is revealed at seq 3215" in rules
    # nor does it say that every roll was derived again from the revealed seed
    records = list(parse_lines((tmp_path / "forged.jsonl").read_text().splitlines()))
    auditor = audit_records(records, rulesets.get)
    assert auditor.proved.dice_sealed == 1 and not auditor.revealed


def test_the_hidden_set_up_s_salts_are_checked_when_the_rules_stopped_in_the_opening(
    tmp_path: Path,
) -> None:
    """Given the same log with a value of the opening closed again (the rules stop at once),
    when a forger also replaces blue's hidden deck with a salt of its own and re-hashes the chain,
    then the salt is found not to be the one the revealed seed derives."""

    def forge_the_deck(events: Events) -> None:
        faces = first_sealed_roll(events)["data"]["faces"]
        del faces["value"], faces["salt"]
        deck = events[0]["data"]["scenario"]["empires"][0]["deck"]
        deck["value"], deck["salt"] = ["sunbreaker"] * len(deck["value"]), "11" * 32

    status, out = audit(tmp_path, forge_the_deck)
    assert status == 4
    assert out[1] == (
        "  seq 1 [seal]: the salt of scenario.empires.0.deck is not the one the seed revealed "
        "at seq 3215 derives"
    )


def test_an_empty_at_is_not_a_time(tmp_path: Path) -> None:
    """Given the golden log with every 'at' emptied and the chain re-hashed, then the audit
    finds the first event's time malformed (an empty 'at' had passed as the batch's time)."""

    def empty_times(events: Events) -> None:
        for e in events:
            e["at"] = ""

    status, out = audit(tmp_path, empty_times)
    assert status == 4
    assert "  seq 1 [sequence]: 'at' '' is not a UTC time as warlog writes it" in out


def test_a_damaged_clear_form_in_the_key_file_is_one_line_and_audit_names_it(
    tmp_path: Path,
) -> None:
    """Given Battle for Armageddon's golden game imported (its key file holds the clear form of
    every sealed event), when a draw's clear form there names a card no deck holds, then every
    read that folds the game (state, events, replay) says in one line, exit 1, that event 5 does
    not fold, and the audit names seq 5's seal as not opening (exit 4)."""
    db = tmp_path / "w.db"

    def run(*args: str) -> tuple[int, str, str]:
        result = CliRunner().invoke(cli, ["--db", str(db), *args])
        return result.exit_code, result.stdout, result.stderr

    golden = FIXTURES / "battle-for-armageddon" / "bfa-golden.jsonl"
    assert run("import", str(golden))[0] == 0
    with sqlite3.connect(f"{db}.keys") as keys:
        keys.execute(
            'UPDATE openings SET clear = replace(clear, \'"card":"\', \'"card":"x\') WHERE seq = 5'
        )
    for read in ("state", "events", "replay"):
        status, _, err = run(read, "bfa-golden")
        assert status == 1
        assert err.startswith("error[store/corrupt]: event 5 does not fold into the game's state")
        assert "list.remove" not in err  # the exception's text stays out (it may quote a value)
        assert err.count("\n") == 1
    status, out, _ = run("audit", "bfa-golden")
    assert status == 4
    assert (
        "  seq 5 [seal]: the seal at card does not open: the value and salt do not hash to the seal"
        in out
    )


def test_dice_that_do_not_match_the_rules_are_named_at_the_roll(tmp_path: Path) -> None:
    """Given Battle for Armageddon's golden game with the die of the combat at seq 51 made a d7
    and the chain re-hashed, then the audit names seq 51, the roll, not the command at seq 49."""

    def a_d7(events: Events) -> None:
        assert (events[50]["seq"], events[50]["type"]) == (51, "dice_rolled")
        events[50]["data"]["sides"] = 7

    status, out = audit(
        tmp_path, a_d7, source=FIXTURES / "battle-for-armageddon" / "bfa-golden.jsonl"
    )
    assert status == 4
    assert out[1] == (
        "  seq 51 [rules]: the dice do not match the rules: the rules roll 1 d6 where the log "
        "records 1 d7"
    )


def test_an_audit_from_a_seq_is_called_clean_from_that_seq(tmp_path: Path) -> None:
    """Given the revealed golden game, when it is audited from seq 300, then it is clean from
    seq 300 (the chain whole, the rest from there), and --json says the audit was complete."""
    status, out = audit(tmp_path, lambda events: None, "--from", "300")
    assert status == 0
    assert out[0].endswith(": clean from seq 300 (no findings) in 3215 events")
    path = tmp_path / "forged.jsonl"
    result = CliRunner().invoke(
        cli, ["--db", str(tmp_path / "w.db"), "audit", str(path), "--json", "--from", "300"]
    )
    payload = json.loads(result.stdout)
    assert (payload["complete"], payload["from"]) == (True, 300)


def test_a_live_game_is_not_called_clean_and_says_which_salts_wait_for_the_reveal(
    tmp_path: Path,
) -> None:
    """Given a new Armageddon Empires game (its hands dealt and sealed, the seed not revealed),
    when the arbiter audits it, then it finds nothing but does not call it clean: the salts of
    its opened values are not checked against a seed yet, and --json says it is not complete;
    after the reveal it is clean."""
    db = str(tmp_path / "w.db")
    runner = CliRunner()
    assert (
        runner.invoke(cli, ["--db", db, "new", "armageddon-empires", "--game", "a1"]).exit_code == 0
    )
    result = runner.invoke(cli, ["--db", db, "audit", "a1"])
    assert result.exit_code == 0
    out = result.stdout.splitlines()
    assert (
        out[0]
        == "audit of a1: no findings in 17 events, but NOT everything could be checked (below)"
    )
    assert "salts NOT checked against a seed (their seed is not revealed in this log)" in out[-2]
    payload = json.loads(runner.invoke(cli, ["--db", db, "audit", "a1", "--json"]).stdout)
    assert payload["complete"] is False
    assert runner.invoke(cli, ["--db", db, "reveal", "a1", "--yes"]).exit_code == 0
    assert runner.invoke(cli, ["--db", db, "audit", "a1"]).stdout.startswith(
        "audit of a1: clean (no findings)"
    )


def test_the_arbiters_audit_compares_its_snapshots_with_the_log(tmp_path: Path) -> None:
    """Given a Battle for Armageddon game played 40 commands (snapshots kept as it went), when
    the key file's holder replaces one snapshot with a state one turn later under a valid MAC,
    then `state` at that event shows the forged turn, and the arbiter's audit names the
    snapshot's seq; untouched, every snapshot is compared and found equal."""
    arb = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: bytes(range(32)), snapshot_every=16)
    game = arb.new_game("battle-for-armageddon", game="b1")
    autoplay(arb, game, 40)
    clean = arb.audit(game)
    assert clean.findings == [] and clean.proved.snapshots_checked >= 3
    fresh = Arbiter(arb.store, rulesets.get, vault=arb.vault, snapshot_every=16)
    snapshot = fresh.snapshot(game, arb.head(game)[0])
    assert snapshot is not None and snapshot.seq > 1
    forged = replace(snapshot, state=replace(snapshot.state, turn=snapshot.state.turn + 1))
    fresh.keep_snapshot(game, forged)
    reader = Arbiter(arb.store, rulesets.get, vault=arb.vault, snapshot_every=16)
    assert reader.state(game, snapshot.seq).turn == snapshot.state.turn + 1
    found = reader.audit(game).findings
    assert [(f.seq, f.check) for f in found] == [(snapshot.seq, "snapshot")]


def test_a_referees_open_record_of_a_live_game_is_not_imported_elsewhere(tmp_path: Path) -> None:
    """Given a live Armageddon Empires game exported by the referee with every value opened,
    when it is imported into another database (which has not its seed), then it is refused in
    one line, exit 1, and no game is created: it could be neither read nor played there (its
    events and audit failed, store/sealed); --chain-only imports it with its values sealed, and
    its audit reads it as the public does, though that database has a key file of its own."""
    runner = CliRunner()
    home, other = str(tmp_path / "home.db"), str(tmp_path / "other.db")
    assert (
        runner.invoke(cli, ["--db", home, "new", "armageddon-empires", "--game", "a1"]).exit_code
        == 0
    )
    record = str(tmp_path / "a1-open.jsonl")
    assert runner.invoke(cli, ["--db", home, "export", "a1", "--open", "-o", record]).exit_code == 0
    # the other database has a key file of its own (a game of its own)
    assert (
        runner.invoke(cli, ["--db", other, "new", "heroic-battles", "--game", "h1"]).exit_code == 0
    )
    refused = runner.invoke(cli, ["--db", other, "import", record])
    assert refused.exit_code == 1
    assert refused.stderr.startswith(
        "error[import/unrevealed_values]: event 1 holds values opened under a seed this log "
        "does not reveal"
    )
    assert "a1" not in runner.invoke(cli, ["--db", other, "games"]).stdout
    chained = runner.invoke(cli, ["--db", other, "import", record, "--chain-only"])
    assert chained.exit_code == 0
    audited = runner.invoke(cli, ["--db", other, "audit", "a1"])
    assert audited.exit_code == 0 and "no findings" in audited.stdout.splitlines()[0]


def test_a_snapshot_whose_meta_opens_a_live_seed_is_found(tmp_path: Path) -> None:
    """Given the same game, when the key file's holder rewrites a snapshot with its state
    untouched but the live seed counted as revealed (every later read would open the other
    side's seals to a player), then the audit names that snapshot."""
    arb = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: bytes(range(32)), snapshot_every=16)
    game = arb.new_game("battle-for-armageddon", game="b1")
    autoplay(arb, game, 40)
    snapshot = arb.snapshot(game, arb.head(game)[0])
    assert snapshot is not None
    commitment = snapshot.meta.dice.commitment or ""
    opened = replace(snapshot.meta, opened=(*snapshot.meta.opened, commitment))
    arb.keep_snapshot(game, replace(snapshot, meta=opened))
    reader = Arbiter(arb.store, rulesets.get, vault=arb.vault, snapshot_every=16)
    found = reader.audit(game).findings
    assert [(f.seq, f.check) for f in found] == [(snapshot.seq, "snapshot")]


def test_an_unusable_snapshot_does_not_stop_the_check_of_older_ones(tmp_path: Path) -> None:
    """Given the same game, when the newest snapshot names a hash the log does not hold (reads
    pass it over) and an older one is forged, then the audit still checks the older ones and
    names the forged one."""
    arb = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: bytes(range(32)), snapshot_every=16)
    game = arb.new_game("battle-for-armageddon", game="b1")
    autoplay(arb, game, 40)
    newest = arb.snapshot(game, arb.head(game)[0])
    assert newest is not None
    older = arb.snapshot(game, newest.seq - 1)
    assert older is not None and older.seq > 1
    arb.keep_snapshot(game, replace(older, state=replace(older.state, turn=older.state.turn + 1)))
    arb.keep_snapshot(game, replace(newest, hash="0" * 64))
    reader = Arbiter(arb.store, rulesets.get, vault=arb.vault, snapshot_every=16)
    audited = reader.audit(game)
    assert [(f.seq, f.check) for f in audited.findings] == [(older.seq, "snapshot")]


def test_a_same_dice_fork_imports_elsewhere_with_the_seed_it_shows(tmp_path: Path) -> None:
    """Given Battle for Armageddon's golden game (revealed) imported, forked keeping its dice at
    seq 12 and exported by the referee, when the export is imported into another database, then
    the fork's audit and a player's events read it (the fork shows the kept seed: the import
    keeps it as a key, as it keeps a revealed one)."""
    runner = CliRunner()
    home, other = str(tmp_path / "home.db"), str(tmp_path / "other.db")
    golden = str(FIXTURES / "battle-for-armageddon" / "bfa-golden.jsonl")
    assert runner.invoke(cli, ["--db", home, "import", golden]).exit_code == 0
    fork = ["--db", home, "fork", "bfa-golden", "--at", "12", "--game", "s1", "--dice", "same"]
    assert runner.invoke(cli, fork).exit_code == 0
    record = str(tmp_path / "s1.jsonl")
    assert runner.invoke(cli, ["--db", home, "export", "s1", "--open", "-o", record]).exit_code == 0
    assert runner.invoke(cli, ["--db", other, "import", record, "--game", "s1"]).exit_code == 0
    audited = runner.invoke(cli, ["--db", other, "audit", "s1"])
    assert audited.exit_code == 0 and "no findings" in audited.stdout
    assert runner.invoke(cli, ["--db", other, "events", "s1", "--as", "orks"]).exit_code == 0


def test_a_game_created_row_altered_in_the_database_is_a_finding_not_a_crash(
    tmp_path: Path,
) -> None:
    """Given an imported game whose game_created row has its dice made a string in the
    database, when the arbiter audits it, then the audit reports it (exit 4), no Python error."""
    runner = CliRunner()
    db = str(tmp_path / "w.db")
    golden = str(FIXTURES / "battle-for-armageddon" / "bfa-golden.jsonl")
    assert runner.invoke(cli, ["--db", db, "import", golden]).exit_code == 0
    with sqlite3.connect(db) as conn:
        (data,) = conn.execute("SELECT data FROM events WHERE seq = 1").fetchone()
        altered = json.loads(data)
        altered["dice"] = "x"
        conn.execute("UPDATE events SET data = ? WHERE seq = 1", (dump(altered),))
    audited = runner.invoke(cli, ["--db", db, "audit", "bfa-golden"])
    assert audited.exit_code == 4
    assert "internal/bug" not in audited.stderr


def test_a_chain_only_import_of_a_fork_whose_new_seed_is_not_here_audits_as_the_public(
    tmp_path: Path,
) -> None:
    """Given a database holding game a1's key, and a copy of it in which a1 was forked with new
    dice and played on, when the fork's referee record is imported back with --chain-only, then
    its audit reads it as the public does (the fork's seed is not in this key file: its
    game_forked lies inside the imported log's one segment), exit 0."""
    home, other = tmp_path / "home.db", tmp_path / "other.db"
    runner = CliRunner()
    assert (
        runner.invoke(
            cli, ["--db", str(home), "new", "battle-for-armageddon", "--game", "a1"]
        ).exit_code
        == 0
    )
    for suffix in ("", ".keys"):
        Path(f"{other}{suffix}").write_bytes(Path(f"{home}{suffix}").read_bytes())
        Path(f"{other}{suffix}").chmod(0o600)
    assert (
        runner.invoke(
            cli, ["--db", str(other), "fork", "a1", "--at", "1", "--game", "f1"]
        ).exit_code
        == 0
    )
    legal = runner.invoke(cli, ["--db", str(other), "legal", "f1"]).stdout.splitlines()[0]
    assert runner.invoke(cli, ["--db", str(other), "play", "f1", legal]).exit_code == 0
    record = str(tmp_path / "f1-open.jsonl")
    assert (
        runner.invoke(cli, ["--db", str(other), "export", "f1", "--open", "-o", record]).exit_code
        == 0
    )
    imported = ["--db", str(home), "import", record, "--game", "g1", "--chain-only"]
    imported.append("--despite-live-forks")  # beside a1, still being played, whose key it holds
    assert runner.invoke(cli, imported).exit_code == 0
    audited = runner.invoke(cli, ["--db", str(home), "audit", "g1"])
    assert audited.exit_code == 0 and "no findings" in audited.stdout.splitlines()[0]


def test_the_opening_s_dice_that_do_not_match_the_rules_are_named_at_the_roll(
    tmp_path: Path,
) -> None:
    """Given the golden game with its first deal roll (seq 2, a d22 picking red's first card)
    made a d23 and the chain re-hashed, then the audit's first finding is that roll's, saying
    what the rules roll, not only that a consequence differs."""

    def a_d23(events: Events) -> None:
        assert (events[1]["type"], events[1]["data"]["sides"]) == ("dice_rolled", 22)
        events[1]["data"]["sides"] = 23

    status, out = audit(tmp_path, a_d23)
    assert status == 4
    assert out[1] == (
        "  seq 2 [rules]: the dice do not match the rules: the rules roll 1 d22 where the log "
        "records 1 d23"
    )


def test_a_seal_whose_hash_is_not_a_hash_is_a_finding_not_a_value_left_sealed(
    tmp_path: Path,
) -> None:
    """Given the golden game whose first sealed roll's faces are replaced by {"sealed": "zz"}
    (no hash) and the chain re-hashed, then the audit finds the event unreadable (exit 4): it
    is not counted as a value left sealed, which would only make the audit incomplete."""

    def not_a_hash(events: Events) -> None:
        first_sealed_roll(events)["data"]["faces"] = {"sealed": "zz"}

    status, out = audit(tmp_path, not_a_hash)
    assert status == 4
    assert out[1].startswith("  seq 2 [decode]: bad dice_rolled data: Expected `array`")
