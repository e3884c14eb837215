"""The hidden radiation dice of a WMD strike since version 19 (AE-65).

A card that survives its WMD challenge takes the weapon's radiation less a random 1..its
resistance (p.31–32; AE-47). Before version 19 that random number was a die of as many sides as
the resistance, one hidden roll for each resistance of 2 or more among the catalogue's heroes
and units (``fallout.scenario_resistances``): the sides of a roll are public, so they told every
player the resistances of the other empire's hidden card types (AE-64). Since version 19 the
rolls are the same in every game: one for each prime p ≤ 99, of ``p^e`` sides, the largest power
of p that is at most 99 (``RADIATION_SIDES``: d64, d81, d25, d49, d11, d13, …, d97), each
holding one die per exposed hero or unit whose resistance p divides, in the order the
challenges take them (the counts are sealed with the faces). A card of resistance r reads its
own dice, on the rolls of the primes that divide r (``radiation_roll``). Pure: no state, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping

#: AE-65: the version since which the radiation dice of a WMD strike are ``RADIATION_SIDES``
RADIATION_DICE_FIXED_SINCE = 19


def _primes(upto: int) -> tuple[int, ...]:
    return tuple(p for p in range(2, upto + 1) if all(p % d for d in range(2, p)))


#: AE-65: the sides of the hidden radiation rolls, one per prime p up to 99 (the largest
#: resistance, ``cards.STAT_MAX``), in the order of the primes: the largest power of p that is
#: at most 99. Written out, not computed: version 19's dice, whatever a later limit becomes
RADIATION_SIDES: tuple[int, ...] = (
    64, 81, 25, 49, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83,
    89, 97,
)  # fmt: skip


def prime_powers(resistance: int) -> tuple[tuple[int, int], ...]:
    """Each prime p dividing ``resistance`` with ``q = p^k``, the power of p that divides it
    exactly (p^k divides it, p^(k+1) does not), in the order of the primes: 12 → (2, 4),
    (3, 3)."""
    out, left = [], resistance
    for p in _primes(resistance):
        q = 1
        while left % p == 0:
            left //= p
            q *= p
        if q > 1:
            out.append((p, q))
    return tuple(out)


def prime_of(sides: int) -> int:
    """The prime whose power ``sides`` is (one of ``RADIATION_SIDES``): 64 → 2, 97 → 97."""
    return prime_powers(sides)[0][0]


def die_of(p: int) -> int:
    """The sides of the radiation roll of prime ``p``: the one of ``RADIATION_SIDES`` that is a
    power of it."""
    return next(s for s in RADIATION_SIDES if s % p == 0)


def radiation_remainders(resistance: int, faces: Mapping[int, int]) -> tuple[tuple[int, int], ...]:
    """For each ``q = p^k`` that divides ``resistance`` exactly, ``(q, (face − 1) mod q)``, the
    face being the card's die of the roll of prime p (``faces``: sides → the card's face)."""
    return tuple((q, (faces[die_of(p)] - 1) % q) for p, q in prime_powers(resistance))


def radiation_roll(resistance: int, faces: Mapping[int, int]) -> int:
    """AE-65: the random 1..``resistance`` (2..99) a card takes off the radiation, read from its
    dice (``faces``: the sides of each radiation roll → the card's face on it). For each
    ``q = p^k`` dividing the resistance exactly, the die of prime p (its sides ``p^e``, a
    multiple of q) gives ``(face − 1) mod q``, uniform over 0..q−1; the one number x of
    0..resistance−1 that leaves each of those remainders (Chinese remainder theorem: the q are
    coprime and multiply to the resistance) is then uniform too, and the roll is 1 + x."""
    remainders = radiation_remainders(resistance, faces)
    x = next(x for x in range(resistance) if all(x % q == rest for q, rest in remainders))
    return 1 + x
