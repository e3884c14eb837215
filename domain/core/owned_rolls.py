"""A hidden roll over the pieces of several owners, made once per owner.

The dice contract derives the faces of a roll from its seq and reads them in order, so in one
roll that holds every owner's pieces, a piece's faces hang on how many dice the pieces before it
took, whoever owns them: with the same key, an owner's results would change with another
owner's secrets (what it holds, how many). Split, each owner's roll holds its own pieces alone,
and a roll of none is still recorded (``Batch.roll``), so that neither the number of rolls nor
any later seq hangs on a secret either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warlog.domain.core.batch import Batch


def roll_pieces(
    batch: Batch[Any],
    pieces: Sequence[tuple[str, int]],
    sides: int,
    *,
    purpose: str,
    owners: Sequence[str] | None,
) -> list[tuple[int, ...]]:
    """The faces of each of ``pieces`` (its owner and how many dice it takes), in their order,
    from hidden rolls of ``sides``-sided dice, the referee's: with ``owners`` None, one
    roll of every piece's dice in order (``purpose``); otherwise one roll per owner, in the order
    of ``owners``, of that owner's pieces' dice in their order (``owned_purpose``),
    recorded even with none. RulesError (``Batch.roll``) for a die the dice contract does not
    define."""
    if owners is None:
        faces = iter(batch.roll(sum(n for _, n in pieces), sides, purpose=purpose, hidden=True))
        return [tuple(next(faces) for _ in range(n)) for _, n in pieces]
    unknown = {owner for owner, _ in pieces} - set(owners)
    assert not unknown, f"pieces of no listed owner: {sorted(unknown)}"
    by_owner = {}
    for owner in owners:
        count = sum(n for o, n in pieces if o == owner)
        rolled = batch.roll(count, sides, purpose=owned_purpose(purpose, owner), hidden=True)
        by_owner[owner] = iter(rolled)
    return [tuple(next(by_owner[owner]) for _ in range(n)) for owner, n in pieces]


def owned_purpose(purpose: str, owner: str) -> str:
    """The purpose of ``owner``'s roll among a split roll's (``"{purpose}: {owner}'s"``): it is
    recorded in the roll's event, so its words never change."""
    return f"{purpose}: {owner}'s"


def owner_of(purpose: str) -> str | None:
    """The owner a roll of ``purpose`` was made for by ``roll_pieces`` (``owned_purpose`` read
    back), None for a purpose of no owner's."""
    head, sep, tail = purpose.rpartition(": ")
    if not sep or not head or not tail.endswith("'s") or len(tail) == 2:
        return None
    return tail.removesuffix("'s")
