"""What holds of every Battle for Armageddon state at rest (after a whole command's batch).

Each invariant is named; ``violations(state)`` returns those broken (``Rules.invariants``). They
follow from the rules sheet (seed 003) and the rulings: the counters, sites and special cards of
the scenario are conserved, each in exactly one known place; stacking holds whenever the movement
phase is not in progress (it counts at the end of the phase), but for the counters placed over it
in a build phase since version 8 (BFA-12), until the Imperials' next movement phase ends; the two
sides never share an area; build points and rebuilds are never negative; the clock, the phases
and a combat in progress are coherent.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections import defaultdict

from warlog.domain.battle_for_armageddon import board, results
from warlog.domain.battle_for_armageddon.rules import (
    ACTION_SEGMENTS,
    IMPERIALS,
    LAST_TURN,
    OFF_MAP,
    ORKS,
    PHASES,
    PLAYERS,
    POOL,
    TRACK,
)
from warlog.domain.battle_for_armageddon.scenario import IMPASSABLE
from warlog.domain.battle_for_armageddon.state import Counter, GameState
from warlog.domain.core.invariants import Violation
from warlog.domain.core.procedure import Decision


def violations(state: GameState) -> list[Violation]:
    """The invariants ``state`` breaks; empty when all hold."""
    out: list[Violation] = []
    _counters(state, out)
    _areas(state, out)
    _cards(state, out)
    _clock(state, out)
    return out


def _counters(state: GameState, out: list[Violation]) -> None:
    sc = state.scenario
    if sorted(state.counters) != sorted(x.id for x in sc.counters):
        out.append(Violation("counters_conserved", "a counter of the scenario is lost or invented"))
    terrain = {a.id: a.terrain for a in sc.areas}
    roles = {t.id: t.role for t in sc.counter_types}
    for cid, x in state.counters.items():
        if x.id != cid:
            out.append(Violation("counters_conserved", f"{cid} holds counter {x.id}"))
        if x.location not in terrain and x.location not in OFF_MAP:
            out.append(Violation("counters_placed", f"{cid} is nowhere: {x.location!r}"))
        elif terrain.get(x.location) in IMPASSABLE:
            out.append(Violation("counters_placed", f"{cid} stands in impassable {x.location}"))
        if (x.track >= 1) != (x.location == TRACK):
            out.append(
                Violation("production_track", f"{cid} is {x.track} spaces out at {x.location}")
            )
        if x.reduced and roles[x.type] != "chapter":
            out.append(Violation("reduced_chapters", f"{cid} is reduced but not a chapter"))
        if x.side == ORKS and x.location == POOL and roles[x.type] == "leader":
            out.append(Violation("ghazghkull_never_rebuilt", f"{cid} is in the pool"))
    if sorted(state.sites) != sorted(s.id for s in sc.sites):
        out.append(Violation("sites_conserved", "a hive or factory is lost or invented"))


def _areas(state: GameState, out: list[Violation]) -> None:
    """Stacking at rest (seed 003 "Stacking"; it counts at the end of a movement phase) and no
    area held by both sides (BFA-17: an intact hive or factory is an Imperial counter)."""
    stacks: dict[tuple[str, str], list[Counter]] = defaultdict(list)
    for x in state.counters.values():
        if x.location not in OFF_MAP:
            stacks[x.location, x.side].append(x)
    sited = {s.area for s in state.sites.values() if not s.ruined}
    for (area, side), stack in stacks.items():
        if side == ORKS and ((area, IMPERIALS) in stacks or area in sited):
            out.append(Violation("one_side_per_area", f"both sides stand in {area}"))
        if state.phase != "movement":
            # BFA-12 (since version 8): counters placed over the limits in a build phase may
            # stand so until the end of the Imperials' next movement phase, and only they
            kept = [x for x in stack if x.id not in state.overstacked]
            problem = board.stacking_problem(state, area, kept)
            if problem is not None:
                out.append(Violation("stacking", problem))


def _cards(state: GameState, out: list[Violation]) -> None:
    """Each side's special cards are each in exactly one of its deck, hand and discards."""
    for side in PLAYERS:
        mine = Tally(c.id for c in state.scenario.special_cards if c.side == side)
        places = {
            "deck": state.decks[side],
            "hand": state.hands[side],
            "discards": state.discards[side],
        }
        held = Tally(card for cards in places.values() for card in cards)
        if held != mine:
            wrong = sorted(set(held) | set(mine), key=str)
            told = "; ".join(
                f"{card} {held[card]} times"
                + "".join(f", {n} in the {place}" for place, n in _where(card, places))
                for card in wrong
                if held[card] != mine[card]
            )
            out.append(
                Violation("special_cards_conserved", f"the {side}' cards, each once: {told}")
            )


def _where(card: str, places: dict[str, tuple[str, ...]]) -> list[tuple[str, int]]:
    """Where ``card`` is, and how many times in each place."""
    return [(place, cards.count(card)) for place, cards in places.items() if card in cards]


def _clock(state: GameState, out: list[Violation]) -> None:
    if state.build_points < 0 or state.rebuilds < 0:
        out.append(
            Violation(
                "build_never_negative",
                f"{state.build_points} build points, {state.rebuilds} rebuilds",
            )
        )
    if not 1 <= state.turn <= LAST_TURN:
        out.append(Violation("turns", f"turn {state.turn} of {LAST_TURN}"))
    if (state.stage == "over") != bool(state.result):
        out.append(Violation("result", f"stage {state.stage} with result {state.result!r}"))
    if state.stage == "action":
        if state.phasing not in PLAYERS or not 1 <= state.segment <= ACTION_SEGMENTS:
            out.append(
                Violation("segments", f"segment {state.segment} phased by {state.phasing!r}")
            )
        if state.phase not in (*PHASES, ""):
            out.append(Violation("segments", f"an unknown phase {state.phase!r}"))
        if set(state.choices) != set(PLAYERS):
            out.append(Violation("segments", "an action segment before both strategy choices"))
    if state.combat is not None:
        if state.stage != "action" or state.phase != "combat":
            out.append(Violation("combat", f"a combat in the {state.phase or 'no'} phase"))
        elif not isinstance(results.combat_next(state, state.combat), Decision):
            out.append(Violation("combat", "a combat step was left undone"))
    if state.build_step and state.phase != "build":
        out.append(Violation("build", f"build step {state.build_step!r} outside a build phase"))
