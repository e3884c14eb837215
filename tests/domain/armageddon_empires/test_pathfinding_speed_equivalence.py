"""The fast map searches change nothing: whole random games decided with them and with the
original code (supply traced by a Dijkstra per source over ``Hex`` objects, destinations and
move paths likewise, kept below as the reference) list the same legal commands and emit
byte-identical events; supply and destinations agree at every state, also for the off-map and
oddly written hexes only a forged log's state can hold."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.domain.armageddon_empires.games import BUNDLED, dice_for
from tests.domain.armageddon_empires.helpers import ARMIES, ROWS, army_block, scenario
from tests.domain.test_hexgrid import reference_cheapest_costs, reference_cheapest_path
from warlog.domain.armageddon_empires import movement, paths, supply, turns
from warlog.domain.armageddon_empires.abilities import MOBILE_SUPPLY, has
from warlog.domain.armageddon_empires.autoplay import choose
from warlog.domain.armageddon_empires.commands import EndTurn, MoveArmy
from warlog.domain.armageddon_empires.control import enemy_held
from warlog.domain.armageddon_empires.events import TurnBegan
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.scenario import Scenario
from warlog.domain.armageddon_empires.scenario_checks import bundled
from warlog.domain.armageddon_empires.state import Army, Board, GameState
from warlog.domain.armageddon_empires.terrain import DEFAULT_LEGEND
from warlog.domain.core.events import Event
from warlog.domain.core.hexgrid import Hex

# ---------------------------------------------------------------- the original code (reference)


def reference_enter(board: Board, held: Collection[str]) -> Callable[[Hex], int | None]:
    """The original entry cost: the terrain's, None off the map or enemy-held."""

    def enter(h: Hex) -> int | None:
        at = str(h)
        return None if at in held else board.move_cost(at)

    return enter


def reference_supply_costs(state: GameState, empire: str, budget: int) -> dict[str, int]:
    """The original ``supply.supply_costs``: a search per source, the least cost kept."""
    enter = reference_enter(state.board, enemy_held(state, empire))
    best: dict[str, int] = {}
    for source in supply.supply_sources(state, empire):
        for h, cost in reference_cheapest_costs(Hex.parse(source.at), enter, budget).items():
            at = str(h)
            if cost < best.get(at, cost + 1):
                best[at] = cost
    return best


def reference_out_of_supply(state: GameState, empire: str) -> tuple[str, ...]:
    """The original ``supply.out_of_supply``."""
    field = [a for a in state.armies.values() if a.empire == empire and a.garrison_of is None]
    if not field:
        return ()
    srange = state.empires[empire].supply_range
    raider = supply.raider
    costs = reference_supply_costs(state, empire, srange + max(raider(state, a) for a in field))
    mobile = {
        a.at
        for a in state.armies.values()
        if a.empire == empire and any(has(state.card(c).abilities, MOBILE_SUPPLY) for c in a.units)
    }
    out = [
        a.id
        for a in field
        if costs.get(a.at, srange + raider(state, a) + 1) > srange + raider(state, a)
        and a.at not in mobile
    ]
    return tuple(sorted(out))


def reference_destinations(state: GameState, army: Army) -> dict[str, int]:
    """The original ``movement.destinations`` (on the hexes its empire knows to be held, with
    the hexes it may end in to fight or hunt, AE-17, AE-25)."""
    if not movement._may_move(state, army):
        return {}
    points, _ = movement.allowance(state, army)
    start = Hex.parse(army.at)
    held = movement.known_held(state, army)
    reach = reference_cheapest_costs(start, reference_enter(state.board, held), points)
    for at in movement.enterable(state, army):
        found = reference_path_between(state.board, held - {at}, army.at, at)
        if found is not None and found[0] <= points:
            reach[Hex.parse(at)] = found[0]
    limited = supply.move_limited(state, army)
    return {
        str(h): cost
        for h, cost in reach.items()
        if h != start
        and not (limited and start.distance(h) > 1)
        and not movement._full(state, army.empire, str(h))
    }


