"""The steps the fuzzer draws: what each kind of step becomes when the game gives it nothing to
work on (no side left out, no other value of a field, no command of another phase)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any, cast

from hypothesis import strategies as st

from warlog.fuzz.example import Step
from warlog.fuzz.strategies import draw_step

#: the first draw of a step of each kind with one legal command (its roll, in hundredths)
MUTATED, WRONG_PLAYER, OTHER_PHASE, MALFORMED = 80, 88, 92, 96


class Draws:
    """Hypothesis's draws, given in advance: each ``draw`` takes the next value."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def draw(self, strategy: Any) -> int:
        return self.values.pop(0)


def drawn(
    legal: dict[str, Any],
    *values: int,
    recorded: Sequence[dict[str, Any]] = (),
    answers: tuple[str, ...] = (),
    given: dict[str, list[Any]] | None = None,
    typed: dict[str, dict[str, list[Any]]] | None = None,
    complete: frozenset[str] = frozenset(),
    others: Sequence[dict[str, Any]] = (),
) -> Step:
    """The step drawn by ``values`` in a game that waits for the sides of ``legal`` (each seat
    among them) for one of ``answers``, from a log that recorded ``recorded`` whose commands
    gave their fields the values ``given`` (``typed``: by command type), under rules whose
    legal list of the types ``complete`` is complete (``others``: more legal commands, after
    ``legal``); every draw must be used."""
    example = SimpleNamespace(
        legal={p: [c | {"player": p} for c in (legal, *others)] for p in ("orks",)},
        seats=["orks"],
        game="g",
        arb=SimpleNamespace(folded=lambda game: SimpleNamespace(state=None)),
        ruleset=SimpleNamespace(decision=lambda state: SimpleNamespace(answers=list(answers))),
    )
    source = SimpleNamespace(
        commands=list(recorded),
        values=given or {},
        typed_values=typed or {},
        ruleset=SimpleNamespace(complete_legal=complete),
    )
    draws = Draws(*values)
    step = draw_step(cast(st.DataObject, draws), cast(Any, example), cast(Any, source))
    assert draws.values == []
    return step


def test_a_wrong_player_step_where_the_game_waits_for_every_side_is_a_mutated_command() -> None:
    """Given a game that waits for every seat, when a wrong player's step is drawn, then it is
    a legal command with a field given another value the log gave it."""
    step = drawn(
        {"type": "deploy", "counter": "boyz-1", "to": "wastes"},
        WRONG_PLAYER,
        0,  # the field: counter
        0,  # its value: the first the log gave
        given={"counter": ["boyz-1", "boyz-2"]},
    )
    assert step.kind == "mutated"
    assert json.loads(step.text) == {
        "type": "deploy",
        "counter": "boyz-2",
        "to": "wastes",
        "player": "orks",
    }


def test_a_mutated_true_or_false_is_its_opposite() -> None:
    step = drawn({"type": "reroll", "leader": True}, MUTATED)
    assert (step.kind, json.loads(step.text)["leader"]) == ("mutated", False)


def test_a_mutated_empty_list_takes_a_list_the_log_gave_the_field() -> None:
    step = drawn({"type": "choose", "cards": []}, MUTATED, given={"cards": [[], ["a", "b"]]})
    assert (step.kind, json.loads(step.text)["cards"]) == ("mutated", ["a", "b"])


def test_a_mutated_command_of_a_complete_type_takes_what_its_type_was_given_not_listed() -> None:
    """Given placements of counter c listed to "a" and "d", and a log whose placements went to
    "a", "b" and "d" and whose other commands went to "x" and "y", when the first one's ``to``
    is mutated, then a type whose legal list is complete draws among "b" and made-up places only
    (never "d", listed), and another type among every value the game gave the field."""
    place = {"type": "place", "counter": "c", "to": "a"}
    other = place | {"to": "d"}
    given = {"to": ["a", "b", "d", "x", "y"]}
    typed = {"place": {"to": ["a", "b", "d"]}}

    def mutated(index: int, complete: frozenset[str]) -> Any:
        first = 2 * MUTATED  # the first of two legal commands, as a mutated step
        step = drawn(
            place, first, 1, index, given=given, typed=typed, complete=complete, others=[other]
        )
        return json.loads(step.text)["to"]

    assert [mutated(i, frozenset({"place"})) for i in range(3)] == ["b", "", "nowhere"]
    everything = ["d", "b", "d", "x", "y", "", "nowhere"]  # the listed ones, then the log's
    assert [mutated(i, frozenset()) for i in range(7)] == everything


def test_a_field_with_no_other_value_of_its_type_makes_malformed_input_instead() -> None:
    """Given a legal command whose only field is null (no other value of its JSON type to
    give it), when a mutated step is drawn, then malformed input is drawn instead."""
    step = drawn({"type": "retreat", "to": None}, MUTATED, 0, 0)  # garbage: the first
    assert step == Step("malformed", "{")


def test_a_command_of_another_phase_with_none_recorded_makes_malformed_input_instead() -> None:
    """Given a log whose every command answers what the game waits for now, when a command of
    another phase is drawn, then malformed input is drawn instead."""
    step = drawn(
        {"type": "deploy", "counter": "boyz-1"},
        OTHER_PHASE,
        1,  # malformed: an unknown type
        recorded=[{"type": "deploy", "counter": "boyz-2", "player": "orks"}],
        answers=("deploy",),
    )
    assert step.kind == "malformed"
    assert json.loads(step.text) == {"type": "teleport", "counter": "boyz-1", "player": "orks"}


def test_the_last_hundredths_draw_malformed_input() -> None:
    """Given a roll in the last four hundredths (the weight of malformed input), then malformed
    input is drawn."""
    for roll in range(MALFORMED, 100):
        assert drawn({"type": "end_phase"}, roll, 0, 0) == Step("malformed", "{")
