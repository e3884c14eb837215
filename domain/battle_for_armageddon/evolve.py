"""evolve: the state after one event. Applies only; every check and choice belongs to decide.

Never mutates its input: counters and dicts that change are copied, Structs are replaced.
Events it does not know (the core's ``dice_rolled``, ``command_issued``…) leave the state as is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from warlog.domain.battle_for_armageddon import specials
from warlog.domain.battle_for_armageddon.build_events import (
    BuildPointsCounted,
    CounterBuilt,
    CounterPlaced,
    CounterRebuilt,
    ProductionAdvanced,
    RebuildsCounted,
)
from warlog.domain.battle_for_armageddon.combat_events import (
    Advanced,
    AttackDeclared,
    CombatEnded,
    CombatRolled,
    CounterRetreated,
    LossTaken,
    ResultKept,
    ResultStood,
    RetreatCompleted,
    RetreatIgnored,
    SiteRuined,
    StackEliminated,
)
from warlog.domain.battle_for_armageddon.movement_events import (
    ChapterReduced,
    CounterEliminated,
    CounterMoved,
)
from warlog.domain.battle_for_armageddon.rules import IMPERIALS, READY, TRACK, opponent
from warlog.domain.battle_for_armageddon.special_card_events import (
    SiteRebuilt,
    SpecialCardDrawn,
    SpecialCardPlayed,
)
from warlog.domain.battle_for_armageddon.state import Combat, GameState
from warlog.domain.battle_for_armageddon.turn_events import (
    ActionSegmentBegan,
    CounterDeployed,
    GameEnded,
    InitiativeDecided,
    PhaseBegan,
    PhaseEnded,
    ReinforcementsArrived,
    SetupEnded,
    StackOutOfSupply,
    StrategyChosen,
    SupplyChecked,
    TurnBegan,
    VictoryChecked,
)
from warlog.domain.core.events import Event


def _with_counter(state: GameState, counter_id: str, **changes: Any) -> GameState:
    counters = dict(state.counters)
    counters[counter_id] = replace(counters[counter_id], **changes)
    return replace(state, counters=counters)


def _with_counters(state: GameState, changes: dict[str, dict[str, Any]]) -> GameState:
    counters = dict(state.counters)
    for cid, change in changes.items():
        counters[cid] = replace(counters[cid], **change)
    return replace(state, counters=counters)


def _with_combat(state: GameState, **changes: Any) -> GameState:
    assert state.combat is not None
    return replace(state, combat=replace(state.combat, **changes))


def _pop_step(state: GameState) -> GameState:
    assert state.combat is not None
    return _with_combat(state, steps=state.combat.steps[1:])


def _with_site(state: GameState, site_id: str, ruined: bool) -> GameState:
    sites = dict(state.sites)
    sites[site_id] = replace(sites[site_id], ruined=ruined)
    return replace(state, sites=sites)


def _set(
    mapping: dict[str, tuple[str, ...]], key: str, value: tuple[str, ...]
) -> dict[str, tuple[str, ...]]:
    out = dict(mapping)
    out[key] = value
    return out


def _deployed(s: GameState, e: CounterDeployed) -> GameState:
    return _with_counter(s, e.counter, location=e.area)


def _turn_began(s: GameState, e: TurnBegan) -> GameState:
    return replace(
        s,
        stage="strategy",
        turn=e.turn,
        choices={},
        revealed={},
        segment=0,
        phasing="",
        card="",
        phase="",
        phase_index=0,
    )


def _reinforced(s: GameState, e: ReinforcementsArrived) -> GameState:
    return _with_counters(s, {c: {"location": READY, "track": 0} for c in e.counters})


def _chosen(s: GameState, e: StrategyChosen) -> GameState:
    return replace(s, choices=_set(s.choices, e.player, tuple(e.cards)))


def _initiative(s: GameState, e: InitiativeDecided) -> GameState:
    return replace(s, initiative=e.player)


def _drawn(s: GameState, e: SpecialCardDrawn) -> GameState:
    deck = list(s.decks[e.player])
    deck.remove(e.card)
    return replace(
        s,
        decks=_set(s.decks, e.player, tuple(deck)),
        hands=_set(s.hands, e.player, (*s.hands[e.player], e.card)),
    )


def _segment(s: GameState, e: ActionSegmentBegan) -> GameState:
    return replace(
        s,
        stage="action",
        segment=e.segment,
        phasing=e.player,
        card=e.card,
        phase="",
        phase_index=0,
        special_played=False,
        revealed=_set(s.revealed, e.player, (*s.revealed.get(e.player, ()), e.card)),
    )


def _phase_began(s: GameState, e: PhaseBegan) -> GameState:
    return replace(
        s,
        phase=e.phase,
        phase_index=e.index,
        moved=(),
        move_bonus=0,
        crt_bonus=0,
        attacked_areas=(),
        attacked=(),
        retreated=(),
        combat=None,
        build_step="",
        build_points=0,
        rebuilds=0,
    )


def _points(s: GameState, e: BuildPointsCounted) -> GameState:
    return replace(s, build_points=e.points, build_step="buy")


def _rebuilds(s: GameState, e: RebuildsCounted) -> GameState:
    return replace(s, rebuilds=e.rebuilds)


def _phase_ended(s: GameState, e: PhaseEnded) -> GameState:
    # BFA-12: the Imperials' movement phase ends what a build phase's overstacking allowed
    overstacked = () if e.phase == "movement" and e.player == IMPERIALS else s.overstacked
    return replace(
        s,
        phase="",
        combat=None,
        build_step="",
        build_points=0,
        rebuilds=0,
        overstacked=overstacked,
    )


def _game_ended(s: GameState, e: GameEnded) -> GameState:
    return replace(s, stage="over", result=e.result, phase="", combat=None)


def _moved(s: GameState, e: CounterMoved) -> GameState:
    s = _with_counter(s, e.counter, location=e.to)
    return replace(s, moved=(*s.moved, e.counter))


def _eliminated(s: GameState, e: CounterEliminated) -> GameState:
    return _with_counter(s, e.counter, location=e.to, track=0)


def _reduced(s: GameState, e: ChapterReduced) -> GameState:
    return _with_counter(s, e.counter, reduced=True)


def _declared(s: GameState, e: AttackDeclared) -> GameState:
    site = next((x for x in s.sites.values() if x.area == e.target), None)
    combat = Combat(
        attacker=e.player,
        defender=opponent(e.player),
        target=e.target,
        sources=tuple(e.stacks),
        attackers=dict(e.attackers),
        defenders=tuple(e.defenders),
        passive=tuple(e.passive),
        attack_total=e.attack_total,
        defence_total=e.defence_total,
        column=e.column,
        reduced_before=tuple(c for c in (*e.attackers, *e.defenders) if s.counters[c].reduced),
        ruined_before=site is not None and site.ruined,
    )
    return replace(s, combat=combat)


def _rolled(s: GameState, e: CombatRolled) -> GameState:
    assert s.combat is not None
    return _with_combat(s, roll=e.total, result=e.result, rerolled=s.combat.rerolled or e.reroll)


def _kept(s: GameState, e: ResultKept) -> GameState:
    assert s.combat is not None
    return _with_combat(s, kept=(*s.combat.kept, e.player))


def _stood(s: GameState, e: ResultStood) -> GameState:
    return _with_combat(s, settled=True, result=e.result, steps=tuple(e.steps))


def _loss(s: GameState, e: LossTaken) -> GameState:
    if e.counter and e.outcome == "reduced":
        s = _with_counter(s, e.counter, reduced=True)
    elif e.counter:
        s = _with_counter(s, e.counter, location=e.to, track=0)
    return _pop_step(s)


def _pop(s: GameState, e: Event) -> GameState:
    return _pop_step(s)


def _ruined(s: GameState, e: SiteRuined) -> GameState:
    return _with_site(s, e.site, True)


def _retreated(s: GameState, e: CounterRetreated) -> GameState:
    s = _with_counter(s, e.counter, location=e.to)
    assert s.combat is not None
    s = _with_combat(s, retreated=(*s.combat.retreated, e.counter))
    return replace(s, retreated=(*s.retreated, e.counter))


def _advanced(s: GameState, e: Advanced) -> GameState:
    s = _with_counters(s, {c: {"location": e.to} for c in e.counters})
    return _pop_step(s)


def _combat_ended(s: GameState, e: CombatEnded) -> GameState:
    assert s.combat is not None
    return replace(
        s,
        combat=None,
        attacked_areas=(*s.attacked_areas, e.target),
        attacked=(*s.attacked, *s.combat.attackers),
    )


def _built(s: GameState, e: CounterBuilt) -> GameState:
    s = _with_counter(s, e.counter, location=TRACK, track=e.spaces, reduced=False)
    return replace(s, build_points=e.points_left)


def _production(s: GameState, e: ProductionAdvanced) -> GameState:
    changes: dict[str, dict[str, Any]] = {c: {"track": n} for c, n in e.spaces.items()}
    for c in e.ready:
        changes[c] = {"location": READY, "track": 0}
    s = _with_counters(s, changes)
    return replace(s, build_points=0, build_step="place")


def _placed(s: GameState, e: CounterPlaced) -> GameState:
    s = _with_counter(s, e.counter, location=e.area, track=0)
    if isinstance(e.overstacking, str):
        s = replace(s, overstacked=(*s.overstacked, e.counter))
    return replace(s, moved=(*s.moved, e.counter)) if e.moved else s


def _rebuilt(s: GameState, e: CounterRebuilt) -> GameState:
    s = _with_counter(s, e.counter, location=e.area, track=0, reduced=False)
    return replace(s, rebuilds=s.rebuilds - 1)


#: what each special-card effect adds to the phase (the card's ``value``)
_EFFECT_FIELDS: dict[str, str] = {
    "forced_march": "move_bonus",
    "barrage": "crt_bonus",
    "extra_build_points": "build_points",
    "extra_rebuild": "rebuilds",
}


def _special(s: GameState, e: SpecialCardPlayed) -> GameState:
    hand = list(s.hands[e.player])
    deck = s.decks[e.player]
    if e.card in hand or not specials.by_kind(s):
        hand.remove(e.card)
    else:  # BFA-28: the copy held leaves the hand; the copy named takes its id in the deck
        spec = specials.card_spec(s, e.card)
        held = next(x for x in specials.copies(s, spec) if x in hand)
        hand.remove(held)
        deck = tuple(held if x == e.card else x for x in deck)
    s = replace(
        s,
        hands=_set(s.hands, e.player, tuple(hand)),
        decks=_set(s.decks, e.player, deck),
        discards=_set(s.discards, e.player, (*s.discards[e.player], e.card)),
        special_played=True,
    )
    field = _EFFECT_FIELDS.get(e.effect)
    if field is not None:
        s = replace(s, **{field: getattr(s, field) + e.value})
    return s


def _site_rebuilt(s: GameState, e: SiteRebuilt) -> GameState:
    return _with_site(s, e.site, False)


def _same(s: GameState, e: Event) -> GameState:
    return s


_APPLY: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    CounterDeployed: _deployed,
    SetupEnded: _same,
    TurnBegan: _turn_began,
    ReinforcementsArrived: _reinforced,
    StrategyChosen: _chosen,
    InitiativeDecided: _initiative,
    SpecialCardDrawn: _drawn,
    ActionSegmentBegan: _segment,
    PhaseBegan: _phase_began,
    BuildPointsCounted: _points,
    RebuildsCounted: _rebuilds,
    PhaseEnded: _phase_ended,
    StackOutOfSupply: _same,
    SupplyChecked: _same,
    VictoryChecked: _same,
    GameEnded: _game_ended,
    CounterMoved: _moved,
    CounterEliminated: _eliminated,
    ChapterReduced: _reduced,
    AttackDeclared: _declared,
    CombatRolled: _rolled,
    ResultKept: _kept,
    ResultStood: _stood,
    LossTaken: _loss,
    StackEliminated: _pop,
    SiteRuined: _ruined,
    RetreatIgnored: _pop,
    CounterRetreated: _retreated,
    RetreatCompleted: _pop,
    Advanced: _advanced,
    CombatEnded: _combat_ended,
    CounterBuilt: _built,
    ProductionAdvanced: _production,
    CounterPlaced: _placed,
    CounterRebuilt: _rebuilt,
    SpecialCardPlayed: _special,
    SiteRebuilt: _site_rebuilt,
}


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``; unknown (core) events change nothing."""
    apply = _APPLY.get(type(event))
    return state if apply is None else apply(state, event)
