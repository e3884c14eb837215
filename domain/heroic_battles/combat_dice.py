"""Combat dice and support saves, step 2 of a melee (Melee, pp.50–62; Bonuses, p.55).

Every pool of both sides, 1s re-rolled with a Charging or Winning marker, each side's saves, and
the hits each primary fighter takes (HB-7, HB-12, HB-18).
"""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles import pieces, pools, rolls, rulings, tables
from warlog.domain.heroic_battles.melee_fighters import (
    fighting_heroes,
    melee_combat,
    melee_frame,
    melee_turn_order,
)
from warlog.domain.heroic_battles.state import Combat, GameState, Hero, MeleeFrame, Unit
from warlog.domain.heroic_battles.values import Declaration, Pool, Term


def _reroll_reason(p: Unit | Hero) -> str:
    if p.charging:
        return "Charging marker"
    if p.winning:
        return "Winning marker"
    return ""


def _unit_pool_terms(
    unit: Unit, primary: bool, rough: bool, flanked: bool
) -> tuple[list[str], list[tuple[str, int]]]:
    """Combat Dice Penalties (Melee, pp.50–62) and Bonuses (p.55) of a unit's own dice."""
    penalties: list[str] = []
    if pieces.at_half_strength(unit):
        penalties.append("half stamina or less")
    if not primary:
        penalties.append("Secondary Fighting Unit")
    if rough and not pieces.has(unit, rulings.AGILE_TRAIT):
        penalties.append("in rough terrain")
    if flanked:
        penalties.append(tables.FLANK_OR_REAR)
    bonuses: list[tuple[str, int]] = []
    full = pieces.full_strength(unit)
    if full and pieces.has(unit, "spears_as_tribute"):
        bonuses.append(("Spears as Tribute", tables.SPEARS_AS_TRIBUTE_DICE))
    if full and pieces.has(unit, "impetuous") and (unit.charging or unit.winning):
        bonuses.append(("Impetuous", tables.IMPETUOUS_DICE))
    if unit.charging:
        bonuses.append(("missile fire in a charge", rulings.MISSILE_FIRE_IN_CHARGES_DICE))
    if pieces.has(unit, "towering"):
        bonuses.append(("Towering", tables.TOWERING_DICE))
    elif pieces.has(unit, "big"):
        bonuses.append(("Big", tables.BIG_DICE))
    return penalties, bonuses


def fight(batch: Batch[GameState]) -> None:
    """Every pool of both sides, the phasing side first, then each side's support saves: all
    their counts are known before any die is rolled."""
    state = batch.state
    frame = melee_frame(state)
    c = melee_combat(state, frame)
    order = melee_turn_order(state, c)
    dice = sum(_side_dice(state, frame, c, f) for f in order)
    if not rolls.may_roll(batch, state.phasing, dice, f"the combat dice of {c.id}"):
        return
    primaries = {f: rulings.primary(pieces.fighters(c, f)) for f in c.sides}
    for force in order:
        declared = frame.declared[force]
        for hero_id, n in declared.deeds.items():
            batch.emit(ev.DeedsSpent(hero=hero_id, deeds=n, purpose=f"combat dice in {c.id}"))
        for hero_id, n in declared.inspire.items():
            batch.emit(ev.DeedsSpent(hero=hero_id, deeds=n, purpose=f"support saves in {c.id}"))
        _roll_side(batch, frame, c, force, primaries[force])
    for force in order:
        _saves(batch, frame, c, force)
    # nobody had dice to roll (heroes out of it, HB-17)
    if melee_frame(batch.state).stage == "fight":
        count_hits(batch)


def _side_dice(state: GameState, frame: MeleeFrame, c: Combat, force: str) -> int:
    """How many dice a side rolls for its combat dice and support saves."""
    primary = rulings.primary(pieces.fighters(c, force))
    declared = frame.declared[force]
    heroes = {h.id for h in fighting_heroes(state, c, force)}
    dice = sum(t.dice for t in _save_terms(state, declared))
    for fid in pieces.fighters(c, force):
        p = pieces.find(state, fid)
        if isinstance(p, Unit):
            penalties, bonuses = _unit_pool_terms(
                p, fid == primary, fid in declared.rough, fid in c.flanked
            )
            dice += pools.build(p.combat_dice, penalties, bonuses)[1]
            carriers = [h for h in pieces.attached(state, fid) if h.id in heroes]
        else:
            carriers = [p] if fid in heroes else []
        for hero in carriers:
            dice += pools.build(
                hero.level, [], _hero_bonuses(hero, declared.deeds.get(hero.id, 0))
            )[1]
    return dice


def reroll_ones(batch: Batch[GameState]) -> None:
    """The 1s of one side's pools with a Charging or Winning marker, rolled again."""
    frame = melee_frame(batch.state)
    force = frame.ones[0].force
    mine = [o for o in frame.ones if o.force == force]
    what = f"1s of {force} re-rolled in {frame.combat}"
    if not rolls.may_roll(batch, force, sum(o.count for o in mine), what):
        return
    for ones in mine:
        batch.emit(pools.reroll(batch, ones))


