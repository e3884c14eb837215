"""A damaged key file or database, its damage made with sqlite3 (or psql) the way a careless
hand or a bad disk would: every command that meets it says so in one line naming what is
damaged, store/corrupt, exit 1 (never warlog's own bug, never a traceback), and nothing is
appended."""

from __future__ import annotations

import re
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
STREAMING = frozenset({"events", "export", "replay"})


def shows(out: str, seq: int) -> bool:
    """Whether ``out`` (of events, export or replay) shows event ``seq``."""
    return re.search(rf'^\s*{seq}\s|"seq": {seq},', out, re.MULTILINE) is not None


def refused(db: Path | str, game: str, *args: str, at: int = 0) -> str:
    """``warlog ARGS`` on the damaged ``db``: asserted to exit 1 with one store/corrupt line,
    to print nothing (a command that streams the log: none of it from the damaged event
    ``at`` on) and to leave the head of ``game`` as it was; the line."""
    head = run(db, "head", game)
    status, out, err = run(db, *args)
    line = one_line(err, "store/corrupt")
    assert status == 1
    if args[0] in STREAMING and at:
        assert not any(shows(out, seq) for seq in range(at, at + 8)), (args, out)
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
    # the referee's audit names the damage: it audited the sealed form instead, exit 0, and said
    # nothing of why it checked less
    ("audit", "a1"),
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
        "of game a1 does not decode as its event (card_dealt); restore it from a backup"
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


# -- the catalogue and the rows: what the database holds is not what warlog writes ----------


@pytest.fixture
def forked(tmp_path: Path) -> Path:
    """A Heroic Battles game g1 (events 1..4) and its fork f1 at 4 (its own event 5)."""
    db = tmp_path / "f.db"
    assert run(db, "new", "heroic-battles", "--game", "g1")[0] == 0
    assert run(db, "play", "g1", HB_MOVE)[0] == 0
    assert run(db, "fork", "g1", "--at", "4", "--game", "f1")[0] == 0
    return db


GAME_READS = [
    ("games",),
    ("state", "g1"),
    ("audit", "g1"),
    ("explain", "g1", "3"),
    ("log", "g1"),
    ("replay", "g1"),
    ("export", "g1"),
    ("play", "g1", '{"type": "end_shooting", "player": "saxons"}'),
]
IDS = [a[0] for a in GAME_READS]


@pytest.mark.parametrize("args", GAME_READS, ids=IDS)
def test_a_catalogue_row_whose_fork_point_is_not_a_number_is_named(
    forked: Path, args: tuple[str, ...]
) -> None:
    """Given a catalogue row whose fork_at was made 'x', when any command reads the game,
    then one line names the database, the game and the field (it was TypeError, told as
    warlog's own bug, on every command and on `games`), nothing appended."""
    damage(forked, "UPDATE games SET fork_at = 'x' WHERE game = 'g1'")
    assert refused(forked, "f1", *args) == (
        f"error[store/corrupt]: {forked} is damaged: game g1's catalogue row holds fork_at "
        "'x', not an event's seq"
    )


CATALOGUE_DAMAGE = {
    "fork-at-past-the-parent": (
        "UPDATE games SET fork_at = 99 WHERE game = 'f1'",
        "game f1's lineage reads events 1..99 of game g1, whose last event is 4 (a fork_at of "
        "the catalogue is wrong)",
    ),
    "fork-at-zero": (
        "UPDATE games SET fork_at = 0 WHERE game = 'f1'",
        "game f1's catalogue row holds fork_at 0, not an event's seq",
    ),
    "fork-at-without-parent": (
        "UPDATE games SET parent = NULL WHERE game = 'f1'",
        "game f1's catalogue row holds fork_at 4 and no parent",
    ),
    "parent-missing": (
        "DELETE FROM games WHERE game = 'g1'",
        "game f1's lineage names game g1, which is not in the catalogue",
    ),
    "parent-without-events": (
        "DELETE FROM events WHERE game = 'g1'",
        "game f1's lineage reads events 1..4 of game g1, which stores no events (a fork_at of "
        "the catalogue is wrong)",
    ),
    "ruleset-a-blob": (
        "UPDATE games SET ruleset = CAST(ruleset AS BLOB) WHERE game = 'f1'",
        "game f1's catalogue row holds ruleset b'heroic-battles'",
    ),
}
FORK_READS = [("state", "f1"), ("export", "f1"), ("audit", "f1"), ("fork", "f1", "--at", "5")]


