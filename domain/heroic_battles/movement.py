"""Movement (pp.30–40): movement actions, changing facing, heroes joining and leaving units.

Up to two movement actions a phase; a unit tests for its second action, for any action once it
has lost stamina (and for every action if Reluctant), for crossing a barrier (2D6, the lower),
and on 2D6 in rough terrain (unless Agile); heroes never test. A unit or hero completes its
actions before another moves (HB-3); units and heroes in melee do not move (HB-4).
"""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, quoted, reject
from warlog.domain.heroic_battles import casualties, command_test, pieces, rulings, tables
from warlog.domain.heroic_battles import commands as cmd
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.pieces import Piece
from warlog.domain.heroic_battles.state import GameState, Hero, Unit


def max_actions(p: Piece) -> int:
    """Two movement actions (p.30); one for a Slow unit (trait, p.70)."""
    return 1 if pieces.has(p, "slow") else tables.MAX_MOVEMENT_ACTIONS


def movement_problem(
    state: GameState, player: str, pid: str, verb: str = "move"
) -> RulesError | None:
    """Why ``pid`` may not take a movement action now (a ``rules/...`` RulesError), or None."""
    p = pieces.piece(state, pid)
    if p is None:
        return reject(f"there is no unit or hero {quoted(pid)} in this battle", "unknown_unit")
    problem = pieces.own(p, player, verb)
    if problem is not None:
        return problem
    if isinstance(p, Hero) and p.unit:
        return reject(
            f"{pid} is attached to {p.unit} and moves with it; it must leave the unit first (HB-5)",
            "hero_attached",
        )
    if not rulings.ENGAGED_MAY_MOVE_OR_SHOOT and pieces.in_melee(state, pid):
        return reject(f"{pid} is in a melee and makes no movement action (HB-4)", "in_melee")
    if rulings.movement_over(p.actions, p.done, max_actions(p)):
        if p.actions >= max_actions(p):
            why = f"it has taken its {max_actions(p)} movement action{'s' if max_actions(p) != 1 else ''}"
        else:
            why = (
                "another unit or hero moved after it, or a command test for its action failed "
                "or it evaded"
            )
        return reject(
            f"{pid}'s movement is over this phase: {why} ({tables.MOVEMENT}; HB-3)",
            "movement_over",
        )
    return None


def test_reasons(p: Piece, barrier: bool = False) -> list[str]:
    """Why a movement action of ``p`` needs a command test (p.26); none for heroes."""
    if not isinstance(p, Unit):
        return []
    reasons: list[str] = []
    if p.actions >= 1:
        reasons.append("second movement action")
    if p.stamina < p.max_stamina:
        reasons.append("lost stamina")
    if pieces.has(p, "reluctant") and not reasons:
        reasons.append("Reluctant: every movement action (p.69)")
    if barrier:
        reasons.append(tables.CROSSING_A_BARRIER)
    return reasons


def move(batch: Batch[GameState], c: cmd.Move) -> None:
    state = batch.state
    problem = movement_problem(state, c.player, c.unit)
    if problem is not None:
        raise problem
    p = pieces.find(state, c.unit)
    reasons = test_reasons(p, c.barrier)
    if isinstance(p, Unit) and reasons:
        command_test.call(
            batch,
            [
                command_test.pending(
                    state, p, "movement", reasons, c.rough, c.barrier, direction=c.direction
                )
            ],
        )
        return
    batch.emit(
        ev.UnitMoved(
            unit=p.id,
            action=p.actions + 1,
            half_st=command_test.move_distance(p, c.direction),
            direction=c.direction,
            rough=c.rough,
            barrier=c.barrier,
        )
    )


def facing_problem(state: GameState, player: str, uid: str) -> RulesError | None:
    """Why ``uid`` may not change facing now, or None: a unit's first and only action (p.33)."""
    problem = movement_problem(state, player, uid, "turn")
    if problem is not None:
        return problem
    p = pieces.find(state, uid)
    if not isinstance(p, Unit):
        return reject(
            f"{uid} is a hero: heroes move in any direction and never change facing",
            "not_a_unit",
        )
    if p.actions:
        return reject(
            f"changing facing must be {uid}'s first and only movement action ({tables.CHANGING_FACING})",
            "movement_over",
        )
    return None


def change_facing(batch: Batch[GameState], c: cmd.ChangeFacing) -> None:
    state = batch.state
    problem = facing_problem(state, c.player, c.unit)
    if problem is not None:
        raise problem
    command_test.check_rough_declared(state, c.rough, "a change of facing")
    unit = state.units[c.unit]
    test = command_test.pending(state, unit, "facing", ["change of facing"], rough=c.rough)
    command_test.call(batch, [test])


def join_problem(state: GameState, player: str, hero_id: str, unit_id: str) -> RulesError | None:
    """Why the hero may not join the unit now (HB-5), or None."""
    hero = state.heroes.get(hero_id)
    if hero is None:
        return reject(f"there is no hero {quoted(hero_id)} in this battle", "unknown_hero")
    problem = movement_problem(state, player, hero_id, "move")
    if problem is not None:
        return problem
    unit = state.units.get(unit_id)
    if unit is None:
        what = "a hero, not a unit" if unit_id in state.heroes else "not in this battle"
        return reject(f"{quoted(unit_id)} is {what}: a hero joins a unit", "unknown_unit")
    problem = pieces.own(unit, player, "join")
    if problem is not None:
        return problem
    if not rulings.MAY_JOIN_A_UNIT_IN_MELEE and pieces.in_melee(state, unit_id):
        return reject(f"{unit_id} is in a melee: a hero may not join it (HB-5)", "in_melee")
    return None


def join_unit(batch: Batch[GameState], c: cmd.JoinUnit) -> None:
    problem = join_problem(batch.state, c.player, c.hero, c.unit)
    if problem is not None:
        raise problem
    hero = batch.state.heroes[c.hero]
    batch.emit(ev.HeroJoined(hero=c.hero, unit=c.unit, action=hero.actions + 1))


def leave_problem(state: GameState, player: str, hero_id: str) -> RulesError | None:
    hero = state.heroes.get(hero_id)
    if hero is None:
        return reject(f"there is no hero {quoted(hero_id)} in this battle", "unknown_hero")
    problem = pieces.own(hero, player, "move")
    if problem is not None:
        return problem
    if not hero.unit:
        return reject(f"{hero_id} is not attached to a unit", "not_attached")
    return None


def leave_unit(batch: Batch[GameState], c: cmd.LeaveUnit) -> None:
    """HB-5: leaving costs no action; leaving a unit in melee leaves the melee and costs
    1 token, 2 for the Army Commander, none for a Non-Combatant (p.23)."""
    state = batch.state
    problem = leave_problem(state, c.player, c.hero)
    if problem is not None:
        raise problem
    hero = state.heroes[c.hero]
    in_melee = pieces.in_melee(state, hero.unit)
    batch.emit(ev.HeroLeft(hero=hero.id, unit=hero.unit, in_melee=in_melee))
    if in_melee and not pieces.has(hero, "non_combatant"):
        commander = pieces.has(hero, "army_commander")
        casualties.lose(
            batch,
            hero.force,
            tables.LOSE_COMMANDER_LEAVES_COMBAT if commander else tables.LOSE_LEAVES_COMBAT,
            "leaves a unit while it is in combat" + (" (the Army Commander)" if commander else ""),
            hero.id,
        )


def movable(state: GameState, force: str) -> list[Piece]:
    """The force's units and unattached heroes that may take a movement action now."""
    return [p for p in pieces.pieces(state, force) if movement_problem(state, force, p.id) is None]
