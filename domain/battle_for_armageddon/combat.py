"""Combat: declaring an attack, the odds, the CRT roll with its modifiers, and rerolls.

seed 003 "Combat Phase": each stack makes one attack against an adjacent enemy stack, alone or
joined by other stacks adjacent to the target; whole stacks attack and defend; an area is attacked
at most once per phase. Applying the result is ``results``.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from warlog.domain.battle_for_armageddon import board
from warlog.domain.battle_for_armageddon.combat_events import (
    SPECIAL_CARD_MODIFIER,
    AttackDeclared,
    CombatRolled,
    Modifier,
    ResultStood,
)
from warlog.domain.battle_for_armageddon.commands import Attack
from warlog.domain.battle_for_armageddon.crt import clamp_roll, odds_column, result
from warlog.domain.battle_for_armageddon.results import reroll_leader, steps_for
from warlog.domain.battle_for_armageddon.rules import (
    FIRST_TURN,
    FIRST_TURN_ORK_ATTACK_BONUS,
    FORTIFICATION_MULTIPLIER,
    ORKS,
    RIVER_MODIFIER,
    opponent,
)
from warlog.domain.battle_for_armageddon.state import Counter, GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, quoted, reject


@dataclass(frozen=True)
class Odds:
    """Everything an attack's odds are made of."""

    attackers: dict[str, str]
    defenders: list[str]
    passive: list[str]
    attack_total: int
    defence_base: int
    defence_total: int
    fortified: bool
    column: str
    attack_parts: list[str]
    defence_parts: list[str]
    alone: bool


def stack_attackers(state: GameState, area: str, player: str) -> list[Counter]:
    """The counters of ``player`` in ``area`` that may still attack this phase: not
    fortifications, not already in an attack, not retreated this phase (BFA-8)."""
    return [
        x
        for x in board.counters_in(state, area, player)
        if not board.is_fortification(state, x)
        and x.id not in state.attacked
        and x.id not in state.retreated
    ]


def targets(state: GameState, player: str) -> dict[str, list[str]]:
    """Areas ``player`` may attack now, each with the adjacent areas that can join in."""
    out: dict[str, list[str]] = {}
    g = board.graph(state)
    enemy = opponent(player)
    for a in g.areas:
        if a in state.attacked_areas or not board.occupied_by(state, a, enemy):
            continue
        sources = [n for n in g.neighbours(a) if stack_attackers(state, n, player)]
        if sources:
            out[a] = sources
    return out


def attack_problem(
    state: GameState, player: str, target: str, stacks: list[str]
) -> RulesError | None:
    """Why this attack is illegal (a ``rules/...`` RulesError), or None."""
    if not board.is_area(state, target):
        return reject(f"there is no area {quoted(target)}", "unknown_area")
    if not board.occupied_by(state, target, opponent(player)):
        return reject(f"{target} holds no {opponent(player)} counter to attack", "no_enemy")
    if target in state.attacked_areas:
        return reject(
            f"{target} was already attacked this combat phase (rules: Combat Phase)",
            "already_attacked",
        )
    if not stacks:
        return reject("an attack needs at least one stack", "no_attackers")
    if len(set(stacks)) != len(stacks):
        return reject("a stack is named twice", "bad_choice")
    for area in stacks:
        if not board.is_area(state, area):
            return reject(f"there is no area {quoted(area)}", "unknown_area")
        if not board.graph(state).adjacent(area, target):
            return reject(f"{area} is not adjacent to {target}", "not_adjacent")
        if not stack_attackers(state, area, player):
            here = board.counters_in(state, area, player)
            if not here:
                why = f"no {player} counter stands in {area}"
            elif all(board.is_fortification(state, x) for x in here):
                why = f"only fortifications of the {player} stand in {area}, and they do not attack"
            else:
                why = (
                    f"every {player} counter in {area} has attacked or retreated this combat "
                    "phase (BFA-8)"
                )
            return reject(
                f"{area} cannot join the attack: {why} (rules: Combat Phase)",
                "no_attackers",
            )
    return None