def reference_path_between(
    board: Board, held: Collection[str], start: str, goal: str
) -> tuple[int, list[str]] | None:
    """The original move path: ``cheapest_path`` over ``Hex`` objects, written as ``"q,r"``."""
    found = reference_cheapest_path(Hex.parse(start), Hex.parse(goal), reference_enter(board, held))
    return None if found is None else (found[0], [str(h) for h in found[1]])


@contextmanager
def original_searches() -> Iterator[None]:
    """The rules with the original code wherever the map searches changed."""
    swaps: list[tuple[Any, str, Any]] = [
        (turns, "out_of_supply", reference_out_of_supply),
        (movement, "destinations", reference_destinations),
        (paths, "path_between", reference_path_between),
    ]
    saved = [(module, name, getattr(module, name)) for module, name, _ in swaps]
    try:
        for module, name, value in swaps:
            setattr(module, name, value)
        yield
    finally:
        for module, name, value in saved:
            setattr(module, name, value)


# ---------------------------------------------------------------- comparing at a state


def outcome(state: GameState, command: Any, seed: int) -> bytes:
    """The encoded events of ``command``, or the refusal or failure (as audit reports it)."""
    try:
        events: list[Event] = RULESET.decide(state, command, dice_for(seed, 5))
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}".encode()
    return b"\n".join(e.type_name().encode() + msgspec.json.encode(e) for e in events)


def assert_same_searches(state: GameState) -> None:
    """Supply and destinations as the original code gives them, in the same order."""
    for empire in state.seats:
        assert supply.out_of_supply(state, empire) == reference_out_of_supply(state, empire)
        for budget in (0, 4, 7):
            got = supply.supply_costs(state, empire, budget)
            assert got == reference_supply_costs(state, empire, budget)
    for army in state.armies.values():
        want = reference_destinations(state, army)
        assert list(movement.destinations(state, army).items()) == list(want.items())


def assert_same_decisions(state: GameState, commands: list[Any], seed: int) -> None:
    """Each command decides to the same bytes with the fast searches and the original ones."""
    fast = [outcome(state, c, seed) for c in commands]
    with original_searches():
        original = [outcome(state, c, seed) for c in commands]
    assert fast == original


def probes(state: GameState, player: str, rng: random.Random) -> list[MoveArmy]:
    """Moves of the player's armies to random hexes: most are refused, some by the search."""
    hexes = sorted(state.board.terrain)
    armies = [a for a in state.armies.values() if a.empire == player]
    return [MoveArmy(player=player, army=a.id, to=rng.choice(hexes)) for a in armies[:4]]


def play_and_compare(start: GameState, seed: int, commands: int) -> None:
    """Random play from ``start``: at every state the listed commands, the played one and some
    probes decide alike, and the searches agree."""
    rng = random.Random(seed)
    state = start
    for step in range(commands):
        if RULESET.is_terminal(state):
            return
        player = RULESET.active_players(state)[0]
        legal = RULESET.legal_commands(state, player)
        with original_searches():
            assert RULESET.legal_commands(state, player) == legal
        assert_same_searches(state)
        command = rng.choice(legal)
        tried = [command, *probes(state, player, rng)]
        if step % 5 == 0:
            tried += legal
        assert_same_decisions(state, tried, seed)
        for event in RULESET.decide(state, command, dice_for(seed, 5 + step)):
            state = RULESET.evolve(state, event)


# ---------------------------------------------------------------- whole games

TOKENS = sorted(DEFAULT_LEGEND)


@st.composite
def random_terrain(draw: st.DrawFn) -> Scenario:
    """The small test scenario (helpers.py) on random terrain of its size."""
    width = len(ROWS[0].split())
    rows = [
        " ".join(draw(st.lists(st.sampled_from(TOKENS), min_size=width, max_size=width)))
        for _ in ROWS
    ]
    return scenario(rows, max_rounds=4)


@settings(max_examples=6)
@given(seed=st.integers(0, 2**16))
def test_random_games_of_the_bundled_scenario_decide_alike(seed: int) -> None:
    play_and_compare(RULESET.initial_state(bundled(BUNDLED)), seed, commands=100)


