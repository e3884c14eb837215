"""What an event changed, as replay prints it: every leaf that differs as a readable path, a key
removed or added said so, at most ``limit`` lines, and a long value cut to a brief one."""

from __future__ import annotations

from warlog.projections.changes import changes


def test_each_leaf_that_differs_is_one_line_with_its_path() -> None:
    # given two views of a state that differ in one nested leaf, one key gone and one new
    before = {"empires": {"red": {"ap": 12, "hand": 3}}, "round": 1, "gone": [1]}
    after = {"empires": {"red": {"ap": 9, "hand": 3}}, "round": 1, "new": {"x": "é"}}
    # when their changes are listed
    # then each difference is named by its path, the removed and the added key said so
    assert changes(before, after) == [
        "empires.red.ap: 12 → 9",
        "gone: removed",
        'new: added {"x":"é"}',
    ]
    assert changes(before, before) == []


def test_no_more_lines_than_the_limit_are_given() -> None:
    # given views that differ in 50 leaves, and in 50 keys removed
    before = {f"k{i:02}": i for i in range(50)}
    after = {f"k{i:02}": i + 100 for i in range(50)}
    # when their changes are listed, then exactly the limit's count of lines is given (40 by
    # default), the first ones in the view's order
    assert changes(before, after) == [f"k{i:02}: {i} → {i + 100}" for i in range(40)]
    assert len(changes(before, after, limit=3)) == 3
    assert len(changes({"a": before}, {"a": {}}, limit=5)) == 5


def test_a_long_value_is_cut_to_80_characters_ending_in_an_ellipsis() -> None:
    # given a value whose JSON is longer than 80 characters, and one of exactly 80
    long, fits = "x" * 100, "y" * 78  # 78 characters and their two quotes: 80
    # when it changes, then it is shown in 80 characters, the last of them "…"; the other whole
    (line,) = changes({"v": 1}, {"v": long})
    shown = line.removeprefix("v: 1 → ")
    assert len(shown) == 80 and shown == '"' + "x" * 78 + "…"
    assert changes({"v": 1}, {"v": fits}) == [f'v: 1 → "{fits}"']
