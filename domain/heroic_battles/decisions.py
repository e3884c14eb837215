"""What the game waits for: the turn sequence's decision, or the procedure in progress's.

The procedures (charges, command tests, shots, Risk to Heroes, melees, single combats, retreats)
are frames on the core engine's stack: the top one acts first; the turn sequence (p.27) acts when
none is in progress.
"""

from __future__ import annotations

from collections.abc import Callable

from warlog.domain.core.procedure import Decision, Frame, Next, Stack
from warlog.domain.heroic_battles import (
    casualties,
    charges,
    command_test,
    duel,
    heroes,
    melee,
    retreats,
    rolls,
    shooting,
    turns,
)
from warlog.domain.heroic_battles.state import (
    BlowFrame,
    ChargeFrame,
    DuelFrame,
    FallFrame,
    GameState,
    MeleeFrame,
    RetreatFrame,
    RiskFrame,
    ShootingFrame,
    TestFrame,
)

#: the commands of a movement phase
MOVEMENT_ANSWERS = ("move", "charge", "change_facing", "join_unit", "leave_unit", "end_movement")
SHOOTING_ANSWERS = ("shoot", "end_shooting")
CHALLENGE_ANSWERS = ("challenge", "no_challenge")


def turn_decision(state: GameState) -> Next:
    """The decision of the turn sequence, the automatic step that moves it on, or None once the
    battle is over."""
    if state.phase == "over":
        return None
    force = state.phasing
    if state.phase == "movement":
        return Decision(
            players=(force,),
            kind="movement",
            answers=MOVEMENT_ANSWERS,
            waiting=f"the movement phase of {force}",
        )
    if state.phase == "skirmish":
        if not shooting.shooters(state, force, skirmish=True):
            return turns.end_phase
        return Decision(
            players=(force,),
            kind="skirmish",
            answers=SHOOTING_ANSWERS,
            waiting=f"the shooting of {force} after its movement",
        )
    if state.phase == "melee":
        if turns.challenge_open(state):
            return Decision(
                players=(force,),
                kind="challenge",
                answers=CHALLENGE_ANSWERS,
                waiting=f"{force} to challenge an enemy hero to single combat, or not",
            )
        if state.melee_queue:
            return turns.begin_melee
        return turns.end_phase
    side = state.shooting_side
    if side in state.passed:  # both have passed: a side that passes hands over to the other
        return turns.end_phase
    if not shooting.shooters(state, side, skirmish=False):
        return lambda batch: turns.pass_shooting(batch, side)
    return Decision(
        players=(side,),
        kind="shooting",
        answers=SHOOTING_ANSWERS,
        waiting=f"a shot by {side}, or its pass",
    )


def _frames(state: GameState) -> tuple[Frame, ...]:
    return state.frames


#: the procedures in progress and the turn sequence under them
STACK = Stack(
    _frames,
    {
        TestFrame: command_test.test_next,
        ChargeFrame: charges.charge_next,
        ShootingFrame: shooting.shooting_next,
        RiskFrame: heroes.risk_next,
        MeleeFrame: melee.melee_next,
        DuelFrame: duel.duel_next,
        FallFrame: casualties.fall_next,
        BlowFrame: casualties.blow_next,
        RetreatFrame: retreats.retreat_next,
    },
    turn_decision,
)


def upcoming(state: GameState) -> Next:
    """What comes next in a battle: an awaited roll first (``rolls.py``), then the procedure
    on top of the stack, then the turn sequence."""
    if state.awaiting is not None:
        return rolls.decision(state.awaiting)
    return STACK(state)


#: what comes next in a battle (the ruleset's ``next``)
NEXT: Callable[[GameState], Next] = upcoming


def decision(state: GameState) -> Decision | None:
    """What the game waits for (None once the battle is over, or mid-batch)."""
    found = NEXT(state)
    return found if isinstance(found, Decision) else None
