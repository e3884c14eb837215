"""The air war's test set-up (p.19, p.30–31; AE-39..AE-43), shared by the tests of its modules
(``test_air_launch``, ``test_air_targets``, ``test_intercept``, ``test_ground_to_air``,
``test_air_to_ground``, ``test_air_strike``) and by others that strike from the air.

Red's aircraft fly from its HQ at 0,0; blue's HQ stands at 4,2 with Anti-Air in its garrison and
its army blue-a at 3,2 (plains everywhere). Attack cards here have no fate, so that the dice a
test types are only those that matter. Since version 13 every strike meets blue's Ground-To-Air
window, whatever the hex holds (AE-41): a test about another step answers it with ``launch``.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from tests.domain.armageddon_empires.helpers import army_block, game, sight, start_turns
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    GroundToAirChallenge,
    PlayAttackCard,
    Roll,
)
from warlog.domain.armageddon_empires.frames import AirStrike
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import Event

ROWS = [". . . . . . . ."] * 5

AIR_CARDS = """
[[cards]]
kind = "attack"
id = "hawk"
name = "Test Hawk"
craft = "aircraft"
cost = { energy = 1 }
attack = 4
defense = 2
fate = 0
hit_points = 2
range = 6
ap = 2

[[cards]]
kind = "attack"
id = "harrier"
name = "Test Harrier"
craft = "aircraft"
attack = 3
defense = 1
fate = 0
hit_points = 2
range = 6
ap = 2
abilities = ["HARM 3", "Precision Targeting"]

[[cards]]
kind = "attack"
id = "jay"
name = "Test Jay"
craft = "aircraft"
cost = { energy = 2 }
attack = 1
defense = 1
fate = 0
hit_points = 2
range = 5
ap = 2
abilities = ["Air To Air 3"]

[[cards]]
kind = "attack"
id = "bolt"
name = "Test Bolt"
craft = "missile"
attack = 5
defense = 1
fate = 0
hit_points = 1
range = 6
ap = 1

[[cards]]
kind = "unit"
id = "flak"
name = "Test Flak"
attack = 1
defense = 2
hit_points = 3
movement = 1
abilities = ["Anti-Air 3", "Anti-Missile 2"]

[[cards]]
kind = "unit"
id = "plate"
name = "Test Plate"
attack = 1
defense = 1
hit_points = 4
movement = 1
abilities = ["Composite Armor -1"]

[[cards]]
kind = "facility"
id = "bunker"
name = "Test Bunker"
defense = 1
structure = 6
abilities = ["Hardened"]
"""

BASES = """
[[bases]]
id = "red-hq"
empire = "red"
kind = "stronghold"
at = "0,0"
card = "keep"

[[bases]]
id = "blue-hq"
empire = "blue"
kind = "stronghold"
at = "4,2"
card = "keep"
facilities = ["bunker"]
garrison = {garrison}
"""

ARMIES = army_block("blue-a", "blue", "3,2", units=("plate",)) + army_block(
    "red-a", "red", "0,1", units=("trooper",)
)


def empires(red: list[str], blue: list[str], blue_energy: int = 5) -> str:
    return f"""
[[empires]]
id = "red"
name = "Red"
resources = {{ humans = 9, materials = 9, energy = 5 }}
hand = {red!r}
deck = ["trooper"]

[[empires]]
id = "blue"
name = "Blue"
resources = {{ humans = 9, materials = 9, energy = {blue_energy} }}
hand = {blue!r}
deck = ["trooper"]
""".replace("'", '"')


def skies(
    red: list[str],
    blue: list[str],
    garrison: tuple[str, ...] = (),
    more: str = "",
    bases_text: str = BASES,
    version: int | None = None,
    **kw: Any,
) -> Given:
    """Red's turn; red has sighted blue-a. ``more``: further cards and armies; ``bases_text``:
    the bases (``BASES`` changed); ``version``: the game plays under that version of the rules
    (default: the latest)."""
    bases = bases_text.replace("{garrison}", "[" + ", ".join(f'"{g}"' for g in garrison) + "]")
    g = game(
        ROWS,
        armies=AIR_CARDS + ARMIES + more,
        bases=bases,
        empires=empires(red, blue, **kw),
        resources="",
    )
    g = sight(start_turns(g), "red", "blue-a")
    if version is not None:
        g.state = replace(g.state, rules_version=version)
    return g


def accept_all(g: Given, *dice: list[int]) -> list[Event]:
    """Answer every question of the open challenges by accepting (or rolling an awaited roll):
    a command that rolls is given the next of ``dice`` (a command that rolls nothing, none)."""
    out: list[Event] = []
    rolls = list(dice)
    while True:
        waiting = RULESET.decision(g.state)
        if waiting is None or waiting.kind not in ("challenge", "roll"):
            return out
        player = waiting.players[0]
        cmd: Any = Roll(player=player) if waiting.kind == "roll" else AcceptChallenge(player=player)
        try:
            out += g.when(cmd, dice=[])
        except InputError:
            out += g.when(cmd, dice=rolls.pop(0))


def hold_fire(g: Given, dice: list[int] | None = None) -> list[Event]:
    """Every empire asked in the Ground-To-Air window launches no challenge (AE-41, since
    version 13); the last answer, after which the strike goes on, rolls ``dice``."""
    out: list[Event] = []
    while (waiting := RULESET.decision(g.state)) is not None and (
        waiting.kind == "ground_to_air_challenge"
    ):
        strike = g.state.frames[-1]
        assert isinstance(strike, AirStrike)
        last = len(strike.to_ask) == 1
        out += g.when(GroundToAirChallenge(player=waiting.players[0]), dice=dice if last else [])
    return out


def launch(g: Given, command: PlayAttackCard, dice: list[int] | None = None) -> list[Event]:
    """Red's strike, up to its Ground-To-Air window (nothing rolls before it), then every empire
    asked there launches no challenge (``hold_fire`` with ``dice``): the events of all of it."""
    return g.when(command, dice=[]) + hold_fire(g, dice)


#: a Spotter Team: a Forward Air Controller (p.46) that may stealth
SPOTTER_CARD = """
[[cards]]
kind = "unit"
id = "spotter"
name = "Test Spotter Team"
attack = 1
defense = 2
hit_points = 2
movement = 3
abilities = ["Forward Air Controller", "Stealth 4"]
"""


def spotters(army: str = "red-eyes", at: str = "3,2") -> str:
    """Red's army ``army`` at ``at``, stealthed, holding a Spotter Team."""
    return army_block(army, "red", at, units=("spotter",)) + "stealthed = true\n"


#: a red Spotter Team in blue-a's hex, stealthed (a game starts with no battle)
SPOTTERS = SPOTTER_CARD + spotters()

AA_FACILITIES = """
[[cards]]
kind = "facility"
id = "aakeep"
name = "AA Keep"
defense = 1
structure = 1
level = 2
abilities = ["HQ", "Supply", "Anti-Air 1"]

[[cards]]
kind = "facility"
id = "aabunker"
name = "AA Bunker"
defense = 1
structure = 6
abilities = ["Anti-Air 2"]
"""

#: blue launches no more challenges
BLUE_STOPS = GroundToAirChallenge(player="blue")
