"""Charges (pp.30–40) as a procedure: the charge is declared (a movement action, tested like any
other), the target may evade (p.38; HB-22) or counter charge (HB-23), and is told what bars an
answer closed to it; a charger whose target evaded declares whether it still makes contact, then
contact begins a melee or joins one (HB-7), with the reputation a charging hero earns (p.23; HB-6).
"""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, quoted, reject
from warlog.domain.core.procedure import Decision, Step
from warlog.domain.core.ruleset import Command
from warlog.domain.heroic_battles import casualties, command_test, movement, pieces, rulings, tables
from warlog.domain.heroic_battles import commands as cmd
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.pieces import Piece
from warlog.domain.heroic_battles.state import ChargeFrame, GameState, Hero, Unit
from warlog.domain.heroic_battles.tables import Facing

FACINGS: tuple[Facing, ...] = ("front", "flank", "rear")


def targets(state: GameState, force: str) -> list[Piece]:
    """The enemy units and unattached heroes on the table (any may be charged: the players
    declare the charge reaches straight ahead)."""
    return list(pieces.pieces(state, pieces.opponent(state, force)))


def charge_problem(
    state: GameState, player: str, unit_id: str, target_id: str, facing: str
) -> RulesError | None:
    """Why this charge may not be declared now (a ``rules/...`` RulesError), or None."""
    problem = movement.movement_problem(state, player, unit_id, "charge with")
    if problem is not None:
        return problem
    target = pieces.piece(state, target_id)
    if target is None:
        return reject(
            f"there is no unit or hero {quoted(target_id)} in this battle", "unknown_unit"
        )
    if target.force == player:
        return reject(f"{target_id} belongs to {player}: charge an enemy", "not_an_enemy")
    if target.gone:
        return reject(f"{target_id} is no longer on the table ({target.gone})", "gone")
    if isinstance(target, Hero) and target.unit:
        return reject(f"{target_id} is attached to {target.unit}: charge the unit", "hero_attached")
    if facing not in FACINGS:  # pragma: no cover - the command's Literal refuses it
        return reject(
            f"a charge strikes the front, flank or rear, not {quoted(facing)}", "bad_facing"
        )
    return None


def charge(batch: Batch[GameState], c: cmd.Charge) -> None:
    state = batch.state
    problem = charge_problem(state, c.player, c.unit, c.target, c.facing)
    if problem is not None:
        raise problem
    p = pieces.find(state, c.unit)
    reasons = movement.test_reasons(p, c.barrier)
    batch.emit(
        ev.ChargeDeclared(
            unit=c.unit,
            target=c.target,
            facing=c.facing,
            action=p.actions + 1,
            rough=c.rough,
            barrier=c.barrier,
        )
    )
    if isinstance(p, Unit) and reasons:
        test = command_test.pending(state, p, "charge", reasons, c.rough, c.barrier)
        command_test.call(batch, [test])


# -- the target's response ---------------------------------------------------------------------------


def evade_bars(state: GameState, target: Piece) -> list[str]:
    """What keeps ``target`` from evading a charge now (HB-22), each in words; none: it may (a
    unit with Evade or an unattached hero, not in a melee, once per movement phase)."""
    bars: list[str] = []
    if not (isinstance(target, Hero) or pieces.has(target, rulings.EVADE_TRAIT)):
        bars.append("it has no Evade trait, and only such a unit or an unattached hero evades")
    if pieces.in_melee(state, target.id):
        bars.append("it is in a melee")
    if target.evaded:
        bars.append("it has already tried to evade this movement phase")
    return bars


def can_evade(state: GameState, target: Piece) -> bool:
    """HB-22: nothing bars the evade (``evade_bars``)."""
    return not evade_bars(state, target)


