"""Supply: range 4 by path cost from strongholds and outposts, blocked by enemy-held hexes (p.26);
out of supply at turn start an army moves one hex, unless hero-only (p.30) or Commando (p.46). A
base besieged (an enemy army in its hex that can fight and is not stealthed, AE-35) gives no
supply and earns nothing for its prisoners (p.24, p.26, p.30); a Mobile Supply unit supplies its
own empire's armies only (p.46)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from tests.domain.armageddon_empires.arena import arena
from tests.domain.armageddon_empires.helpers import (
    army_block,
    base_block,
    game,
    only,
    standing_in,
    start_turns,
)
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.commands import EndTurn, MoveArmy
from warlog.domain.armageddon_empires.costs import PRISONER_AP
from warlog.domain.armageddon_empires.events import ArmyMoved, RoundBegan, SupplyTraced, TurnBegan
from warlog.domain.armageddon_empires.ruleset import RULESET, VERSIONS
from warlog.domain.armageddon_empires.sighting_events import StealthEngaged
from warlog.domain.armageddon_empires.supply import out_of_supply, supply_sources
from warlog.domain.armageddon_empires.turns import turn_start

CORRIDOR = [". . . . . . . .", "m m m m m m m m"]
HILLS = [". . h . . . . .", "m m m m m m m m"]
BASES = base_block("red-hq", "red", "0,0") + base_block("blue-hq", "blue", "7,1")


def corridor(*armies: str, rows: list[str] = CORRIDOR) -> Given:
    return start_turns(game(rows, bases=BASES, armies="".join(armies), resources=""))


def traced(g: Given) -> tuple[str, ...]:
    """The armies out of supply at the start of the latest turn."""
    event = [e for e in g.history if isinstance(e, SupplyTraced)][-1]
    return event.out_of_supply


def test_an_army_within_4_movement_points_of_a_base_is_in_supply_and_one_beyond_is_not() -> None:
    g = corridor(
        army_block("near", "red", "4,0", units=("trooper",)),
        army_block("far", "red", "5,0", units=("trooper",)),
    )
    assert traced(g) == ("far",)
    assert g.state.empires["red"].out_of_supply == ("far",)


def test_supply_counts_the_terrain_cost_of_the_path_not_the_hexes() -> None:
    # 0,0 -> 1,0 plains 1 -> 2,0 hills 2 -> 3,0 plains 1 = 4; 4,0 is 4 hexes away but costs 5
    g = corridor(
        army_block("three", "red", "3,0", units=("trooper",)),
        army_block("four", "red", "4,0", units=("trooper",)),
        rows=HILLS,
    )
    assert traced(g) == ("four",)


def test_an_enemy_held_hex_blocks_the_supply_path() -> None:
    open_road = corridor(army_block("ahead", "red", "3,0", units=("trooper",)))
    assert traced(open_road) == ()
    blocked = corridor(
        army_block("ahead", "red", "3,0", units=("trooper",)),
        army_block("blocker", "blue", "2,0", units=("trooper",)),
    )
    assert traced(blocked) == ("ahead",)


def test_an_enemy_base_blocks_the_supply_path_too() -> None:
    bases = BASES.replace('at = "7,1"', 'at = "2,0"')
    g = start_turns(
        game(
            CORRIDOR,
            bases=bases,
            armies=army_block("ahead", "red", "3,0", units=("trooper",)),
            resources="",
        )
    )
    assert traced(g) == ("ahead",)


def test_an_army_out_of_supply_at_turn_start_moves_only_one_hex() -> None:
    g = corridor(army_block("far", "red", "5,0", units=("trooper",)))
    err = g.when_rejected(
        MoveArmy(player="red", army="far", to="3,0"), code="rules/out_of_supply_limit"
    )
    assert "may move only one hex (p.30)" in str(err)
    moves = {c.to for c in RULESET.legal_commands(g.state, "red") if isinstance(c, MoveArmy)}
    assert moves == {"4,0", "6,0"}  # the mountains next door cost 3, more than its 2 points
    assert only(g.when(MoveArmy(player="red", army="far", to="4,0")), ArmyMoved).out_of_supply


def test_coming_back_into_supply_lifts_the_limit_from_the_next_turn() -> None:
    g = corridor(army_block("far", "red", "5,0", units=("trooper",)))
    g.when(MoveArmy(player="red", army="far", to="4,0"))
    g.when(EndTurn(player="red"))
    assert out_of_supply(g.state, "red") == ()
    g.when(EndTurn(player="blue"))
    start_turns(g)
    assert g.state.empires["red"].out_of_supply == ()
    g.when(MoveArmy(player="red", army="far", to="2,0"))


def test_a_hero_only_army_ignores_the_one_hex_limit() -> None:
    g = corridor(army_block("lonely", "red", "6,0", hero="runner"))
    assert traced(g) == ("lonely",)  # 6 > 4 + Raider 1: out of supply, yet free to move
    g.when(MoveArmy(player="red", army="lonely", to="3,0"))


def test_raider_extends_its_own_army_s_supply_range() -> None:
    g = corridor(
        army_block("raiders", "red", "5,0", hero="runner"),
        army_block("plain", "red", "5,0", units=("trooper",)),
    )
    assert traced(g) == ("plain",)


def test_an_all_commando_army_ignores_the_one_hex_limit() -> None:
    g = corridor(army_block("ghosts", "red", "5,0", units=("ghost",)))
    assert traced(g) == ("ghosts",)
    g.when(MoveArmy(player="red", army="ghosts", to="2,0"))


def test_an_army_with_a_commando_and_a_unit_that_is_not_moves_only_one_hex() -> None:
    g = corridor(army_block("mixed", "red", "5,0", units=("ghost", "trooper")))
    assert traced(g) == ("mixed",)
    # two hexes of plains are within its 2 movement points, but not all its units are Commando
    err = g.when_rejected(
        MoveArmy(player="red", army="mixed", to="3,0"), code="rules/out_of_supply_limit"
    )
    assert "may move only one hex (p.30)" in str(err)
    assert only(g.when(MoveArmy(player="red", army="mixed", to="4,0")), ArmyMoved).out_of_supply


def test_a_mobile_supply_unit_supplies_its_own_hex() -> None:
    g = corridor(
        army_block("train", "red", "6,0", units=("wagon",)),
        army_block("escort", "red", "6,0", units=("trooper",)),
    )
    assert traced(g) == ()


def test_supply_is_traced_at_the_start_of_each_empire_s_own_turn_and_posts_a_notice() -> None:
    g = corridor(army_block("far", "blue", "2,0", units=("trooper",)))
    events = g.when(EndTurn(player="red"))
    traced_blue = events[-1]
    assert traced_blue == SupplyTraced(
        empire="blue", supply_range=4, sources=("blue-hq at 7,1",), out_of_supply=("far",)
    )
    notes = RULESET.notices(g.state, g.state, traced_blue)
    assert [(n.empire, n.duration) for n in notes] == [("blue", 1)]
    assert "far" in notes[0].text


#: red's hq at 0,0 and its camp (an outpost) at 0,3 are its sources (arena.py)
RED_HQ = "0,0"
RED_CAMP = "0,3"
QUARRY = "blue.quarry.1"


def red_turn_starts(g: Given) -> tuple[TurnBegan, SupplyTraced]:
    began, traced = turn_start(g.state, "red")
    assert isinstance(began, TurnBegan) and isinstance(traced, SupplyTraced)
    return began, traced


def sources(g: Given) -> list[str]:
    return sorted(b.id for b in supply_sources(g.state, "red"))


def test_an_enemy_trooper_in_a_base_s_hex_besieges_it_and_the_base_gives_no_supply() -> None:
    # given blue's trooper standing, not stealthed, in red's hq hex (p.26; AE-35)
    g = standing_in(
        arena(army_block("blue-x", "blue", "4,3", units=("trooper",))), "blue-x", RED_HQ
    )
    # then red's hq is no source of supply; its camp still is
    assert sources(g) == ["red-camp"]
    _, traced = red_turn_starts(g)
    assert traced.sources == ("red-camp at 0,3",)


def test_a_hero_alone_in_a_base_s_hex_is_no_siege_since_it_cannot_fight() -> None:
    # given blue's shade, a hero alone (not combat-capable: no unit card, p.34), in red's hq hex
    g = standing_in(
        arena(army_block("blue-lone", "blue", "4,3", hero="shade")), "blue-lone", RED_HQ
    )
    # then red's hq still supplies (AE-35: only a combat-capable enemy army besieges)
    assert sources(g) == ["red-camp", "red-hq"]


def test_a_stealthed_army_in_a_base_s_hex_is_no_siege_and_tells_red_nothing() -> None:
    # given blue's wisp (Stealth 4, a combat-capable unit) stealthed in red's hq hex
    wisp = army_block("blue-wisp", "blue", "4,3", units=("wisp",))
    away = standing_in(arena(wisp), "blue-wisp", "4,3", stealthed=True)
    g = standing_in(arena(wisp), "blue-wisp", RED_HQ, stealthed=True)
    # then red's hq still supplies (AE-35: a siege needs an army that is not stealthed; AE-56: a
    # siege always comes with the sight of its army), so red's own turn start and supply notice
    # are what they are with the wisp far away
    assert sources(g) == ["red-camp", "red-hq"]
    assert red_turn_starts(g) == red_turn_starts(away)
    assert red_turn_starts(g)[1].sources == ("red-hq at 0,0", "red-camp at 0,3")


@pytest.mark.parametrize("version", ["24", "23"])
def test_since_version_24_a_base_stays_besieged_for_its_empire_until_it_sees_the_besieger_go(
    version: str,
) -> None:
    """AE-35, AE-56: given blue's wisp besieging red's hq, seen there by red, when blue engages
    its stealth, sealed for red, then since version 24 red judges the siege by what it has seen:
    its hq gives no supply and earns nothing for its prisoners until the round ends, when the
    next round's window no longer shows it the wisp; version 23 lifted the siege at once, so
    that red's supply told it of the stealth."""
    g = arena(army_block("blue-w", "blue", "4,3", units=("wisp",)))
    g.ruleset = VERSIONS[version]
    g.state = replace(g.state, rules_version=int(version))
    hq = replace(g.state.bases["red-hq"], prisoners=(QUARRY,))
    g.state = replace(g.state, bases={**g.state.bases, "red-hq": hq})
    standing_in(g, "blue-w", RED_HQ)
    assert g.state.sightings["red"]["blue-w"].units and sources(g) == ["red-camp"]
    g.events(StealthEngaged(empire="blue", army="blue-w", level=4, ap_cost=0))
    began, traced = red_turn_starts(g)
    if version == "24":
        assert traced.sources == ("red-camp at 0,3",) and began.bonuses == ()
    else:
        assert traced.sources == ("red-hq at 0,0", "red-camp at 0,3")
        assert [b.ap for b in began.bonuses] == [PRISONER_AP]
    g.events(RoundBegan(round=2, last_round=4))
    assert sources(g) == ["red-camp", "red-hq"]


