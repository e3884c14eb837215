"""A tiny ruleset for testing the engine apart from any real game: a dice race.

Players take turns; ``roll`` throws ``count`` d6 (1-3) and scores the faces of 4+ as successes;
``pass`` hands the turn on. The first to ``target`` successes wins. Each player has a secret
``hand`` number the other must not see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import InputError, RulesError
from warlog.domain.core.events import Event
from warlog.domain.core.procedure import Decision, Next
from warlog.domain.core.rules import Handler, Rules
from warlog.domain.core.ruleset import Command, Notice, Ruleset


class Scenario(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    players: list[str]
    target: int = 10
    hands: dict[str, int] = {}


class State(msgspec.Struct, frozen=True):
    players: list[str]
    target: int
    turn: int  # index into players
    round: int
    scores: dict[str, int]
    hands: dict[str, int]
    winner: str | None = None


class Roll(Command, frozen=True, tag="roll"):
    count: int


class Pass(Command, frozen=True, tag="pass"):
    pass


class Scored(Event, frozen=True, tag="scored"):
    player: str
    successes: int
    total: int

    def explain(self) -> str:
        return f"{self.successes} successes (faces 4-6) → total {self.total}"


class TurnPassed(Event, frozen=True, tag="turn_passed"):
    to: str
    round: int


class Won(Event, frozen=True, tag="won"):
    player: str


def _roll(batch: Batch[State], command: Roll) -> None:
    state = batch.state
    current = state.players[state.turn]
    if not 1 <= command.count <= 3:
        raise RulesError("roll 1 to 3 dice", "rules/bad_count")
    faces = batch.roll(command.count, 6, purpose="race", roller=current)
    hits = sum(1 for f in faces if f >= 4)
    total = state.scores[current] + hits
    batch.emit(Scored(current, hits, total))
    if total >= state.target:
        batch.emit(Won(current))
        return
    _pass_on(batch)


def _pass(batch: Batch[State], command: Pass) -> None:
    _pass_on(batch)


def _pass_on(batch: Batch[State]) -> None:
    state = batch.state
    nxt = (state.turn + 1) % len(state.players)
    batch.emit(TurnPassed(state.players[nxt], state.round + (1 if nxt == 0 else 0)))


class DiceRace(Rules[State, Command]):
    name: ClassVar[str] = "dice-race"
    version: ClassVar[str] = "1"
    event_types: ClassVar[tuple[type[Event], ...]] = (Scored, TurnPassed, Won)
    command_type: ClassVar[Any] = Roll | Pass
    state_type: ClassVar[type] = State
    scenario_package: ClassVar[str] = "tests.no_such_package"
    default_scenario: ClassVar[str] = ""
    handlers: ClassVar[Mapping[type[Any], Handler]] = {Roll: _roll, Pass: _pass}

    def parse_scenario(self, data: bytes) -> Scenario:
        try:
            return msgspec.toml.decode(data, type=Scenario)
        except msgspec.ValidationError as exc:
            raise InputError(f"bad scenario: {exc}", "input/bad_scenario") from None

    def scenario_from_builtins(self, obj: dict[str, Any]) -> Scenario:
        return msgspec.convert(obj, Scenario)

    def players(self, scenario: Scenario) -> list[str]:
        return list(scenario.players)

    def initial_state(self, scenario: Scenario) -> State:
        return State(
            list(scenario.players),
            scenario.target,
            0,
            1,
            {p: 0 for p in scenario.players},
            dict(scenario.hands),
        )

    def next(self, state: State) -> Next:
        if state.winner:
            return None
        current = state.players[state.turn]
        return Decision(
            players=(current,), kind="turn", answers=("roll", "pass"), waiting=f"{current}'s turn"
        )

    def seats(self, state: State) -> list[str]:
        return state.players

    def options(self, state: State, decision: Decision, player: str) -> list[Command]:
        return [Roll(player=player, count=n) for n in (1, 2, 3)] + [Pass(player=player)]

    def result(self, state: State) -> str:
        return f"{state.winner} won the race" if state.winner else ""

    def evolve(self, state: State, event: Event) -> State:
        if isinstance(event, Scored):
            return msgspec.structs.replace(
                state, scores={**state.scores, event.player: event.total}
            )
        if isinstance(event, TurnPassed):
            return msgspec.structs.replace(
                state, turn=state.players.index(event.to), round=event.round
            )
        if isinstance(event, Won):
            return msgspec.structs.replace(state, winner=event.player)
        return state

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        out: dict[str, Any] = msgspec.to_builtins(state)
        if player is not None:
            out["hands"] = {p: (h if p == player else None) for p, h in state.hands.items()}
        return out

    def notices(self, before: Any, after: Any, event: Event) -> list[Notice]:
        if isinstance(event, Scored):
            return [Notice(event.player, f"scored {event.successes}", 2)]
        return []

    def round_of(self, state: State) -> int:
        return state.round

    def is_round_start(self, event: Event) -> bool:
        return isinstance(event, TurnPassed) and event.to == "red"


RULESET: Ruleset[State, Command] = DiceRace()
SCENARIO = b'players = ["red", "blue"]\ntarget = 6\n[hands]\nred = 3\nblue = 5\n'


def rulesets(name: str) -> Any:
    if name == "dice-race":
        return RULESET
    from warlog.domain import rulesets as registry

    return registry.get(name)
