"""Shooting (p.42) as a procedure: declare shooter and target, count the dice with every halving
and bonus, roll for hits on 5–6, Risk to Heroes, stamina, a command test for a unit hit, retreat.

Who shoots when (p.27): after its force's movement, Skirmishers and Light Riders with missiles
and unattached heroes with a missile weapon; in the shooting phase, every unit and hero without a
Shot marker. Units and heroes in a melee neither shoot nor are shot at (HB-4). The geometry is
declared (HB-1, HB-2).
"""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, quoted, reject
from warlog.domain.core.procedure import Step
from warlog.domain.heroic_battles import casualties, command_test, pieces, pools, rulings, tables
from warlog.domain.heroic_battles import commands as cmd
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.pieces import Piece
from warlog.domain.heroic_battles.state import GameState, Hero, ShootingFrame, Unit
from warlog.domain.heroic_battles.values import Pool, RiskEntry

#: unit types that may shoot after their own movement (p.27)
SKIRMISH_TYPES = frozenset({"skirmishers", "light_riders"})


def weapon_range(p: Piece) -> int:
    return tables.RANGES.get(p.missile, 0)


def may_shoot(state: GameState, p: Piece, skirmish: bool) -> bool:
    """``p`` may shoot now: a missile weapon, no Shot marker, not in a melee (HB-4); after
    movement only Skirmishers, Light Riders and unattached heroes (p.27)."""
    if not pieces.standing(p) or p.shot or not p.missile or _engaged(state, p.id):
        return False
    if isinstance(p, Unit):
        return p.shooting_dice > 0 and (not skirmish or p.type in SKIRMISH_TYPES)
    return True


def shooters(state: GameState, force: str, skirmish: bool) -> list[Piece]:
    return [p for p in pieces.pieces(state, force) if may_shoot(state, p, skirmish)]


def targets(state: GameState, force: str) -> list[Piece]:
    """Enemy units and unattached heroes not in a melee (HB-4)."""
    enemy = pieces.opponent(state, force)
    return [p for p in pieces.pieces(state, enemy) if not _engaged(state, p.id)]


def _engaged(state: GameState, pid: str) -> bool:
    """In a melee, which keeps it from shooting and being shot at (HB-4)."""
    return not rulings.ENGAGED_MAY_MOVE_OR_SHOOT and pieces.in_melee(state, pid)


def deed_heroes(state: GameState, shooter: Piece) -> list[Hero]:
    """The heroes who may spend Mighty Deeds on this shot: those attached to a shooting unit
    (p.28; HB-18), or the hero shooting."""
    if isinstance(shooter, Hero):
        return [shooter]
    return pieces.attached(state, shooter.id)


def shoot_problem(state: GameState, c: cmd.Shoot, skirmish: bool) -> RulesError | None:
    """Why this shot may not be taken now (a ``rules/...`` RulesError), or None."""
    p = pieces.piece(state, c.shooter)
    if p is None:
        return reject(
            f"there is no unit or hero {quoted(c.shooter)} in this battle", "unknown_unit"
        )
    problem = pieces.own(p, c.player, "shoot with")
    if problem is not None:
        return problem
    if isinstance(p, Hero) and p.unit:
        return reject(f"{p.id} shoots with its unit {p.unit} (HB-18)", "hero_attached")
    if not p.missile:
        return reject(f"{p.id} has no missile weapon", "cannot_shoot")
    if p.shot:
        return reject(f"{p.id} has a Shot marker: it has shot this turn", "already_shot")
    if _engaged(state, p.id):
        return reject(f"{p.id} is in a melee and cannot shoot (HB-4)", "in_melee")
    if not may_shoot(state, p, skirmish):
        return reject(
            f"only Skirmishers, Light Riders with missiles and unattached heroes shoot after "
            f"movement ({tables.TURN_SEQUENCE})",
            "cannot_shoot",
        )
    target = pieces.piece(state, c.target)
    if target is None:
        return reject(f"there is no unit or hero {quoted(c.target)} in this battle", "unknown_unit")
    if target.force == p.force:
        return reject(f"{c.target} belongs to {p.force}: shoot at an enemy", "not_an_enemy")
    if target.gone:
        return reject(f"{c.target} is no longer on the table ({target.gone})", "gone")
    if isinstance(target, Hero) and target.unit:
        return reject(
            f"{c.target} is attached to {target.unit}: shoot at the unit", "hero_attached"
        )
    if _engaged(state, target.id):
        return reject(f"{c.target} is in a melee and cannot be shot at (HB-4)", "in_melee")
    reach = weapon_range(p)
    if not rulings.in_range(c.distance, reach):
        return reject(
            f"{c.target} is {c.distance} ST away: {p.id}'s {p.missile} reaches "
            f"{rulings.MIN_SHOT_DISTANCE}–{reach} ST ({tables.SHOOTING_RANGES}; HB-1)",
            "out_of_range",
        )
    if isinstance(p, Unit) and not rulings.killing_zone_respected(
        c.in_killing_zone, c.none_in_killing_zone
    ):
        return reject(
            f"{c.target} is outside {p.id}'s Killing Zone: targets in the Killing Zone must be shot "
            f"first; declare none_in_killing_zone if no enemy stands in it ({tables.SHOOTING}; HB-2)",
            "killing_zone_first",
        )
    allowed = {h.id: h for h in deed_heroes(state, p)}
    for hero_id, n in c.deeds.items():
        hero = allowed.get(hero_id)
        if hero is None:
            return reject(
                f"{hero_id} may not spend Mighty Deeds on {p.id}'s shooting (only heroes attached "
                f"to it, or the hero shooting; {tables.MIGHTY_DEEDS})",
                "bad_deeds",
            )
        if n > hero.deeds:
            return reject(f"{hero_id} has {hero.deeds} Mighty Deeds left, not {n}", "no_deeds")
    return None


