"""The air strike (p.19, p.30–31; digest §4.1–4.4; AE-39..AE-43): what it waits for, or its
next automatic step, from the card played to its end.

An attack card played on a hex (``air_launch``, AE-39) meets the intercept window
(``intercept``, AE-40), then the Ground-To-Air window (``ground_to_air``, AE-41), then, if it
survives, the Air-To-Ground challenge on its target (``air_to_ground``, AE-42, AE-43), or
fallout on the hex (p.31–32; ``fallout.py``). The attack card's fate carries over between its
challenges (p.30; R6); it stays in the hand while it flies: an aircraft or helo that survives is
back in the hand, a missile is spent (p.19); a destroyed card is discarded (AE-24). A munition
loaded onto it is spent at the end, whatever happened (p.31; AE-44, ``munitions.py``).
"""

from __future__ import annotations

from msgspec.structs import replace

from warlog.domain.armageddon_empires.air_events import AirStrikeEnded
from warlog.domain.armageddon_empires.air_to_ground import after_strike, air_to_ground_next
from warlog.domain.armageddon_empires.fallout import fallout_kind, fallout_next
from warlog.domain.armageddon_empires.flying_card import top_strike
from warlog.domain.armageddon_empires.frames import AirStrike
from warlog.domain.armageddon_empires.ground_to_air import (
    after_ground_challenge,
    ground_to_air_next,
)
from warlog.domain.armageddon_empires.intercept import after_intercept, intercept_next
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.procedure import Decision, Step


def _after_challenge(strike: AirStrike) -> Step:
    """What follows the challenge just over, by the stage it was fought in."""
    if strike.stage == "intercept":
        return after_intercept
    if strike.stage == "ground":
        return after_ground_challenge
    return after_strike


def _end(batch: Batch[GameState]) -> None:
    state = batch.state
    strike = top_strike(state)
    flying = strike.card in state.empires[strike.empire].hand
    batch.emit(
        AirStrikeEnded(
            strike=replace(strike, stage="done"),
            survived=flying,
            spent=flying and strike.craft == "missile",
            after_fallout=flying and fallout_kind(state, strike) is not None,
        )
    )


def air_strike_next(state: GameState, strike: AirStrike) -> Decision | Step:
    """What the air strike waits for, or its next automatic step (module doc)."""
    if strike.outcome is not None:
        return _after_challenge(strike)
    if strike.stage == "done" or strike.card not in state.empires[strike.empire].hand:
        return _end
    if strike.stage == "intercept":
        return intercept_next(state, strike)
    if strike.stage == "ground":
        return ground_to_air_next(state, strike)
    if strike.stage == "fallout":
        return fallout_next(state, strike)
    return air_to_ground_next(state, strike)
