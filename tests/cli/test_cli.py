"""The CLI contract: output, one-line errors and exact exit codes (on the dice-race test ruleset)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.toy import SCENARIO
from warlog.arbiter.creating import SALT_MAX
from warlog.cli import render
from warlog.cli.main import cli
from warlog.domain import rulesets
from warlog.domain.core.errors import quoted as render_quoted


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    rulesets.register("dice-race", "tests.toy:RULESET")
    yield
    rulesets.unregister("dice-race")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "race.toml").write_bytes(SCENARIO)
    return {
        "db": str(tmp_path / "w.db"),
        "scenario": str(tmp_path / "race.toml"),
        "dir": str(tmp_path),
    }


def run(env: dict[str, str], *args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--db", env["db"], *args], input=input)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def one_error_line(stderr: str, code: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"error[{code}]: "), stderr
    assert "Traceback" not in stderr


def new_game(env: dict[str, str], *extra: str) -> str:
    code, out, _ = run(
        env, "new", "dice-race", "--scenario", env["scenario"], "--game", "g1", *extra
    )
    assert code == 0
    return out.strip()


def roll(player: str, count: int = 3, **extra: object) -> str:
    return json.dumps({"type": "roll", "player": player, "count": count, **extra})


def head(env: dict[str, str], game: str = "g1") -> str:
    return run(env, "head", game)[1]


def test_new_prints_the_game_id_alone(env: dict[str, str]) -> None:
    assert new_game(env) == "g1"
    code, out, _ = run(env, "new", "dice-race", "--scenario", env["scenario"])
    assert code == 0 and out.strip().startswith("dr-") and len(out.strip().splitlines()) == 1


def test_a_salt_too_long_or_with_a_line_break_is_refused_and_creates_nothing(
    env: dict[str, str],
) -> None:
    """Given a referee creating a game, when the salt is 257 or 300 characters, or holds a line
    break, then `new` exits 1 with input/bad_salt and no game is created; a salt of 256
    printable characters is taken."""
    new = ("new", "dice-race", "--scenario", env["scenario"])
    for salt in ("s" * 257, "s" * 300, "round 1\nround 2", "Coupe\u00a0de France"):
        code, out, err = run(env, *new, "--game", "salty", "--salt", salt)
        assert (code, out) == (1, "")
        one_error_line(err, "input/bad_salt")
    # the character is named: a non-breaking space looks like a space
    err = run(env, *new, "--salt", "Coupe\u00a0de France")[2]
    assert "its character 6, U+00A0, is not printable" in err
    # the help says the limit the arbiter keeps (written out: the CLI imports no arbiter to start)
    assert f"at most {SALT_MAX} printable" in " ".join(run(env, "new", "--help")[1].split())
    assert "salty" not in run(env, "games")[1]
    assert run(env, *new, "--game", "salty", "--salt", "s" * 256)[0] == 0


def test_play_prints_the_events_appended(env: dict[str, str]) -> None:
    new_game(env)
    code, out, _ = run(env, "play", "g1", roll("red"))
    assert code == 0
    assert [line.split()[1] for line in out.splitlines()] == [
        "command_issued",
        "dice_rolled",
        "scored",
        "turn_passed",
    ]
    code, out, _ = run(env, "play", "--json", "g1", roll("blue"))
    assert [json.loads(line)["seq"] for line in out.splitlines()] == [6, 7, 8, 9]


@pytest.mark.parametrize(
    ("command", "exit_code", "code"),
    [
        ("{oops", 1, "input/bad_json"),
        ('{"type": "fly", "player": "red"}', 1, "input/unknown_command"),
        ('{"type": "roll", "player": "red", "count": 2, "speed": 1}', 1, "input/bad_command"),
        ('{"type": "roll", "player": "green", "count": 2}', 1, "input/unknown_player"),
        ('{"type": "roll", "player": "blue", "count": 2}', 3, "rules/not_your_turn"),
        ('{"type": "roll", "player": "red", "count": 7}', 3, "rules/bad_count"),
    ],
)
def test_a_bad_command_is_one_line_with_its_exit_code_and_nothing_appended(
    env: dict[str, str], command: str, exit_code: int, code: str
) -> None:
    new_game(env)
    before = head(env)
    status, out, err = run(env, "play", "g1", command)
    assert status == exit_code
    one_error_line(err, code)
    assert out == "" and head(env) == before


def test_play_from_stdin_stops_at_the_first_rejected_command_keeping_earlier_ones(
    env: dict[str, str],
) -> None:
    new_game(env)
    lines = "\n".join([roll("red"), roll("blue"), roll("blue"), roll("red")]) + "\n"
    status, out, err = run(env, "play", "g1", "-", input=lines)
    assert status == 3 and len(out.splitlines()) == 8  # the two accepted commands, 4 events each
    one_error_line(err, "rules/not_your_turn")
    assert head(env).split()[0] == "9"


def test_an_unknown_game_is_exit_1(env: dict[str, str]) -> None:
    new_game(env)
    status, _, err = run(env, "state", "nope")
    assert status == 1
    one_error_line(err, "input/unknown_game")


@pytest.mark.parametrize("command", ["head", "events", "state", "explain"])
def test_a_file_given_where_a_game_is_named_says_which_commands_read_a_file(
    env: dict[str, str], command: str
) -> None:
    """Given an exported game on disk, when a referee names the file where a command takes a
    game of the database, then the one line says it is a file, and how to read it: import it,
    or `audit` and `replay` it as it is, or check it against receipts with docs/verify.py."""
    game = new_game(env)
    exported = Path(env["dir"]) / "g1.jsonl"
    assert run(env, "export", game, "-o", str(exported))[0] == 0
    status, out, err = run(env, command, str(exported), *(["1"] if command == "explain" else []))
    assert (status, out) == (1, "")
    one_error_line(err, "input/unknown_game")
    assert err.strip() == (
        f"error[input/unknown_game]: unknown game {render_quoted(str(exported))}: that is a file, "
        "not a game of this database (`warlog import FILE` makes it one; `audit` and `replay` "
        "read a file as it is; docs/verify.py checks one against the receipts you kept)"
    )


def test_a_line_break_in_a_game_id_or_a_path_is_still_one_error_line(env: dict[str, str]) -> None:
    """Given a game id and an output path holding a line break (a paste gone wrong), when a
    command names them, then the error is still one line on stderr, exit 1, naming what was
    given with the break as a space (ARCHITECTURE.md, "Errors and exit codes": one line)."""
    new_game(env)
    status, out, err = run(env, "state", "no\ngame")
    assert (status, out) == (1, "")
    one_error_line(err, "input/unknown_game")
    assert "'no game'" in err
    status, out, err = run(
        env, "export", "g1", "-o", str(Path(env["dir"]) / "no\nsuch" / "g.jsonl")
    )
    assert (status, out) == (1, "")
    one_error_line(err, "input/unwritable")
    assert "no such" in err


def test_a_missing_database_is_one_line_and_exit_1(env: dict[str, str]) -> None:
    status, _, err = run(env, "state", "g1")
    assert status == 1
    assert err.startswith("error[") and len(err.strip().splitlines()) == 1
    assert not Path(env["db"]).exists()


def test_a_garbage_database_is_one_line_exit_1_and_untouched(env: dict[str, str]) -> None:
    Path(env["db"]).write_bytes(b"this is not a database at all" * 100)
    digest = hashlib.sha256(Path(env["db"]).read_bytes()).hexdigest()
    for args in (
        ["state", "g1"],
        ["play", "g1", roll("red")],
        ["new", "dice-race", "--scenario", env["scenario"]],
    ):
        status, _, err = run(env, *args)
        assert status == 1
        assert err.startswith("error[") and len(err.strip().splitlines()) == 1
    assert hashlib.sha256(Path(env["db"]).read_bytes()).hexdigest() == digest


def test_legal_prints_commands_that_play_accepts_as_they_are(env: dict[str, str]) -> None:
    new_game(env)
    status, out, _ = run(env, "legal", "g1")
    commands = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and {c["type"] for c in commands} == {"roll", "pass"}
    assert run(env, "play", "g1", out.splitlines()[0])[0] == 0
    assert run(env, "legal", "g1", "--player", "red")[1] == ""


def test_state_at_a_seq_and_as_a_player(env: dict[str, str]) -> None:
    new_game(env)
    run(env, "play", "g1", roll("red"))
    status, out, _ = run(env, "state", "g1", "--at", "1", "--json")
    view = json.loads(out)
    assert status == 0 and view["seq"] == 1 and view["state"]["scores"] == {"red": 0, "blue": 0}
    blue = json.loads(run(env, "state", "g1", "--as", "blue", "--json")[1])
    assert blue["state"]["hands"] == {"red": None, "blue": 5}
    status, _, err = run(env, "state", "g1", "--at", "99")
    assert status == 1
    one_error_line(err, "input/bad_seq")


def test_events_json_is_the_export_format(env: dict[str, str]) -> None:
    new_game(env)
    run(env, "play", "g1", roll("red"))
    _, events, _ = run(env, "events", "g1", "--json")
    _, exported, _ = run(env, "export", "g1")
    assert events == exported
    assert [
        json.loads(line)["seq"]
        for line in run(env, "events", "g1", "--from", "2", "--to", "3", "--json")[1].splitlines()
    ] == [2, 3]


def test_the_events_view_expires_entries_and_all_shows_them(env: dict[str, str]) -> None:
    new_game(env, "--dice", "manual")
    for player in ["red", "blue", "red", "blue", "red", "blue"]:
        assert run(env, "play", "g1", roll(player, 1, dice=[5]))[0] == 0
    now = json.loads(run(env, "log", "g1", "--json")[1])
    everything = json.loads(run(env, "log", "g1", "--all", "--json")[1])
    assert now["round"] == 4
    assert all(
        e["round"] <= 4 <= e["round"] + e["duration"] - 1
        for tab in now["tabs"].values()
        for e in tab
    )
    assert sum(map(len, everything["tabs"].values())) == 6 > sum(map(len, now["tabs"].values()))
    assert list(json.loads(run(env, "log", "g1", "--empire", "red", "--json")[1])["tabs"]) == [
        "red"
    ]


def test_replay_shows_what_each_event_changed(env: dict[str, str]) -> None:
    new_game(env, "--dice", "manual")
    run(env, "play", "g1", roll("red", dice=[6, 5, 1]))
    status, out, _ = run(env, "replay", "g1", "--from", "2")
    assert status == 0
    assert "scores.red: 0 → 2" in out and "turn: 0 → 1" in out


def test_explain_names_the_command_and_the_dice(env: dict[str, str]) -> None:
    new_game(env)
    run(env, "play", "g1", roll("red"))
    report = json.loads(run(env, "explain", "g1", "4", "--json")[1])
    assert report["command"] == {"seq": 2, "player": "red", "command": json.loads(roll("red"))}
    assert [d["seq"] for d in report["dice"]] == [3]
    assert report["rule"].startswith(f"{sum(f >= 4 for f in report['dice'][0]['faces'])} successes")
    assert "explain" in run(env, "explain", "--help")[1]


def test_explain_says_the_dice_came_from_the_seed_as_it_stands_now(env: dict[str, str]) -> None:
    """Given a roll at event 3 of an auto-dice game, when it is explained before the game's key
    is revealed, then the dice source names the seed's commitment, not yet revealed; after the
    reveal (which comes after event 3) the same event's dice source is the revealed seed, which
    `warlog audit` re-derives (README, "Commands and exit codes": reveal, "every die can be
    checked")."""
    new_game(env)
    run(env, "play", "g1", roll("red"))
    before = json.loads(run(env, "explain", "g1", "3", "--json")[1])["dice_source"]
    assert before.startswith("auto: derived from the seed committed to as ")
    assert before.endswith("(not yet revealed)")
    assert run(env, "reveal", "g1", "--yes")[0] == 0
    after = json.loads(run(env, "explain", "g1", "3", "--json")[1])["dice_source"]
    assert after.startswith("auto: HMAC-SHA256 of the revealed seed over ")
    assert "not yet revealed" not in after
    # and the reveal itself says that its seed opens the game's commitment
    reveal = head(env).split()[0]
    assert (
        "\ncommitment: the seed's sha256 is the commitment made at event 1: it opens it\n"
        in (run(env, "explain", "g1", reveal)[1])
    )


def test_explain_gives_the_whole_batch_up_to_the_head(env: dict[str, str]) -> None:
    """Given a game whose last batch is a roll (events 2..5: the command, its dice, the score,
    the turn passed), when any event of it is explained, then the batch named is 2..5, the
    head's own event included (README, "Commands and exit codes": why event SEQ happened)."""
    new_game(env)
    run(env, "play", "g1", roll("red"))
    for seq in ("2", "4", "5"):
        report = json.loads(run(env, "explain", "g1", seq, "--json")[1])
        assert report["batch"] == [2, 5], seq


@pytest.mark.parametrize("seq", ["0", "6"])
def test_explaining_an_event_the_game_has_not_is_input_bad_seq_exit_1(
    env: dict[str, str], seq: str
) -> None:
    """Given a game of events 1..5, when event 0 or 6 (one past the head) is explained, then
    one line says there is no such event, input/bad_seq, exit 1, nothing on stdout (the
    database is not called damaged: ARCHITECTURE.md, "Errors and exit codes")."""
    new_game(env)
    run(env, "play", "g1", roll("red"))
    status, out, err = run(env, "explain", "g1", seq)
    assert (status, out) == (1, "")
    one_error_line(err, "input/bad_seq")


def test_fork_audit_reveal_and_the_contract_exit_codes(env: dict[str, str]) -> None:
    new_game(env)
    run(env, "play", "g1", roll("red"))
    run(env, "play", "g1", roll("blue"))
    status, out, _ = run(env, "fork", "g1", "--at", "5", "--game", "f1")
    assert (status, out.strip()) == (0, "f1")
    status, _, err = run(env, "fork", "g1", "--at", "3")
    assert status == 1
    one_error_line(err, "input/inside_batch")
    status, _, err = run(env, "fork", "g1", "--at", "5", "--dice", "same")
    assert status == 1
    one_error_line(err, "input/seed_not_revealed")
    status, _, err = run(env, "reveal", "g1")  # f1, a new-dice fork, is still being played
    assert status == 1
    one_error_line(err, "input/live_forks")
    status, out, _ = run(env, "reveal", "g1", "--despite-live-forks")
    assert status == 0 and out.split()[0] == "10"
    assert run(env, "fork", "g1", "--at", "5", "--dice", "same", "--game", "f2")[0] == 0
    status, out, _ = run(env, "audit", "g1")
    assert status == 0 and "clean" in out and "dice verified" in out
    assert run(env, "fork", "g1", "--at", "5", "--dice", "sideways")[0] == 2


def test_export_import_round_trip_and_a_broken_file_is_refused(env: dict[str, str]) -> None:
    new_game(env)
    run(env, "play", "g1", roll("red"))
    path = Path(env["dir"]) / "g1.jsonl"
    assert run(env, "export", "g1", "-o", str(path))[0] == 0
    # into the same database, beside g1 still being played: said so (the copy rolls g1's dice)
    status, out, _ = run(env, "import", str(path), "--game", "copy", "--despite-live-forks")
    assert (status, out.strip()) == (0, "copy")
    assert run(env, "head", "copy")[1] == head(env)
    lines = path.read_text().splitlines()
    tampered = json.loads(lines[2])
    tampered["data"]["faces"] = [6, 6, 6]
    lines[2] = json.dumps(tampered)
    path.write_text("\n".join(lines) + "\n")
    status, _, err = run(env, "import", str(path), "--game", "forged")
    assert status == 4
    one_error_line(err, "import/broken_log")
    assert run(env, "head", "forged")[0] == 1
    status, out, _ = run(env, "audit", str(path))
    assert status == 4 and "seq 3 [chain]" in out
    findings = json.loads(run(env, "audit", str(path), "--json")[1])["findings"]
    assert findings[0]["seq"] == 3
    path.write_text("not json\n")
    status, _, err = run(env, "import", str(path))
    assert status == 1
    one_error_line(err, "input/bad_json")


def test_a_forks_export_is_imported_under_the_forks_own_id(env: dict[str, str]) -> None:
    """Given the exports of two forks of one game, when each is imported into another database
    without --game, then each takes its own id (the fork's log begins with its parent's
    game_created, whose id it took before, and the second import was refused as taken)."""
    new_game(env)
    run(env, "play", "g1", roll("red"))
    run(env, "play", "g1", roll("blue"))
    run(env, "reveal", "g1")
    elsewhere = {**env, "db": str(Path(env["dir"]) / "elsewhere.db")}
    for fork in ("f1", "f2"):
        assert run(env, "fork", "g1", "--at", "5", "--dice", "same", "--game", fork)[0] == 0
        path = Path(env["dir"]) / f"{fork}.jsonl"
        assert run(env, "export", fork, "-o", str(path))[0] == 0
        status, out, err = run(elsewhere, "import", str(path))
        assert (status, out.strip(), err) == (0, fork, "")
        assert run(elsewhere, "head", fork)[1] == run(env, "head", fork)[1]
    assert run(elsewhere, "head", "g1")[0] == 1
    # a fork of a fork: its log holds both game_forked events, its own the last
    head = run(env, "head", "f1")[1].split()[0]
    assert run(env, "fork", "f1", "--at", head, "--dice", "same", "--game", "f3")[0] == 0
    path = Path(env["dir"]) / "f3.jsonl"
    assert run(env, "export", "f3", "-o", str(path))[0] == 0
    assert path.read_text().count('"game_forked"') == 2
    assert run(elsewhere, "import", str(path))[:2] == (0, "f3\n")


def test_every_command_has_help_and_usage_errors_are_exit_2(env: dict[str, str]) -> None:
    for name, command in cli.commands.items():
        assert command.help, f"{name} has no help"
        assert run(env, name, "--help")[0] == 0
    assert run(env, "play")[0] == 2
    assert run(env, "no-such-command")[0] == 2


def test_explain_names_who_rolled_each_die_in_words() -> None:
    """Given the dice of an event, one rolled by a player for a named purpose and one the game
    rolled for nobody (a referee's hidden check) with no purpose recorded, when explain prints
    them, then each says who rolled it, and nothing stands in for a missing word."""
    report = {
        "seq": 9,
        "type": "observation_checked",
        "data": {},
        "batch": [7, 9],
        "dice": [
            {"seq": 7, "faces": [4, 2], "sides": 6, "purpose": "initiative", "roller": "red"},
            {"seq": 8, "faces": "sealed", "sides": 6, "purpose": "", "roller": ""},
        ],
        "dice_source": "derived from the game's seed",
        "rule": "",
    }
    lines = render.explain_text(report).splitlines()
    assert lines[2:4] == [
        "dice (seq 7): 2 dice, d6 for initiative, rolled by red -> [4, 2]",
        "dice (seq 8): sealed, d6, rolled by the game (for no player) -> sealed",
    ]
