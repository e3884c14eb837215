"""AE-10: an empire that loses its HQ may retake it until the end of the turn; only then is it
out (p.15)."""

from __future__ import annotations

import msgspec

from tests.domain.armageddon_empires.helpers import game, only, start_turns
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.commands import EndTurn, MoveArmy
from warlog.domain.armageddon_empires.events import GameEnded
from warlog.domain.armageddon_empires.ruleset import RULESET


def hq_held_by(g: Given, empire: str) -> Given:
    """Blue's stronghold changes hands (as a capture in a later version's battle would)."""
    hq = msgspec.structs.replace(g.state.bases["blue-hq"], empire=empire)
    g.state = msgspec.structs.replace(g.state, bases={**g.state.bases, "blue-hq": hq})
    return g


def test_losing_the_hq_does_not_end_play_at_once() -> None:
    g = hq_held_by(start_turns(game()), "red")
    assert not RULESET.is_terminal(g.state)
    assert RULESET.active_players(g.state) == ["red"]
    g.when(MoveArmy(player="red", army="red-b", to="1,1"))  # play goes on in red's turn


def test_an_empire_still_without_its_hq_at_the_end_of_the_turn_is_out() -> None:
    g = hq_held_by(start_turns(game()), "red")
    ended = only(g.when(EndTurn(player="red")), GameEnded)
    assert ended.winner == "red" and "blue lost the HQ (p.15)" in ended.reason
    assert RULESET.is_terminal(g.state)


def test_an_hq_retaken_before_the_turn_ends_keeps_its_empire_in_the_game() -> None:
    g = hq_held_by(start_turns(game()), "red")
    hq_held_by(g, "blue")
    events = g.when(EndTurn(player="red"))
    assert not [e for e in events if isinstance(e, GameEnded)]
    assert RULESET.active_players(g.state) == ["blue"]
