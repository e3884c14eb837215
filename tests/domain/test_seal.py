"""Sealed values (``core.seal``): which fields of an event are secrets, and an event's data
with its opened seals closed again."""

from __future__ import annotations

from typing import Annotated

import msgspec

from warlog.domain.core.seal import Hidden, seal_for, secrets_of, stripped


class HandDealt(msgspec.Struct, frozen=True, omit_defaults=True):
    player: str
    cards: Annotated[list[str], Hidden(owner="player")] = msgspec.field(default_factory=list)


def test_a_hidden_field_left_at_its_default_factory_s_value_is_no_secret() -> None:
    """Given an event that omits defaults, whose hidden list defaults to a new empty one, when
    its hand is empty, then there is nothing to seal (its encoding carries no ``cards``); when
    it holds cards, they are the player's secret."""
    assert "cards" not in msgspec.json.decode(msgspec.json.encode(HandDealt(player="red")))
    assert secrets_of(HandDealt(player="red")) == []
    assert secrets_of(HandDealt(player="red", cards=["waaagh-1"])) == [("cards", "red")]


def test_stripping_closes_the_opened_seals_and_leaves_the_closed_ones_as_they_are() -> None:
    opened = {"sealed": seal_for("salt-1", 4), "value": 4, "salt": "salt-1"}
    closed = {"sealed": seal_for("salt-2", 6)}
    chained, openings = stripped({"faces": [opened, closed]})
    assert chained == {"faces": [{"sealed": opened["sealed"]}, closed]}
    assert openings == {"faces.0": (4, "salt-1")}
