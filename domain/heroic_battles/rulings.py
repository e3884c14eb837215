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
from warlog.domain.heroic_battles.values import Term

MeleeOutcome = Literal["fighting_victory", "draw", "destroyed"]
RetreatInto = Literal["clear", "friends", "blocked", "off_table"]

# -- the digest's rulings ----------------------------------------------------------------------------


def halve(dice: int) -> int:
    """digest Rulings: a halving rounds down and never leaves fewer than 1 die when any remain."""
    return max(1, dice // 2) if dice > 0 else 0


def stamina_lost(hits: int, armour: int, legendary: int = 0) -> int:
    """digest Rulings, HB-12 and HB-15: the stamina a unit or an unattached hero loses to
    ``hits``, of which ``legendary`` came from Legendary Weapons in melee: 1 for each of those,
    then 1 for every full ``armour`` of the others; leftover hits are lost."""
    return legendary * LEGENDARY_WEAPON_HIT_STAMINA + (hits - legendary) // max(1, armour)


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


def movement_over(actions: int, done: bool, max_actions: int) -> bool:
    """HB-3: a unit or hero completes its movement actions before another moves (Movement, p.30):
    its movement is over once it has taken ``max_actions``, or is ``done``: another one moved
    after it, or a command test for one of its actions failed (the action is spent)."""
    return done or actions >= max_actions


# -- HB-4 units in melee --------------------------------------------------------------------------------

#: HB-4: a unit or hero in a melee makes no movement action (heroes may leave their unit), does
#: not shoot and cannot be shot at
ENGAGED_MAY_MOVE_OR_SHOOT = False

# -- HB-5 heroes joining and leaving units -------------------------------------------------------

#: HB-5: joining a friendly unit is one movement action of the hero, and not into a unit in a
#: melee; leaving a unit costs no action, and a hero leaving a unit in melee leaves the melee
MAY_JOIN_A_UNIT_IN_MELEE = False


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


def markers_after_melee(won: bool) -> dict[str, bool]:
    """HB-9: a fighter's markers once its melee is decided: a Charging marker lasts until the end
    of the first melee its unit fights; a Winning marker from the melee it was won in to the end
    of the next its unit fights. Both go when a unit leaves its melee; a Shot marker lasts to the
    end of the turn."""
    return {"charging": False, "winning": won}


# -- HB-10 pursue or hold ----------------------------------------------------------------------------


def pursuit_forced(winners_traits: list[tuple[str, ...]]) -> bool:
    """HB-10: the winners of a fighting victory choose to pursue (they follow the retreating
    losers and stay in contact: the melee goes on) or hold their ground (the melee ends); a side
    with an Impetuous unit must pursue (trait, p.68)."""
    return any("impetuous" in traits for traits in winners_traits)


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

#: HB-14: the Hero Death table is for combat (p.57): it is rolled for a hero killed in melee, in
#: single combat or by a final blow; a hero killed by shooting, or by stamina lost in a retreat,
#: costs its force its whole Reputation, with no roll
DEATH_TABLE_CAUSES: frozenset[str] = frozenset({"melee", "single_combat", "final_blow"})

# -- HB-15 unattached heroes under fire -----------------------------------------------------------


def risk_to_heroes(attached: list[str], target_is_unit: bool) -> list[str]:
    """HB-15: Risk to Heroes is rolled by the heroes with a unit that took hits; an unattached
    hero shot at or fought in melee takes the hits itself, by its Armour, like a unit
    (``stamina_lost``)."""
    return list(attached) if target_is_unit else []


# -- HB-16 a hero whose unit is lost --------------------------------------------------------------------


def hero_fights_on(how: str, melee_goes_on: bool) -> bool:
    """HB-16: a hero whose unit is removed survives unattached where it stood. When the unit was
    destroyed in a melee that goes on, the hero fights on in it (no reputation lost); otherwise
    (the unit shot down or broken) its force loses 1 token (p.23). A hero attached to a unit that
    retreats off the table goes with it."""
    return how == "destroyed" and melee_goes_on


# -- HB-17 single combat --------------------------------------------------------------------------------


def fights_again(result: str) -> bool:
    """HB-17: only a round drawn before the third is fought again; a round won ends the single
    combat. The challenger and the challenged are in the same melee; a hero who refuses adds no
    dice to this phase's melees; a lower-level hero's force gains the token for taking on a
    higher-level one once, when the challenge is accepted."""
    return result == "draw"


# -- HB-18 bonus dice ----------------------------------------------------------------------------------


def pool_terms(
    base: int, penalties: list[str], bonuses: list[tuple[str, int]]
) -> tuple[list[Term], int]:
    """HB-18 (with the digest's halving): a unit's own shooting or combat dice are halved once per
    penalty, in order; bonus dice (heroes, Mighty Deeds, traits, position) are added after every
    halving and never halved; bonuses of 0 dice are left out. A hero shooting on its own rolls its
    bonus dice only; attached heroes shoot with their unit, and any attached hero may spend Mighty
    Deeds on a missile-armed unit's shooting (p.28). Returns the terms and the final count."""
    terms: list[Term] = []
    dice = base
    for label in penalties:
        dice = halve(dice)
        terms.append(Term(label=label, dice=dice, halving=True))
    for label, extra in bonuses:
        if extra > 0:
            dice += extra
            terms.append(Term(label=label, dice=dice))
    return terms, dice


# -- HB-19 the shooting phase ------------------------------------------------------------------------------


def next_to_shoot(shooter: str, other: str, passed: tuple[str, ...]) -> str:
    """HB-19: in the shooting phase (p.27) the sides shoot one unit or hero at a time, the
    defender first, then alternately; a side may pass, and a side that passed shoots no more this
    phase. Returns who shoots after ``shooter``."""
    return other if other not in passed else shooter


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

#: HB-27: what warlog cannot check and the players see to (it records what they declare), shown
#: in every view
TABLE_DUTIES: tuple[str, ...] = (
    "an Impetuous unit charges an enemy in its Killing Zone at the start of its movement (p.68)",
    "a unit changing facing in an enemy's Killing Zone faces an enemy (p.33)",
    "a charge goes straight ahead without turning (p.30)",
    "skirmishers may evade through friends (p.38)",
    "no unit or hero cuts across an enemy unit's Killing Zone: it moves in to attack or back "
    "(p.13)",
    "a flank or rear charge starts its movement action with the whole base behind the front "
    "line of the charged base (p.30)",
)


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

# -- p.23 an unattached hero's win over a unit it destroys (since version 2) -----------------------

#: since this version an unattached hero that wins a round of combat against an enemy unit
#: earns its token (p.23) when its hits destroyed that unit too: the unit fought it, though it
#: is gone from the melee by the time the melee is decided (version 1 counted only the units
#: still there)
HERO_BEATS_A_DESTROYED_UNIT_SINCE = 2


def hero_beats_a_destroyed_unit(rules_version: int) -> bool:
    """p.23: the token of an unattached hero's win counts a unit its hits destroyed, in this
    rules version."""
    return rules_version >= HERO_BEATS_A_DESTROYED_UNIT_SINCE


# -- HB-36 rough terrain for every command test ----------------------------------------------------

#: HB-36: since this rules version any command test a unit takes with part of its base in rough
#: terrain is on 2D6, the lowest counts (p.26), not only a movement action's or a charge's: the
#: command that calls the test declares it (a change of facing, an evade, the target of a shot,
#: the units a retreat into friends leaves in rough terrain), and a melee's declaration of its
#: fighters in rough terrain holds for the tests they take after it (breaking, disengaging)
ROUGH_TERRAIN_TESTS_SINCE = 2


def rough_terrain_tests(rules_version: int) -> bool:
    """HB-36: every command test in rough terrain is on 2D6 in this rules version."""
    return rules_version >= ROUGH_TERRAIN_TESTS_SINCE


# -- HB-31 the order of melees ------------------------------------------------------------------


def melee_order(begun: list[str]) -> tuple[str, ...]:
    """HB-31: in a melee phase the single combat is fought first (the challenge is asked before
    any melee), then every melee in the order it began (``begun``)."""
    return tuple(begun)


# -- HB-32 breaking --------------------------------------------------------------------------------

#: a Brittle unit tests or breaks when retreating with this much stamina or less (trait, p.68)
BRITTLE_STAMINA = 2


def break_test(stamina: int, brittle: bool) -> bool:
    """HB-32: a unit retreating on its last stamina point (Retreating, p.47), or a Brittle one
    with 2 or less, takes a command test or breaks; a unit that breaks is removed as destroyed
    (its force loses its Reputation)."""
    return stamina <= (BRITTLE_STAMINA if brittle else tables.LAST_STAMINA)


# -- HB-33 Fearsome -------------------------------------------------------------------------------

#: HB-33: losers of a melee retreat 1 ST instead of ½ ST when a winning fighter (or a hero with
#: it) is Fearsome and none of theirs is (trait, p.66)
FEARSOME_RETREAT_HALF_ST = 2


# -- HB-34 rolls counted before they are rolled ----------------------------------------------------------


def roll_waits(already_rolled: bool, dice: int) -> bool:
    """HB-34: every die a command rolls is counted before any is rolled, so that a referee typing
    a physical roll knows how many dice to type: a roll whose count depends on dice the command
    already rolled (1s re-rolled, Risk to Heroes once hits are known, the Hero Death table, a final
    blow, a command test after a shot or in a retreat, the next round of a single combat) waits
    for its roller's ``roll`` command. Support saves are rolled with the combat dice (their count
    is known), before the 1s are re-rolled: the same result as in the sheet's order."""
    return already_rolled and dice > 0


# -- HB-35 supports ----------------------------------------------------------------------------------


def may_support(gone: bool, in_melee: bool) -> bool:
    """HB-35: any friendly unit on the table and not in a melee may be declared in support (the
    players see that it stands in support position), in as many melees of a phase as they
    declare."""
    return not gone and not in_melee


# -- HB-37 a flank or rear engagement lasts while its enemy fights (since version 3) ----------------

#: HB-37: since this rules version a unit charged in the flank or rear halves its combat dice
#: (Combat Dice Penalties, Melee pp.50–62) only while an enemy that charged it there is still a
#: fighter of the melee; version 2 and before kept the penalty until the unit itself left the
#: melee, though the enemy that flanked it had been destroyed or had left
FLANK_LASTS_WHILE_ITS_ENEMY_FIGHTS_SINCE = 3


def flank_lasts_while_its_enemy_fights(rules_version: int) -> bool:
    """HB-37: the flank or rear penalty ends with the last enemy that charged there, in this
    rules version."""
    return rules_version >= FLANK_LASTS_WHILE_ITS_ENEMY_FIGHTS_SINCE


# -- HB-38 the first combat of the game (since version 3) ----------------------------------------

#: HB-38: since this rules version the token for a hero charging into the first combat of the
#: game (p.23, once per game) goes to the first hero to charge into it, whether its charge began
#: that melee or joined it; version 2 and before gave it only to a hero whose charge began it, so
#: that no token was earned when a unit without a hero began the first melee
FIRST_COMBAT_JOINED_SINCE = 3

#: the reason of the p.23 gain (HB-38): its ``reputation_gained`` marks it earned
FIRST_COMBAT_REASON = "a hero charges into the first combat of the game"

#: the reasons of the other three charge gains of p.23 (HB-6), as ``reputation_gained`` logs them
CHARGE_REASON = "a hero charges into combat"
COMMANDER_UNIT_REASON = "a hero charges the enemy Army Commander's unit"
COMMANDER_CHARGES_REASON = "the Army Commander charges"
#: HB-6: one hero per charging unit gains these, and they add up
CHARGE_REASONS: frozenset[str] = frozenset(
    {CHARGE_REASON, FIRST_COMBAT_REASON, COMMANDER_UNIT_REASON, COMMANDER_CHARGES_REASON}
)


def first_combat_joined(rules_version: int) -> bool:
    """HB-38: a hero joining the first combat of the game earns its token, in this rules
    version."""
    return rules_version >= FIRST_COMBAT_JOINED_SINCE


# -- HB-15 an unattached hero's loss in melee named as such (since version 4) ---------------------

#: HB-15: since this rules version each stamina loss of a melee records whether the one losing it
#: is an unattached hero (``Loss.hero``), and its explanation cites HB-15 for that loss alone;
#: version 3 and before recorded nothing, and cited HB-15 for every melee's losses, a unit's too
UNATTACHED_HERO_LOSS_MARKED_SINCE = 4


def unattached_hero_loss_marked(rules_version: int) -> bool:
    """HB-15: a melee's loss says whether it is an unattached hero's, in this rules version."""
    return rules_version >= UNATTACHED_HERO_LOSS_MARKED_SINCE