def counter_charge_bars(state: GameState, frame: ChargeFrame, target: Piece) -> list[str]:
    """What keeps ``target`` from counter charging ``frame``'s charge (HB-23), each in words;
    none: it may (a unit with Counter Charge, charged to its front in open terrain, not in a
    melee)."""
    bars: list[str] = []
    if not isinstance(target, Unit):
        bars.append("it is a hero, and only a unit with Counter Charge counter charges")
    elif not pieces.has(target, rulings.COUNTER_CHARGE_TRAIT):
        bars.append("it has no Counter Charge trait")
    if frame.facing != "front":
        bars.append(f"the charge strikes its {frame.facing}, not its front")
    if frame.rough:
        bars.append("the charge declares rough terrain")
    if frame.barrier:
        bars.append("the charge declares a barrier")
    if pieces.in_melee(state, target.id):
        bars.append("it is in a melee")
    return bars


def can_counter_charge(state: GameState, frame: ChargeFrame, target: Piece) -> bool:
    """HB-23: nothing bars the counter charge (``counter_charge_bars``)."""
    return not counter_charge_bars(state, frame, target)


def responses(state: GameState, frame: ChargeFrame) -> tuple[str, ...]:
    """The commands that answer the charge (empty: it needs no answer)."""
    target = pieces.find(state, frame.target)
    out: list[str] = []
    if can_evade(state, target):
        out.append("evade")
    if can_counter_charge(state, frame, target):
        out.append("counter_charge")
    return (*out, "receive_charge") if out else ()


def charge_next(state: GameState, frame: ChargeFrame) -> Decision | Step:
    """What the charge in progress waits for, or the step that moves it on."""
    if frame.stage == "response":
        answers = responses(state, frame)
        if not answers:
            return _contact
        target = pieces.find(state, frame.target)
        return Decision(
            players=(target.force,),
            kind="charge_response",
            answers=answers,
            waiting=f"{target.force} to answer the charge of {frame.charger} on {frame.target}",
            procedure="charge",
            options=(frame.target,),
            about={"unit": frame.target, "charger": frame.charger},
        )
    if frame.stage == "follow_up":
        charger = pieces.find(state, frame.charger)
        return Decision(
            players=(charger.force,),
            kind="charge_follow_up",
            answers=("press_charge",),
            waiting=f"{charger.force} to declare whether {frame.charger} still reaches {frame.target}",
            procedure="charge",
            about={"unit": frame.charger, "target": frame.target},
        )
    return _contact


def closed_answer(state: GameState, decision: Decision, command: Command) -> RulesError | None:
    """The refusal of an evade or a counter charge of the charged piece that its answer to the
    charge does not offer, with what bars it (``rules/cannot_evade``, HB-22;
    ``rules/cannot_counter_charge``, HB-23); None for any other command, and for one naming
    another piece (the generic line names the charged one). It names only the charged piece's
    own state and the charge it faces, which its force sees (Midgard hides nothing)."""
    if decision.kind != "charge_response":
        return None
    if not isinstance(command, cmd.Evade | cmd.CounterCharge):
        return None
    frame = _frame(state)
    if command.unit != frame.target:
        return None
    target = pieces.find(state, frame.target)
    if isinstance(command, cmd.Evade):
        why = "; ".join(evade_bars(state, target))
        return reject(f"{target.id} cannot evade: {why} (HB-22)", "cannot_evade")
    why = "; ".join(counter_charge_bars(state, frame, target))
    return reject(f"{target.id} cannot counter charge: {why} (HB-23)", "cannot_counter_charge")


def _frame(state: GameState) -> ChargeFrame:
    frame = state.frames[-1]
    assert isinstance(frame, ChargeFrame)
    return frame


def _answering(state: GameState, unit: str) -> RulesError | None:
    frame = _frame(state)
    if unit != frame.target:
        return reject(f"the charge is on {frame.target}, not {unit}", "bad_choice")
    return None


