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


def test_a_long_list_that_changed_is_shown_by_the_entries_added_and_removed() -> None:
    # given a list of names too long to show whole, which gains one name in its middle
    names = [f"card-{i:02}" for i in range(12)]
    grown = sorted([*names, "card-05b"])
    # when its change is listed, then the name added is given, and the count before and after
    assert changes({"seen": names}, {"seen": grown}) == ['seen: added "card-05b" (12 → 13 entries)']
    # and a name removed, and one added, are both given
    assert changes({"seen": names}, {"seen": [*names[1:], "card-99"]}) == [
        'seen: added "card-99"; removed "card-00" (12 → 12 entries)'
    ]


def test_a_long_list_of_records_of_the_same_length_is_shown_field_by_field() -> None:
    # given a stack of records too long to show whole, whose second record changes one field
    stack = [{"frame": "battle", "round": 1, "note": "x" * 60}, {"frame": "challenge", "n": 2}]
    after = [stack[0], {"frame": "challenge", "n": 3}]
    # when its change is listed, then the field's path names the record's place
    assert changes({"frames": stack}, {"frames": after}) == ["frames.1.n: 2 → 3"]


def test_a_long_value_that_changed_never_shows_the_same_text_on_both_sides() -> None:
    # given a long text, and a long list in another order, that differ only past 80 characters
    text = "a" * 100
    order = [f"n{i:02}" for i in range(20)]
    # when their changes are listed, then each side is cut alike around where they differ
    (line,) = changes({"t": text + "b"}, {"t": text + "c"})
    was, now = line.removeprefix("t: ").split(" → ")
    assert was != now and was.endswith('b"') and now.endswith('c"')
    (line,) = changes({"o": order}, {"o": [*order[:-2], order[-1], order[-2]]})
    assert line.endswith("(the same entries reordered)")
    was, now = line.removeprefix("o: ").removesuffix(" (the same entries reordered)").split(" → ")
    assert was != now and '"n19","n18"' in now