def _pool(batch: Batch[GameState], shooter: Piece, target: Piece, c: cmd.Shoot) -> Pool:
    """Shooting Dice Penalties (halve for each) and Bonuses (p.42; HB-18)."""
    state = batch.state
    penalties: list[str] = []
    bonuses: list[tuple[str, int]] = []
    if isinstance(shooter, Unit):
        base = shooter.shooting_dice
        if pieces.at_half_strength(shooter):
            penalties.append("half stamina or less")
        if c.overhead:
            penalties.append("overhead fire")
        if not c.in_killing_zone:
            penalties.append("outside the Killing Zone")
        if c.obscured:
            penalties.append("obscured")
        for hero in pieces.attached(state, shooter.id):
            if hero.missile:
                bonuses.append((f"hero {hero.id} shooting", tables.HERO_SHOOTING_DICE))
    else:
        base = 0
        bonuses.append((f"hero {shooter.id} shooting", tables.HERO_SHOOTING_DICE))
    for hero_id, n in c.deeds.items():
        bonuses.append((f"Mighty Deed{'s' if n != 1 else ''} of {hero_id}", n))
    if c.behind:
        bonuses.append(("behind the target's front line", tables.BEHIND_FRONT_LINE_DICE))
    if pieces.has(shooter, "marksman"):
        bonuses.append(("Marksman", tables.MARKSMAN_DICE))
    if pieces.has(target, "towering"):
        bonuses.append(("target is Towering", tables.TOWERING_DICE))
    elif pieces.has(target, "big"):
        bonuses.append(("target is Big", tables.BIG_DICE))
    return pools.roll(
        batch,
        owner=shooter.id,
        label="Shooting Dice",
        base=base,
        penalties=penalties,
        bonuses=bonuses,
        hit_on=tables.HIT_ON,
        roller=shooter.force,
        purpose=f"shooting {shooter.id} at {target.id}",
    )


def shoot(batch: Batch[GameState], c: cmd.Shoot) -> None:
    state = batch.state
    problem = shoot_problem(state, c, skirmish=state.phase == "skirmish")
    if problem is not None:
        raise problem
    command_test.check_rough_declared(state, c.target_rough, "the target of a shot")
    shooter = pieces.find(state, c.shooter)
    target = pieces.find(state, c.target)
    if c.target_rough and not isinstance(target, Unit):
        raise reject(
            f"{c.target} is a hero, which takes no command test when hit: there is no rough "
            "terrain to declare for it (HB-36)",
            "bad_choice",
        )
    for hero_id, n in c.deeds.items():
        if n:
            batch.emit(ev.DeedsSpent(hero=hero_id, deeds=n, purpose=f"{c.shooter}'s shooting"))
    pool = _pool(batch, shooter, target, c)
    batch.emit(
        ev.ShotsFired(
            shooter=c.shooter,
            target=c.target,
            distance=c.distance,
            weapon_range=weapon_range(shooter),
            in_killing_zone=c.in_killing_zone,
            pool=pool,
            obscured=c.obscured,
            overhead=c.overhead,
            behind=c.behind,
        )
    )
    if c.target_rough:
        batch.emit(ev.TargetInRoughTerrain(unit=target.id))


def shooting_next(state: GameState, frame: ShootingFrame) -> Step:
    """The shot in progress has no choice of its own: each stage is an automatic step."""
    if frame.stage == "risk":
        return _risk
    if frame.stage == "damage":
        return _damage
    return lambda batch: batch.emit(ev.ShootingEnded(shooter=frame.shooter, target=frame.target))


def _frame(state: GameState) -> ShootingFrame:
    frame = state.frames[-1]
    assert isinstance(frame, ShootingFrame)
    return frame


def _risk(batch: Batch[GameState]) -> None:
    """Risk to Heroes for the heroes of a unit that was hit (p.46)."""
    frame = _frame(batch.state)
    if frame.hits <= 0:
        batch.emit(ev.ShootingEnded(shooter=frame.shooter, target=frame.target))
        return
    target = pieces.find(batch.state, frame.target)
    attached = [h.id for h in pieces.attached(batch.state, target.id)]
    heroes = rulings.risk_to_heroes(attached, isinstance(target, Unit))
    batch.emit(ev.HeroesAtRisk(entries=[RiskEntry(hero=h, hits=frame.hits) for h in heroes]))


def _damage(batch: Batch[GameState]) -> None:
    """Remove stamina (digest Rulings; HB-15), destroyed units, then the command test (p.42)."""
    frame = _frame(batch.state)
    target = pieces.find(batch.state, frame.target)
    armour = pieces.armour_against_shooting(target)
    lost = rulings.stamina_lost(frame.hits, armour)
    batch.emit(ev.HitsTaken(unit=target.id, hits=frame.hits, armour=armour, stamina_lost=lost))
    casualties.check_down(batch, target.id, "shooting", "", f"shot down by {frame.shooter}")
    now = batch.state.units.get(target.id)
    if now is not None and not now.gone:
        test = command_test.pending(
            batch.state, now, "shot", ["hit by missile fire"], rough=frame.rough
        )
        command_test.call(batch, [test])
