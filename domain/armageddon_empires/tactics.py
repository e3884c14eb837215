"""Tactic cards in a challenge: every effect of manual p.51 (digest 9.5) on the dice as they stand.

Each effect is played by one side (``role``) on a challenge; which dice it touches is fixed so
that a referee can follow it: "the first X" successes or failures, in the order the pool lies.
Dice added or turned by a card are placed, not rolled (a success shows 6, a failure 1); dice
re-rolled or added as "+X Dice" are rolled. A fate effect needs fate already available on the
side it touches (p.51): a hero lending his fate, or fate a card gave earlier in the challenge.
An effect on "the opponent" needs an opponent (not in a threshold challenge).
"""

from __future__ import annotations

from typing import NamedTuple

import msgspec

from warlog.domain.armageddon_empires.cards import TACTIC_PRINTED, WHOLE_POOL_EFFECTS
from warlog.domain.armageddon_empires.challenge import (
    FAILURE_FACE,
    SUCCESS_FACE,
    Challenge,
    Role,
    failed_positions,
    success_positions,
)

#: effects that act on the opposing side
ENEMY_EFFECTS = frozenset(
    {
        "enemy_fate_minus",
        "reroll_enemy_successes",
        "enemy_success_dice_minus",
        "successes_to_failures",
        "reroll_enemy_pool",
    }
)


def printed(effect: str, amount: int) -> str:
    """The effect as the card prints it (p.51)."""
    return TACTIC_PRINTED[effect].format(x=amount)


def unplayable(ch: Challenge, role: Role, effect: str) -> str | None:
    """Why a card with ``effect`` cannot be played by ``role`` in ``ch`` (p.51), or None."""
    enemy_role = ch.other(role)
    if effect in ENEMY_EFFECTS and enemy_role is None:
        return "a threshold challenge has no opponent"
    if effect == "fate_plus" and not ch.side(role).has_fate:
        return "fate tactics work only for a side that already has fate (a hero's, p.51)"
    if effect == "enemy_fate_minus":
        assert enemy_role is not None
        if not ch.side(enemy_role).has_fate:
            return "the opponent has no fate to lose (p.51)"
    return None


def dice_to_roll(ch: Challenge, role: Role, effect: str, amount: int) -> int:
    """How many dice the effect rolls now."""
    if effect == "dice_plus":
        return amount
    if effect == "reroll_own_pool":
        return len(ch.side(role).faces)
    enemy_role = ch.other(role)
    if enemy_role is None:
        return 0
    enemy = ch.side(enemy_role)
    if effect == "reroll_enemy_successes":
        return min(amount, enemy.successes)
    if effect == "reroll_enemy_pool":
        return len(enemy.faces)
    return 0


class Played(NamedTuple):
    """A challenge after a tactic card, what the card did in a line, and how many of the
    opponent's hero's fate points it burnt (R6: they count as spent until the round ends)."""

    challenge: Challenge
    line: str
    burnt_hero_fate: int


def _replace(faces: tuple[int, ...], positions: list[int], new: list[int]) -> tuple[int, ...]:
    out = list(faces)
    for i, face in zip(positions, new, strict=True):
        out[i] = face
    return tuple(out)


def play(
    ch: Challenge, role: Role, effect: str, amount: int, rolled: list[int], enemy_hero_fate: int
) -> Played:
    """The challenge after ``role`` plays a card with ``effect`` and X = ``amount``; ``rolled``
    are the faces of ``dice_to_roll`` dice; ``enemy_hero_fate`` is the unspent fate of the
    opponent's hero (for −X Opponent Fate Points)."""
    own = ch.side(role)
    x = 0 if effect in WHOLE_POOL_EFFECTS else amount
    enemy_role = ch.other(role)
    what = printed(effect, amount)
    if effect == "fate_plus":
        side = msgspec.structs.replace(own, fate_bonus=own.fate_bonus + x)
        return Played(ch.with_side(role, side), f"{what}: {own.name} gains {x} fate", 0)
    if effect == "dice_plus":
        side = msgspec.structs.replace(own, faces=own.faces + tuple(rolled))
        return Played(ch.with_side(role, side), f"{what}: {own.name} rolls {rolled}", 0)
    if effect == "success_dice_plus":
        side = msgspec.structs.replace(own, faces=own.faces + (SUCCESS_FACE,) * x)
        return Played(ch.with_side(role, side), f"{what}: {own.name} adds {x} successes", 0)
    if effect == "failures_to_successes":
        turned = failed_positions(own.faces)[:x]
        side = msgspec.structs.replace(
            own, faces=_replace(own.faces, turned, [SUCCESS_FACE] * len(turned))
        )
        return Played(
            ch.with_side(role, side), f"{what}: {own.name} turns dice {turned} to successes", 0
        )
    if effect == "reroll_own_pool":
        side = msgspec.structs.replace(own, faces=tuple(rolled))
        return Played(
            ch.with_side(role, side),
            f"{what}: {own.name} re-rolls {list(own.faces)} → {rolled}",
            0,
        )
    assert enemy_role is not None, "checked by unplayable"
    enemy = ch.side(enemy_role)
    if effect == "enemy_fate_minus":
        from_bonus = min(x, enemy.fate_bonus)
        from_hero = min(x - from_bonus, enemy_hero_fate) if enemy.fate_hero else 0
        side = msgspec.structs.replace(enemy, fate_bonus=enemy.fate_bonus - from_bonus)
        line = f"{what}: {enemy.name} loses {from_bonus + from_hero} fate"
        if from_hero:
            line += f" ({from_hero} of {enemy.fate_hero}'s, spent until the round ends, R6)"
        return Played(ch.with_side(enemy_role, side), line, from_hero)
    if effect == "reroll_enemy_successes":
        chosen = success_positions(enemy.faces)[: len(rolled)]
        side = msgspec.structs.replace(enemy, faces=_replace(enemy.faces, chosen, rolled))
        return Played(
            ch.with_side(enemy_role, side),
            f"{what}: {enemy.name}'s successes at {chosen} re-rolled → {rolled}",
            0,
        )
    if effect == "enemy_success_dice_minus":
        gone = set(success_positions(enemy.faces)[:x])
        kept = tuple(f for i, f in enumerate(enemy.faces) if i not in gone)
        side = msgspec.structs.replace(enemy, faces=kept)
        return Played(
            ch.with_side(enemy_role, side),
            f"{what}: {enemy.name} loses the success dice at {sorted(gone)}",
            0,
        )
    if effect == "successes_to_failures":
        turned = success_positions(enemy.faces)[:x]
        side = msgspec.structs.replace(
            enemy, faces=_replace(enemy.faces, turned, [FAILURE_FACE] * len(turned))
        )
        return Played(
            ch.with_side(enemy_role, side),
            f"{what}: {enemy.name}'s dice {turned} turned to failures",
            0,
        )
    if effect == "reroll_enemy_pool":
        side = msgspec.structs.replace(enemy, faces=tuple(rolled))
        return Played(
            ch.with_side(enemy_role, side),
            f"{what}: {enemy.name} re-rolled {list(enemy.faces)} → {rolled}",
            0,
        )
    raise ValueError(f"unknown tactic effect {effect!r}")
