"""What a mutation review of ``supply.py`` found untested: which enemy armies in a base's hex
besiege it (AE-35: combat-capable and not stealthed; p.26), what a besieged base loses (its
supply and its prisoners' AP, p.24, p.26, p.30), and whose Mobile Supply counts (p.26, p.46)."""

from __future__ import annotations

from msgspec.structs import replace

from tests.domain.armageddon_empires.arena import arena
from tests.domain.armageddon_empires.helpers import army_block
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.costs import PRISONER_AP
from warlog.domain.armageddon_empires.events import SupplyTraced, TurnBegan
from warlog.domain.armageddon_empires.supply import out_of_supply, supply_sources
from warlog.domain.armageddon_empires.turns import turn_start

#: red's hq at 0,0 and its camp (an outpost) at 0,3 are its sources (arena.py)
RED_HQ = "0,0"
QUARRY = "blue.quarry.1"


def standing_at(g: Given, army: str, at: str, stealthed: bool = False) -> Given:
    """``army`` standing in hex ``at`` (as a move there, or a stealthed walk, would leave it: a
    scenario places no army in an enemy base's hex)."""
    moved = replace(g.state.armies[army], at=at, stealthed=stealthed)
    g.state = replace(g.state, armies={**g.state.armies, army: moved})
    return g


def red_turn_starts(g: Given) -> tuple[TurnBegan, SupplyTraced]:
    began, traced = turn_start(g.state, "red")
    assert isinstance(began, TurnBegan) and isinstance(traced, SupplyTraced)
    return began, traced


def sources(g: Given) -> list[str]:
    return sorted(b.id for b in supply_sources(g.state, "red"))


def test_an_enemy_trooper_in_a_base_s_hex_besieges_it_and_the_base_gives_no_supply() -> None:
    # given blue's trooper standing, not stealthed, in red's hq hex (p.26; AE-35)
    g = standing_at(
        arena(army_block("blue-x", "blue", "4,3", units=("trooper",))), "blue-x", RED_HQ
    )
    # then red's hq is no source of supply; its camp still is
    assert sources(g) == ["red-camp"]
    _, traced = red_turn_starts(g)
    assert traced.sources == ("red-camp at 0,3",)


def test_a_hero_alone_in_a_base_s_hex_is_no_siege_since_it_cannot_fight() -> None:
    # given blue's shade, a hero alone (not combat-capable: no unit card, p.34), in red's hq hex
    g = standing_at(
        arena(army_block("blue-lone", "blue", "4,3", hero="shade")), "blue-lone", RED_HQ
    )
    # then red's hq still supplies (AE-35: only a combat-capable enemy army besieges)
    assert sources(g) == ["red-camp", "red-hq"]


def test_a_stealthed_army_in_a_base_s_hex_is_no_siege_and_tells_red_nothing() -> None:
    # given blue's wisp (Stealth 4, a combat-capable unit) stealthed in red's hq hex
    wisp = army_block("blue-wisp", "blue", "4,3", units=("wisp",))
    away = standing_at(arena(wisp), "blue-wisp", "4,3", stealthed=True)
    g = standing_at(arena(wisp), "blue-wisp", RED_HQ, stealthed=True)
    # then red's hq still supplies (AE-35: a siege needs an army that is not stealthed; AE-56: a
    # siege always comes with the sight of its army), so red's own turn start and supply notice
    # are what they are with the wisp far away
    assert sources(g) == ["red-camp", "red-hq"]
    assert red_turn_starts(g) == red_turn_starts(away)
    assert red_turn_starts(g)[1].sources == ("red-hq at 0,0", "red-camp at 0,3")


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
    began, _ = red_turn_starts(standing_at(g, "blue-x", RED_HQ))
    assert began.bonuses == () and began.ap == began.base_ap


def test_an_enemy_s_mobile_supply_unit_does_not_supply_our_army_in_its_hex() -> None:
    # given red's trooper at 6,0, six hexes from either red base (supply range 4, p.26), and
    # blue's wagon (Mobile Supply) in the same hex
    g = arena(
        army_block("red-far", "red", "6,0", units=("trooper",))
        + army_block("blue-train", "blue", "5,0", units=("wagon",))
    )
    assert out_of_supply(g.state, "red") == ("red-far",)
    standing_at(g, "blue-train", "6,0")
    # then red's army is still out of supply: Mobile Supply serves friendly armies only (p.26)
    assert out_of_supply(g.state, "red") == ("red-far",)
