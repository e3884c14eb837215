"""Reputation gained and lost, stamina lost, units destroyed and heroes killed, with the tokens
each costs (Gaining or Losing Reputation, p.23; Hero Death in Combat, p.57).

Every function emits into the batch and reads the board as it then stands; losses cascade (a
dying hero's final blow may destroy a unit, whose force loses its reputation…).
"""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.core.procedure import Step
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles import pieces, rolls, rulings, tables
from warlog.domain.heroic_battles.casualty_events import CauseOfDeath
from warlog.domain.heroic_battles.state import BlowFrame, FallFrame, GameState, Hero, Unit


def gain(batch: Batch[GameState], force: str, tokens: int, reason: str, who: str = "") -> None:
    """``force`` gains ``tokens`` Reputation Tokens (p.23)."""
    batch.emit(ev.ReputationGained(force=force, tokens=tokens, reason=reason, who=who))


def lose(batch: Batch[GameState], force: str, due: int, reason: str, who: str = "") -> None:
    """``force`` loses ``due`` tokens, or as many as it has (HB-21)."""
    if due <= 0:
        return
    have = batch.state.forces[force].tokens
    taken = max(rulings.MIN_TOKENS, min(due, have - rulings.MIN_TOKENS))
    batch.emit(ev.ReputationLost(force=force, tokens=taken, due=due, reason=reason, who=who))


def lose_stamina(
    batch: Batch[GameState], pid: str, stamina: int, reason: str, cause: CauseOfDeath, enemy: str
) -> None:
    """``pid`` loses ``stamina`` points; a unit left with none is destroyed, a hero killed (the
    enemy is who a dying hero's final blow strikes)."""
    p = pieces.piece(batch.state, pid)
    if p is None or p.gone or stamina <= 0:
        return
    batch.emit(ev.StaminaLost(unit=pid, stamina=stamina, reason=reason))
    check_down(batch, pid, cause, enemy, f"{reason}: no stamina left")


def check_down(
    batch: Batch[GameState], pid: str, cause: CauseOfDeath, enemy: str, reason: str
) -> None:
    """Destroy the unit or kill the hero ``pid`` if it has no stamina left."""
    p = pieces.piece(batch.state, pid)
    if p is None or p.gone or p.stamina > 0:
        return
    if isinstance(p, Unit):
        remove_unit(batch, pid, reason, "destroyed")
    else:
        kill_hero(batch, pid, cause, enemy)


def remove_unit(batch: Batch[GameState], uid: str, reason: str, how: str) -> None:
    """The unit leaves the table (destroyed, broken or fled): its force loses its Reputation.
    Its heroes (HB-16): fight on in the melee it was destroyed in if that goes on; go with a
    unit that flees off the table; otherwise stand on their own and cost a token."""
    state = batch.state
    unit = state.units[uid]
    if unit.gone:
        return
    combat = pieces.combat_of(state, uid)
    heroes = pieces.attached(state, uid)
    batch.emit(ev.UnitDestroyed(unit=uid, reason=reason, how=how))  # type: ignore[arg-type]
    lose(batch, unit.force, unit.reputation, f"{uid} is {how}", uid)
    for hero in heroes:
        if how == "fled":
            kill_hero(batch, hero.id, "retreat", "")
            continue
        now = pieces.combat(batch.state, combat.id) if combat is not None else None
        enemy_left = now is not None and bool(
            pieces.fighters(now, pieces.opponent(batch.state, unit.force))
        )
        goes_on = rulings.hero_fights_on(how, enemy_left)
        fights_in = now.id if goes_on and now is not None else ""
        batch.emit(ev.HeroUnattached(hero=hero.id, unit=uid, combat=fights_in))
        if not goes_on:
            lose(
                batch,
                hero.force,
                tables.LOSE_UNIT_LOST_HERO_SURVIVES,
                f"{hero.id}'s unit is {how} but the hero survives",
                hero.id,
            )


def kill_hero(batch: Batch[GameState], hid: str, cause: CauseOfDeath, enemy: str) -> None:
    """The hero dies. In combat the Hero Death table is rolled next (``fall_next``, p.57);
    elsewhere its force loses its whole Reputation at once (HB-14)."""
    hero: Hero = batch.state.heroes[hid]
    if hero.gone:
        return
    batch.emit(ev.HeroKilled(hero=hid, cause=cause, enemy=enemy))
    if cause not in rulings.DEATH_TABLE_CAUSES:
        lose(batch, hero.force, hero.reputation, f"{hid} is killed", hid)


def fall_next(state: GameState, frame: FallFrame) -> Step:
    """The Hero Death table of a hero killed in combat is rolled (1D6, p.57)."""
    return lambda batch: _death_roll(batch, frame)


def _death_roll(batch: Batch[GameState], frame: FallFrame) -> None:
    hero = batch.state.heroes[frame.hero]
    if not rolls.may_roll(batch, hero.force, 1, f"Hero Death of {hero.id}"):
        return
    (roll,) = batch.roll(1, 6, purpose=f"Hero Death {hero.id}", roller=hero.force)
    outcome = tables.hero_death(roll)
    target = pieces.piece(batch.state, frame.enemy) if frame.enemy else None
    struck = target.id if outcome == "final_blow" and target is not None and not target.gone else ""
    batch.emit(ev.HeroDeathRolled(hero=hero.id, roll=roll, outcome=outcome, target=struck))
    lose(
        batch,
        hero.force,
        rulings.death_tokens(outcome, hero.reputation),
        f"{hero.id} dies ({tables.DEATH_NAMES[outcome]}, {tables.HERO_DEATH}; HB-13)",
        hero.id,
    )


def blow_next(state: GameState, frame: BlowFrame) -> Step:
    """ "Though I die, I smite thee!" (p.57): the enemy rolls 1D6 and loses 1 stamina below 4."""
    return lambda batch: _final_blow(batch, frame)


def _final_blow(batch: Batch[GameState], frame: BlowFrame) -> None:
    target = pieces.find(batch.state, frame.target)
    if target.gone:
        batch.emit(ev.FinalBlowStruck(hero=frame.hero, target=target.id, roll=0, saved=True))
        return
    if not rolls.may_roll(batch, target.force, 1, f"{frame.hero}'s final blow at {target.id}"):
        return
    (roll,) = batch.roll(1, 6, purpose=f"final blow at {target.id}", roller=target.force)
    saved = roll >= tables.FINAL_BLOW_SAVE_ON
    batch.emit(ev.FinalBlowStruck(hero=frame.hero, target=target.id, roll=roll, saved=saved))
    if not saved:
        lose_stamina(batch, target.id, 1, f"{frame.hero}'s final blow", "final_blow", "")
