"""warlog's rulings for Midgard: Heroic Battles, where the sheet and the digest are silent.

Each ruling is one named constant or one function here, cited by its number (HB-n) wherever it is
used and listed in docs/rulings.md ("Midgard: Heroic Battles"). The digest's own rulings (dice
halving, armour, leftover hits) are here too, marked as the digest's. To change a ruling, change it
here and in docs/rulings.md, and bump the ruleset's version.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from warlog.domain.heroic_battles import tables

MeleeOutcome = Literal["fighting_victory", "draw", "destroyed"]
RetreatInto = Literal["clear", "friends", "blocked", "off_table"]

# -- the digest's rulings ----------------------------------------------------------------------------


def halve(dice: int) -> int:
    """digest Rulings: a halving rounds down and never leaves fewer than 1 die when any remain."""
    return max(1, dice // 2) if dice > 0 else 0


def stamina_from_hits(hits: int, armour: int) -> int:
    """digest Rulings: every full ``armour`` hits remove 1 stamina; leftover hits are lost."""
    return hits // max(1, armour)


# -- HB-1 declared distances --------------------------------------------------------------------------

#: HB-1: a shot's distance is declared in whole ST, rounded up (the sheet's range table counts
#: whole ST, p.43); a target further than the weapon's range cannot be shot
MIN_SHOT_DISTANCE = 1


def in_range(distance: int, weapon_range: int) -> bool:
    """HB-1: the declared distance (whole ST, rounded up) is within the weapon's range."""
    return MIN_SHOT_DISTANCE <= distance <= weapon_range


# -- HB-2 the Killing Zone first -------------------------------------------------------------------


def killing_zone_respected(in_killing_zone: bool, none_in_killing_zone: bool) -> bool:
    """HB-2: targets in the Killing Zone must be shot at first (Shooting, p.42). warlog cannot see
    the table, so a shot at a target outside the shooter's Killing Zone needs the players'
    declaration that no enemy stands inside it."""
    return in_killing_zone or none_in_killing_zone


# -- HB-3 the order of movement ---------------------------------------------------------------------

#: HB-3: a unit or hero completes its movement actions before another moves (Movement, p.30): once
#: another one moves, an earlier mover's movement is over; a failed command test spends the action
#: and ends that unit's movement for the phase
FAILED_TEST_ENDS_MOVEMENT = True

# -- HB-4 units in melee --------------------------------------------------------------------------------

#: HB-4: a unit or hero in a melee makes no movement action (heroes may leave their unit), does
#: not shoot and cannot be shot at
ENGAGED_MAY_MOVE_OR_SHOOT = False

# -- HB-5 heroes joining and leaving units -------------------------------------------------------

#: HB-5: joining a friendly unit is one movement action of the hero; a hero may not join a unit
#: in a melee. Leaving a unit costs no action; a hero leaving a unit in melee leaves the melee.
JOIN_IS_A_MOVEMENT_ACTION = True


# -- HB-6 which hero gains the reputation of a charge ------------------------------------------------


def charging_hero(heroes: Sequence[tuple[str, int, bool]]) -> str:
    """HB-6: of the heroes ``(id, level, army commander)`` with a charging unit, the one that gains
    the charge's reputation (only 1 hero per unit, p.23): the Army Commander, else the highest
    level, else the first listed; "" if none. The charge's reasons (into combat, the first combat
    of the game, against the enemy Army Commander's unit, the Army Commander charging) add up."""
    if not heroes:
        return ""
    best = max(heroes, key=lambda h: (h[2], h[1]))
    return best[0]


# -- HB-7 fighters in a multi-unit melee ----------------------------------------------------------


def primary(fighters: Sequence[str]) -> str:
    """HB-7: the primary fighter of a side is the first of its units and unattached heroes to
    have entered the melee still in it; every other one fights as a Secondary Fighting Unit
    (half dice). Every hit a side scores lands on the enemy's primary fighter."""
    return fighters[0] if fighters else ""


# -- HB-8 the outcome of a melee ----------------------------------------------------------------------


def melee_outcome(scored: dict[str, int], left: dict[str, bool]) -> tuple[MeleeOutcome, str]:
    """HB-8: the outcome of a melee and its winner ("" for a draw), from the hits each side
    ``scored`` after the enemy's support saves and whether it has a fighter ``left``: a side
    alone with fighters left wins (the enemy is ``destroyed``); otherwise more hits win a
    fighting victory (the loser retreats) and equal hits are a draw (the melee goes on), as is
    a melee where neither side has a fighter left."""
    standing = [f for f in scored if left.get(f)]
    if len(standing) == 1 and len(scored) == 2:
        return "destroyed", standing[0]
    if len(standing) < 2:
        return "draw", ""
    a, b = standing
    if scored[a] == scored[b]:
        return "draw", ""
    return "fighting_victory", a if scored[a] > scored[b] else b


