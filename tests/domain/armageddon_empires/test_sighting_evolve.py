"""What a sighting event changes (AE-17): what the observer saw replaces or adds to what it holds
in sight, and a check that saw and lost nothing changes nothing (the most common event of a
game: one after every move)."""

from __future__ import annotations

from tests.domain.armageddon_empires.arena import arena
from tests.domain.armageddon_empires.helpers import army_block, sight
from warlog.domain.armageddon_empires.challenge_events import CardDamaged
from warlog.domain.armageddon_empires.sighting_events import ArmiesSighted

WATCH = army_block("red-watch", "red", "3,1", units=("farsight",))
SHADE = army_block("blue-shade", "blue", "4,1", hero="shade")


def test_a_check_after_a_move_that_saw_and_lost_nothing_changes_nothing() -> None:
    g = sight(arena(WATCH + SHADE), "red", "blue-shade")
    before = g.state
    g.events(ArmiesSighted(observer="red", window="move", seen=(), lost=()))
    assert g.state == before
    assert set(g.state.sightings["red"]) == {"blue-shade"}


def test_a_round_check_that_saw_nothing_forgets_what_was_in_sight() -> None:
    g = sight(arena(WATCH + SHADE), "red", "blue-shade")
    g.events(ArmiesSighted(observer="red", window="round", seen=(), lost=()))
    assert g.state.sightings["red"] == {}


def test_an_observers_first_check_records_that_it_holds_nothing_in_sight() -> None:
    g = arena(WATCH + SHADE)
    assert "blue" not in g.state.sightings
    g.events(ArmiesSighted(observer="blue", window="move", seen=(), lost=()))
    assert g.state.sightings["blue"] == {}


def test_an_army_lost_from_sight_after_a_move_leaves_the_observers_sightings() -> None:
    g = sight(arena(WATCH + SHADE), "red", "blue-shade")
    g.events(ArmiesSighted(observer="red", window="move", seen=(), lost=("blue-shade",)))
    assert g.state.sightings["red"] == {}


SHADE_CARD = "blue.shade.1"  # 2 wounds


TROOPER = "blue.trooper.2"  # blue.trooper.1 holds blue's hq (arena.py)


HOST = army_block("blue-host", "blue", "4,2", hero="shade", units=("trooper",))


def test_a_sighted_hero_destroyed_in_the_open_leaves_the_sighting_of_its_army() -> None:
    # given red has sighted blue's host: the shade leading a trooper
    g = sight(arena(HOST), "red", "blue-host")
    assert g.state.sightings["red"]["blue-host"].cards() == (SHADE_CARD, TROOPER)
    # when the shade takes its 2 wounds in the open and is destroyed (AE-24)
    g.events(
        CardDamaged(
            card=SHADE_CARD, owner="blue", amount=2, total=2, limit=2, destroyed=True, challenge=1
        )
    )
    # then red's sighting of the host shows the trooper alone: the army it saw no longer shows
    # the card (AE-17)
    seen = g.state.sightings["red"]["blue-host"]
    assert (seen.hero, seen.cards()) == (None, (TROOPER,))
