"""Next Round, retreat challenges and the end of a battle (p.34; R8; AE-28, AE-32..AE-34): a
Trickster's retreat before round one, the pursuers' pool, retreating all, an army with no hex to
retreat to, and a garrison that never retreats and falls with its base. The set-up:
``battle_helpers``.
"""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from tests.domain.armageddon_empires.battle_helpers import (
    GARRISONED,
    VERSUS_FOX,
    attack_at,
    committed,
    field,
)
from tests.domain.armageddon_empires.helpers import army_block, base_block, game, only
from warlog.domain.armageddon_empires.battle_events import (
    ArmyDestroyed,
    ArmyRetreated,
    BaseCaptured,
    BattleEnded,
    EngagementOffered,
    NextRoundChosen,
    RetreatEnded,
)
from warlog.domain.armageddon_empires.challenge_events import (
    CaptureKillBegan,
    CardDamaged,
    ChallengeOpened,
)
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    Attack,
    CommitArmy,
    EndTurn,
    Engage,
    MoveArmy,
    NextRound,
    Roll,
    SetUpBattle,
    TakePrerogative,
)
from warlog.domain.armageddon_empires.retreat import retreat_hex
from warlog.domain.armageddon_empires.ruleset import RULESET


def test_a_trickster_retreats_before_round_one_against_average_attack_plus_one_minus_its_level() -> (
    None
):
    g = committed(attack_at(field(VERSUS_FOX), "red-x", "4,0"))
    # p.34: a Trickster may retreat before its army's first round
    assert RULESET.decision(g.state).players == ("blue",)  # type: ignore[union-attr]
    events = g.when(NextRound(player="blue", choice="retreat_army"), dice=[6, 6, 1])
    opened = only(events, ChallengeOpened).challenge
    # pursuers: (4 + 2) / 2 = 3, + 1, − Trickster 2 = 2 dice (R8; AE-28)
    assert opened.attacker.pool.size == 2
    assert [t.value for t in opened.attacker.pool.terms] == [3, 1, -2]
    # the plated's Composite Armor −1 does not apply in a retreat (p.34)
    assert only(events, CardDamaged).amount == 2
    assert only(events, RetreatEnded).damage == 2
    assert g.state.damage["blue.plated.1"] == 2
    # the trooper's retreat rolls in a command of its own (AE-37): 2 pursuers + 3 defence
    assert RULESET.legal_commands(g.state, "red") == [Roll(player="red")]
    g.when(Roll(player="red"), dice=[1, 1, 1, 1, 1])
    assert "blue.trooper.1" not in g.state.damage


def test_the_pursuers_average_attack_is_rounded_down() -> None:
    brute = """
[[cards]]
kind = "unit"
id = "brute"
name = "Test Brute"
attack = 5
defense = 1
hit_points = 3
movement = 2
"""
    armies = brute + VERSUS_FOX.replace(
        'units = ["lancer", "plated"]', 'units = ["brute", "lancer"]'
    )
    g = committed(attack_at(field(armies), "red-x", "4,0"))
    assert g.state.armies["red-x"].units == ("red.brute.1", "red.lancer.1")
    events = g.when(NextRound(player="blue", choice="retreat_army"), dice=[1, 1, 1, 1])
    opened = only(events, ChallengeOpened).challenge
    # pursuers: (5 + 4) / 2 = 4.5 rounded down to 4, + 1, − Trickster 2 = 3 dice (R8; AE-28)
    assert [t.value for t in opened.attacker.pool.terms] == [4, 1, -2]
    assert opened.attacker.pool.size == 3
    assert "(5 + 4) / 2 rounded down" in opened.attacker.pool.text()