# -- HB-9 markers ---------------------------------------------------------------------------------------

#: HB-9: a Charging marker lasts until the end of the first melee its unit fights; a Winning
#: marker from the melee it was won in to the end of the next melee its unit fights; both go when
#: the unit leaves its melee. A Shot marker lasts to the end of the turn.
MARKERS_LAST_ONE_MELEE = True

# -- HB-10 pursue or hold ----------------------------------------------------------------------------

#: HB-10: a pursuing winner follows the retreating losers and stays in contact: the melee goes on
#: in the next melee phase; holding ground ends the melee. A side with an Impetuous unit must
#: pursue (trait, p.68).
PURSUIT_KEEPS_THE_MELEE = True

# -- HB-11 what a retreat runs into ---------------------------------------------------------------

#: HB-11: the retreating unit's owner declares what the ½ ST retreat runs into: nothing
#: (``clear``), a friendly unit (``friends``: pushed back, both test or lose 1 stamina; the push
#: does not carry on into further units), enemy troops, impassable terrain or a combat
#: (``blocked``: stop a Blade's Length away, lose 1 stamina), or the table edge (``off_table``:
#: destroyed, with any hero attached)
RETREAT_OUTCOMES: tuple[RetreatInto, ...] = ("clear", "friends", "blocked", "off_table")

# -- HB-12 Legendary Weapons in melee -------------------------------------------------------------

#: HB-12: in melee each hit from a hero's Legendary Weapon dice costs 1 stamina whatever the armour
#: (trait, p.73); support saves remove those hits first (always the better choice for the saver)
LEGENDARY_WEAPON_HIT_STAMINA = 1
#: ... and in single combat each counts as this many hits (Single Combat)
LEGENDARY_WEAPON_SINGLE_COMBAT_HITS = 2

# -- HB-13 the dying hero's final blow ----------------------------------------------------------------


def death_tokens(outcome: tables.DeathOutcome, reputation: int) -> int:
    """HB-13: the Reputation Tokens a force loses when a hero dies in combat (p.57): its
    Reputation on 1–3; one less on 4–5, and on a 6, whose row names only the final blow (a
    hero who strikes one dies a famous death). A final blow at a hero already dead does nothing."""
    if outcome == "food_for_ravens":
        return reputation
    return max(0, reputation - 1)


# -- HB-14 heroes killed by shooting ------------------------------------------------------------

#: HB-14: the Hero Death table is for combat (p.57): a hero killed by shooting, or by stamina
#: lost in a retreat, costs its force its whole Reputation, with no roll
DEATH_ROLL_OUTSIDE_COMBAT = False

# -- HB-15 unattached heroes under fire -----------------------------------------------------------

#: HB-15: an unattached hero shot at or fought in melee loses 1 stamina for every full Armour's
#: worth of hits, like a unit; Risk to Heroes is for heroes with a unit
UNATTACHED_HERO_TAKES_HITS_BY_ARMOUR = True

# -- HB-16 a hero whose unit is lost --------------------------------------------------------------------

#: HB-16: a hero whose unit is destroyed survives unattached where it stood: when the unit was
#: destroyed in a melee that goes on, the hero fights on in it (no reputation lost); otherwise (the
#: unit shot down or broken) its force loses 1 token (p.23). A hero attached to a unit that
#: retreats off the table goes with it.
HERO_FIGHTS_ON = True

# -- HB-17 single combat --------------------------------------------------------------------------------

#: HB-17: the challenger and the challenged hero are in the same melee; a round that is won ends
#: the single combat (only draws fight again); a hero that refuses a challenge adds no dice to
#: this phase's melees; a lower-level hero's force gains the token for taking on a higher-level
#: hero once, when the single combat begins
WON_ROUND_ENDS_SINGLE_COMBAT = True

# -- HB-18 bonus dice ----------------------------------------------------------------------------------

#: HB-18: halvings apply to a unit's own shooting or combat dice; bonus dice (heroes, Mighty Deeds,
#: traits, position) are added after every halving and never halved. A hero shooting on its own
#: rolls its bonus dice only; attached heroes shoot with their unit, and any attached hero may
#: spend Mighty Deeds on a missile-armed unit's shooting (p.28).
BONUS_DICE_AFTER_HALVING = True

# -- HB-19 the shooting phase ------------------------------------------------------------------------------

#: HB-19: in the shooting phase (7 of the turn, p.27) the sides shoot one unit or hero at a time,
#: the defender first, then alternately; a side may pass instead, and a side that passed shoots
#: no more this phase
PASSING_ENDS_A_SIDES_SHOOTING = True

