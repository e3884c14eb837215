"""Command tests (p.26) as a procedure: tests are called, rolled one after the other, a failed
one may be re-rolled by a hero's Mighty Deed (p.28; HB-28), and each result then does what it
is for (a unit moves, evades, retreats, breaks, loses stamina…).

1D6, 3+ passes; crossing a barrier, or any test in rough terrain (unless Agile, HB-30), on 2D6
taking the lower. Heroes never take command tests. A Drilled unit's first test in its own movement
phase rolls one die fewer, never fewer than one (HB-25).
"""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import reject
from warlog.domain.core.procedure import Decision, Step
from warlog.domain.heroic_battles import casualties, pieces, rolls, rulings, tables
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.state import (
    GameState,
    MeleeFrame,
    ShootingFrame,
    TestFrame,
    Unit,
)
from warlog.domain.heroic_battles.values import PendingTest, RetreatOrder, TestPurpose

ANSWERS = ("reroll_test", "accept_test")


def dice_for(state: GameState, unit: Unit, rough: bool = False, barrier: bool = False) -> int:
    """How many dice the unit's next test rolls (the lowest counts)."""
    hard = barrier or (rough and not pieces.has(unit, rulings.AGILE_TRAIT))
    dice = tables.HARD_COMMAND_TEST_DICE if hard else tables.COMMAND_TEST_DICE
    own_movement = state.phase == "movement" and state.phasing == unit.force
    if own_movement and not unit.tested and pieces.has(unit, "drilled"):
        dice = rulings.drilled_dice(dice)
    return dice


def pending(
    state: GameState,
    unit: Unit,
    purpose: TestPurpose,
    reasons: list[str],
    rough: bool = False,
    barrier: bool = False,
    direction: str = "",
) -> PendingTest:
    """A test ``unit`` must take, with its dice; since HB-36's version a test in rough terrain
    (not Agile) says so among its reasons, since it is why the test is on 2D6."""
    agile = pieces.has(unit, rulings.AGILE_TRAIT)
    if rough and not agile and rulings.rough_terrain_tests(state.rules_version):
        reasons = [*reasons, tables.IN_ROUGH_TERRAIN]
    return PendingTest(
        unit=unit.id,
        purpose=purpose,
        dice=dice_for(state, unit, rough, barrier),
        reasons=tuple(reasons),
        direction=direction,
        rough=rough,
        barrier=barrier,
    )


def check_rough_declared(state: GameState, declared: bool, what: str) -> None:
    """Rough terrain declared for ``what`` is a rule since HB-36's version: refused in a game
    begun under an earlier one, whose tests there are on 1D6."""
    if declared and not rulings.rough_terrain_tests(state.rules_version):
        raise reject(
            f"rough terrain is declared for {what} since version "
            f"{rulings.ROUGH_TERRAIN_TESTS_SINCE} of these rules (HB-36); this game plays "
            f"version {state.rules_version}, where only a movement action or a charge declares it",
            "bad_choice",
        )


def in_rough(state: GameState, unit_id: str) -> bool:
    """HB-36: ``unit_id`` stands in rough terrain as declared for the procedure it is in: a
    melee's declaration of its fighters (for its break and disengage tests), or the shot that
    hit it. Always False before HB-36's version."""
    if not rulings.rough_terrain_tests(state.rules_version):
        return False
    unit = state.units.get(unit_id)
    for frame in state.frames:
        if isinstance(frame, ShootingFrame) and frame.target == unit_id and frame.rough:
            return True
        if isinstance(frame, MeleeFrame) and unit is not None:
            declared = frame.declared.get(unit.force)
            if declared is not None and unit_id in declared.rough:
                return True
    return False


def call(batch: Batch[GameState], tests: list[PendingTest]) -> None:
    """Call ``tests``: the procedure rolls them in order once the current step is done."""
    if tests:
        batch.emit(ev.CommandTestsCalled(tests=tests))


def may_reroll(state: GameState, test: PendingTest, force: str) -> bool:
    """HB-28: a failed test not re-rolled yet, and a hero of the force on the table with a
    Mighty Deed left."""
    return test.rerolls < rulings.REROLLS_PER_TEST and bool(pieces.deeds_heroes(state, force))


def test_next(state: GameState, frame: TestFrame) -> Decision | Step:
    """What the tests in progress wait for: the owner's re-roll choice, or the next step."""
    head = frame.tests[0]
    unit = state.units.get(head.unit)
    if unit is None or unit.gone:
        return lambda batch: batch.emit(
            ev.CommandTestResolved(unit=head.unit, purpose=head.purpose, passed=False, void=True)
        )
    if not head.rolled:
        return lambda batch: _roll(batch, head, unit)
    if head.passed or not head.rerollable:
        return lambda batch: resolve(batch, head.passed)
    heroes = tuple(h.id for h in pieces.deeds_heroes(state, unit.force))
    return Decision(
        players=(unit.force,),
        kind="reroll_test",
        answers=ANSWERS,
        waiting=f"{unit.force} to choose whether to re-roll the failed command test of {unit.id}",
        procedure="command_test",
        options=heroes,
        about={"unit": unit.id, "purpose": head.purpose},
    )


