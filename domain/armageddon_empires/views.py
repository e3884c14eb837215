"""What each empire may see: the state view, redacted events, and Events-view notices (R9).

Hidden from an empire (AE-7): the other empire's hand (its size is shown) and deck (its size),
every deck's order (an empire sees its own deck's contents, sorted), the other empire's initiative
bid until the dice roll, its draws and its starting hand (the card and the die that picked it,
sealed in the log), and the cards of the catalogue it has not seen.
"""

from __future__ import annotations

from typing import Any

import msgspec

from warlog.domain.armageddon_empires.decisions import decision
from warlog.domain.armageddon_empires.events import (
    GameEnded,
    InitiativeDetermined,
    ResourcesCollected,
    SupplyTraced,
)
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.armageddon_empires.turns import AP_BY_PLACE
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import Event
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
    # AE-7: the catalogue holds only the cards this empire has seen: its own, and the others'
    # in play
    seen = {v["card"] for v in data["instances"].values()}
    data["catalogue"] = {c: v for c, v in data["catalogue"].items() if c in seen}
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
