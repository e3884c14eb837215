"""The victory segment: hives captured by the Orks, hives held by the Imperials, Ghazghkull.

seed 003 "Victory Conditions": the Orks win with 3 of the 5 hives captured (in smoking ruins with
an Ork counter on them); the Imperials win holding all 5 (intact, or ruins with an Imperial counter)
with Ghazghkull removed from play; a draw after turn 8.
"""

from __future__ import annotations

from warlog.domain.battle_for_armageddon import board
from warlog.domain.battle_for_armageddon.rules import HIVES_TO_WIN, IMPERIALS, ORKS, REMOVED
from warlog.domain.battle_for_armageddon.state import GameState
from warlog.domain.battle_for_armageddon.turn_events import VictoryChecked


def assess(state: GameState) -> VictoryChecked:
    """The victory check for the current turn (its ``result`` is "" when play goes on)."""
    hives = [s for s in state.sites.values() if s.kind == "hive"]
    captured = [s.id for s in hives if s.ruined and board.occupied_by(state, s.area, ORKS)]
    held = [
        s.id
        for s in hives
        if not s.ruined or any(x.side == IMPERIALS for x in board.counters_in(state, s.area))
    ]
    # BFA-23: Ghazghkull is in play until removed (killed, he is removed: he is never rebuilt)
    warlord = any(
        x.side == ORKS and board.is_leader(state, x) and x.location != REMOVED
        for x in state.counters.values()
    )
    result = ""
    if len(captured) >= HIVES_TO_WIN:
        result = ORKS
    elif len(held) == len(hives) and not warlord:
        result = IMPERIALS
    return VictoryChecked(
        turn=state.turn, captured=captured, held=held, ghazghkull_in_play=warlord, result=result
    )
