"""A row deleted from the middle of the database, met by the reads that start from a snapshot and
skip the rows that change no state (state, legal, play, and the server's state and commands):
each names the first missing row in the one line the reads of every row give (store/corrupt,
exit 1; the server's 503), appends nothing, and a read that ends before the gap still answers."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.command import one_line, run, succeeded
from tests.postgres_cluster import Cluster

RED_BUYS = '{"type": "buy_initiative", "player": "red", "count": 1}'
BLUE_BUYS = '{"type": "buy_initiative", "player": "blue", "count": 0}'
BLUE_DRAWS = '{"type": "draw_card", "player": "blue"}'

#: the rows of game a1 (``template``) deleted in turn, by what each is: all after the only
#: snapshot (event 1), so every read of the state past them folds over the gap
A1_ROWS = {"dice_rolled": 22, "command_issued": 20, "initiative_dice_bought": 21}
#: rows of a1 inside the part of it that fork f1 (cut at 19) reads, the fork point last
F1_ROWS = {"dice_rolled": 8, "command_issued": 18, "initiative_dice_bought": 19}


def gap_line(game: str, seq: int) -> str:
    return (
        f"error[store/corrupt]: game {game} has no event {seq} (the log has a gap): the database "
        "is damaged"
    )


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An Armageddon Empires game a1: its set-up (events 1..17, the cards dealt on dice_rolled),
    red's purchase of initiative dice (18 command_issued, 19 initiative_dice_bought), blue's
    (20 command_issued, 21 bought, 22.. the initiative rolled, 36 blue's turn begun; head
    37); and f1, its fork at 19 (its own event 20)."""
    db = tmp_path_factory.mktemp("gapped") / "w.db"
    succeeded(db, "new", "armageddon-empires", "--game", "a1")
    succeeded(db, "play", "a1", RED_BUYS)
    succeeded(db, "play", "a1", BLUE_BUYS)
    succeeded(db, "fork", "a1", "--at", "19", "--game", "f1")
    return db


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    """A copy of the template's database and key file."""
    copy = tmp_path / "w.db"
    shutil.copy(template, copy)
    shutil.copy(f"{template}.keys", f"{copy}.keys")
    return copy


def delete(db: Path, game: str, seq: int) -> None:
    conn = sqlite3.connect(db)
    with conn:
        assert (
            conn.execute("DELETE FROM events WHERE game = ? AND seq = ?", (game, seq)).rowcount == 1
        )
    conn.close()


def refused(db: Path | str, game: str, *args: str) -> str:
    """``warlog ARGS`` on the damaged ``db``: asserted to exit 1 with one store/corrupt line,
    nothing on stdout, the head of ``game`` as it was; the line."""
    head = succeeded(db, "head", game)
    status, out, err = run(db, *args)
    line = one_line(err, "store/corrupt")
    assert (status, out) == (1, "")
    assert succeeded(db, "head", game) == head
    return line


@pytest.mark.parametrize("kind", A1_ROWS)
def test_state_legal_and_play_name_a_row_deleted_after_the_snapshot_they_start_from(
    db: Path, kind: str
) -> None:
    """Given game a1 whose row 20, 21 or 22 (a command, a state change, a roll; after its only
    snapshot, at event 1) was deleted from the database, when its state now or after event 30
    is asked for, its legal commands, or blue's next command is played, then each is one line
    naming that missing event (store/corrupt, exit 1; the state was the board without it,
    exit 0) and play appends nothing."""
    seq = A1_ROWS[kind]
    delete(db, "a1", seq)
    for args in [
        ("state", "a1"),
        ("state", "a1", "--at", "30"),
        ("legal", "a1"),
        ("play", "a1", BLUE_DRAWS),
    ]:
        assert refused(db, "a1", *args) == gap_line("a1", seq), args


@pytest.mark.parametrize("kind", A1_ROWS)
def test_the_state_before_a_deleted_row_is_still_told(template: Path, db: Path, kind: str) -> None:
    """Given game a1 whose row 20, 21 or 22 was deleted, when its state after event 19 is asked
    for, then it is the state after event 19 of the whole log (a clean prefix), exit 0."""
    before = succeeded(template, "state", "a1", "--at", "19")
    delete(db, "a1", A1_ROWS[kind])
    assert succeeded(db, "state", "a1", "--at", "19") == before


