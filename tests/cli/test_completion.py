"""Shell completion (README: commands, options, game ids and players complete): what a user's
shell gets back for the words typed, as click's bash completion asks for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.cli.command import run
from warlog.cli.main import cli


def completed(words: str, env: dict[str, str] | None = None) -> list[str]:
    """The values bash is offered for the last of ``words`` (a trailing space: a new word)."""
    typed = words.split()
    cword = len(typed) if words.endswith(" ") else len(typed) - 1
    result = CliRunner().invoke(
        cli,
        [],
        prog_name="warlog",
        env={
            "_WARLOG_COMPLETE": "bash_complete",
            "COMP_WORDS": words,
            "COMP_CWORD": str(cword),
            **(env or {}),
        },
    )
    assert result.exit_code == 0, result.output
    return [line.split(",", 1)[1] for line in result.stdout.splitlines() if line]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    db = tmp_path / "w.db"
    assert run(db, "new", "armageddon-empires", "--game", "ae1")[0] == 0
    assert run(db, "new", "heroic-battles", "--game", "hb1")[0] == 0
    return db


def test_a_games_players_complete_after_as_with_the_database_before_the_command(
    db: Path,
) -> None:
    """Given a database holding an Armageddon Empires game, when the user types
    `warlog --db W state ae1 --as <TAB>`, then both empires are offered (click leaves the
    game unparsed while --as waits for its value; it was offered nothing)."""
    assert completed(f"warlog --db {db} state ae1 --as ") == ["red", "blue"]
    assert completed(f"warlog --db {db} events ae1 --from 3 --as r") == ["red"]


def test_players_complete_with_the_database_after_the_command_or_from_the_environment(
    db: Path,
) -> None:
    assert completed(f"warlog state --db {db} hb1 --as ") == ["britons", "saxons"]
    assert completed("warlog legal ae1 --player b", env={"WARLOG_DB": str(db)}) == ["blue"]


def test_game_ids_complete_and_an_unknown_game_completes_no_player(db: Path) -> None:
    assert completed(f"warlog --db {db} state ") == ["ae1", "hb1"]
    assert completed(f"warlog state --db {db} h") == ["hb1"]
    assert completed(f"warlog --db {db} state nosuch --as ") == []


def test_rulesets_complete_after_new() -> None:
    assert completed("warlog new ") == [
        "armageddon-empires",
        "battle-for-armageddon",
        "heroic-battles",
    ]
    assert completed("warlog new --game g1 b") == ["battle-for-armageddon"]


def test_nothing_completes_from_a_database_that_is_not_there_and_none_is_made(
    tmp_path: Path,
) -> None:
    """Given --db naming no file, or a file that is no database, when the user presses TAB
    for a game id or a player, then nothing is offered, no error is printed into the command
    line, and no database is created."""
    missing, junk = tmp_path / "missing.db", tmp_path / "junk.db"
    junk.write_bytes(b"a shopping list, not a database\n" * 100)
    for db in (missing, junk):
        assert completed(f"warlog --db {db} state ") == []
        assert completed(f"warlog --db {db} state ae1 --as ") == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.db"]


def test_no_player_completes_before_a_game_is_typed(db: Path) -> None:
    assert completed(f"warlog --db {db} state --as ") == []
