"""evolve: the state after one event. Applies only; every check and choice belongs to decide.

Never mutates its input: dicts that change are copied, Structs are replaced. Events it does not
know (the core's ``dice_rolled``, ``command_issued``…) leave the state as is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from warlog.domain.core.events import Event
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles import pools, rulings
from warlog.domain.heroic_battles.state import (
    AnyFrame,
    Awaiting,
    BlowFrame,
    ChargeFrame,
    Combat,
    DuelFrame,
    FallFrame,
    GameState,
    Hero,
    MeleeFrame,
    RetreatFrame,
    RiskFrame,
    ShootingFrame,
    TestFrame,
)
from warlog.domain.heroic_battles.values import Declaration

# -- helpers --------------------------------------------------------------------------------------------


def _piece(s: GameState, pid: str, **changes: Any) -> GameState:
    if pid in s.units:
        units = dict(s.units)
        units[pid] = replace(units[pid], **changes)
        return replace(s, units=units)
    heroes = dict(s.heroes)
    heroes[pid] = replace(heroes[pid], **changes)
    return replace(s, heroes=heroes)


def _every(s: GameState, **changes: Any) -> GameState:
    return replace(
        s,
        units={k: replace(v, **changes) for k, v in s.units.items()},
        heroes={k: replace(v, **changes) for k, v in s.heroes.items()},
    )


def _stamina(s: GameState, pid: str, lost: int) -> GameState:
    p = s.units.get(pid) or s.heroes[pid]
    return _piece(s, pid, stamina=max(0, p.stamina - lost))


def _top(s: GameState) -> AnyFrame:
    return s.frames[-1]


def _set_top(s: GameState, frame: AnyFrame) -> GameState:
    return replace(s, frames=(*s.frames[:-1], frame))


def _push(s: GameState, frame: AnyFrame) -> GameState:
    return replace(s, frames=(*s.frames, frame))


def _pop(s: GameState) -> GameState:
    return replace(s, frames=s.frames[:-1])


def _top_as(s: GameState, kind: type[Any]) -> Any:
    frame = _top(s)
    assert isinstance(frame, kind), f"expected a {kind.__name__} on top, found {frame!r}"
    return frame


def _act(s: GameState, pid: str, action: int, done: bool = False) -> GameState:
    """HB-3: ``pid`` takes movement action ``action``; a different earlier mover is done."""
    if s.mover and s.mover != pid:
        s = _piece(s, s.mover, done=True)
    p = s.units.get(pid) or s.heroes[pid]
    s = _piece(s, pid, actions=action, done=done or p.done)
    return replace(s, mover=pid)


def _combats(s: GameState, combats: list[Combat]) -> GameState:
    """Keep the melees that still have both sides, or that a melee in progress is about."""
    fighting = {f.combat for f in s.frames if isinstance(f, MeleeFrame)}
    kept = tuple(
        c for c in combats if c.id in fighting or (len(c.sides) == 2 and all(c.sides.values()))
    )
    return replace(s, combats=kept)


def _without(s: GameState, pid: str) -> GameState:
    """``pid`` is no longer a fighter in any melee."""
    out = []
    for c in s.combats:
        sides = {f: tuple(x for x in ids if x != pid) for f, ids in c.sides.items()}
        out.append(replace(c, sides=sides, flanked=tuple(x for x in c.flanked if x != pid)))
    return _combats(s, out)


def _with_combat(s: GameState, cid: str, change: Callable[[Combat], Combat]) -> GameState:
    return _combats(s, [change(c) if c.id == cid else c for c in s.combats])


def _other(s: GameState, force: str) -> str:
    return s.defender if force == s.attacker else s.attacker


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
        return _every(s, actions=0, done=False, evaded=False)
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
    return _every(s, shot=False)


def _game_ended(s: GameState, e: ev.GameEnded) -> GameState:
    return replace(s, phase="over", result=e.result)


def _gained(s: GameState, e: ev.ReputationGained) -> GameState:
    forces = dict(s.forces)
    forces[e.force] = replace(forces[e.force], tokens=forces[e.force].tokens + e.tokens)
    return replace(s, forces=forces)


def _lost(s: GameState, e: ev.ReputationLost) -> GameState:
    forces = dict(s.forces)
    forces[e.force] = replace(forces[e.force], tokens=forces[e.force].tokens - e.tokens)
    return replace(s, forces=forces)


def _deeds_spent(s: GameState, e: ev.DeedsSpent) -> GameState:
    return _piece(s, e.hero, deeds=max(0, s.heroes[e.hero].deeds - e.deeds))


def _awaited(s: GameState, e: ev.DiceAwaited) -> GameState:
    return replace(s, awaiting=Awaiting(roller=e.roller, dice=e.dice, what=e.what))


def _cast(s: GameState, e: ev.DiceCast) -> GameState:
    return replace(s, awaiting=None)


def _ones_rerolled(s: GameState, e: ev.OnesRerolled) -> GameState:
    frame = _top(s)
    if isinstance(frame, MeleeFrame):
        scored = dict(frame.scored)
        scored[e.force] = scored.get(e.force, 0) + e.hits
        legendary = dict(frame.legendary)
        if e.legendary:
            legendary[e.force] = legendary.get(e.force, 0) + e.hits
        ones = tuple(o for o in frame.ones if o.owner != e.owner)
        return _set_top(s, replace(frame, scored=scored, legendary=legendary, ones=ones))
    duel: DuelFrame = _top_as(s, DuelFrame)
    hits = dict(duel.hits)
    hits[e.owner] = hits.get(e.owner, 0) + e.hits
    ones = tuple(o for o in duel.ones if o.owner != e.owner)
    return _set_top(s, replace(duel, hits=hits, ones=ones))


# -- command tests ----------------------------------------------------------------------------------------


def _tests_called(s: GameState, e: ev.CommandTestsCalled) -> GameState:
    return _push(s, TestFrame(tests=tuple(e.tests)))


def _test_head(s: GameState, **changes: Any) -> GameState:
    frame: TestFrame = _top_as(s, TestFrame)
    head = replace(frame.tests[0], **changes)
    return _set_top(s, replace(frame, tests=(head, *frame.tests[1:])))


def _test_taken(s: GameState, e: ev.CommandTestTaken) -> GameState:
    s = _test_head(s, rolled=True, faces=tuple(e.faces), passed=e.passed, rerollable=e.rerollable)
    unit = s.units[e.unit]
    if s.phase == "movement" and s.phasing == unit.force:
        s = _piece(s, e.unit, tested=True)
    return s


def _test_rerolled(s: GameState, e: ev.CommandTestRerolled) -> GameState:
    frame: TestFrame = _top_as(s, TestFrame)
    rerolls = frame.tests[0].rerolls + 1
    s = _test_head(
        s, faces=tuple(e.faces), passed=e.passed, rerollable=e.rerollable, rerolls=rerolls
    )
    return _piece(s, e.hero, deeds=max(0, s.heroes[e.hero].deeds - 1))


def _test_resolved(s: GameState, e: ev.CommandTestResolved) -> GameState:
    frame: TestFrame = _top_as(s, TestFrame)
    rest = frame.tests[1:]
    return _set_top(s, replace(frame, tests=rest)) if rest else _pop(s)


# -- movement -----------------------------------------------------------------------------------------------


def _moved(s: GameState, e: ev.UnitMoved) -> GameState:
    return _act(s, e.unit, e.action)


def _movement_failed(s: GameState, e: ev.MovementFailed) -> GameState:
    return _act(s, e.unit, e.action, done=True)


def _facing(s: GameState, e: ev.FacingChanged) -> GameState:
    return _act(s, e.unit, 1, done=True)


def _joined(s: GameState, e: ev.HeroJoined) -> GameState:
    s = _act(s, e.hero, e.action, done=True)
    return _piece(s, e.hero, unit=e.unit, charging=False, winning=False)


def _left(s: GameState, e: ev.HeroLeft) -> GameState:
    return _piece(s, e.hero, unit="", charging=False, winning=False)


def _charge_declared(s: GameState, e: ev.ChargeDeclared) -> GameState:
    s = _act(s, e.unit, e.action)
    frame = ChargeFrame(
        charger=e.unit,
        target=e.target,
        facing=e.facing,
        rough=e.rough,
        barrier=e.barrier,
    )
    return _push(s, frame)


def _charge_stage(s: GameState, stage: str) -> GameState:
    frame: ChargeFrame = _top_as(s, ChargeFrame)
    return _set_top(s, replace(frame, stage=stage))


def _charge_failed(s: GameState, e: ev.ChargeFailed) -> GameState:
    return _piece(_pop(s), e.unit, done=True)


def _evade_declared(s: GameState, e: ev.EvadeDeclared) -> GameState:
    return _piece(_charge_stage(s, "contact"), e.unit, evaded=True)


def _evaded(s: GameState, e: ev.Evaded) -> GameState:
    return _charge_stage(s, "follow_up")


def _counter_declared(s: GameState, e: ev.CounterChargeDeclared) -> GameState:
    return _charge_stage(s, "contact")


def _counter_charged(s: GameState, e: ev.CounterCharged) -> GameState:
    return _piece(s, e.unit, charging=True)


def _received(s: GameState, e: ev.ChargeReceived) -> GameState:
    return _charge_stage(s, "contact")


def _pressed(s: GameState, e: ev.ChargePressed) -> GameState:
    if e.contact:
        return _charge_stage(s, "contact")
    return _piece(_pop(s), e.unit, done=True)


def _contacted(s: GameState, e: ev.ChargeContacted) -> GameState:
    s = _piece(_pop(s), e.unit, charging=True, done=True)
    charger = s.units.get(e.unit) or s.heroes[e.unit]
    target = s.units.get(e.target) or s.heroes[e.target]
    flanked = (e.target,) if e.facing != "front" else ()
    if e.joined:

        def join(c: Combat) -> Combat:
            sides = dict(c.sides)
            sides[charger.force] = (*sides.get(charger.force, ()), e.unit)
            extra = tuple(x for x in flanked if x not in c.flanked)
            return replace(c, sides=sides, flanked=(*c.flanked, *extra))

        return _with_combat(s, e.combat, join)
    combat = Combat(
        id=e.combat, sides={charger.force: (e.unit,), target.force: (e.target,)}, flanked=flanked
    )
    return replace(s, combats=(*s.combats, combat), combats_begun=s.combats_begun + 1)


# -- shooting and Risk to Heroes ------------------------------------------------------------------------


def _shots(s: GameState, e: ev.ShotsFired) -> GameState:
    s = _piece(s, e.shooter, shot=True)
    for h in s.heroes.values():
        if h.unit == e.shooter and not h.gone:
            s = _piece(s, h.id, shot=True)
    return _push(s, ShootingFrame(shooter=e.shooter, target=e.target, hits=e.pool.hits))


def _at_risk(s: GameState, e: ev.HeroesAtRisk) -> GameState:
    parent = _top(s)
    assert isinstance(parent, ShootingFrame | MeleeFrame)
    s = _set_top(s, replace(parent, stage="damage"))
    if e.entries:
        s = _push(s, RiskFrame(entries=tuple(e.entries), in_combat=isinstance(parent, MeleeFrame)))
    return s


def _risk_head(s: GameState, **changes: Any) -> GameState:
    frame: RiskFrame = _top_as(s, RiskFrame)
    head = replace(frame.entries[0], **changes)
    return _set_top(s, replace(frame, entries=(head, *frame.entries[1:])))


def _risk_rolled(s: GameState, e: ev.RiskRolled) -> GameState:
    frame: RiskFrame = _top_as(s, RiskFrame)
    entries = tuple(
        replace(x, rolled=True, faces=tuple(e.faces)) if x.hero == e.hero else x
        for x in frame.entries
    )
    return _set_top(s, replace(frame, entries=entries))


def _risk_rerolled(s: GameState, e: ev.RiskRerolled) -> GameState:
    frame: RiskFrame = _top_as(s, RiskFrame)
    faces = list(frame.entries[0].faces)
    faces[faces.index(1)] = e.face
    s = _risk_head(s, faces=tuple(faces), rerolled=True)
    return _piece(s, e.hero, deeds=max(0, s.heroes[e.hero].deeds - 1))


def _risk_resolved(s: GameState, e: ev.RiskResolved) -> GameState:
    frame: RiskFrame = _top_as(s, RiskFrame)
    rest = frame.entries[1:]
    s = _set_top(s, replace(frame, entries=rest)) if rest else _pop(s)
    return _stamina(s, e.hero, e.stamina_lost) if e.stamina_lost else s


def _hits_taken(s: GameState, e: ev.HitsTaken) -> GameState:
    frame: ShootingFrame = _top_as(s, ShootingFrame)
    return _stamina(_set_top(s, replace(frame, stage="done")), e.unit, e.stamina_lost)


def _shooting_ended(s: GameState, e: ev.ShootingEnded) -> GameState:
    s = _pop(s)
    if s.phase == "shooting":
        side = s.shooting_side
        s = replace(s, shooting_side=rulings.next_to_shoot(side, _other(s, side), s.passed))
    return s


def _shooting_passed(s: GameState, e: ev.ShootingPassed) -> GameState:
    s = replace(s, passed=(*s.passed, e.force))
    return replace(s, shooting_side=rulings.next_to_shoot(e.force, _other(s, e.force), s.passed))


# -- melee -------------------------------------------------------------------------------------------------


def _melee(s: GameState) -> MeleeFrame:
    frame: MeleeFrame = _top_as(s, MeleeFrame)
    return frame


def _melee_began(s: GameState, e: ev.MeleeBegan) -> GameState:
    s = replace(s, melee_queue=tuple(c for c in s.melee_queue if c != e.combat))
    return _push(s, MeleeFrame(combat=e.combat))


def _melee_declared(s: GameState, e: ev.MeleeDeclared) -> GameState:
    frame = _melee(s)
    declared = dict(frame.declared)
    declared[e.force] = Declaration(
        supports=tuple(e.supports),
        holding=e.holding,
        rough=tuple(e.rough),
        deeds=dict(e.deeds),
        inspire=dict(e.inspire),
    )
    stage = "fight" if len(declared) == 2 else frame.stage
    return _set_top(s, replace(frame, declared=declared, stage=stage))


def _combat_dice(s: GameState, e: ev.CombatDiceRolled) -> GameState:
    frame = _melee(s)
    scored = dict(frame.scored)
    scored[e.force] = scored.get(e.force, 0) + e.pool.hits
    legendary = dict(frame.legendary)
    if e.pool.legendary:
        legendary[e.force] = legendary.get(e.force, 0) + e.pool.hits
    found = pools.ones_of(e.force, e.pool)
    ones = (*frame.ones, found) if found is not None else frame.ones
    return _set_top(
        s, replace(frame, scored=scored, legendary=legendary, ones=ones, stage="rerolls")
    )


def _saves(s: GameState, e: ev.SupportSavesRolled) -> GameState:
    frame = _melee(s)
    saves = dict(frame.saves)
    saves[e.force] = e.saves
    return _set_top(s, replace(frame, saves=saves))


def _hits_counted(s: GameState, e: ev.MeleeHitsCounted) -> GameState:
    frame = _melee(s)
    return _set_top(
        s,
        replace(
            frame,
            conceded=dict(e.conceded),
            legendary_conceded=dict(e.legendary_conceded),
            primaries=dict(e.primaries),
            stage="risk",
        ),
    )


def _melee_damage(s: GameState, e: ev.MeleeDamage) -> GameState:
    s = _set_top(s, replace(_melee(s), stage="outcome"))
    for loss in e.losses:
        s = _stamina(s, loss.unit, loss.stamina_lost)
    return s


def _markers(s: GameState, pids: list[str], **changes: Any) -> GameState:
    for pid in pids:
        if pid in s.units or pid in s.heroes:
            s = _piece(s, pid, **changes)
    return s


def _melee_decided(s: GameState, e: ev.MeleeDecided) -> GameState:
    frame = _melee(s)
    stage = "pursuit" if e.outcome == "fighting_victory" else "disengage"
    s = _set_top(s, replace(frame, winner=e.winner, loser=e.loser, outcome=e.outcome, stage=stage))
    combat = next((c for c in s.combats if c.id == e.combat), None)
    if combat is not None:
        for force, ids in combat.sides.items():
            s = _markers(s, list(ids), **rulings.markers_after_melee(force == e.winner))
    return s


def _retreats(s: GameState, e: ev.RetreatsOrdered) -> GameState:
    return _push(s, RetreatFrame(orders=tuple(e.orders)))


def _pursued(s: GameState, e: ev.Pursued) -> GameState:
    return _set_top(s, replace(_melee(s), stage="disengage"))


def _held(s: GameState, e: ev.HeldGround) -> GameState:
    frame = _melee(s)
    s = _set_top(s, replace(frame, stage="disengage"))
    combat = next((c for c in s.combats if c.id == e.combat), None)
    losers = list(combat.sides.get(frame.loser, ())) if combat is not None else []
    s = _markers(s, losers, charging=False, winning=False)
    for pid in losers:
        s = _without(s, pid)
    return s


def _asked(s: GameState, unit: str) -> GameState:
    frame = _melee(s)
    return _set_top(s, replace(frame, asked=(*frame.asked, unit)))


def _disengage_declared(s: GameState, e: ev.DisengageDeclared) -> GameState:
    return _asked(s, e.unit)


def _disengaged(s: GameState, e: ev.Disengaged) -> GameState:
    return _without(_piece(s, e.unit, charging=False, winning=False), e.unit)


def _stayed(s: GameState, e: ev.StayedEngaged) -> GameState:
    return _asked(s, e.unit)


def _melee_ended(s: GameState, e: ev.MeleeEnded) -> GameState:
    return _combats(_pop(s), list(s.combats))


# -- single combat -----------------------------------------------------------------------------------------


def _challenge(s: GameState, e: ev.ChallengeIssued) -> GameState:
    s = replace(s, challenge_done=True)
    return _push(s, DuelFrame(challenger=e.challenger, challenged=e.challenged))


def _forgone(s: GameState, e: ev.ChallengeForgone) -> GameState:
    return replace(s, challenge_done=True)


def _refused(s: GameState, e: ev.ChallengeRefused) -> GameState:
    return _piece(_pop(s), e.hero, refused=True)


def _accepted(s: GameState, e: ev.ChallengeAccepted) -> GameState:
    frame: DuelFrame = _top_as(s, DuelFrame)
    return _set_top(s, replace(frame, stage="deeds"))


def _committed(s: GameState, e: ev.DeedsCommitted) -> GameState:
    frame: DuelFrame = _top_as(s, DuelFrame)
    deeds = dict(frame.deeds)
    deeds[e.hero] = e.deeds
    return _set_top(s, replace(frame, deeds=deeds))


def _duel_dice(s: GameState, e: ev.SingleCombatDiceRolled) -> GameState:
    frame: DuelFrame = _top_as(s, DuelFrame)
    hits = dict(frame.hits)
    hits[e.pool.owner] = e.pool.hits
    hero = s.heroes[e.pool.owner]
    found = pools.ones_of(hero.force, e.pool)
    ones = (*frame.ones, found) if found is not None else frame.ones
    return _set_top(s, replace(frame, hits=hits, ones=ones, stage="rerolls"))


def _round(s: GameState, e: ev.SingleCombatRound) -> GameState:
    frame: DuelFrame = _top_as(s, DuelFrame)
    if rulings.fights_again(e.result):
        return _set_top(
            s, replace(frame, round=frame.round + 1, deeds={}, hits={}, ones=(), stage="deeds")
        )
    s = _pop(s)
    return _markers(s, [frame.challenger, frame.challenged], dueled=True)


# -- losses --------------------------------------------------------------------------------------------


def _stamina_lost(s: GameState, e: ev.StaminaLost) -> GameState:
    return _stamina(s, e.unit, e.stamina)


def _destroyed(s: GameState, e: ev.UnitDestroyed) -> GameState:
    s = _piece(s, e.unit, gone=e.how, charging=False, winning=False)
    return _without(s, e.unit)


def _killed(s: GameState, e: ev.HeroKilled) -> GameState:
    s = _piece(s, e.hero, gone="killed", stamina=0, unit="", charging=False, winning=False)
    s = _without(s, e.hero)
    if e.cause in rulings.DEATH_TABLE_CAUSES:
        s = _push(s, FallFrame(hero=e.hero, cause=e.cause, enemy=e.enemy))
    return s


def _death_rolled(s: GameState, e: ev.HeroDeathRolled) -> GameState:
    _top_as(s, FallFrame)
    s = _pop(s)
    return _push(s, BlowFrame(hero=e.hero, target=e.target)) if e.target else s


def _blow(s: GameState, e: ev.FinalBlowStruck) -> GameState:
    _top_as(s, BlowFrame)
    return _pop(s)


def _unattached(s: GameState, e: ev.HeroUnattached) -> GameState:
    s = _piece(s, e.hero, unit="")
    if not e.combat:
        return s
    hero: Hero = s.heroes[e.hero]

    def fight_on(c: Combat) -> Combat:
        sides = dict(c.sides)
        sides[hero.force] = (*sides.get(hero.force, ()), e.hero)
        return replace(c, sides=sides)

    return _with_combat(s, e.combat, fight_on)


# -- retreats ----------------------------------------------------------------------------------------------


def _retreat_frame(s: GameState) -> RetreatFrame:
    frame: RetreatFrame = _top_as(s, RetreatFrame)
    return frame


def _retreat_began(s: GameState, e: ev.RetreatBegan) -> GameState:
    frame = _retreat_frame(s)
    head = replace(frame.orders[0], stage="declare")
    return _set_top(s, replace(frame, orders=(head, *frame.orders[1:])))


def _order_done(s: GameState, e: ev.UnitRetreated | ev.RetreatCancelled) -> GameState:
    frame = _retreat_frame(s)
    rest = frame.orders[1:]
    return _set_top(s, replace(frame, orders=rest)) if rest else _pop(s)


def _ignore(s: GameState, e: Event) -> GameState:
    return s


_HANDLERS: dict[type[Event], Callable[[GameState, Any], GameState]] = {
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
    ev.ShotsFired: _shots,
    ev.HeroesAtRisk: _at_risk,
    ev.RiskRolled: _risk_rolled,
    ev.RiskRerolled: _risk_rerolled,
    ev.RiskResolved: _risk_resolved,
    ev.HitsTaken: _hits_taken,
    ev.ShootingEnded: _shooting_ended,
    ev.ShootingPassed: _shooting_passed,
    ev.MeleeBegan: _melee_began,
    ev.MeleeDeclared: _melee_declared,
    ev.CombatDiceRolled: _combat_dice,
    ev.SupportSavesRolled: _saves,
    ev.MeleeHitsCounted: _hits_counted,
    ev.MeleeDamage: _melee_damage,
    ev.MeleeDecided: _melee_decided,
    ev.RetreatsOrdered: _retreats,
    ev.Pursued: _pursued,
    ev.HeldGround: _held,
    ev.DisengageDeclared: _disengage_declared,
    ev.Disengaged: _disengaged,
    ev.StayedEngaged: _stayed,
    ev.MeleeEnded: _melee_ended,
    ev.ChallengeIssued: _challenge,
    ev.ChallengeForgone: _forgone,
    ev.ChallengeRefused: _refused,
    ev.ChallengeAccepted: _accepted,
    ev.DeedsCommitted: _committed,
    ev.SingleCombatDiceRolled: _duel_dice,
    ev.SingleCombatRound: _round,
    ev.StaminaLost: _stamina_lost,
    ev.UnitDestroyed: _destroyed,
    ev.HeroKilled: _killed,
    ev.HeroDeathRolled: _death_rolled,
    ev.HeroUnattached: _unattached,
    ev.FinalBlowStruck: _blow,
    ev.RetreatBegan: _retreat_began,
    ev.UnitRetreated: _order_done,
    ev.RetreatCancelled: _order_done,
}


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``."""
    handler = _HANDLERS.get(type(event))
    return state if handler is None else handler(state, event)


#: every ruleset event has its fold (a test checks it against ``EVENT_TYPES``)
HANDLED: frozenset[type[Event]] = frozenset(_HANDLERS)