def odds(state: GameState, player: str, target: str, stacks: list[str]) -> Odds:
    """The totals and column of an attack (BFA-24; fortifications, rules: Special Units)."""
    attackers: dict[str, str] = {}
    parts: list[str] = []
    total = 0
    for area in stacks:
        for x in stack_attackers(state, area, player):
            attackers[x.id] = area
            a = board.attack_of(state, x)
            parts.append(f"{x.id} {a}")
            total += a
    enemy = opponent(player)
    here = board.counters_in(state, target, enemy)
    defenders = [x for x in here if x.id not in state.retreated]
    passive = [x.id for x in here if x.id in state.retreated]
    d_parts = [
        f"{x.id} {board.defence_of(state, x)}"
        for x in defenders
        if not board.is_fortification(state, x)
    ]
    # BFA-30: a fortification's own defence is summed too (0 since version 8, whose scenarios
    # give it none; a game begun under 7 or before counts its scenario's, and its explanation
    # names it, ``AttackDeclared.fortifications_own_defence``)
    base = sum(board.defence_of(state, x) for x in defenders)
    site = board.intact_site_in(state, target)
    if site is not None:
        d_parts.append(f"{site.id} {site.defence}")
        base += site.defence
    fortified = any(board.is_fortification(state, x) for x in defenders)
    defence = base * FORTIFICATION_MULTIPLIER if fortified else base
    # BFA-15: leaders "attacked on their own" are alone in the area: no other counter, no site
    alone = (
        site is None
        and not passive
        and bool(defenders)
        and all(board.is_leader(state, x) for x in defenders)
    )
    return Odds(
        attackers=attackers,
        defenders=[x.id for x in defenders],
        passive=passive,
        attack_total=total,
        defence_base=base,
        defence_total=defence,
        fortified=fortified,
        column=odds_column(total, defence),
        attack_parts=parts,
        defence_parts=d_parts,
        alone=alone,
    )


def modifiers(state: GameState, player: str, target: str, stacks: list[str]) -> list[Modifier]:
    """The die modifiers of an attack (rules: First Turn Surprise, Terrain Effects; cards)."""
    out: list[Modifier] = []
    if player == ORKS and state.turn == FIRST_TURN:
        out.append(
            Modifier(
                "Ork attack on turn 1, rules: First Turn Surprise", FIRST_TURN_ORK_ATTACK_BONUS
            )
        )
    g = board.graph(state)
    if stacks and all(g.river_between(a, target) for a in stacks):
        out.append(
            Modifier("every attacker across a river, rules: Terrain Effects", RIVER_MODIFIER)
        )
    if state.crt_bonus and player == state.phasing:
        out.append(Modifier(SPECIAL_CARD_MODIFIER, state.crt_bonus))
    return out


def declare(batch: Batch[GameState], cmd: Attack) -> None:
    state = batch.state
    problem = attack_problem(state, cmd.player, cmd.target, cmd.stacks)
    if problem is not None:
        raise problem
    o = odds(state, cmd.player, cmd.target, cmd.stacks)
    batch.emit(
        AttackDeclared(
            player=cmd.player,
            target=cmd.target,
            stacks=list(cmd.stacks),
            attackers=o.attackers,
            defenders=o.defenders,
            passive=o.passive,
            attack_total=o.attack_total,
            defence_base=o.defence_base,
            defence_total=o.defence_total,
            fortified=o.fortified,
            column=o.column,
            attack_parts=o.attack_parts,
            defence_parts=o.defence_parts,
            alone=o.alone,
        )
    )
    if o.alone:
        assert batch.state.combat is not None
        batch.emit(ResultStood(result="", steps=steps_for("", batch.state.combat)))
    else:
        roll_crt(batch, cmd.player, reroll=False)


#: since this rules version a reroll's ``combat_rolled`` names the counter whose ability allowed
#: it, the first of the side's in the combat (``results.reroll_leader``; BFA-14): a scenario may
#: give the ability to several counter types. The fields are part of the logged event, so games
#: begun under 5 and before keep their events, and their explanations, as they were
REROLL_LEADER_NAMED_SINCE = 6


def roll_crt(batch: Batch[GameState], roller: str, reroll: bool) -> None:
    """Roll the CRT die for the combat in progress and record the result."""
    c = batch.state.combat
    assert c is not None
    mods = modifiers(batch.state, c.attacker, c.target, list(c.sources))
    (die,) = batch.roll(1, 6, purpose=f"CRT {c.target}", roller=roller)
    total = clamp_roll(die + sum(m.value for m in mods))
    named = (
        reroll_leader(batch.state, roller)
        if reroll and batch.state.rules_version >= REROLL_LEADER_NAMED_SINCE
        else None
    )
    batch.emit(
        CombatRolled(
            player=roller,
            target=c.target,
            attack_total=c.attack_total,
            defence_total=c.defence_total,
            column=c.column,
            die=die,
            modifiers=mods,
            total=total,
            result=result(c.column, total),
            reroll=reroll,
            leader=msgspec.UNSET if named is None else named.id,
            leader_name=msgspec.UNSET if named is None else board.name_of(batch.state, named),
        )
    )