def evade(batch: Batch[GameState], c: cmd.Evade) -> None:
    """p.38: a unit tests (passed: a movement action away; failed: it fights as usual); an
    unattached hero evades without a test and loses a token unless Non-Combatant (p.23)."""
    problem = _answering(batch.state, c.unit)
    if problem is not None:
        raise problem
    target = pieces.find(batch.state, c.unit)
    command_test.check_rough_declared(batch.state, c.rough, "an evade")
    if c.rough and isinstance(target, Hero):
        raise reject(
            f"{c.unit} evades without a command test (p.38): there is no rough terrain to "
            "declare for it (HB-36)",
            "bad_choice",
        )
    batch.emit(ev.EvadeDeclared(unit=c.unit))
    if isinstance(target, Hero):
        batch.emit(ev.Evaded(unit=c.unit, half_st=pieces.move_half_st(target)))
        if not pieces.has(target, "non_combatant"):
            casualties.lose(
                batch,
                target.force,
                tables.LOSE_EVADES,
                "an unattached hero evades a charge",
                target.id,
            )
        return
    test = command_test.pending(batch.state, target, "evade", ["evading a charge"], rough=c.rough)
    command_test.call(batch, [test])


def counter_charge(batch: Batch[GameState], c: cmd.CounterCharge) -> None:
    problem = _answering(batch.state, c.unit)
    if problem is not None:
        raise problem
    target = pieces.find(batch.state, c.unit)
    assert isinstance(target, Unit)
    batch.emit(ev.CounterChargeDeclared(unit=c.unit))
    test = command_test.pending(batch.state, target, "counter_charge", ["counter charging"])
    command_test.call(batch, [test])


def receive(batch: Batch[GameState], c: cmd.ReceiveCharge) -> None:
    problem = _answering(batch.state, c.unit)
    if problem is not None:
        raise problem
    batch.emit(ev.ChargeReceived(unit=c.unit))


def press(batch: Batch[GameState], c: cmd.PressCharge) -> None:
    frame = _frame(batch.state)
    batch.emit(ev.ChargePressed(unit=frame.charger, contact=c.contact))


# -- contact ------------------------------------------------------------------------------------------

#: the id of the first combat of the game (melees are numbered as they begin)
FIRST_MELEE = "melee-1"


def _contact(batch: Batch[GameState]) -> None:
    state = batch.state
    frame = _frame(state)
    existing = pieces.combat_of(state, frame.target)
    cid = existing.id if existing is not None else f"melee-{state.combats_begun + 1}"
    if rulings.first_combat_joined(state.rules_version):  # HB-38
        first_combat = cid == FIRST_MELEE and not state.first_combat_earned
    else:
        first_combat = state.combats_begun == 0
    batch.emit(
        ev.ChargeContacted(
            unit=frame.charger,
            target=frame.target,
            facing=frame.facing,
            combat=cid,
            joined=existing is not None,
        )
    )
    _charge_reputation(batch, frame, first_combat)


def _charge_reputation(batch: Batch[GameState], frame: ChargeFrame, first_combat: bool) -> None:
    """p.23 (HB-6): the one hero of the charging unit (or the charging hero) earns a token for
    charging into combat, one for the first combat of the game, one for charging the enemy
    Army Commander's unit, and one if it is the Army Commander."""
    state = batch.state
    charger = pieces.find(state, frame.charger)
    heroes = [charger] if isinstance(charger, Hero) else pieces.attached(state, charger.id)
    hero_id = rulings.charging_hero(
        [(h.id, h.level, pieces.has(h, "army_commander")) for h in heroes]
    )
    if not hero_id:
        return
    hero = state.heroes[hero_id]
    force = hero.force
    casualties.gain(batch, force, tables.GAIN_CHARGE, rulings.CHARGE_REASON, hero_id)
    if first_combat:
        casualties.gain(
            batch,
            force,
            tables.GAIN_FIRST_COMBAT,
            rulings.FIRST_COMBAT_REASON,
            hero_id,
        )
    if pieces.with_commander(state, frame.target):
        casualties.gain(
            batch,
            force,
            tables.GAIN_CHARGE_COMMANDER_UNIT,
            rulings.COMMANDER_UNIT_REASON,
            hero_id,
        )
    if pieces.has(hero, "army_commander"):
        casualties.gain(
            batch, force, tables.GAIN_COMMANDER_CHARGES, rulings.COMMANDER_CHARGES_REASON, hero_id
        )
