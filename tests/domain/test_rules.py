"""What the ``Rules`` base class gives a ruleset that writes none of its own: a summary of any
view, no result while the game goes on, no invariants to break, and the generic refusal of an
answer the decision does not offer (which a ruleset's ``closed_answer`` replaces)."""

from __future__ import annotations

import msgspec
import pytest

from tests.toy import RULESET, DiceRace, Roll, Scenario, State
from warlog.domain.core.errors import RulesError
from warlog.domain.core.procedure import Decision, Next
from warlog.domain.core.rules import Rules
from warlog.domain.core.ruleset import Command


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


class PassOnly(DiceRace):
    """The dice race with the roll closed: the decision offers only ``pass``."""

    def next(self, state: State) -> Next:
        found = super().next(state)
        assert isinstance(found, Decision)
        return msgspec.structs.replace(found, answers=("pass",))


class SaysWhyClosed(PassOnly):
    """The same, saying why its roll is closed."""

    def closed_answer(self, state: State, decision: Decision, command: Command) -> RulesError:
        return RulesError(f"{command.player} may not roll: the dice are away", "rules/no_dice")


def race() -> State:
    return RULESET.initial_state(Scenario(players=["red", "blue"], target=3))


def test_a_ruleset_gives_no_reason_of_its_own_for_a_closed_answer_by_default() -> None:
    state = race()
    decision = RULESET.decision(state)
    assert decision is not None
    assert Rules.closed_answer(RULESET, state, decision, Roll(player="red", count=1)) is None


def refusal(rules: DiceRace, player: str) -> tuple[str, str]:
    """The code and message refusing ``player``'s roll at the start of a race under ``rules``."""
    with pytest.raises(RulesError) as info:
        rules.admit(race(), Roll(player=player, count=1))
    return info.value.code, info.value.message


#: the generic refusal of a roll the decision does not offer
ROLL_CLOSED = (
    "rules/wrong_phase",
    "roll is not possible now: the game waits for red's turn (pass)",
)


def test_an_answer_the_decision_does_not_offer_keeps_the_generic_line_without_a_reason() -> None:
    # given a race whose decision offers red only its pass, when red rolls, then the refusal
    # says what the game waits for and what it offers
    assert refusal(PassOnly(), "red") == ROLL_CLOSED


def test_the_ruleset_s_reason_for_a_closed_answer_replaces_the_generic_line() -> None:
    # given a race whose ruleset says why the roll is closed, when red, whom the game waits
    # for, rolls, then the refusal is the ruleset's own, in its words and code
    assert refusal(SaysWhyClosed(), "red") == (
        "rules/no_dice",
        "red may not roll: the dice are away",
    )
    # and a player the game does not wait for is not told it: its refusal stays the generic one
    assert refusal(SaysWhyClosed(), "blue") == ROLL_CLOSED
