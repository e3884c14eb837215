"""Building and rolling dice pools: the base dice, a halving for each penalty that applies, then
the bonus dice (HB-18), rolled with 1s re-rolled where a marker allows, counted against the
number that hits."""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles import rulings
from warlog.domain.heroic_battles.state import GameState
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
