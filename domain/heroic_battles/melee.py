"""Melee (pp.50–62) as a procedure, one melee at a time (HB-31):

1. each side declares (supports, a hill or barrier held, rough terrain, Mighty Deeds);
2. every fighter and fighting hero rolls its combat dice, 5–6 to hit (4–6 Brutal), 1s re-rolled
   with a Charging or Winning marker; each side rolls its support saves (5–6 removes a hit);
3. Risk to Heroes; 4. stamina removed; 5. the outcome (HB-8); 6. the losers retreat;
7. the winners pursue or hold their ground (HB-10); then units with Disengage may leave (HB-24).

Every hit a side scores lands on the enemy's primary fighter (HB-7).

Here the procedure's order and the sides' choices (steps 1 and 7, disengaging); step 2 is
``combat_dice``, steps 3 to 6 ``melee_result``, who fights ``melee_fighters``.
"""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, quoted, reject
from warlog.domain.core.procedure import Decision, Step
from warlog.domain.heroic_battles import (
    combat_dice,
    command_test,
    melee_result,
    pieces,
    rulings,
    tables,
)
from warlog.domain.heroic_battles import commands as cmd
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.melee_fighters import (
    fighting_heroes,
    inspirers,
    melee_combat,
    melee_frame,
    melee_turn_order,
    supporters,
)
from warlog.domain.heroic_battles.state import Combat, GameState, MeleeFrame

# -- the procedure ---------------------------------------------------------------------------------------


def melee_next(state: GameState, frame: MeleeFrame) -> Decision | Step:
    c = melee_combat(state, frame)
    if frame.stage in ("declare", "fight") and not pieces.engaged(c):
        return _end
    if frame.stage == "declare":
        for force in melee_turn_order(state, c):
            if force not in frame.declared:
                return Decision(
                    players=(force,),
                    kind="melee",
                    answers=("declare_melee",),
                    waiting=f"{force} to declare for melee {c.id}",
                    procedure="melee",
                    about={"combat": c.id},
                )
        return combat_dice.fight  # pragma: no cover - the second declaration moves the stage on
    if frame.stage == "fight":
        return combat_dice.fight
    if frame.stage == "rerolls":
        return combat_dice.reroll_ones if frame.ones else combat_dice.count_hits
    if frame.stage == "risk":
        return melee_result.risk_to_heroes
    if frame.stage == "damage":
        return melee_result.remove_stamina
    if frame.stage == "outcome":
        return melee_result.resolve_outcome
    if frame.stage == "pursuit":
        return _pursuit_need(state, frame, c)
    return _disengage_need(state, frame, c)


# -- 1. declarations --------------------------------------------------------------------------------------


def declare_problem(state: GameState, c: cmd.DeclareMelee) -> RulesError | None:
    """Why this declaration is refused (a ``rules/...`` RulesError), or None."""
    frame = melee_frame(state)
    if c.combat != frame.combat:
        return reject(
            f"the melee being fought is {frame.combat}, not {quoted(c.combat)}", "bad_choice"
        )
    combat = melee_combat(state, frame)
    force = c.player
    mine = pieces.fighters(combat, force)
    if len(set(c.supports)) != len(c.supports):
        return reject("a supporting unit is named twice", "bad_support")
    allowed = {u.id for u in supporters(state, force)}
    for uid in c.supports:
        if uid not in allowed:
            return reject(
                f"{uid} cannot support: supports are units of {force} on the table not in a melee "
                f"({tables.SUPPORT_SAVES}; HB-35)",
                "bad_support",
            )
    for fid in c.rough:
        if fid not in mine:
            return reject(f"{fid} is not a fighter of {force} in {combat.id}", "bad_choice")
    heroes = {h.id: h for h in fighting_heroes(state, combat, force)}
    for hero_id, n in c.deeds.items():
        hero = heroes.get(hero_id)
        present = {h.id: h for h in pieces.heroes_in(state, combat, force)}.get(hero_id)
        if hero is None and present is not None:
            why = "fought a single combat" if present.dueled else "refused a challenge"
            return reject(
                f"{hero_id} {why} this phase and adds no dice to its melees (HB-17)", "bad_deeds"
            )
        if hero is None:
            return reject(
                f"{hero_id} does not fight in {combat.id}: only its fighting heroes spend Mighty "
                "Deeds on combat dice",
                "bad_deeds",
            )
        if n and pieces.has(hero, "non_combatant"):
            return reject(
                f"{hero_id} is a Non-Combatant: no Mighty Deeds for combat dice (p.73)", "bad_deeds"
            )
        if n > hero.deeds:
            return reject(f"{hero_id} has {hero.deeds} Mighty Deeds left, not {n}", "no_deeds")
    inspiring = {h.id: h for h in inspirers(state, force)}
    for hero_id, n in c.inspire.items():
        hero = inspiring.get(hero_id)
        if hero is None:
            return reject(
                f"{hero_id} cannot inspire: an Inspiring hero of {force} not in a melee (p.72)",
                "bad_deeds",
            )
        if n > hero.deeds:
            return reject(f"{hero_id} has {hero.deeds} Mighty Deeds left, not {n}", "no_deeds")
    return None


