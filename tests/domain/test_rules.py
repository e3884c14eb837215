"""What the ``Rules`` base class gives a ruleset that writes none of its own: a summary of any
view, no result while the game goes on, and no invariants to break."""

from __future__ import annotations

from tests.toy import RULESET, Scenario
from warlog.domain.core.rules import Rules


def test_a_ruleset_without_its_own_summary_shows_each_top_level_value_cut_to_80_characters() -> (
    None
):
    view = {"turn": 2, "log": "x" * 100}
    summary = RULESET.summary(view, None)
    assert (summary.headline, summary.waiting) == ("dice-race", "")
    (table,) = summary.tables
    assert (table.title, table.columns) == ("state", ["", ""])
    assert table.rows == [["turn", "2"], ["log", '"' + "x" * 79]]


def test_a_ruleset_without_its_own_result_or_invariants_reports_none() -> None:
    state = RULESET.initial_state(Scenario(players=["red", "blue"], target=3))
    assert Rules.result(RULESET, state) == ""  # type: ignore[arg-type]
    assert RULESET.invariants(state) == []