def test_a_besieged_base_earns_nothing_for_its_prisoners() -> None:
    # given blue's quarry held prisoner at red's hq (+3 AP a turn, p.24, p.30)
    g = arena(army_block("blue-x", "blue", "4,3", units=("trooper",)))
    hq = replace(g.state.bases["red-hq"], prisoners=(QUARRY,))
    armies = {k: v for k, v in g.state.armies.items() if k != "blue-quarry"}
    g.state = replace(g.state, bases={**g.state.bases, "red-hq": hq}, armies=armies)
    began, _ = red_turn_starts(g)
    assert [b.ap for b in began.bonuses] == [PRISONER_AP]
    # when blue's trooper besieges the hq, then red's turn begins without the prisoner's AP
    # (AE-35: a besieged base "earns nothing for its prisoners")
    began, _ = red_turn_starts(standing_in(g, "blue-x", RED_HQ))
    assert began.bonuses == () and began.ap == began.base_ap


def test_an_enemy_s_mobile_supply_unit_does_not_supply_our_army_in_its_hex() -> None:
    # given red's trooper at 6,0, six hexes from either red base (supply range 4, p.26), and
    # blue's wagon (Mobile Supply) in the same hex
    g = arena(
        army_block("red-far", "red", "6,0", units=("trooper",))
        + army_block("blue-train", "blue", "5,0", units=("wagon",))
    )
    assert out_of_supply(g.state, "red") == ("red-far",)
    standing_in(g, "blue-train", "6,0")
    # then red's army is still out of supply: Mobile Supply serves friendly armies only (p.26)
    assert out_of_supply(g.state, "red") == ("red-far",)


def test_a_garrison_is_never_out_of_supply_even_when_its_base_is_besieged() -> None:
    # given blue's troopers besieging both of red's bases, so that red has no source of
    # supply, and red's trooper in the field beside its hq
    g = arena(
        army_block("blue-x", "blue", "4,3", units=("trooper",))
        + army_block("blue-y", "blue", "5,3", units=("trooper",))
        + army_block("red-near", "red", "1,0", units=("trooper",))
    )
    g = standing_in(standing_in(g, "blue-x", RED_HQ), "blue-y", RED_CAMP)
    assert sources(g) == []
    # then red's field army is out of supply, and its garrisons are not: supply limits an
    # army's moves (p.30), a garrison moves only by leaving its base as a field army, so the
    # supply report counts field armies alone (AE-12)
    assert out_of_supply(g.state, "red") == ("red-near",)
    assert red_turn_starts(g)[1].out_of_supply == ("red-near",)