# -- HB-20 victory ------------------------------------------------------------------------------------


def victory(tokens: dict[str, int], on_table: dict[str, int], last_turn: bool) -> str:
    """HB-20: at the end of a turn (p.27), the force left with no unit or hero on the table, or
    else with no Reputation Tokens, loses (both at once: a draw); after the scenario's last turn
    the force with more tokens wins (equal: a draw). Returns the winner, ``"draw"``, or ``""``
    while the battle goes on."""
    forces = list(tokens)
    out = [f for f in forces if on_table[f] == 0]
    if not out:
        out = [f for f in forces if tokens[f] <= 0]
    if len(out) == len(forces):
        return "draw"
    if out:
        return next(f for f in forces if f not in out)
    if not last_turn:
        return ""
    a, b = forces
    if tokens[a] == tokens[b]:
        return "draw"
    return a if tokens[a] > tokens[b] else b


# -- HB-21 tokens ------------------------------------------------------------------------------------

#: HB-21: a force never has fewer than 0 Reputation Tokens (a loss takes what there is)
MIN_TOKENS = 0

# -- HB-22 evades --------------------------------------------------------------------------------------

#: HB-22: units with the Evade trait and unattached heroes may evade a charge (p.38), once per
#: movement phase, when not in a melee; after a successful evade the charger declares whether its
#: full movement action straight ahead still makes contact
EVADE_TRAIT = "evade"

# -- HB-23 counter charges ----------------------------------------------------------------------------

#: HB-23: a unit with Counter Charge charged to its front, the charge declaring no rough terrain and
#: no barrier (open terrain), may take a command test: passed, it takes a Charging marker without
#: moving and gains no reputation (trait, p.68)
COUNTER_CHARGE_TRAIT = "counter_charge"

# -- HB-24 disengaging -----------------------------------------------------------------------------

#: HB-24: after a melee it stays in, a unit with Disengage whose enemies are all Warriors,
#: Skirmishers or Monstrosities may take a command test: passed, it moves back 1 ST out of the
#: melee (trait, p.68). Each such unit is asked once per melee.
DISENGAGE_FROM: frozenset[str] = frozenset({"warriors", "skirmishers", "monstrosity"})

# -- HB-25 Drilled -----------------------------------------------------------------------------------


def drilled_dice(dice: int) -> int:
    """HB-25: a Drilled unit rolls one die fewer on its first command test of its own movement
    phase (trait, p.68), never fewer than one."""
    return max(tables.COMMAND_TEST_DICE, dice - 1)


# -- HB-26 missile fire in charges -------------------------------------------------------------------

#: HB-26: the sheet's "missile fire in charges" combat bonus says only "varies": warlog adds no
#: dice for it
MISSILE_FIRE_IN_CHARGES_DICE = 0

# -- HB-27 what only the table shows -------------------------------------------------------------

#: HB-27: the compulsory charge of an Impetuous unit (p.68), facing an enemy after changing facing
#: in a Killing Zone (p.33) and charging straight ahead (p.30) depend on the table: the players
#: see to them; warlog records what they declare
TABLE_DUTIES = ("impetuous charge", "facing in a Killing Zone", "charging straight ahead")

# -- HB-28 re-rolling a command test ------------------------------------------------------------

#: HB-28: naming a hero to re-roll a failed command test declares that it is within 2 ST (p.28);
#: a test is re-rolled at most once, all its dice again, and the new result stands
REROLLS_PER_TEST = 1

# -- HB-29 re-rolling Risk to Heroes --------------------------------------------------------------

#: HB-29: a hero re-rolls one die that showed a 1 once per Risk to Heroes roll, for a Mighty Deed
#: and a Reputation Token (p.28, p.23)
RISK_REROLL_DICE = 1

# -- HB-30 Agile ---------------------------------------------------------------------------------------

#: HB-30: an Agile unit has no rough terrain penalty (p.67): full combat dice, and 1D6 for its
#: command tests there
AGILE_TRAIT = "agile"

# -- HB-31 the order of melees ------------------------------------------------------------------

#: HB-31: in a melee phase the single combat is fought first, then every melee in the order it
#: began
SINGLE_COMBAT_FIRST = True

# -- HB-32 breaking --------------------------------------------------------------------------------

#: HB-32: a unit that breaks (fails the test to retreat on its last stamina point) is removed as
#: destroyed: its force loses its Reputation
BROKEN_IS_DESTROYED = True

# -- HB-33 Fearsome -------------------------------------------------------------------------------

#: HB-33: losers of a melee retreat 1 ST instead of ½ ST when a winning fighter (or a hero with
#: it) is Fearsome and none of theirs is (trait, p.66)
FEARSOME_RETREAT_HALF_ST = 2