def count_hits(batch: Batch[GameState]) -> None:
    """The hits on each side's primary fighter: the enemy's hits less its saves, Legendary
    Weapon hits removed first (HB-12)."""
    state = batch.state
    frame = melee_frame(state)
    c = melee_combat(state, frame)
    conceded: dict[str, int] = {}
    lw_conceded: dict[str, int] = {}
    for force in c.sides:
        other = pieces.opponent(state, force)
        hits, lw = frame.scored.get(other, 0), frame.legendary.get(other, 0)
        saves = frame.saves.get(force, 0)
        lw_left = max(0, lw - saves)
        plain_left = max(0, (hits - lw) - max(0, saves - lw))
        conceded[force] = lw_left + plain_left
        lw_conceded[force] = lw_left
    batch.emit(
        ev.MeleeHitsCounted(
            combat=c.id,
            scored={f: frame.scored.get(f, 0) for f in c.sides},
            legendary={f: frame.legendary.get(f, 0) for f in c.sides},
            saves={f: frame.saves.get(f, 0) for f in c.sides},
            conceded=conceded,
            legendary_conceded=lw_conceded,
            primaries={f: rulings.primary(pieces.fighters(c, f)) for f in c.sides},
        )
    )


def _roll_side(
    batch: Batch[GameState], frame: MeleeFrame, c: Combat, force: str, primary: str
) -> None:
    """Every pool of one side: each fighter's own dice, each fighting hero's."""
    declared = frame.declared[force]
    heroes = {h.id for h in fighting_heroes(batch.state, c, force)}
    for fid in pieces.fighters(c, force):
        p = pieces.find(batch.state, fid)
        if isinstance(p, Unit):
            penalties, bonuses = _unit_pool_terms(
                p, fid == primary, fid in declared.rough, fid in c.flanked
            )
            pool = pools.roll(
                batch,
                owner=fid,
                label="Combat Dice",
                base=p.combat_dice,
                penalties=penalties,
                bonuses=bonuses,
                hit_on=pools.hit_on(p),
                roller=force,
                purpose=f"combat dice {fid}",
                reroll_reason=_reroll_reason(p),
            )
            batch.emit(ev.CombatDiceRolled(combat=c.id, force=force, pool=pool))
            carriers = [h for h in pieces.attached(batch.state, fid) if h.id in heroes]
        else:
            carriers = [p] if fid in heroes else []
        for hero in carriers:
            pool = _hero_pool(batch, hero, p, declared.deeds.get(hero.id, 0))
            batch.emit(ev.CombatDiceRolled(combat=c.id, force=force, pool=pool))


def _hero_pool(batch: Batch[GameState], hero: Hero, carrier: Unit | Hero, deeds: int) -> Pool:
    """A fighting hero's dice: 1D6 per level, 1D6 per Mighty Deed, Big (p.55); never halved
    (HB-18); 1s re-rolled with its unit's (or its own) marker."""
    return pools.roll_hero(
        batch,
        hero,
        _hero_bonuses(hero, deeds),
        purpose=f"combat dice {hero.id}",
        reroll_reason=_reroll_reason(carrier),
    )


def _hero_bonuses(hero: Hero, deeds: int) -> list[tuple[str, int]]:
    bonuses: list[tuple[str, int]] = [(f"Mighty Deed{'s' if deeds != 1 else ''}", deeds)]
    if pieces.has(hero, "big"):
        bonuses.append(("Big", tables.BIG_DICE))
    return bonuses


def _save_terms(state: GameState, declared: Declaration) -> list[Term]:
    """Support Saves: 1D6 per Skirmisher or Light Rider unit, 2D6 per other unit, 2D6 holding a
    hill or barrier, 2D6 per Inspiring hero's Mighty Deed."""
    terms: list[Term] = []
    for uid in declared.supports:
        unit = state.units[uid]
        terms.append(Term(label=f"{tables.SUPPORT_TERM}{uid}", dice=tables.SUPPORT_DICE[unit.type]))
    if declared.holding:
        terms.append(Term(label="holding a hill or barrier", dice=tables.HILL_OR_BARRIER_SAVE_DICE))
    for hero_id, n in declared.inspire.items():
        terms.append(
            Term(label=f"{hero_id} Inspiring", dice=tables.INSPIRING_SAVE_DICE_PER_DEED * n)
        )
    return terms


def _saves(batch: Batch[GameState], frame: MeleeFrame, c: Combat, force: str) -> None:
    """A side's support saves; each 5–6 will remove a hit."""
    terms = _save_terms(batch.state, frame.declared[force])
    dice = sum(t.dice for t in terms)
    if not dice:
        return
    faces = batch.roll(dice, 6, purpose=f"support saves {force} in {c.id}", roller=force)
    saves = sum(1 for f in faces if f >= tables.SUPPORT_SAVE_ON)
    batch.emit(
        ev.SupportSavesRolled(combat=c.id, force=force, terms=terms, faces=faces, saves=saves)
    )
