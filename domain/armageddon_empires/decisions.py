"""What the game waits for: an awaited roll, the open procedure's decision, or the round of
turns' (p.20–22).

At the start of a round every empire still to buy its initiative dice is asked at once (a
simultaneous, secret purchase, R11, AE-3); then the empire whose turn it is acts until it ends
its turn; the battles it delayed are then fought before the turn ends (p.33; AE-36).
Procedures nest above the turn sequence on the core engine's stack: an engagement, a battle
with its challenges and the Capture Kills it ends with (p.33–34), a Capture Kill under its
challenge (p.30; R5). While one is in progress the top frame says what comes next: the side to
act, or an automatic step; anything else is refused (``rules/decision_pending``). A roll that
waits for its own command comes before everything (AE-37). Once the game is over nothing is
waited for.
"""

from __future__ import annotations

from typing import Literal

from warlog.domain.armageddon_empires.air_strike import air_strike_next
from warlog.domain.armageddon_empires.assassination import assassination_next
from warlog.domain.armageddon_empires.awaiting import awaited
from warlog.domain.armageddon_empires.battle import (
    battle_next,
    end_of_turn_step,
    engagement_decision,
)
from warlog.domain.armageddon_empires.capture import capture_next
from warlog.domain.armageddon_empires.challenge import Challenge
from warlog.domain.armageddon_empires.challenge_moves import challenge_next
from warlog.domain.armageddon_empires.commands import (
    BATTLE_COMMANDS,
    CHALLENGE_COMMANDS,
    COMMAND_TYPES,
    BuyInitiative,
    Engage,
    GroundToAir,
    GroundToAirChallenge,
    Intercept,
    Roll,
)
from warlog.domain.armageddon_empires.frames import (
    AirStrike,
    Assassination,
    Battle,
    CaptureKill,
    Engagement,
    SabotageMission,
)
from warlog.domain.armageddon_empires.sabotage import sabotage_next
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.armageddon_empires.victory import is_over
from warlog.domain.core.procedure import Decision, Frame, Next, Stack

#: the decisions of the round of turns and of its procedures
DecisionKind = Literal[
    "initiative",
    "turn",
    "challenge",
    "battle",
    "engagement",
    "roll",
    "intercept",
    "ground_to_air",
    "ground_to_air_challenge",
]

#: the initiative purchase is answered by buying dice; a turn by every other command but the
#: answers to procedures
INITIATIVE_ANSWERS: tuple[str, ...] = (BuyInitiative.type_name(),)
_PROCEDURE_COMMANDS = (
    BuyInitiative,
    Roll,
    Engage,
    Intercept,
    GroundToAir,
    GroundToAirChallenge,
    *CHALLENGE_COMMANDS,
    *BATTLE_COMMANDS,
)
TURN_ANSWERS: tuple[str, ...] = tuple(
    c.type_name() for c in COMMAND_TYPES if c not in _PROCEDURE_COMMANDS
)


def turn_decision(state: GameState) -> Next:
    """The decision the round of turns waits for; the end of a turn whose delayed battles are
    being fought (an automatic step); None once the game is over."""
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
    if state.ending_turn:
        return end_of_turn_step
    current = state.current or ""
    return Decision(
        players=(current,), kind="turn", answers=TURN_ANSWERS, waiting=f"{current}'s turn"
    )


def _frames(state: GameState) -> tuple[Frame, ...]:
    return state.frames


#: the procedures on the stack, each run by its kind of frame
STACK = Stack(
    _frames,
    {
        Challenge: challenge_next,
        CaptureKill: capture_next,
        Engagement: engagement_decision,
        Battle: battle_next,
        AirStrike: air_strike_next,
        Assassination: assassination_next,
        SabotageMission: sabotage_next,
    },
    turn_decision,
)


def what_next(state: GameState) -> Next:
    """What comes next in a game of Armageddon Empires: an awaited roll first (AE-37), then the
    stack of procedures and the round of turns."""
    return awaited(state) or STACK(state)


#: the ruleset's ``next``
NEXT = what_next


def decision(state: GameState) -> Decision | None:
    """What the game waits for (None once it is over, or in the middle of a command's batch
    where an automatic step comes next)."""
    found: Next = NEXT(state)
    return found if isinstance(found, Decision) else None
