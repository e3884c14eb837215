"""The manual's p.34 (seed 001) as golden games through the CLI, with a referee's dice, each on a
scenario of its own: a retreat challenge's pool (the average attack + 1 − Trickster, Composite
Armor ignored), a garrison's loss, an army with no free hex to retreat to, and a Trickster
retreating before round one.

No empire holds a card, and no hero has fate but where a test says so, so that a challenge ends
by automatic accepts (AE-20) unless a side has the prerogative or fate to spend.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_ae_golden_examples import Table
from tests.domain.armageddon_empires.helpers import army_block

#: the cards every scenario below draws on (our own test cards)
CARDS = """
[[cards]]
kind = "facility"
id = "hold"
name = "Hold"
defense = 3
structure = 5
abilities = ["HQ", "Supply"]

[[cards]]
kind = "facility"
id = "post"
name = "Way Post"
defense = 2
structure = 3
abilities = ["Supply"]

[[cards]]
kind = "unit"
id = "lancers"
name = "Iron Lancers"
attack = 5
defense = 2
hit_points = 3
movement = 3

[[cards]]
kind = "unit"
id = "pikes"
name = "Pikes"
attack = 2
defense = 2
hit_points = 3
movement = 3

[[cards]]
kind = "unit"
id = "skirmishers"
name = "Skirmishers"
attack = 1
defense = 1
hit_points = 1
movement = 3

[[cards]]
kind = "unit"
id = "plated"
name = "Plated Crawlers"
attack = 2
defense = 1
hit_points = 4
movement = 2
abilities = ["Composite Armor -1"]

[[cards]]
kind = "hero"
id = "fox"
name = "The Fox"
fate = 0
wounds = 2
movement = 3
abilities = ["Trickster 2"]

[[cards]]
kind = "hero"
id = "old-fox"
name = "The Old Fox"
fate = 1
wounds = 2
movement = 3
abilities = ["Trickster 2"]

[[empires]]
id = "red"
name = "The Pursuers"

[[empires]]
id = "blue"
name = "The Foxes"
"""


def scenario(name: str, armies: str, bases: str = "") -> str:
    """A 5 × 3 map of plains (terrain adds nothing to a defence, R12), red's HQ at 0,0 and
    blue's at 4,2, with ``bases`` and ``armies`` as the example needs."""
    return f"""# p.34 of the manual: {name}, as a scenario of its own.
name = "{name}"
max_rounds = 3
public_setup = true

[map]
width = 5
height = 3
rows = [
  ". . . . .",
  ". . . . .",
  ". . . . .",
]
{CARDS}
[[bases]]
id = "red-hold"
empire = "red"
kind = "stronghold"
at = "0,0"
card = "hold"

[[bases]]
id = "blue-hold"
empire = "blue"
kind = "stronghold"
at = "4,2"
card = "hold"
{bases}{armies}"""


def legal(t: Table, player: str) -> list[dict]:  # type: ignore[type-arg]
    """What the game waits for from ``player``, as the CLI lists it."""
    text = t.ok("legal", t.game, "--as", player, "--json")
    return [json.loads(line) for line in text.splitlines()]


def kinds(t: Table, player: str) -> list[str]:
    return [c["type"] for c in legal(t, player)]


def last_of(t: Table, kind: str) -> dict:  # type: ignore[type-arg]
    return [e for e in t.events() if e["type"] == kind][-1]


def open_battle(t: Table, mover: str, to: str) -> list[str]:
    """Round 1: red wins the initiative tie-break (6 to 1); ``mover`` walks into blue's army at
    ``to`` (contact, AE-17), attacks, and neither side has a stealthed army to join (AE-26).
    Returns the engagement's choices that red was offered (AE-25)."""
    t.play(type="buy_initiative", player="red", count=0)
    t.play(type="buy_initiative", player="blue", count=0, dice=[6, 1])
    t.play(type="move_army", player="red", army=mover, to=to)
    offered = [c["choice"] for c in legal(t, "red") if c["type"] == "engage"]
    t.play(type="engage", player="red", choice="attack")
    assert kinds(t, "red") == ["set_up_battle"]
    t.play(type="set_up_battle", player="red")
    assert kinds(t, "blue") == ["set_up_battle"]
    t.play(type="set_up_battle", player="blue")
    return offered


