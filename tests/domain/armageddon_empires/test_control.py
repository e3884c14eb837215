"""Hex control (AE-5; p.18, p.27): who holds each hex, and a hex two empires dispute."""

from __future__ import annotations

from tests.domain.armageddon_empires.arena import arena, begin
from warlog.domain.armageddon_empires.control import controllers, enemy_held


def test_a_hex_where_a_hunter_stands_with_its_prey_is_held_by_nobody() -> None:
    # AE-5: red's hunters and blue's hero alone share 2,1, neither stealthed: it is disputed
    g = begin(arena())
    assert {a.empire for a in g.state.armies.values() if a.at == "2,1"} == {"red", "blue"}
    held = controllers(g.state)
    assert "2,1" not in held
    assert "2,1" not in enemy_held(g.state, "red") and "2,1" not in enemy_held(g.state, "blue")
    # a base holds its hex, with or without an army (p.18)
    assert (held["0,0"], held["0,3"], held["6,3"]) == ("red", "red", "blue")