@pytest.mark.parametrize("damaged", CATALOGUE_DAMAGE, ids=list(CATALOGUE_DAMAGE))
@pytest.mark.parametrize("args", FORK_READS, ids=[a[0] for a in FORK_READS])
def test_a_forks_catalogue_row_that_does_not_hold_together_is_named(
    forked: Path, damaged: str, args: tuple[str, ...]
) -> None:
    """Given a fork whose catalogue row (or its parent's) was damaged so that its lineage
    does not hold together, when the fork is read, then one line says how (a fork point past
    its parent's last event read the parent's log as the fork's without a word), nothing
    appended."""
    statement, wrong = CATALOGUE_DAMAGE[damaged]
    damage(forked, statement)
    assert refused(forked, "f1", *args) == f"error[store/corrupt]: {forked} is damaged: {wrong}"


@pytest.mark.parametrize("args", GAME_READS, ids=IDS)
def test_a_head_whose_seq_is_not_a_number_is_named(forked: Path, args: tuple[str, ...]) -> None:
    """Given a game whose last row's seq was made 'abc' (SQLite keeps it, as text, which
    sorts after every number), when any command reads the game, then one line says so (it
    was TypeError, told as warlog's own bug), nothing appended."""
    damage(forked, "UPDATE events SET seq = 'abc' WHERE game = 'g1' AND seq = 4")
    status, out, err = run(forked, *args)
    assert (status, out) == (1, "")
    assert one_line(err, "store/corrupt") == (
        f"error[store/corrupt]: {forked} is damaged: game g1's last event has seq 'abc', not a "
        "number"
    )


TEXT_DAMAGE = {
    "data": "UPDATE events SET data = CAST(data AS BLOB) WHERE game = 'g1' AND seq = 3",
    "at": "UPDATE events SET at = CAST(at AS BLOB) WHERE game = 'g1' AND seq = 3",
}
TEXT_READS = {
    "data": [a for a in GAME_READS if a[0] not in ("play",)],
    "at": [("audit", "g1"), ("explain", "g1", "3"), ("replay", "g1"), ("export", "g1")],
}


@pytest.mark.parametrize(
    ("column", "args"),
    [(column, args) for column, reads in TEXT_READS.items() for args in reads],
    ids=[f"{column}-{args[0]}" for column, reads in TEXT_READS.items() for args in reads],
)
def test_a_row_holding_bytes_where_the_log_holds_text_is_named_by_game_and_seq(
    forked: Path, column: str, args: tuple[str, ...]
) -> None:
    """Given event 3 whose data (or at) was rewritten as a BLOB of the same bytes, when a
    command reads it, then one line names the game, the event and the column (it was
    TypeError, told as warlog's own bug, in audit, log and export), nothing appended."""
    damage(forked, TEXT_DAMAGE[column])
    line = refused(forked, "g1", *args, at=3)
    game = "f1" if args == ("games",) else "g1"  # `games` reads f1 first, through g1
    assert line == (
        f"error[store/corrupt]: game {game}, event 3 (phase_ended): the database holds its "
        f"{column} as bytes (a BLOB), not text: the database is damaged"
    )


@pytest.mark.parametrize(
    "statement",
    ["UPDATE games SET fork_at = 99 WHERE game = 'f1'", "UPDATE games SET parent = NULL"],
    ids=["fork-at-past-the-parent", "fork-at-without-parent"],
)
def test_a_postgresql_forks_catalogue_row_that_does_not_hold_together_is_named(
    postgres: Cluster, statement: str
) -> None:
    """PostgreSQL's columns keep their types; a fork point can still be wrong."""
    db = postgres.new_database()
    assert run(db, "new", "heroic-battles", "--game", "g1")[0] == 0
    assert run(db, "play", "g1", HB_MOVE)[0] == 0
    assert run(db, "fork", "g1", "--at", "4", "--game", "f1")[0] == 0
    pg_damage(db, "ALTER TABLE games DROP CONSTRAINT games_parent_fkey", statement)
    for args in [("state", "f1"), ("export", "f1"), ("games",)]:
        line = refused(db, "f1", *args)
        assert line.startswith("error[store/corrupt]: postgresql://") and "game f1's" in line