def test_retreat_all_loses_the_battle_and_the_beaten_army_falls_back_toward_its_base() -> None:
    g = committed(attack_at(field(VERSUS_FOX), "red-x", "4,0"))
    g.when(NextRound(player="blue", choice="retreat_all"), dice=[6, 6, 1])
    events = g.when(Roll(player="red"), dice=[6, 1, 1, 1, 1])
    ended = only(events, BattleEnded)
    assert (ended.winner, ended.loser) == ("red", "blue")
    retreated = only(events, ArmyRetreated)
    assert (retreated.army, retreated.origin) == ("blue-y", "4,0")
    assert g.state.armies["blue-y"].at == retreated.to != "4,0"
    # 4,1 and 5,0 are both 7 hexes from blue-hq at 7,5, the nearest of 4,0's free neighbours;
    # the tie goes to the hex's name (AE-32)
    assert (retreated.to, retreated.toward) == ("4,1", "blue-hq")
    assert g.state.frames == ()
    # the turn goes on: red's own commands again
    assert EndTurn(player="red") in RULESET.legal_commands(g.state, "red")


def test_a_beaten_army_with_no_free_hex_to_retreat_to_is_destroyed() -> None:
    # blue's army in the corner 7,0; every neighbour on the map holds a red army that can fight
    armies = (
        army_block("red-x", "red", "6,0", units=("lancer",))
        + army_block("red-w1", "red", "6,0", units=("trooper",))
        + army_block("red-w2", "red", "6,1", units=("trooper",))
        + army_block("red-w3", "red", "7,1", units=("trooper",))
        + army_block("blue-y", "blue", "7,0", hero="fox", units=("plated",))
    )
    g = attack_at(field(armies), "red-x", "7,0")
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(CommitArmy(player="blue", army="blue-y"))
    # pursuers 4 + 1 − Trickster 2 = 3 dice against the plated's 1: 3 damage of its 4
    g.when(NextRound(player="blue", choice="retreat_all"), dice=[6, 6, 6, 1])
    destroyed = [e for e in g.history if isinstance(e, ArmyDestroyed)]
    assert [d.army for d in destroyed] == ["blue-y"]
    assert destroyed[0].why == (
        "no neighbour is free of enemy bases and of un-stealthed combat-capable enemies with "
        "room for it (p.34; AE-32)"
    )
    assert "blue-y" not in g.state.armies


def test_a_garrison_never_retreats_and_falls_with_its_base() -> None:
    armies = army_block("red-x", "red", "6,5", units=("trooper",))
    g = field(armies, bases=GARRISONED)
    events = g.when(MoveArmy(player="red", army="red-x", to="7,5"))
    assert only(events, EngagementOffered).engagement.choices == ("attack", "delay", "siege")
    g.when(Engage(player="red", choice="attack"))
    g.when(SetUpBattle(player="red"))
    g.when(SetUpBattle(player="blue"))
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(CommitArmy(player="blue", army="blue-hq-garrison"), dice=[6, 6, 6, 1, 1, 1])
    # each trooper deals the other 1 damage of its 2 (2 successes against 1); red-x, far from
    # its HQ, is out of supply: its trooper strikes and defends with 2 dice (AE-69)
    hit = [6, 6, 6, 1, 1]
    g.when(Attack(player="red", unit="red.trooper.1", target="blue.trooper.1"), dice=hit)
    g.when(
        Attack(player="blue", unit="blue.trooper.1", target="red.trooper.1"),
        dice=[6, 6, 1, 6, 1],
    )
    g.when(NextRound(player="red", choice="continue"))
    events = g.when(NextRound(player="blue", choice="retreat_army"))
    chosen = only(events, NextRoundChosen)
    # no retreat challenge for a garrison (p.34); with no army left blue has lost
    assert chosen.garrisons == ("blue-hq-garrison",) and not chosen.battle.retreats
    assert only(events, BattleEnded).winner == "red"
    destroyed = only(events, ArmyDestroyed)
    assert destroyed.army == "blue-hq-garrison"
    assert destroyed.why == (
        "its retreat was chosen, and a garrison never retreats: its battle is lost (p.34)"
    )
    captured = only(events, BaseCaptured)
    assert (captured.base, captured.empire) == ("blue-hq", "red")


