"""AE-10: an empire that loses its HQ may retake it until the end of the turn; only then is it
out (p.15)."""

from __future__ import annotations

import msgspec

from tests.domain.armageddon_empires.helpers import army_block, base_block, game, only, start_turns
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.battle_events import BaseCaptured
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


#: both HQs without a garrison; red's army next to blue's HQ, blue's next to red's
UNGUARDED = base_block("red-hq", "red", "0,0") + base_block("blue-hq", "blue", "7,5")


def test_when_the_last_rivals_both_fall_in_one_turn_the_game_is_a_draw_and_nothing_is_legal() -> (
    None
):
    armies = army_block("red-x", "red", "6,5", units=("trooper",)) + army_block(
        "blue-x", "blue", "1,0", units=("trooper",)
    )
    g = start_turns(game(bases=UNGUARDED, armies=armies))
    # given: blue took red's HQ earlier in this turn (a battle's outcome, AE-34)
    g.events(BaseCaptured(base="red-hq", empire="blue", previous="red", at="0,0"))
    # red takes blue's undefended HQ on entry (p.18; AE-34) and does not retake its own
    captured = only(g.when(MoveArmy(player="red", army="red-x", to="7,5")), BaseCaptured)
    assert (captured.base, captured.empire) == ("blue-hq", "red")
    assert not RULESET.is_terminal(g.state)  # not before the end of the turn (AE-10)
    ended = only(g.when(EndTurn(player="red")), GameEnded)
    assert ended.winner is None and ended.reason == "red, blue lost the HQ (p.15)"
    assert RULESET.is_terminal(g.state)
    assert RULESET.active_players(g.state) == []
    assert all(RULESET.legal_commands(g.state, p) == [] for p in ("red", "blue"))


def test_an_empire_that_holds_an_outpost_but_not_its_hq_is_out() -> None:
    # p.15: only the stronghold (the HQ card) keeps an empire in the game; red still holds
    # its outpost red-camp
    g = start_turns(game())
    hq = msgspec.structs.replace(g.state.bases["red-hq"], empire="blue")
    g.state = msgspec.structs.replace(g.state, bases={**g.state.bases, "red-hq": hq})
    assert g.state.bases["red-camp"].empire == "red"
    ended = only(g.when(EndTurn(player="red")), GameEnded)
    assert ended.winner == "blue" and "red lost the HQ (p.15)" in ended.reason