@pytest.mark.parametrize("kind", F1_ROWS)
def test_a_forks_reads_name_a_row_deleted_from_its_parents_part(db: Path, kind: str) -> None:
    """Given fork f1 of a1 at event 19 whose parent's row 8, 18 or 19 (a roll, a command, the
    fork point: events f1 reads through a1) was deleted, when f1's state, its legal commands
    or blue's purchase in it are asked for, then each is one line naming f1's missing event
    (store/corrupt, exit 1), and nothing is appended."""
    seq = F1_ROWS[kind]
    delete(db, "a1", seq)
    for args in [("state", "f1"), ("legal", "f1"), ("play", "f1", BLUE_BUYS)]:
        assert refused(db, "f1", *args) == gap_line("f1", seq), args


def test_a_postgresql_games_state_legal_and_play_name_a_deleted_row(postgres: Cluster) -> None:
    """The same in a PostgreSQL database: a1's command row 20 deleted, state, legal and play
    name it (store/corrupt, exit 1), nothing appended; the state after 19 is still told."""
    import psycopg

    dsn = postgres.new_database()
    succeeded(dsn, "new", "armageddon-empires", "--game", "a1")
    succeeded(dsn, "play", "a1", RED_BUYS)
    succeeded(dsn, "play", "a1", BLUE_BUYS)
    before = succeeded(dsn, "state", "a1", "--at", "19")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("DELETE FROM events WHERE game = 'a1' AND seq = 20")
    for args in [("state", "a1"), ("legal", "a1"), ("play", "a1", BLUE_DRAWS)]:
        assert refused(dsn, "a1", *args) == gap_line("a1", 20), args
    assert succeeded(dsn, "state", "a1", "--at", "19") == before


@pytest.fixture
def served_db(tmp_path: Path) -> Iterator[tuple[Path, dict[str, str]]]:
    """A database holding the game g created and played through the server (red's and blue's
    purchases of initiative dice: events 18..37) and red's token, the server closed."""
    from litestar.testing import TestClient

    from tests.server.conftest import new_game, open_app

    db = tmp_path / "s.db"
    with TestClient(open_app(db)) as client:
        game = new_game(client, "armageddon-empires", game="g")
        for player, body in [("red", RED_BUYS), ("blue", BLUE_BUYS)]:
            answer = client.post("/games/g/commands", content=body, headers=game.as_(player))
            assert answer.status_code == 200, answer.text
    yield db, game.as_("blue")


def test_a_server_started_on_a_database_with_a_deleted_row_answers_503_naming_it(
    served_db: tuple[Path, dict[str, str]],
) -> None:
    """Given a game played through the server whose row 20 (blue's command) was then deleted,
    when a server started on that database is asked the game's state or sent blue's next
    command, then each answer is 503 store/corrupt with the CLI's line, and nothing is
    appended."""
    from litestar.testing import TestClient

    from tests.server.conftest import ADMIN_HEADERS, assert_error, open_app

    db, blue = served_db
    delete(db, "g", 20)
    with TestClient(open_app(db)) as client:
        head = client.get("/games/g/head", headers=ADMIN_HEADERS).json()
        for response in (
            client.get("/games/g/state", headers=blue),
            client.post("/games/g/commands", content=BLUE_DRAWS, headers=blue),
        ):
            error = assert_error(response, 503, "store/corrupt")
            assert error["message"] == gap_line("g", 20).removeprefix("error[store/corrupt]: ")
        assert client.get("/games/g/head", headers=ADMIN_HEADERS).json() == head


def test_the_audit_of_a_gapped_log_without_its_key_file_finds_the_gap_and_says_why_it_stops(
    db: Path,
) -> None:
    """Given game a1 whose row 20 was deleted and whose key file is not at hand, when it is
    audited, then the gap is its finding (exit 4) and the rules line says the sealed values are
    not opened for want of the key, not that the log's lineage is damaged (the fold that tells
    what is revealed meets the gap first)."""
    delete(db, "a1", 20)
    Path(f"{db}.keys").unlink()
    status, out, _ = run(db, "audit", "a1")
    lines = out.splitlines()
    assert status == 4
    assert "  seq 21 [sequence]: seq 20 missing: the log jumps to 21" in lines
    rules = next(line for line in lines if line.startswith("  rules: "))
    assert rules == (
        "  rules: 0 batches re-derived; not checked from seq 1 on (its sealed values are not "
        "opened here: the seed that sealed them is not revealed, and no key file holding its "
        "key was at hand)"
    )
