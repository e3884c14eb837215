"""The handlers of the commands: each checks what only it can check and emits its events.

Whose turn, which phase and whether a procedure's choice comes first are checked before a handler
runs, once, by the core (``Rules.admit``, from ``decisions.py``); after it, the core procedure
engine runs the procedures on until the next decision. Pure: no I/O, no clock, no ``random``
(dice come in); a handler raises RulesError (exit 3) with a stable ``rules/...`` code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warlog.domain.core.batch import Batch
from warlog.domain.core.rules import Handler
from warlog.domain.heroic_battles import (
    charges,
    command_test,
    duel,
    heroes,
    melee,
    movement,
    retreats,
    rolls,
    shooting,
    turns,
)
from warlog.domain.heroic_battles import commands as cmd
from warlog.domain.heroic_battles.state import GameState


def _reroll_test(batch: Batch[GameState], c: cmd.RerollTest) -> None:
    command_test.reroll(batch, c.player, c.hero)


def _accept_test(batch: Batch[GameState], c: cmd.AcceptTest) -> None:
    command_test.resolve(batch, passed=False)


#: every command of Midgard: Heroic Battles and its handler
HANDLERS: Mapping[type[Any], Handler] = {
    cmd.Move: movement.move,
    cmd.Charge: charges.charge,
    cmd.ChangeFacing: movement.change_facing,
    cmd.JoinUnit: movement.join_unit,
    cmd.LeaveUnit: movement.leave_unit,
    cmd.EndMovement: turns.end_movement,
    cmd.Evade: charges.evade,
    cmd.CounterCharge: charges.counter_charge,
    cmd.ReceiveCharge: charges.receive,
    cmd.PressCharge: charges.press,
    cmd.RerollTest: _reroll_test,
    cmd.AcceptTest: _accept_test,
    cmd.Shoot: shooting.shoot,
    cmd.EndShooting: turns.end_shooting,
    cmd.RerollRisk: heroes.reroll,
    cmd.AcceptRisk: heroes.accept,
    cmd.Challenge: duel.challenge,
    cmd.NoChallenge: duel.forgo,
    cmd.AcceptChallenge: duel.accept,
    cmd.RefuseChallenge: duel.refuse,
    cmd.SpendDeeds: duel.spend,
    cmd.DeclareMelee: melee.declare,
    cmd.Pursue: melee.pursue,
    cmd.HoldGround: melee.hold,
    cmd.Disengage: melee.disengage,
    cmd.StayEngaged: melee.stay,
    cmd.DeclareRetreat: retreats.declare,
    cmd.Roll: rolls.roll,
}
