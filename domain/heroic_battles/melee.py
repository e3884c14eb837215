"""Melee (pp.50–62) as a procedure, one melee at a time (HB-31):

1. each side declares (supports, a hill or barrier held, rough terrain, Mighty Deeds);
2. every fighter and fighting hero rolls its combat dice, 5–6 to hit (4–6 Brutal), 1s re-rolled
   with a Charging or Winning marker; each side rolls its support saves (5–6 removes a hit);
3. Risk to Heroes; 4. stamina removed; 5. the outcome (HB-8); 6. the losers retreat;
7. the winners pursue or hold their ground (HB-10); then units with Disengage may leave (HB-24).

Every hit a side scores lands on the enemy's primary fighter (HB-7).
"""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, quoted, reject
from warlog.domain.core.procedure import Decision, Step
from warlog.domain.heroic_battles import (
    casualties,
    command_test,
    pieces,
    pools,
    rolls,
    rulings,
    tables,
)
from warlog.domain.heroic_battles import commands as cmd
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.state import Combat, GameState, Hero, MeleeFrame, Unit
from warlog.domain.heroic_battles.values import (
    Declaration,
    Loss,
    Pool,
    RetreatOrder,
    RiskEntry,
    Term,
)

# -- who fights ------------------------------------------------------------------------------------------


def fighting_heroes(state: GameState, c: Combat, force: str) -> list[Hero]:
    """The heroes of ``force`` who add their dice to melee ``c``: not those who fought a single
    combat this phase, nor those who refused a challenge (HB-17)."""
    return [h for h in pieces.heroes_in(state, c, force) if not h.dueled and not h.refused]


def supporters(state: GameState, force: str) -> list[Unit]:
    """Units of ``force`` that may be declared in support: on the table, not in a melee."""
    return [
        u
        for u in state.units.values()
        if u.force == force and rulings.may_support(bool(u.gone), pieces.in_melee(state, u.id))
    ]


def inspirers(state: GameState, force: str) -> list[Hero]:
    """Inspiring heroes of ``force`` not in a melee, with a Mighty Deed (trait, p.72)."""
    return [
        h
        for h in state.heroes.values()
        if h.force == force
        and not h.gone
        and h.deeds > 0
        and pieces.has(h, "inspiring")
        and not pieces.in_melee(state, h.id)
    ]


def melee_turn_order(state: GameState, c: Combat) -> list[str]:
    """The sides in the order they declare: the phasing force first."""
    return sorted(c.sides, key=lambda f: f != state.phasing)


# -- the procedure ---------------------------------------------------------------------------------------


def _frame(state: GameState) -> MeleeFrame:
    frame = state.frames[-1]
    assert isinstance(frame, MeleeFrame)
    return frame


def _combat(state: GameState, frame: MeleeFrame) -> Combat:
    found = pieces.combat(state, frame.combat)
    return found if found is not None else Combat(id=frame.combat, sides={})


def melee_next(state: GameState, frame: MeleeFrame) -> Decision | Step:
    c = _combat(state, frame)
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
        return _fight  # pragma: no cover - the second declaration moves the stage on
    if frame.stage == "fight":
        return _fight
    if frame.stage == "rerolls":
        return _reroll if frame.ones else _count
    if frame.stage == "risk":
        return _risk
    if frame.stage == "damage":
        return _damage
    if frame.stage == "outcome":
        return _outcome
    if frame.stage == "pursuit":
        return _pursuit_need(state, frame, c)
    return _disengage_need(state, frame, c)


# -- 1. declarations --------------------------------------------------------------------------------------


def declare_problem(state: GameState, c: cmd.DeclareMelee) -> RulesError | None:
    """Why this declaration is refused (a ``rules/...`` RulesError), or None."""
    frame = _frame(state)
    if c.combat != frame.combat:
        return reject(
            f"the melee being fought is {frame.combat}, not {quoted(c.combat)}", "bad_choice"
        )
    combat = _combat(state, frame)
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


# -- 2. combat dice and support saves --------------------------------------------------------------


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


def _fight(batch: Batch[GameState]) -> None:
    """Every pool of both sides, the phasing side first, then each side's support saves: all
    their counts are known before any die is rolled."""
    state = batch.state
    frame = _frame(state)
    c = _combat(state, frame)
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
    if _frame(batch.state).stage == "fight":  # nobody had dice to roll (heroes out of it, HB-17)
        _count(batch)


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


def _reroll(batch: Batch[GameState]) -> None:
    """The 1s of one side's pools with a Charging or Winning marker, rolled again."""
    frame = _frame(batch.state)
    force = frame.ones[0].force
    mine = [o for o in frame.ones if o.force == force]
    what = f"1s of {force} re-rolled in {frame.combat}"
    if not rolls.may_roll(batch, force, sum(o.count for o in mine), what):
        return
    for ones in mine:
        batch.emit(pools.reroll(batch, ones))


def _count(batch: Batch[GameState]) -> None:
    """The hits on each side's primary fighter: the enemy's hits less its saves, Legendary
    Weapon hits removed first (HB-12)."""
    state = batch.state
    frame = _frame(state)
    c = _combat(state, frame)
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


