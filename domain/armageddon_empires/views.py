"""What each empire may see: the state view, redacted events, and Events-view notices (R9).

Hidden from an empire: the other empire's hand (its size is shown) and deck (its size), every
deck's order (an empire sees its own deck's contents, sorted), the other empire's initiative bid until the dice
roll, the other empire's draws (the card and the die that picked it) and, in the game's first
event, the other empire's starting hand and deck (AE-7).
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from warlog.domain.armageddon_empires.decisions import decision
from warlog.domain.armageddon_empires.events import (
    CardDrawn,
    GameEnded,
    InitiativeDetermined,
    InitiativeDiceBought,
    ResourcesCollected,
    SupplyTraced,
)
from warlog.domain.armageddon_empires.hand import DRAW_PURPOSE
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.armageddon_empires.turns import AP_BY_PLACE
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import DiceRolled, Event, GameCreated
from warlog.domain.core.ruleset import Notice

#: R9 durations of Events-view entries, in rounds (AE-7): each is news for the round it happens
RESOURCES_NOTICE_ROUNDS = 1
INITIATIVE_NOTICE_ROUNDS = 1
OUT_OF_SUPPLY_NOTICE_ROUNDS = 1
GAME_ENDED_NOTICE_ROUNDS = 1

HIDDEN = "hidden"


def view(state: GameState, player: str | None) -> dict[str, Any]:
    """The state as JSON builtins; for an empire, without what it may not see (module doc).

    Raises InputError ``input/unknown_player`` for a name that is not an empire of the game.
    """
    # through JSON so that every tuple is a list: plain JSON builtins
    data: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(state))
    waiting = decision(state)
    data["active"] = [] if waiting is None else list(waiting.players)
    if player is None:
        return data
    if player not in state.empires:
        raise InputError(
            f"{player!r} is not an empire of this game; empires: {', '.join(state.seats)}",
            "input/unknown_player",
        )
    unseen = {c for e in state.empires.values() if e.id != player for c in (*e.hand, *e.deck)}
    data["instances"] = {c: v for c, v in data["instances"].items() if c not in unseen}
    for eid, emp in data["empires"].items():
        own = eid == player
        deck = emp.pop("deck")
        emp["deck_size"] = len(deck)
        if own:
            emp["deck_contents"] = sorted(deck)
        else:
            emp["hand_size"] = len(emp.pop("hand"))
    data["bids"] = {e: (n if e == player else HIDDEN) for e, n in data["bids"].items()}
    return data


def visible_event(event: Event, player: str) -> Event | None:
    """``event`` as ``player`` may see it: itself, a redacted copy, or None (a hidden draw die)."""
    if isinstance(event, CardDrawn) and event.empire != player:
        return replace(event, card=None)
    if isinstance(event, InitiativeDiceBought) and event.empire != player:
        return replace(event, count=None)
    if isinstance(event, DiceRolled) and event.purpose == DRAW_PURPOSE and event.roller != player:
        return None
    if isinstance(event, GameCreated):
        return _redacted_creation(event, player)
    return event


def _redacted_creation(event: GameCreated, player: str) -> GameCreated:
    scenario = dict(event.scenario)
    empires = []
    for emp in scenario.get("empires", []):
        if isinstance(emp, dict) and emp.get("id") != player:
            emp = {
                **emp,
                "hand": [HIDDEN] * len(emp.get("hand", [])),
                "deck": [HIDDEN] * len(emp.get("deck", [])),
            }
        empires.append(emp)
    scenario["empires"] = empires
    return replace(event, scenario=scenario)


def notices(before: GameState, after: GameState, event: Event) -> list[Notice]:
    """The Events-view entries ``event`` posts (R9; durations above)."""
    if isinstance(event, ResourcesCollected):
        text = f"Round {after.round}: collected {event.gained.text()}"
        return [Notice(event.empire, text, RESOURCES_NOTICE_ROUNDS)]
    if isinstance(event, InitiativeDetermined):
        aps = AP_BY_PLACE[len(event.order)]
        ranking = "; ".join(
            f"{i + 1}. {e}, {event.successes[e]} successes on {event.dice[e]} dice, "
            f"{aps[i]} AP before bonuses"
            for i, e in enumerate(event.order)
        )
        text = f"Round {after.round} initiative: {ranking}"
        return [Notice(e, text, INITIATIVE_NOTICE_ROUNDS) for e in event.order]
    if isinstance(event, SupplyTraced) and event.out_of_supply:
        text = (
            f"Out of supply: {', '.join(event.out_of_supply)}; armies with units may move only "
            "one hex this turn"
        )
        return [Notice(event.empire, text, OUT_OF_SUPPLY_NOTICE_ROUNDS)]
    if isinstance(event, GameEnded):
        text = f"Game over: {event.reason}; winner: {event.winner or 'none (a draw)'}"
        return [Notice(e, text, GAME_ENDED_NOTICE_ROUNDS) for e in after.seats]
    return []
