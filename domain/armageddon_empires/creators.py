"""The heroes who create cards, and what and where each creates (p.28, p.45; digest §8.5; AE-73).

A Tactician creates tactic cards at an academy, a Technologist "technology cards
(devices/weapons)" at a laboratory (digest §8.5, the table from the official tutorial, a secondary
source): the catalogue's tactic cards, and its attack and munition cards. A Geneticist's
"genetics (biotech) cards" are no kind of card these rules hold (``cards.CardKind``), so that
ability stays unplayed (AE-70) and is not listed here. The facility abilities are ours, the
manual's list of them (p.48) being cut after Hardened.
"""

from __future__ import annotations

from typing import NamedTuple

from warlog.domain.armageddon_empires.abilities import ACADEMY, LABORATORY, TACTICIAN, TECHNOLOGIST


class Creator(NamedTuple):
    """A hero ability that creates cards: the kinds of card it creates, the facility ability its
    hex must hold, and its research list's key in the scenario (``[[research.KEY]]``)."""

    creates: tuple[str, ...]
    facility: str
    key: str


#: AE-73: the abilities that create cards, each with what it creates and where
CREATORS: dict[str, Creator] = {
    TACTICIAN: Creator(("tactic",), ACADEMY, "tactician"),
    TECHNOLOGIST: Creator(("attack", "munition"), LABORATORY, "technologist"),
}
