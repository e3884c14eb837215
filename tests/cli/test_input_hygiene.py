"""Hostile files given to the command line: each is one line naming the file (and the line of
it) that is wrong, with the contract's exit code, never a blame on the command line itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.cli.command import one_line, run
from warlog.arbiter.exchange import parse_lines
from warlog.cli.main import cli
from warlog.domain.core.errors import InputError

GOLDEN = Path(__file__).resolve().parents[2] / "fixtures" / "heroic-battles" / "hb-golden.jsonl"


def with_lone_surrogate(tmp_path: Path, where: str) -> Path:
    """The golden export whose third line holds an escaped lone surrogate (``"\\ud800"``: JSON
    allows the escape, but alone it is no character UTF-8 can hold), in ``where``."""
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    event = json.loads(lines[2])
    if where == "data":
        event["data"]["note"] = "\ud800"
    else:
        event[where] = event[where] + "\ud800"
    lines[2] = json.dumps(event)  # ensure_ascii: written as the escape \ud800
    assert "\\ud800" in lines[2]
    path = tmp_path / "sur.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("where", ["data", "type", "at"])
@pytest.mark.parametrize("command", ["audit", "import", "replay"])
def test_a_lone_surrogate_in_a_file_names_the_file_and_line_not_an_argument(
    tmp_path: Path, command: str, where: str
) -> None:
    """Given an export whose third line holds an escaped lone surrogate, when it is audited,
    imported or replayed, then one line names the file and line 3, exit 1 (bad input), and
    nothing is imported: it once said that an argument held bytes that are not UTF-8."""
    path = with_lone_surrogate(tmp_path, where)
    db = tmp_path / "w.db"
    status, out, err = run(db, command, str(path))
    line = one_line(err, "input/not_text")
    assert (status, out) == (1, "")
    assert line == (
        f"error[input/not_text]: {path} line 3 holds an escaped lone surrogate (\\ud800), "
        "which is not UTF-8 text"
    )
    assert "argument" not in line
    assert run(db, "games", "--json")[1].count('"game"') == 0


def test_parse_lines_names_the_line_holding_a_lone_surrogate() -> None:
    line = '{"seq": 1, "type": "game_created", "at": "a", "data": {"x": "\\udfff"}, "prev": "", "hash": ""}'
    with pytest.raises(InputError) as caught:
        list(parse_lines(["", line]))
    assert caught.value.code == "input/not_text"
    assert caught.value.message == (
        "line 2 holds an escaped lone surrogate (\\udfff), which is not UTF-8 text"
    )


@pytest.mark.parametrize("command", ["audit", "import", "replay"])
def test_a_line_cut_short_after_a_lone_surrogate_is_named_as_not_json(
    tmp_path: Path, command: str
) -> None:
    """Given an export whose third line holds an escaped lone surrogate and was then cut
    short, when it is read, then its first fault is named: line 3 is not JSON (exit 1)."""
    path = with_lone_surrogate(tmp_path, "at")
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2][: lines[2].index("\\ud800") + 8]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "w.db"
    status, out, err = run(db, command, str(path))
    assert (status, out) == (1, "")
    assert "line 3 is not JSON: " in one_line(err, "input/bad_json")


@pytest.mark.parametrize("command", ["audit", "import", "replay"])
def test_an_integer_of_thousands_of_digits_is_named_in_a_readers_words(
    tmp_path: Path, command: str
) -> None:
    """Given an export whose first line holds an integer of 5,000 digits, when it is read,
    then line 1 is named as not acceptable JSON in words about the input (exit 1), not with
    Python's advice on an interpreter setting."""
    path = tmp_path / "long.jsonl"
    path.write_text('{"seq": ' + "9" * 5000 + "}\n", encoding="utf-8")
    status, out, err = run(tmp_path / "w.db", command, str(path))
    assert (status, out) == (1, "")
    assert one_line(err, "input/bad_json").endswith(
        "line 1 is not acceptable JSON: an integer of thousands of digits (no count, seq or die "
        "is that long)"
    )


def test_a_surrogate_pair_escaped_is_one_character_and_accepted() -> None:
    line = '{"seq": 1, "type": "game_created", "at": "a", "data": {"x": "\\ud83d\\ude00"}, "prev": "", "hash": ""}'
    (record,) = parse_lines([line])
    assert record.data == '{"x":"😀"}'


def test_a_text_no_argument_holds_is_never_blamed_on_the_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a lone surrogate that reaches an encoding from somewhere no check caught (not from
    the command line), when the command fails on it, then the one line says it is a bug in
    warlog, exit 1, and does not tell the user that an argument was not UTF-8."""
    import warlog.arbiter.sources as sources

    def unchecked(path: str) -> object:
        return "\ud800".encode()

    monkeypatch.setattr(sources, "file_records", unchecked)
    status, out, err = run(tmp_path / "w.db", "import", str(GOLDEN))
    line = one_line(err, "internal/bug")
    assert (status, out) == (1, "")
    assert "argument" not in line and "UnicodeEncodeError" in line


@pytest.mark.parametrize(
    "bug",
    [UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed"), RuntimeError("x")],
    ids=["unchecked-surrogate", "any-other"],
)
def test_with_warlog_debug_a_bug_is_raised_with_its_traceback_instead_of_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bug: Exception
) -> None:
    """Given $WARLOG_DEBUG set (a developer tracing a bug), when a command meets a bug (a text
    no argument holds that fails to encode, or any other exception), then the exception itself
    leaves the command, for Python to print with its traceback, instead of the one line that
    names it internal/bug."""
    import warlog.arbiter.sources as sources

    def broken(path: str) -> object:
        raise bug

    monkeypatch.setattr(sources, "file_records", broken)
    argv = ["--db", str(tmp_path / "w.db"), "import", str(GOLDEN)]
    debugged = CliRunner().invoke(cli, argv, env={"WARLOG_DEBUG": "1"})
    assert debugged.exception is bug and "error[" not in debugged.stderr
    plain = CliRunner().invoke(cli, argv, env={"WARLOG_DEBUG": ""})
    assert plain.exit_code == 1
    one_line(plain.stderr, "internal/bug")


@pytest.mark.parametrize("command", ["import", "audit", "replay"])
def test_a_directory_given_as_the_file_is_one_line_exit_1(tmp_path: Path, command: str) -> None:
    """Given a directory named like an export, when it is imported, audited or replayed, then
    one line says it is a directory, exit 1, as audit always said (import once gave click's
    four-line usage error, exit 2)."""
    folder = tmp_path / "d.jsonl"
    folder.mkdir()
    status, out, err = run(tmp_path / "w.db", command, str(folder))
    assert (status, out, err) == (
        1,
        "",
        f"error[input/not_a_file]: {folder} is a directory, not an export file\n",
    )