# -- a row deleted from the middle of the log -----------------------------------------------


def test_explaining_an_event_whose_row_was_deleted_is_a_gap_not_a_stop_iteration(
    forked: Path,
) -> None:
    """Given a game whose row 3 was deleted (a read that folds past it need not notice: the
    audit finds it), when the referee asks to explain event 3, then one line says the log has
    a gap there (it was StopIteration, told as warlog's own bug), nothing appended."""
    damage(forked, "DELETE FROM events WHERE game = 'g1' AND seq = 3")
    assert refused(forked, "g1", "explain", "g1", "3") == (
        "error[store/corrupt]: game g1 has no event 3 (the log has a gap): the database is damaged"
    )
    assert run(forked, "audit", "g1")[0] == 4  # the audit's finding


# -- the key file's other rows and tables ---------------------------------------------------

#: damage to the key file: the statement, what the line says is wrong, the first event that
#: needs what was damaged
KEY_FILE_DAMAGE = {
    "seed-as-text": (
        "UPDATE keys SET seed = 'abc'",
        "the key it holds for commitment {commitment}… is not the seed committed to",
        1,
    ),
    "opening-seq-not-a-number": (
        "UPDATE openings SET seq = 'x' WHERE seq = 3",
        "an opening of game a1 holds seq 'x', not an event's",
        3,
    ),
    "table-dropped": ("DROP TABLE openings", "it has no table openings", 1),
}
SEALED_READS = [
    ("events", "a1", "--as", "red"),
    ("export", "a1", "--open"),
    ("explain", "a1", "3"),
    ("play", "a1", AE_MOVE),
]


# a play starts from a snapshot: it needs no opening of the events before it
DAMAGED_READS = [
    (damaged, args)
    for damaged in KEY_FILE_DAMAGE
    for args in SEALED_READS
    if not (args[0] == "play" and damaged.startswith("opening"))
]


@pytest.mark.parametrize(
    ("damaged", "args"), DAMAGED_READS, ids=[f"{d}-{a[0]}" for d, a in DAMAGED_READS]
)
def test_a_key_files_damaged_seed_opening_or_table_is_named_in_one_line(
    sealed: Path, damaged: str, args: tuple[str, ...]
) -> None:
    """Given a key file whose seed was written as text, an opening's seq as text or a table
    dropped, when a command needs it, then one line names the key file and what is wrong
    (a text seed was TypeError, told as warlog's own bug; a seq, players named unreadably; a
    table, store/unavailable), nothing appended."""
    statement, wrong, at = KEY_FILE_DAMAGE[damaged]
    keys = Path(f"{sealed}.keys")
    conn = sqlite3.connect(keys)
    commitment = conn.execute("SELECT commitment FROM keys").fetchone()[0][:16]
    conn.close()
    damage(keys, statement)
    line = refused(sealed, "a1", *args, at=at)
    assert line == (
        f"error[store/corrupt]: the key file {keys} is damaged: "
        f"{wrong.format(commitment=commitment)}; restore it from a backup"
    )


@pytest.mark.parametrize("column", ["state", "mac"])
def test_a_snapshot_whose_state_or_mac_is_text_is_passed_over(sealed: Path, column: str) -> None:
    """Given a key file whose snapshots' state (or MAC) was written as text, when the game is
    read, then the snapshot is passed over as one whose MAC does not check and the game is
    folded from the log (it was TypeError, told as warlog's own bug, on every command)."""
    before = run(sealed, "state", "a1")
    damage(Path(f"{sealed}.keys"), f"UPDATE snapshots SET {column} = 'abc'")
    assert run(sealed, "state", "a1") == before
    assert run(sealed, "play", "a1", AE_MOVE)[0] == 0
