"""What ``warlog fuzz`` demands of a step, judged by the state it is played in: the outcome a
command must have, where two values first differ, and when a game is at a dead end."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import msgspec
import pytest
from msgspec.structs import replace

from tests.fuzz import planted as plants
from tests.fuzz.test_example import loaded
from warlog.domain.battle_for_armageddon.state import GameState as BattleState
from warlog.domain.core.errors import IntegrityError, RulesError, WarlogError
from warlog.domain.core.events import Event
from warlog.domain.core.invariants import Violation
from warlog.fuzz.checks import (
    Failure,
    command_issuer,
    command_key,
    command_type,
    dead_end,
    expectation,
    first_difference,
    invariants_problem,
    outcome_problem,
)
from warlog.fuzz.example import Example, Step, forked

#: a command the game waits for: the Orks may end the phase
END_PHASE = {"type": "end_phase", "player": "orks"}
WAITING = ("orks",)
ANSWERS = frozenset({"end_phase", "deploy"})


def expected(kind: str, command: Any, answers: frozenset[str] | None = ANSWERS) -> str:
    """What must happen to ``command`` (a JSON object, or text as played) in a game that waits
    for the Orks to answer ``answers``, whose only legal command listed is END_PHASE."""
    text = command if isinstance(command, str) else json.dumps(command)
    return expectation(kind, text, lambda: {command_key(END_PHASE)}, WAITING, answers)


def test_a_command_the_rules_list_as_legal_must_be_accepted() -> None:
    assert expected("legal", END_PHASE) == "accepted"


def test_malformed_input_must_be_refused_as_bad_input_even_when_it_answers_the_game() -> None:
    """Given the Orks' end_phase with a field no command has (a malformed step), when it is
    judged, then it must be refused as bad input, though its player and type answer what the
    game waits for; so must text that is no JSON object."""
    assert expected("malformed", END_PHASE | {"sneaky": 1}) == "input"
    assert expected("legal", "{") == "input"
    assert expected("legal", "[]") == "input"


@pytest.mark.parametrize(
    ("command", "answers", "why"),
    [
        ({"type": "end_phase", "player": "imperials"}, ANSWERS, "a player it does not wait for"),
        ({"type": "move", "player": "orks", "counter": "c1"}, ANSWERS, "a type of another phase"),
        ({"type": "deploy", "player": "orks", "to": "x"}, None, "the game is over"),
    ],
    ids=["wrong player", "other phase", "game over"],
)
def test_a_command_that_cannot_be_legal_now_must_be_refused(
    command: dict[str, Any], answers: frozenset[str] | None, why: str
) -> None:
    assert expected("wrong_player", command, answers) == "refused", why


@pytest.mark.parametrize(
    ("text", "type_", "issuer"),
    [
        ('{"type": "end_phase", "player": "orks"}', "end_phase", "orks"),
        ('{"player": 3}', None, None),
        ("[]", None, None),
        ("{", None, None),
    ],
    ids=["a command", "no type, a player not a text", "not an object", "not JSON"],
)
def test_a_played_text_names_its_type_and_issuer_only_when_it_is_a_json_object(
    text: str, type_: object, issuer: str | None
) -> None:
    """Shrinking groups steps by the type they name, and a twin's check by who issued them:
    a text that holds no JSON object names neither."""
    assert (command_type(text), command_issuer(text)) == (type_, issuer)


def test_a_command_not_listed_yet_not_known_to_be_illegal_may_go_either_way() -> None:
    assert expected("mutated", {"type": "deploy", "player": "orks", "to": "x"}) == "either"


def test_a_command_not_listed_of_a_type_whose_legal_list_is_complete_must_be_refused() -> None:
    """Given a game that waits for the Orks, whose legal list of deploy is declared complete,
    when a deploy it does not list is judged, then it must be refused (``unlisted``); one it
    lists must be accepted, and one of a type not declared complete may go either way."""
    listed = {"type": "deploy", "player": "orks", "counter": "c1", "to": "y"}
    keys = {command_key(END_PHASE), command_key(listed)}

    def judged(command: dict[str, Any], complete: frozenset[str]) -> str:
        return expectation("mutated", json.dumps(command), lambda: keys, WAITING, ANSWERS, complete)

    deploy = frozenset({"deploy"})
    assert judged(listed | {"to": "x"}, deploy) == "unlisted"
    assert judged(listed, deploy) == "accepted"
    assert judged(listed | {"to": "x"}, frozenset({"end_phase"})) == "either"
    # a player or a type the game does not wait for is refused, whatever is complete
    assert judged(listed | {"player": "imperials"}, deploy) == "refused"


def test_a_command_is_listed_when_the_rules_decode_it_as_one_listed() -> None:
    """Given a listed command whose field left out has its default, when the same command
    naming that default is judged with the rules' key, then it is the listed command."""
    listed = {"type": "deploy", "player": "orks", "to": "y"}
    text = json.dumps(listed | {"note": ""})

    def key(command: dict[str, Any]) -> str:
        return command_key({k: v for k, v in command.items() if v != ""})

    keys = {command_key(listed)}
    assert expectation("mutated", text, lambda: keys, WAITING, ANSWERS, {"deploy"}) == "unlisted"
    assert expectation("mutated", text, lambda: keys, WAITING, ANSWERS, {"deploy"}, key) == (
        "accepted"
    )


