"""The CLI on the real rulesets: a user's own scenario file, a whole game, the entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from warlog.cli.main import cli

BUNDLED = (
    Path(__file__).resolve().parents[2]
    / "domain"
    / "armageddon_empires"
    / "scenarios"
    / "cinder-and-glass.toml"
)


def run(db: Path, *args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--db", str(db), *args], input=input)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_new_takes_a_users_own_scenario_file(tmp_path: Path) -> None:
    own = tmp_path / "short-war.toml"
    own.write_text(BUNDLED.read_text().replace("max_rounds = 12", "max_rounds = 2"))
    status, out, _ = run(
        tmp_path / "w.db", "new", "armageddon-empires", "--scenario", str(own), "--game", "mine"
    )
    assert (status, out.strip()) == (0, "mine")
    view = json.loads(run(tmp_path / "w.db", "state", "mine", "--json")[1])
    assert view["state"]["max_rounds"] == 2
    created = json.loads(run(tmp_path / "w.db", "events", "mine", "--json")[1].splitlines()[0])
    assert created["data"]["scenario_name"] == "short-war"


def test_a_bad_scenario_file_names_the_bad_fields_path(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(BUNDLED.read_text().replace("max_rounds = 12", 'max_rounds = "twelve"'))
    status, out, err = run(tmp_path / "w.db", "new", "armageddon-empires", "--scenario", str(bad))
    assert status == 1 and out == ""
    assert err.startswith("error[input/bad_scenario]: ") and "$.max_rounds" in err
    assert len(err.strip().splitlines()) == 1


def test_a_new_game_s_scenario_giving_a_card_an_ability_no_rule_plays_is_refused(
    tmp_path: Path,
) -> None:
    """AE-70 (version 26): exit 1, one line naming the field, the card and the ability (a
    Saboteur X is played since version 27, AE-72; Espionage X is not)."""
    own = tmp_path / "spy.toml"
    own.write_text(
        BUNDLED.read_text().replace(
            'abilities = ["Rapid Reaction"]\n', 'abilities = ["Rapid Reaction", "Espionage 2"]\n'
        )
    )
    db = tmp_path / "w.db"
    status, out, err = run(db, "new", "armageddon-empires", "--scenario", str(own))
    assert (status, out) == (1, "")
    assert err == (
        "error[input/bad_scenario]: bad scenario: $.cards[5].abilities[1]: card 'nine-bells': "
        "'Espionage 2' is not played by version 28 of these rules, which would ignore it (AE-70); "
        "docs/scenarios.md lists the abilities they play\n"
    )
    assert run(db, "games")[1].startswith("no games")  # nothing was created


def test_a_new_game_s_scenario_with_an_ork_marine_chapter_is_refused(tmp_path: Path) -> None:
    """BFA-29 (version 7): the Marine Chapters are Imperial; exit 1, one line naming the field."""
    from tests.domain.battle_for_armageddon.test_scenario_marines import (
        ORK_CHAPTER,
        second_war_text,
    )

    own = tmp_path / "ork-chapter.toml"
    own.write_text(second_war_text() + ORK_CHAPTER)
    db = tmp_path / "w.db"
    status, out, err = run(db, "new", "battle-for-armageddon", "--scenario", str(own))
    assert (status, out) == (1, "")
    assert err == (
        "error[input/bad_scenario]: bad scenario: $.counter_types[16].side: Marine Chapters are "
        "Imperial (rules: Special Units; BFA-29)\n"
    )
    assert run(db, "games")[1].startswith("no games")  # nothing was created


def test_a_new_game_s_scenario_with_a_fortification_s_own_defence_is_refused(
    tmp_path: Path,
) -> None:
    """BFA-30 (version 8): a fortification has no defence of its own; exit 1, one line naming
    the field."""
    from tests.domain.battle_for_armageddon.test_scenario_fortifications import (
        REFUSAL,
        fortification_with_defence_2,
    )

    own = tmp_path / "fortified.toml"
    own.write_text(fortification_with_defence_2())
    db = tmp_path / "w.db"
    status, out, err = run(db, "new", "battle-for-armageddon", "--scenario", str(own))
    assert (status, out, err) == (1, "", f"error[input/bad_scenario]: {REFUSAL}\n")
    assert run(db, "games")[1].startswith("no games")  # nothing was created


def test_a_legal_command_from_legal_plays_and_a_stale_one_is_rejected(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    game = run(db, "new", "armageddon-empires", "--game", "ae")[1].strip()
    first = run(db, "legal", game)[1].splitlines()[0]
    assert run(db, "play", game, first)[0] == 0
    status, _, err = run(db, "play", game, first)  # the same bid twice is out of turn now
    assert status == 3 and err.startswith("error[rules/")
    assert run(db, "audit", game)[0] == 0


def test_the_installed_entry_point_reports_errors_in_one_line_without_a_traceback(
    tmp_path: Path,
) -> None:
    entry = [
        sys.executable,
        "-c",
        "from warlog.cli.program import main; main()",
        "--db",
        str(tmp_path / "w.db"),
    ]
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([*entry, "state", "nope"], capture_output=True, text=True, cwd=root)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("error[store/") and len(result.stderr.strip().splitlines()) == 1
    game = subprocess.run(
        [*entry, "new", "armageddon-empires"], capture_output=True, text=True, cwd=root
    ).stdout.strip()
    result = subprocess.run(
        [*entry, "play", game, "{not json"], capture_output=True, text=True, cwd=root
    )
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.startswith("error[input/bad_json]")


def test_replay_walks_an_exported_file_from_any_event(tmp_path: Path) -> None:
    golden = (
        Path(__file__).resolve().parents[2]
        / "fixtures"
        / "battle-for-armageddon"
        / "bfa-golden.jsonl"
    )
    status, out, _ = run(tmp_path / "w.db", "replay", str(golden), "--from", "50", "--to", "56")
    assert status == 0
    assert [
        int(line.split()[0]) for line in out.splitlines() if line[:6].strip().isdigit()
    ] == list(range(50, 57))
    assert "why: attack" in out and "→" in out
    steps = [
        json.loads(line)
        for line in run(
            tmp_path / "w.db", "replay", str(golden), "--from", "52", "--to", "52", "--json"
        )[1].splitlines()
    ]
    assert [s["seq"] for s in steps] == [52] and steps[0]["changes"]
    assert not (tmp_path / "w.db").exists()  # a file is replayed in memory
