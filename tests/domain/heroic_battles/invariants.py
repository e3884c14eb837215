"""Invariants of every Midgard state at rest (after a whole command's batch).

``check_invariants(state)`` raises AssertionError naming what is broken; the generic Hypothesis
state machine calls it after every step.
"""

from __future__ import annotations

from warlog.domain.core.procedure import Decision
from warlog.domain.heroic_battles import pieces
from warlog.domain.heroic_battles.decisions import NEXT
from warlog.domain.heroic_battles.state import ChargeFrame, GameState, Hero, MeleeFrame


def check_invariants(state: GameState) -> None:
    sc = state.scenario
    assert sorted(state.units) == sorted(u.id for f in sc.forces for u in f.units)
    assert sorted(state.heroes) == sorted(h.id for f in sc.forces for h in f.heroes)
    assert set(state.forces) == {f.id for f in sc.forces}
    for force in state.forces.values():
        assert force.tokens >= 0, f"{force.id} has {force.tokens} tokens"
    for u in state.units.values():
        assert 0 <= u.stamina <= u.max_stamina, f"{u.id} stamina {u.stamina}"
        assert u.gone or u.stamina > 0, f"{u.id} stands with no stamina"
        assert 0 <= u.actions <= 2
    for h in state.heroes.values():
        assert 0 <= h.stamina <= h.max_stamina, f"{h.id} stamina {h.stamina}"
        assert (h.gone == "killed") == (h.stamina == 0) or h.gone, f"{h.id} {h.gone} {h.stamina}"
        assert 0 <= h.deeds <= h.level, f"{h.id} has {h.deeds} deeds at level {h.level}"
        if h.gone:
            assert not h.unit, f"{h.id} is gone but attached to {h.unit}"
        elif h.unit:
            unit = state.units[h.unit]
            assert unit.force == h.force and not unit.gone, f"{h.id} attached to {unit.id}"
    melees = {f.combat for f in state.frames if isinstance(f, MeleeFrame)}
    seen: set[str] = set()
    for c in state.combats:
        assert set(c.sides) == set(state.forces), f"{c.id} sides {c.sides}"
        assert pieces.engaged(c) or c.id in melees, f"{c.id} has an empty side"
        for force, ids in c.sides.items():
            for fid in ids:
                p = pieces.find(state, fid)
                assert p.force == force and pieces.standing(p), f"{fid} cannot fight in {c.id}"
                assert fid not in seen, f"{fid} fights in two melees"
                seen.add(fid)
                if isinstance(p, Hero):
                    assert not p.unit
        assert set(c.flanked) <= {f for ids in c.sides.values() for f in ids}
    assert (state.phase == "over") == bool(state.result)
    assert 1 <= state.turn <= sc.turns
    for frame in state.frames:
        if isinstance(frame, ChargeFrame):
            assert state.phase == "movement"
        if isinstance(frame, MeleeFrame):
            assert state.phase == "melee"
    found = NEXT(state)
    assert found is None or isinstance(found, Decision), "an automatic step was left undone"
    assert (found is None) == (state.phase == "over")
