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


#: the commands that stream the log out as they read it: they stop at the damaged event
STREAMING = frozenset({"events", "export"})


def refused(db: Path | str, game: str, *args: str, at: int = 0) -> str:
    """``warlog ARGS`` on the damaged ``db``: asserted to exit 1 with one store/corrupt line,
    to print nothing (a command that streams the log: none of it from the damaged event
    ``at`` on) and to leave the head of ``game`` as it was; the line."""
    head = run(db, "head", game)
    status, out, err = run(db, *args)
    line = one_line(err, "store/corrupt")
    assert status == 1
    if args[0] in STREAMING and at:
        assert len(out.splitlines()) < at, (args, out)
    else:
        assert out == "", (args, out)
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


# -- the key file's openings (the clear forms of sealed events) ---------------------------


@pytest.fixture
def sealed(tmp_path: Path) -> Path:
    """An Armageddon Empires game: event 1 seals the hands and decks, 2 rolls a die, 3 deals
    red a card (sealed)."""
    db = tmp_path / "s.db"
    assert run(db, "new", "armageddon-empires", "--game", "a1")[0] == 0
    return db


def damage_opening(db: Path, seq: int, clear: str) -> None:
    damage(Path(f"{db}.keys"), f"UPDATE openings SET clear = '{clear}' WHERE seq = {seq}")


OPENING_READS = [
    ("events", "a1", "--as", "red"),
    ("explain", "a1", "2"),
    ("export", "a1", "--open"),
    ("log", "a1"),
    ("replay", "a1"),
]


@pytest.mark.parametrize("args", OPENING_READS, ids=[a[0] for a in OPENING_READS])
def test_an_opening_that_is_not_json_is_the_key_files_damage_named_by_event(
    sealed: Path, args: tuple[str, ...]
) -> None:
    """Given a key file whose opening of event 2 (a die rolled, its faces sealed) was made
    ``not json``, when a command opens it, then one line names the key file and the event
    (it was JSONDecodeError, told as warlog's own bug, or a line blaming the log), nothing
    appended."""
    damage_opening(sealed, 2, "not json")
    line = refused(sealed, "a1", *args, at=2)
    assert line.startswith(
        f"error[store/corrupt]: the key file {sealed}.keys is damaged: the opening of event 2 "
        "of game a1 "
    )
    assert line.endswith("; restore it from a backup")
    assert "the log is damaged" not in line


def test_after_the_reveal_the_public_export_names_a_damaged_opening(sealed: Path) -> None:
    """Given a revealed game (its export opens every seal) whose opening of event 2 is not
    JSON, when it is exported, then one line names the key file and the event."""
    assert run(sealed, "reveal", "a1", "--yes")[0] == 0
    damage_opening(sealed, 2, "not json")
    assert refused(sealed, "a1", "export", "a1", at=2) == (
        f"error[store/corrupt]: the key file {sealed}.keys is damaged: the opening of event 2 "
        "of game a1 is not JSON; restore it from a backup"
    )


@pytest.mark.parametrize("args", [("export", "a1", "--open"), ("events", "a1", "--as", "red")])
def test_an_opening_without_the_sealed_values_is_named_not_a_key_error(
    sealed: Path, args: tuple[str, ...]
) -> None:
    """Given a key file whose opening of ``game_created`` was made ``{}`` (no scenario to open
    the sealed hands from), when the log is read opened, then one line names the key file and
    the event (it was KeyError 'scenario', told as warlog's own bug)."""
    damage_opening(sealed, 1, "{}")
    assert refused(sealed, "a1", *args) == (
        f"error[store/corrupt]: the key file {sealed}.keys is damaged: the opening of event 1 "
        "of game a1 does not fit the event (a value missing, or a seal the event does not "
        "hold); restore it from a backup"
    )


@pytest.mark.parametrize("args", [("log", "a1"), ("replay", "a1"), ("state", "a1", "--at", "3")])
def test_an_opening_that_is_no_valid_event_blames_the_key_file_and_quotes_nothing(
    sealed: Path, args: tuple[str, ...]
) -> None:
    """Given a key file whose opening of event 3 (the card dealt to red) holds a number for
    the card, when the game is folded, then one line names the key file and the event, not
    the log (which is whole), and says nothing of the value (which is sealed from others)."""
    damage_opening(sealed, 3, '{"empire":"red","card":5,"deck_left":21}')
    assert refused(sealed, "a1", *args) == (
        f"error[store/corrupt]: the key file {sealed}.keys is damaged: the opening of event 3 "
        "of game a1 does not decode as a card_dealt event; restore it from a backup"
    )


def test_the_server_answers_a_damaged_opening_with_503_not_500(tmp_path: Path) -> None:
    """Given a game created through the server whose opening of event 2 is then damaged, when
    a player asks for the events, then the answer is 503 with the key file's one line (it was
    500, warlog's own bug)."""
    from litestar.testing import TestClient

    from tests.server.conftest import assert_error, new_game, open_app

    db = tmp_path / "w.db"
    with TestClient(open_app(db)) as client:
        game = new_game(client, "armageddon-empires")
        damage_opening(db, 2, "not json")
        response = client.get(f"/games/{game.id}/events", headers=game.as_(game.players[0]))
        error = assert_error(response, 503, "store/corrupt")
    assert error["message"] == (
        f"the key file {db}.keys is damaged: the opening of event 2 of game {game.id} is not "
        "JSON; restore it from a backup"
    )


def test_a_postgresql_vaults_damaged_opening_is_named_in_one_line(postgres: Cluster) -> None:
    db = postgres.new_database()
    assert run(db, "new", "armageddon-empires", "--game", "a1")[0] == 0
    pg_damage(db, "UPDATE vault_openings SET clear = 'not json' WHERE seq = 2")
    for args in [("export", "a1", "--open"), ("log", "a1")]:
        line = refused(db, "a1", *args, at=2)
        assert line.startswith("error[store/corrupt]: the vault of postgresql://")
        assert "is damaged: the opening of event 2 of game a1 " in line
