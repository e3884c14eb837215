"""evolve for engagements, battles, retreats, the fall of bases and awaited rolls: applies only.

Every step of a battle carries the battle after it, so most of them only replace the top frame;
the rest move armies, discard cards, change a base's hands and update the sightings of what
both sides watched happen (a battle is fought in the open, AE-26).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from warlog.domain.armageddon_empires.battle_events import (
    ArmyCommitted,
    ArmyDestroyed,
    ArmyRetreated,
    AssaultOrdered,
    AttackBegan,
    AttackEnded,
    BaseCaptured,
    BaseRazed,
    BattleAdvanced,
    BattleAverted,
    BattleBegan,
    BattleEnded,
    BattleRoundBegan,
    BattleRoundEnded,
    BattleSetUp,
    DelayedBattlesCalled,
    EmptyArmiesDestroyed,
    EngagementChosen,
    EngagementOffered,
    NextRoundChosen,
    RetreatEnded,
    RollAwaited,
    RollCalled,
)
from warlog.domain.armageddon_empires.challenge_events import HuntFoiled
from warlog.domain.armageddon_empires.changes import (
    discard,
    forget_card,
    free_hero,
    remove_army,
    see,
    spend,
    with_armies,
    with_empire,
    without_card,
)
from warlog.domain.armageddon_empires.ground_combat import STALEMATE_SINCE
from warlog.domain.armageddon_empires.observation import sighting
from warlog.domain.armageddon_empires.state import Army, GameState
from warlog.domain.core.events import Event
from warlog.domain.core.procedure import pop, push, replace_top


def _roll_awaited(state: GameState, e: RollAwaited) -> GameState:
    return replace(state, awaiting=e.awaiting)


def _roll_called(state: GameState, e: RollCalled) -> GameState:
    return replace(state, awaiting=None)


def _offered(state: GameState, e: EngagementOffered) -> GameState:
    return replace(state, frames=push(state.frames, e.engagement))


def _chosen(state: GameState, e: EngagementChosen) -> GameState:
    state = replace(state, frames=pop(state.frames))
    if e.choice == "delay" and e.at not in state.delayed:
        state = replace(state, delayed=(*state.delayed, e.at))
    return state


def _delayed_called(state: GameState, e: DelayedBattlesCalled) -> GameState:
    return replace(state, ending_turn=True)


def _assault(state: GameState, e: AssaultOrdered) -> GameState:
    return spend(state, e.empire, e.ap_cost)


def _undelay(state: GameState, at: str) -> GameState:
    if at not in state.delayed:
        return state
    return replace(state, delayed=tuple(h for h in state.delayed if h != at))


def _averted(state: GameState, e: BattleAverted) -> GameState:
    return _undelay(state, e.at)


def _sight(state: GameState, observer: str, armies: tuple[str, ...], detail: str) -> GameState:
    """``observer`` sees ``armies`` as they stand: they fight it in the open (AE-26)."""
    seen = dict(state.sightings.get(observer, {}))
    for army_id in armies:
        seen[army_id] = sighting(state, state.armies[army_id], "battle", detail)
    state = replace(state, sightings={**state.sightings, observer: seen})
    return see(state, observer, tuple(c for a in armies for c in state.armies[a].cards()))


def _began(state: GameState, e: BattleBegan) -> GameState:
    b = e.battle
    for army_id in e.emptied:
        state = remove_army(state, army_id)
    state = replace(state, frames=push(state.frames, b), battles=b.number)
    if state.rules_version >= STALEMATE_SINCE:  # AE-31: the count begins with the battle
        state = replace(state, hurt_round=0)
    state = _undelay(state, b.at)
    detail = f"in battle {b.number} (p.33; AE-26)"
    state = _sight(state, b.attacker.empire, b.defender.armies, detail)
    return _sight(state, b.defender.empire, b.attacker.armies, detail)


def _empty_destroyed(state: GameState, e: EmptyArmiesDestroyed) -> GameState:
    for army_id in e.armies:
        state = remove_army(state, army_id)
    return state


def _step(state: GameState, e: Any) -> GameState:
    return replace(state, frames=replace_top(state.frames, e.battle))


def _set_up(state: GameState, e: BattleSetUp) -> GameState:
    state = _step(state, e)
    if not e.joined:
        return state
    for army_id in e.joined:
        state = with_armies(state, replace(state.armies[army_id], stealthed=False))
    enemy = e.battle.enemy(e.empire).empire
    return _sight(state, enemy, e.joined, f"joined battle {e.battle.number} (p.33; AE-26)")


def _attack_began(state: GameState, e: AttackBegan) -> GameState:
    state = _step(state, e)
    if not e.ap_cost:
        return state
    emp = state.empires[e.empire]
    if e.owed:
        return with_empire(state, replace(emp, ap_owed=emp.ap_owed + e.ap_cost))
    return with_empire(state, replace(emp, ap=emp.ap - e.ap_cost))


def _attack_ended(state: GameState, e: AttackEnded) -> GameState:
    state = _step(state, e)
    # AE-31 since version 26 (kept only then, so that an older game's state is what it was)
    if e.damage and state.rules_version >= STALEMATE_SINCE:
        return replace(state, hurt_round=e.battle.round)
    return state


def _retreated(state: GameState, e: ArmyRetreated) -> GameState:
    state = with_armies(state, replace(state.armies[e.army], at=e.to))
    sightings = {
        observer: {a: replace(s, at=e.to) if a == e.army else s for a, s in seen.items()}
        for observer, seen in state.sightings.items()
    }
    return replace(state, sightings=sightings)


def _destroyed(state: GameState, e: ArmyDestroyed) -> GameState:
    for card in e.cards:
        state, _ = without_card(state, card)
        state = forget_card(discard(state, card), card)
    army = state.armies.get(e.army)
    if army is not None and army.garrison_of is None:
        state = remove_army(state, e.army)
    return state


def _captured(state: GameState, e: BaseCaptured) -> GameState:
    base = state.bases[e.base]
    for hero in e.taken:
        state, _ = without_card(state, hero)
        state = forget_card(state, hero)
    kept = tuple(p for p in base.prisoners if p not in e.freed)
    state = remove_army(state, base.garrison)  # every base has its garrison army (AE-8)
    for hero in e.freed:
        state = free_hero(state, hero)
    base = replace(base, empire=e.empire, prisoners=(*kept, *e.taken))
    garrison = Army(id=base.garrison, empire=e.empire, at=base.at, garrison_of=base.id)
    state = replace(state, bases={**state.bases, base.id: base})
    state = with_armies(state, garrison)
    for observer in state.seats:  # bases are public (AE-17)
        state = see(state, observer, (base.card, *base.facilities, *base.prisoners))
    return state


def _razed(state: GameState, e: BaseRazed) -> GameState:
    base = state.bases[e.base]
    bases = {k: v for k, v in state.bases.items() if k != e.base}
    state = replace(state, bases=bases)
    for card in (base.card, *base.facilities):
        state = discard(state, card)
    for hero in base.prisoners:
        state = free_hero(state, hero)
    garrison = state.armies[base.garrison]  # every base has its garrison army (AE-8)
    if garrison.cards():
        return with_armies(state, replace(garrison, garrison_of=None))
    return remove_army(state, garrison.id)


def _ended(state: GameState, e: BattleEnded) -> GameState:
    return replace(state, frames=pop(state.frames))


def _hunt_foiled(state: GameState, e: HuntFoiled) -> GameState:
    emp = state.empires[e.hunter]
    state = with_empire(state, replace(emp, ap=emp.ap - e.ap_cost, hunted=(*emp.hunted, e.army)))
    seen = {a: s for a, s in state.sightings.get(e.hunter, {}).items() if a != e.target_army}
    if e.seen is not None:
        seen[e.target_army] = e.seen
    state = replace(state, sightings={**state.sightings, e.hunter: seen})
    return see(state, e.hunter, () if e.seen is None else e.seen.cards())


APPLY: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    RollAwaited: _roll_awaited,
    RollCalled: _roll_called,
    EngagementOffered: _offered,
    EngagementChosen: _chosen,
    DelayedBattlesCalled: _delayed_called,
    AssaultOrdered: _assault,
    BattleAverted: _averted,
    BattleBegan: _began,
    EmptyArmiesDestroyed: _empty_destroyed,
    BattleAdvanced: _step,
    BattleSetUp: _set_up,
    ArmyCommitted: _step,
    BattleRoundBegan: _step,
    AttackBegan: _attack_began,
    AttackEnded: _attack_ended,
    BattleRoundEnded: _step,
    NextRoundChosen: _step,
    RetreatEnded: _step,
    ArmyRetreated: _retreated,
    ArmyDestroyed: _destroyed,
    BaseCaptured: _captured,
    BaseRazed: _razed,
    BattleEnded: _ended,
    HuntFoiled: _hunt_foiled,
}