def lancers_against_pikes(t: Table, blue_army: str, lancer_dice: list[int]) -> None:
    """Round 1 of red's Lancers against blue's Pikes, neither side with a Trickster: blue commits
    ``blue_army`` and the round begins at once (p.34), red winning the initiative, [6, 6, 1] = 2
    successes to [6, 1, 1] = 1 (R13); the Lancers' 5 dice ``lancer_dice`` strike the Pikes'
    defence 2, rolled [1, 1]; the Pikes' 2 dice [1, 1] miss the Lancers' defence 2, [1, 1], so
    red, the defender then, may take the Defender's Prerogative (R5), and accepts; red then
    chooses to continue."""
    t.play(type="commit_army", player="blue", army=blue_army, dice=[6, 6, 1, 6, 1, 1])
    assert last_of(t, "battle_round_began")["data"]["battle"]["round"] == 1
    attack = {"type": "attack", "player": "red", "unit": "red.lancers.1", "target": "blue.pikes.1"}
    t.play(**attack, dice=[*lancer_dice, 1, 1])
    t.play(type="attack", player="blue", unit="blue.pikes.1", target="red.lancers.1", dice=[1] * 4)
    assert kinds(t, "red") == ["take_prerogative", "accept_challenge"]
    t.play(type="accept_challenge", player="red")
    t.play(type="next_round", player="red", choice="continue")


# ---------------------------------------------------------------------- the retreat pool

RETREAT_POOL = army_block(
    "red-column", "red", "1,1", units=("lancers", "pikes", "skirmishers")
) + army_block("blue-foxes", "blue", "2,1", hero="fox", units=("plated",))


