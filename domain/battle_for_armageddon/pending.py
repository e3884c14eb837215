"""Whose decision the game waits for, and of what kind (the phase machine, read off the state)."""

from __future__ import annotations

from dataclasses import dataclass

from warlog.domain.battle_for_armageddon import results
from warlog.domain.battle_for_armageddon.rules import ORKS, PLAYERS
from warlog.domain.battle_for_armageddon.state import State


@dataclass(frozen=True)
class Pending:
    """``kind``: setup, strategy, movement, combat, build, or a combat choice (reroll, loss,
    retreat, advance, whose ``need`` gives the options)."""

    players: tuple[str, ...]
    kind: str
    need: results.Need | None = None


def pending(state: State) -> Pending | None:
    """The decision the game waits for; None once the game is over."""
    if state.stage == "over":
        return None
    if state.stage == "setup":
        return Pending((ORKS,), "setup")
    if state.stage == "strategy":
        return Pending(tuple(p for p in PLAYERS if p not in state.choices), "strategy")
    need = results.need(state)
    if need is not None:
        return Pending((need.player,) if need.player else (), need.kind, need)
    return Pending((state.phasing,), state.phase)


def describe(p: Pending | None) -> dict[str, object]:
    """The pending decision as JSON builtins (for views)."""
    if p is None:
        return {}
    out: dict[str, object] = {"players": list(p.players), "kind": p.kind}
    if p.need is not None:
        n = p.need
        out.update(
            {k: v for k, v in (("side", n.side), ("area", n.area), ("counter", n.counter)) if v}
        )
        out["options"] = list(n.options)
    return out
