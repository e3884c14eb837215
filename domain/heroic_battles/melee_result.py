"""The result of a melee, steps 3 to 6: Risk to Heroes, stamina, the outcome, the retreats.

The heroes of a primary fighter that took hits at risk; stamina removed, Legendary Weapon hits
first (HB-12); the outcome (HB-8); the losers ordered back ½ ST, 1 ST from a Fearsome winner
(HB-33).
"""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.heroic_battles import casualties, pieces, rulings, tables
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.melee_fighters import melee_combat, melee_frame
from warlog.domain.heroic_battles.state import Combat, GameState, Hero, MeleeFrame, Unit
from warlog.domain.heroic_battles.values import Loss, RetreatOrder, RiskEntry

# -- 3. Risk to Heroes, 4. stamina --------------------------------------------------------------------


def risk_to_heroes(batch: Batch[GameState]) -> None:
    """The heroes with a primary fighter that took hits roll for Risk to Heroes (pp.56–57)."""
    state = batch.state
    frame = melee_frame(state)
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


def remove_stamina(batch: Batch[GameState]) -> None:
    """1 stamina per Legendary Weapon hit (HB-12), 1 per full Armour's worth of the others."""
    state = batch.state
    frame = melee_frame(state)
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


def resolve_outcome(batch: Batch[GameState]) -> None:
    """The melee's outcome (HB-8): an unattached hero of the winners that beat a unit gains its
    token; the losers of a fighting victory are ordered to retreat."""
    state = batch.state
    frame = melee_frame(state)
    c = melee_combat(state, frame)
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
