"""evolve: the state after one event. Applies only; every check and choice belongs to decide.

Never mutates its input: dicts that change are copied, Structs are replaced. Events it does not
know (the core's ``dice_rolled``, ``command_issued``…) leave the state as is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from warlog.domain.core.events import Event
from warlog.domain.heroic_battles import combat_evolve, rulings
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.edits import (
    acted,
    popped,
    pushed,
    top,
    top_as,
    with_combat,
    with_every,
    with_piece,
    with_top,
)
from warlog.domain.heroic_battles.state import (
    Awaiting,
    ChargeFrame,
    Combat,
    DuelFrame,
    GameState,
    MeleeFrame,
    TestFrame,
)

# -- the turn --------------------------------------------------------------------------------------------


def _turn_began(s: GameState, e: ev.TurnBegan) -> GameState:
    return replace(s, turn=e.turn, mover="")


def _deeds(s: GameState, e: ev.DeedsRefreshed) -> GameState:
    heroes = {k: replace(h, deeds=e.deeds.get(k, 0)) for k, h in s.heroes.items()}
    return replace(s, heroes=heroes)


def _phase_began(s: GameState, e: ev.PhaseBegan) -> GameState:
    s = replace(s, phase=e.phase, phasing=e.force, mover="")
    if e.phase == "movement":
        s = replace(s, units={k: replace(u, tested=False) for k, u in s.units.items()})
        return with_every(s, actions=0, done=False, evaded=False)
    if e.phase == "melee":
        s = replace(
            s, heroes={k: replace(h, dueled=False, refused=False) for k, h in s.heroes.items()}
        )
        begun = [c.id for c in s.combats if len(c.sides) == 2 and all(c.sides.values())]
        queue = rulings.melee_order(begun)
        return replace(s, melee_queue=queue, challenge_done=False)
    if e.phase == "shooting":
        return replace(s, shooting_side=s.defender, passed=())
    return s


def _phase_ended(s: GameState, e: ev.PhaseEnded) -> GameState:
    return replace(s, mover="")


def _turn_ended(s: GameState, e: ev.TurnEnded) -> GameState:
    return with_every(s, shot=False)


def _game_ended(s: GameState, e: ev.GameEnded) -> GameState:
    return replace(s, phase="over", result=e.result)


def _gained(s: GameState, e: ev.ReputationGained) -> GameState:
    forces = dict(s.forces)
    forces[e.force] = replace(forces[e.force], tokens=forces[e.force].tokens + e.tokens)
    first = s.first_combat_earned or e.reason == rulings.FIRST_COMBAT_REASON
    return replace(s, forces=forces, first_combat_earned=first)


def _lost(s: GameState, e: ev.ReputationLost) -> GameState:
    forces = dict(s.forces)
    forces[e.force] = replace(forces[e.force], tokens=forces[e.force].tokens - e.tokens)
    return replace(s, forces=forces)


def _deeds_spent(s: GameState, e: ev.DeedsSpent) -> GameState:
    return with_piece(s, e.hero, deeds=max(0, s.heroes[e.hero].deeds - e.deeds))


def _awaited(s: GameState, e: ev.DiceAwaited) -> GameState:
    return replace(s, awaiting=Awaiting(roller=e.roller, dice=e.dice, what=e.what))


def _cast(s: GameState, e: ev.DiceCast) -> GameState:
    return replace(s, awaiting=None)


def _ones_rerolled(s: GameState, e: ev.OnesRerolled) -> GameState:
    frame = top(s)
    if isinstance(frame, MeleeFrame):
        scored = dict(frame.scored)
        scored[e.force] = scored.get(e.force, 0) + e.hits
        legendary = dict(frame.legendary)
        if e.legendary:
            legendary[e.force] = legendary.get(e.force, 0) + e.hits
        ones = tuple(o for o in frame.ones if o.owner != e.owner)
        return with_top(s, replace(frame, scored=scored, legendary=legendary, ones=ones))
    duel: DuelFrame = top_as(s, DuelFrame)
    hits = dict(duel.hits)
    hits[e.owner] = hits.get(e.owner, 0) + e.hits
    ones = tuple(o for o in duel.ones if o.owner != e.owner)
    return with_top(s, replace(duel, hits=hits, ones=ones))


# -- command tests ----------------------------------------------------------------------------------------


def _tests_called(s: GameState, e: ev.CommandTestsCalled) -> GameState:
    return pushed(s, TestFrame(tests=tuple(e.tests)))


def _test_head(s: GameState, **changes: Any) -> GameState:
    frame: TestFrame = top_as(s, TestFrame)
    head = replace(frame.tests[0], **changes)
    return with_top(s, replace(frame, tests=(head, *frame.tests[1:])))


def _test_taken(s: GameState, e: ev.CommandTestTaken) -> GameState:
    s = _test_head(s, rolled=True, faces=tuple(e.faces), passed=e.passed, rerollable=e.rerollable)
    unit = s.units[e.unit]
    if s.phase == "movement" and s.phasing == unit.force:
        s = with_piece(s, e.unit, tested=True)
    return s


def _test_rerolled(s: GameState, e: ev.CommandTestRerolled) -> GameState:
    frame: TestFrame = top_as(s, TestFrame)
    rerolls = frame.tests[0].rerolls + 1
    s = _test_head(
        s, faces=tuple(e.faces), passed=e.passed, rerollable=e.rerollable, rerolls=rerolls
    )
    return with_piece(s, e.hero, deeds=max(0, s.heroes[e.hero].deeds - 1))


def _test_resolved(s: GameState, e: ev.CommandTestResolved) -> GameState:
    frame: TestFrame = top_as(s, TestFrame)
    rest = frame.tests[1:]
    return with_top(s, replace(frame, tests=rest)) if rest else popped(s)


# -- movement -----------------------------------------------------------------------------------------------


def _moved(s: GameState, e: ev.UnitMoved) -> GameState:
    return acted(s, e.unit, e.action)


def _movement_failed(s: GameState, e: ev.MovementFailed) -> GameState:
    return acted(s, e.unit, e.action, done=True)


def _facing(s: GameState, e: ev.FacingChanged) -> GameState:
    return acted(s, e.unit, 1, done=True)


def _joined(s: GameState, e: ev.HeroJoined) -> GameState:
    s = acted(s, e.hero, e.action, done=True)
    return with_piece(s, e.hero, unit=e.unit, charging=False, winning=False)


def _left(s: GameState, e: ev.HeroLeft) -> GameState:
    return with_piece(s, e.hero, unit="", charging=False, winning=False)


def _charge_declared(s: GameState, e: ev.ChargeDeclared) -> GameState:
    s = acted(s, e.unit, e.action)
    frame = ChargeFrame(
        charger=e.unit,
        target=e.target,
        facing=e.facing,
        rough=e.rough,
        barrier=e.barrier,
    )
    return pushed(s, frame)


def _charge_stage(s: GameState, stage: str) -> GameState:
    frame: ChargeFrame = top_as(s, ChargeFrame)
    return with_top(s, replace(frame, stage=stage))


def _charge_failed(s: GameState, e: ev.ChargeFailed) -> GameState:
    return with_piece(popped(s), e.unit, done=True)


def _evade_declared(s: GameState, e: ev.EvadeDeclared) -> GameState:
    return with_piece(_charge_stage(s, "contact"), e.unit, evaded=True)


def _evaded(s: GameState, e: ev.Evaded) -> GameState:
    return _charge_stage(s, "follow_up")


def _counter_declared(s: GameState, e: ev.CounterChargeDeclared) -> GameState:
    return _charge_stage(s, "contact")


def _counter_charged(s: GameState, e: ev.CounterCharged) -> GameState:
    return with_piece(s, e.unit, charging=True)


def _received(s: GameState, e: ev.ChargeReceived) -> GameState:
    return _charge_stage(s, "contact")


def _pressed(s: GameState, e: ev.ChargePressed) -> GameState:
    if e.contact:
        return _charge_stage(s, "contact")
    return with_piece(popped(s), e.unit, done=True)


def _contacted(s: GameState, e: ev.ChargeContacted) -> GameState:
    s = with_piece(popped(s), e.unit, charging=True, done=True)
    charger = s.units.get(e.unit) or s.heroes[e.unit]
    target = s.units.get(e.target) or s.heroes[e.target]
    flanked = (e.target,) if e.facing != "front" else ()
    flankers = ((e.target, e.unit),) if flanked else ()
    if e.joined:

        def join(c: Combat) -> Combat:
            sides = dict(c.sides)
            sides[charger.force] = (*sides.get(charger.force, ()), e.unit)
            extra = tuple(x for x in flanked if x not in c.flanked)
            return replace(
                c, sides=sides, flanked=(*c.flanked, *extra), flankers=(*c.flankers, *flankers)
            )

        return with_combat(s, e.combat, join)
    combat = Combat(
        id=e.combat,
        sides={charger.force: (e.unit,), target.force: (e.target,)},
        flanked=flanked,
        flankers=flankers,
    )
    return replace(s, combats=(*s.combats, combat), combats_begun=s.combats_begun + 1)


def _ignore(s: GameState, e: Event) -> GameState:
    return s


_HANDLERS: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    **combat_evolve.FOLDS,
    ev.TurnBegan: _turn_began,
    ev.DeedsRefreshed: _deeds,
    ev.PhaseBegan: _phase_began,
    ev.PhaseEnded: _phase_ended,
    ev.TurnEnded: _turn_ended,
    ev.VictoryChecked: _ignore,
    ev.GameEnded: _game_ended,
    ev.ReputationGained: _gained,
    ev.ReputationLost: _lost,
    ev.DeedsSpent: _deeds_spent,
    ev.DiceAwaited: _awaited,
    ev.DiceCast: _cast,
    ev.OnesRerolled: _ones_rerolled,
    ev.CommandTestsCalled: _tests_called,
    ev.CommandTestTaken: _test_taken,
    ev.CommandTestRerolled: _test_rerolled,
    ev.CommandTestResolved: _test_resolved,
    ev.UnitMoved: _moved,
    ev.MovementFailed: _movement_failed,
    ev.FacingChanged: _facing,
    ev.HeroJoined: _joined,
    ev.HeroLeft: _left,
    ev.ChargeDeclared: _charge_declared,
    ev.ChargeFailed: _charge_failed,
    ev.EvadeDeclared: _evade_declared,
    ev.Evaded: _evaded,
    ev.EvadeFailed: _ignore,
    ev.CounterChargeDeclared: _counter_declared,
    ev.CounterCharged: _counter_charged,
    ev.ChargeReceived: _received,
    ev.ChargePressed: _pressed,
    ev.ChargeContacted: _contacted,
}


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``."""
    handler = _HANDLERS.get(type(event))
    return state if handler is None else handler(state, event)


#: every ruleset event has its fold (a test checks it against ``EVENT_TYPES``)
HANDLED: frozenset[type[Event]] = frozenset(_HANDLERS)
