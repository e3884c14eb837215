"""Combat's test set-up: an attack declared in the combat phase of either side and the die it
rolls, shared by the tests of ``combat``, ``results`` and ``losses`` and by others that attack.
"""

from __future__ import annotations

from tests.domain.battle_for_armageddon.helpers import game, in_phase
from tests.given_when_then import Given
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.core.events import Event


def orks_attack(*setup: Event, turn: int = 2, version: str = "") -> Given:
    return game(*in_phase("orks", "combat", turn=turn), *setup, version=version)


def imperials_attack(*setup: Event) -> Given:
    return game(*in_phase("imperials", "combat"), *setup)


def attack(g: Given, target: str, *stacks: str, die: int, player: str = "orks") -> list[Event]:
    return g.when(c.Attack(player=player, target=target, stacks=list(stacks)), dice=[die])
