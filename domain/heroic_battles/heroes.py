"""Risk to Heroes (p.46, pp.56–57) as a procedure: each hero of a unit that took hits rolls 1D6
per 3 hits (the sheet's table), loses a stamina point for each 1, may re-roll one 1 for a Mighty
Deed and a Reputation Token (HB-29), and dies with no stamina left (the Hero Death table in
combat, p.57; HB-13, HB-14)."""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import reject
from warlog.domain.core.procedure import Decision, Step
from warlog.domain.heroic_battles import casualties, rolls, rulings, tables
from warlog.domain.heroic_battles import commands as cmd
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.casualty_events import CauseOfDeath
from warlog.domain.heroic_battles.state import GameState, RiskFrame
from warlog.domain.heroic_battles.values import RiskEntry

ANSWERS = ("reroll_risk", "accept_risk")


def ones(entry: RiskEntry) -> int:
    return sum(1 for f in entry.faces if f == tables.RISK_FACE)


def may_reroll(state: GameState, entry: RiskEntry) -> bool:
    """HB-29: a 1 to re-roll, not re-rolled yet, a Mighty Deed left."""
    hero = state.heroes[entry.hero]
    return entry.rolled and not entry.rerolled and ones(entry) > 0 and hero.deeds > 0


def risk_next(state: GameState, frame: RiskFrame) -> Decision | Step:
    entry = frame.entries[0]
    hero = state.heroes[entry.hero]
    if hero.gone:
        return lambda batch: batch.emit(ev.RiskResolved(hero=entry.hero, stamina_lost=0, void=True))
    unrolled = [e for e in frame.entries if not e.rolled and not state.heroes[e.hero].gone]
    if unrolled:
        force = state.heroes[unrolled[0].hero].force
        return lambda batch: _roll(batch, force)
    if may_reroll(state, entry):
        return Decision(
            players=(hero.force,),
            kind="risk_reroll",
            answers=ANSWERS,
            waiting=f"{hero.force} to choose whether {hero.id} re-rolls a 1 of its Risk to Heroes",
            procedure="risk",
            options=(hero.id,),
            about={"hero": hero.id},
        )
    return lambda batch: resolve(batch)


def _roll(batch: Batch[GameState], force: str) -> None:
    """Every hero of ``force`` at risk rolls (one roll per hero)."""
    state = batch.state
    entries = [
        e
        for e in _frame(state).entries
        if not e.rolled and not state.heroes[e.hero].gone and state.heroes[e.hero].force == force
    ]
    dice = sum(tables.risk_dice(e.hits) for e in entries)
    if not rolls.may_roll(
        batch, force, dice, f"Risk to Heroes of {', '.join(e.hero for e in entries)}"
    ):
        return
    for entry in entries:
        hero = batch.state.heroes[entry.hero]
        faces = batch.roll(
            tables.risk_dice(entry.hits), 6, purpose=f"Risk to Heroes {hero.id}", roller=force
        )
        n = sum(1 for f in faces if f == tables.RISK_FACE)
        batch.emit(
            ev.RiskRolled(
                hero=hero.id,
                hits=entry.hits,
                faces=faces,
                ones=n,
                rerollable=n > 0 and hero.deeds > 0,
            )
        )


def _frame(state: GameState) -> RiskFrame:
    frame = state.frames[-1]
    assert isinstance(frame, RiskFrame)
    return frame


def _asked(state: GameState, hero_id: str) -> RiskEntry:
    entry = _frame(state).entries[0]
    if hero_id != entry.hero:
        raise reject(f"the Risk to Heroes roll is {entry.hero}'s, not {hero_id}'s", "bad_choice")
    return entry


def reroll(batch: Batch[GameState], c: cmd.RerollRisk) -> None:
    """HB-29: one die that showed a 1, for a Mighty Deed (p.28) and a token (p.23)."""
    entry = _asked(batch.state, c.hero)
    hero = batch.state.heroes[c.hero]
    (face,) = batch.roll(
        rulings.RISK_REROLL_DICE, 6, purpose=f"Risk to Heroes re-roll {hero.id}", roller=hero.force
    )
    batch.emit(ev.RiskRerolled(hero=hero.id, face=face))
    casualties.lose(
        batch,
        hero.force,
        tables.LOSE_RISK_REROLL,
        "a hero uses a Mighty Deed to re-roll a Risk to Heroes result",
        hero.id,
    )
    assert entry.rolled


def accept(batch: Batch[GameState], c: cmd.AcceptRisk) -> None:
    _asked(batch.state, c.hero)
    resolve(batch)


def resolve(batch: Batch[GameState]) -> None:
    """The hero loses a stamina point per 1 that stands; with none left it dies."""
    frame = _frame(batch.state)
    entry = frame.entries[0]
    lost = ones(entry)
    batch.emit(ev.RiskResolved(hero=entry.hero, stamina_lost=lost))
    cause: CauseOfDeath = "melee" if frame.in_combat else "shooting"
    casualties.check_down(batch, entry.hero, cause, entry.enemy, "Risk to Heroes")