def garrison_fought_to_its_last_unit(version: int | None = None) -> list[Any]:
    """Blue's HQ garrisoned by the warden and a trooper; red-x attacks and its trooper destroys
    blue's at once: the events of that strike."""
    g = field(
        army_block("red-x", "red", "6,5", units=("trooper",)),
        bases=GARRISONED.replace('garrison = ["trooper"]', 'garrison = ["warden", "trooper"]'),
    )
    if version is not None:
        g.state = replace(g.state, rules_version=version)
    g.when(MoveArmy(player="red", army="red-x", to="7,5"))
    g.when(Engage(player="red", choice="attack"))
    g.when(SetUpBattle(player="red"))
    g.when(SetUpBattle(player="blue"))
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(CommitArmy(player="blue", army="blue-hq-garrison"), dice=[6, 6, 6, 1, 1, 1])
    # 3 successes against none, 2 since version 26 (red-x far from its HQ is out of supply,
    # AE-69): the trooper's 2 hit points gone
    strike = [6, 6, 6, 1, 1, 1] if version is not None else [6, 6, 1, 1, 1]
    events = g.when(
        Attack(player="red", unit="red.trooper.1", target="blue.trooper.1"), dice=strike
    )
    while (waiting := RULESET.decision(g.state)) is not None and waiting.kind == "challenge":
        events += g.when(AcceptChallenge(player=waiting.players[0]))
    return events


def test_a_garrison_that_fights_to_its_last_unit_gives_up_its_hero_as_a_prisoner() -> None:
    # given blue's garrison of a hero and a trooper, when red destroys the trooper
    events = garrison_fought_to_its_last_unit()
    # then blue has lost, its garrison is not destroyed (its retreat was never chosen, p.34)
    # and the warden is taken prisoner with the base (AE-34), not discarded
    assert only(events, BattleEnded).winner == "red"
    assert not [e for e in events if isinstance(e, ArmyDestroyed)]
    captured = only(events, BaseCaptured)
    assert (captured.base, captured.empire, captured.taken) == (
        "blue-hq",
        "red",
        ("blue.warden.1",),
    )
    assert captured.explain().endswith("; taken prisoner: blue.warden.1")


def test_a_game_of_version_11_keeps_its_rules_the_garrison_and_its_hero_destroyed() -> None:
    events = garrison_fought_to_its_last_unit(version=11)
    destroyed = only(events, ArmyDestroyed)
    assert (destroyed.army, destroyed.cards) == ("blue-hq-garrison", ("blue.warden.1",))
    assert destroyed.why == "a garrison never retreats, and its battle is lost (p.34)"
    assert only(events, BaseCaptured).taken == ()


def test_a_pursuers_pool_that_trickster_takes_below_nothing_rolls_no_dice() -> None:
    # given blue's Trickster 2 facing red's wagon, whose printed attack is 0
    armies = VERSUS_FOX.replace('units = ["lancer", "plated"]', 'units = ["wagon"]')
    g = committed(attack_at(field(armies), "red-x", "4,0"))
    # when blue retreats before round one (p.34)
    events = g.when(NextRound(player="blue", choice="retreat_army"), dice=[6])
    opened = only(events, ChallengeOpened).challenge
    # then the pursuers have 0 + 1 − 2 dice: none, for a pool never goes below 0 (R3, R8)
    assert [t.value for t in opened.attacker.pool.terms] == [0, 1, -2]
    assert opened.attacker.pool.size == 0 and opened.attacker.faces == ()
    assert opened.attacker.pool.text().startswith("0 = ")
    assert opened.attacker.pool.text().endswith("(a pool never goes below 0, R3)")
    # and the plated, unharmed, ends its challenge with the prerogative (R5)
    assert only(g.when(TakePrerogative(player="blue")), RetreatEnded).damage == 0


#: a unit that may stealth (p.27), for a red army hidden beside the battle
CREEPER = """
[[cards]]
kind = "unit"
id = "creeper"
name = "Test Creeper"
attack = 2
defense = 1
hit_points = 2
movement = 2
abilities = ["Stealth 3"]
"""
#: a hero with no fate and no ability
DRUMMER = """
[[cards]]
kind = "hero"
id = "drummer"
name = "Test Drummer"
fate = 0
wounds = 2
movement = 3
"""


