"""The numbers and words the rules fix, each with its citation (the rules sheet and rulings BFA-n).

Scenario data (the map, the counters, their values) lives in the scenario file; what lives here is
the game's own procedure, the same whatever the map.
"""

from __future__ import annotations

from typing import Literal

IMPERIALS = "imperials"
ORKS = "orks"
PLAYERS: tuple[str, str] = (IMPERIALS, ORKS)

Side = Literal["imperials", "orks"]
Phase = Literal["movement", "combat", "build"]
PHASES: tuple[str, ...] = ("movement", "combat", "build")


def opponent(player: str) -> str:
    return ORKS if player == IMPERIALS else IMPERIALS


# -- where a player looks a rule up: the sections of the rules sheet (seed 003) ------------------
SETUP = "rules: Setup"
STACKING = "rules: Stacking"
SEQUENCE_OF_PLAY = "rules: Sequence of Play"
FIRST_TURN_SURPRISE = "rules: First Turn Surprise"
MOVEMENT_PHASE = "rules: Movement Phase"
TERRAIN_EFFECTS = "rules: Terrain Effects"
COMBAT_PHASE = "rules: Combat Phase"
COMBAT_RESULTS_TABLE = "rules: Combat Results Table"
RETREATING = "rules: Retreating"
BUILD_IMPERIAL = "rules: Build Phase, Imperial"
BUILD_ORK = "rules: Build Phase, Ork"
SUPPLY = "rules: Supply"
SPECIAL_UNITS = "rules: Special Units"
VICTORY_CONDITIONS = "rules: Victory Conditions"


# -- sequence of play ---------------------------------------------------------------------------
#: seed 003 "Victory Conditions": a draw if nobody has won by the end of the eighth turn
LAST_TURN = 8
#: seed 003 "Sequence of Play": each player chooses 2 strategy cards from his hand of 6
STRATEGY_CARDS_CHOSEN = 2
#: seed 003 "Sequence of Play": four action segments, winner / loser / winner / loser
ACTION_SEGMENTS = 4
#: seed 003 "Setup": both players deal themselves 2 special cards as a starting hand
STARTING_HAND = 2
#: seed 003 "Sequence of Play": both players draw the top special card each strategy segment
DRAWS_PER_TURN = 1
#: seed 003 "Sequence of Play": only one special card can be played per action segment
SPECIALS_PER_SEGMENT = 1
#: seed 003 "First Turn Surprise": the Ork player receives the initiative on turn 1
FIRST_TURN = 1
#: seed 003 "First Turn Surprise": +1 to Ork attacks on the first turn
FIRST_TURN_ORK_ATTACK_BONUS = 1
#: seed 003 "First Turn Surprise": Imperial build points halved on turn 1 (BFA-6: rounded down)
FIRST_TURN_BUILD_DIVISOR = 2

# -- stacking -----------------------------------------------------------------------------------
#: seed 003 "Stacking": up to 3 normal counters; leaders, fortifications, hives, factories are free
MAX_STACK = 3
#: BFA-9, in games begun under versions 4 and before: one fortification per area
MAX_FORTIFICATIONS_PER_AREA = 1
#: BFA-9, since this rules version: any number of fortifications stack (seed 003 "Stacking" lists
#: them among the counters of which any number may), their stack's defence doubling once however
#: many (``combat.odds``)
FORTIFICATIONS_STACK_SINCE = 5

# -- combat -------------------------------------------------------------------------------------
#: seed 003 "Terrain Effects": subtract 1 from the CRT roll if all attackers fight across a river
RIVER_MODIFIER = -1
#: seed 003 "Special Units": fortifications double the defence of the counters they stack with
FORTIFICATION_MULTIPLIER = 2
#: BFA-30, since this rules version: a scenario's fortification has defence 0, as the sheet's
#: Special Units give it no defence of its own, only the doubling of its stack's
#: (``scenario._check_fortifications``); games begun under version 7 and before keep their
#: scenarios, and the own defence they count, as those versions did (``combat.odds``), their
#: explanation naming it (``combat_events.AttackDeclared``)
FORTIFICATION_NO_DEFENCE_SINCE = 8
#: seed 003 CRT: up to 3 attacking counters may advance ...
ADVANCE_MAX = 3
#: ... if they have Move 2 or more
ADVANCE_MIN_MOVE = 2
#: BFA-25: the modified roll is clamped to 1..6 before reading the table
DIE_MIN, DIE_MAX = 1, 6
#: seed 003 "Retreating": retreats are one area
RETREAT_DISTANCE = 1

# -- build --------------------------------------------------------------------------------------
#: seed 003 "Setup": the build-points counter starts on space 20 (the sum of the sites' defences)
BUILD_TRACK_START = 20
#: seed 003 "Build Phase (Orc)": one rebuild for each 2 smoking ruins the Orks garrison
RUINS_PER_ORK_REBUILD = 2
#: BFA-12, since this rules version: a READY counter may be placed on an intact hive or factory
#: over the stacking limits (seed 003 "Build Phase, Imperial": overstacking is allowed in the Build
#: Phase, the stacks to be correct at the end of the following Movement Phase); at the end of the
#: Imperials' next movement phase BFA-2 loses the counters that arrived last, those placed over
#: the limits after those that moved in (``movement.enforce_stacking``). Ork rebuilds stay within
#: stacking (seed 003 "Build Phase, Ork" grants no such allowance); games begun under version 7
#: and before place within stacking
BUILD_OVERSTACK_SINCE = 8
#: seed 003 "Special Units": Dante and the chapters enter play on turn 3 in the READY box
MARINES_ARRIVE_TURN = 3
#: BFA-29, since this rules version: a scenario's Marine Chapters are Imperial and start "later"
#: (in the READY box on their arrival turn, seed 003 "Special Units"), and no Ork counter starts
#: "later" (the Orks set up all their counters, seed 003 "Setup"); games begun under version 6
#: and before keep their scenarios as those versions checked them (``scenario.check``)
MARINE_CHAPTERS_IMPERIAL_SINCE = 7

# -- supply -------------------------------------------------------------------------------------
#: seed 003 "Supply": a stack with a hive or fortification is destroyed on a d6 roll of 1-3
SUPPLY_LOSS_MAX_FACE = 3

# -- victory ------------------------------------------------------------------------------------
#: seed 003 "Victory Conditions": the five Imperial hives
HIVES = 5
#: seed 003 "Victory Conditions": the Orks win by capturing any 3 of the 5 hives
HIVES_TO_WIN = 3

# -- counter locations off the map ---------------------------------------------------------------
#: set aside or destroyed, and buildable (Imperials) or rebuildable (Orks)
POOL = "pool"
#: on the Imperial production track, ``track`` spaces from READY
TRACK = "track"
#: in the READY box of the production track, waiting to be placed
READY = "ready"
#: waiting for its arrival turn (Dante and the Marine Chapters)
LATER = "later"
#: out of the game for good (leaders, detachments, counters the build table does not list)
REMOVED = "removed"
OFF_MAP: frozenset[str] = frozenset({POOL, TRACK, READY, LATER, REMOVED})
