"""Since version 8 a base sees its own hex (AE-56), and no army takes a garrison's name (AE-57):
what an empire's base suffers from an enemy army there (a siege, a disputed hex) is always
explained by what it sees, and "the name is taken" never tells of an enemy's garrison.

The arena (tests/domain/armageddon_empires/arena.py): red's outpost red-camp stands at 0,3.
"""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from tests.domain.armageddon_empires.arena import BASES, begin, toml
from tests.domain.armageddon_empires.helpers import army_block, only, sight
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.commands import (
    CreateArmy,
    DropStealth,
    MoveArmy,
    TransferCards,
)
from warlog.domain.armageddon_empires.events import ArmyCreated
from warlog.domain.armageddon_empires.ruleset import VERSIONS
from warlog.domain.armageddon_empires.scenario_checks import parse_scenario
from warlog.domain.armageddon_empires.sighting_events import ArmiesSighted, StealthDropped
from warlog.domain.armageddon_empires.supply import is_besieged

#: blue's stealthed armies, one beside red's outpost and one far away
IN_RED_CAMP = (
    army_block("blue-ghost", "blue", "1,3", units=("wisp",))
    + "stealthed = true\n"
    + army_block("blue-far", "blue", "5,0", units=("wisp",))
    + "stealthed = true\n"
)


def under(version: str, armies: str) -> Given:
    """The arena under ``version``, every blue army whose id starts ``blue-ghost`` or
    ``blue-lone`` standing in red's outpost hex, as if left there when red took the base (a
    scenario cannot place an army in an enemy base's hex)."""
    g = Given(VERSIONS[version], parse_scenario(toml(armies)))
    inside = {
        a.id: replace(a, at="0,3")
        for a in g.state.armies.values()
        if a.id.startswith(("blue-ghost", "blue-lone"))
    }
    g.state = replace(g.state, armies={**g.state.armies, **inside})
    return g


def test_an_army_that_drops_stealth_in_an_enemy_base_s_hex_is_seen_there_by_contact() -> None:
    # given blue's turn, its stealthed blue-ghost in red's outpost hex, unseen
    g = begin(under("8", IN_RED_CAMP), first="blue")
    assert "blue-ghost" not in g.state.sightings.get("red", {})
    # when blue drops its stealth: red's outpost is besieged, and red sees who besieges it
    events = g.when(DropStealth(player="blue", army="blue-ghost"))
    assert is_besieged(g.state, g.state.bases["red-camp"])
    (seen,) = only(events, ArmiesSighted).seen
    assert (seen.army, seen.how, seen.units) == ("blue-ghost", "contact", ("blue.wisp.1",))
    assert seen.detail == "it stands in the hex of red's base red-camp (AE-56)"
    assert "blue-ghost" in g.state.sightings["red"]
    # and dropping the stealth of an army away from red's bases shows red nothing
    far = begin(under("8", IN_RED_CAMP), first="blue")
    assert not any(
        isinstance(e, ArmiesSighted) for e in far.when(DropStealth(player="blue", army="blue-far"))
    )


def test_the_round_s_window_sees_an_enemy_army_in_a_base_s_hex_whatever_its_checks() -> None:
    # given blue-ghost stood unstealthed in red's outpost hex when the round began, and every
    # hidden check of the round failed (every die a 1)
    g = under("8", IN_RED_CAMP).events(StealthDropped(empire="blue", army="blue-ghost", ap_cost=0))
    begin(g, observation=1)
    # then red sees it there, by contact, for the round
    assert g.state.sightings["red"]["blue-ghost"].how == "contact"
    assert "blue-far" not in g.state.sightings["red"]


def test_an_army_that_takes_units_in_an_enemy_base_s_hex_is_seen_there() -> None:
    # given blue's hero alone, unstealthed, and its stealthed pair in red's outpost hex
    armies = (
        army_block("blue-ghost-pair", "blue", "1,3", units=("wisp", "wisp"))
        + "stealthed = true\n"
        + army_block("blue-lone", "blue", "1,3", hero="quarry")
    )
    g = begin(under("8", armies), first="blue")
    # (the hero alone was seen by contact at the round's start, AE-56)
    assert g.state.sightings["red"]["blue-lone"].units == ()
    # when blue moves a unit into it (a sealed transfer): it besieges red's outpost, seen so
    events = g.when(
        TransferCards(
            player="blue", from_army="blue-ghost-pair", to_army="blue-lone", cards=("blue.wisp.1",)
        )
    )
    assert is_besieged(g.state, g.state.bases["red-camp"])
    (seen,) = only(events, ArmiesSighted).seen
    assert (seen.army, seen.units) == ("blue-lone", ("blue.wisp.1",))


def test_a_game_of_version_7_keeps_its_rules_no_contact_at_a_base() -> None:
    g = begin(under("7", IN_RED_CAMP), first="blue")
    events = g.when(DropStealth(player="blue", army="blue-ghost"))
    assert not any(isinstance(e, ArmiesSighted) for e in events)
    assert "blue-ghost" not in g.state.sightings.get("red", {})


def test_no_army_is_given_a_garrison_s_name_since_version_8() -> None:
    name = CreateArmy(player="red", army="red-camp-2-garrison", at="0,0")
    error = begin(under("8", "")).when_rejected(name, code="rules/army_name")
    assert "(AE-57)" in str(error)
    # version 7 took it (the name was free)
    assert only(begin(under("7", "")).when(name), ArmyCreated).army == "red-camp-2-garrison"


#: red's outpost red-camp holds a garrison
GARRISONED = BASES.replace('card = "camp"\n', 'card = "camp"\ngarrison = ["trooper"]\n', 1)


@pytest.mark.parametrize("version", ["24", "23"])
def test_since_version_24_a_base_sees_an_army_that_ends_its_move_in_its_hex(version: str) -> None:
    """AE-56: given blue has seen red's garrison at red-camp, so that its trooper meets no unseen
    army there, and no check of red's reaches the hex, when the trooper moves into red-camp's
    hex, then since version 24 red sees it there, by contact, and the siege comes with its
    sight; version 23 showed red nothing, the siege only in its supply and refused orders."""
    trooper = army_block("blue-x", "blue", "1,3", units=("trooper",))
    g = begin(Given(VERSIONS[version], parse_scenario(toml(trooper, bases=GARRISONED))), "blue")
    sight(g, "blue", "red-camp-garrison")
    g.when(MoveArmy(player="blue", army="blue-x", to="0,3"))
    assert is_besieged(g.state, g.state.bases["red-camp"])
    if version == "24":
        seen = g.state.sightings["red"]["blue-x"]
        assert (seen.at, seen.how) == ("0,3", "contact")
        assert seen.detail == "it stands in the hex of red's base red-camp (AE-56)"
    else:
        assert "blue-x" not in g.state.sightings.get("red", {})