def test_a_stealthed_enemy_army_does_not_bar_a_beaten_army_s_retreat() -> None:
    # blue's army in the corner 7,0; red armies that can fight stand on every neighbour, but
    # the one at 7,1 is stealthed
    armies = (
        CREEPER
        + army_block("red-x", "red", "6,0", units=("lancer",))
        + army_block("red-w1", "red", "6,0", units=("trooper",))
        + army_block("red-w2", "red", "6,1", units=("trooper",))
        + army_block("red-w3", "red", "7,1", units=("creeper",))
        + "stealthed = true\n"
        + army_block("blue-y", "blue", "7,0", hero="fox", units=("plated",))
    )
    g = attack_at(field(armies), "red-x", "7,0")
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(CommitArmy(player="blue", army="blue-y"))
    # when blue retreats all and its plated comes through its retreat challenge unharmed
    g.when(NextRound(player="blue", choice="retreat_all"), dice=[1, 1, 1, 1])
    g.when(TakePrerogative(player="blue"))
    # then blue-y falls back into the stealthed army's hex: only un-stealthed combat-capable
    # enemy armies bar a retreat hex (p.34; AE-32)
    retreated = only(g.history, ArmyRetreated)
    assert (retreated.army, retreated.to) == ("blue-y", "7,1")
    assert not [e for e in g.history if isinstance(e, ArmyDestroyed)]


def test_a_game_of_version_12_already_keeps_a_garrison_that_fought_to_its_last_unit() -> None:
    # given a game begun under version 12, when red destroys the garrison's last unit
    events = garrison_fought_to_its_last_unit(version=12)
    # then the garrison is not destroyed and its hero is taken with the base (AE-32, AE-34:
    # since version 12)
    assert not [e for e in events if isinstance(e, ArmyDestroyed)]
    assert only(events, BaseCaptured).taken == ("blue.warden.1",)


@pytest.mark.parametrize("joins", [True, False], ids=["joins", "stays-out"])
def test_the_winner_s_army_in_the_fight_hunts_a_hero_the_loser_leaves_alone(joins: bool) -> None:
    # given red-x attacks blue's drummer and trooper at 4,0, where red's stealthed red-a
    # (whose id sorts first) joins the battle or stays out of it, and red-x fights
    armies = (
        CREEPER
        + DRUMMER
        + army_block("red-x", "red", "3,0", units=("lancer",))
        + army_block("red-a", "red", "4,0", units=("creeper",))
        + "stealthed = true\n"
        + army_block("blue-y", "blue", "4,0", hero="drummer", units=("trooper",))
    )
    g = field(armies)
    g.when(MoveArmy(player="red", army="red-x", to="4,0"))
    g.when(Engage(player="red", choice="attack"))
    g.when(SetUpBattle(player="red", join=("red-a",) if joins else ()))
    g.when(SetUpBattle(player="blue"))
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(CommitArmy(player="blue", army="blue-y"), dice=[6, 6, 6, 1, 1, 1])
    # when the lancer destroys the trooper (4 successes against none), leaving the drummer alone
    events = g.when(
        Attack(player="red", unit="red.lancer.1", target="blue.trooper.1"), dice=[6] * 4 + [1] * 3
    )
    # then red-x, the winner's army in the fight, hunts him (p.34; AE-33), every red army in
    # the hex taking part, red-a too though it stayed out of the battle: a Capture Kill in a hex
    # destealths every friendly stealthed army there (p.30)
    began = only(events, CaptureKillBegan)
    assert (began.frame.army, began.frame.target) == ("red-x", "blue.drummer.1")
    assert began.hunting_armies == ("red-a", "red-x")
    if not joins:
        assert began.destealthed == ("red-a",)
    assert not g.state.armies["red-a"].stealthed


#: the two strongholds of every ``retreat_hex`` case: red's at 0,0, blue's at 7,5
STRONGHOLDS = base_block("red-hq", "red", "0,0") + base_block("blue-hq", "blue", "7,5")
#: blue's beaten army at 4,0, whose neighbours on the map are 3,0, 3,1, 4,1 and 5,0
BEATEN = army_block("blue-y", "blue", "4,0", units=("trooper",))


