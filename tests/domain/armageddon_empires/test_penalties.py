"""An army's penalties in battle since version 26 (p.8, p.16, p.26, p.46; AE-68, AE-69): a die
of attack and defence fewer per unit card over its Command Rating, and one each out of supply.
The set-up: ``battle_helpers`` (red's HQ at 0,0: red-x at 3,0 is in supply, at 6,3 out of it).
"""

from __future__ import annotations

from msgspec.structs import replace

from tests.domain.armageddon_empires.battle_helpers import GARRISONED, attack_at, field, fought
from tests.domain.armageddon_empires.helpers import army_block, only, sight
from tests.given_when_then import Given
from warlog.domain.armageddon_empires import battlefield as bf
from warlog.domain.armageddon_empires.challenge_events import ChallengeOpened
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    Attack,
    CommitArmy,
    EndTurn,
    Engage,
    MoveArmy,
    SetUpBattle,
    TransferCards,
)
from warlog.domain.armageddon_empires.events import SupplyTraced
from warlog.domain.armageddon_empires.penalties import command_rating, over_command
from warlog.domain.armageddon_empires.ruleset import RULESET

MORE_CARDS = """
[[cards]]
kind = "hero"
id = "marshal"
name = "Test Marshal"
fate = 0
wounds = 2
movement = 3
command = 4

[[cards]]
kind = "unit"
id = "horde"
name = "Test Horde"
attack = 2
defense = 2
hit_points = 2
movement = 2
abilities = ["Wave Attack"]

[[cards]]
kind = "unit"
id = "raider"
name = "Test Raider"
attack = 3
defense = 2
hit_points = 2
movement = 2
abilities = ["Commando"]
"""

OVER = "of red-x over its Command Rating 2 without a hero, p.8, p.16, AE-68"
UNSUPPLIED = "out of supply since red's turn began, p.26, AE-69"


def pools(events: list) -> tuple[str, str]:
    """The attacker's and the defender's pool of the strike's challenge, as explained."""
    challenge = only(events, ChallengeOpened).challenge
    assert challenge.defender is not None
    return challenge.attacker.pool.text(), challenge.defender.pool.text()


def red_strikes(
    red: tuple[str, ...], dice: int, blue: tuple[str, ...] = ("trooper",), hero: str | None = None
) -> list:
    """Red's red-x (``red``, led by ``hero``) at 3,0, in supply, attacks blue-y (``blue``) at
    4,0 and strikes blue's first trooper with its first unit, rolling ``dice`` in all: the
    events."""
    armies = army_block("red-x", "red", "3,0", hero=hero, units=red)
    g = fought(MORE_CARDS + armies + army_block("blue-y", "blue", "4,0", units=blue))
    unit = f"red.{red[0]}.1"
    return g.when(Attack(player="red", unit=unit, target="blue.trooper.1"), dice=[1] * dice)


def settled(g: Given) -> Given:
    """The open challenge ended: each side accepts (or the defender takes its prerogative)."""
    while (waiting := RULESET.decision(g.state)) is not None and waiting.kind == "challenge":
        g.when(AcceptChallenge(player=waiting.players[0]))
    return g


def out_of_supply(red: tuple[str, ...]) -> Given:
    """Red's red-x (``red``) at 6,3, out of supply since red's turn began, has attacked blue-y
    (a trooper) at 7,3, and both have committed, red first to strike."""
    armies = army_block("red-x", "red", "6,3", units=red)
    g = field(MORE_CARDS + armies + army_block("blue-y", "blue", "7,3", units=("trooper",)))
    assert g.state.empires["red"].out_of_supply == ("red-x",)
    attack_at(g, "red-x", "7,3")
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(CommitArmy(player="blue", army="blue-y"), dice=[6, 6, 6, 1, 1, 1])
    return g


def test_an_army_within_its_command_rating_strikes_at_full_strength() -> None:
    # given red-x of two lancers, no hero, in supply; when its lancer strikes
    attack, defense = pools(red_strikes(("lancer", "lancer"), dice=7))
    # then its pool is the lancer's attack alone
    assert attack == "4 = 4 (attack of Test Lancer)"
    assert defense == "3 = 3 (defense of Test Trooper)"


def test_an_army_over_its_command_rating_strikes_with_a_die_fewer_per_card_over() -> None:
    # given red-x of four lancers and no hero: two unit cards over its rating of 2 (p.8, p.16)
    attack, _ = pools(red_strikes(("lancer",) * 4, dice=5))
    # then each of its strikes rolls 2 dice fewer (AE-68)
    assert attack == f"2 = 4 (attack of Test Lancer) − 2 (2 unit cards {OVER})"


