"""Rolls that wait for a command of their own, so that every die a command rolls is counted before
any of them is rolled (docs/architecture.md, "Manual dice: count every die before rolling any").

A referee typing physical dice into a command's ``dice`` list must know how many to type. A
procedure that would roll after the command has already rolled — a second challenge after a
first one resolved in the same batch, a hidden roll after a public one — cannot say so in
advance: how far the command gets may depend on the faces. Such a step does not roll: the
ruleset records an ``AwaitedRoll`` in its state (with an event of its own) and the game waits for
the roller's command, whose batch makes that roll first; the step is then taken again there.
"""

from typing import Any

import msgspec

from warlog.domain.core.batch import Batch
from warlog.domain.core.procedure import Decision
from warlog.domain.core.summary import plural


class AwaitedRoll(msgspec.Struct, frozen=True, kw_only=True):
    """A roll the game waits for: who rolls, how many dice (0: not told, e.g. a hidden roll whose
    size is secret) and what for, in a phrase ("challenge 4: the retreat of red.lancers.2")."""

    roller: str
    what: str
    dice: int = 0

    def text(self) -> str:
        dice = f" {plural(self.dice, 'die', 'dice')}" if self.dice else ""
        return f"{self.roller} to roll{dice} ({self.what})"


def roll_waits(batch: Batch[Any], dice: int, *, hidden: bool = False) -> bool:
    """True when a roll of ``dice`` dice must wait for a command of its own: this batch has
    already rolled. A public roll of no dice rolls nothing and never waits; a hidden roll waits
    whatever its size, since whether the game waits must not tell how many dice it has."""
    return batch.rolled and (hidden or dice > 0)


def roll_decision(awaiting: AwaitedRoll, answers: tuple[str, ...]) -> Decision:
    """The decision of a game that waits for ``awaiting``: its roller answers with one of
    ``answers`` (the ruleset's roll command)."""
    about = {"what": awaiting.what}
    if awaiting.dice:
        about["dice"] = str(awaiting.dice)
    return Decision(
        players=(awaiting.roller,),
        kind="roll",
        answers=answers,
        waiting=awaiting.text(),
        procedure="roll",
        about=about,
    )
