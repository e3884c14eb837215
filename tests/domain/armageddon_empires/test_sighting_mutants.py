"""What a mutation review of ``fog.py`` found untested: a hero an empire saw in an enemy army,
then destroyed in the open, no longer shows in that army's sighting (AE-17; AE-24)."""

from __future__ import annotations

from tests.domain.armageddon_empires.arena import arena
from tests.domain.armageddon_empires.helpers import army_block, sight
from warlog.domain.armageddon_empires.challenge_events import CardDamaged

SHADE = "blue.shade.1"  # 2 wounds
TROOPER = "blue.trooper.2"  # blue.trooper.1 holds blue's hq (arena.py)
HOST = army_block("blue-host", "blue", "4,2", hero="shade", units=("trooper",))


def test_a_sighted_hero_destroyed_in_the_open_leaves_the_sighting_of_its_army() -> None:
    # given red has sighted blue's host: the shade leading a trooper
    g = sight(arena(HOST), "red", "blue-host")
    assert g.state.sightings["red"]["blue-host"].cards() == (SHADE, TROOPER)
    # when the shade takes its 2 wounds in the open and is destroyed (AE-24)
    g.events(
        CardDamaged(
            card=SHADE, owner="blue", amount=2, total=2, limit=2, destroyed=True, challenge=1
        )
    )
    # then red's sighting of the host shows the trooper alone: the army it saw no longer shows
    # the card (AE-17)
    seen = g.state.sightings["red"]["blue-host"]
    assert (seen.hero, seen.cards()) == (None, (TROOPER,))
