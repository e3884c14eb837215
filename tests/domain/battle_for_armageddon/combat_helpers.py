"""Combat's test set-up: an attack declared in the combat phase of either side and the die it
rolls, shared by the tests of ``combat``, ``results`` and ``losses`` and by others that attack.
"""

from __future__ import annotations

from tests.domain.battle_for_armageddon.helpers import at, game, in_phase
from tests.given_when_then import Given
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.core.events import Event


def orks_attack(*setup: Event, turn: int = 2, version: str = "") -> Given:
    return game(*in_phase("orks", "combat", turn=turn), *setup, version=version)


def imperials_attack(*setup: Event) -> Given:
    return game(*in_phase("imperials", "combat"), *setup)


def attack(g: Given, target: str, *stacks: str, die: int, player: str = "orks") -> list[Event]:
    return g.when(c.Attack(player=player, target=target, stacks=list(stacks)), dice=[die])


def retreated_into_river_a(*others: Event) -> Given:
    """The Orks' combat phase with ig-1 beaten out of plain_a into river_a (2:1, 6 → DW: it
    retreats, the Orks do not advance), where ``others`` stand too; the Boyz at ork_a and
    Ghazghkull at ork_b have not attacked yet."""
    g = orks_attack(
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("boyz-1", "ork_a"),
        at("ghazghkull", "ork_b"),
        at("ig-1", "plain_a"),
        *others,
    )
    attack(g, "plain_a", "plain_b", die=6)  # 6 vs 3 → 2:1, 6 → DW
    g.when(c.Retreat(player="imperials", counter="ig-1", to="river_a"))
    g.when(c.Advance(player="orks", counters=[]))
    return g
