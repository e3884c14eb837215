"""A summary's words (``core.summary``): lists joined as a person writes them, counts with
their plural."""

from __future__ import annotations

from warlog.domain.core.summary import listed, plural


def test_a_list_is_joined_with_commas_and_a_last_and() -> None:
    assert listed([]) == ""
    assert listed(["red"]) == "red"
    assert listed(["red", "blue"]) == "red and blue"
    assert listed(["red", "blue", "green"]) == "red, blue and green"


def test_a_count_takes_the_singular_for_one_alone() -> None:
    assert plural(1, "hive") == "1 hive"
    assert plural(0, "hive") == "0 hives"
    assert plural(2, "die", "dice") == "2 dice"
    assert plural(0, "die", "dice") == "0 dice"
