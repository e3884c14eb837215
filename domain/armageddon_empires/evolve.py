"""evolve: the state after one event. Applies only; every check lives in ``decide``.

Never mutates its input: every changed Struct is rebuilt with ``msgspec.structs.replace`` and
every changed dict is copied. Core events (``dice_rolled`` …) and unknown events change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from warlog.domain.armageddon_empires import (
    air_evolve,
    assassination_evolve,
    battle_evolve,
    changes,
    fallout_evolve,
    minefield_evolve,
    numbering,
    research_evolve,
    sabotage_evolve,
)
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
    CardsNumbered,
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
from warlog.domain.armageddon_empires.frames import (
    AirStrike,
    Assassination,
    Battle,
    CaptureKill,
    SabotageMission,
)
from warlog.domain.armageddon_empires.observation import sighting
from warlog.domain.armageddon_empires.penalties import penalized
from warlog.domain.armageddon_empires.sighting_events import (
    ArmiesSighted,
    StealthDropped,
    StealthEngaged,
)
from warlog.domain.armageddon_empires.state import Army, GameState
from warlog.domain.core.events import Event
from warlog.domain.core.procedure import pop, push, replace_top

_empire = changes.with_empire
_armies = changes.with_armies
_see = changes.see
_spend = changes.spend
_remove_army = changes.remove_army
_without_card = changes.without_card
_discard = changes.discard
_left_empty = changes.left_empty


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
    emp = replace(emp, ap=e.ap, moved=(), out_of_supply=(), ap_owed=0, hunted=())
    state = _empire(state, emp)
    state = changes.new_turn_for_agents(state, e.empire)  # AE-71, AE-72
    return replace(state, current=e.empire)


def _supply_traced(state: GameState, e: SupplyTraced) -> GameState:
    emp = replace(state.empires[e.empire], out_of_supply=e.out_of_supply)
    if penalized(state):  # AE-69 since version 26 (kept only then: an older game's state as it was)
        units = (u for a in e.out_of_supply if a in state.armies for u in state.armies[a].units)
        emp = replace(emp, unsupplied=tuple(units))
    return _empire(state, emp)


def _turn_ended(state: GameState, e: TurnEnded) -> GameState:
    emp = state.empires[e.empire]
    state = _empire(state, replace(emp, ap=0, moved=(), out_of_supply=(), hunted=()))
    state = changes.new_turn_for_agents(state, e.empire)  # AE-71, AE-72
    return replace(state, current=None, ending_turn=False, delayed=())


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
        units=state.in_order(taker.units + tuple(c for c in e.cards if c != hero_in)),
    )
    state = _armies(state, giver, taker)
    if e.receiver_moved:
        emp = state.empires[e.empire]
        state = _empire(state, replace(emp, moved=(*emp.moved, taker.id)))
    return state


def _army_moved(state: GameState, e: ArmyMoved) -> GameState:
    emp = state.empires[e.empire]
    emp = replace(emp, ap=emp.ap - e.ap_cost, moved=(*emp.moved, e.army))
    army = replace(state.armies[e.army], at=e.to)
    return replace(
        state,
        empires={**state.empires, emp.id: emp},
        armies={**state.armies, army.id: army},
    )


def _card_drawn(state: GameState, e: CardDrawn | CardDealt) -> GameState:
    emp = state.empires[e.empire]
    ap_cost = e.ap_cost if isinstance(e, CardDrawn) else 0
    deck = tuple(c for c in emp.deck if c != e.card)
    return _empire(state, replace(emp, ap=emp.ap - ap_cost, deck=deck, hand=(*emp.hand, e.card)))


def _cards_numbered(state: GameState, e: CardsNumbered) -> GameState:
    return numbering.renamed(state, e.renamed)


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
    return _armies(state, replace(army, units=state.in_order((*army.units, e.card))))


def _game_ended(state: GameState, e: GameEnded) -> GameState:
    return replace(state, phase="over", winner=e.winner, ended=e.reason, current=None)


def _armies_sighted(state: GameState, e: ArmiesSighted) -> GameState:
    held = state.sightings.get(e.observer)
    if not e.seen and not e.lost and held is not None and (e.window != "round" or not held):
        return state  # nothing seen or lost, and nothing to forget (most checks after a move)
    mine: dict[str, Sighting] = {} if e.window == "round" else dict(held or {})
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


#: the frames that read the outcome of a challenge opened above them
OUTCOME_FRAMES = (CaptureKill, Battle, AirStrike, Assassination, SabotageMission)


def _challenge_resolved(state: GameState, e: ChallengeResolved) -> GameState:
    frames = pop(state.frames)
    if frames and isinstance(frames[-1], OUTCOME_FRAMES):
        frames = replace_top(frames, replace(frames[-1], outcome=e.outcome))
    return replace(state, frames=frames)


def _card_damaged(state: GameState, e: CardDamaged) -> GameState:
    if not e.destroyed:
        # since version 12 ``total`` is the open part alone (challenge_moves.OPEN_TOTAL_SINCE)
        return replace(
            state, damage={**state.damage, e.card: state.damage.get(e.card, 0) + e.amount}
        )
    if any(b.card == e.card for b in state.bases.values()):
        return state  # its base is razed by the event that follows (AE-34)
    state, left = _without_card(state, e.card)
    return _left_empty(changes.forget_card(_discard(state, e.card), e.card), left)


def _capture_kill_began(state: GameState, e: CaptureKillBegan) -> GameState:
    f = e.frame
    state = _spend(state, f.hunter, e.ap_cost)
    emp = state.empires[f.hunter]
    state = _empire(state, replace(emp, hunted=(*emp.hunted, f.army)))
    for army_id in e.destealthed:
        state = _armies(state, replace(state.armies[army_id], stealthed=False))
    seen = dict(state.sightings.get(f.target_empire, {}))
    for army_id in e.hunting_armies:
        seen[army_id] = sighting(
            state, state.armies[army_id], "challenge", f"took part in the hunt of {f.target} (p.30)"
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
    state = changes.forget_card(state, f.target)
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
    return changes.repaired(state, e.card)


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
    CardsNumbered: _cards_numbered,
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


_APPLY.update(battle_evolve.APPLY)
_APPLY.update(air_evolve.APPLY)
_APPLY.update(fallout_evolve.APPLY)
_APPLY.update(sabotage_evolve.APPLY)
_APPLY.update(minefield_evolve.APPLY)
_APPLY.update(assassination_evolve.APPLY)
_APPLY.update(research_evolve.APPLY)


def unapplied(event_types: tuple[type[Event], ...]) -> frozenset[str]:
    """The tags of those of ``event_types`` that ``evolve`` leaves the state unchanged: an
    observation check is a report for the players, whose outcome ``armies_sighted`` applies."""
    return frozenset(cls.type_name() for cls in event_types if cls not in _APPLY)


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``; events this ruleset does not apply leave it unchanged."""
    apply = _APPLY.get(type(event))
    return state if apply is None else apply(state, event)
