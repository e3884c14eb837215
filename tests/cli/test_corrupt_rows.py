"""A stored event row that does not decode is a damaged database: outside audit and import
(where an invalid event is a finding, exit 4) it is one line, store/corrupt, exit 1."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from tests.cli.command import one_line, run


def damaged_game(db: Path, ruleset: str, game: str, statement: str) -> Path:
    """A database at ``db`` holding a new game ``game`` of ``ruleset``, damaged by the SQL
    ``statement`` run on it afterwards."""
    assert run(db, "new", ruleset, "--game", game)[0] == 0
    with sqlite3.connect(db) as conn:
        conn.execute(statement)
    conn.close()
    return db


@pytest.fixture
def damaged(tmp_path: Path) -> Path:
    """An Armageddon Empires game whose third row (a card dealt) was damaged into ``{``."""
    statement = "UPDATE events SET data = '{' WHERE game = 'a1' AND seq = 3"
    return damaged_game(tmp_path / "c.db", "armageddon-empires", "a1", statement)


READS = [
    ("state", "a1"),
    ("export", "a1"),
    ("play", "a1", '{"type": "buy_initiative", "player": "red", "count": 1}'),
    ("log", "a1"),
    ("legal", "a1"),
    ("games",),
]


@pytest.mark.parametrize("args", READS, ids=[a[0] for a in READS])
def test_a_row_that_does_not_decode_is_a_corrupt_database_exit_1(
    damaged: Path, args: tuple[str, ...]
) -> None:
    """Given a database whose event 3 no longer decodes, when a command reads the game, then
    it is one line saying the log is damaged, store/corrupt, exit 1 (it was audit's code and
    exit 4, as if an audit had been asked for), and nothing is appended."""
    head = run(damaged, "head", "a1")[1]
    status, out, err = run(damaged, *args)
    line = one_line(err, "store/corrupt")
    assert (status, out) == (1, "")
    assert "card_dealt" in line and "does not decode" in line and "damaged" in line
    assert run(damaged, "head", "a1")[1] == head


@pytest.mark.parametrize("args", READS[:3], ids=[a[0] for a in READS[:3]])
def test_a_row_that_does_not_decode_is_named_by_game_and_seq(
    damaged: Path, args: tuple[str, ...]
) -> None:
    status, _, err = run(damaged, *args)
    assert status == 1
    assert one_line(err, "store/corrupt").startswith(
        "error[store/corrupt]: game a1, event 3 (card_dealt) does not decode "
    )


def test_audit_still_reports_the_row_as_a_finding_exit_4(damaged: Path) -> None:
    status, out, _ = run(damaged, "audit", "a1")
    assert status == 4
    assert "  seq 3 [decode]: bad card_dealt data: Input data was truncated" in out.splitlines()


# -- rows or catalogue entries missing ------------------------------------------------------


@pytest.fixture
def gapped(tmp_path: Path) -> Path:
    """An Armageddon Empires game whose rows 1 and 5 were deleted."""
    statement = "DELETE FROM events WHERE game = 'a1' AND seq IN (1, 5)"
    return damaged_game(tmp_path / "g.db", "armageddon-empires", "a1", statement)


GAPPED = [
    ("state", "a1"),
    ("games",),
    ("legal", "a1"),
    ("replay", "a1"),
    ("fork", "a1", "--at", "3"),
    ("reveal", "a1", "--yes"),
]


@pytest.mark.parametrize("args", GAPPED, ids=[a[0] for a in GAPPED])
def test_a_log_missing_a_row_is_a_corrupt_database_exit_1(
    gapped: Path, args: tuple[str, ...]
) -> None:
    """Given a database whose game lost its rows 1 and 5, when a command reads it, then it is
    one line naming the missing event, store/corrupt, exit 1 (it was a StopIteration, told as
    warlog's own bug)."""
    status, out, err = run(gapped, *args)
    assert (status, out) == (1, "")
    assert one_line(err, "store/corrupt") == (
        "error[store/corrupt]: game a1 has no event 1 (the log has a gap): the database is damaged"
    )


def test_a_catalogue_whose_parents_loop_is_a_corrupt_database_not_a_hang(tmp_path: Path) -> None:
    """Given a game whose catalogue entry names itself as its parent, when the referee reveals
    it, then it is one line, store/corrupt, exit 1 (the walk up the family looped for ever),
    and nothing is appended."""
    db = tmp_path / "l.db"
    assert run(db, "new", "armageddon-empires", "--game", "a1")[0] == 0
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET parent = 'a1' WHERE game = 'a1'")
        head = conn.execute("SELECT max(seq) FROM events").fetchone()[0]
    conn.close()
    answer: list[tuple[int, str, str]] = []
    worker = threading.Thread(target=lambda: answer.append(run(db, "reveal", "a1", "--yes")))
    worker.daemon = True
    worker.start()
    worker.join(timeout=60)
    assert answer, "reveal did not return within 60 s"
    status, out, err = answer[0]
    assert (status, out) == (1, "")
    assert one_line(err, "store/corrupt") == (
        "error[store/corrupt]: game a1's lineage runs in a circle through a1"
    )
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT max(seq) FROM events").fetchone()[0] == head
    conn.close()


@pytest.mark.parametrize("data", ["[]", "{"], ids=["list", "not-json"])
def test_a_first_event_that_is_no_object_is_named_by_games(tmp_path: Path, data: str) -> None:
    """Given a game whose game_created row was damaged into a JSON list, or into text that is
    no JSON, when the games are listed, then it is one line naming the game and its first
    event, exit 1 (the list was an AttributeError told as warlog's own bug)."""
    statement = f"UPDATE events SET data = '{data}' WHERE game = 'h1' AND seq = 1"
    db = damaged_game(tmp_path / "f.db", "heroic-battles", "h1", statement)
    status, out, err = run(db, "games")
    assert (status, out) == (1, "")
    assert one_line(err, "store/corrupt") == (
        "error[store/corrupt]: game h1, event 1 (game_created) does not decode: the database is "
        "damaged"
    )


CREATED_READS = [
    ("replay", "a1"),
    ("export", "a1"),
    ("events", "a1"),
    ("explain", "a1", "2"),
]


@pytest.mark.parametrize("args", CREATED_READS, ids=[a[0] for a in CREATED_READS])
def test_a_game_created_that_does_not_decode_is_a_corrupt_database_where_it_is_read(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """Given a game whose game_created row was damaged into a JSON list, when a command reads
    the log, then it is the read path's one line, store/corrupt, exit 1 (it was audit's code,
    exit 4, as if an audit had been asked for); audit itself reports it as a finding, exit 4."""
    statement = "UPDATE events SET data = '[]' WHERE game = 'a1' AND seq = 1"
    db = damaged_game(tmp_path / "c.db", "armageddon-empires", "a1", statement)
    status, out, err = run(db, *args)
    assert (status, out) == (1, "")
    assert one_line(err, "store/corrupt") == (
        "error[store/corrupt]: event 1 (game_created) does not decode (bad game_created data: "
        "Expected `object`, got `array`): the log is damaged; `warlog audit` lists what is wrong"
    )
    status, out, _ = run(db, "audit", "a1")
    assert status == 4 and "seq 1 [" in out


FIRST_TYPE_EDITED = "UPDATE events SET type = 'card_dealt' WHERE game = 'a1' AND seq = 1"


def test_audit_of_a_log_whose_first_row_is_no_game_created_is_a_finding_exit_4(
    tmp_path: Path,
) -> None:
    """Given a game whose first row's type was edited to card_dealt (its data and hash left),
    when the referee audits it, then the altered log is reported as findings, exit 4."""
    db = damaged_game(tmp_path / "c.db", "armageddon-empires", "a1", FIRST_TYPE_EDITED)
    status, out, err = run(db, "audit", "a1")
    assert (status, err) == (4, "")
    lines = out.splitlines()
    assert (
        "  seq 1 [chain]: hash does not match the event's content (the event was altered)" in lines
    )
    assert "  seq 1 [sequence]: the log must open with game_created, not card_dealt" in lines
    assert (
        "  rules: 0 batches re-derived; not checked from seq 1 on (the log does not open with "
        "game_created)"
    ) in lines


def test_export_of_a_log_whose_first_row_is_no_game_created_is_a_corrupt_database(
    tmp_path: Path,
) -> None:
    """Given the same game, when it is exported, then one line says the log is damaged where
    (its first row holds sealed values with no game_created before it), store/corrupt, exit 1."""
    db = damaged_game(tmp_path / "c.db", "armageddon-empires", "a1", FIRST_TYPE_EDITED)
    status, out, err = run(db, "export", "a1")
    assert (status, out) == (1, "")
    assert one_line(err, "store/corrupt") == (
        "error[store/corrupt]: event 1 (card_dealt) holds sealed values, but no game_created "
        "comes before it: the log is damaged; `warlog audit` lists what is wrong"
    )


# -- a sealed row edited into text that is no JSON ------------------------------------------

#: card_dealt at seq 3 keeps its seal's mark but is no JSON: the fold reads the key file's
#: clear form of it, so only a read that opens the log's own text meets the damage
SEALED_NOT_JSON = """UPDATE events SET data = '{"sealed": ' WHERE game = 'a1' AND seq = 3"""

SEALED_READS = [
    ("events", "a1", "--as", "red"),
    ("events", "a1"),
    ("replay", "a1"),
]


@pytest.mark.parametrize("args", SEALED_READS, ids=["events-as", "events", "replay"])
def test_a_sealed_row_that_is_no_json_is_a_corrupt_database_where_it_is_opened(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """Given a game whose sealed card_dealt (event 3) was edited into text that is no JSON,
    when a read opens its seals for a player or the referee, then it is one line naming the
    game and the event, store/corrupt, exit 1, and nothing is appended."""
    db = damaged_game(tmp_path / "s.db", "armageddon-empires", "a1", SEALED_NOT_JSON)
    head = run(db, "head", "a1")[1]
    status, _, err = run(db, *args)
    assert status == 1
    assert one_line(err, "store/corrupt") == (
        "error[store/corrupt]: game a1, event 3 (card_dealt) does not decode (not JSON): the log "
        "is damaged; `warlog audit` lists what is wrong"
    )
    assert run(db, "head", "a1")[1] == head


def test_export_of_a_sealed_row_that_is_no_json_is_a_corrupt_database(tmp_path: Path) -> None:
    """Given the same game, when it is exported, then one line says event 3 does not decode,
    store/corrupt, exit 1; not a file that `warlog import` refuses at its third line."""
    db = damaged_game(tmp_path / "s.db", "armageddon-empires", "a1", SEALED_NOT_JSON)
    status, out, err = run(db, "export", "a1")
    assert status == 1 and [line[:9] for line in out.splitlines()] == ['{"seq": 1', '{"seq": 2']
    assert one_line(err, "store/corrupt") == (
        "error[store/corrupt]: game a1, event 3 (card_dealt) does not decode (not JSON): the log "
        "is damaged; `warlog audit` lists what is wrong"
    )


@pytest.mark.parametrize("args", [("export", "a1"), ("events", "a1")], ids=["export", "events"])
def test_a_command_row_that_is_no_json_is_a_corrupt_database_where_it_is_read(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """Given a game whose command_issued (event 18, a row the fold never reads) was edited into
    text that is no JSON, when it is exported or listed, then one line names it, store/corrupt,
    exit 1, after the 17 events before it (written out as they are read)."""
    db = tmp_path / "c.db"
    assert run(db, "new", "armageddon-empires", "--game", "a1")[0] == 0
    buy = '{"type": "buy_initiative", "player": "red", "count": 0}'
    assert run(db, "play", "a1", buy)[0] == 0
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE events SET data = '{\"player\": ' WHERE game = 'a1' AND seq = 18")
    conn.close()
    status, out, err = run(db, *args)
    assert (status, len(out.splitlines())) == (1, 17)
    assert one_line(err, "store/corrupt") == (
        "error[store/corrupt]: game a1, event 18 (command_issued) does not decode (not JSON): "
        "the log is damaged; `warlog audit` lists what is wrong"
    )


# -- catalogue rows no store writes ---------------------------------------------------------


def test_a_game_forked_from_itself_is_a_corrupt_database_not_a_hang(tmp_path: Path) -> None:
    """Given a game whose catalogue entry names itself as its parent at event 1, when its
    state is read, then it is one line, store/corrupt, exit 1 (the walk up its lineage would
    loop)."""
    statement = "UPDATE games SET parent = 'a1', fork_at = 1 WHERE game = 'a1'"
    db = damaged_game(tmp_path / "l.db", "armageddon-empires", "a1", statement)
    status, out, err = run(db, "state", "a1")
    assert (status, out) == (1, "")
    assert one_line(err, "store/corrupt") == (
        "error[store/corrupt]: game a1's lineage runs in a circle through a1"
    )


CATALOGUE_EDITS = [
    ("UPDATE games SET game = '' WHERE game = 'a1'", "a game's catalogue row holds a game id ''"),
    (
        "UPDATE games SET parent = '', fork_at = 1 WHERE game = 'a1'",
        "game a1's catalogue row holds parent ''",
    ),
]


@pytest.mark.parametrize(
    ("statement", "wrong"), CATALOGUE_EDITS, ids=["empty-game-id", "empty-parent"]
)
def test_a_catalogue_row_no_store_writes_is_named_when_the_games_are_listed(
    tmp_path: Path, statement: str, wrong: str
) -> None:
    """Given a catalogue row edited to an empty game id, or an empty parent, when the games
    are listed, then one line names the database and what the row holds, store/corrupt,
    exit 1."""
    db = damaged_game(tmp_path / "k.db", "armageddon-empires", "a1", statement)
    status, out, err = run(db, "games")
    assert (status, out) == (1, "")
    assert one_line(err, "store/corrupt") == f"error[store/corrupt]: {db} is damaged: {wrong}"


def test_audit_of_a_sealed_row_that_is_no_json_finds_it_altered_not_the_key_file_shut(
    tmp_path: Path,
) -> None:
    """Given the game whose sealed card_dealt (event 3) is no JSON, when the referee audits
    it, then event 3 is found altered (exit 4), and no seal finding blames the key file,
    which still holds event 3's opening."""
    db = damaged_game(tmp_path / "s.db", "armageddon-empires", "a1", SEALED_NOT_JSON)
    status, out, err = run(db, "audit", "a1")
    assert (status, err) == (4, "")
    lines = out.splitlines()
    assert "  seq 3 [chain]: hash does not match the event's content (the event was altered)" in (
        lines
    )
    assert not [line for line in lines if "[seal]" in line]


def test_audit_of_a_sealed_row_that_is_no_json_reports_it_as_a_decode_finding(
    tmp_path: Path,
) -> None:
    """Given the same game, when audited, then event 3 is a decode finding as an unsealed row
    that is no JSON is, and the rules stop there because an event could not be read."""
    db = damaged_game(tmp_path / "s.db", "armageddon-empires", "a1", SEALED_NOT_JSON)
    status, out, _ = run(db, "audit", "a1")
    assert status == 4
    lines = out.splitlines()
    assert "  seq 3 [decode]: bad card_dealt data: Input data was truncated" in lines
    assert (
        "  rules: 0 batches re-derived; not checked from seq 3 on (an event could not be read)"
        in (lines)
    )


def test_audit_of_a_revealed_game_whose_dice_revealed_does_not_decode_finds_it(
    tmp_path: Path,
) -> None:
    """Given a revealed game whose dice_revealed row (event 18) was damaged into ``{``, when
    the referee audits it, then event 18 is found altered and undecodable (exit 4), not a
    store error: the audit reads the log as chained once its lineage does not decode."""
    db = tmp_path / "r.db"
    assert run(db, "new", "armageddon-empires", "--game", "a1")[0] == 0
    assert run(db, "reveal", "a1", "--yes")[0] == 0
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE events SET data = '{' WHERE game = 'a1' AND type = 'dice_revealed'")
    conn.close()
    status, out, err = run(db, "audit", "a1")
    assert (status, err) == (4, "")
    assert out.splitlines()[:3] == [
        "audit of a1: 2 findings in 18 events",
        "  seq 18 [chain]: hash does not match the event's content (the event was altered)",
        "  seq 18 [decode]: bad dice_revealed data: Input data was truncated",
    ]
    # and it says why nothing was re-derived: the lineage, not a missing key file
    assert (
        "  rules: 0 batches re-derived; not checked from seq 1 on (its sealed values are read as "
        "stored, none opened: the log's lineage (game_created, game_forked, dice_revealed) is "
        "damaged, findings above, so which key opens what is not known)"
    ) in out.splitlines()


def test_audit_of_a_game_created_stored_as_bytes_names_the_game_it_creates(
    tmp_path: Path,
) -> None:
    """Given a game whose game_created row holds its data as a BLOB, when the referee audits
    it, then one line names the game (read from those bytes) and the event, store/corrupt,
    exit 1: the database is damaged, which no export of a log can be."""
    statement = "UPDATE events SET data = CAST(data AS BLOB) WHERE game = 'a1' AND seq = 1"
    db = damaged_game(tmp_path / "b.db", "armageddon-empires", "a1", statement)
    status, out, err = run(db, "audit", "a1")
    assert (status, out) == (1, "")
    assert one_line(err, "store/corrupt") == (
        "error[store/corrupt]: game a1, event 1 (game_created): the database holds its data as "
        "bytes (a BLOB), not text: the database is damaged"
    )


BYTES_READS = [("events", "a1"), ("export", "a1"), ("replay", "a1"), ("explain", "a1", "3")]


@pytest.mark.parametrize("args", BYTES_READS, ids=[a[0] for a in BYTES_READS])
def test_a_game_created_stored_as_bytes_is_a_corrupt_database_where_the_log_is_read(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """Given the game whose game_created row holds its data as a BLOB, when a command reads
    its log, then the same one line names the game and the event, store/corrupt, exit 1."""
    statement = "UPDATE events SET data = CAST(data AS BLOB) WHERE game = 'a1' AND seq = 1"
    db = damaged_game(tmp_path / "b.db", "armageddon-empires", "a1", statement)
    status, out, err = run(db, *args)
    assert (status, out) == (1, "")
    assert one_line(err, "store/corrupt") == (
        "error[store/corrupt]: game a1, event 1 (game_created): the database holds its data as "
        "bytes (a BLOB), not text: the database is damaged"
    )


def test_audit_of_a_game_created_whose_commitment_was_removed_finds_it_altered(
    tmp_path: Path,
) -> None:
    """Given a game whose game_created row lost its dice commitment (an edited log), when the
    referee audits it, then event 1 is found altered, exit 4, as in the audit of its export;
    not a line blaming the key file, which holds the game's key."""
    statement = (
        "UPDATE events SET data = json_remove(data, '$.dice.commitment') "
        "WHERE game = 'a1' AND seq = 1"
    )
    db = damaged_game(tmp_path / "c.db", "armageddon-empires", "a1", statement)
    status, out, err = run(db, "audit", "a1")
    assert (status, err) == (4, "")
    assert "  seq 1 [chain]: hash does not match the event's content (the event was altered)" in (
        out.splitlines()
    )


#: the first row edited into a dice_revealed that decodes (a lineage event, not game_created)
FIRST_ROW_A_REVEAL = (
    """UPDATE events SET type = 'dice_revealed', data = '{"seed":"00"}' """
    "WHERE game = 'a1' AND seq = 1"
)


def test_a_log_opening_with_a_reveal_is_a_corrupt_database_where_the_state_is_read(
    tmp_path: Path,
) -> None:
    """Given a game whose first row was edited into a dice_revealed and whose key file lost
    its snapshots (nothing to start from but the log), when its state is read, then one line
    says the game has no game_created, store/corrupt, exit 1."""
    db = damaged_game(tmp_path / "c.db", "armageddon-empires", "a1", FIRST_ROW_A_REVEAL)
    with sqlite3.connect(f"{db}.keys") as conn:
        conn.execute("DELETE FROM snapshots")
    conn.close()
    status, out, err = run(db, "state", "a1")
    assert (status, out) == (1, "")
    assert one_line(err, "store/corrupt") == (
        "error[store/corrupt]: the game has no game_created event"
    )


def test_the_events_view_of_a_log_opening_with_a_reveal_is_a_corrupt_database(
    tmp_path: Path,
) -> None:
    """Given a game whose first row was edited into a dice_revealed, when its Events view is
    read, then one line, store/corrupt, exit 1; not warlog's own bug."""
    db = damaged_game(tmp_path / "c.db", "armageddon-empires", "a1", FIRST_ROW_A_REVEAL)
    status, out, err = run(db, "log", "a1")
    assert (status, out) == (1, "")
    assert one_line(err, "store/corrupt") == (
        "error[store/corrupt]: event 3 (card_dealt) comes before the log's game_created: the log "
        "is damaged; `warlog audit` lists what is wrong"
    )


def test_audit_without_the_key_file_of_a_sealed_row_that_is_no_json_finds_it_altered(
    tmp_path: Path,
) -> None:
    """Given the game whose sealed card_dealt (event 3) is no JSON, its key file gone, when
    the referee audits it, then event 3 is found altered and undecodable (exit 4), and its
    seal is not counted among the sealed values the log holds."""
    db = damaged_game(tmp_path / "s.db", "armageddon-empires", "a1", SEALED_NOT_JSON)
    Path(f"{db}.keys").unlink()
    status, out, err = run(db, "audit", "a1")
    assert (status, err) == (4, "")
    lines = out.splitlines()
    assert lines[:3] == [
        "audit of a1: 2 findings in 17 events",
        "  seq 3 [chain]: hash does not match the event's content (the event was altered)",
        "  seq 3 [decode]: bad card_dealt data: Input data was truncated",
    ]
    assert (
        lines[-1]
        == "  seals: 0 of 28 sealed values opened and checked; 28 still sealed (not checked)"
    )
