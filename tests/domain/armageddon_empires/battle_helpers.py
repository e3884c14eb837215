"""Ground battles' test set-up (p.33–34; R8, R13; AE-25..AE-36), shared by the tests of their
modules (``test_battle``, ``test_battlefield``, ``test_ground_combat``, ``test_retreat``) and by
others that fight a battle.

Every empire holds no card here, and no hero has fate but where a test says so, so that every
challenge ends by two automatic accepts (AE-20) and a test types only the dice that matter.
"""

from __future__ import annotations

from tests.domain.armageddon_empires.helpers import army_block, base_block, game, sight, start_turns
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.commands import CommitArmy, Engage, MoveArmy, SetUpBattle

BATTLE_CARDS = """
[[cards]]
kind = "unit"
id = "lancer"
name = "Test Lancer"
attack = 4
defense = 2
hit_points = 3
movement = 2
abilities = ["Double Attack"]

[[cards]]
kind = "unit"
id = "plated"
name = "Test Plated"
attack = 2
defense = 1
hit_points = 4
movement = 2
abilities = ["Composite Armor -1"]

[[cards]]
kind = "unit"
id = "spray"
name = "Test Spray"
attack = 2
defense = 1
hit_points = 2
movement = 2
abilities = ["Area Attack"]

[[cards]]
kind = "hero"
id = "fox"
name = "Test Fox"
fate = 0
wounds = 2
movement = 3
abilities = ["Trickster 2"]

[[cards]]
kind = "unit"
id = "breaker"
name = "Test Breaker"
attack = 3
defense = 1
hit_points = 3
movement = 2
abilities = ["Breakthrough Attack"]

[[cards]]
kind = "unit"
id = "splitter"
name = "Test Splitter"
attack = 4
defense = 1
hit_points = 3
movement = 2
abilities = ["Multi-targeting"]

[[cards]]
kind = "unit"
id = "marksman"
name = "Test Marksman"
attack = 3
defense = 1
hit_points = 2
movement = 2
abilities = ["Sniper Attack"]

[[cards]]
kind = "hero"
id = "warden"
name = "Test Warden"
fate = 2
wounds = 2
movement = 3
"""


#: no cards in hand: every challenge is accepted automatically on both sides (AE-20)
EMPTY_HANDS = """
[[empires]]
id = "red"
name = "Red"
resources = { humans = 9, materials = 9, energy = 5, technology = 1 }
hand = []
deck = ["trooper"]

[[empires]]
id = "blue"
name = "Blue"
resources = { humans = 9, materials = 9, energy = 5 }
hand = []
deck = ["trooper"]
"""


#: blue's HQ at 7,5 with a trooper in its garrison
GARRISONED = base_block("red-hq", "red", "0,0") + base_block(
    "blue-hq", "blue", "7,5", garrison=("trooper",)
)


def field(armies: str, **parts: str) -> Given:
    """Red's turn, red's armies in sight of blue's (none of them hidden)."""
    g = start_turns(game(armies=BATTLE_CARDS + armies, empires=EMPTY_HANDS, **parts))
    blue = [a.id for a in g.state.armies.values() if a.empire == "blue" and a.cards()]
    return sight(g, "red", *blue)


def attack_at(g: Given, army: str, to: str) -> Given:
    """``army`` moves in and attacks; both sides set up with no joiner."""
    g.when(MoveArmy(player="red", army=army, to=to))
    g.when(Engage(player="red", choice="attack"))
    g.when(SetUpBattle(player="red"))
    g.when(SetUpBattle(player="blue"))
    return g


#: red's lancer and plated against blue's Trickster with a plated and a trooper, at 4,0 (plains)
VERSUS_FOX = army_block("red-x", "red", "3,0", units=("lancer", "plated")) + army_block(
    "blue-y", "blue", "4,0", hero="fox", units=("plated", "trooper")
)


def committed(g: Given) -> Given:
    """Red commits red-x all in front; blue commits blue-y with its trooper in the back row."""
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(CommitArmy(player="blue", army="blue-y", back=("blue.trooper.1",)))
    return g


def fought(armies: str, back: tuple[str, ...] = (), initiative: list[int] | None = None) -> Given:
    """Red's red-x attacks blue-y at 4,0; blue commits with ``back`` in its back row and round
    one's initiative rolls ``initiative`` (red wins with 6 6 6 against 1 1 1)."""
    g = attack_at(field(armies), "red-x", "4,0")
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(
        CommitArmy(player="blue", army="blue-y", back=back), dice=initiative or [6, 6, 6, 1, 1, 1]
    )
    return g
