"""The fuzzer's sources: the recorded games a folder or a list of files names, each imported
into memory under an id of its own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.cli.command import run
from tests.fuzz.test_command import BFA, ROOT
from warlog.fuzz import sources

FIXTURES = ROOT / "fixtures"


def test_a_folder_gives_its_warlog_logs_each_once_and_nothing_else(tmp_path: Path) -> None:
    """Given a folder holding a recorded game, the same game again in a subfolder, a .jsonl
    of notes and a .jsonl of bytes that are not UTF-8, when it is fuzzed, then the game is one
    source, named by its first path; the other files are passed over."""
    shutil.copy(BFA, tmp_path / "bfa.jsonl")
    (tmp_path / "kept").mkdir()
    shutil.copy(BFA, tmp_path / "kept" / "bfa.jsonl")
    (tmp_path / "notes.jsonl").write_text("to play on friday\n", encoding="utf-8")
    (tmp_path / "noise.jsonl").write_bytes(b"\xff\xfe\x00\n")
    holder = sources.load([str(tmp_path)], lambda: pytest.fail("no database"))
    assert [(s.name, s.game) for s in holder.sources] == [
        (str(tmp_path / "bfa.jsonl"), "bfa-golden")
    ]


def test_sources_are_taken_in_one_order_whatever_the_order_they_are_named_in() -> None:
    """Given the golden games of two rulesets and the regression pairs of a third, named in one
    order and then in the reverse, some twice, when they are loaded, then the sources come in
    the same order both times: by ruleset, then by their content; each once."""
    regressions = str(FIXTURES / "regressions")
    named = [str(FIXTURES / "heroic-battles"), BFA, regressions, BFA]
    one = sources.load(named, lambda: pytest.fail("no database")).sources
    other = sources.load(named[::-1], lambda: pytest.fail("no database")).sources
    assert [(s.name, s.tip) for s in one] == [(s.name, s.tip) for s in other]
    assert [s.ruleset.name for s in one] == sorted(s.ruleset.name for s in one)
    assert len({s.tip for s in one}) == len(one) == 5  # the golden two and three pairs


def test_the_games_an_example_makes_take_ids_no_source_has(tmp_path: Path) -> None:
    """Given a recorded game whose id is "fuzz" (the stem of the games each example makes),
    then an example's game is "fuzz-2", never the source's own id."""
    db, log = tmp_path / "w.db", tmp_path / "fuzz.jsonl"
    assert run(db, "new", "battle-for-armageddon", "--game", "fuzz")[0] == 0
    assert run(db, "reveal", "fuzz", "--yes")[0] == 0
    assert run(db, "export", "fuzz", "-o", str(log))[0] == 0
    holder = sources.load([str(log)], lambda: pytest.fail("no database"))
    assert [s.game for s in holder.sources] == ["fuzz"]
    assert (holder.free_id("fuzz"), holder.free_id("fuzz-keep")) == ("fuzz-2", "fuzz-keep")


def test_a_long_game_gives_at_most_the_cap_of_fork_points_spread_from_first_to_last(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Given a recorded game with more batch ends than the cap of fork points (lowered to 10
    here, the game's ends being fewer than the real cap), then its fork points are 10 of them,
    the first and the last included, evenly spread over the rest."""
    everyone = sources.load([str(BFA)], lambda: pytest.fail("no database")).sources[0].ends
    assert len(everyone) > 10 * 3
    monkeypatch.setattr(sources, "MOST_FORK_POINTS", 10)
    (source,) = sources.load([str(BFA)], lambda: pytest.fail("no database")).sources
    step = (len(everyone) - 1) / 9
    assert source.ends == [everyone[round(i * step)] for i in range(10)]
    assert (source.ends[0], source.ends[-1]) == (everyone[0], everyone[-1])


def test_a_field_keeps_at_most_the_cap_of_values_the_first_the_log_gave(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Given a recorded game whose commands give a field more distinct values than the cap of
    values kept per field (lowered to 3 here), then that field keeps the first 3 in the order
    the log gave them, for mutated commands to draw from."""
    (whole,) = sources.load([str(BFA)], lambda: pytest.fail("no database")).sources
    many = max(whole.values, key=lambda field: len(whole.values[field]))
    assert len(whole.values[many]) > 3
    monkeypatch.setattr(sources, "MOST_VALUES", 3)
    (source,) = sources.load([str(BFA)], lambda: pytest.fail("no database")).sources
    assert source.values[many] == whole.values[many][:3]
    assert all(len(values) <= 3 for values in source.values.values())