def test_an_unlisted_command_of_a_complete_type_accepted_is_a_failure_naming_its_type() -> None:
    assert outcome_problem("unlisted", None, True, "place") == (
        "a place command was accepted though legal did not list it (the ruleset declares "
        "place's legal list complete: a bug in decide or in legal)"
    )
    assert outcome_problem("unlisted", RulesError("no", "rules/bad_place"), False) is None
    assert outcome_problem("unlisted", WarlogError("what?", "input/bad"), False) is None


def test_a_command_known_to_be_illegal_accepted_is_a_failure_malformed_input_too() -> None:
    assert outcome_problem("refused", None, True) == "a command known to be illegal was accepted"
    assert outcome_problem("input", None, True) == "a command known to be illegal was accepted"
    assert outcome_problem("accepted", None, True) is None
    assert outcome_problem("either", None, True) is None


def test_a_refused_command_that_appended_events_is_a_failure_whatever_was_expected() -> None:
    error = RulesError("not now", "rules/not_now")
    for expect in ("refused", "either", "input"):
        problem = outcome_problem(expect, error, True)
        assert problem == "a refused command appended events (error[rules/not_now]: not now)"


def test_a_refusal_must_be_by_the_rules_or_as_bad_input_and_malformed_input_as_bad_input() -> None:
    """Given refusals of commands that may be refused, when their exit codes are judged, then
    exit 3 (the rules) and exit 1 (bad input) pass, exit 4 never does, and malformed input
    refused by the rules (exit 3) is a failure."""
    rules, bad = RulesError("not now", "rules/not_now"), WarlogError("what?", "input/bad")
    assert outcome_problem("either", rules, False) is None
    assert outcome_problem("refused", bad, False) is None
    assert outcome_problem("input", bad, False) is None
    integrity = IntegrityError("broken", "integrity/broken")
    assert outcome_problem("either", integrity, False) == (
        "refused with exit 4, not as bad input (1) or by the rules (3): "
        "error[integrity/broken]: broken"
    )
    assert outcome_problem("input", rules, False) == (
        "malformed input refused as if by the rules (exit 3): error[rules/not_now]: not now"
    )
    assert outcome_problem("accepted", rules, False) == (
        "a legal command was refused: error[rules/not_now]: not now"
    )


def test_every_broken_invariant_is_a_failure_the_first_three_named() -> None:
    broken = [Violation(f"rule_{i}", f"detail {i}") for i in range(4)]
    assert invariants_problem([]) is None
    assert invariants_problem(broken[:1]) == "rule_0: detail 0"
    assert invariants_problem(broken) == "rule_0: detail 0; rule_1: detail 1; rule_2: detail 2"


def test_two_values_first_differ_where_a_list_is_longer_or_a_number_is_a_flag() -> None:
    assert first_difference({"hand": [1, 2]}, {"hand": [1, 2, 3]}) == "hand: 2 items != 3 items"
    assert first_difference({"a": {"b": 1}}, {"a": {"b": True}}) == "a.b: 1 != true"
    assert first_difference({"a": 1}, {"b": 1}) == "a: 1 != missing"
    assert first_difference([1, {"x": "y"}], [1, {"x": "y"}]) is None


class Waiting(SimpleNamespace):
    """A ruleset whose game is not over and waits for ``waiting``."""

    def is_terminal(self, state: Any) -> bool:
        return False

    def decision(self, state: Any) -> Any:
        return SimpleNamespace(waiting="orks")


def test_a_game_not_over_is_at_a_dead_end_when_nobody_it_waits_for_has_a_legal_command() -> None:
    """Given a game not over, when the players it waits for are listed with their legal
    commands, then it is a dead end if nobody is waited for or every one waited for has no
    legal command, and not while any one of them has one."""
    rules: Any = Waiting()
    assert dead_end(rules, None, {}) == "the game is not over but waits for nobody (orks)"
    assert dead_end(rules, None, {"orks": []}) == (
        "the game waits for orks but orks has no legal command"
    )
    assert dead_end(rules, None, {"orks": [], "imperials": [END_PHASE]}) is None
    assert dead_end(rules, None, {"orks": [END_PHASE]}) is None


class OverspentBuild(plants.PinnedBattle):
    """An ``evolve`` that, once armed, leaves the Imperials' build points below none after any
    event (a deployment paid twice, say): a state the rules would fold without complaint."""

    name: ClassVar[str] = "bfa-planted-overspent"
    armed = False

    def evolve(self, state: BattleState, event: Event) -> BattleState:
        state = super().evolve(state, event)
        return replace(state, build_points=-1) if self.armed else state


def test_warlog_fuzz_reports_a_broken_invariant_of_the_ruleset_as_an_invariants_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a fork of a recorded Battle for Armageddon game (recorded under the fixed rules)
    whose evolve, from the fork on, breaks build_never_negative, when an example plays a legal
    step, then the step fails the ``invariants`` check in the ruleset's own words."""
    monkeypatch.setitem(plants.PLANTED, OverspentBuild.name, OverspentBuild)
    rules = OverspentBuild()
    with loaded(OverspentBuild.name, tmp_path, rules) as (holder, src, tally):
        example = Example(forked(holder, src, src.ends[-1], b"\1" * 32), tally, twins=False)
        assert example.ruleset is rules
        (command, *_) = next(iter(example.legal.values()))
        rules.armed = True
        with pytest.raises(Failure) as failed:
            example.run(Step("legal", msgspec.json.encode(command).decode()))
    assert failed.value.check == "invariants"
    assert failed.value.message.startswith("build_never_negative: -1 build points, ")
    assert failed.value.since is None  # the step itself fails: its fixture replays it
