"""What holds of every Heroic Battles state at rest (after a whole command's batch).

Each invariant is named; ``violations(state)`` returns those broken (``Rules.invariants``). They
follow from the rules and the rulings: the units and heroes of the scenario are conserved, each in
its own force; stamina is lost, never gained, never below 0, and a figure with none has left the
table (Armour: every full N hits remove 1 stamina); Reputation Tokens are never negative (HB-21: a
force loses as many as it has); a unit takes at most two movement actions (HB-3); a hero holds at
most as many Mighty Deeds as its level (p.28) and is attached only to a standing unit of its own
force; each fighter of a melee stands on the table, fights for its own force and in one melee
only; charges happen in movement and melees in the melee phase; the game never rests on an
automatic step; the battle is over exactly when it has a result and nobody is waited for.
"""

from __future__ import annotations

from warlog.domain.core.invariants import Violation
from warlog.domain.core.procedure import Decision
from warlog.domain.heroic_battles import pieces, rulings
from warlog.domain.heroic_battles.decisions import NEXT
from warlog.domain.heroic_battles.state import ChargeFrame, GameState, Hero, MeleeFrame

#: HB-3: a unit moves with at most two actions in a movement phase
MOST_ACTIONS = 2


def violations(state: GameState) -> list[Violation]:
    """The invariants ``state`` breaks; empty when all hold."""
    out: list[Violation] = []
    _figures(state, out)
    _heroes(state, out)
    _melees(state, out)
    _sequence(state, out)
    return out


def _figures(state: GameState, out: list[Violation]) -> None:
    sc = state.scenario
    if sorted(state.units) != sorted(u.id for f in sc.forces for u in f.units) or sorted(
        state.heroes
    ) != sorted(h.id for f in sc.forces for h in f.heroes):
        out.append(
            Violation("figures_conserved", "a unit or hero of the scenario is lost or invented")
        )
    if set(state.forces) != {f.id for f in sc.forces}:
        out.append(Violation("figures_conserved", "a force of the scenario is lost or invented"))
    for force in state.forces.values():
        if force.tokens < 0:
            out.append(
                Violation("tokens_never_negative", f"{force.id} holds {force.tokens} tokens")
            )
    for u in state.units.values():
        if not 0 <= u.stamina <= u.max_stamina:
            out.append(Violation("stamina_in_range", f"{u.id} has {u.stamina} of {u.max_stamina}"))
        if not u.gone and u.stamina == 0:
            out.append(Violation("stamina_in_range", f"{u.id} stands with no stamina"))
        if not 0 <= u.actions <= MOST_ACTIONS:
            out.append(Violation("movement_actions", f"{u.id} took {u.actions} actions"))


def _heroes(state: GameState, out: list[Violation]) -> None:
    for h in state.heroes.values():
        if not 0 <= h.stamina <= h.max_stamina:
            out.append(Violation("stamina_in_range", f"{h.id} has {h.stamina} of {h.max_stamina}"))
        if not h.gone and h.stamina == 0:
            out.append(Violation("stamina_in_range", f"{h.id} stands with no stamina"))
        if not 0 <= h.deeds <= h.level:
            out.append(
                Violation("deeds_within_level", f"{h.id} holds {h.deeds} at level {h.level}")
            )
        if h.gone and h.unit:
            out.append(Violation("hero_attached", f"{h.id} is {h.gone} but attached to {h.unit}"))
        elif h.unit:
            unit = state.units.get(h.unit)
            if unit is None or unit.force != h.force or unit.gone:
                out.append(
                    Violation("hero_attached", f"{h.id} is attached to {h.unit}, which cannot lead")
                )


def _melees(state: GameState, out: list[Violation]) -> None:
    fought = {f.combat for f in state.frames if isinstance(f, MeleeFrame)}
    seen: set[str] = set()
    for c in state.combats:
        if set(c.sides) != set(state.forces):
            out.append(Violation("melee_fighters", f"{c.id} has the sides {sorted(c.sides)}"))
        if not pieces.engaged(c) and c.id not in fought:
            out.append(Violation("melee_fighters", f"{c.id} has an empty side"))
        for force, ids in c.sides.items():
            for fid in ids:
                p = pieces.piece(state, fid)
                if p is None or p.force != force or not pieces.standing(p):
                    out.append(Violation("melee_fighters", f"{fid} cannot fight in {c.id}"))
                elif isinstance(p, Hero) and p.unit:
                    out.append(Violation("melee_fighters", f"{fid} fights with its unit too"))
                if fid in seen:
                    out.append(Violation("melee_fighters", f"{fid} fights in two melees"))
                seen.add(fid)
        fighters = {f for ids in c.sides.values() for f in ids}
        if not set(c.flanked) <= fighters:
            out.append(Violation("melee_fighters", f"{c.id} has a flank of no fighter"))
        if not {x for pair in c.flankers for x in pair} <= fighters:
            out.append(Violation("melee_fighters", f"{c.id} has a flanker of no fighter"))
        if rulings.flank_lasts_while_its_enemy_fights(state.rules_version) and set(c.flanked) != {
            t for t, _ in c.flankers
        }:
            out.append(Violation("melee_fighters", f"{c.id} is flanked by no fighter (HB-37)"))


def _sequence(state: GameState, out: list[Violation]) -> None:
    if not 1 <= state.turn <= state.scenario.turns:
        out.append(Violation("turn_sequence", f"turn {state.turn} of {state.scenario.turns}"))
    for frame in state.frames:
        if isinstance(frame, ChargeFrame) and state.phase != "movement":
            out.append(Violation("turn_sequence", f"a charge in the {state.phase} phase"))
        if isinstance(frame, MeleeFrame) and state.phase != "melee":
            out.append(Violation("turn_sequence", f"a melee in the {state.phase} phase"))
    over = state.phase == "over"
    if over != bool(state.result):
        out.append(Violation("battle_over", f"phase {state.phase} with result {state.result!r}"))
    found = NEXT(state)
    if found is not None and not isinstance(found, Decision):
        out.append(Violation("at_rest", "an automatic step was left undone"))
    if found is None and not over:
        out.append(Violation("battle_over", f"phase {state.phase} but nothing is waited for"))
    elif isinstance(found, Decision) and over:
        waiting = ", ".join(found.players)
        out.append(
            Violation("battle_over", f"the battle is over but the game still waits for {waiting}")
        )
