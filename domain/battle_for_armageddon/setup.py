"""The state before the first command: the scenario's counters, sites and special-card decks."""

from __future__ import annotations

from warlog.domain.battle_for_armageddon.rules import LATER, POOL
from warlog.domain.battle_for_armageddon.scenario import START_ASIDE, START_LATER, Scenario
from warlog.domain.battle_for_armageddon.state import Counter, GameState, Site


def initial_state(scenario: Scenario) -> GameState:
    """Set-up: the Imperial forces and the Orks' default deployment; hands are dealt by
    ``end_setup`` (it rolls)."""
    types = {t.id: t for t in scenario.counter_types}
    counters: dict[str, Counter] = {}
    for spec in scenario.counters:
        if spec.start == START_ASIDE:
            where = POOL
        elif spec.start == START_LATER:
            where = LATER
        else:
            where = spec.start
        counters[spec.id] = Counter(
            id=spec.id, type=spec.type, side=types[spec.type].side, location=where, tribe=spec.tribe
        )
    sites = {
        s.id: Site(id=s.id, kind=s.kind, area=s.area, defence=s.defence) for s in scenario.sites
    }
    decks: dict[str, tuple[str, ...]] = {}
    for side in ("imperials", "orks"):
        decks[side] = tuple(c.id for c in scenario.special_cards if c.side == side)
    empty: dict[str, tuple[str, ...]] = {"imperials": (), "orks": ()}
    return GameState(
        scenario=scenario,
        counters=counters,
        sites=sites,
        hands=dict(empty),
        decks=decks,
        discards=dict(empty),
    )
