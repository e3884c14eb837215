"""The CLI as a new user meets it: games are found, read, played and settled without opening the
database or the source; help is worth reading; JSON is pipeable; nothing fails silently."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from warlog.arbiter.application import Arbiter
from warlog.cli.main import cli


def run(db: Path, *args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--db", str(db), *args], input=input)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def db(tmp_path: Path) -> Path:
    db = tmp_path / "w.db"
    assert run(db, "new", "battle-for-armageddon", "--game", "b1")[0] == 0
    assert run(db, "new", "armageddon-empires", "--game", "a1", "--dice", "manual")[0] == 0
    return db


def commands() -> list[tuple[str, click.Command]]:
    out = []
    for name, command in sorted(cli.commands.items()):
        if isinstance(command, click.Group):
            out += [(f"{name} {sub}", c) for sub, c in sorted(command.commands.items())]
        else:
            out.append((name, command))
    return out


@pytest.mark.parametrize(("name", "command"), commands(), ids=[n for n, _ in commands()])
def test_every_command_has_a_purpose_described_options_and_an_example(
    name: str, command: click.Command
) -> None:
    text = command.help or ""
    assert text.strip().splitlines()[0].endswith(".")  # a one-line purpose
    assert "Example:" in text and "warlog " in text.split("Example:")[1], name
    for param in command.params:
        if isinstance(param, click.Option) and not param.hidden:
            assert param.help, f"{name} {param.opts} has no help"


def test_every_as_option_names_who_reads_without_it() -> None:
    # given the commands that take --as
    helps = {
        name: next(p.help for p in command.params if p.name == "as_player")
        for name, command in commands()
        if any(p.name == "as_player" for p in command.params)
    }
    # then play's default is the player who issued the command (its events are printed as that
    # player may see them), and every read's is the referee
    assert (
        helps.pop("play")
        == "As this player may see it (default: the player who issued the command)."
    )
    assert helps and set(helps.values()) == {
        "As this player may see it (default: the referee, who sees everything)."
    }
    # and each help shows what --as takes, a player
    for name in ("play", *helps):
        usage = CliRunner().invoke(cli, [*name.split(), "--help"]).stdout
        assert "--as PLAYER" in usage, name


def test_the_exit_codes_are_in_warlog_help() -> None:
    out = CliRunner().invoke(cli, ["--help"]).stdout
    for code in ("0  done", "1  bad input", "3  the rules reject", "4  audit", "5  another writer"):
        assert code in out


def test_games_lists_every_game_with_whose_move_it_is(db: Path) -> None:
    status, out, _ = run(db, "games", "--json")
    assert status == 0
    games = {g["game"]: g for g in json.loads(out)}
    assert set(games) == {"a1", "b1"}
    assert games["b1"]["waiting"] == "the orks' set-up" and games["b1"]["head"] == 1
    assert games["a1"]["players"] == ["red", "blue"] and not games["a1"]["over"]
    run(db, "fork", "b1", "--at", "1", "--game", "b2")
    status, out, _ = run(db, "games")
    assert "fork of b1 at 1" in out and "3 games" in out


@pytest.mark.parametrize(
    "args",
    [
        ("games", "--json"),
        ("state", "b1", "--json"),
        ("state", "a1", "--as", "red", "--json"),
        ("events", "b1", "--json"),
        ("log", "a1", "--json"),
        ("replay", "b1", "--json"),
        ("explain", "b1", "1", "--json"),
        ("head", "b1", "--json"),
        ("audit", "b1", "--json"),
        ("rulesets", "--json"),
        ("legal", "b1", "--json"),
        ("new", "battle-for-armageddon", "--json"),
        ("fork", "b1", "--at", "1", "--json"),
    ],
    ids=lambda a: " ".join(a),
)
def test_json_output_is_only_json(db: Path, args: tuple[str, ...]) -> None:
    status, out, _ = run(db, *args)
    assert status == 0
    for line in out.splitlines():  # one value, or JSON Lines
        json.loads(line)


def test_state_reads_as_the_game_and_shows_only_what_the_player_sees(db: Path) -> None:
    status, out, _ = run(db, "state", "a1", "--as", "red")
    assert status == 0
    assert "Round 1 of 12" in out and "waiting:" in out and "map" in out
    assert "r0  m" in out  # the hex map, row by row
    red_hand = json.loads(run(db, "state", "a1", "--json")[1])["state"]["empires"]["blue"]["hand"]
    assert not any(card in out for card in red_hand)  # blue's hand stays hidden from red
    status, out, _ = run(db, "state", "b1")
    assert "Turn 1 of 8" in out and "neighbours" in out and "the orks must set up" in out
    assert json.loads(run(db, "state", "b1", "--full")[1].split("\n", 1)[1])["turn"] == 1


def test_legal_says_why_when_there_is_nothing(db: Path) -> None:
    status, out, err = run(db, "legal", "b1", "--as", "imperials")
    assert status == 0 and out == ""
    assert (
        "no legal command: the game waits for the orks' set-up; nothing is asked of imperials now"
        in err
    )
    run(db, "reveal", "b1", "--yes")
    _, _, err = run(db, "legal", "b1")
    assert "revealed" in err and "over" in err


def test_legal_in_a_manual_game_tells_the_referee_which_dice_each_command_needs(db: Path) -> None:
    """Given a manual-dice game where red bid 1 (sealed), when the referee asks for the legal
    commands they say the dice each needs, and blue, asking as blue, is told no dice at all
    (their count would tell red's bid)."""
    run(db, "play", "a1", '{"type": "buy_initiative", "player": "red", "count": 1}')
    _, as_blue, _ = run(db, "legal", "a1", "--as", "blue")
    assert "dice" not in as_blue and as_blue.splitlines()[1].startswith(
        '{"type":"buy_initiative","count":1,"player":"blue"}'
    )
    _, out, _ = run(db, "legal", "a1")
    first = out.splitlines()[1]  # blue buys 1 die
    assert first.startswith('{"type":"buy_initiative","count":1,"player":"blue"}')
    assert "# dice: 1 d6 for initiative (red) then 1 d6 for initiative (blue)" in first
    command, needs = first.split("  #")
    # when the line is pasted as it is, then it is refused, one line saying what to do, and
    # nothing is appended
    head = run(db, "head", "a1")[1]
    status, _, err = run(db, "play", "a1", first)
    assert status == 1 and err.count("\n") == 1
    assert err.startswith("error[input/bad_json]: command is followed by the '# dice:' note")
    assert 'give the faces as a "dice" list in the command, e.g. {..., "dice": [4, 2]}' in err
    assert run(db, "head", "a1")[1] == head
    # then the round's hidden observation rolls (AE-17): as many dice as the comment says
    hidden = sum(int(n) for n in re.findall(r"(\d+) d6 for observation", needs))
    dice = [6, 1] + [1] * hidden
    assert run(db, "play", "a1", json.dumps({**json.loads(command), "dice": dice}))[0] == 0


def test_a_command_followed_by_anything_but_the_dice_note_is_refused_as_not_json(db: Path) -> None:
    # given a command followed by a comment of the player's own, not the note `legal` prints
    head = run(db, "head", "a1")[1]
    line = '{"type": "end_turn", "player": "red"}  # my move'
    # when it is played, then it is refused as JSON with extra data, where that starts, and
    # nothing is appended: the advice about the dice note would mislead
    status, _, err = run(db, "play", "a1", line)
    assert (status, err) == (
        1,
        "error[input/bad_json]: command is not valid JSON: Extra data at line 1 column 40\n",
    )
    assert run(db, "head", "a1")[1] == head


def test_play_from_stdin_names_the_refused_line_and_what_was_applied(db: Path) -> None:
    lines = "\n".join(
        [
            '{"type": "end_setup", "player": "orks"}',
            '{"type": "end_setup", "player": "orks"}',
        ]
    )
    status, _, err = run(db, "play", "b1", "-", input=lines + "\n")
    assert status == 3
    assert "line 2:" in err and "(1 command applied before it)" in err
    status, _, err = run(db, "play", "b1", "-", input='{"type": "x",\n')
    assert status == 1 and "line 1 column" in err


def test_play_from_stdin_numbers_lines_as_the_input_does_blank_ones_included(db: Path) -> None:
    good = '{"type": "end_setup", "player": "orks"}'
    status, _, err = run(db, "play", "b1", "-", input=f"\n{good}\n\n   \n{{bad\n{good}\n")
    assert status == 1
    assert "line 5:" in err and "(1 command applied before it)" in err
    assert run(db, "head", "b1")[1].split()[0] != "1"  # the good line before it stands


@pytest.mark.parametrize("stdin", [False, True])
def test_play_as_an_unknown_player_plays_nothing(db: Path, stdin: bool) -> None:
    # given a game at event 1; when a command is played --as a player the game does not have
    good = '{"type": "end_setup", "player": "orks"}'
    args = ("play", "b1", "-", "--as", "green") if stdin else ("play", "b1", good, "--as", "green")
    status, out, err = run(db, *args, input=good + "\n" if stdin else None)
    # then it is refused before anything is played: exit 1, one line, nothing appended
    assert (status, out) == (1, "")
    assert (
        err.startswith("error[input/unknown_player]: unknown player 'green'") and "line" not in err
    )
    assert run(db, "head", "b1")[1].split()[0] == "1"


@pytest.mark.parametrize("command", ["events", "replay", "audit"])
def test_from_and_to_outside_the_game_or_reversed_are_errors(db: Path, command: str) -> None:
    for extra in (("--from", "5"), ("--from", "1", "--to", "9")):
        if command == "audit" and "--to" in extra:
            continue
        status, _, err = run(db, command, "b1", *extra)
        assert status == 1, (command, extra)
        assert "error[input/bad_seq]" in err and "events 1..1" in err


def test_reveal_asks_on_a_terminal_and_yes_skips_it(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from warlog.cli import disputes

    monkeypatch.setattr(disputes, "interactive", lambda: True)
    status, _, err = run(db, "reveal", "b1", input="n\n")
    assert status == 1 and "ends play" in err
    status, out, _ = run(db, "reveal", "b1", "--yes")
    assert status == 0 and out.split()[0] == "2"


def test_db_works_after_the_command_name_too(tmp_path: Path, db: Path) -> None:
    result = CliRunner().invoke(cli, ["head", "b1", "--db", str(db)])
    assert result.exit_code == 0 and result.stdout.startswith("1 ")


def test_a_bundled_scenario_prints_as_toml_to_copy(tmp_path: Path) -> None:
    status, out, _ = run(tmp_path / "w.db", "scenario", "show", "second-war")
    assert status == 0 and "[[special_cards]]" in out
    path = tmp_path / "mine.toml"
    path.write_text(out)
    assert run(tmp_path / "w.db", "new", "battle-for-armageddon", "--scenario", str(path))[0] == 0
    status, _, err = run(tmp_path / "w.db", "scenario", "show", "atlantis")
    assert status == 1 and "second-war" in err


def test_a_rulesets_name_shows_its_default_scenario(tmp_path: Path) -> None:
    by_ruleset = run(tmp_path / "w.db", "scenario", "show", "battle-for-armageddon")
    assert by_ruleset == run(tmp_path / "w.db", "scenario", "show", "second-war")
    assert by_ruleset[0] == 0


def test_rulesets_says_which_earlier_versions_play_on(tmp_path: Path) -> None:
    status, out, _ = run(tmp_path / "w.db", "rulesets")
    assert status == 0
    assert out.splitlines()[0] == (
        "armageddon-empires (version 28; plays on the games begun under 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7 and 6): scenarios "
        "cinder-and-glass"
    )
    assert (
        "heroic-battles (version 4; plays on the games begun under 3, 2 and 1): scenarios "
        "open-field"
    ) in out.splitlines()
    # and a program is told the same in the JSON (as GET /rulesets gives it)
    status, out, _ = run(tmp_path / "w.db", "rulesets", "--json")
    rows = {row["name"]: row for row in json.loads(out)}
    assert status == 0 and rows["heroic-battles"]["kept_versions"] == ["3", "2", "1"]
    assert rows["battle-for-armageddon"]["kept_versions"] == ["7", "6", "5", "4", "3", "2"]
    assert rows["armageddon-empires"]["kept_versions"][0] == "27"


@pytest.mark.parametrize(
    "args",
    [
        ("head", "b1\udcff"),
        ("state", "b\udcff"),
        ("new", "battle-for-armageddon", "--salt", "\udcff"),
    ],
    ids=["head", "state", "new-salt"],
)
def test_an_argument_that_is_not_utf8_is_one_line_exit_1(db: Path, args: tuple[str, ...]) -> None:
    # given arguments holding a byte that is not UTF-8 (\xff: Python keeps it as \udcff)
    status, out, err = run(db, *args)
    # then one line naming it, exit 1, and nothing created or appended
    assert (status, out) == (1, "")
    assert err == (
        "error[input/not_utf8]: an argument holds bytes that are not UTF-8 text (\\xff): game "
        "ids, players and salts are UTF-8\n"
    )
    assert run(db, "games", "--json")[1].count('"game"') == 2
    assert run(db, "head", "b1")[1].startswith("1 ")


@pytest.mark.parametrize(
    "args",
    [
        ("new", "battle-for-armageddon", "--game", ""),
        ("fork", "b1", "--at", "1", "--game", ""),
    ],
    ids=["new", "fork"],
)
def test_an_empty_game_id_is_a_bad_game_id_not_a_generated_one(
    db: Path, args: tuple[str, ...]
) -> None:
    status, out, err = run(db, *args)
    assert (status, out) == (1, "")
    assert err.startswith("error[input/bad_game_id]: bad game id ''")
    assert run(db, "games", "--json")[1].count('"game"') == 2


def test_a_port_outside_0_to_65535_is_a_usage_error(db: Path) -> None:
    status, _, err = run(db, "serve", "--port", "70000")
    assert status == 2 and "70000 is not in the range 0<=x<=65535" in err


@pytest.mark.parametrize("budget", ["nan", "inf", "0", "-1"])
def test_a_fuzz_budget_that_is_not_a_positive_finite_number_is_a_usage_error(
    db: Path, budget: str
) -> None:
    status, out, err = run(db, "fuzz", "b1", "--budget", budget)
    assert (status, out) == (2, "")
    assert "Invalid value for '--budget'" in err


def test_the_events_view_prints_shared_entries_once(db: Path) -> None:
    run(db, "play", "b1", '{"type": "end_setup", "player": "orks"}')
    for side in ("orks", "imperials"):
        run(
            db,
            "play",
            "b1",
            json.dumps(
                {
                    "type": "choose_strategy",
                    "player": side,
                    "cards": ["movement-combat", "combat-build"],
                }
            ),
        )
    _, out, _ = run(db, "log", "b1")
    assert "Events — turn 1" in out and "[everyone]" in out
    assert out.count("the orks have the initiative") == 1 and "[orks]" not in out


def test_the_demo_removes_its_database_and_guards_one_in_use(tmp_path: Path, db: Path) -> None:
    status, _, err = run(db, "demo", "--keep", str(db), "--commands", "5")
    assert status == 1 and "--reuse" in err


def test_the_demo_plays_replays_and_audits_every_ruleset_and_removes_its_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given no --keep, when a new user runs ``warlog demo``, then a game of each of the three
    rulesets is played, revealed, replayed to the identical state and audited clean, each
    recorded game matches its checkpoints, it exits 0, and its temporary database is gone."""
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    status, out, err = run(tmp_path / "unused.db", "demo", "--commands", "5")
    assert (status, err) == (0, "")
    for name in ("armageddon-empires", "battle-for-armageddon", "heroic-battles"):
        assert f"=== {name}: a new game, played by the autoplay policy ===" in out
        assert f"=== recorded game {name}/" in out
    assert out.count("replayed from the log: identical state") == 3
    assert out.count("clean (no findings)") == 6
    assert out.count("checkpoints: all match") == 3
    assert out.endswith("(the demo's temporary database is removed)\n")
    assert list(tmp_path.iterdir()) == []


def test_the_demo_keeps_its_games_in_the_file_asked_and_adds_to_it_only_with_reuse(
    tmp_path: Path,
) -> None:
    """Given --keep naming a new file, the demo's three games are left in it for ``warlog
    games``; a second run refuses to add to it (exit 1, naming how many games it holds)
    unless --reuse is given."""
    kept = tmp_path / "demo.db"
    status, out, _ = run(kept, "demo", "--keep", str(kept), "--commands", "2")
    assert status == 0 and out.endswith(f"\ndemo database: {kept}\n")
    assert run(kept, "games")[1].startswith("3 games\n")
    status, _, err = run(kept, "demo", "--keep", str(kept), "--commands", "2")
    assert status == 1 and "already holds 3 games" in err and "input/database_in_use" in err
    assert run(kept, "demo", "--keep", str(kept), "--reuse", "--commands", "2")[0] == 0
    assert run(kept, "games")[1].startswith("6 games\n")


def test_the_demo_keeps_its_games_in_an_empty_file_it_is_given(tmp_path: Path) -> None:
    """Given --keep naming an existing empty file (what ``touch`` or ``mktemp`` leaves), when
    the demo runs, then it makes that file its database and leaves its three games there, as
    ``warlog new`` would take the file (it was refused: "no warlog database ... create one
    with `warlog new`", exit 1)."""
    kept = tmp_path / "demo.db"
    kept.touch()
    status, _, err = run(kept, "demo", "--keep", str(kept), "--commands", "1")
    assert (status, err) == (0, "")
    assert run(kept, "games")[1].startswith("3 games\n")


def test_a_demo_that_finds_a_problem_says_so_and_exits_4(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a warlog whose replay of a game does not come back to the state its play reached
    (a bug the demo is there to show), when the demo runs, then it says so for each game and
    ends with one line, audit/demo_failed, exit 4, not 0."""
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    monkeypatch.setattr(Arbiter, "replay_agrees", lambda self, game: False)
    status, out, err = run(tmp_path / "unused.db", "demo", "--commands", "1")
    assert status == 4
    assert out.count("replayed from the log: STATE DIFFERS") == 3
    assert err == "error[audit/demo_failed]: the demo found a problem (see above)\n"


def test_fork_and_reveal_name_the_live_games_that_share_their_hidden_history(
    db: Path,
) -> None:
    """Given a live game b1, when the referee forks it (and forks the fork), each fork is
    created with a note on stderr naming the live games it shares hidden history with (their
    hands and draws before the cut are its own); when a fork is revealed, the note names the
    live relatives whose secrets before the cut its reveal can tell; a revealed relative is
    no longer named (nor a finished one), and a game with no relative gets no note."""
    status, out, err = run(db, "fork", "b1", "--at", "1", "--game", "f1")
    assert (status, out) == (0, "f1\n")
    assert err == (
        "note: f1 shares hidden history with b1, still being played: what it shows a player, "
        "or its reveal, can tell their secrets from before the cut; keep it with the referee "
        "until they end\n"
    )
    assert (
        "with b1 and f1, still being played"
        in run(db, "fork", "f1", "--at", "1", "--game", "f2")[2]
    )
    status, out, err = run(db, "reveal", "f1", "--yes", "--despite-live-forks")
    assert status == 0
    assert err == (
        "note: b1 and f2 share hidden history with f1 and are still being played: their "
        "secrets from before the fork can now be told from this game's\n"
    )
    assert run(db, "reveal", "b1", "--yes", "--despite-live-forks")[2] == (
        "note: f2 shares hidden history with b1 and is still being played: their secrets from "
        "before the fork can now be told from this game's\n"
    )
    assert run(db, "reveal", "f2", "--yes")[2] == ""
    assert run(db, "reveal", "a1", "--yes")[2] == ""


def test_a_reveal_that_would_tell_a_live_forks_secrets_is_refused_until_the_referee_says_so(
    db: Path,
) -> None:
    """Given a live game b1 with a live what-if fork f1, when a script reveals b1 with --yes
    alone, then it is refused (exit 1, input/live_forks) naming f1 and the option, and nothing
    is appended: b1's head and f1 are as they were; with --despite-live-forks it is revealed."""
    assert run(db, "fork", "b1", "--at", "1", "--game", "f1")[0] == 0
    head = run(db, "head", "b1")[1]
    status, out, err = run(db, "reveal", "b1", "--yes")
    assert (status, out) == (1, "")
    assert err == (
        "error[input/live_forks]: f1 shares hidden history with b1 and is still being played: "
        "revealing b1 would tell their secrets from before the fork; nothing revealed (to "
        "reveal it anyway: warlog reveal b1 --despite-live-forks, or ?despite_live_forks=true "
        "over HTTP)\n"
    )
    assert run(db, "head", "b1")[1] == head
    status, out, _ = run(db, "reveal", "b1", "--despite-live-forks", "--json")
    assert status == 0 and json.loads(out)["seq"] == int(head.split()[0]) + 1


def open_record(db: Path, tmp_path: Path) -> str:
    """The path of the referee's record (``export --open``) of h1, a new game of Heroic Battles
    three commands in."""
    assert run(db, "new", "heroic-battles", "--game", "h1")[0] == 0
    for _ in range(3):
        assert run(db, "play", "h1", run(db, "legal", "h1")[1].splitlines()[0])[0] == 0
    record = str(tmp_path / "open.jsonl")
    assert run(db, "export", "h1", "--open", "-o", record)[0] == 0
    return record


def test_a_log_that_plays_by_a_live_games_key_is_not_imported_beside_it(
    db: Path, tmp_path: Path
) -> None:
    """Given h1 still being played, its referee's record (``export --open``) and its public
    export, when either is imported into the same database, with --chain-only too, then it is
    refused (exit 1, input/live_forks) in one line naming h1, and nothing is imported: the copy
    would roll h1's dice (its key is here), so playing it on would show h1's coming rolls and
    draws, and revealing it h1's seed. With --despite-live-forks it is imported; once h1 is
    revealed, its key public, it is imported without a word."""
    record = open_record(db, tmp_path)
    public = str(tmp_path / "public.jsonl")
    assert run(db, "export", "h1", "-o", public)[0] == 0
    refusal = (
        "error[input/live_forks]: this log plays by the key of h1, still being played: game "
        "{copy} would roll its dice and hold its secrets; nothing imported (fork a game with "
        "--dice new to try what-ifs; import it once it is revealed, or anyway: warlog import "
        "FILE --despite-live-forks)\n"
    )
    for file, extra in ((record, ()), (public, ("--chain-only",))):
        status, out, err = run(db, "import", file, "--game", "copy", *extra)
        assert (status, out, err) == (1, "", refusal.format(copy="copy"))
    assert "copy" not in run(db, "games")[1]
    assert run(db, "import", record, "--game", "c1", "--despite-live-forks") == (0, "c1\n", "")
    assert run(db, "reveal", "h1", "--yes", "--despite-live-forks")[0] == 0
    assert run(db, "import", public, "--game", "c2", "--chain-only") == (0, "c2\n", "")


def test_a_reveal_is_refused_both_ways_while_a_copy_imported_from_the_open_record_is_played(
    db: Path, tmp_path: Path
) -> None:
    """Given h1 still being played and h1-copy imported into the same database from its open
    record (no lineage, the same key), when a script reveals either with --yes alone, then it
    is refused (exit 1, input/live_forks) naming the other as sharing its key, and nothing is
    appended: the reveal would publish the seed both roll by. With --despite-live-forks h1 is
    revealed; h1-copy's key is public then, and its reveal goes ahead with the same seed."""
    record = open_record(db, tmp_path)
    imported = ("import", record, "--game", "h1-copy", "--despite-live-forks")
    assert run(db, *imported) == (0, "h1-copy\n", "")
    heads = {game: run(db, "head", game)[1] for game in ("h1", "h1-copy")}
    for game, other in (("h1-copy", "h1"), ("h1", "h1-copy")):
        assert run(db, "reveal", game, "--yes") == (
            1,
            "",
            f"error[input/live_forks]: {other} shares its key with {game} and is still being "
            f"played: revealing {game} would tell their secrets; nothing revealed (to reveal it "
            f"anyway: warlog reveal {game} --despite-live-forks, or ?despite_live_forks=true "
            "over HTTP)\n",
        )
    assert {game: run(db, "head", game)[1] for game in heads} == heads
    status, out, _ = run(db, "reveal", "h1", "--yes", "--despite-live-forks")
    assert status == 0 and out.split()[0] == str(int(heads["h1"].split()[0]) + 1)
    status, again, _ = run(db, "reveal", "h1-copy", "--yes")
    assert status == 0 and again.split()[1] == out.split()[1]


def test_a_copy_imported_after_the_original_is_revealed_may_be_revealed_its_key_being_public(
    db: Path, tmp_path: Path
) -> None:
    """Given h1's open record kept while h1 was played, h1 revealed, and then the record
    imported as h1-copy (its log holds no reveal, but h1's log published its key), when
    h1-copy is revealed, then it goes ahead with no note: it publishes the seed h1's reveal
    printed, nothing new, and its own log then proves its rolls."""
    record = open_record(db, tmp_path)
    status, out, _ = run(db, "reveal", "h1", "--yes")
    assert status == 0
    assert run(db, "import", record, "--game", "h1-copy")[0] == 0
    status, again, err = run(db, "reveal", "h1-copy", "--yes")
    assert (status, err) == (0, "") and again.split()[1] == out.split()[1]


def test_the_reveal_prompt_names_the_live_games_it_would_tell_about_before_revealing(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a live game b1 with a live what-if fork f1, when the referee at a terminal asks
    to reveal f1 and answers no, then the question named b1 before anything was revealed, and
    f1 is still being played."""
    import warlog.cli.disputes as disputes

    assert run(db, "fork", "b1", "--at", "1", "--game", "f1")[0] == 0
    monkeypatch.setattr(disputes, "interactive", lambda: True)
    status, out, err = run(db, "reveal", "f1", input="n\n")
    assert status == 1 and out == ""
    assert (
        "b1 shares hidden history with f1 and is still being played: their secrets from before "
        "the fork would be told too. Reveal?"
    ) in err
    assert "revealed" not in run(db, "games")[1].split("f1", 1)[1].splitlines()[0]
    status, _, err = run(db, "reveal", "f1", input="y\n")
    assert status == 0 and "note: b1 shares hidden history with f1" in err


def test_a_same_dice_fork_of_a_revealed_game_keeps_no_secret_to_warn_about(db: Path) -> None:
    """Given b1 revealed, a same-dice fork of it (its dice public) and a new-dice one, when the
    new-dice fork is revealed, then the note names no game: the same-dice fork's seed is
    already public and its parent revealed."""
    assert run(db, "reveal", "b1", "--yes")[0] == 0
    assert run(db, "fork", "b1", "--at", "1", "--game", "same", "--dice", "same")[2] == ""
    assert run(db, "fork", "b1", "--at", "1", "--game", "new")[2] == ""
    status, _, err = run(db, "reveal", "new", "--yes")
    assert (status, err) == (0, "")


def test_two_new_dice_forks_of_a_revealed_game_share_nothing_secret(db: Path) -> None:
    """Given b1 revealed and two new-dice forks of it, n1 and n2, when n2 is made and n1 is
    revealed, then neither names the other: what they share is b1's, public since its reveal;
    a fork of n2 still names n2, whose own secrets it shares."""
    assert run(db, "reveal", "b1", "--yes")[0] == 0
    assert run(db, "fork", "b1", "--at", "1", "--game", "n1")[2] == ""
    assert run(db, "fork", "b1", "--at", "1", "--game", "n2")[2] == ""
    status, _, err = run(db, "reveal", "n1", "--yes")
    assert (status, err) == (0, "")
    first = run(db, "legal", "n2")[1].splitlines()[0]
    assert run(db, "play", "n2", first)[0] == 0
    head = run(db, "head", "n2")[1].split()[0]
    status, out, err = run(db, "fork", "n2", "--at", head, "--game", "n3")
    assert (status, out) == (0, "n3\n")
    assert err.startswith("note: n3 shares hidden history with n2, still being played")


def test_a_relative_that_cannot_be_read_is_named_as_live(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given b1 with a fork f1 whose state cannot be folded here (its key file's rows damaged),
    when b1 is revealed, then f1 is named among the live games it may tell about (it may be
    live: nothing says it is over), and the reveal is not lost to the error."""
    from warlog.arbiter.application import Arbiter
    from warlog.domain.core.errors import StoreError

    assert run(db, "fork", "b1", "--at", "1", "--game", "f1")[0] == 0
    folded = Arbiter.folded

    def damaged(self: Arbiter, game: str, at: int | None = None) -> object:
        if game == "f1":
            raise StoreError("the key file is damaged", "store/corrupt")
        return folded(self, game, at)

    monkeypatch.setattr(Arbiter, "folded", damaged)
    status, _, err = run(db, "reveal", "b1", "--yes", "--despite-live-forks")
    assert status == 0
    assert err.startswith("note: f1 shares hidden history with b1 and is still being played")


def test_the_dice_note_pasted_in_a_game_rolling_its_own_dice_is_told_to_give_the_command_alone(
    tmp_path: Path,
) -> None:
    # given an auto-dice game, and a line a referee copied from a manual-dice game's `legal`
    db = tmp_path / "auto.db"
    assert run(db, "new", "armageddon-empires", "--game", "g1")[0] == 0
    head = run(db, "head", "g1")[1]
    line = '{"type": "buy_initiative", "player": "red", "count": 1}  # dice: 1 d6 for initiative'
    # when it is played, then the refusal says the command alone is what this game takes (a
    # "dice" list would be refused here, input/unexpected_dice), and nothing is appended
    status, _, err = run(db, "play", "g1", line)
    assert status == 1 and err.count("\n") == 1
    assert err.rstrip().endswith("; a game that rolls its own dice takes the command alone")
    assert run(db, "head", "g1")[1] == head
    command = line.split("  #")[0]
    assert run(db, "play", "g1", command)[0] == 0
