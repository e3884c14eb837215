"""Building and rolling dice pools: the base dice, a halving for each penalty that applies, then
the bonus dice (HB-18), rolled with 1s re-rolled where a marker allows, counted against the
number that hits."""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.heroic_battles import rulings
from warlog.domain.heroic_battles.state import GameState
from warlog.domain.heroic_battles.values import Pool, Term


def build(
    base: int, penalties: list[str], bonuses: list[tuple[str, int]]
) -> tuple[list[Term], int]:
    """The terms and the final count: halve ``base`` once per penalty (digest Rulings: rounding
    down, never below 1 die), then add each bonus (HB-18); bonuses of 0 dice are left out."""
    terms: list[Term] = []
    dice = base
    for label in penalties:
        dice = rulings.halve(dice)
        terms.append(Term(label=label, dice=dice, halving=True))
    for label, extra in bonuses:
        if extra > 0:
            dice += extra
            terms.append(Term(label=label, dice=dice))
    return terms, dice


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
    """Build the pool, roll it (and its 1s again when ``reroll_reason`` is given), count the hits
    (each worth ``hit_value``: 2 for a Legendary Weapon in single combat)."""
    terms, dice = build(base, penalties, bonuses)
    faces = batch.roll(dice, 6, purpose=purpose, roller=roller)
    rerolled: list[int] = []
    if reroll_reason:
        ones = sum(1 for f in faces if f == 1)
        rerolled = batch.roll(ones, 6, purpose=f"{purpose}, 1s re-rolled", roller=roller)
    final = [f for f in faces if not (reroll_reason and f == 1)] + rerolled
    hits = sum(1 for f in final if f >= hit_on) * hit_value
    return Pool(
        owner=owner,
        label=label,
        base=base,
        terms=terms,
        dice=dice,
        hit_on=hit_on,
        faces=faces,
        rerolled=rerolled,
        reroll_reason=reroll_reason if rerolled else "",
        hits=hits,
        legendary=legendary,
        hit_value=hit_value,
    )
