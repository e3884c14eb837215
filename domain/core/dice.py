"""Dice: the only way randomness enters the rules (ARCHITECTURE.md, "Dice (contract)").

``decide`` is handed a Dice object and asks it for faces through a Batch; every roll becomes a
``dice_rolled`` event at a known seq. Three kinds of dice share the ``faces`` method:

- SeededDice (``auto`` mode): faces derived from the secret seed by HMAC-SHA256 over
  ``f"{stream}:{salt}:{seq}:{block}"``, rejection-sampled so every face is equally likely;
- ManualDice (``manual`` mode): faces typed in by a referee, carried by the command;
- RecordedDice (audit): the faces already in the log, handed back in order.
"""

import hashlib
import hmac
from typing import Literal, Protocol

import msgspec

from warlog.domain.core.errors import InputError, RulesError

DiceMode = Literal["auto", "manual"]


class DiceSpec(msgspec.Struct, frozen=True, omit_defaults=True):
    """The ``"dice"`` object of ``game_created`` and of a ``game_forked`` that commits anew."""

    mode: DiceMode
    stream: str
    salt: str = ""
    commitment: str | None = None


def commitment_of(seed: bytes) -> str:
    """The public commitment to a seed: the hex sha256 of its bytes."""
    return hashlib.sha256(seed).hexdigest()


#: the dice contract derives dice of up to 256 sides (a byte picks a face)
MAX_SIDES = 256


def check_sides(sides: int) -> None:
    """RulesError unless the contract defines an n-sided die: 1 <= n <= 256 (a 1-sided die is
    never rolled by the rules, but derives as the face 1)."""
    if not 1 <= sides <= MAX_SIDES:
        raise RulesError(
            f"a d{sides} is outside the dice contract (dice of 2 to {MAX_SIDES} sides): the "
            "scenario asks for more choices than one die can make",
            "rules/die_too_large",
        )


def derive_faces(
    seed: bytes, stream: str, salt: str, seq: int, count: int, sides: int
) -> list[int]:
    """The ``count`` faces of an n-sided die for the dice event at ``seq`` (contract derivation).
    ValueError for a die outside 1..256 sides (the derivation would never end)."""
    if not 1 <= sides <= MAX_SIDES:
        raise ValueError(f"the dice contract derives dice of 1 to {MAX_SIDES} sides, not {sides}")
    limit = 256 - 256 % sides
    faces: list[int] = []
    block = 0
    while len(faces) < count:
        digest = hmac.new(seed, f"{stream}:{salt}:{seq}:{block}".encode(), hashlib.sha256).digest()
        for b in digest:
            if b < limit:
                faces.append(b % sides + 1)
                if len(faces) == count:
                    break
        block += 1
    return faces


class Dice(Protocol):
    """What ``decide`` may ask: the faces of ``count`` dice of ``sides`` for the event at ``offset``.

    ``offset`` is the position of the ``dice_rolled`` event in the list ``decide`` returns.
    """

    def faces(self, offset: int, count: int, sides: int) -> list[int]: ...


class SeededDice:
    """Provably fair dice for ``auto`` games: deterministic in (seed, stream, salt, seq)."""

    def __init__(self, seed: bytes, stream: str, salt: str, first_seq: int) -> None:
        self._seed, self._stream, self._salt, self._first_seq = seed, stream, salt, first_seq

    def faces(self, offset: int, count: int, sides: int) -> list[int]:
        seq = self._first_seq + offset
        return derive_faces(self._seed, self._stream, self._salt, seq, count, sides)


