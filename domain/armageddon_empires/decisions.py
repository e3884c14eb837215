"""What the game waits for: the round of turns' decision (digest 6.1).

At the start of a round every empire still to buy its initiative dice is asked at once (a
simultaneous, secret purchase, R11, AE-3); then the empire whose turn it is acts until it ends
its turn. Once the game is over nothing is waited for. Challenges, battles and the air war will
be procedures on the core engine's stack, above this turn sequence.
"""

from __future__ import annotations

from typing import Literal

from warlog.domain.armageddon_empires.commands import COMMAND_TYPES, BuyInitiative
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.armageddon_empires.victory import is_over
from warlog.domain.core.procedure import Decision

#: the decisions of the round of turns
DecisionKind = Literal["initiative", "turn"]

#: the initiative purchase is answered by buying dice; a turn by every other command
INITIATIVE_ANSWERS: tuple[str, ...] = (BuyInitiative.type_name(),)
TURN_ANSWERS: tuple[str, ...] = tuple(
    c.type_name() for c in COMMAND_TYPES if c is not BuyInitiative
)


def decision(state: GameState) -> Decision | None:
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
