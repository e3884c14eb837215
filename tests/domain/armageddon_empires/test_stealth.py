"""Stealth (p.23, p.27; R7; AE-17, AE-23): who may stealth, what a stealthed army may do, and
that it controls no hex."""

from __future__ import annotations

from tests.domain.armageddon_empires.arena import arena, begin
from tests.domain.armageddon_empires.helpers import army_block, only, with_ap
from warlog.domain.armageddon_empires.commands import (
    DropStealth,
    EngageStealth,
    MoveArmy,
    TransferCards,
)
from warlog.domain.armageddon_empires.control import controllers
from warlog.domain.armageddon_empires.costs import STEALTH_AP
from warlog.domain.armageddon_empires.events import ArmyMoved
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.sighting_events import StealthDropped, StealthEngaged
from warlog.domain.core.seal import secrets_of

SNEAKS = army_block("red-sneak", "red", "2,2", hero="shade", units=("wisp",)) + army_block(
    "red-loud", "red", "1,2", hero="shade", units=("trooper",)
)


def test_an_army_stealths_at_its_lowest_stealth_when_every_card_can_for_1_ap() -> None:
    g = begin(arena(SNEAKS))
    ap = g.state.empires["red"].ap
    engaged = only(g.when(EngageStealth(player="red", army="red-sneak")), StealthEngaged)
    assert (engaged.level, engaged.ap_cost) == (4, STEALTH_AP)
    assert g.state.armies["red-sneak"].stealthed and g.state.empires["red"].ap == ap - STEALTH_AP
    assert secrets_of(engaged) == [("army", "red"), ("level", "red")]


def test_a_card_without_stealth_or_a_garrison_keeps_an_army_from_stealthing() -> None:
    g = begin(arena(SNEAKS))
    g.when_rejected(EngageStealth(player="red", army="red-loud"), code="rules/not_stealth_capable")
    g.when_rejected(EngageStealth(player="red", army="red-hq-garrison"), code="rules/garrison")
    offered = {
        c.army for c in RULESET.legal_commands(g.state, "red") if isinstance(c, EngageStealth)
    }
    assert offered == {"red-sneak"}


def test_a_stealthed_army_drops_stealth_and_takes_no_card_that_cannot_stealth() -> None:
    g = begin(arena(SNEAKS + army_block("red-mate", "red", "2,2", units=("trooper",))))
    g.when(EngageStealth(player="red", army="red-sneak"))
    g.when_rejected(EngageStealth(player="red", army="red-sneak"), code="rules/already_stealthed")
    g.when_rejected(
        TransferCards(
            player="red", from_army="red-mate", to_army="red-sneak", cards=("red.trooper.3",)
        ),
        code="rules/not_stealth_capable",
    )
    dropped = only(g.when(DropStealth(player="red", army="red-sneak")), StealthDropped)
    assert not g.state.armies["red-sneak"].stealthed
    assert (
        dropped.explain()
        == f"red-sneak of red drops stealth for {dropped.ap_cost} AP (p.27; AE-23)"
    )
    g.when_rejected(DropStealth(player="red", army="red-sneak"), code="rules/not_stealthed")


def test_a_stealthed_army_controls_no_hex() -> None:
    g = begin(arena(SNEAKS))
    assert controllers(g.state)["2,2"] == "red"
    g.when(EngageStealth(player="red", army="red-sneak"))
    assert "2,2" not in controllers(g.state)


def test_a_stealthed_army_passes_enemy_armies_and_an_army_walks_into_its_hex_unaware() -> None:
    armies = SNEAKS + army_block("blue-wall", "blue", "3,2", units=("trooper",))
    g = begin(arena(armies))
    g.when(EngageStealth(player="red", army="red-sneak"))
    moved = only(g.when(MoveArmy(player="red", army="red-sneak", to="4,2"), dice=[]), ArmyMoved)
    assert (moved.to, moved.contact) == ("4,2", "")
    g2 = begin(arena(armies), first="blue")
    # blue walks onto the stealthed red army: no contact, they share the hex
    g2.events(StealthEngaged(empire="red", army="red-sneak", level=4, ap_cost=0))
    moved2 = only(g2.when(MoveArmy(player="blue", army="blue-wall", to="2,2"), dice=[]), ArmyMoved)
    assert (moved2.to, moved2.contact) == ("2,2", "")


SNEAK = army_block("red-sneak", "red", "2,2", hero="shade", units=("wisp",))


def test_an_empire_without_the_ap_cannot_engage_stealth_nor_is_it_offered() -> None:
    # given red's army that can stealth (every card has Stealth X, p.27), red with 1 AP short
    g = with_ap(begin(arena(SNEAK)), "red", STEALTH_AP - 1)
    # when red engages stealth, then it is refused for the AP it lacks (AE-23: 1 AP an army)
    err = g.when_rejected(EngageStealth(player="red", army="red-sneak"), code="rules/not_enough_ap")
    assert "engaging stealth costs 1 AP; red has 0" in str(err)
    assert not g.state.armies["red-sneak"].stealthed
    assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, EngageStealth)]
