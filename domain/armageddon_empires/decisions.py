"""What the game waits for: the open procedure's decision, or the round of turns' (digest 6.1).

At the start of a round every empire still to buy its initiative dice is asked at once (a
simultaneous, secret purchase, R11, AE-3); then the empire whose turn it is acts until it ends
its turn. Procedures nest above the turn sequence on the core engine's stack: a Capture Kill
(p.30) under its challenge (R5), and later battles, retreats and the air war. While one is in
progress the top frame says what comes next: the challenge's side to act, or an automatic
step; anything else is refused (``rules/decision_pending``). Once the game is over nothing is
waited for.
"""

from __future__ import annotations

from typing import Literal

from warlog.domain.armageddon_empires.capture import capture_next
from warlog.domain.armageddon_empires.challenge import Challenge
from warlog.domain.armageddon_empires.challenge_moves import challenge_next
from warlog.domain.armageddon_empires.commands import (
    CHALLENGE_COMMANDS,
    COMMAND_TYPES,
    BuyInitiative,
)
from warlog.domain.armageddon_empires.frames import CaptureKill
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.armageddon_empires.victory import is_over
from warlog.domain.core.procedure import Decision, Frame, Next, Stack

#: the decisions of the round of turns (a challenge's is "challenge")
DecisionKind = Literal["initiative", "turn", "challenge"]

#: the initiative purchase is answered by buying dice; a turn by every other command but the
#: answers to a challenge
INITIATIVE_ANSWERS: tuple[str, ...] = (BuyInitiative.type_name(),)
TURN_ANSWERS: tuple[str, ...] = tuple(
    c.type_name() for c in COMMAND_TYPES if c is not BuyInitiative and c not in CHALLENGE_COMMANDS
)


def turn_decision(state: GameState) -> Decision | None:
    """The decision the round of turns waits for; None once the game is over."""
    if is_over(state):
        return None
    if state.phase == "initiative":
        buying = tuple(e for e in state.seats if e not in state.bids)
        return Decision(
            players=buying,
            kind="initiative",
            answers=INITIATIVE_ANSWERS,
            waiting=f"round {state.round}'s initiative purchase (by {', '.join(buying)})",
        )
    current = state.current or ""
    return Decision(
        players=(current,), kind="turn", answers=TURN_ANSWERS, waiting=f"{current}'s turn"
    )


def _frames(state: GameState) -> tuple[Frame, ...]:
    return state.frames


#: what comes next in a game of Armageddon Empires (the ruleset's ``next``)
NEXT = Stack(_frames, {Challenge: challenge_next, CaptureKill: capture_next}, turn_decision)


def decision(state: GameState) -> Decision | None:
    """What the game waits for (None once it is over, or in the middle of a command's batch
    where an automatic step comes next)."""
    found: Next = NEXT(state)
    return found if isinstance(found, Decision) else None