# -- 3. Risk to Heroes, 4. stamina --------------------------------------------------------------------


def _risk(batch: Batch[GameState]) -> None:
    """The heroes with a primary fighter that took hits roll for Risk to Heroes (pp.56–57)."""
    state = batch.state
    frame = _frame(state)
    entries: list[RiskEntry] = []
    for force, fid in frame.primaries.items():
        hits = frame.conceded.get(force, 0)
        unit = state.units.get(fid)
        if hits <= 0 or unit is None or unit.gone:
            continue
        enemy = frame.primaries[pieces.opponent(state, force)]
        entries.extend(
            RiskEntry(hero=h.id, hits=hits, enemy=enemy) for h in pieces.attached(state, fid)
        )
    batch.emit(ev.HeroesAtRisk(entries=entries))


def _damage(batch: Batch[GameState]) -> None:
    """1 stamina per Legendary Weapon hit (HB-12), 1 per full Armour's worth of the others."""
    state = batch.state
    frame = _frame(state)
    losses: list[Loss] = []
    for force, fid in frame.primaries.items():
        hits = frame.conceded.get(force, 0)
        p = pieces.piece(state, fid)
        if hits <= 0 or p is None or p.gone:
            continue
        lw = frame.legendary_conceded.get(force, 0)
        lost = rulings.stamina_lost(hits, p.armour, lw)
        hero = (
            not pieces.is_unit(p)
            if rulings.unattached_hero_loss_marked(state.rules_version)
            else None
        )
        losses.append(
            Loss(unit=fid, hits=hits, legendary=lw, armour=p.armour, stamina_lost=lost, hero=hero)
        )
    batch.emit(ev.MeleeDamage(combat=frame.combat, losses=losses))
    for loss in losses:
        force = pieces.find(batch.state, loss.unit).force
        enemy = frame.primaries[pieces.opponent(batch.state, force)]
        casualties.check_down(batch, loss.unit, "melee", enemy, f"cut down in {frame.combat}")


# -- 5. the outcome, 6. retreats --------------------------------------------------------------------


def _outcome(batch: Batch[GameState]) -> None:
    state = batch.state
    frame = _frame(state)
    c = _combat(state, frame)
    sides = list(frame.primaries)
    scored = {f: frame.conceded.get(pieces.opponent(state, f), 0) for f in sides}
    left = {f: bool(pieces.fighters(c, f)) for f in sides}
    outcome, winner = rulings.melee_outcome(scored, left)
    loser = pieces.opponent(state, winner) if winner else ""
    batch.emit(
        ev.MeleeDecided(combat=c.id, outcome=outcome, winner=winner, loser=loser, scored=scored)
    )
    if not winner:
        return
    for fid in pieces.fighters(c, winner):
        p = pieces.find(state, fid)
        if isinstance(p, Hero) and _against_a_unit(state, frame, c, loser):
            casualties.gain(
                batch,
                winner,
                tables.GAIN_UNATTACHED_HERO_WINS,
                "an unattached hero wins a round of combat against an enemy unit",
                fid,
            )
    if outcome == "fighting_victory":
        distance = _retreat_distance(state, c, winner, loser)
        orders = [
            RetreatOrder(unit=fid, half_st=distance[fid], cause="melee")
            for fid in pieces.fighters(c, loser)
        ]
        if orders:
            batch.emit(ev.RetreatsOrdered(orders=orders))


def _against_a_unit(state: GameState, frame: MeleeFrame, c: Combat, loser: str) -> bool:
    """The loser fought with a unit: one still in the melee, or (since version 2) its primary
    fighter when the dice were rolled, a unit the winner's hits destroyed."""
    if any(isinstance(pieces.piece(state, x), Unit) for x in pieces.fighters(c, loser)):
        return True
    primary = pieces.piece(state, frame.primaries.get(loser, ""))
    return rulings.hero_beats_a_destroyed_unit(state.rules_version) and isinstance(primary, Unit)


def _fearsome(state: GameState, fid: str) -> bool:
    p = pieces.find(state, fid)
    carriers: list[pieces.Piece] = [p]
    if isinstance(p, Unit):
        carriers.extend(pieces.attached(state, fid))
    return any(pieces.has(x, "fearsome") for x in carriers)


def _retreat_distance(state: GameState, c: Combat, winner: str, loser: str) -> dict[str, int]:
    """½ ST; 1 ST against a Fearsome winner for a loser that is not Fearsome (HB-33)."""
    fearsome = any(_fearsome(state, f) for f in pieces.fighters(c, winner))
    return {
        fid: rulings.FEARSOME_RETREAT_HALF_ST
        if fearsome and not _fearsome(state, fid)
        else tables.RETREAT_HALF_ST
        for fid in pieces.fighters(c, loser)
    }


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
    frame = _frame(batch.state)
    batch.emit(ev.Pursued(combat=frame.combat, force=frame.winner))


def hold(batch: Batch[GameState], c: cmd.HoldGround) -> None:
    frame = _frame(batch.state)
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
    frame = _frame(state)
    c = _combat(state, frame)
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
    batch.emit(ev.MeleeEnded(combat=_frame(batch.state).combat))