@settings(max_examples=6)
@given(scen=random_terrain(), seed=st.integers(0, 2**16))
def test_random_games_on_random_terrain_decide_alike(scen: Scenario, seed: int) -> None:
    play_and_compare(RULESET.initial_state(scen), seed, commands=80)


CROWDED = "".join(
    [
        *(army_block(f"crowd-{n}", "red", "1,1", units=("trooper",)) for n in range(8)),
        army_block("far", "red", "6,0", units=("trooper",)),  # out of supply
        army_block("raider", "red", "5,0", hero="runner"),  # in supply by Raider 1 only
        army_block("wagon", "red", "6,2", units=("wagon", "trooper")),  # Mobile Supply
        army_block("ghost", "red", "5,2", units=("ghost",)),  # Commando
    ]
)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_full_hexes_supply_range_and_the_one_hex_limit_decide_alike(seed: int) -> None:
    # a hex holding 8 armies is no destination; Raider, Mobile Supply and Commando change supply
    # and the move limit of armies out of supply
    start = RULESET.initial_state(scenario(armies=ARMIES + CROWDED, max_rounds=3))
    play_and_compare(start, seed, commands=60)


# ---------------------------------------------------------------- forged states


def turn_starts(count: int) -> Iterator[GameState]:
    """The states at the start of the first ``count`` turns of an autoplay game of the bundled
    scenario: full AP, no army moved yet."""
    state = RULESET.initial_state(bundled(BUNDLED))
    seen = 0
    while seen < count:
        player = RULESET.active_players(state)[0]
        command = choose(state, player, RULESET.legal_commands(state, player))
        events = RULESET.decide(state, command, dice_for(1, 5))
        for event in events:
            state = RULESET.evolve(state, event)
        if any(isinstance(e, TurnBegan) for e in events):
            seen += 1
            yield state


#: hexes off the map (one next to it, so paths lead on) and on it but written oddly
ODD_HEXES = ("-3,20", "0,-1", "07,1", " 4,4")


def forged_states() -> Iterator[GameState]:
    """Turn-start states with an army or a base moved to an odd hex, or an extra base there:
    only a forged log can fold to such a state."""
    for state in turn_starts(2):
        for at in ODD_HEXES:
            for army in state.armies.values():
                moved = msgspec.structs.replace(army, at=at)
                yield msgspec.structs.replace(state, armies={**state.armies, army.id: moved})
            for base in state.bases.values():
                moved_base = msgspec.structs.replace(base, at=at)
                extra = msgspec.structs.replace(base, id=f"{base.id}-forged", at=at)
                yield msgspec.structs.replace(state, bases={**state.bases, base.id: moved_base})
                yield msgspec.structs.replace(state, bases={**state.bases, extra.id: extra})


def test_forged_positions_decide_alike() -> None:
    rng = random.Random(7)
    checked = 0
    for state in forged_states():
        assert_same_searches(state)
        player = state.current
        assert player is not None
        legal = RULESET.legal_commands(state, player)
        with original_searches():
            assert RULESET.legal_commands(state, player) == legal
        moving = [c for c in legal if isinstance(c, MoveArmy)]
        searching = [*rng.sample(moving, min(6, len(moving))), EndTurn(player=player)]
        moves = [
            MoveArmy(player=player, army=a.id, to=to)
            for a in state.armies.values()
            if a.empire == player and a.garrison_of is None
            for to in (rng.choice(sorted(state.board.terrain)), "0,0", "4,4", "7,1")
        ]
        assert_same_decisions(state, [*searching, *moves], seed=3)
        checked += 1
    assert checked > 80


def test_a_board_graph_is_built_once_per_map() -> None:
    board = RULESET.initial_state(bundled(BUNDLED)).board
    twin = msgspec.msgpack.decode(msgspec.msgpack.encode(board), type=Board)
    assert twin is not board
    assert paths.board_graph(board) is paths.board_graph(board)
    assert paths.board_graph(twin) is paths.board_graph(board)
