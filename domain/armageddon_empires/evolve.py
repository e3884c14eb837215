"""evolve: the state after one event. Applies only; every check lives in ``decide``.

Never mutates its input: every changed Struct is rebuilt with ``msgspec.structs.replace`` and
every changed dict is copied. Core events (``dice_rolled`` …) and unknown events change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from warlog.domain.armageddon_empires.challenge_events import (
    CaptureKillBegan,
    CardDamaged,
    CardRepaired,
    ChallengeAccepted,
    ChallengeOpened,
    ChallengeResolved,
    FateSpent,
    HeroCaptured,
    HeroEscaped,
    HeroKilled,
    PrerogativeTaken,
    TacticPlayed,
)
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
from warlog.domain.armageddon_empires.fog import Sighting
from warlog.domain.armageddon_empires.frames import CaptureKill
from warlog.domain.armageddon_empires.sighting_events import (
    ArmiesSighted,
    StealthDropped,
    StealthEngaged,
)
from warlog.domain.armageddon_empires.state import Army, Empire, GameState
from warlog.domain.core.events import Event
from warlog.domain.core.procedure import pop, push, replace_top


def _empire(state: GameState, empire: Empire) -> GameState:
    return replace(state, empires={**state.empires, empire.id: empire})


def _armies(state: GameState, *armies: Army) -> GameState:
    return replace(state, armies={**state.armies, **{a.id: a for a in armies}})


def _see(state: GameState, empire: str, cards: tuple[str, ...]) -> GameState:
    """``empire`` has now seen the card types of ``cards`` (its catalogue, AE-7)."""
    emp = state.empires[empire]
    types = {state.instances[c].card for c in cards}
    if types <= set(emp.seen):
        return state
    return _empire(state, replace(emp, seen=tuple(sorted({*emp.seen, *types}))))


def _round_began(state: GameState, e: RoundBegan) -> GameState:
    # R6: spent fate returns; AE-17: sightings last one round
    return replace(
        state,
        round=e.round,
        phase="initiative",
        bids={},
        current=None,
        sightings={},
        fate_spent={},
    )


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
    state = _empire(state, replace(emp, ap=e.ap, moved=(), out_of_supply=(), ap_owed=0, hunted=()))
    return replace(state, current=e.empire)


def _supply_traced(state: GameState, e: SupplyTraced) -> GameState:
    return _empire(state, replace(state.empires[e.empire], out_of_supply=e.out_of_supply))


def _turn_ended(state: GameState, e: TurnEnded) -> GameState:
    emp = state.empires[e.empire]
    state = _empire(state, replace(emp, ap=0, moved=(), out_of_supply=(), hunted=()))
    return replace(state, current=None)


def _spend(state: GameState, empire: str, ap: int) -> GameState:
    emp = state.empires[empire]
    return _empire(state, replace(emp, ap=emp.ap - ap)) if ap else state


def _army_created(state: GameState, e: ArmyCreated) -> GameState:
    state = _spend(state, e.empire, e.ap_cost)
    return _armies(state, Army(id=e.army, empire=e.empire, at=e.at))


def _army_disbanded(state: GameState, e: ArmyDisbanded) -> GameState:
    return _remove_army(_spend(state, e.empire, e.ap_cost), e.army)


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
    for other in state.seats:  # a card deployed is played face up (AE-17)
        state = _see(state, other, (e.card,))
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


def _remove_army(state: GameState, army_id: str) -> GameState:
    """The state without the army (emptied, AE-24): no empire keeps it in sight or in its
    lists of this turn."""
    armies = dict(state.armies)
    gone = armies.pop(army_id)
    emp = state.empires[gone.empire]
    emp = replace(
        emp,
        moved=tuple(a for a in emp.moved if a != army_id),
        hunted=tuple(a for a in emp.hunted if a != army_id),
        out_of_supply=tuple(a for a in emp.out_of_supply if a != army_id),
    )
    sightings = {
        o: {a: s for a, s in seen.items() if a != army_id} for o, seen in state.sightings.items()
    }
    return _empire(replace(state, armies=armies, sightings=sightings), emp)


def _without_card(state: GameState, card: str) -> tuple[GameState, str | None]:
    """The state with ``card`` taken out of its army, base or hand; the army it left, if any."""
    for army in state.armies.values():
        if card in army.cards():
            hero = None if army.hero == card else army.hero
            units = tuple(u for u in army.units if u != card)
            return _armies(state, replace(army, hero=hero, units=units)), army.id
    for base in state.bases.values():
        if card in base.facilities or card in base.prisoners:
            base = replace(
                base,
                facilities=tuple(f for f in base.facilities if f != card),
                prisoners=tuple(p for p in base.prisoners if p != card),
            )
            return replace(state, bases={**state.bases, base.id: base}), None
    for emp in state.empires.values():
        if card in emp.hand:
            hand = tuple(c for c in emp.hand if c != card)
            return _empire(state, replace(emp, hand=hand)), None
    return state, None


def _discard(state: GameState, card: str) -> GameState:
    owner = state.instances[card].owner
    emp = state.empires[owner]
    damage = {c: d for c, d in state.damage.items() if c != card}
    return _empire(replace(state, damage=damage), replace(emp, discard=(*emp.discard, card)))


def _left_empty(state: GameState, army_id: str | None) -> GameState:
    if army_id is None:
        return state
    army = state.armies[army_id]
    if army.cards() or army.garrison_of is not None:
        return state
    return _remove_army(state, army_id)


def _armies_sighted(state: GameState, e: ArmiesSighted) -> GameState:
    mine: dict[str, Sighting] = (
        {} if e.window == "round" else dict(state.sightings.get(e.observer, {}))
    )
    for gone in e.lost:
        mine.pop(gone, None)
    for seen in e.seen:
        mine[seen.army] = seen
    state = replace(state, sightings={**state.sightings, e.observer: mine})
    return _see(state, e.observer, tuple(c for s in e.seen for c in s.cards()))


def _stealth(state: GameState, e: StealthEngaged | StealthDropped) -> GameState:
    state = _spend(state, e.empire, e.ap_cost)
    army = state.armies[e.army]
    return _armies(state, replace(army, stealthed=isinstance(e, StealthEngaged)))


def _challenge_opened(state: GameState, e: ChallengeOpened) -> GameState:
    return replace(state, frames=push(state.frames, e.challenge), challenges=e.challenge.number)


def _challenge_moved(
    state: GameState, e: PrerogativeTaken | ChallengeAccepted | FateSpent | TacticPlayed
) -> GameState:
    return replace(state, frames=replace_top(state.frames, e.challenge))


def _spend_fate(state: GameState, hero: str | None, points: int) -> GameState:
    if hero is None or not points:
        return state
    return replace(
        state, fate_spent={**state.fate_spent, hero: state.fate_spent.get(hero, 0) + points}
    )


def _fate_spent(state: GameState, e: FateSpent) -> GameState:
    return _spend_fate(_challenge_moved(state, e), e.hero, e.from_hero)


def _tactic_played(state: GameState, e: TacticPlayed) -> GameState:
    state = _spend_fate(_challenge_moved(state, e), e.burnt_hero, e.burnt)
    emp = state.empires[e.empire]
    if e.owed:
        emp = replace(emp, ap_owed=emp.ap_owed + e.ap_cost)
    else:
        emp = replace(emp, ap=emp.ap - e.ap_cost)
    hand = tuple(c for c in emp.hand if c != e.card)
    state = _empire(state, replace(emp, hand=hand, discard=(*emp.discard, e.card)))
    for other in state.seats:  # played face up
        state = _see(state, other, (e.card,))
    return state


def _challenge_resolved(state: GameState, e: ChallengeResolved) -> GameState:
    frames = pop(state.frames)
    if frames and isinstance(frames[-1], CaptureKill):
        frames = replace_top(frames, replace(frames[-1], outcome=e.outcome))
    return replace(state, frames=frames)


def _card_damaged(state: GameState, e: CardDamaged) -> GameState:
    if not e.destroyed:
        return replace(state, damage={**state.damage, e.card: e.total})
    state, left = _without_card(state, e.card)
    return _left_empty(_discard(state, e.card), left)


def _capture_kill_began(state: GameState, e: CaptureKillBegan) -> GameState:
    f = e.frame
    state = _spend(state, f.hunter, e.ap_cost)
    emp = state.empires[f.hunter]
    state = _empire(state, replace(emp, hunted=(*emp.hunted, f.army)))
    for army_id in e.destealthed:
        state = _armies(state, replace(state.armies[army_id], stealthed=False))
    seen = dict(state.sightings.get(f.target_empire, {}))
    for army_id in e.hunting_armies:
        army = state.armies[army_id]
        seen[army_id] = Sighting(
            army=army_id,
            empire=army.empire,
            at=army.at,
            hero=army.hero,
            units=army.units,
            round=state.round,
            how="challenge",
            detail=f"took part in the hunt of {f.target} (p.30)",
        )
    state = replace(
        state, sightings={**state.sightings, f.target_empire: seen}, frames=push(state.frames, f)
    )
    return _see(
        state, f.target_empire, tuple(c for a in e.hunting_armies for c in state.armies[a].cards())
    )


def _hero_taken(state: GameState, e: HeroCaptured | HeroKilled) -> GameState:
    f = e.frame
    state = replace(state, frames=pop(state.frames))
    state, left = _without_card(state, f.target)
    if isinstance(e, HeroCaptured):
        base = state.bases[e.base]
        base = replace(base, prisoners=(*base.prisoners, f.target))
        state = replace(state, bases={**state.bases, base.id: base})
    else:
        state = _discard(state, f.target)
    return _left_empty(state, left)


def _hero_escaped(state: GameState, e: HeroEscaped) -> GameState:
    return replace(state, frames=pop(state.frames))


def _card_repaired(state: GameState, e: CardRepaired) -> GameState:
    emp = state.empires[e.empire]
    state = _empire(
        state, replace(emp, ap=emp.ap - e.ap_cost, resources=emp.resources.minus(e.paid))
    )
    return replace(state, damage={c: d for c, d in state.damage.items() if c != e.card})


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
    ArmiesSighted: _armies_sighted,
    StealthEngaged: _stealth,
    StealthDropped: _stealth,
    ChallengeOpened: _challenge_opened,
    PrerogativeTaken: _challenge_moved,
    ChallengeAccepted: _challenge_moved,
    FateSpent: _fate_spent,
    TacticPlayed: _tactic_played,
    ChallengeResolved: _challenge_resolved,
    CardDamaged: _card_damaged,
    CaptureKillBegan: _capture_kill_began,
    HeroCaptured: _hero_taken,
    HeroKilled: _hero_taken,
    HeroEscaped: _hero_escaped,
    CardRepaired: _card_repaired,
}


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``; events this ruleset does not apply leave it unchanged."""
    apply = _APPLY.get(type(event))
    return state if apply is None else apply(state, event)
