"""What the players see: Midgard has no hidden information (everything on the table is seen by
both players), so every view is the whole state and no event marks anything ``Hidden`` (nothing
of it is sealed in the log but a referee's typed dice); and the Events view's entries, each with
the turn it happened in.
"""

from __future__ import annotations

from typing import Any

import msgspec

from warlog.domain.core.events import Event
from warlog.domain.core.procedure import describe
from warlog.domain.core.ruleset import Notice, notify
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles import pieces, rulings
from warlog.domain.heroic_battles.decisions import NEXT
from warlog.domain.heroic_battles.state import GameState

#: Events-view entries last this many turns (the reputation of a deed is news for its turn)
NOTICE_TURNS = 1


#: events whose explanation is posted to the Events view
POSTED = (
    ev.ReputationGained,
    ev.ReputationLost,
    ev.UnitDestroyed,
    ev.HeroKilled,
    ev.MeleeDecided,
    ev.SingleCombatRound,
    ev.ChallengeRefused,
    ev.VictoryChecked,
)


def view(state: GameState, player: str | None) -> dict[str, Any]:
    """The whole state as JSON builtins, the same for every player and the referee."""
    forces = pieces.forces(state)
    return {
        "ruleset": "heroic-battles",
        "scenario": state.scenario.name,
        "turn": state.turn,
        "last_turn": state.scenario.turns,
        "phase": state.phase,
        "phasing": state.phasing,
        "attacker": state.attacker,
        "defender": state.defender,
        "pending": describe(NEXT(state)),
        "forces": {
            f: {
                "name": state.forces[f].name,
                "tokens": state.forces[f].tokens,
                "on_table": pieces.on_table_count(state, f),
            }
            for f in forces
        },
        "units": _plain(state.units),
        "heroes": _plain(state.heroes),
        "combats": _plain(state.combats),
        "procedures": _plain(state.frames),
        "mover": state.mover,
        "melee_queue": list(state.melee_queue),
        "shooting": {"side": state.shooting_side, "passed": list(state.passed)},
        "table_duties": list(rulings.TABLE_DUTIES),
        "result": state.result,
    }


def _plain(value: object) -> Any:
    """``value`` as plain JSON builtins (every tuple a list)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def notices(before: GameState, after: GameState, event: Event) -> list[Notice]:
    """Events-view entries: every reputation gained or lost, units and heroes lost, melee and
    single-combat results, the end of each turn and of the battle; each with its turn."""
    players = list(pieces.forces(after))
    if isinstance(event, ev.GameEnded):
        return notify(players, f"game over: {event.result} — {event.reason}", after.scenario.turns)
    if isinstance(event, POSTED):
        return notify(players, f"turn {after.turn}: {event.explain()}", NOTICE_TURNS)
    return []
