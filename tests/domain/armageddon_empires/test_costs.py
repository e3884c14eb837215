"""The costs a player reads in ruling R11 (docs/rulings.md) are the costs the rules charge: each
number in R11's text is the constant's value. A cost changed in one and not the other, or
changed at all without a new rules version, would re-derive every recorded game differently."""

from __future__ import annotations

from pathlib import Path

import pytest

from warlog.domain.armageddon_empires import costs
from warlog.domain.armageddon_empires.resources import Resources

RULINGS = Path(__file__).resolve().parents[3] / "docs" / "rulings.md"

#: what R11 says, and the value the rules charge for it
STATED = [
    ("drawing a card 2 AP", costs.DRAW_CARD_AP, 2),
    ("a transfer between two armies in a hex 1 AP", costs.TRANSFER_AP, 1),
    ("disbanding an empty army at a base free", costs.DISBAND_ARMY_AP, 0),
    ("playing a tactic card 1 AP", costs.TACTIC_AP, 1),
    ("Hunt Enemy Hero 2 AP", costs.HUNT_HERO_AP, 2),
    ("repairing or healing a card 2 AP", costs.REPAIR_AP, 2),
    ("and 1 Materials", costs.REPAIR_COST, Resources(materials=1)),
    ("engaging or dropping stealth 1 AP an army", costs.STEALTH_AP, 1),
    ("laying or lifting a minefield 2 AP", costs.LAY_MINEFIELD_AP, 2),
    ("laying or lifting a minefield 2 AP", costs.LIFT_MINEFIELD_AP, 2),
    ("an initiative die 1 Energy", costs.INITIATIVE_DIE_PRICE, Resources(energy=1)),
    ("at most 10 a round", costs.INITIATIVE_MAX_DICE, 10),
    ("moving 1 AP per hero and unit card (p.23)", costs.MOVE_AP_PER_CARD, 1),
    ("creating an army 3 AP (p.10)", costs.CREATE_ARMY_AP, 3),
]


def _r11() -> str:
    [row] = [line for line in RULINGS.read_text().splitlines() if line.startswith("| R11 |")]
    return row


@pytest.mark.parametrize(("said", "charged", "value"), STATED, ids=[s for s, _, _ in STATED])
def test_each_cost_ruling_r11_states_is_the_cost_charged(
    said: str, charged: object, value: object
) -> None:
    # given ruling R11 as a player reads it, then it states the cost, and the rules charge it
    assert said in _r11()
    assert charged == value


def test_deploying_costs_half_the_resources_rounded_down() -> None:
    # R11: deploying a card costs half its resource cost rounded down (p.18)
    assert "deploying a card half its resource cost rounded down (p.18)" in _r11()
    assert costs.deploy_ap(Resources(energy=3, materials=2)) == 2
    assert costs.deploy_ap(Resources(energy=1)) == 0
    assert costs.deploy_ap(Resources(materials=4, energy=4)) == 4
