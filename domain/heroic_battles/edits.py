"""The small edits ``evolve`` makes to a state: a unit's or hero's fields, the procedures on the
stack, the melees. Each returns a new state; nothing here decides anything."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from warlog.domain.heroic_battles import rulings
from warlog.domain.heroic_battles.state import AnyFrame, Combat, GameState, MeleeFrame


def with_piece(s: GameState, pid: str, **changes: Any) -> GameState:
    if pid in s.units:
        units = dict(s.units)
        units[pid] = replace(units[pid], **changes)
        return replace(s, units=units)
    heroes = dict(s.heroes)
    heroes[pid] = replace(heroes[pid], **changes)
    return replace(s, heroes=heroes)


def with_every(s: GameState, **changes: Any) -> GameState:
    return replace(
        s,
        units={k: replace(v, **changes) for k, v in s.units.items()},
        heroes={k: replace(v, **changes) for k, v in s.heroes.items()},
    )


def with_stamina_lost(s: GameState, pid: str, lost: int) -> GameState:
    p = s.units.get(pid) or s.heroes[pid]
    return with_piece(s, pid, stamina=max(0, p.stamina - lost))


def top(s: GameState) -> AnyFrame:
    return s.frames[-1]


def with_top(s: GameState, frame: AnyFrame) -> GameState:
    return replace(s, frames=(*s.frames[:-1], frame))


def pushed(s: GameState, frame: AnyFrame) -> GameState:
    return replace(s, frames=(*s.frames, frame))


def popped(s: GameState) -> GameState:
    return replace(s, frames=s.frames[:-1])


def top_as(s: GameState, kind: type[Any]) -> Any:
    frame = top(s)
    assert isinstance(frame, kind), f"expected a {kind.__name__} on top, found {frame!r}"
    return frame


def acted(s: GameState, pid: str, action: int, done: bool = False) -> GameState:
    """HB-3: ``pid`` takes movement action ``action``; a different earlier mover is done."""
    if s.mover and s.mover != pid:
        s = with_piece(s, s.mover, done=True)
    p = s.units.get(pid) or s.heroes[pid]
    s = with_piece(s, pid, actions=action, done=done or p.done)
    return replace(s, mover=pid)


def with_combats(s: GameState, combats: list[Combat]) -> GameState:
    """Keep the melees that still have both sides, or that a melee in progress is about."""
    fighting = {f.combat for f in s.frames if isinstance(f, MeleeFrame)}
    kept = tuple(
        c for c in combats if c.id in fighting or (len(c.sides) == 2 and all(c.sides.values()))
    )
    return replace(s, combats=kept)


def without_fighter(s: GameState, pid: str) -> GameState:
    """``pid`` is no longer a fighter in any melee."""
    out = []
    for c in s.combats:
        sides = {f: tuple(x for x in ids if x != pid) for f, ids in c.sides.items()}
        flankers = tuple(pair for pair in c.flankers if pid not in pair)
        flanked = tuple(x for x in c.flanked if x != pid)
        if rulings.flank_lasts_while_its_enemy_fights(s.rules_version):
            flanked = tuple(x for x in flanked if any(t == x for t, _ in flankers))
        out.append(replace(c, sides=sides, flanked=flanked, flankers=flankers))
    return with_combats(s, out)


def with_combat(s: GameState, cid: str, change: Callable[[Combat], Combat]) -> GameState:
    return with_combats(s, [change(c) if c.id == cid else c for c in s.combats])


def other_force(s: GameState, force: str) -> str:
    return s.defender if force == s.attacker else s.attacker