def declare(batch: Batch[GameState], c: cmd.DeclareMelee) -> None:
    problem = declare_problem(batch.state, c)
    if problem is not None:
        raise problem
    batch.emit(
        ev.MeleeDeclared(
            combat=c.combat,
            force=c.player,
            supports=list(c.supports),
            holding=c.holding,
            rough=list(c.rough),
            deeds={h: n for h, n in c.deeds.items() if n},
            inspire={h: n for h, n in c.inspire.items() if n},
        )
    )


# -- 7. pursue or hold -------------------------------------------------------------------------------


def must_pursue(state: GameState, c: Combat, force: str) -> bool:
    """HB-10: a side with an Impetuous unit must pursue (trait, p.68)."""
    units = [state.units.get(fid) for fid in pieces.fighters(c, force)]
    return rulings.pursuit_forced([u.traits for u in units if u is not None])


def _pursuit_need(state: GameState, frame: MeleeFrame, c: Combat) -> Decision | Step:
    if not pieces.fighters(c, frame.loser) or not pieces.fighters(c, frame.winner):
        return lambda batch: batch.emit(ev.HeldGround(combat=c.id, force=frame.winner))
    if must_pursue(state, c, frame.winner):
        return lambda batch: batch.emit(ev.Pursued(combat=c.id, force=frame.winner, forced=True))
    return Decision(
        players=(frame.winner,),
        kind="pursuit",
        answers=("pursue", "hold_ground"),
        waiting=f"{frame.winner} to pursue or hold their ground in {c.id}",
        procedure="melee",
        about={"combat": c.id},
    )


def pursue(batch: Batch[GameState], c: cmd.Pursue) -> None:
    frame = melee_frame(batch.state)
    batch.emit(ev.Pursued(combat=frame.combat, force=frame.winner))


def hold(batch: Batch[GameState], c: cmd.HoldGround) -> None:
    frame = melee_frame(batch.state)
    batch.emit(ev.HeldGround(combat=frame.combat, force=frame.winner))


# -- disengaging and the end ----------------------------------------------------------------------


def may_disengage(state: GameState, c: Combat, uid: str) -> bool:
    """HB-24: a unit with Disengage in the melee whose enemy units are all Warriors, Skirmishers
    or Monstrosities."""
    unit = state.units.get(uid)
    if unit is None or unit.gone or not pieces.has(unit, "disengage"):
        return False
    enemies = [state.units.get(f) for f in pieces.fighters(c, pieces.opponent(state, unit.force))]
    units = [u for u in enemies if u is not None]
    return bool(units) and all(u.type in rulings.DISENGAGE_FROM for u in units)


def _disengage_need(state: GameState, frame: MeleeFrame, c: Combat) -> Decision | Step:
    if pieces.engaged(c):
        for force in melee_turn_order(state, c):
            for fid in pieces.fighters(c, force):
                if fid not in frame.asked and may_disengage(state, c, fid):
                    return Decision(
                        players=(force,),
                        kind="disengage",
                        answers=("disengage", "stay_engaged"),
                        waiting=f"{force} to choose whether {fid} disengages from {c.id}",
                        procedure="melee",
                        options=(fid,),
                        about={"combat": c.id, "unit": fid},
                    )
    return _end


def _asked(state: GameState, uid: str) -> RulesError | None:
    frame = melee_frame(state)
    c = melee_combat(state, frame)
    if uid in frame.asked or not may_disengage(state, c, uid):
        return reject(f"{uid} may not disengage from {c.id} now (HB-24)", "bad_choice")
    for force in melee_turn_order(state, c):
        for fid in pieces.fighters(c, force):
            if fid not in frame.asked and may_disengage(state, c, fid):
                if fid != uid:
                    return reject(f"{fid} is asked first, not {uid}", "bad_choice")
                return None
    return None  # pragma: no cover - may_disengage found it above


def disengage(batch: Batch[GameState], c: cmd.Disengage) -> None:
    problem = _asked(batch.state, c.unit)
    if problem is not None:
        raise problem
    unit = batch.state.units[c.unit]
    batch.emit(ev.DisengageDeclared(unit=c.unit))
    rough = command_test.in_rough(batch.state, unit.id)
    test = command_test.pending(batch.state, unit, "disengage", ["disengaging"], rough=rough)
    command_test.call(batch, [test])


def stay(batch: Batch[GameState], c: cmd.StayEngaged) -> None:
    problem = _asked(batch.state, c.unit)
    if problem is not None:
        raise problem
    batch.emit(ev.StayedEngaged(unit=c.unit))


def _end(batch: Batch[GameState]) -> None:
    batch.emit(ev.MeleeEnded(combat=melee_frame(batch.state).combat))
