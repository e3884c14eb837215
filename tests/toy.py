"""A tiny ruleset for testing the engine apart from any real game: a dice race.

Players take turns; ``roll`` throws ``count`` d6 (1-3) and scores the faces of 4+ as successes;
``pass`` hands the turn on. The first to ``target`` successes wins. Each player has a secret
``hand`` number the other must not see.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from warlog.domain.core.batch import Batch
from warlog.domain.core.dice import Dice
from warlog.domain.core.errors import InputError, RulesError
from warlog.domain.core.events import Event
from warlog.domain.core.ruleset import Command, Notice


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


class Roll(Command, tag="roll"):
    count: int


class Pass(Command, tag="pass"):
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


class DiceRace:
    name: ClassVar[str] = "dice-race"
    version: ClassVar[str] = "1"
    event_types: ClassVar[tuple[type[Event], ...]] = (Scored, TurnPassed, Won)
    command_type: ClassVar[Any] = Roll | Pass
    state_type: ClassVar[type] = State
    scenario_package: ClassVar[str] = "tests.no_such_package"
    default_scenario: ClassVar[str] = ""

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

    def decide(self, state: State, command: Any, dice: Dice) -> list[Event]:
        if state.winner:
            raise RulesError("the race is won", "rules/game_over")
        current = state.players[state.turn]
        if command.player != current:
            raise RulesError(
                f"it is {current}'s turn, not {command.player}'s", "rules/not_your_turn"
            )
        b = Batch(dice)
        nxt = (state.turn + 1) % len(state.players)
        if isinstance(command, Roll):
            if not 1 <= command.count <= 3:
                raise RulesError("roll 1 to 3 dice", "rules/bad_count")
            faces = b.roll(command.count, 6, purpose="race", roller=current)
            hits = sum(1 for f in faces if f >= 4)
            total = state.scores[current] + hits
            b.emit(Scored(current, hits, total))
            if total >= state.target:
                b.emit(Won(current))
                return b.events
        b.emit(TurnPassed(state.players[nxt], state.round + (1 if nxt == 0 else 0)))
        return b.events

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

    def legal_commands(self, state: State, player: str) -> list[Any]:
        if state.winner or state.players[state.turn] != player:
            return []
        return [Roll(player=player, count=n) for n in (1, 2, 3)] + [Pass(player=player)]

    def is_terminal(self, state: State) -> bool:
        return state.winner is not None

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        out: dict[str, Any] = msgspec.to_builtins(state)
        if player is not None:
            out["hands"] = {p: (h if p == player else None) for p, h in state.hands.items()}
        return out

    def visible_event(self, event: Event, player: str) -> Event | None:
        return event

    def notices(self, before: Any, after: Any, event: Event) -> list[Notice]:
        if isinstance(event, Scored):
            return [Notice(event.player, f"scored {event.successes}", 2)]
        return []

    def round_of(self, state: State) -> int:
        return state.round

    def is_round_start(self, event: Event) -> bool:
        return isinstance(event, TurnPassed) and event.to == "red"

    def active_players(self, state: State) -> list[str]:
        return [] if state.winner else [state.players[state.turn]]


RULESET = DiceRace()
SCENARIO = b'players = ["red", "blue"]\ntarget = 6\n[hands]\nred = 3\nblue = 5\n'


def rulesets(name: str) -> Any:
    if name == "dice-race":
        return RULESET
    from warlog.domain import rulesets as registry

    return registry.get(name)
