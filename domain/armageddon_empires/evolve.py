"""evolve: the state after one event. Applies only; every check lives in ``decide``.

Never mutates its input: every changed Struct is rebuilt with ``msgspec.structs.replace`` and
every changed dict is copied. Core events (``dice_rolled`` …) and unknown events change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from warlog.domain.armageddon_empires.events import (
    ArmyCreated,
    ArmyDisbanded,
    ArmyMoved,
    CardDealt,
    CardDeployed,
    CardDrawn,
    CardsTransferred,
    GameEnded,
    InitiativeDetermined,
    InitiativeDiceBought,
    ResourcesCollected,
    RoundBegan,
    SupplyTraced,
    TurnBegan,
    TurnEnded,
)
from warlog.domain.armageddon_empires.state import Army, Empire, GameState
from warlog.domain.core.events import Event


def _empire(state: GameState, empire: Empire) -> GameState:
    return replace(state, empires={**state.empires, empire.id: empire})


def _armies(state: GameState, *armies: Army) -> GameState:
    return replace(state, armies={**state.armies, **{a.id: a for a in armies}})


def _round_began(state: GameState, e: RoundBegan) -> GameState:
    return replace(state, round=e.round, phase="initiative", bids={}, current=None)


def _resources_collected(state: GameState, e: ResourcesCollected) -> GameState:
    emp = state.empires[e.empire]
    return _empire(state, replace(emp, resources=emp.resources + e.gained))


def _initiative_bought(state: GameState, e: InitiativeDiceBought) -> GameState:
    return replace(state, bids={**state.bids, e.empire: e.count or 0})


def _initiative_determined(state: GameState, e: InitiativeDetermined) -> GameState:
    empires = dict(state.empires)
    for eid, price in e.paid.items():
        empires[eid] = replace(empires[eid], resources=empires[eid].resources.minus(price))
    return replace(state, empires=empires, order=e.order, phase="turns", bids={})


def _turn_began(state: GameState, e: TurnBegan) -> GameState:
    emp = state.empires[e.empire]
    state = _empire(state, replace(emp, ap=e.ap, moved=(), out_of_supply=()))
    return replace(state, current=e.empire)


def _supply_traced(state: GameState, e: SupplyTraced) -> GameState:
    return _empire(state, replace(state.empires[e.empire], out_of_supply=e.out_of_supply))


def _turn_ended(state: GameState, e: TurnEnded) -> GameState:
    emp = state.empires[e.empire]
    state = _empire(state, replace(emp, ap=0, moved=(), out_of_supply=()))
    return replace(state, current=None)


def _spend(state: GameState, empire: str, ap: int) -> GameState:
    emp = state.empires[empire]
    return _empire(state, replace(emp, ap=emp.ap - ap)) if ap else state


def _army_created(state: GameState, e: ArmyCreated) -> GameState:
    state = _spend(state, e.empire, e.ap_cost)
    return _armies(state, Army(id=e.army, empire=e.empire, at=e.at))


def _army_disbanded(state: GameState, e: ArmyDisbanded) -> GameState:
    state = _spend(state, e.empire, e.ap_cost)
    armies = dict(state.armies)
    del armies[e.army]
    emp = state.empires[e.empire]
    state = _empire(state, replace(emp, moved=tuple(a for a in emp.moved if a != e.army)))
    return replace(state, armies=armies)


def _cards_transferred(state: GameState, e: CardsTransferred) -> GameState:
    state = _spend(state, e.empire, e.ap_cost)
    giver, taker = state.armies[e.from_army], state.armies[e.to_army]
    moving = set(e.cards)
    hero_in = next((c for c in e.cards if c == giver.hero), None)
    giver = replace(
        giver,
        hero=None if giver.hero in moving else giver.hero,
        units=tuple(u for u in giver.units if u not in moving),
    )
    taker = replace(
        taker,
        hero=hero_in if hero_in is not None else taker.hero,
        units=taker.units + tuple(c for c in e.cards if c != hero_in),
    )
    state = _armies(state, giver, taker)
    if e.receiver_moved:
        emp = state.empires[e.empire]
        state = _empire(state, replace(emp, moved=(*emp.moved, taker.id)))
    return state


def _army_moved(state: GameState, e: ArmyMoved) -> GameState:
    emp = state.empires[e.empire]
    state = _empire(state, replace(emp, ap=emp.ap - e.ap_cost, moved=(*emp.moved, e.army)))
    return _armies(state, replace(state.armies[e.army], at=e.to))


def _card_drawn(state: GameState, e: CardDrawn | CardDealt) -> GameState:
    emp = state.empires[e.empire]
    ap_cost = e.ap_cost if isinstance(e, CardDrawn) else 0
    deck = tuple(c for c in emp.deck if c != e.card)
    return _empire(state, replace(emp, ap=emp.ap - ap_cost, deck=deck, hand=(*emp.hand, e.card)))


def _card_deployed(state: GameState, e: CardDeployed) -> GameState:
    emp = state.empires[e.empire]
    state = _empire(
        state,
        replace(
            emp,
            ap=emp.ap - e.ap_cost,
            resources=emp.resources.minus(e.paid),
            hand=tuple(c for c in emp.hand if c != e.card),
        ),
    )
    if e.army is None:
        base = state.bases[e.base]
        bases = {**state.bases, base.id: replace(base, facilities=(*base.facilities, e.card))}
        return replace(state, bases=bases)
    army = state.armies[e.army]
    if state.card(e.card).kind == "hero":
        return _armies(state, replace(army, hero=e.card))
    return _armies(state, replace(army, units=(*army.units, e.card)))


def _game_ended(state: GameState, e: GameEnded) -> GameState:
    return replace(state, phase="over", winner=e.winner, ended=e.reason, current=None)


_APPLY: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    RoundBegan: _round_began,
    ResourcesCollected: _resources_collected,
    InitiativeDiceBought: _initiative_bought,
    InitiativeDetermined: _initiative_determined,
    TurnBegan: _turn_began,
    SupplyTraced: _supply_traced,
    TurnEnded: _turn_ended,
    ArmyCreated: _army_created,
    ArmyDisbanded: _army_disbanded,
    CardsTransferred: _cards_transferred,
    ArmyMoved: _army_moved,
    CardDrawn: _card_drawn,
    CardDealt: _card_drawn,
    CardDeployed: _card_deployed,
    GameEnded: _game_ended,
}


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``; events this ruleset does not apply leave it unchanged."""
    apply = _APPLY.get(type(event))
    return state if apply is None else apply(state, event)
