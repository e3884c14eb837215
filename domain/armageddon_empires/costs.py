"""Every AP and resource cost of this version, in one place (R11), with its source.

Values the manual gives carry its page; values it leaves open are warlog's rulings (R11 in the
rules digest §13, AE-n in docs/rulings.md). Change a value here and in the rulings, never inline.
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.resources import Resources

#: R10; manual p.23: moving an army costs 1 AP per hero and per unit card in it
MOVE_AP_PER_CARD = 1
#: manual p.10 (tutorial): creating an army costs 3 AP
CREATE_ARMY_AP = 3
#: R11 / AE-9: disbanding an empty army at a base is free
DISBAND_ARMY_AP = 0
#: R11 / AE-9: each transfer order between two armies in one hex costs 1 AP
TRANSFER_AP = 1
#: R11 / AE-6: drawing a card costs 2 AP (the manual says drawing costs AP, not how much)
DRAW_CARD_AP = 2
#: R11 / AE-3: each initiative die costs 1 Energy (manual p.22: dice are bought with resources)
INITIATIVE_DIE_PRICE = Resources(energy=1)
#: AE-3: at most 10 initiative dice a round (a card attribute pool never exceeds 10, digest 1.1)
INITIATIVE_MAX_DICE = 10


def deploy_ap(cost: Resources) -> int:
    """AP to deploy a card: half its total resource cost, rounded down (manual p.18; R3; AE-13)."""
    return cost.total() // 2


#: R11 / AE-23: engaging or dropping stealth costs 1 AP an army (p.10 shows 1 AP for a 1-unit army)
STEALTH_AP = 1
#: R11 / AE-21: Hunt Enemy Hero costs 2 AP (p.30: the menu shows a cost, not which)
HUNT_HERO_AP = 2
#: R11 / AE-71: an assassination attempt costs 2 AP, as a hunt (p.28: the menu shows a cost, not
#: which)
ASSASSINATE_AP = 2
#: R11 / AE-16: playing a tactic card costs 1 AP (a secondary source says tactics cost AP)
TACTIC_AP = 1
#: AE-19: the most AP an empire may owe for moves outside its own turn: the AP of the last
#: initiative place of two empires (R10), so that its next turn can always pay it
MAX_AP_OWED = 6
#: R11 / AE-22: repairing or healing a card costs 2 AP and 1 Materials, whatever the card (one
#: price, so that a repair does not tell the other empire what kind of card was mended)
REPAIR_AP = 2
REPAIR_COST = Resources(materials=1)
#: p.24, p.30: each prisoner held at a base that is not besieged earns its holder +3 AP a round
PRISONER_AP = 3
#: R11 / AE-54: an Engineer's army lays a minefield card of the hand for 2 AP, whatever the card
#: (one price, so that the other empire cannot tell which card; its resources are not paid)
LAY_MINEFIELD_AP = 2
#: R11 / AE-55: an Engineer's army lifts an enemy minefield it knows for 2 AP
LIFT_MINEFIELD_AP = 2
#: R11 / AE-72: a saboteur's sabotage costs 2 AP, as a hunt does (AE-21; the manual shows a cost,
#: not which)
SABOTAGE_AP = 2

# R11 / AE-73: creating a card costs the AP and resources of its entry in the scenario's research
# list (``scenario.ResearchEntry``), the manual giving each card its own (p.28, p.32): no
# constant here. It is paid on the attempt, whether the card is created or not (``research.py``).