def test_p34_retreat_pool_is_the_average_attack_left_plus_1_minus_trickster_2_no_armor(
    tmp_path: Path,
) -> None:
    t = Table(tmp_path, scenario("p34-retreat-pool", RETREAT_POOL), "pool")
    assert open_battle(t, "red-column", "2,1") == ["attack", "delay"]
    t.play(type="commit_army", player="red", army="red-column")
    t.play(type="commit_army", player="blue", army="blue-foxes")
    # the Fox's army may retreat before round one (a Trickster, p.34); red's may not (it must
    # fight one round first): blue alone is asked, and continues
    assert kinds(t, "red") == []
    assert {c["choice"] for c in legal(t, "blue")} == {"continue", "retreat_army", "retreat_all"}
    # round 1's initiative: red [6, 6, 1] = 2 successes, blue [6, 1, 1] = 1: red strikes first
    t.play(type="next_round", player="blue", choice="continue", dice=[6, 6, 1, 6, 1, 1])
    # the Lancers' 4 dice (5 − 1: red-column's three units are one over its Command Rating of
    # 2, AE-68) [6, 1, 1, 1] = 1 success against the Crawlers' defence 1, [1]: 1 damage − 1 for
    # Composite Armor −1 = 0 in a Ground Combat Challenge (AE-29)
    t.play(
        type="attack",
        player="red",
        unit="red.lancers.1",
        target="blue.plated.1",
        dice=[6, 1, 1, 1, 1],
    )
    assert t.rule(last_of(t, "attack_ended")["seq"]) == [
        "red.lancers.1's strike at blue.plated.1: 1 damage -1 (Composite Armor -1) = 0 "
        "(battle 1; R5, AE-29)"
    ]
    # the Crawlers' 2 dice [6, 1] against the Skirmishers' defence 1 − 1 (AE-68), no dice: 1
    # damage of 1 hit point, the Skirmishers are destroyed (both accept automatically, AE-20)
    t.play(
        type="attack",
        player="blue",
        unit="blue.plated.1",
        target="red.skirmishers.1",
        dice=[6, 1],
    )
    destroyed = last_of(t, "card_damaged")["data"]
    assert (destroyed["card"], destroyed["destroyed"]) == ("red.skirmishers.1", True)
    # red-column, two units now, is within its rating: the Pikes' 2 dice [1, 1] miss the
    # Crawlers' [1]: no damage, so blue, the defender, may take
    # the Defender's Prerogative (R5) and is asked; it accepts
    assert kinds(t, "red") == ["attack"]
    t.play(type="attack", player="red", unit="red.pikes.1", target="blue.plated.1", dice=[1, 1, 1])
    assert kinds(t, "blue") == ["take_prerogative", "accept_challenge"]
    t.play(type="accept_challenge", player="blue")
    assert "battle_round_ended" in [e["type"] for e in t.events()]
    t.play(type="next_round", player="red", choice="continue")
    # the pursuers' pool (R8, p.34; AE-28): the average printed attack of red-column as it now
    # stands, Lancers 5 and Pikes 2 (the Skirmishers' 1 is gone): (5 + 2) / 2 = 3.5, rounded
    # down 3; + 1 = 4; − Trickster 2 = 2 dice, [6, 6] = 2 successes against the Crawlers'
    # defence 1, [1]: 2 damage, and Composite Armor −1 does not take one off (p.34)
    t.play(type="next_round", player="blue", choice="retreat_army", dice=[6, 6, 1])
    opened = last_of(t, "challenge_opened")
    assert t.rule(opened["seq"])[1:5] == [
        "challenge 4 (battle 1 retreat, opposed; round 1)",
        "pursuers of blue-foxes (red) pool 2 = 3 (average attack of red-column: (5 + 2) / 2 "
        "rounded down (R8; AE-28)) + 1 (+1, p.34) − 2 (Trickster 2 of The Fox, p.34)",
        "Plated Crawlers (blue.plated.1) (blue) pool 1 = 1 (defense of Plated Crawlers)",
        "- rolled: pursuers of blue-foxes [6, 6] = 2 successes; Plated Crawlers (blue.plated.1) "
        "[1] = 0 successes",
    ]
    damaged = last_of(t, "card_damaged")
    assert (damaged["data"]["card"], damaged["data"]["amount"]) == ("blue.plated.1", 2)
    assert t.rule(damaged["seq"]) == [
        "blue.plated.1 takes 2 damage (no modifier, p.34) in challenge 4: 2 of 4 (a card is "
        "destroyed and discarded when its damage reaches its hit, wound or structure points: "
        "p.17–19, p.31, p.34; AE-24)"
    ]
    assert t.rule(last_of(t, "retreat_ended")["seq"]) == [
        "blue.plated.1 takes 2 damage while retreating: no damage modifier applies in a retreat "
        "challenge (p.34; R8)"
    ]
    # blue has no army left in the fight: it has lost, and the Fox's army falls back one hex
    # toward blue-hold (4,2), to 2,2, the neighbour of 2,1 nearest to it (AE-32)
    assert t.rule(last_of(t, "army_retreated")["seq"]) == [
        "blue-foxes of blue retreats 2,1 → 2,2 toward blue-hold, into a hex free of enemy bases "
        "and of combat-capable enemy armies that are not stealthed (p.34; AE-32)"
    ]
    assert t.rule(last_of(t, "battle_ended")["seq"]) == [
        "battle 1 at 2,1 ends: blue has no combat-capable army left to fight; red wins and "
        "controls the hex and its facilities (p.34; AE-32)"
    ]
    # both views: the battle is over, the Crawlers carry the 2 damage at 2,2, and red holds
    # 2,1 with what is left of its column (the Skirmishers in its discard pile)
    for player in ("red", "blue"):
        view = t.view(player)
        assert view["frames"] == [] and view["damage"] == {"blue.plated.1": 2}
        assert view["armies"]["blue-foxes"]["at"] == "2,2"
        assert view["armies"]["blue-foxes"]["units"] == ["blue.plated.1"]
        assert view["armies"]["red-column"]["at"] == "2,1"
        assert view["armies"]["red-column"]["units"] == ["red.lancers.1", "red.pikes.1"]
        assert view["empires"]["red"]["discard"] == ["red.skirmishers.1"]
    assert "no findings" in t.ok("audit", "pool")