def test_a_unit_of_an_army_over_its_command_rating_defends_with_a_die_fewer_per_card_over() -> None:
    # given blue-y of three troopers and no hero, one over its rating; when red's lancer strikes
    _, defense = pools(red_strikes(("lancer",), dice=6, blue=("trooper",) * 3))
    # then the trooper defends with 3 - 1 (AE-68)
    over = "1 unit card of blue-y over its Command Rating 2 without a hero, p.8, p.16, AE-68"
    assert defense == f"2 = 3 (defense of Test Trooper) − 1 ({over})"


def test_a_pool_the_penalty_takes_below_nothing_rolls_no_dice() -> None:
    # given blue-y of six troopers, four over its rating
    _, defense = pools(red_strikes(("lancer",), dice=4, blue=("trooper",) * 6))
    # then the trooper's 3 defence less 4 is no dice, never fewer (R3)
    over = "4 unit cards of blue-y over its Command Rating 2 without a hero, p.8, p.16, AE-68"
    assert defense == (
        f"0 = 3 (defense of Test Trooper) − 4 ({over}) (a pool never goes below 0, R3)"
    )


def test_an_army_led_by_a_hero_commands_his_command_rating_in_unit_cards() -> None:
    # given red-x led by the marshal (Command Rating 4) with five lancers: one over, the hero
    # himself not counted
    attack, _ = pools(red_strikes(("lancer",) * 5, dice=6, hero="marshal"))
    # then its lancer strikes with 4 - 1 (p.16, AE-68)
    over = "1 unit card of red-x over its Command Rating 4 of Test Marshal, p.16, AE-68"
    assert attack == f"3 = 4 (attack of Test Lancer) − 1 ({over})"
    # and with four lancers it strikes at full strength
    attack, _ = pools(red_strikes(("lancer",) * 4, dice=7, hero="marshal"))
    assert attack == "4 = 4 (attack of Test Lancer)"


def test_wave_attack_units_neither_count_toward_the_command_rating_nor_take_its_penalty() -> None:
    # given red-x of two lancers and three Wave Attack hordes: within its rating of 2 (p.16)
    attack, _ = pools(red_strikes(("lancer", "lancer", "horde", "horde", "horde"), dice=7))
    assert attack == "4 = 4 (attack of Test Lancer)"
    # given three lancers and a horde: one over, and the horde strikes at full strength
    attack, _ = pools(red_strikes(("horde", "lancer", "lancer", "lancer"), dice=5))
    assert attack == "2 = 2 (attack of Test Horde)"
    attack, _ = pools(red_strikes(("lancer", "lancer", "lancer", "horde"), dice=6))
    assert attack == f"3 = 4 (attack of Test Lancer) − 1 (1 unit card {OVER})"


def test_a_multi_targeting_unit_splits_its_attack_points_less_the_penalty() -> None:
    # given red-x of a splitter (4 attack, Multi-targeting) and two lancers: one over its rating
    armies = army_block("red-x", "red", "3,0", units=("splitter", "lancer", "lancer"))
    blue = army_block("blue-y", "blue", "4,0", units=("trooper", "trooper"))
    g = fought(armies + blue)
    # then it splits 3 points: 1 or 2 on a trooper, or all 3 (AE-68, p.34)
    strengths = {
        c.strength
        for c in RULESET.legal_commands(g.state, "red")
        if isinstance(c, Attack) and c.unit == "red.splitter.1" and c.target == "blue.trooper.1"
    }
    assert strengths == {1, 2, None}
    events = g.when(
        Attack(player="red", unit="red.splitter.1", target="blue.trooper.1", strength=2),
        dice=[1] * 5,
    )
    attack, _ = pools(events)
    # and the label says how its 3 points come of its attack of 4, not that the 2 lose one more
    assert attack == (
        "2 = 2 (2 of the 3 attack points of Test Splitter (Multi-targeting, p.34; 3 = 4 attack "
        f"− 1 (1 unit card {OVER})))"
    )


def test_an_army_out_of_supply_strikes_and_defends_with_a_die_fewer() -> None:
    # given red-x's trooper, out of supply since red's turn began (p.26)
    g = out_of_supply(("trooper",))
    (red,), (blue,) = g.state.armies["red-x"].units, g.state.armies["blue-y"].units
    # when it strikes blue's trooper, then it rolls 3 - 1 (AE-69)
    events = g.when(Attack(player="red", unit=red, target=blue), dice=[1] * 5)
    attack, _ = pools(events)
    assert attack == f"2 = 3 (attack of Test Trooper) − 1 ({UNSUPPLIED})"
    # and the strike's explanation shows it in its arithmetic
    assert f"pool 2 = 3 (attack of Test Trooper) − 1 ({UNSUPPLIED})" in (
        only(events, ChallengeOpened).explain()
    )
    settled(g)
    # when blue's trooper strikes it back, then it defends with 3 - 1 (AE-69)
    events = g.when(Attack(player="blue", unit=blue, target=red), dice=[1] * 5)
    _, defense = pools(events)
    assert defense == f"2 = 3 (defense of Test Trooper) − 1 ({UNSUPPLIED})"