def blue_y_retreats(bases: str = "", armies: str = "") -> tuple[str, str] | None:
    """Given the strongholds, ``bases`` and ``armies`` besides blue-y at 4,0: where blue-y
    would retreat to and toward which base (AE-32)."""
    g = game(bases=STRONGHOLDS + bases, armies=BEATEN + armies)
    return retreat_hex(g.state, g.state.armies["blue-y"])


def eight_blue_at(at: str, count: int = 8) -> str:
    return "".join(army_block(f"blue-s{i}", "blue", at, units=("trooper",)) for i in range(count))


@pytest.mark.parametrize(
    ("bases", "armies", "expected"),
    [
        # 4,1 and 5,0 are 7 hexes from blue-hq, 3,1 8 and 3,0 9: the tie goes to the name
        ("", "", ("4,1", "blue-hq")),
        # an outpost at 0,2 is 3 hexes from 3,0 and 3,1, nearer than blue-hq from anywhere
        (base_block("blue-camp", "blue", "0,2", "camp", "outpost"), "", ("3,0", "blue-camp")),
        # a base on blue-y's own hex is not the one it falls back toward
        (base_block("blue-camp", "blue", "4,0", "camp", "outpost"), "", ("4,1", "blue-hq")),
        # an enemy base bars its hex
        (base_block("red-camp", "red", "4,1", "camp", "outpost"), "", ("5,0", "blue-hq")),
        # a hex already holding 8 armies of blue is full; 7 leave room
        ("", eight_blue_at("4,1"), ("5,0", "blue-hq")),
        ("", eight_blue_at("4,1", 7), ("4,1", "blue-hq")),
        # an enemy hero alone cannot fight and bars nothing
        ("", army_block("red-lone", "red", "4,1", hero="runner"), ("4,1", "blue-hq")),
    ],
    ids=[
        "nearest-to-the-stronghold",
        "nearest-base-wins",
        "not-toward-its-own-hex",
        "enemy-base",
        "eight-own-armies",
        "seven-own-armies",
        "enemy-hero-alone",
    ],
)
def test_a_beaten_army_retreats_to_the_free_neighbour_nearest_its_nearest_base(
    bases: str, armies: str, expected: tuple[str, str]
) -> None:
    """AE-32 (p.34): the neighbour on the map nearest its empire's nearest stronghold or
    outpost, holding no enemy base, no combat-capable enemy army that is not stealthed, and
    fewer than 8 armies of its empire; ties by the hex's name."""
    assert blue_y_retreats(bases, armies) == expected


def test_a_beaten_army_whose_only_base_is_in_its_own_hex_retreats_to_the_first_free_neighbour() -> (
    None
):
    """AE-32: with no other stronghold or outpost to fall back toward (blue's HQ, where the
    battle was fought, is its only base), every free neighbour is as good: the first by name."""
    g = game(
        bases=base_block("red-hq", "red", "0,0") + base_block("blue-hq", "blue", "4,0"),
        armies=BEATEN,
    )
    assert retreat_hex(g.state, g.state.armies["blue-y"]) == ("3,0", "")


def test_retreat_army_takes_only_the_army_in_the_fight_and_leaves_the_others_in_the_battle() -> (
    None
):
    """p.34: given blue-y fighting and blue-z beside it at 4,0, when blue chooses to retreat
    its army, then only blue-y retreats (its two units each face a retreat challenge) and
    blue-z stays in the battle, to be committed next."""
    armies = VERSUS_FOX + army_block("blue-z", "blue", "4,0", units=("trooper",))
    g = committed(attack_at(field(armies), "red-x", "4,0"))
    events = g.when(NextRound(player="blue", choice="retreat_army"), dice=[6, 6, 1])
    chosen = only(events, NextRoundChosen)
    assert chosen.retreating == ("blue-y",)
    assert chosen.battle.defender.out == ("blue-y",)
    assert {item.army for item in chosen.battle.retreats} == {"blue-y"}