class ManualDice:
    """A referee's physical dice, carried by the command as a list of faces consumed in order.

    When the faces run out, rolling goes on with 1s so that the whole demand can be counted;
    ``check_all_used`` then rejects the command naming how many dice of which kind it needs, and
    that the count took 1s for the missing faces (a roll that depends on the faces before it,
    Armageddon Empires' initiative tie rolling again, may need fewer once they are typed).
    """

    def __init__(self, given: list[int]) -> None:
        self._given = list(given)
        self._used = 0
        self._demand: list[int] = []  # the sides of every die asked for, in order

    def faces(self, offset: int, count: int, sides: int) -> list[int]:
        out: list[int] = []
        for _ in range(count):
            self._demand.append(sides)
            if self._used < len(self._given):
                face = self._given[self._used]
                if not 1 <= face <= sides:
                    raise InputError(
                        f"die {self._used + 1} of the command's dice is {face}, "
                        f"but it is a d{sides} (faces 1..{sides})",
                        "input/bad_dice",
                    )
                out.append(face)
            else:
                out.append(1)
            self._used += 1
        return out

    def check_all_used(self) -> None:
        """Raise InputError unless exactly the given faces were consumed."""
        if len(self._demand) == len(self._given):
            return
        runs: list[list[int]] = []  # consecutive dice of one kind, in the order they are rolled
        for sides in self._demand:
            if runs and runs[-1][1] == sides:
                runs[-1][0] += 1
            else:
                runs.append([1, sides])
        need = " then ".join(f"{n} d{s}" for n, s in runs) or "no dice"
        counted = (
            f" (counted with 1s for the {len(self._demand) - len(self._given)} missing: where "
            "a roll depends on the faces before it, as a tie that rolls again, fewer may do)"
            if len(self._given) < len(self._demand)
            else ""
        )
        count = f"{len(self._demand)} {'die' if len(self._demand) == 1 else 'dice'}"
        raise InputError(
            f"this command needs {count} ({need}) in its 'dice' list; "
            f"{len(self._given)} given{counted}",
            "input/dice_count",
        )


#: what a re-derivation finds where the rules roll once more than a batch's recorded rolls
NO_FURTHER_ROLL = "the log records no further roll"


class RecordedDice:
    """The faces recorded in a batch, handed back in order (audit re-derivation)."""

    def __init__(self, rolls: list[tuple[int, list[int]]]) -> None:
        self._rolls = list(rolls)
        self._next = 0
        #: the first roll that does not match, and its index among the recorded rolls (the
        #: number of rolls recorded when the rules roll one more)
        self.mismatch: str | None = None
        self.mismatch_roll = 0

    def _differs(self, why: str) -> None:
        if self.mismatch is None:
            self.mismatch, self.mismatch_roll = why, self._next

    def faces(self, offset: int, count: int, sides: int) -> list[int]:
        if self._next >= len(self._rolls):
            self._differs(f"the rules roll {count} d{sides} where {NO_FURTHER_ROLL}")
            return [1] * count
        rec_sides, rec_faces = self._rolls[self._next]
        if rec_sides != sides or len(rec_faces) != count:
            self._differs(
                f"the rules roll {count} d{sides} where the log records "
                f"{len(rec_faces)} d{rec_sides}"
            )
            self._next += 1
            return ([*rec_faces, *[1] * count])[:count]
        self._next += 1
        return list(rec_faces)


class NoDice:
    """Dice for contexts that must not roll (legal-command generation); rolling is a rules bug."""

    def faces(self, offset: int, count: int, sides: int) -> list[int]:
        raise RulesError("this action cannot roll dice here", "rules/no_dice")


class ProbeDice:
    """Dice for finding out which dice a command would roll, and whether how many depends on the
    faces: every die ``low`` (1), ``high`` (its top face), ``mixed`` (1, top, 1, top, …) or
    ``ascending`` (1, 2, 3, … around each die's sides)."""

    def __init__(self, show: str = "low") -> None:
        self._show = show
        self._n = 0

    def faces(self, offset: int, count: int, sides: int) -> list[int]:
        out = []
        for _ in range(count):
            if self._show == "ascending":
                out.append(self._n % sides + 1)
            else:
                high = self._show == "high" or (self._show == "mixed" and self._n % 2 == 1)
                out.append(sides if high else 1)
            self._n += 1
        return out
