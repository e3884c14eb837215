"""The pick of a special operation's target (AE-21, AE-71, AE-72): who rolls it and how it chooses.

Hunt Enemy Hero (p.30), Assassinate (p.28, p.45) and Sabotage (p.29, p.45) each choose their
target the same way: the one named (by a Bounty Hunter, a Master Assassin, a Master Saboteur),
else the only one, else one picked at random among them. Since version 24 the pick is a hidden
roll of the same dice made in every attempt, named, alone or among several (``HUNTS_ALIKE_SINCE``).
Since version 27 that roll is the referee's (``REFEREE_PICKS_SINCE``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, TypeVar

from warlog.domain.armageddon_empires.commands import HUNTS_ALIKE_SINCE
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, reject

#: AE-21, AE-38: since version 24 (``HUNTS_ALIKE_SINCE``) every pick rolls ``TARGET_DICE``
#: hidden dice of ``TARGET_SIDES`` sides, whether they pick or not: 210 = 2·3·5·7, so 210³ is a
#: multiple of every number of targets from 1 to 8 (``MAX_ARMIES_PER_HEX``, the most enemy armies
#: a hex holds), and the pick is uniform among them whatever their number, which the roll's size
#: no longer tells (a die of one side per target did, in the open)
TARGET_DICE = 3
TARGET_SIDES = 210
#: AE-21, AE-71, AE-72: since version 27 the pick is the referee's roll (no roller: its faces
#: sealed for every empire), not the acting empire's: the target it picks is shown to the other
#: empire when the challenge opens, so a secret draw of the acting empire would let what that
#: empire alone holds decide what the other is shown (the fuzz's twin games, which vary every
#: secret draw of the other empire, found it so). Versions 24 to 26 roll a hunt's pick as the
#: hunter's
REFEREE_PICKS_SINCE = 27
#: the roller of a referee's roll: none
REFEREE = ""

T = TypeVar("T")
#: how the target was chosen: named by the one acting, the only one, or picked by the roll
Choice = Literal["named", "only", "die"]


def picked(faces: Sequence[int], count: int) -> int:
    """The place (from 0) among ``count`` targets that ``faces`` of ``TARGET_SIDES`` sides pick:
    the number they make as digits of that base, modulo ``count`` (AE-21)."""
    number = 0
    for face in faces:
        number = number * TARGET_SIDES + face - 1
    return number % count


def named_target(
    found: Sequence[T],
    target: str | None,
    name: Callable[[T], object],
    cannot_name: RulesError | None,
    not_a_target: str,
    listed_as: str = "the targets are",
) -> list[T]:
    """The candidates among ``found`` that the command's ``target`` names (none when it names
    none). RulesError ``cannot_name`` when the one acting may not name a target (None: it may),
    and ``rules/bad_target`` when ``target`` names none of them: "'X' is ``not_a_target``;
    ``listed_as`` the candidates"."""
    if target is None:
        return []
    if cannot_name is not None:
        raise cannot_name
    named = [f for f in found if name(f) == target]
    if not named:
        listed = ", ".join(str(name(f)) for f in found)
        raise reject(f"{target!r} is {not_a_target}; {listed_as} {listed}", "bad_target")
    return named


def pick_roller(state: GameState, empire: str) -> str:
    """Who rolls the hidden pick of ``empire``'s operation in this game: the referee since
    version 27 (``REFEREE_PICKS_SINCE``), before it the acting empire."""
    return REFEREE if state.rules_version >= REFEREE_PICKS_SINCE else empire


def pick_target(
    batch: Batch[GameState], found: Sequence[T], named: Sequence[T], operation: str, empire: str
) -> tuple[T, Choice]:
    """The target among ``found`` and how it was chosen: the first of ``named`` (those that
    match the name the command gives) if any, else the only one, else the one the pick chooses.
    Since version 24 the hidden pick (``operation`` + " target") is rolled first in every call,
    named or not (``HUNTS_ALIKE_SINCE``), by ``pick_roller``; version 23 and before roll one
    public die of ``empire``'s, one side a target, only among several unnamed."""
    purpose = f"{operation} target"
    alike = batch.state.rules_version >= HUNTS_ALIKE_SINCE
    faces = (
        batch.roll(
            TARGET_DICE,
            TARGET_SIDES,
            purpose=purpose,
            roller=pick_roller(batch.state, empire),
            hidden=True,
        )
        if alike
        else []
    )
    if named:
        return named[0], "named"
    if len(found) == 1:
        return found[0], "only"
    if alike:
        return found[picked(faces, len(found))], "die"
    (face,) = batch.roll(1, len(found), purpose=purpose, roller=empire)
    return found[face - 1], "die"
