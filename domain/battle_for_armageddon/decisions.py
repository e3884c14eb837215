"""What the game waits for: the turn sequence's decision, or the combat in progress's.

The turn sequence (seed 003 "Sequence of Play") waits for the Ork set-up, then both players'
secret choice of strategy cards, then the phasing player's movement, combat and build phases.
A combat is a procedure on the core engine's stack: while it is being resolved, its choices
(reroll, loss, retreat, advance) come first.
"""

from __future__ import annotations

from typing import Literal

from warlog.domain.battle_for_armageddon.results import combat_next
from warlog.domain.battle_for_armageddon.rules import ORKS, PLAYERS
from warlog.domain.battle_for_armageddon.state import Combat, GameState
from warlog.domain.core.procedure import Decision, Frame, Next, Stack

#: the decisions of the turn sequence (a combat's choices are ``results.ChoiceKind``)
PhaseKind = Literal["setup", "strategy", "movement", "combat", "build"]

#: the commands that answer each phase of the turn sequence (the build phase depends on who
#: builds and on the step of the Imperial build, see ``_build_answers``)
PHASE_ANSWERS: dict[str, tuple[str, ...]] = {
    "setup": ("deploy", "end_setup"),
    "strategy": ("choose_strategy",),
    "movement": ("move", "play_special", "end_phase"),
    "combat": ("attack", "play_special", "end_phase"),
}


def _build_answers(state: GameState) -> tuple[str, ...]:
    if state.phasing == ORKS:
        return ("rebuild", "play_special", "end_phase")
    if state.build_step == "buy":
        return ("build", "finish_building", "play_special", "end_phase")
    return ("place", "play_special", "end_phase")


def turn_decision(state: GameState) -> Decision | None:
    """The decision of the turn sequence; None once the game is over."""
    if state.stage == "over":
        return None
    if state.stage == "setup":
        return Decision(
            players=(ORKS,),
            kind="setup",
            answers=PHASE_ANSWERS["setup"],
            waiting="the orks' set-up",
        )
    if state.stage == "strategy":
        choosing = tuple(p for p in PLAYERS if p not in state.choices)
        return Decision(
            players=choosing,
            kind="strategy",
            answers=PHASE_ANSWERS["strategy"],
            waiting=f"the {' and '.join(choosing)}' choice of strategy cards",
        )
    phase = state.phase
    answers = _build_answers(state) if phase == "build" else PHASE_ANSWERS.get(phase, ())
    return Decision(
        players=(state.phasing,),
        kind=phase,
        answers=answers,
        waiting=f"the {state.phasing}' {phase} phase",
    )


def _frames(state: GameState) -> tuple[Frame, ...]:
    return () if state.combat is None else (state.combat,)


#: what comes next in a game of Battle for Armageddon (the ruleset's ``next``)
NEXT = Stack(_frames, {Combat: combat_next}, turn_decision)


def decision(state: GameState) -> Decision | None:
    """What the game waits for (None once the game is over, or in the middle of a command's
    batch where an automatic step comes next)."""
    found: Next = NEXT(state)
    return found if isinstance(found, Decision) else None
