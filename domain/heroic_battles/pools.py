"""Building and rolling dice pools: the base dice, a halving for each penalty that applies, then
the bonus dice (HB-18), rolled with 1s re-rolled where a marker allows, counted against the
number that hits."""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles import rulings, tables
from warlog.domain.heroic_battles.state import GameState, Hero, Unit
from warlog.domain.heroic_battles.values import Ones, Pool, Term


def build(
    base: int, penalties: list[str], bonuses: list[tuple[str, int]]
) -> tuple[list[Term], int]:
    """The terms and the final count of a pool (HB-18, ``rulings.pool_terms``)."""
    return rulings.pool_terms(base, penalties, bonuses)


def roll(
    batch: Batch[GameState],
    *,
    owner: str,
    label: str,
    base: int,
    penalties: list[str],
    bonuses: list[tuple[str, int]],
    hit_on: int,
    roller: str,
    purpose: str,
    reroll_reason: str = "",
    legendary: bool = False,
    hit_value: int = 1,
) -> Pool:
    """Build the pool, roll it and count its hits (each worth ``hit_value``: 2 for a Legendary
    Weapon in single combat). Its 1s, with a ``reroll_reason``, are re-rolled later by
    ``reroll`` (their number is only known now)."""
    terms, dice = build(base, penalties, bonuses)
    faces = batch.roll(dice, 6, purpose=purpose, roller=roller)
    return Pool(
        owner=owner,
        label=label,
        base=base,
        terms=terms,
        dice=dice,
        hit_on=hit_on,
        faces=faces,
        reroll_reason=reroll_reason,
        hits=sum(1 for f in faces if f >= hit_on) * hit_value,
        legendary=legendary,
        hit_value=hit_value,
    )


def ones_of(force: str, pool: Pool) -> Ones | None:
    """The 1s of ``pool`` to roll again, or None."""
    if not pool.ones:
        return None
    return Ones(
        force=force,
        owner=pool.owner,
        count=pool.ones,
        hit_on=pool.hit_on,
        reason=pool.reroll_reason,
        hit_value=pool.hit_value,
        legendary=pool.legendary,
    )


def reroll(batch: Batch[GameState], ones: Ones) -> ev.OnesRerolled:
    """Roll the 1s again: the event with the new faces and the hits they add."""
    faces = batch.roll(ones.count, 6, purpose=f"1s re-rolled {ones.owner}", roller=ones.force)
    hits = sum(1 for f in faces if f >= ones.hit_on) * ones.hit_value
    return ev.OnesRerolled(
        force=ones.force,
        owner=ones.owner,
        reason=ones.reason,
        faces=faces,
        hit_on=ones.hit_on,
        hits=hits,
        legendary=ones.legendary,
    )


def hit_on(p: Unit | Hero) -> int:
    """The face a melee or single-combat die hits on: 5, or 4 for a Brutal unit or hero."""
    return tables.BRUTAL_HIT_ON if "brutal" in p.traits else tables.HIT_ON


def roll_hero(
    batch: Batch[GameState],
    hero: Hero,
    bonuses: list[tuple[str, int]],
    *,
    purpose: str,
    reroll_reason: str,
    hit_value: int = 1,
) -> Pool:
    """A hero's combat dice: 1D6 per level and its ``bonuses`` (never halved, HB-18), hitting on
    5–6 (4–6 Brutal), a Legendary Weapon's marked."""
    return roll(
        batch,
        owner=hero.id,
        label=f"Level dice of {hero.id}",
        base=hero.level,
        penalties=[],
        bonuses=bonuses,
        hit_on=hit_on(hero),
        roller=hero.force,
        purpose=purpose,
        reroll_reason=reroll_reason,
        legendary="legendary_weapon" in hero.traits,
        hit_value=hit_value,
    )
