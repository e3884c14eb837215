"""The quick-reference sheet's tables and numbers, each with the page a player looks it up on.

Nothing here is ours: where the sheet is silent the choice is in ``rulings.py``. Distances are
kept in half Spear Throws (``HALF_ST`` = ½ ST) so that no number is a float.
"""

from __future__ import annotations

from typing import Literal

UnitType = Literal["warriors", "skirmishers", "light_riders", "heavy_riders", "monstrosity"]
Facing = Literal["front", "flank", "rear"]

# -- where a player looks a rule up ---------------------------------------------------------------

TURN_SEQUENCE = "Turn Sequence, p.27"
REPUTATION = "Gaining or Losing Reputation, p.23"
KILLING_ZONES = "Killing Zones, p.13"
COMMAND_TESTS = "Command Tests, p.26"
MIGHTY_DEEDS = "Mighty Deeds, p.28"
MOVEMENT = "Movement, pp.30–40"
EVADES = "Evade Moves, p.38"
CHANGING_FACING = "Changing Facing, p.33"
SINGLE_COMBAT = "Single Combat"
SHOOTING = "Shooting, p.42"
SHOOTING_PENALTIES = "Shooting Dice Penalties, p.42"
SHOOTING_BONUSES = "Shooting Dice Bonuses, p.42"
SHOOTING_RANGES = "Shooting Ranges, p.43"
RETREATING = "Retreating, pp.47–48, 59–60"
RISK_TO_HEROES = "Risk to Heroes, p.46, pp.56–57"
MELEE = "Melee, pp.50–62"
#: the sheet prints no page on its Combat Dice Penalties and Support Saves boxes: a player finds
#: them in its Melee section (the "p.57" beside the Penalties box in the sheet's text is Hero Death
#: in Combat's, the box printed next to it)
COMBAT_PENALTIES = "Combat Dice Penalties, Melee pp.50–62"
COMBAT_BONUSES = "Combat Dice Bonuses, p.55"
SUPPORT_SAVES = "Support Saves, Melee pp.50–62"
HERO_DEATH = "Hero Death in Combat, p.57"
#: the unit traits (Counter Charge, Brittle, Impetuous, …) are described on p.68
TRAITS = "Traits, p.68"

# -- command tests (p.26) and Mighty Deeds (p.28) ---------------------------------------------------

#: why a movement action across a barrier tests on the harder dice (as the test names it)
CROSSING_A_BARRIER = "crossing a barrier"
#: the reason a command test in rough terrain gives for its 2D6 (p.26; HB-36 since version 2)
IN_ROUGH_TERRAIN = "in rough terrain"
#: a command test passes on this score or more (1D6, or the lower of 2D6)
COMMAND_TEST_PASS = 3
#: dice of an ordinary test, and of a test taken crossing a barrier or in rough terrain (the lower)
COMMAND_TEST_DICE = 1
HARD_COMMAND_TEST_DICE = 2

# -- movement (pp.30–40) ------------------------------------------------------------------------------

#: one movement action, in half ST, by unit type (warriors, skirmishers, monstrosities 1 ST;
#: light and heavy riders 2 ST)
MOVE_HALF_ST: dict[str, int] = {
    "warriors": 2,
    "skirmishers": 2,
    "monstrosity": 2,
    "light_riders": 4,
    "heavy_riders": 4,
}
HERO_ON_FOOT_HALF_ST = 2
MOUNTED_HALF_ST = 4
FLYING_HALF_ST = 8
#: unit types that may move their full distance in any direction (the others: full distance
#: straight ahead, or half of it in any direction)
FREE_MOVERS: frozenset[str] = frozenset({"skirmishers", "light_riders"})
MAX_MOVEMENT_ACTIONS = 2
#: the bonus Get In! move of a charge that made contact
GET_IN_HALF_ST = 1

# -- shooting (p.42) and ranges (p.43) ----------------------------------------------------------------

#: a shooting, combat or single-combat die hits on this face or more
HIT_ON = 5
#: ... and on this one for a Brutal unit or hero in melee and single combat
BRUTAL_HIT_ON = 4
#: a hero with a missile weapon shoots this many dice (per hero shooting)
HERO_SHOOTING_DICE = 1
BEHIND_FRONT_LINE_DICE = 1
MARKSMAN_DICE = 1
#: dice added against (shooting) or by (melee) a Big or Towering unit or hero
BIG_DICE = 1
TOWERING_DICE = 2
#: range in ST of each missile weapon (the sheet's range table, p.43)
RANGES: dict[str, int] = {
    "javelin": 1,
    "short_bow": 2,
    "mounted_bow": 2,
    "bow": 3,
    "mounted_elf_bow": 3,
    "sling": 3,
    "boulder": 3,
    "dragons_breath": 3,
    "longbow": 4,
    "crossbow": 4,
    "elf_bow": 4,
    "light_artillery": 4,
    "heavy_artillery": 5,
}

