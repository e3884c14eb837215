"""legal_commands: what a player may do now, every entry accepted by decide as it is.

Where the rules leave a player free to stop (end a phase, keep a result, advance nobody) that
option is always listed, so that play can always go on. Interchangeable counters (same type,
same tribe, both off the map) are offered once.
"""

from __future__ import annotations

from itertools import combinations, permutations

from warlog.domain.battle_for_armageddon import (
    board,
    build,
    combat,
    movement,
    results,
    specials,
    turns,
)
from warlog.domain.battle_for_armageddon import commands as cmd
from warlog.domain.battle_for_armageddon.rules import ADVANCE_MAX, IMPERIALS, STRATEGY_CARDS_CHOSEN
from warlog.domain.battle_for_armageddon.state import Counter, GameState
from warlog.domain.core.procedure import Decision
from warlog.domain.core.ruleset import Command

#: attacks offered per target: every combination of up to this many joining stacks
MAX_LISTED_SOURCES = 6

#: the command types whose every accepted form ``options`` lists (``Ruleset.complete_legal``):
#: those without fields (``end_setup``, ``reroll``, ``keep_result``, ``finish_building``,
#: ``end_phase``), every ordered pair of strategy cards (``choose_strategy``), each counter the
#: loss or the retreat may name and each area it may retreat to (``take_loss``, ``retreat``,
#: the decision's options, which decide checks), and every READY counter with every area
#: ``build.placements`` gives it, the one check ``build.place`` makes (``place``). Left out:
#: ``deploy`` (a counter deployed again to the area it stands in is accepted, and not offered),
#: ``move`` (only moves within stacking are offered; a move over the limits is accepted, and
#: the end of the movement phase enforces stacking, BFA-2), ``attack`` (joining stacks in any
#: order are accepted; at most ``MAX_LISTED_SOURCES`` offered), ``advance`` (a group in any
#: order), ``build``, ``rebuild`` and ``play_special`` (interchangeable counters and cards are
#: offered once)
COMPLETE: frozenset[str] = frozenset(
    {
        "end_setup",
        "choose_strategy",
        "reroll",
        "keep_result",
        "take_loss",
        "retreat",
        "finish_building",
        "place",
        "end_phase",
    }
)


def options(state: GameState, p: Decision, player: str) -> list[Command]:
    """The commands with which ``player`` may answer the decision ``p`` (``Rules.options``)."""
    if p.kind == "setup":
        return _setup(state, player)
    if p.kind == "strategy":
        ids = [c.id for c in state.scenario.strategy_cards]
        return [
            cmd.ChooseStrategy(player=player, cards=list(pair))
            for pair in permutations(ids, STRATEGY_CARDS_CHOSEN)
        ]
    if p.procedure:
        return _choice(state, player, p)
    out: list[Command] = []
    if p.kind == "movement":
        for x in movement.movable(state, player):
            out.extend(
                cmd.Move(player=player, counter=x.id, to=a) for a in movement.destinations(state, x)
            )
    elif p.kind == "combat":
        out.extend(attacks(state, player))
    else:  # the build phase: ``decisions.PhaseKind`` names no other here
        out.extend(_build(state, player))
    out.extend(specials.playable(state, player))
    out.append(cmd.EndPhase(player=player))
    return out


def _setup(state: GameState, player: str) -> list[Command]:
    out: list[Command] = []
    areas = turns.deploy_areas(state)
    for x in state.counters.values():
        if x.side != player or not board.on_map(x):
            continue
        out.extend(
            cmd.Deploy(player=player, counter=x.id, to=a)
            for a in areas
            if a != x.location and board.fits(state, a, [x])
        )
    out.append(cmd.EndSetup(player=player))
    return out


def _choice(state: GameState, player: str, need: Decision) -> list[Command]:
    if need.kind == "reroll":
        return [cmd.Reroll(player=player), cmd.KeepResult(player=player)]
    if need.kind == "loss":
        return [cmd.TakeLoss(player=player, counter=c) for c in need.options]
    if need.kind == "retreat":
        return [
            cmd.Retreat(player=player, counter=need.about["counter"], to=a) for a in need.options
        ]
    # the advance: ``results.ChoiceKind`` names no other
    return [cmd.Advance(player=player, counters=list(group)) for group in advances(state, need)]


def advances(state: GameState, need: Decision) -> list[tuple[str, ...]]:
    """Every group that may advance: up to 3 counters that count, with all or none of the
    leaders (the empty group, staying put, first)."""
    counters = [state.counters[c] for c in need.options]
    normal = [x.id for x in counters if board.counts_for_stacking(state, x)]
    leaders = tuple(x.id for x in counters if not board.counts_for_stacking(state, x))
    out: list[tuple[str, ...]] = []
    for k in range(min(ADVANCE_MAX, len(normal)) + 1):
        for group in combinations(normal, k):
            for extra in ((), leaders) if leaders else ((),):
                chosen = (*group, *extra)
                if results.advance_problem(state, list(chosen)) is None and chosen not in out:
                    out.append(chosen)
    return out


def attacks(state: GameState, player: str) -> list[cmd.Attack]:
    """Every attack: each target with each combination of the stacks that can reach it."""
    out: list[cmd.Attack] = []
    for target, sources in combat.targets(state, player).items():
        listed = sources[:MAX_LISTED_SOURCES]
        for k in range(1, len(listed) + 1):
            out.extend(
                cmd.Attack(player=player, target=target, stacks=list(group))
                for group in combinations(listed, k)
            )
    return out


def _distinct(counters: list[Counter]) -> list[Counter]:
    seen: set[tuple[str, str]] = set()
    out: list[Counter] = []
    for x in counters:
        key = (x.type, x.tribe)
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


def _build(state: GameState, player: str) -> list[Command]:
    out: list[Command] = []
    if player == IMPERIALS:
        if state.build_step == "buy":
            out.extend(
                cmd.Build(player=player, counter=x.id) for x in _distinct(build.buildable(state))
            )
            out.append(cmd.FinishBuilding(player=player))
        else:
            ready = [
                x for x in state.counters.values() if x.side == player and x.location == "ready"
            ]
            for x in ready:
                out.extend(
                    cmd.Place(player=player, counter=x.id, to=a) for a in build.placements(state, x)
                )
    elif state.rebuilds > 0:
        for x in _distinct(build.rebuildable(state)):
            out.extend(
                cmd.Rebuild(player=player, counter=x.id, to=a)
                for a in build.rebuild_areas(state, x)
            )
    return out