def test_commando_units_fight_out_of_supply_at_full_strength() -> None:
    # given red-x of a Commando raider and a lancer, out of supply
    g = out_of_supply(("raider", "lancer"))
    # then the raider strikes with its whole attack (p.46), the lancer would not
    events = g.when(
        Attack(player="red", unit="red.raider.1", target="blue.trooper.1"), dice=[1] * 6
    )
    attack, _ = pools(events)
    assert attack == "3 = 3 (attack of Test Raider)"


def test_an_army_out_of_supply_at_its_turn_s_start_defends_so_in_the_other_empire_s_turn() -> None:
    # given red-x out of supply at the start of red's turn, which has ended
    armies = army_block("red-x", "red", "6,3", units=("lancer",))
    g = field(armies + army_block("blue-y", "blue", "7,3", units=("trooper",)))
    g.when(EndTurn(player="red"))
    assert g.state.empires["red"].out_of_supply == ()  # the move limit is its own turn's (p.30)
    # when blue-y attacks it in blue's turn
    g.when(MoveArmy(player="blue", army="blue-y", to="6,3"))
    g.when(Engage(player="blue", choice="attack"))
    g.when(SetUpBattle(player="blue"))
    g.when(SetUpBattle(player="red"))
    g.when(CommitArmy(player="blue", army="blue-y"))
    g.when(CommitArmy(player="red", army="red-x"), dice=[6, 6, 6, 1, 1, 1])
    events = g.when(
        Attack(player="blue", unit="blue.trooper.1", target="red.lancer.1"), dice=[1] * 4
    )
    # then the lancer defends at its last trace's supply: out of it (AE-69)
    _, defense = pools(events)
    assert defense == f"1 = 2 (defense of Test Lancer) − 1 ({UNSUPPLIED})"


def test_a_garrison_fights_at_full_strength_whatever_its_size() -> None:
    # given blue's HQ garrisoned by three troopers, over the rating of 2 were it an army
    bases = GARRISONED.replace('["trooper"]', '["trooper", "trooper", "trooper"]')
    g = field(army_block("red-x", "red", "6,5", units=("lancer",)), bases=bases)
    attack_at(g, "red-x", "7,5")
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(CommitArmy(player="blue", army="blue-hq-garrison"), dice=[6, 6, 6, 1, 1, 1])
    # when red's lancer strikes one, then it defends with its whole defence (AE-68: a garrison
    # has no Command Rating to keep; AE-12: it is never traced for supply)
    events = g.when(
        Attack(player="red", unit="red.lancer.1", target="blue.trooper.1"), dice=[1] * 6
    )
    _, defense = pools(events)
    assert defense == "3 = 3 (defense of Test Trooper)"


def test_a_game_of_version_25_fights_without_penalties() -> None:
    # given a game begun under version 25, red-x of four lancers out of supply
    armies = army_block("red-x", "red", "6,3", units=("lancer",) * 4)
    g = field(armies + army_block("blue-y", "blue", "7,3", units=("trooper",)))
    g.state = replace(g.state, rules_version=25)
    attack_at(g, "red-x", "7,3")
    g.when(CommitArmy(player="red", army="red-x"))
    g.when(CommitArmy(player="blue", army="blue-y"), dice=[6, 6, 6, 1, 1, 1])
    # when its lancer strikes, then with its whole attack, as version 25 played it
    events = g.when(
        Attack(player="red", unit="red.lancer.1", target="blue.trooper.1"), dice=[1] * 7
    )
    attack, _ = pools(events)
    assert attack == "4 = 4 (attack of Test Lancer)"
    assert "command_rating" not in RULESET.view(g.state, "red")["armies"]["red-x"]


def test_an_empire_sees_its_own_army_s_command_rating_and_not_the_other_s() -> None:
    # given red-x of four lancers, out of supply, sighted by blue
    armies = army_block("red-x", "red", "6,3", units=("lancer",) * 4)
    g = sight(
        field(armies + army_block("blue-y", "blue", "7,3", units=("trooper",))), "blue", "red-x"
    )
    # then red's view shows its rating and the two cards over it (AE-68) and that it is out of
    # supply; blue's shows red-x as sighted, without them
    red = RULESET.view(g.state, "red")
    assert red["armies"]["red-x"]["command_rating"] == 2
    assert red["armies"]["red-x"]["over_command"] == 2
    assert red["empires"]["red"]["unsupplied"] == list(g.state.armies["red-x"].units)
    blue = RULESET.view(g.state, "blue")
    assert "red-x" in blue["armies"] and "over_command" not in blue["armies"]["red-x"]
    assert "unsupplied" not in blue["empires"]["red"]


