"""The hidden radiation dice of a WMD strike (AE-47, AE-65, since version 19): the same 25 rolls
in every game, one per prime p ≤ 99 of ``p^e`` sides (the largest power of p up to 99), each
with a die for every exposed hero or unit of resistance 2 or more, in the order the challenges
take them. A card of resistance r reads its random 1..r from the dice of the primes dividing r
(``radiation.radiation_roll``). Before version 19 each resistance of 2 or more of the catalogue
had a hidden roll of its own, of that many sides: public, so a WMD strike told every player
the resistances of the other empire's hidden card types (AE-64's "Known leaks").
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product
from math import gcd, lcm, prod

import pytest
from msgspec.structs import replace

from tests.domain.armageddon_empires.air_helpers import launch
from tests.domain.armageddon_empires.helpers import start_turns
from tests.domain.armageddon_empires.test_fallout import (
    MISS,
    fallout_of,
    radiation_faces,
    struck,
)
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.cards import STAT_MAX
from warlog.domain.armageddon_empires.commands import PlayAttackCard
from warlog.domain.armageddon_empires.fallout_events import Radiation, RadiationDie
from warlog.domain.armageddon_empires.radiation import (
    RADIATION_SIDES,
    die_of,
    prime_powers,
    radiation_roll,
)
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.scenario_checks import bundled
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import DiceRolled, Event


def hidden_rolls(events: list[Event]) -> list[tuple[int, int]]:
    """The sides and the number of dice of each hidden roll among ``events``."""
    return [(e.sides, len(e.faces)) for e in events if isinstance(e, DiceRolled) and e.hidden]


# ---------------------------------------------------------------------- the dice and their sum


def test_the_radiation_dice_are_the_largest_power_of_each_prime_up_to_99() -> None:
    assert RADIATION_SIDES[:6] == (64, 81, 25, 49, 11, 13) and RADIATION_SIDES[-1] == 97
    assert len(RADIATION_SIDES) == 25
    for sides in RADIATION_SIDES:
        ((p, q),) = prime_powers(sides)  # a power of one prime, and the largest up to 99
        assert q == sides <= 99 < sides * p
    assert all(gcd(a, b) == 1 for a in RADIATION_SIDES for b in RADIATION_SIDES if a != b)
    assert prod(RADIATION_SIDES) == lcm(*range(1, 100))
    # every resistance a card may print reads its roll from them (a higher limit needs a version)
    assert prod(RADIATION_SIDES) % lcm(*range(1, STAT_MAX + 1)) == 0


@pytest.mark.parametrize("resistance", [2, 6, 7, 12, 64, 97, 99])
def test_each_random_1_to_resistance_is_read_equally_often_from_the_dice_that_count(
    resistance: int,
) -> None:
    # every face of every die of the primes dividing the resistance, each combination once; a
    # mapping without the other dice, so a read of any other one fails
    dice = [die_of(p) for p, _ in prime_powers(resistance)]
    counted = Counter(
        radiation_roll(resistance, dict(zip(dice, faces, strict=True)))
        for faces in product(*(range(1, sides + 1) for sides in dice))
    )
    assert sorted(counted) == list(range(1, resistance + 1))
    assert set(counted.values()) == {prod(dice) // resistance}


def test_a_card_s_roll_is_1_plus_the_remainder_by_its_resistance_of_the_number_the_dice_make() -> (
    None
):
    """The brief's X: the one number 0 <= X < lcm(1..99) whose remainder by each roll's sides
    is that roll's face − 1 (uniform, the dice being independent); the roll is 1 + X mod r."""
    draw = random.Random(65)
    for _ in range(40):
        faces = {sides: draw.randint(1, sides) for sides in RADIATION_SIDES}
        modulus = prod(RADIATION_SIDES)
        x = sum((faces[s] - 1) * (modulus // s) * pow(modulus // s, -1, s) for s in RADIATION_SIDES)
        x %= modulus
        assert all(x % s == faces[s] - 1 for s in RADIATION_SIDES)
        for resistance in range(2, 100):
            assert radiation_roll(resistance, faces) == 1 + x % resistance


def test_a_referee_can_follow_the_arithmetic_of_a_card_s_roll() -> None:
    # resistance 12 = 4 × 3: its d64 shows 10 (9 mod 4 = 1), its d81 shows 6 (5 mod 3 = 2)
    dice = (RadiationDie(64, 10), RadiationDie(81, 6))
    roll = radiation_roll(12, {d.sides: d.face for d in dice})
    assert roll == 6  # 5 is 1 mod 4 and 2 mod 3
    assert Radiation(strength=15, resistance=12, roll=roll, dice=dice).text() == (
        "radiation 15 − 6 (a random 1..12, its resistance, from its radiation dice, AE-65: "
        "d64 10: (10 − 1) mod 4 = 1; d81 6: (6 − 1) mod 3 = 2; 5 is the number of 0..11 that "
        "leaves 1 mod 4 and 2 mod 3; 1 + 5 = 6) = 9"
    )


# ---------------------------------------------------------------------- in play


def armed(version: str | None = None) -> Given:
    """The bundled scenario in red's turn, red's Sunbreaker Warhead (Hydrogen Bomb 10, 15) in
    its hand, a game begun under ``version`` (default: this one)."""
    ruleset = RULESET if version is None else RULESET.at_version(version)
    assert ruleset is not None
    g = Given(ruleset, bundled("cinder-and-glass"))
    red = g.state.empires["red"]
    deck = tuple(c for c in red.deck if c != "red.sunbreaker.1")
    red = replace(red, hand=("red.sunbreaker.1",), deck=deck)
    g.state = replace(g.state, empires={**g.state.empires, "red": red})
    return start_turns(g)


def test_a_referee_typing_too_few_dice_is_told_the_radiation_dice_too() -> None:
    g = armed()
    with pytest.raises(InputError) as refused:
        launch(g, PlayAttackCard(player="red", card="red.sunbreaker.1", at="3,8"), [1] * 47)
    # the Choristers and the Battery (resistance 2 each) hold a die of the d64 alone
    assert str(refused.value).startswith(
        "this command needs 49 dice (47 d6 then 2 d64) in its 'dice' list; 47 given"
    )


def test_a_wmd_on_the_bundled_scenario_s_spire_rolls_the_25_radiation_rolls_of_version_19() -> None:
    """Versions 19 and 20: one roll of the hidden challenges, then the 25, over both empires'
    cards (since version 21 each is made once per empire, AE-66: ``test_dice_by_empire.py``)."""
    g = armed("20")
    # when it strikes the Glass Spire (3,8, urban: +2), not Hardened: the base is razed and its
    # garrison faces the hidden challenges, by id — the Flak Crawlers (defence 4), the Glass
    # Choristers (4, resistance 2), the Ward Battery (3, resistance 2): 10 dice and the pool
    # each, all missing; then the 25 radiation rolls, a die of the d64 (the prime 2 divides
    # their resistance) for the Choristers and the Battery, none on the others: their d64s show
    # 37 and 10, (37 − 1) mod 2 = 0 and (10 − 1) mod 2 = 1
    challenges = [1] * (16 + 16 + 15)
    radiation = [37, 10]
    events = launch(
        g, PlayAttackCard(player="red", card="red.sunbreaker.1", at="3,8"), challenges + radiation
    )
    # then the rolls are the fixed 25, the d64 with two dice, the others with none
    assert hidden_rolls(events) == [
        (6, 47),
        *((sides, 2 if sides == 64 else 0) for sides in RADIATION_SIDES),
    ]
    # and the damage is AE-47's: 15 for resistance 0, 15 − (1 + 0) and 15 − (1 + 1)
    blue = {h.card: h for h in fallout_of(events, "blue").hits}
    taken = {c: (h.damage, h.radiation and h.radiation.roll, h.taken) for c, h in blue.items()}
    assert taken == {
        "blue.flak-crawlers.1": (0, 0, 15),
        "blue.glass-choristers.1": (0, 1, 14),
        "blue.ward-battery.1": (0, 2, 13),
    }
    assert all(h.destroyed for h in blue.values())
    choristers = blue["blue.glass-choristers.1"].radiation
    assert choristers is not None and choristers.dice == (RadiationDie(64, 37),)
    assert (
        "radiation 15 − 1 (a random 1..2, its resistance, from its radiation dice, AE-65: "
        "d64 37: (37 − 1) mod 2 = 0; 1 + 0 = 1) = 14"
    ) in fallout_of(events, "blue").explain()


def test_a_game_of_version_18_rolls_one_die_for_each_resistance_of_the_catalogue() -> None:
    """Versions 18 and before, unchanged: the titan's resistance 4 is the catalogue's only one
    of 2 or more among heroes and units, rolled on a d4."""
    g = struck(["nova"], version="18")
    seer = [6, 6, 6] + [1] * 7 + [6, 1]
    titan, plate = [*MISS, 1, 1], [*MISS, 1]
    events = launch(
        g, PlayAttackCard(player="red", card="red.nova.1", at="4,2"), seer + titan + plate + [4]
    )
    assert hidden_rolls(events) == [(6, 35), (4, 1)]
    radiation = {h.card: h for h in fallout_of(events, "blue").hits}["blue.titan.1"].radiation
    assert radiation == Radiation(strength=15, resistance=4, roll=4)
    assert radiation.text() == "radiation 15 − 4 (a random 1..4, its resistance) = 11"


def test_a_game_of_version_19_rolls_the_fixed_dice_for_the_same_strike() -> None:
    g = struck(["nova"], version="20")
    seer = [6, 6, 6] + [1] * 7 + [6, 1]
    titan, plate = [*MISS, 1, 1], [*MISS, 1]
    events = launch(
        g,
        PlayAttackCard(player="red", card="red.nova.1", at="4,2"),
        seer + titan + plate + radiation_faces((4, 4)),
    )
    assert hidden_rolls(events) == [
        (6, 35),
        *((sides, 1 if sides == 64 else 0) for sides in RADIATION_SIDES),
    ]
    radiation = {h.card: h for h in fallout_of(events, "blue").hits}["blue.titan.1"].radiation
    assert radiation == Radiation(strength=15, resistance=4, roll=4, dice=(RadiationDie(64, 4),))