# ---------------------------------------------------------------------- a garrison's loss

#: blue's outpost at 2,1, garrisoned by Pikes, one hex from red's Lancers
OUTPOST = """
[[bases]]
id = "blue-post"
empire = "blue"
kind = "outpost"
at = "2,1"
card = "post"
garrison = ["pikes"]
"""


def test_p34_a_garrison_never_retreats_and_is_destroyed_when_its_battle_is_lost(
    tmp_path: Path,
) -> None:
    t = Table(
        tmp_path,
        scenario(
            "p34-garrison", army_block("red-column", "red", "1,1", units=("lancers",)), OUTPOST
        ),
        "garrison",
    )
    # where a base stands the mover may also lay siege (p.26; AE-25)
    assert open_battle(t, "red-column", "2,1") == ["attack", "delay", "siege"]
    t.play(type="commit_army", player="red", army="red-column")
    # round 1 (no Trickster: it begins at once): the Lancers' [6, 6, 1, 1, 1] = 2 successes
    # against the Pikes' [1, 1]: 2 damage of their 3 hit points; the Pikes miss
    lancers_against_pikes(t, "blue-post-garrison", [6, 6, 1, 1, 1])
    assert t.view("blue")["damage"] == {"blue.pikes.1": 2}
    # blue chooses to retreat its garrison: it only leaves the fight, with no retreat challenge
    # (p.34); blue has no other army, so it has lost, and the garrison falls with the outpost
    t.play(type="next_round", player="blue", choice="retreat_army")
    chosen = last_of(t, "next_round_chosen")
    assert chosen["data"]["garrisons"] == ["blue-post-garrison"]
    after = [e["type"] for e in t.events() if e["seq"] > chosen["seq"]]
    assert after == [
        "battle_advanced",
        "battle_advanced",
        "army_destroyed",
        "base_captured",
        "battle_ended",
    ]
    assert t.rule(chosen["seq"]) == [
        "blue retreats the army in the fight (battle 1, p.34; AE-31): blue-post-garrison; the "
        "garrison blue-post-garrison never retreats: it leaves the fight and falls if the battle "
        "is lost (p.34)"
    ]
    destroyed = last_of(t, "army_destroyed")
    assert destroyed["data"]["cards"] == ["blue.pikes.1"]
    assert t.rule(destroyed["seq"]) == [
        "blue-post-garrison of blue at 2,1 is destroyed (its retreat was chosen, and a garrison "
        "never retreats: its battle is lost (p.34)); discarded: blue.pikes.1"
    ]
    assert t.rule(last_of(t, "base_captured")["seq"]) == [
        "red captures blue's blue-post at 2,1 by winning battle 1 (p.34; AE-34)"
    ]
    assert t.rule(last_of(t, "battle_ended")["seq"]) == [
        "battle 1 at 2,1 ends: blue has no combat-capable army left to fight; red wins and "
        "controls the hex and its facilities (p.34; AE-32)"
    ]
    # both views: the outpost is red's, the Pikes in blue's discard pile, their damage gone
    red, blue = t.view("red"), t.view("blue")
    for view in (red, blue):
        assert view["frames"] == [] and view["damage"] == {}
        assert view["bases"]["blue-post"]["empire"] == "red"
        assert view["empires"]["blue"]["discard"] == ["blue.pikes.1"]
        assert view["armies"]["red-column"]["units"] == ["red.lancers.1"]
    # red raised a new, empty garrison there (AE-34), which blue does not see
    assert red["armies"]["blue-post-garrison"]["empire"] == "red"
    assert red["armies"]["blue-post-garrison"]["units"] == []
    assert "blue-post-garrison" not in blue["armies"]
    assert "no findings" in t.ok("audit", "garrison")


# ---------------------------------------------------------------------- no hex to retreat to