def test_the_out_of_supply_notice_tells_the_empire_its_armies_fight_weaker() -> None:
    # given red's turn traced with red-x out of supply
    g = field(army_block("red-x", "red", "6,3", units=("lancer",)))
    traced = SupplyTraced(empire="red", supply_range=4, sources=(), out_of_supply=("red-x",))
    # then red's Events view says what it costs in battle (AE-69), and version 25's did not
    (notice,) = RULESET.notices(g.state, g.state, traced)
    assert notice.text.endswith(
        "; until your next turn their units fight with 1 attack and 1 defence dice fewer, "
        "Commando ones excepted (AE-69)"
    )
    old = replace(g.state, rules_version=25)
    (notice,) = RULESET.notices(old, old, traced)
    assert notice.text.endswith("unless every unit has Commando")


def test_a_version_25_game_keeps_no_out_of_supply_list_for_battles() -> None:
    # given red-x out of supply at the start of red's turn, in games of versions 25 and 26
    armies = army_block("red-x", "red", "6,3", units=("lancer",))
    g = field(armies + army_block("blue-y", "blue", "7,3", units=("trooper",)))
    traced = SupplyTraced(empire="red", supply_range=4, sources=(), out_of_supply=("red-x",))
    red = replace(g.state.empires["red"], unsupplied=())
    old = replace(g.state, rules_version=25, empires={**g.state.empires, "red": red})
    # when its supply is traced
    under_25 = RULESET.at_version("25").evolve(old, traced)
    under_26 = RULESET.evolve(g.state, traced)
    # then both limit its move (AE-12), and only version 26 keeps it for its battles (AE-69):
    # version 25's state is what it was, so a snapshot written before version 26 agrees with it
    assert under_25.empires["red"].out_of_supply == under_26.empires["red"].out_of_supply
    assert under_25.empires["red"].unsupplied == ()
    assert under_26.empires["red"].unsupplied == g.state.armies["red-x"].units


def test_units_moved_out_of_an_army_out_of_supply_fight_out_of_supply_all_the_same() -> None:
    # given red-x of two lancers and a trooper at 5,0, out of supply at red's turn start, and
    # red-y of a lancer, in supply at 4,0
    armies = army_block("red-x", "red", "5,0", units=("lancer", "lancer", "trooper"))
    g = field(MORE_CARDS + armies + army_block("red-y", "red", "4,0", units=("lancer",)))
    assert g.state.empires["red"].out_of_supply == ("red-x",)
    lancers = g.state.armies["red-x"].units[:1]
    (own,) = g.state.armies["red-y"].units
    # when red-y joins it and red-x hands a lancer to red-y (two units: within its rating)
    g.when(MoveArmy(player="red", army="red-y", to="5,0"))
    g.when(TransferCards(player="red", from_army="red-x", to_army="red-y", cards=lancers))
    # then the lancer defends out of supply in red-y as it did in red-x (AE-69: the penalty is
    # the units', until red's next trace), and red-y's own lancer does not
    red_y = g.state.armies["red-y"]
    assert lancers[0] in red_y.units
    assert bf.defense_pool(g.state, red_y, lancers[0], "5,0").text() == (
        f"1 = 2 (defense of Test Lancer) − 1 ({UNSUPPLIED})"
    )
    assert bf.defense_pool(g.state, red_y, own, "5,0").text() == ("2 = 2 (defense of Test Lancer)")


def test_an_army_whose_hero_falls_commands_two_unit_cards_from_then_on() -> None:
    # given red-x led by the Marshal (Command Rating 4) with four lancers: none over
    armies = army_block("red-x", "red", "3,0", hero="marshal", units=("lancer",) * 4)
    g = fought(
        MORE_CARDS + armies + army_block("blue-y", "blue", "4,0", units=("marksman",)),
        initiative=[1, 1, 1, 6, 6, 6],
    )
    assert over_command(g.state, g.state.armies["red-x"]) == 0
    # when blue's marksman snipes and kills the Marshal
    g.when(Attack(player="blue", unit="blue.marksman.1", target="red.marshal.1"), dice=[6] * 3)
    settled(g)
    assert g.state.armies["red-x"].hero is None
    # then red-x has the rating of an army without a hero, 2, at once (p.8, p.16; AE-68), and
    # its lancers strike two dice fewer
    red_x = g.state.armies["red-x"]
    assert command_rating(g.state, red_x) == 2
    events = g.when(
        Attack(player="red", unit=red_x.units[0], target="blue.marksman.1"), dice=[1] * 3
    )
    attack, _ = pools(events)
    assert attack == f"2 = 4 (attack of Test Lancer) − 2 (2 unit cards {OVER})"
