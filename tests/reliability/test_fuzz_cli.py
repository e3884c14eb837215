"""Arbitrary bytes and JSON fed to ``warlog play`` and ``warlog import``: only the contract's
exit codes, one line on stderr, never a traceback or a bug report, never an append.

Most examples run in-process through click's CliRunner (fast); a few nasty inputs also run as
real processes. A ``play`` input that happens to be a legal command is played, as it must be:
then exactly its one batch is appended and the log still audits clean.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.reliability.conftest import (
    ENDLESS,
    assert_one_error_line,
    assert_whole_log,
    make_game,
    records_of,
    sha256,
    warlog,
)
from tests.toy import RULESET
from tests.toy import rulesets as toy_rulesets
from warlog.arbiter.exchange import export_line
from warlog.cli.main import cli
from warlog.domain import rulesets
from warlog.eventstore.sqlite_store import SQLiteStore

NOT_APPENDED = {1, 3, 4, 5}
FIXTURE_OK = [HealthCheck.function_scoped_fixture]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=20,
)
command_tags = sorted(c.type_name() for c in RULESET.command_type.__args__)


@st.composite
def near_commands(draw: st.DrawFn) -> dict[str, Any]:
    """Objects shaped like commands: a known or unknown type, a player or not, fields with
    plausible and implausible values."""
    obj: dict[str, Any] = {}
    if draw(st.booleans()):
        obj["type"] = draw(st.sampled_from(command_tags) | st.text(max_size=8) | json_values)
    if draw(st.booleans()):
        obj["player"] = draw(st.sampled_from(["red", "blue", "", "RED", "nobody"]) | json_values)
    for name in draw(st.lists(st.sampled_from(["count", "dice", "to", "extra", "player"]))):
        obj[name] = draw(
            st.integers(-(2**70), 2**70) | st.lists(st.integers(-3, 9), max_size=4) | json_values
        )
    return obj


@pytest.fixture
def toy_registered() -> Iterator[None]:
    rulesets.register("dice-race", "tests.toy:RULESET")
    yield
    rulesets.unregister("dice-race")


@pytest.fixture
def game_db(tmp_path: Path, toy_registered: None) -> Iterator[Path]:
    db = tmp_path / "w.db"
    make_game(db, tmp_path / "endless.toml")
    yield db


def invoke(db: Path, *args: str, input: bytes | str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--db", str(db), *args], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a crash past the CLI's error handling
    return result.exit_code, result.stdout, result.stderr


def check_play(
    db: Path,
    command: str,
    input: bytes | str | None = None,
    rulesets: Callable[[str], Any] = toy_rulesets,
) -> None:
    """``warlog play g --json -- COMMAND`` ("--": a command that starts with "-" is not an
    option). The log gains exactly the events play printed (whole legal batches: none unless the
    input held legal commands), and stderr is empty on success, else one error line."""
    before = records_of(db)
    code, out, err = invoke(db, "play", "g", "--json", "--", command, input=input)
    after = records_of(db)
    assert after[: len(before)] == before
    printed = [json.loads(line) for line in out.splitlines()]
    landed = after[len(before) :]
    assert [(p["seq"], p["hash"]) for p in printed] == [(r.seq, r.hash) for r in landed]
    if landed:
        assert landed[0].type == "command_issued"
        assert_whole_log(db, rulesets=rulesets)
    if code == 0:
        assert err == ""
    else:
        assert code in NOT_APPENDED, (code, out, err)
        assert_one_error_line(err)


@settings(suppress_health_check=FIXTURE_OK)
@given(text=st.text(max_size=200))
def test_play_with_arbitrary_text(game_db: Path, text: str) -> None:
    if text.strip() in ("", "-"):
        text = text + "x"  # "-" and blank mean "read stdin": that is the next test's
    check_play(game_db, text)


@settings(suppress_health_check=FIXTURE_OK)
@given(data=st.binary(max_size=300))
def test_play_with_arbitrary_bytes_on_stdin(game_db: Path, data: bytes) -> None:
    check_play(game_db, "-", input=data)


@settings(suppress_health_check=FIXTURE_OK)
@given(value=json_values)
def test_play_with_arbitrary_json(game_db: Path, value: Any) -> None:
    check_play(game_db, json.dumps(value))


@settings(suppress_health_check=FIXTURE_OK)
@given(obj=near_commands())
def test_play_with_objects_shaped_like_commands(game_db: Path, obj: dict[str, Any]) -> None:
    check_play(game_db, json.dumps(obj))


# ---------------------------------------------------------------------- import


@pytest.fixture
def exported(game_db: Path) -> list[str]:
    """The export lines of game ``g`` after a few commands."""
    for i in range(6):
        player = ["red", "blue"][i % 2]
        assert (
            invoke(
                game_db, "play", "g", json.dumps({"type": "roll", "player": player, "count": 2})
            )[0]
            == 0
        )
    gc.collect()  # the plays' connections closed: the last one out checkpoints the WAL
    with SQLiteStore(game_db) as store:
        return [export_line(r) for r in store.read("g")]


def check_import(db: Path, tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(content)
    with SQLiteStore(db) as store:  # the WAL was checkpointed when the fixture closed the file
        games = store.games()
        records = list(store.read("g"))
    main_file = sha256(db)
    code, out, err = invoke(db, "import", str(path))
    assert code in {1, 4}, (code, out, err)
    assert out == ""
    assert_one_error_line(err)
    with SQLiteStore(db) as store:
        assert store.games() == games
        assert list(store.read("g")) == records
    assert sha256(db) == main_file  # nothing was written, not even to the WAL


@settings(suppress_health_check=FIXTURE_OK)
@given(content=st.binary(max_size=500))
def test_import_of_arbitrary_bytes(game_db: Path, tmp_path: Path, content: bytes) -> None:
    check_import(game_db, tmp_path, content)


@settings(suppress_health_check=FIXTURE_OK)
@given(lines=st.lists(json_values, max_size=6))
def test_import_of_arbitrary_json_lines(game_db: Path, tmp_path: Path, lines: list[Any]) -> None:
    check_import(game_db, tmp_path, "\n".join(json.dumps(v) for v in lines).encode())


@settings(suppress_health_check=FIXTURE_OK)
@given(data=st.data())
def test_import_of_an_export_with_one_field_spoiled(
    game_db: Path, tmp_path: Path, exported: list[str], data: st.DataObject
) -> None:
    lines = [json.loads(line) for line in exported]
    at = data.draw(st.integers(0, len(lines) - 1), label="line")
    field = data.draw(st.sampled_from(["seq", "type", "at", "data", "prev", "hash", "extra"]))
    lines[at][field] = data.draw(json_values, label="value")
    if data.draw(st.booleans(), label="shuffle a neighbour"):
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[at], lines[j] = lines[j], lines[at]
    check_import(game_db, tmp_path, "\n".join(json.dumps(v) for v in lines).encode())


# ---------------------------------------------------------------------- real processes

NASTY = {
    "not-utf8": b"\xff\xfe{\x80\x81}\n",
    "nul": b'{"type": "roll", "player": "red\x00", "count": 1}\n',
    "deep-array": b"[" * 100_000 + b"]" * 100_000 + b"\n",
    "deep-object": b'{"a":' * 50_000 + b"1" + b"}" * 50_000 + b"\n",
    "huge-int": b'{"type": "roll", "player": "red", "count": ' + b"9" * 5000 + b"}\n",
    "lone-surrogate": b'{"type": "roll", "player": "\\ud800", "count": 1}\n',
}


@pytest.mark.parametrize("data", NASTY.values(), ids=NASTY.keys())
def test_nasty_input_in_real_processes(tmp_path: Path, data: bytes) -> None:
    db = tmp_path / "w.db"
    (tmp_path / "endless.toml").write_bytes(ENDLESS)
    make_game(db, tmp_path / "endless.toml")
    before = records_of(db)
    result = warlog(db, "play", "g", "-", input=data)
    assert result.returncode in NOT_APPENDED, result
    assert_one_error_line(result.stderr)
    path = tmp_path / "in.jsonl"
    path.write_bytes(data)
    result = warlog(db, "import", str(path))
    assert result.returncode in {1, 4}, result
    assert_one_error_line(result.stderr)
    assert records_of(db) == before
    with SQLiteStore(db) as store:
        assert [g.game for g in store.games()] == ["g"]


# ---------------------------------------------------------------------- the real ruleset


def _scenario_words() -> list[str]:
    """Every id and hex the bundled Armageddon Empires scenario names."""
    ruleset = rulesets.get("armageddon-empires")
    bundled = rulesets.bundled_scenarios(ruleset)
    data = msgspec.toml.decode(bundled[sorted(bundled)[0]].read_bytes())
    words: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str) and len(value) < 40 and " " not in value:
            words.add(value)

    walk({k: data[k] for k in ("cards", "empires", "bases", "armies")})
    return sorted(words)


AE_COMMANDS = rulesets.get("armageddon-empires").command_type.__args__
AE_WORDS = _scenario_words()
hexes = st.builds(
    lambda q, r: f"{q},{r}", st.integers(-3, 14), st.integers(-3, 12)
) | st.sampled_from(
    ["", ",", "1,", ",1", "a,b", "1,2,3", " 1,2", "99999999999999999999,1", "-0,-0"]
)
words = st.sampled_from(AE_WORDS) | hexes | st.text(max_size=6)


def _value_for(annotation: Any) -> st.SearchStrategy[Any]:
    """Values of the field's own type (ints near the rules' ranges, the scenario's ids and
    hexes, lists of them), and now and then any JSON at all."""
    text = repr(annotation)
    if "int" in text:
        typed: st.SearchStrategy[Any] = st.integers(-2, 12) | st.integers(-(2**70), 2**70)
    elif "tuple" in text or "list" in text:
        typed = st.lists(words, max_size=10)
    else:
        typed = words
    return st.one_of(typed, typed, typed, json_values)


@st.composite
def ae_commands(draw: st.DrawFn) -> dict[str, Any]:
    """Armageddon Empires commands, mostly well-typed, about ids and hexes of the scenario."""
    cls = draw(st.sampled_from(AE_COMMANDS))
    obj: dict[str, Any] = {"type": cls.type_name()}
    obj["player"] = draw(st.sampled_from(["red", "blue", "red", "blue", "", "green"]))
    for field in msgspec.structs.fields(cls):
        if field.name in ("player", "dice"):
            continue
        if draw(st.integers(0, 9)):  # a field left out now and then
            obj[field.name] = draw(_value_for(field.type))
    if not draw(st.integers(0, 9)):
        obj[draw(st.sampled_from(["dice", "extra", "to", "army"]))] = draw(json_values)
    return obj


@pytest.fixture
def ae_db(tmp_path: Path) -> Path:
    from tests.reliability.conftest import SEED
    from warlog.arbiter.database import on_database

    db = tmp_path / "ae.db"
    with on_database(db, create=True, seeds=lambda: SEED) as arb:
        arb.new_game("armageddon-empires", game="g")
    return db


@settings(suppress_health_check=FIXTURE_OK)
@given(obj=ae_commands())
def test_play_with_objects_shaped_like_armageddon_empires_commands(
    ae_db: Path, obj: dict[str, Any]
) -> None:
    check_play(ae_db, json.dumps(obj), rulesets=rulesets.get)