#: blue's Pikes in the corner 4,0; red's Lancers attack from 3,0, and red armies able to fight
#: stand, not stealthed, in every other hex next to it: 3,0 (behind the Lancers), 3,1 and 4,1
CORNERED = (
    army_block("red-column", "red", "3,0", units=("lancers",))
    + army_block("red-wall-a", "red", "3,0", units=("pikes",))
    + army_block("red-wall-b", "red", "3,1", units=("pikes",))
    + army_block("red-wall-c", "red", "4,1", units=("skirmishers",))
    + army_block("blue-band", "blue", "4,0", units=("pikes",))
)


def test_p34_an_army_with_no_hex_free_of_unstealthed_fighting_enemies_is_destroyed(
    tmp_path: Path,
) -> None:
    t = Table(tmp_path, scenario("p34-cornered", CORNERED), "cornered")
    assert open_battle(t, "red-column", "4,0") == ["attack", "delay"]
    # only the armies in the hex take part (AE-26)
    began = last_of(t, "battle_began")["data"]["battle"]
    assert (began["attacker"]["armies"], began["defender"]["armies"]) == (
        ["red-column"],
        ["blue-band"],
    )
    t.play(type="commit_army", player="red", army="red-column")
    # round 1 (no Trickster: no choice before it, p.34): the Lancers' [6, 1, 1, 1, 1] = 1
    # success against the Pikes' [1, 1]: 1 damage of 3; the Pikes miss
    lancers_against_pikes(t, "blue-band", [6, 1, 1, 1, 1])
    # blue retreats all: the pursuers' pool is the Lancers' 5 / 1 = 5, + 1 = 6 dice (R8;
    # AE-28), [6, 1, 1, 1, 1, 1] = 1 success against the Pikes' defence 2, [1, 1]: 1 more damage,
    # 2 of 3; the Pikes survive the challenge ...
    t.play(type="next_round", player="blue", choice="retreat_all", dice=[6, 1, 1, 1, 1, 1, 1, 1])
    opened = last_of(t, "challenge_opened")
    assert t.rule(opened["seq"])[2] == (
        "pursuers of blue-band (red) pool 6 = 5 (average attack of red-column: (5) / 1 rounded "
        "down (R8; AE-28)) + 1 (+1, p.34)"
    )
    assert last_of(t, "retreat_ended")["data"]["damage"] == 1
    # ... but every neighbour of 4,0 on the map (3,0, 3,1 and 4,1) holds a red army that can
    # fight and is not stealthed: blue-band has nowhere to go and is destroyed (p.34; AE-32)
    destroyed = last_of(t, "army_destroyed")
    assert destroyed["data"]["army"] == "blue-band"
    assert destroyed["data"]["cards"] == ["blue.pikes.1"]
    assert t.rule(destroyed["seq"]) == [
        "blue-band of blue at 4,0 is destroyed (no neighbour is free of enemy bases and of "
        "un-stealthed combat-capable enemies with room for it (p.34; AE-32)); discarded: "
        "blue.pikes.1"
    ]
    assert "army_retreated" not in [e["type"] for e in t.events()]
    assert t.rule(last_of(t, "battle_ended")["seq"]) == [
        "battle 1 at 4,0 ends: blue retreated all its armies; red wins and controls the hex and "
        "its facilities (p.34; AE-32)"
    ]
    for player in ("red", "blue"):
        view = t.view(player)
        assert view["frames"] == [] and view["damage"] == {}
        assert "blue-band" not in view["armies"]
        assert view["empires"]["blue"]["discard"] == ["blue.pikes.1"]
    assert t.view("red")["armies"]["red-column"]["at"] == "4,0"
    assert "no findings" in t.ok("audit", "cornered")


# ---------------------------------------------------------------------- a Trickster's early exit

#: red's two Lancers and Skirmishers one hex from the Old Fox (Trickster 2, fate 1) with the
#: Plated Crawlers and Pikes
TRICKSTER = army_block(
    "red-column", "red", "1,1", units=("lancers", "lancers", "skirmishers")
) + army_block("blue-foxes", "blue", "2,1", hero="old-fox", units=("plated", "pikes"))


