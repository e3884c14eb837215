"""What each player may see: the state view, redacted events, and the Events-view notices.

Hidden from the opponent: the strategy cards chosen and not yet revealed, the special cards in
hand and drawn (and the die that picked them), the contents of the deck. Counters, the
production track and the build points are public.
"""

from __future__ import annotations

from typing import Any

from warlog.domain.battle_for_armageddon import board
from warlog.domain.battle_for_armageddon.build_events import (
    CounterBuilt,
    CounterPlaced,
    CounterRebuilt,
)
from warlog.domain.battle_for_armageddon.combat_events import CombatEnded, SiteRuined
from warlog.domain.battle_for_armageddon.decisions import NEXT
from warlog.domain.battle_for_armageddon.movement import OVERSTACKED
from warlog.domain.battle_for_armageddon.movement_events import CounterEliminated
from warlog.domain.battle_for_armageddon.rules import LAST_TURN, PLAYERS
from warlog.domain.battle_for_armageddon.special_card_events import SiteRebuilt, SpecialCardPlayed
from warlog.domain.battle_for_armageddon.state import GameState
from warlog.domain.battle_for_armageddon.turn_events import (
    ActionSegmentBegan,
    GameEnded,
    InitiativeDecided,
    ReinforcementsArrived,
    SupplyChecked,
    VictoryChecked,
)
from warlog.domain.core.events import Event
from warlog.domain.core.procedure import describe
from warlog.domain.core.ruleset import Notice
from warlog.domain.core.summary import plural


def view(state: GameState, player: str | None) -> dict[str, Any]:
    """The state as ``player`` sees it (None: the referee sees everything), as JSON builtins."""

    def sees(owner: str) -> bool:
        return player is None or player == owner

    counters = {}
    for x in state.counters.values():
        name, attack, defence, move = board.printed(state, x)
        counters[x.id] = {
            "name": name,
            "type": x.type,
            "side": x.side,
            "tribe": x.tribe,
            "location": x.location,
            "track": x.track,
            "reduced": x.reduced,
            "attack": attack,
            "defence": defence,
            "move": move,
        }
    areas: dict[str, Any] = {}
    for a in state.scenario.areas:
        here = board.counters_in(state, a.id)
        site = board.site_in(state, a.id)
        if not here and site is None:
            continue
        areas[a.id] = {
            "terrain": a.terrain,
            "counters": [x.id for x in here],
            "site": None
            if site is None
            else {"id": site.id, "kind": site.kind, "ruined": site.ruined},
        }
    strategy = {
        p: {
            "chosen": p in state.choices,
            "cards": list(state.choices.get(p, ())) if sees(p) else list(state.revealed.get(p, ())),
        }
        for p in PLAYERS
    }
    hands: dict[str, Any] = {}
    for p in PLAYERS:
        hands[p] = {"count": len(state.hands[p])}
        if sees(p):
            hands[p]["cards"] = list(state.hands[p])
    graph = board.graph(state)
    out: dict[str, Any] = {
        "ruleset": "battle-for-armageddon",
        "scenario": state.scenario.name,
        "turn": state.turn,
        "last_turn": LAST_TURN,
        "stage": state.stage,
        "initiative": state.initiative,
        "segment": state.segment,
        "phasing": state.phasing,
        "card": state.card,
        "phase": state.phase,
        "pending": describe(NEXT(state)),
        "build_track": board.build_track(state),
        "build_step": state.build_step,
        "build_points": state.build_points,
        "rebuilds": state.rebuilds,
        "special_played": state.special_played,
        "moved": list(state.moved),
        "attacked_areas": list(state.attacked_areas),
        "retreated": list(state.retreated),
        "areas": areas,
        "map": {
            a.id: {"name": a.name, "terrain": a.terrain, "neighbours": list(graph.neighbours(a.id))}
            for a in state.scenario.areas
        },
        "counters": counters,
        "sites": {
            s.id: {"kind": s.kind, "area": s.area, "defence": s.defence, "ruined": s.ruined}
            for s in state.sites.values()
        },
        "strategy": strategy,
        "hands": hands,
        "decks": {p: {"count": len(state.decks[p])} for p in PLAYERS},
        "discards": {p: list(state.discards[p]) for p in PLAYERS},
        "combat": None,
        "result": state.result,
    }
    if player is None:
        for p in PLAYERS:
            out["decks"][p]["cards"] = sorted(state.decks[p])
    c = state.combat
    if c is not None:
        out["combat"] = {
            "attacker": c.attacker,
            "target": c.target,
            "stacks": list(c.sources),
            "attackers": dict(c.attackers),
            "defenders": list(c.defenders),
            "passive": list(c.passive),
            "attack_total": c.attack_total,
            "defence_total": c.defence_total,
            "column": c.column,
            "roll": c.roll,
            "result": c.result,
            "settled": c.settled,
            "steps": [{"kind": s.kind, "side": s.side, "area": s.area} for s in c.steps],
        }
    return out


def _both(text: str, duration: int = 1) -> list[Notice]:
    return [Notice(empire=p, text=text, duration=duration) for p in PLAYERS]


def notices(before: GameState, after: GameState, event: Event) -> list[Notice]:
    """Events-view entries: the results of each segment (combats, supply, builds, victory)."""
    turn = f"turn {after.turn}"
    if isinstance(event, CombatEnded):
        return _both(f"{turn}: {event.summary}")
    if isinstance(event, SupplyChecked) and event.cut_off:
        # a full Marine Chapter cut off flips to its detachment and stays (BFA-13)
        flipped = [c for c in event.lost if board.on_map(after.counters[c])]
        gone = [c for c in event.lost if c not in flipped]
        text = (
            f"{turn}: supply: the {event.player} cut off in {', '.join(event.cut_off)}; "
            f"lost: {', '.join(gone) or 'none'}"
        )
        if flipped:
            text += f"; flipped to detachments: {', '.join(flipped)}"
        return _both(text)
    if isinstance(event, CounterEliminated) and event.reason == OVERSTACKED:
        return _both(f"{turn}: {event.counter} in {event.area}: {event.reason} → {event.to}")
    if isinstance(event, SiteRuined):
        return _both(f"{turn}: {event.explain()}", duration=2)
    if isinstance(event, SiteRebuilt):
        return _both(f"{turn}: {event.explain()}", duration=2)
    if isinstance(event, CounterBuilt):
        return _both(f"{turn}: the Imperials build {event.counter} ({plural(event.cost, 'point')})")
    if isinstance(event, CounterPlaced):
        return _both(f"{turn}: {event.counter} enters play in {event.area} ({event.reason})")
    if isinstance(event, CounterRebuilt):
        return _both(f"{turn}: the Orks rebuild {event.counter} in {event.area}")
    if isinstance(event, ReinforcementsArrived):
        return _both(event.explain())
    if isinstance(event, SpecialCardPlayed):
        return _both(f"{turn}: the {event.player} play {event.name}")
    if isinstance(event, InitiativeDecided):
        return _both(event.explain())
    if isinstance(event, ActionSegmentBegan):
        return _both(f"{turn}: {event.explain()}")
    if isinstance(event, VictoryChecked):
        return _both(event.explain())
    if isinstance(event, GameEnded):
        return _both(f"game over: {event.result} — {event.reason}", duration=LAST_TURN)
    return []