# -- melee (pp.50–62) -------------------------------------------------------------------------------

SPEARS_AS_TRIBUTE_DICE = 2
IMPETUOUS_DICE = 1
#: the Combat Dice Penalties row a unit "engaged with an enemy to the flank or rear" halves its dice
#: for, as its pool names it (HB-37: while an enemy that charged it there still fights)
FLANK_OR_REAR = "engaged in the flank or rear"
#: how a support save term names a supporting unit ("support blue-scouts"; HB-35)
SUPPORT_TERM = "support "
#: a support save die removes a hit on this face or more
SUPPORT_SAVE_ON = 5
#: support save dice of each supporting unit, by type
SUPPORT_DICE: dict[str, int] = {
    "skirmishers": 1,
    "light_riders": 1,
    "warriors": 2,
    "heavy_riders": 2,
    "monstrosity": 2,
}
HILL_OR_BARRIER_SAVE_DICE = 2
INSPIRING_SAVE_DICE_PER_DEED = 2

# -- retreats (pp.47–48, 59–60) ---------------------------------------------------------------------

RETREAT_HALF_ST = 1
#: stamina lost by a unit that retreats into enemy troops, impassable terrain or a combat, and by
#: a unit that fails its test when retreated into by a friend
RETREAT_BLOCKED_STAMINA = 1
#: a unit retreating with this much stamina must pass a command test or break
LAST_STAMINA = 1

# -- risk to heroes (p.46, pp.56–57) ------------------------------------------------------------------

#: each face of this value on a risk die costs the hero 1 stamina
RISK_FACE = 1
RISK_MAX_DICE = 6
RISK_HITS_PER_DIE = 3


def risk_dice(hits: int) -> int:
    """Risk to Heroes (p.46, pp.56–57): the dice a hero rolls when its unit took ``hits``:
    1–3 hits 1D6, 4–6 2D6, 7–9 3D6, 10–12 4D6, 13–15 5D6, 16 or more 6D6; none without hits."""
    if hits <= 0:
        return 0
    return min(RISK_MAX_DICE, (hits - 1) // RISK_HITS_PER_DIE + 1)


# -- hero death (p.57) ------------------------------------------------------------------------------

DeathOutcome = Literal["food_for_ravens", "famous_death", "final_blow"]
#: the final blow of a dying hero: the enemy must roll this or more on 1D6 or lose 1 stamina
FINAL_BLOW_SAVE_ON = 4


def hero_death(roll: int) -> DeathOutcome:
    """Hero Death in Combat (p.57): 1–3 food for ravens, 4–5 a famous death, 6 "Though I die,
    I smite thee!"."""
    if roll <= 3:
        return "food_for_ravens"
    if roll <= 5:
        return "famous_death"
    return "final_blow"


DEATH_NAMES: dict[str, str] = {
    "food_for_ravens": "Food for ravens",
    "famous_death": "Famous death",
    "final_blow": "Though I die, I smite thee!",
}

# -- single combat ---------------------------------------------------------------------------------

SINGLE_COMBAT_ROUNDS = 3
BATTLE_SMITER_DICE = 1

# -- reputation (p.23) --------------------------------------------------------------------------------

GAIN_CHARGE = 1
GAIN_FIRST_COMBAT = 1
GAIN_CHARGE_COMMANDER_UNIT = 1
GAIN_COMMANDER_CHARGES = 1
GAIN_TAKES_ON_HIGHER_LEVEL = 1
GAIN_SINGLE_COMBAT_ROUND = 1
GAIN_SINGLE_COMBAT_KILL = 2
GAIN_PROUD_KILL = 1
GAIN_UNATTACHED_HERO_WINS = 1
LOSE_LEAVES_COMBAT = 1
LOSE_COMMANDER_LEAVES_COMBAT = 2
LOSE_EVADES = 1
LOSE_RISK_REROLL = 1
LOSE_UNIT_LOST_HERO_SURVIVES = 1
LOSE_REFUSES_CHALLENGE = 1


def half_st(half: int) -> str:
    """A distance in half ST as a player writes it: 1 → "½ ST", 2 → "1 ST", 3 → "1½ ST"."""
    whole, rest = divmod(half, 2)
    if not rest:
        return f"{whole} ST"
    return f"{whole}½ ST" if whole else "½ ST"
