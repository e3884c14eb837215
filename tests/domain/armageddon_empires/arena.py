"""A small scenario for challenges, hunts, observation and stealth, and shortcuts for their tests.

The map (7 × 4): plains, with badlands at 2,1 and desert at 4,1. Red holds 0,0 and an outpost at
0,3; blue holds 6,3. Red's hand holds a tactic card of every effect of p.51; blue's one of each
fate effect and a re-roll.
"""

from __future__ import annotations

from typing import Any

from tests.domain.armageddon_empires.helpers import CARDS, army_block, start_turns
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.challenge import Challenge, Pool, Side, Term
from warlog.domain.armageddon_empires.challenge_moves import open_challenge as opening
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.scenario_checks import parse_scenario
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.dice import ManualDice
from warlog.domain.core.procedure import run

ROWS = [
    ". . . . . . .",  # r = 0
    ". . b . d . .",  # r = 1
    ". . . . . . .",  # r = 2
    ". . . . . . .",  # r = 3
]

#: one tactic card per effect of p.51 (X = 2 where there is an X)
TACTICS = {
    "t-fate": ("fate_plus", 2),
    "t-drain": ("enemy_fate_minus", 2),
    "t-dice": ("dice_plus", 2),
    "t-spoil": ("reroll_enemy_successes", 2),
    "t-sure": ("success_dice_plus", 2),
    "t-strip": ("enemy_success_dice_minus", 2),
    "t-turn": ("failures_to_successes", 2),
    "t-foil": ("successes_to_failures", 2),
    "t-again": ("reroll_own_pool", 0),
    "t-upset": ("reroll_enemy_pool", 0),
}

MORE_CARDS = (
    "".join(
        f'\n[[cards]]\nkind = "tactic"\nid = "{card}"\nname = "Tactic {card}"\n'
        f'effect = "{effect}"\namount = {amount}\n'
        for card, (effect, amount) in TACTICS.items()
    )
    + """
[[cards]]
kind = "hero"
id = "quarry"
name = "Test Quarry"
fate = 4
wounds = 3
movement = 3

[[cards]]
kind = "hero"
id = "pawn"
name = "Test Pawn"
fate = 0
wounds = 1
movement = 3

[[cards]]
kind = "hero"
id = "shade"
name = "Test Shade"
fate = 2
wounds = 2
movement = 3
abilities = ["Stealth 5"]

[[cards]]
kind = "unit"
id = "tracker"
name = "Test Tracker"
attack = 2
defense = 2
hit_points = 2
movement = 3
abilities = ["Bounty Hunter 2"]

[[cards]]
kind = "unit"
id = "eye"
name = "Test Eye"
attack = 2
defense = 2
hit_points = 2
movement = 3
abilities = ["Recce S5, R1"]

[[cards]]
kind = "unit"
id = "farsight"
name = "Test Farsight"
attack = 1
defense = 1
hit_points = 1
movement = 3
abilities = ["Recce S6, R1"]

[[cards]]
kind = "unit"
id = "wisp"
name = "Test Wisp"
attack = 1
defense = 2
hit_points = 2
movement = 3
abilities = ["Stealth 4"]

[[cards]]
kind = "attack"
id = "kite"
name = "Test Kite"
craft = "aircraft"
attack = 3
defense = 2
fate = 1
hit_points = 2
range = 4

[[cards]]
kind = "facility"
id = "sniffer"
name = "Test Sniffer"
defense = 1
structure = 2
abilities = ["Sniffer 3"]

[[cards]]
kind = "facility"
id = "veil"
name = "Test Veil"
defense = 1
structure = 2
abilities = ["Camouflage 5"]
"""
)

EMPIRES = """
[[empires]]
id = "red"
name = "Red"
resources = { humans = 9, materials = 9, energy = 5, technology = 1 }
hand_limit = 12
hand = ["t-fate", "t-drain", "t-dice", "t-spoil", "t-sure", "t-strip", "t-turn", "t-foil",
        "t-again", "t-upset", "dart", "kite"]

[[empires]]
id = "blue"
name = "Blue"
resources = { humans = 9, materials = 9, energy = 5 }
hand = ["t-fate", "t-drain", "t-again"]
"""

BASES = """
[[bases]]
id = "red-hq"
empire = "red"
kind = "stronghold"
at = "0,0"
card = "keep"
facilities = ["sniffer"]
garrison = ["trooper"]

[[bases]]
id = "red-camp"
empire = "red"
kind = "outpost"
at = "0,3"
card = "camp"

[[bases]]
id = "blue-hq"
empire = "blue"
kind = "stronghold"
at = "6,3"
card = "keep"
facilities = ["veil"]
garrison = ["trooper"]
"""

#: red's hunters (3 units: Bounty Hunter 2, Recce S5 R1, and a trooper) led by the captain, at
#: 2,1 (badlands), and blue's quarry alone in an army there (the p.30 example's numbers)
HUNT = army_block(
    "red-hunt", "red", "2,1", hero="captain", units=("tracker", "eye", "trooper")
) + army_block("blue-quarry", "blue", "2,1", hero="quarry")


def toml(
    armies: str = HUNT, bases: str = BASES, empires: str = EMPIRES, rows: list[str] = ROWS
) -> str:
    width = len(rows[0].split())
    row_lines = ",\n".join(f'  "{r}"' for r in rows)
    head = (
        f'name = "arena"\nmax_rounds = 4\npublic_setup = true\n\n[map]\nwidth = {width}\nheight = {len(rows)}\n'
        f"rows = [\n{row_lines}\n]\n"
    )
    return head + CARDS + MORE_CARDS + empires + bases + armies


def arena(armies: str = HUNT, **parts: Any) -> Given:
    """The arena before the first command (the armies may share a hex only with stealth or as
    a hunter and its prey: a scenario cannot place them so, so tests move them with events)."""
    return Given(RULESET, parse_scenario(toml(armies, **parts)))


def begin(g: Given, first: str = "red", observation: int = 1) -> Given:
    """Both buy no initiative dice, ``first`` wins the re-roll; the round's hidden checks all
    show ``observation`` (``helpers.start_turns``)."""
    return start_turns(g, first, observation)


def side(empire: str, faces: list[int], name: str = "", hero: str | None = None, **kw: Any) -> Side:
    return Side(
        empire=empire,
        name=name or f"{empire} side",
        pool=Pool((Term(len(faces), "test pool"),)),
        faces=tuple(faces),
        fate_hero=hero,
        **kw,
    )


def open_challenge(
    g: Given,
    attacker: Side,
    defender: Side | None,
    kind: str = "opposed",
    threshold: int = 0,
    deals_damage: bool = False,
) -> Challenge:
    """Open a challenge whose pools roll the sides' ``faces`` (a referee's dice), as a command's
    handler would, and run the engine on until someone must answer (a side with no move but
    accepting accepts at once, AE-20)."""
    faces = [*attacker.faces, *(defender.faces if defender is not None else ())]
    batch: Batch[GameState] = Batch(ManualDice(faces), g.state, RULESET.evolve)
    ch = opening(
        batch,
        kind=kind,  # type: ignore[arg-type]
        purpose="test",
        attacker=attacker,
        defender=defender,
        threshold=threshold,
        deals_damage=deals_damage,
    )
    run(batch, RULESET.next)
    g.events(*batch.events)
    return ch


def top(g: Given) -> Challenge:
    frame = g.state.frames[-1]
    assert isinstance(frame, Challenge)
    return frame
