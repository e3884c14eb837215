"""The key file on the command line: owner-only whoever made it, and a loose one with keys in
it refused in one line, exit 1, with nothing appended."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.cli.command import one_line, run
from tests.files import mode

pytestmark = pytest.mark.usefixtures("umask_022")


def test_an_empty_key_file_made_by_someone_is_owner_only_once_a_game_keeps_its_seed(
    tmp_path: Path,
) -> None:
    """Given ``(umask 022; : > p.db.keys)``, when a game is created in p.db, then the key file
    that now holds its seed is 0600 (it was left 644, readable by everyone)."""
    db, keys = tmp_path / "p.db", tmp_path / "p.db.keys"
    keys.touch()
    assert mode(keys) == 0o644
    status, out, err = run(db, "new", "heroic-battles", "--game", "h1")
    assert (status, out, err) == (0, "h1\n", "")
    assert mode(keys) == 0o600 and keys.stat().st_size > 0


@pytest.mark.parametrize(
    "args",
    [
        ("play", "a1", '{"type": "buy_initiative", "player": "red", "count": 1}'),
        ("state", "a1"),
        ("new", "heroic-battles"),
    ],
    ids=["play", "state", "new"],
)
def test_a_key_file_with_keys_that_others_may_read_is_refused_in_one_line(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """Given an Armageddon Empires game (its hands sealed) whose key file was made readable
    by others (a copy that lost its mode), when the referee plays, reads or creates a game there, then one line names the file, its
    mode and the fix, exit 1, nothing is appended and the file is left as it was; once it is
    owner-only again, play goes on."""
    db, keys = tmp_path / "p.db", tmp_path / "p.db.keys"
    assert run(db, "new", "armageddon-empires", "--game", "a1")[0] == 0
    head = run(db, "head", "a1")[1]
    keys.chmod(0o644)
    status, out, err = run(db, *args)
    assert (status, out) == (1, "")
    assert err == (
        f"error[store/key_file_exposed]: the key file {keys} may be opened by others (mode "
        "644): it holds the games' secret keys, which whoever could read it may know; make it "
        f"owner-only (chmod 600 {keys}) to go on\n"
    )
    assert mode(keys) == 0o644
    assert run(db, "head", "a1")[1] == head  # the log needs no key: nothing was appended
    keys.chmod(0o600)
    assert run(db, "games", "--json")[1].count('"game"') == 1
    assert run(db, *args)[0] == 0


def test_a_key_file_that_lost_a_game_s_key_refuses_to_roll_or_open_and_a_new_fork_plays_on(
    tmp_path: Path,
) -> None:
    """Given an Armageddon Empires game whose key (its seed) was deleted from the key file,
    its openings kept, when the referee plays or reveals, then it is one line naming the game
    and the way on (store/no_seed, exit 1) and nothing is appended; a player's read of the
    events is one line (store/sealed); the audit says why it re-derives nothing; a fork with new
    dice plays on."""
    db, keys = tmp_path / "p.db", tmp_path / "p.db.keys"
    assert run(db, "new", "armageddon-empires", "--game", "a1")[0] == 0
    head = run(db, "head", "a1")[1]
    with sqlite3.connect(keys) as conn:
        assert conn.execute("DELETE FROM keys").rowcount == 1
    conn.close()
    buy = '{"type": "buy_initiative", "player": "red", "count": 0}'
    for args in (("play", "a1", buy), ("reveal", "a1")):
        status, out, err = run(db, *args)
        assert (status, out) == (1, "")
        assert one_line(err, "store/no_seed").endswith(
            "this arbiter does not hold the key of game a1 (imported, or its key file is "
            "another's); fork it with --dice new to play on"
        )
    status, _, err = run(db, "events", "a1", "--as", "red")
    assert status == 1
    assert one_line(err, "store/sealed").endswith(
        "the key file cannot open event 1: its sealed values stay sealed"
    )
    assert run(db, "head", "a1")[1] == head
    # the audit checks the chain and says why it re-derives nothing (exit 0: no finding)
    status, out, _ = run(db, "audit", "a1")
    assert status == 0
    assert (
        "  rules: 0 batches re-derived; not checked from seq 1 on (its sealed values are not "
        "opened here: the seed that sealed them is not revealed, and no key file holding its key "
        "was at hand)"
    ) in out.splitlines()
    status, fork, _ = run(db, "fork", "a1", "--at", head.split()[0], "--dice", "new")
    assert status == 0
    assert run(db, "play", fork.strip(), buy)[0] == 0


def _garbage(keys: Path) -> None:
    keys.write_bytes(bytes(range(256)) * 20)


def _foreign_meta(keys: Path) -> None:
    with sqlite3.connect(keys) as conn:
        conn.execute("CREATE TABLE meta (id INTEGER, name TEXT)")
    conn.close()


@pytest.mark.parametrize(
    ("spoil", "code", "said"),
    [
        (_garbage, "store/corrupt", "is not a warlog key file (file is not a database)"),
        (_foreign_meta, "store/not_warlog", "is not a warlog key file"),
    ],
    ids=["garbage", "foreign-meta"],
)
def test_a_key_file_replaced_by_another_file_is_refused_in_one_line_and_nothing_appended(
    tmp_path: Path, spoil: Any, code: str, said: str
) -> None:
    """Given a game whose key file was replaced (owner-only) by bytes that are no database,
    or by another application's SQLite file, when the referee plays or reads, then one line
    names the key file (exit 1), and nothing is appended."""
    db, keys = tmp_path / "p.db", tmp_path / "p.db.keys"
    assert run(db, "new", "armageddon-empires", "--game", "a1")[0] == 0
    head = run(db, "head", "a1")[1]
    keys.unlink()
    spoil(keys)
    keys.chmod(0o600)
    for args in (
        ("play", "a1", '{"type": "buy_initiative", "player": "red", "count": 1}'),
        ("state", "a1"),
    ):
        status, out, err = run(db, *args)
        assert (status, out) == (1, "")
        assert one_line(err, code) == f"error[{code}]: {keys} {said}"
    assert run(db, "head", "a1")[1] == head


#: the key file's opening of event 3 (a card dealt to red, its card sealed), damaged
DAMAGED_OPENINGS = [
    ("{", "the key file's clear form of it is not JSON: 1 sealed value not opened"),
    ('{"empire": "red"}', "the key file holds no value for the seal at card"),
]


@pytest.mark.parametrize(
    ("clear", "finding"), DAMAGED_OPENINGS, ids=["not-json", "without-the-card"]
)
def test_an_audit_names_a_key_file_opening_that_does_not_open_its_event(
    tmp_path: Path, clear: str, finding: str
) -> None:
    """Given a game whose key file's clear form of event 3 was damaged into text that is no
    JSON, or into an object without the sealed card, when the referee audits it, then the
    seal at event 3 is a finding (exit 4), its value counted still sealed, the rules not
    re-derived from there, and nothing is appended."""
    db, keys = tmp_path / "p.db", tmp_path / "p.db.keys"
    assert run(db, "new", "armageddon-empires", "--game", "a1")[0] == 0
    head = run(db, "head", "a1")[1]
    with sqlite3.connect(keys) as conn:
        conn.execute("UPDATE openings SET clear = ? WHERE game = 'a1' AND seq = 3", (clear,))
    conn.close()
    status, out, err = run(db, "audit", "a1")
    assert (status, err) == (4, "")
    lines = out.splitlines()
    assert lines[:2] == ["audit of a1: 1 finding in 17 events", f"  seq 3 [seal]: {finding}"]
    assert lines[-1].endswith("1 still sealed (not checked)")
    assert "not checked from seq 3 on" in lines[3]
    assert run(db, "head", "a1")[1] == head
