"""Properties of whole battles played at random: every legal command is accepted as it is, a
command's dice are counted before any is rolled (so a referee always knows how many to type), and
odd input is refused as a rules or input error, never as a crash."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.domain.heroic_battles.helpers import open_field, proving_ground
from tests.domain.heroic_battles.invariants import check_invariants
from warlog.domain.core.dice import SeededDice
from warlog.domain.core.errors import WarlogError
from warlog.domain.core.fold import evolve_event
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles.ruleset import RULESET
from warlog.domain.heroic_battles.state import GameState

GAMES = 8
SAMPLED = 6


class Probe:
    """Dice that show ``face(i, sides)`` for the i-th die and remember every die asked for."""

    def __init__(self, face: Any) -> None:
        self.face = face
        self.demand: list[int] = []

    def faces(self, offset: int, count: int, sides: int) -> list[int]:
        out = [self.face(len(self.demand) + i, sides) for i in range(count)]
        self.demand += [sides] * count
        return out


FILLERS = [
    lambda i, s: 1,
    lambda i, s: s,
    lambda i, s: 3,
    lambda i, s: (i * 5 + 2) % s + 1,
]


def battles() -> Iterator[tuple[int, GameState, random.Random]]:
    """The states of ``GAMES`` battles played half at random, half by the autoplay policy."""
    for seed in range(GAMES):
        rng = random.Random(seed)
        state = RULESET.initial_state(open_field() if seed % 2 else proving_ground())
        steps = 0
        while not RULESET.is_terminal(state) and steps < 400:
            yield steps, state, rng
            player = RULESET.active_players(state)[0]
            legal = RULESET.legal_commands(state, player)
            cmd = rng.choice(legal) if rng.random() < 0.5 else RULESET.choose(state, player, legal)
            dice = SeededDice(bytes([seed]) * 32, "test", "", steps)
            for event in RULESET.decide(state, cmd, dice):
                state = evolve_event(RULESET, state, event)  # type: ignore[assignment]
            check_invariants(state)
            steps += 1
        assert RULESET.is_terminal(state), f"battle {seed} did not end in 400 commands"


def test_legal_commands_are_accepted_and_their_dice_are_counted_before_any_is_rolled() -> None:
    for _, state, rng in battles():
        for player in RULESET.active_players(state):
            legal = RULESET.legal_commands(state, player)
            assert legal, RULESET.decision(state)
            for command in rng.sample(legal, min(SAMPLED, len(legal))):
                demands = set()
                for filler in FILLERS:
                    probe = Probe(filler)
                    RULESET.decide(state, command, probe)  # raises if legal lied
                    demands.add(tuple(probe.demand))
                assert len(demands) == 1, f"{command}: dice counts {sorted(map(len, demands))}"


def test_players_not_waited_for_have_no_legal_command() -> None:
    for steps, state, _ in battles():
        if steps % 7:
            continue
        active = set(RULESET.active_players(state))
        for player in ("red", "blue", "britons", "saxons"):
            if player in RULESET.seats(state) and player not in active:
                assert RULESET.legal_commands(state, player) == []


# -- odd input --------------------------------------------------------------------------------------


NAMES = st.sampled_from(
    [
        "red-warriors",
        "red-champion",
        "blue-horde",
        "red-lord",
        "blue-king",
        "blue-scouts",
        "comitatus",
        "artos",
        "nobody",
        "",
        "melee-1",
        "red",
    ]
)


BY_TAG = {cls.type_name(): cls for cls in c.COMMAND_TYPES}


def command_of(cls: type[c.Command], players: list[str]) -> st.SearchStrategy[Any]:
    """Commands of ``cls`` with odd and ordinary values in every field."""
    fields: dict[str, Any] = {"player": st.sampled_from([*players, "red", "blue", "saxons"])}
    for f in msgspec.structs.fields(cls):
        if f.name in ("player", "dice"):
            continue
        kind = str(f.type)
        if f.name == "into":
            fields[f.name] = st.sampled_from(["clear", "friends", "blocked", "off_table"])
        elif f.name == "facing":
            fields[f.name] = st.sampled_from(["front", "flank", "rear"])
        elif f.name == "direction":
            fields[f.name] = st.sampled_from(["ahead", "any"])
        elif "dict" in kind:
            fields[f.name] = st.dictionaries(NAMES, st.integers(0, 9), max_size=2)
        elif "list" in kind:
            fields[f.name] = st.lists(NAMES, max_size=3)
        elif f.type is bool:
            fields[f.name] = st.booleans()
        elif "int" in kind:
            fields[f.name] = st.integers(0, 9)
        else:
            fields[f.name] = NAMES
    return st.fixed_dictionaries(fields).map(lambda kw: msgspec.convert(kw, cls))


@pytest.fixture(scope="module")
def waiting_states() -> list[GameState]:
    """One state for each kind of decision met in the battles (the first of each)."""
    found: dict[str, GameState] = {}
    for _, state, _ in battles():
        decision = RULESET.decision(state)
        if decision is not None and decision.kind not in found:
            found[decision.kind] = state
    return list(found.values())


@settings(max_examples=600, deadline=None)
@given(data=st.data())
def test_odd_commands_are_refused_with_a_rules_or_input_error(
    waiting_states: list[GameState], data: st.DataObject
) -> None:
    state = data.draw(st.sampled_from(waiting_states), label="state")
    decision = RULESET.decision(state)
    assert decision is not None
    answers = st.sampled_from(decision.answers)
    tag = data.draw(
        st.one_of(answers, answers, answers, st.sampled_from(list(BY_TAG))), label="type"
    )
    command = data.draw(command_of(BY_TAG[tag], list(decision.players)), label="command")
    try:
        events = RULESET.decide(state, command, SeededDice(bytes(32), "odd", "", 1))
    except WarlogError as exc:
        assert exc.code.startswith(("rules/", "input/")), exc.code
        return
    # an odd command the rules accept leaves a state that keeps every invariant (a Mighty Deed
    # spent that the hero did not have, stamina below 0, a marker on nothing...)
    after = state
    for event in events:
        after = RULESET.evolve(after, event)
    assert RULESET.invariants(after) == [], command


def test_autoplay_has_nothing_to_choose_from_an_empty_list_or_a_finished_battle() -> None:
    state = RULESET.initial_state(proving_ground())
    with pytest.raises(ValueError, match="nothing to choose from"):
        RULESET.choose(state, "red", [])
    over = msgspec.structs.replace(state, phase="over", result="draw")
    assert RULESET.is_terminal(over)
    with pytest.raises(ValueError, match="nothing to choose from"):
        RULESET.choose(over, "red", [c.EndMovement(player="red")])