def test_p34_a_trickster_retreats_before_round_one_and_its_fate_is_not_reset_between_challenges(
    tmp_path: Path,
) -> None:
    t = Table(tmp_path, scenario("p34-trickster", TRICKSTER), "trickster")
    open_battle(t, "red-column", "2,1")
    t.play(type="commit_army", player="red", army="red-column")
    t.play(type="commit_army", player="blue", army="blue-foxes")
    # no round has been fought: only the Trickster's side may retreat now (p.34; AE-31)
    assert kinds(t, "red") == []
    assert {c["choice"] for c in legal(t, "blue")} == {"continue", "retreat_army", "retreat_all"}
    # the pursuers' pool (R8; AE-28): (5 + 5 + 1) / 3 = 3.67, rounded down 3, + 1 = 4, −
    # Trickster 2 = 2 dice; against the Pikes first (an army's units in the order of their ids,
    # AE-63): [6, 1] = 1 success to their [1, 1] = 0
    t.play(type="next_round", player="blue", choice="retreat_army", dice=[6, 1, 1, 1])
    chosen = last_of(t, "next_round_chosen")
    assert (chosen["data"]["choice"], chosen["data"]["retreating"]) == (
        "retreat_army",
        ["blue-foxes"],
    )
    assert t.rule(chosen["seq"]) == [
        "blue retreats the army in the fight (battle 1, p.34; AE-31): blue-foxes; 2 retreat "
        "challenges to come (R8)"
    ]
    assert "battle_round_began" not in [e["type"] for e in t.events()]
    first = last_of(t, "challenge_opened")
    assert t.rule(first["seq"])[2] == (
        "pursuers of blue-foxes (red) pool 2 = 3 (average attack of red-column: (5 + 5 + 1) / 3 "
        "rounded down (R8; AE-28)) + 1 (+1, p.34) − 2 (Trickster 2 of The Old Fox, p.34)"
    )
    # the Old Fox's 1 fate re-rolls one of the Pikes' failed dice: [6], 1 success to 1, no
    # damage
    assert kinds(t, "blue") == ["spend_fate", "accept_challenge"]
    t.play(type="spend_fate", player="blue", count=1, dice=[6])
    assert t.rule(last_of(t, "retreat_ended")["seq"]) == [
        "blue.pikes.1 gets away unhurt (retreat challenge, p.34)"
    ]
    # the Crawlers' retreat rolls in a command of red's own (AE-37): 2 pursuers' dice and the
    # Crawlers' defence 1
    assert t.rule(last_of(t, "roll_awaited")["seq"]) == [
        "the game waits for red to roll 3 dice (battle 1: the retreat of Plated Crawlers "
        "(blue.plated.1)): every die a command rolls is counted before any is rolled, so this "
        "roll is a command of its own (AE-37)"
    ]
    assert kinds(t, "red") == ["roll"]
    # [6, 6] = 2 successes against [1]: 2 damage of 4 (no Composite Armor in a retreat, p.34).
    # The fate is not reset (p.34): the Old Fox has none left, and blue accepts automatically
    # (AE-20)
    t.play(type="roll", player="red", dice=[6, 6, 1])
    second = [e for e in t.events() if e["type"] == "challenge_accepted"][-2:]
    assert [(e["data"]["empire"], e["data"]["automatic"]) for e in second] == [
        ("blue", True),
        ("red", True),
    ]
    assert t.rule(second[0]["seq"])[0].startswith(
        "blue (defender) accepts automatically: no prerogative, no fate to re-roll a failed die"
    )
    assert [e["type"] for e in t.events()].count("fate_spent") == 1
    damaged = last_of(t, "card_damaged")["data"]
    assert (damaged["card"], damaged["amount"], damaged["total"]) == ("blue.plated.1", 2, 2)
    # blue has no army left in the fight and has lost; the Foxes fall back toward blue-hold
    retreated = last_of(t, "army_retreated")["data"]
    assert (retreated["army"], retreated["origin"], retreated["to"]) == ("blue-foxes", "2,1", "2,2")
    for player in ("red", "blue"):
        view = t.view(player)
        assert view["frames"] == [] and view["damage"] == {"blue.plated.1": 2}
        assert view["armies"]["blue-foxes"]["at"] == "2,2"
    assert "no findings" in t.ok("audit", "trickster")
