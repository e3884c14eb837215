"""evolve for fighting: shots, Risk to Heroes, melees, single combats, losses and retreats.
Applies only; ``evolve.py`` dispatches to these (``FOLDS``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from warlog.domain.core.events import Event
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles import pools, rulings
from warlog.domain.heroic_battles.edits import (
    other_force,
    popped,
    pushed,
    top,
    top_as,
    with_combat,
    with_combats,
    with_piece,
    with_stamina_lost,
    with_top,
    without_fighter,
)
from warlog.domain.heroic_battles.state import (
    BlowFrame,
    Combat,
    DuelFrame,
    FallFrame,
    GameState,
    Hero,
    MeleeFrame,
    RetreatFrame,
    RiskFrame,
    ShootingFrame,
)
from warlog.domain.heroic_battles.values import Declaration

# -- shooting and Risk to Heroes ------------------------------------------------------------------------


def _shots(s: GameState, e: ev.ShotsFired) -> GameState:
    s = with_piece(s, e.shooter, shot=True)
    for h in s.heroes.values():
        if h.unit == e.shooter and not h.gone:
            s = with_piece(s, h.id, shot=True)
    return pushed(s, ShootingFrame(shooter=e.shooter, target=e.target, hits=e.pool.hits))


def _target_rough(s: GameState, e: ev.TargetInRoughTerrain) -> GameState:
    return with_top(s, replace(top_as(s, ShootingFrame), rough=True))


def _at_risk(s: GameState, e: ev.HeroesAtRisk) -> GameState:
    parent = top(s)
    assert isinstance(parent, ShootingFrame | MeleeFrame)
    s = with_top(s, replace(parent, stage="damage"))
    if e.entries:
        s = pushed(s, RiskFrame(entries=tuple(e.entries), in_combat=isinstance(parent, MeleeFrame)))
    return s


def _risk_head(s: GameState, **changes: Any) -> GameState:
    frame: RiskFrame = top_as(s, RiskFrame)
    head = replace(frame.entries[0], **changes)
    return with_top(s, replace(frame, entries=(head, *frame.entries[1:])))


def _risk_rolled(s: GameState, e: ev.RiskRolled) -> GameState:
    frame: RiskFrame = top_as(s, RiskFrame)
    entries = tuple(
        replace(x, rolled=True, faces=tuple(e.faces)) if x.hero == e.hero else x
        for x in frame.entries
    )
    return with_top(s, replace(frame, entries=entries))


def _risk_rerolled(s: GameState, e: ev.RiskRerolled) -> GameState:
    frame: RiskFrame = top_as(s, RiskFrame)
    faces = list(frame.entries[0].faces)
    faces[faces.index(1)] = e.face
    s = _risk_head(s, faces=tuple(faces), rerolled=True)
    return with_piece(s, e.hero, deeds=max(0, s.heroes[e.hero].deeds - 1))


def _risk_resolved(s: GameState, e: ev.RiskResolved) -> GameState:
    frame: RiskFrame = top_as(s, RiskFrame)
    rest = frame.entries[1:]
    s = with_top(s, replace(frame, entries=rest)) if rest else popped(s)
    return with_stamina_lost(s, e.hero, e.stamina_lost) if e.stamina_lost else s


def _hits_taken(s: GameState, e: ev.HitsTaken) -> GameState:
    frame: ShootingFrame = top_as(s, ShootingFrame)
    return with_stamina_lost(with_top(s, replace(frame, stage="done")), e.unit, e.stamina_lost)


def _shooting_ended(s: GameState, e: ev.ShootingEnded) -> GameState:
    s = popped(s)
    if s.phase == "shooting":
        side = s.shooting_side
        s = replace(s, shooting_side=rulings.next_to_shoot(side, other_force(s, side), s.passed))
    return s


def _shooting_passed(s: GameState, e: ev.ShootingPassed) -> GameState:
    s = replace(s, passed=(*s.passed, e.force))
    return replace(
        s, shooting_side=rulings.next_to_shoot(e.force, other_force(s, e.force), s.passed)
    )


# -- melee -------------------------------------------------------------------------------------------------


def _melee(s: GameState) -> MeleeFrame:
    frame: MeleeFrame = top_as(s, MeleeFrame)
    return frame


def _melee_began(s: GameState, e: ev.MeleeBegan) -> GameState:
    s = replace(s, melee_queue=tuple(c for c in s.melee_queue if c != e.combat))
    return pushed(s, MeleeFrame(combat=e.combat))


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
    return with_top(s, replace(frame, declared=declared, stage=stage))


def _combat_dice(s: GameState, e: ev.CombatDiceRolled) -> GameState:
    frame = _melee(s)
    scored = dict(frame.scored)
    scored[e.force] = scored.get(e.force, 0) + e.pool.hits
    legendary = dict(frame.legendary)
    if e.pool.legendary:
        legendary[e.force] = legendary.get(e.force, 0) + e.pool.hits
    found = pools.ones_of(e.force, e.pool)
    ones = (*frame.ones, found) if found is not None else frame.ones
    return with_top(
        s, replace(frame, scored=scored, legendary=legendary, ones=ones, stage="rerolls")
    )


def _saves(s: GameState, e: ev.SupportSavesRolled) -> GameState:
    frame = _melee(s)
    saves = dict(frame.saves)
    saves[e.force] = e.saves
    return with_top(s, replace(frame, saves=saves))


def _hits_counted(s: GameState, e: ev.MeleeHitsCounted) -> GameState:
    frame = _melee(s)
    return with_top(
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
    s = with_top(s, replace(_melee(s), stage="outcome"))
    for loss in e.losses:
        s = with_stamina_lost(s, loss.unit, loss.stamina_lost)
    return s


def _markers(s: GameState, pids: list[str], **changes: Any) -> GameState:
    for pid in pids:
        if pid in s.units or pid in s.heroes:
            s = with_piece(s, pid, **changes)
    return s


def _melee_decided(s: GameState, e: ev.MeleeDecided) -> GameState:
    frame = _melee(s)
    stage = "pursuit" if e.outcome == "fighting_victory" else "disengage"
    s = with_top(s, replace(frame, winner=e.winner, loser=e.loser, outcome=e.outcome, stage=stage))
    combat = next((c for c in s.combats if c.id == e.combat), None)
    if combat is not None:
        for force, ids in combat.sides.items():
            s = _markers(s, list(ids), **rulings.markers_after_melee(force == e.winner))
    return s


def _retreats(s: GameState, e: ev.RetreatsOrdered) -> GameState:
    return pushed(s, RetreatFrame(orders=tuple(e.orders)))


def _pursued(s: GameState, e: ev.Pursued) -> GameState:
    return with_top(s, replace(_melee(s), stage="disengage"))


def _held(s: GameState, e: ev.HeldGround) -> GameState:
    frame = _melee(s)
    s = with_top(s, replace(frame, stage="disengage"))
    combat = next((c for c in s.combats if c.id == e.combat), None)
    losers = list(combat.sides.get(frame.loser, ())) if combat is not None else []
    s = _markers(s, losers, charging=False, winning=False)
    for pid in losers:
        s = without_fighter(s, pid)
    return s


def _asked(s: GameState, unit: str) -> GameState:
    frame = _melee(s)
    return with_top(s, replace(frame, asked=(*frame.asked, unit)))


def _disengage_declared(s: GameState, e: ev.DisengageDeclared) -> GameState:
    return _asked(s, e.unit)


def _disengaged(s: GameState, e: ev.Disengaged) -> GameState:
    return without_fighter(with_piece(s, e.unit, charging=False, winning=False), e.unit)


def _stayed(s: GameState, e: ev.StayedEngaged) -> GameState:
    return _asked(s, e.unit)


def _melee_ended(s: GameState, e: ev.MeleeEnded) -> GameState:
    return with_combats(popped(s), list(s.combats))


# -- single combat -----------------------------------------------------------------------------------------


def _challenge(s: GameState, e: ev.ChallengeIssued) -> GameState:
    s = replace(s, challenge_done=True)
    return pushed(s, DuelFrame(challenger=e.challenger, challenged=e.challenged))


def _forgone(s: GameState, e: ev.ChallengeForgone) -> GameState:
    return replace(s, challenge_done=True)


def _refused(s: GameState, e: ev.ChallengeRefused) -> GameState:
    return with_piece(popped(s), e.hero, refused=True)


def _accepted(s: GameState, e: ev.ChallengeAccepted) -> GameState:
    frame: DuelFrame = top_as(s, DuelFrame)
    return with_top(s, replace(frame, stage="deeds"))


def _committed(s: GameState, e: ev.DeedsCommitted) -> GameState:
    frame: DuelFrame = top_as(s, DuelFrame)
    deeds = dict(frame.deeds)
    deeds[e.hero] = e.deeds
    return with_top(s, replace(frame, deeds=deeds))


def _duel_dice(s: GameState, e: ev.SingleCombatDiceRolled) -> GameState:
    frame: DuelFrame = top_as(s, DuelFrame)
    hits = dict(frame.hits)
    hits[e.pool.owner] = e.pool.hits
    hero = s.heroes[e.pool.owner]
    found = pools.ones_of(hero.force, e.pool)
    ones = (*frame.ones, found) if found is not None else frame.ones
    return with_top(s, replace(frame, hits=hits, ones=ones, stage="rerolls"))


def _round(s: GameState, e: ev.SingleCombatRound) -> GameState:
    frame: DuelFrame = top_as(s, DuelFrame)
    if rulings.fights_again(e.result):
        return with_top(
            s, replace(frame, round=frame.round + 1, deeds={}, hits={}, ones=(), stage="deeds")
        )
    s = popped(s)
    return _markers(s, [frame.challenger, frame.challenged], dueled=True)


# -- losses --------------------------------------------------------------------------------------------


def _stamina_lost(s: GameState, e: ev.StaminaLost) -> GameState:
    return with_stamina_lost(s, e.unit, e.stamina)


def _destroyed(s: GameState, e: ev.UnitDestroyed) -> GameState:
    s = with_piece(s, e.unit, gone=e.how, charging=False, winning=False)
    return without_fighter(s, e.unit)


def _killed(s: GameState, e: ev.HeroKilled) -> GameState:
    s = with_piece(s, e.hero, gone="killed", stamina=0, unit="", charging=False, winning=False)
    s = without_fighter(s, e.hero)
    if e.cause in rulings.DEATH_TABLE_CAUSES:
        s = pushed(s, FallFrame(hero=e.hero, cause=e.cause, enemy=e.enemy))
    return s


def _death_rolled(s: GameState, e: ev.HeroDeathRolled) -> GameState:
    top_as(s, FallFrame)
    s = popped(s)
    return pushed(s, BlowFrame(hero=e.hero, target=e.target)) if e.target else s


def _blow(s: GameState, e: ev.FinalBlowStruck) -> GameState:
    top_as(s, BlowFrame)
    return popped(s)


def _unattached(s: GameState, e: ev.HeroUnattached) -> GameState:
    s = with_piece(s, e.hero, unit="")
    if not e.combat:
        return s
    hero: Hero = s.heroes[e.hero]

    def fight_on(c: Combat) -> Combat:
        sides = dict(c.sides)
        sides[hero.force] = (*sides.get(hero.force, ()), e.hero)
        return replace(c, sides=sides)

    return with_combat(s, e.combat, fight_on)


# -- retreats ----------------------------------------------------------------------------------------------


def _retreat_frame(s: GameState) -> RetreatFrame:
    frame: RetreatFrame = top_as(s, RetreatFrame)
    return frame


def _retreat_began(s: GameState, e: ev.RetreatBegan) -> GameState:
    frame = _retreat_frame(s)
    head = replace(frame.orders[0], stage="declare")
    return with_top(s, replace(frame, orders=(head, *frame.orders[1:])))


def _order_done(s: GameState, e: ev.UnitRetreated | ev.RetreatCancelled) -> GameState:
    frame = _retreat_frame(s)
    rest = frame.orders[1:]
    return with_top(s, replace(frame, orders=rest)) if rest else popped(s)


#: the folds of the fighting events
FOLDS: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    ev.ShotsFired: _shots,
    ev.TargetInRoughTerrain: _target_rough,
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