def _roll(batch: Batch[GameState], head: PendingTest, unit: Unit) -> None:
    if not rolls.may_roll(batch, unit.force, head.dice, f"{unit.id}'s command test"):
        return
    faces = batch.roll(head.dice, 6, purpose=f"command test {unit.id}", roller=unit.force)
    score = min(faces)
    passed = score >= tables.COMMAND_TEST_PASS
    batch.emit(
        ev.CommandTestTaken(
            unit=unit.id,
            purpose=head.purpose,
            dice=head.dice,
            faces=faces,
            score=score,
            passed=passed,
            reasons=list(head.reasons),
            rerollable=not passed and may_reroll(batch.state, head, unit.force),
        )
    )


def _head(state: GameState) -> PendingTest:
    frame = state.frames[-1]
    assert isinstance(frame, TestFrame)
    return frame.tests[0]


def reroll(batch: Batch[GameState], player: str, hero_id: str) -> None:
    """HB-28: ``hero_id`` (named: within 2 ST) spends a Mighty Deed; all the dice again."""
    head = _head(batch.state)
    hero = pieces.find_hero(batch.state, hero_id)
    problem = pieces.own(hero, player, "spend the Mighty Deeds of")
    if problem is not None:
        raise problem
    if hero.deeds < 1:
        raise reject(f"{hero_id} has no Mighty Deed left this turn", "no_deeds")
    unit = batch.state.units[head.unit]
    faces = batch.roll(head.dice, 6, purpose=f"command test re-roll {unit.id}", roller=unit.force)
    score = min(faces)
    passed = score >= tables.COMMAND_TEST_PASS
    after_deed = batch.state.heroes[hero_id].deeds - 1
    heroes_left = any(h.id != hero_id for h in pieces.deeds_heroes(batch.state, unit.force))
    rerolls_left = head.rerolls + 1 < rulings.REROLLS_PER_TEST
    batch.emit(
        ev.CommandTestRerolled(
            unit=unit.id,
            purpose=head.purpose,
            hero=hero_id,
            dice=head.dice,
            faces=faces,
            score=score,
            passed=passed,
            rerollable=not passed and rerolls_left and (after_deed > 0 or heroes_left),
        )
    )


def resolve(batch: Batch[GameState], passed: bool) -> None:
    """The test at the head stands: it is done, then it does what it was for."""
    head = _head(batch.state)
    batch.emit(ev.CommandTestResolved(unit=head.unit, purpose=head.purpose, passed=passed))
    after(batch, head, passed)


def after(batch: Batch[GameState], test: PendingTest, passed: bool) -> None:
    """What a test's result does, by what it was for."""
    state = batch.state
    unit = state.units[test.unit]
    purpose = test.purpose
    if purpose == "movement":
        action = unit.actions + 1
        if passed:
            batch.emit(
                ev.UnitMoved(
                    unit=unit.id,
                    action=action,
                    half_st=move_distance(unit, test.direction),
                    direction=test.direction,
                    rough=test.rough,
                    barrier=test.barrier,
                )
            )
        else:
            batch.emit(ev.MovementFailed(unit=unit.id, action=action, purpose="movement action"))
    elif purpose == "facing":
        if passed:
            batch.emit(ev.FacingChanged(unit=unit.id))
        else:
            batch.emit(ev.MovementFailed(unit=unit.id, action=1, purpose="change of facing"))
    elif purpose == "charge":
        if not passed:
            batch.emit(ev.ChargeFailed(unit=unit.id))
    elif purpose == "evade":
        if passed:
            batch.emit(ev.Evaded(unit=unit.id, half_st=pieces.move_half_st(unit)))
        else:
            batch.emit(ev.EvadeFailed(unit=unit.id))
    elif purpose == "counter_charge":
        if passed:
            batch.emit(ev.CounterCharged(unit=unit.id))
    elif purpose == "shot":
        if not passed:
            order = RetreatOrder(unit=unit.id, half_st=tables.RETREAT_HALF_ST, cause="shooting")
            batch.emit(ev.RetreatsOrdered(orders=[order]))
    elif purpose == "break":
        if not passed:
            casualties.remove_unit(
                batch,
                unit.id,
                f"it failed to rally when retreating ({tables.RETREATING})",
                "broken",
            )
    elif purpose == "retreated_into":
        if not passed:
            casualties.lose_stamina(
                batch,
                unit.id,
                tables.RETREAT_BLOCKED_STAMINA,
                f"failed its command test when a friend retreated into it ({tables.RETREATING})",
                "retreat",
                "",
            )
    elif purpose == "disengage" and passed:
        batch.emit(ev.Disengaged(unit=unit.id))


def move_distance(p: pieces.Piece, direction: str) -> int:
    """One movement action's reach in half ST (p.30): full distance straight ahead, or in any
    direction for Skirmishers, Light Riders and heroes; half distance in any direction for the
    others."""
    full = pieces.move_half_st(p)
    if direction == "any" and not pieces.free_mover(p):
        return full // 2
    return full
