"""Sealed values (``core.seal``): which fields of an event are secrets, and an event's data
with its opened seals closed again."""

from __future__ import annotations

from typing import Annotated

import msgspec

from warlog.domain.core.seal import Hidden, recorded_with, seal_for, secrets_of, stripped


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


class Hunt(msgspec.Struct, frozen=True, omit_defaults=True, tag_field="type", tag="hunt"):
    player: str
    target: Annotated[str | None, Hidden(owner="player", present_since=3)] = None
    army: str = ""


def test_a_field_kept_present_since_a_version_is_recorded_sealed_at_its_default_in_its_place() -> (
    None
):
    """Given a command that omits its defaults, whose hidden ``target`` the rules keep present
    since version 3, when the target is left out, then a game of version 2 records no target
    and seals nothing, and one of version 3 records it, null, sealed for its player, in the
    place a named target takes: the keys, their order and the seals do not tell whether it was
    named."""
    left_out, named = Hunt(player="red", army="red-a"), Hunt(player="red", target="x", army="red-a")
    assert recorded_with(left_out, 2) == {"type": "hunt", "player": "red", "army": "red-a"}
    assert secrets_of(left_out, version=2) == []
    assert recorded_with(left_out, 3) == {
        "type": "hunt",
        "player": "red",
        "target": None,
        "army": "red-a",
    }
    assert list(recorded_with(left_out, 3)) == list(recorded_with(named, 3))
    assert secrets_of(left_out, version=3) == secrets_of(named, version=3) == [("target", "red")]
    assert recorded_with(left_out) == recorded_with(left_out, 3)  # None: the newest rules


def test_stripping_closes_the_opened_seals_and_leaves_the_closed_ones_as_they_are() -> None:
    opened = {"sealed": seal_for("salt-1", 4), "value": 4, "salt": "salt-1"}
    closed = {"sealed": seal_for("salt-2", 6)}
    chained, openings = stripped({"faces": [opened, closed]})
    assert chained == {"faces": [{"sealed": opened["sealed"]}, closed]}
    assert openings == {"faces.0": (4, "salt-1")}
