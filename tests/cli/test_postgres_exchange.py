"""Moving games between stores through the command line: `warlog export` from SQLite, `import`
into PostgreSQL and back gives the same file, byte for byte, chain and all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.postgres_cluster import Cluster
from warlog.arbiter.autoplay import autoplay
from warlog.arbiter.database import on_database
from warlog.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "fixtures").glob("*/*-golden.jsonl"))  # the recorded games


def warlog(db: str, *args: str, env: dict[str, str] | None = None) -> str:
    """``warlog --db DB ARGS`` (``db`` empty: no --db, ``$WARLOG_DB`` in ``env``); its stdout.
    It must succeed."""
    argv = ["--db", db, *args] if db else list(args)
    result = CliRunner().invoke(cli, argv, env=env)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout


@pytest.mark.parametrize("golden", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_game_exported_from_sqlite_imports_into_postgresql_and_back_byte_for_byte(
    postgres: Cluster, tmp_path: Path, golden: Path
) -> None:
    """Given a recorded game in an SQLite database, when it is exported, imported into
    PostgreSQL (named by $WARLOG_DB), exported from there, imported into a new SQLite file and
    exported again, then every export is the same bytes and every receipt the same head."""
    pg = postgres.new_database()
    first, second = str(tmp_path / "first.db"), str(tmp_path / "second.db")
    warlog(first, "import", str(golden), "--game", "g")
    warlog(first, "export", "g", "-o", str(tmp_path / "from-sqlite.jsonl"))
    warlog("", "import", str(tmp_path / "from-sqlite.jsonl"), "--game", "g", env={"WARLOG_DB": pg})
    warlog(pg, "export", "g", "-o", str(tmp_path / "from-postgres.jsonl"))
    warlog(second, "import", str(tmp_path / "from-postgres.jsonl"), "--game", "g")
    warlog(second, "export", "g", "-o", str(tmp_path / "back-in-sqlite.jsonl"))

    exported = (tmp_path / "from-sqlite.jsonl").read_bytes()
    assert exported == (tmp_path / "from-postgres.jsonl").read_bytes()
    assert exported == (tmp_path / "back-in-sqlite.jsonl").read_bytes()
    assert warlog(first, "head", "g") == warlog(pg, "head", "g") == warlog(second, "head", "g")
    audit = json.loads(warlog(pg, "audit", "g", "--json"))
    assert audit["findings"] == [] and audit["proved"]["events"] == exported.count(b"\n")


def test_a_live_game_with_sealed_values_moves_chain_only_with_the_same_rows(
    postgres: Cluster, tmp_path: Path
) -> None:
    """Given a game still in play (its hidden values sealed, so only its chain can be checked
    elsewhere), when its export is imported chain-only into PostgreSQL, then the database holds
    the same rows as the SQLite file: seqs, types, data, times and hashes."""
    pg = postgres.new_database()
    db = str(tmp_path / "w.db")
    game = warlog(db, "new", "armageddon-empires", "--game", "live").strip()
    with on_database(db) as arb:
        autoplay(arb, game, 30)
    warlog(db, "export", game, "-o", str(tmp_path / "a.jsonl"))
    assert warlog(pg, "import", str(tmp_path / "a.jsonl"), "--chain-only").strip() == game
    with on_database(db) as here, on_database(pg) as there:
        assert list(here.store.read(game)) == list(there.store.read(game))
        assert len(list(there.store.read(game))) > 30
    assert warlog(pg, "head", game) == warlog(db, "head", game)


def test_a_postgresql_database_that_cannot_be_reached_is_one_line_and_exit_1(
    tmp_path: Path,
) -> None:
    dsn = f"postgresql://arbiter:hunter2@/warlog?host={tmp_path}&connect_timeout=2"
    result = CliRunner().invoke(cli, ["--db", dsn, "games"])
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith("error[store/cantopen]: ") and "hunter2" not in line


#: a child's environment: no $WARLOG_DEBUG (a traceback) nor $WARLOG_DB of the caller's
ENV = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_")}
#: `warlog` with psycopg blocked, as on an installation without the postgres extra
WITHOUT_PSYCOPG = (
    "import sys; sys.modules['psycopg'] = None; from warlog.cli.program import main; main()"
)


def test_a_postgresql_database_without_psycopg_installed_is_one_line_saying_how_to_get_it() -> None:
    """Given a warlog installed without psycopg (its import fails, as in a child process that
    blocks it), when a postgresql:// database is named, then it is one line, store/no_driver,
    saying which extra to install, exit 1, the password nowhere."""
    argv = [sys.executable, "-c", WITHOUT_PSYCOPG]
    argv += ["--db", "postgresql://arbiter:hunter2@/warlog", "games"]
    result = subprocess.run(argv, cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout, result.stderr) == (
        1,
        "",
        "error[store/no_driver]: a postgresql:// database needs psycopg: pip install "
        "'warlog[postgres]'\n",
    )


def test_a_postgresql_uri_holding_a_byte_that_is_no_utf8_is_one_line_without_its_password() -> None:
    """Given a database URI typed with a byte that is no UTF-8 (which psycopg cannot encode to
    hand to the server: a ValueError, not a driver error), when any command opens it, then it
    is one line, store/bad_uri, exit 1, the password left out."""
    argv = [os.fsencode(sys.executable), b"-m", b"warlog"]
    argv += [b"--db", b"postgresql://arbiter:hunter2@db\xff/warlog", b"games"]
    result = subprocess.run(argv, cwd=ROOT, env=ENV, capture_output=True, timeout=60)
    assert (result.returncode, result.stdout) == (1, b"")
    (line,) = result.stderr.decode("utf-8", "replace").splitlines()
    assert line.startswith("error[store/bad_uri]: bad database URI postgresql://arbiter@db")
    assert "surrogates not allowed" in line and "hunter2" not in line


def test_the_players_events_only_role_reads_the_log_as_a_database_without_its_key_file(
    postgres: Cluster,
) -> None:
    """Given a tournament database on PostgreSQL and the role docs/scaling.md grants players
    (SELECT on meta, games and events, never the vault_ tables), when a player's client lists
    the games, exports and audits a game with sealed values, then each works on the sealed
    log, as the SQLite file without its key file does (each said "permission denied for table
    vault_meta"); a game that seals nothing audits clean, its rules re-derived to its end; what
    needs the vault (the state, the events read as a player) is refused in one line,
    store/no_key_file, as there."""
    import psycopg

    pg = postgres.new_database()
    warlog(pg, "new", "armageddon-empires", "--game", "g")
    warlog(pg, "new", "heroic-battles", "--game", "h")
    role = "players_ro"
    with psycopg.connect(pg, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f"GRANT SELECT ON meta, games, events TO {role}")
    player = pg.replace("warlog@", f"{role}@", 1)
    listed = json.loads(warlog(player, "games", "--json"))
    assert [(g["game"], g["head"]) for g in listed if g["game"] == "g"] == [
        ("g", int(warlog(pg, "head", "g")[:2]))
    ]
    assert warlog(player, "export", "g") == warlog(pg, "export", "g")  # sealed, as a player's
    audit = json.loads(warlog(player, "audit", "g", "--json"))
    assert audit["findings"] == [] and audit["complete"] is False
    assert audit["proved"]["events"] == int(warlog(pg, "head", "g")[:2])
    unsealed = json.loads(warlog(player, "audit", "h", "--json"))
    assert unsealed["findings"] == [] and unsealed["complete"] is True
    assert unsealed["proved"]["rules_stopped_at"] == 0
    for args in (["state", "g"], ["events", "g", "--as", "red"]):
        result = CliRunner().invoke(cli, ["--db", player, *args])
        assert result.exit_code == 1 and result.stderr.count("\n") == 1
        assert result.stderr.startswith("error[store/no_key_file]: "), result.stderr
        assert "permission denied on the vault_ tables" in result.stderr


def test_a_copy_imported_into_the_same_postgresql_database_keeps_a_live_games_key_secret(
    postgres: Cluster, tmp_path: Path
) -> None:
    """Given a live game on PostgreSQL and a copy imported into the same database from its
    open record (the same key, no lineage), when either is revealed with --yes alone, then it
    is refused (exit 1, input/live_forks) naming the other, as on an SQLite file; once the
    organiser insists on one, the other's reveal goes ahead with the same seed."""
    pg = postgres.new_database()
    warlog(pg, "new", "heroic-battles", "--game", "h1")
    for _ in range(3):
        warlog(pg, "play", "h1", warlog(pg, "legal", "h1").splitlines()[0])
    record = str(tmp_path / "open.jsonl")
    warlog(pg, "export", "h1", "--open", "-o", record)
    warlog(pg, "import", record, "--game", "h1-copy", "--despite-live-forks")
    for game, other in (("h1", "h1-copy"), ("h1-copy", "h1")):
        result = CliRunner().invoke(cli, ["--db", pg, "reveal", game, "--yes"])
        assert (result.exit_code, result.stdout) == (1, "")
        assert result.stderr.startswith(
            f"error[input/live_forks]: {other} shares its key with {game} and is still being played"
        )
    seed = warlog(pg, "reveal", "h1", "--yes", "--despite-live-forks").split()[1]
    assert warlog(pg, "reveal", "h1-copy", "--yes").split()[1] == seed
