"""The steps the fuzzer draws: each kind about as often as its weight, each choice about even;
the values a mutated command is given (those of the same kind the state holds among them); and
what each kind of step becomes when the game gives it nothing to work on (no side left out, no
other value of a field, no command of another phase)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any, cast
from unittest.mock import patch

import hypothesis
import msgspec
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from warlog.fuzz import strategies
from warlog.fuzz.example import Step
from warlog.fuzz.strategies import KINDS, SPREAD, below, draw_step

#: the first draw of a step of each kind with one legal command (its roll, in hundredths)
MUTATED, WRONG_PLAYER, OTHER_PHASE, MALFORMED = 80, 94, 96, 98


class Draws:
    """Hypothesis's draws, given in advance: each choice of an item of n (``below``) takes the
    next value, which must be below n; each coin, the next value."""

    def __init__(self, *values: int | bool) -> None:
        self.values = list(values)

    def draw(self, strategy: Any) -> Any:
        return self.values.pop(0)

    def below(self, n: int) -> int:
        value = self.values.pop(0)
        assert 0 <= value < n, (value, n)
        return int(value)


def drawn(
    legal: dict[str, Any],
    *values: int,
    recorded: Sequence[dict[str, Any]] = (),
    answers: tuple[str, ...] = (),
    given: dict[str, list[Any]] | None = None,
    typed: dict[str, dict[str, list[Any]]] | None = None,
    complete: frozenset[str] = frozenset(),
    others: Sequence[dict[str, Any]] = (),
    state: Any = None,
) -> Step:
    """The step drawn by ``values`` (the first: the roll of its kind, ``KINDS``' hundredths)
    in a game that waits for the sides of ``legal`` (each seat
    among them) for one of ``answers``, from a log that recorded ``recorded`` whose commands
    gave their fields the values ``given`` (``typed``: by command type), under rules whose
    legal list of the types ``complete`` is complete (``others``: more legal commands, after
    ``legal``), in ``state``; every draw must be used."""
    example = SimpleNamespace(
        legal={p: [c | {"player": p} for c in (legal, *others)] for p in ("orks",)},
        seats=["orks"],
        game="g",
        arb=SimpleNamespace(folded=lambda game: SimpleNamespace(state=state)),
        ruleset=SimpleNamespace(decision=lambda state: SimpleNamespace(answers=list(answers))),
    )
    source = SimpleNamespace(
        commands=list(recorded),
        values=given or {},
        typed_values=typed or {},
        ruleset=SimpleNamespace(complete_legal=complete),
    )
    draws = Draws(*values)
    with patch.object(strategies, "below", lambda data, n: data.below(n)):
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
    assert (step.kind, step.drawn) == ("mutated", "wrong_player")
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


def test_a_mutated_command_of_a_complete_type_takes_a_value_the_game_gave_not_listed() -> None:
    """Given placements of counter c listed to "a" and "d", and a log whose placements went to
    "a", "b" and "d" and whose other commands went to "x" and "y", when the first one's ``to``
    is mutated, then a type whose legal list is complete draws a group, then a value of it:
    what its type was given ("b"), what any type was given ("x", "y"), made-up places; never
    "d", listed. Another type draws among every value the game gave the field, the listed one
    first, each value once."""
    place = {"type": "place", "counter": "c", "to": "a"}
    other = place | {"to": "d"}
    given = {"to": ["a", "b", "d", "x", "y"]}
    typed = {"place": {"to": ["a", "b", "d"]}}

    def mutated(complete: frozenset[str], *draws: int) -> Any:
        # a mutated step, the first of two legal commands, its second field (to), then the
        # group and the value (no draw for a group of one)
        step = drawn(
            place, MUTATED, 0, 1, *draws, given=given, typed=typed, complete=complete,
            others=[other],
        )  # fmt: skip
        return json.loads(step.text)["to"]

    complete = frozenset({"place"})
    assert [mutated(complete, 0), mutated(complete, 1, 0), mutated(complete, 1, 1)] == [
        "b",
        "x",
        "y",
    ]
    assert [mutated(complete, 2, 0), mutated(complete, 2, 1)] == ["", "nowhere"]
    groups = [["d"], ["b"], ["x", "y"], ["", "nowhere"]]  # the listed one, then the log's
    for g, group in enumerate(groups):
        tail = [[i] for i in range(len(group))] if len(group) > 1 else [[]]
        assert [mutated(frozenset(), g, *i) for i in tail] == group


def test_a_field_with_no_other_value_of_its_type_makes_a_command_of_another_phase() -> None:
    """Given a legal command whose only field is null (no other value of its JSON type to
    give it), when a mutated step is drawn, then a command the log recorded of another phase
    is drawn instead, and the step says it was drawn as mutated; with none recorded,
    malformed input."""
    recorded = [{"type": "deploy", "counter": "boyz-2", "player": "orks"}]
    step = drawn({"type": "retreat", "to": None}, MUTATED, recorded=recorded)
    assert (step.kind, step.drawn) == ("other_phase", "mutated")
    assert json.loads(step.text) == recorded[0]
    step = drawn({"type": "retreat", "to": None}, MUTATED, 0, 0)  # garbage: the first
    assert step == Step("malformed", "{", drawn="mutated")


def test_a_command_with_no_field_makes_a_command_of_another_phase() -> None:
    """Given a game that waits for a roll (a command with no field to mutate), when a mutated
    step is drawn, then a command of another phase is drawn instead."""
    recorded = [{"type": "deploy", "counter": "boyz-2", "player": "orks"}]
    step = drawn({"type": "roll"}, MUTATED, recorded=recorded)
    assert (step.kind, step.drawn) == ("other_phase", "mutated")


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
    assert (step.kind, step.drawn) == ("malformed", "other_phase")
    assert json.loads(step.text) == {"type": "teleport", "counter": "boyz-1", "player": "orks"}


def test_the_last_hundredths_draw_malformed_input() -> None:
    """Given a roll in the last four hundredths (the weight of malformed input), then malformed
    input is drawn."""
    for roll in range(MALFORMED, 100):
        assert drawn({"type": "end_phase"}, roll, 0, 0) == Step("malformed", "{")


class Unit(msgspec.Struct, frozen=True):
    id: str
    force: str


class Table(msgspec.Struct, frozen=True):
    """A state as a ruleset's holds its pieces: a map of those on the table, and the
    scenario's list of every one, the destroyed ones too."""

    units: dict[str, Unit]
    scenario: tuple[Unit, ...]


def test_a_mutated_id_of_a_complete_type_takes_the_other_pieces_of_its_kind_the_state_holds() -> (
    None
):
    """Given a hero of the Saxons who may join only their unit own-1 (a type whose legal list
    is complete), in a state that holds the Britons' unit enemy-1 and, in its scenario alone,
    the destroyed unit fallen-1, and a log that never named either, when the join's unit is
    mutated, then three times in four it is given a unit of the state no legal join names (the
    Britons', the destroyed one), and otherwise a value of the groups: the same two, then a
    made-up one (never the forces, which stand elsewhere in the state)."""
    own, enemy = Unit("own-1", "saxons"), Unit("enemy-1", "britons")
    state = Table({"own-1": own, "enemy-1": enemy}, (own, enemy, Unit("fallen-1", "britons")))
    join = {"type": "join_unit", "hero": "aelle", "unit": "own-1"}

    def mutated(unused: int, index: int) -> Any:
        # a mutated step, its second field (unit), the odds of the unused values, then one of
        # them or of the one group (nothing else gave a unit)
        complete = frozenset({"join_unit"})
        step = drawn(join, MUTATED, 1, unused, index, complete=complete, state=state)
        return json.loads(step.text)["unit"]

    assert [mutated(u, i) for u in range(3) for i in range(2)] == ["enemy-1", "fallen-1"] * 3
    assert [mutated(3, i) for i in range(4)] == ["enemy-1", "fallen-1", "", "nowhere"]


def test_a_mutated_command_s_type_is_drawn_first_each_type_as_likely_as_another() -> None:
    """Given a hundred legal moves and one join (one type offered in many forms, another
    once), when a mutated step is drawn, then its first draw after the kind picks the type:
    the join is the second type's first command."""
    moves = [{"type": "move", "unit": f"u{i}"} for i in range(100)]
    join = {"type": "join_unit", "hero": "h", "unit": "u0"}
    step = drawn(moves[0], MUTATED, 1, 0, 0, others=[*moves[1:], join], given={"unit": ["u7"]})
    assert json.loads(step.text)["type"] == "join_unit"


@pytest.mark.parametrize("n", [2, 3, 40, 100, 257])
def test_a_number_below_n_is_one_wide_draw_taken_modulo_n(n: int) -> None:
    """Given n items, when a number below n is drawn, then it is one integer of a range a
    thousand times wider, taken modulo n: 0, where a failure shrinks to, gives 0; every
    number below n is reached, and so is each again from the far end of the range."""

    class Wide:
        def __init__(self, value: int) -> None:
            self.value = value

        def draw(self, strategy: Any) -> int:
            assert repr(strategy) == f"integers(min_value=0, max_value={n * SPREAD - 1})"
            return self.value

    assert below(cast(st.DataObject, Wide(0)), n) == 0
    assert {below(cast(st.DataObject, Wide(v)), n) for v in range(n)} == set(range(n))
    top = n * SPREAD - 1
    assert {below(cast(st.DataObject, Wide(top - v)), n) for v in range(n)} == set(range(n))


def test_hypothesis_draws_each_kind_of_step_in_its_documented_proportion() -> None:
    """Given a game in which every kind of step has something to work on (forty legal
    commands, each with a field to mutate, for the Orks; the Imperials idle; a command of
    another phase in the log), when Hypothesis draws the steps of 300 examples (a key first,
    as the search's do, then four steps: 1,200), then each kind is drawn within 3 hundredths
    of its weight (legal 80, mutated 14, the other three 2 each). Hypothesis draws an
    integer's small values most often: one draw of 0..99 made 86 steps in a hundred legal, one
    of 0..100 x the commands nine in ten."""
    example = SimpleNamespace(
        legal={"orks": [{"type": "deploy", "counter": f"boyz-{i}", "player": "orks"}
                        for i in range(40)]},
        seats=["imperials", "orks"],
        game="g",
        arb=SimpleNamespace(folded=lambda game: SimpleNamespace(state=None)),
        ruleset=SimpleNamespace(decision=lambda state: SimpleNamespace(answers=["deploy"])),
    )  # fmt: skip
    source = SimpleNamespace(
        commands=[{"type": "end_phase", "player": "orks"}],
        values={"counter": ["boyz-1"]},
        typed_values={},
        ruleset=SimpleNamespace(complete_legal=frozenset()),
    )
    kinds: Counter[str] = Counter()

    @hypothesis.seed(2)
    @settings(max_examples=300, database=None, phases=[Phase.generate])
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        data.draw(st.integers(0, 2**32 - 1))  # as an example's key is, before its steps
        for _ in range(4):
            step = draw_step(data, cast(Any, example), cast(Any, source))
            assert not step.drawn  # nothing fell back: the kind drawn is the kind played
            kinds[step.kind] += 1

    draw()
    share = {kind: round(100 * n / sum(kinds.values())) for kind, n in kinds.items()}
    weights = dict(KINDS)
    assert all(abs(share.get(kind, 0) - weight) <= 3 for kind, weight in weights.items()), share
