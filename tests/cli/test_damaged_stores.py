"""A damaged key file or database, its damage made with sqlite3 (or psql) the way a careless
hand or a bad disk would: every command that meets it says so in one line naming what is
damaged, store/corrupt, exit 1 (never warlog's own bug, never a traceback), and nothing is
appended."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.cli.command import one_line, run
from tests.postgres_cluster import Cluster

AE_MOVE = '{"type": "buy_initiative", "player": "red", "count": 1}'
HB_MOVE = '{"type": "end_movement", "player": "saxons"}'


def damage(path: Path, *statements: str) -> None:
    """Run ``statements`` on the SQLite file at ``path`` and close it."""
    conn = sqlite3.connect(path)
    with conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()


def refused(db: Path | str, game: str, *args: str) -> str:
    """``warlog ARGS`` on the damaged ``db``: asserted to print nothing, exit 1 with one
    store/corrupt line, and to leave the head of ``game`` as it was; the line."""
    head = run(db, "head", game)
    status, out, err = run(db, *args)
    line = one_line(err, "store/corrupt")
    assert (status, out) == (1, ""), (args, out)
    assert run(db, "head", game) == head
    return line


# -- the key file's snapshot MAC key --------------------------------------------------------


@pytest.fixture
def keyed(tmp_path: Path) -> Path:
    """A database with an Armageddon Empires game (its hands sealed) and a Heroic Battles one."""
    db = tmp_path / "k.db"
    assert run(db, "new", "armageddon-empires", "--game", "a1")[0] == 0
    assert run(db, "new", "heroic-battles", "--game", "h1")[0] == 0
    return db


MAC_KEY_DAMAGE = {
    "not-hex": (
        "UPDATE meta SET value = 'zz' WHERE key = 'snapshot_mac_key'",
        "holds a snapshot_mac_key that is not a key in hex",
    ),
    "empty": (
        "UPDATE meta SET value = '' WHERE key = 'snapshot_mac_key'",
        "holds a snapshot_mac_key that is not a key in hex",
    ),
    "missing": ("DELETE FROM meta WHERE key = 'snapshot_mac_key'", "holds no snapshot_mac_key"),
}
KEY_FILE_READS = [
    ("games",),
    ("state", "a1"),
    ("play", "a1", AE_MOVE),
    ("play", "h1", HB_MOVE),
    ("events", "a1", "--as", "red"),
    ("export", "a1", "--open"),
]


@pytest.mark.parametrize("damaged", MAC_KEY_DAMAGE, ids=list(MAC_KEY_DAMAGE))
@pytest.mark.parametrize("args", KEY_FILE_READS, ids=[" ".join(a[:2]) for a in KEY_FILE_READS])
def test_a_key_file_whose_snapshot_mac_key_is_damaged_is_named_in_one_line(
    keyed: Path, damaged: str, args: tuple[str, ...]
) -> None:
    """Given a key file whose snapshot_mac_key was made non-hex, empty or deleted, when a
    command needs the key file, then one line names the key file and what is wrong with it
    (it was ValueError or KeyError, told as warlog's own bug), and nothing is appended."""
    statement, wrong = MAC_KEY_DAMAGE[damaged]
    damage(Path(f"{keyed}.keys"), statement)
    game = args[1] if len(args) > 1 else "a1"
    line = refused(keyed, game, *args)
    assert line == (
        f"error[store/corrupt]: the key file {keyed}.keys is damaged: its meta table {wrong}; "
        "restore it from a backup"
    )


def test_a_postgresql_vault_whose_snapshot_mac_key_is_damaged_is_named_in_one_line(
    postgres: Cluster,
) -> None:
    """The same damage to a PostgreSQL database's vault_meta: one line naming the vault."""
    db = postgres.new_database()
    assert run(db, "new", "armageddon-empires", "--game", "a1")[0] == 0
    pg_damage(db, "UPDATE vault_meta SET value = 'zz' WHERE key = 'snapshot_mac_key'")
    line = refused(db, "a1", "play", "a1", AE_MOVE)
    assert line.startswith("error[store/corrupt]: the vault of postgresql://")
    assert line.endswith(
        "is damaged: its meta table holds a snapshot_mac_key that is not a key in hex; "
        "restore it from a backup"
    )


def pg_damage(dsn: str, *statements: str) -> None:
    """Run ``statements`` on the PostgreSQL database at ``dsn``."""
    import psycopg

    conn: Any
    with psycopg.connect(dsn, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)
