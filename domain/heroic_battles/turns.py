"""The turn sequence (p.27): Mighty Deeds; the attacker's movement (its skirmishers shooting after
it) and melee; the defender's movement and melee; shooting, alternating from the defender (HB-19);
the end of the turn with the victory conditions and Reputation Tokens (HB-20).

Each function emits the events of one step and leaves the rest to what comes next
(``decisions.py``): a phase with nothing to decide ends by itself.
"""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.heroic_battles import commands as cmd
from warlog.domain.heroic_battles import duel, pieces, rulings, shooting
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.state import GameState


def phase_order(state: GameState) -> list[tuple[str, str]]:
    """The phases of a turn in order, each with its phasing force ("" for shooting)."""
    a, d = state.attacker, state.defender
    return [
        ("movement", a),
        ("skirmish", a),
        ("melee", a),
        ("movement", d),
        ("skirmish", d),
        ("melee", d),
        ("shooting", ""),
    ]


def begin_turn(batch: Batch[GameState], turn: int) -> None:
    """Phase 1: Mighty Deeds equal to each hero's level; unused ones are lost (p.28)."""
    batch.emit(ev.TurnBegan(turn=turn))
    heroes = [h for h in batch.state.heroes.values() if not h.gone]
    batch.emit(
        ev.DeedsRefreshed(
            turn=turn,
            deeds={h.id: h.level for h in heroes},
            lost={h.id: h.deeds for h in heroes if h.deeds},
        )
    )
    begin_phase(batch, 0)


def begin_phase(batch: Batch[GameState], index: int) -> None:
    """Begin phase ``index`` of the turn; a skirmish phase nobody can shoot in is passed over."""
    order = phase_order(batch.state)
    while index < len(order):
        phase, force = order[index]
        if phase != "skirmish" or shooting.shooters(batch.state, force, skirmish=True):
            batch.emit(ev.PhaseBegan(phase=phase, force=force))
            return
        index += 1
    end_turn(batch)


def end_phase(batch: Batch[GameState]) -> None:
    """The current phase is over: the next one begins, or the turn ends."""
    state = batch.state
    batch.emit(ev.PhaseEnded(phase=state.phase, force=state.phasing))
    order = phase_order(state)
    index = order.index((state.phase, state.phasing))
    begin_phase(batch, index + 1)


def end_movement(batch: Batch[GameState], c: cmd.EndMovement) -> None:
    end_phase(batch)


def end_shooting(batch: Batch[GameState], c: cmd.EndShooting) -> None:
    """After movement: the skirmishers are done. In the shooting phase: this side passes."""
    if batch.state.phase == "skirmish":
        end_phase(batch)
    else:
        batch.emit(ev.ShootingPassed(force=c.player))


def pass_shooting(batch: Batch[GameState], force: str) -> None:
    batch.emit(ev.ShootingPassed(force=force, reason="no unit or hero left to shoot"))


def begin_melee(batch: Batch[GameState]) -> None:
    """The next melee of the phase (HB-31)."""
    cid = batch.state.melee_queue[0]
    c = pieces.combat(batch.state, cid)
    sides = {f: list(x) for f, x in c.sides.items()} if c is not None else {}
    batch.emit(ev.MeleeBegan(combat=cid, sides=sides))


def challenge_open(state: GameState) -> bool:
    """The phasing force may still issue its one challenge this melee phase."""
    return not state.challenge_done and bool(duel.challengers(state, state.phasing))


def end_turn(batch: Batch[GameState]) -> None:
    """Phase 7: Shot markers go; the victory conditions and Reputation Tokens (HB-20)."""
    state = batch.state
    batch.emit(ev.TurnEnded(turn=state.turn))
    tokens = {f: state.forces[f].tokens for f in pieces.forces(state)}
    on_table = {f: pieces.on_table_count(state, f) for f in pieces.forces(state)}
    last = state.turn >= state.scenario.turns
    result = rulings.victory(tokens, on_table, last)
    check = ev.VictoryChecked(
        turn=state.turn, tokens=tokens, on_table=on_table, last_turn=last, result=result
    )
    batch.emit(check)
    if result:
        batch.emit(ev.GameEnded(result=result, reason=check.explain()))
    else:
        begin_turn(batch, state.turn + 1)
