"""Stealth orders (manual p.10, p.23, p.27; AE-23): engaging and dropping an army's stealth.

An army may engage stealth only if every card in it, hero and units, has Stealth X (p.23,
p.27); its stealth level is the lowest X (p.27). Garrisons hold a base and never stealth
(AE-23). Each order costs ``STEALTH_AP`` (R11: the tutorial shows 1 AP for a one-unit army).
A stealthed army controls no hex (p.27), is seen only by a check against its stealth (R7), and
may share a hex with enemy armies (digest 3.5). Joining a Capture Kill drops it (p.30).
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.abilities import STEALTH, level
from warlog.domain.armageddon_empires.commands import DropStealth, EngageStealth
from warlog.domain.armageddon_empires.costs import STEALTH_AP
from warlog.domain.armageddon_empires.guards import own_army, pay_ap
from warlog.domain.armageddon_empires.observation import seen_at_a_base
from warlog.domain.armageddon_empires.sighting_events import StealthDropped, StealthEngaged
from warlog.domain.armageddon_empires.state import Army, GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, reject


def stealth_level(state: GameState, army: Army) -> int:
    """The lowest Stealth X among the army's cards; 0 if one lacks it (or it is empty)."""
    if not army.cards():
        return 0
    return min(level(state.card(c).abilities, STEALTH) for c in army.cards())


def engage_problem(state: GameState, army: Army) -> RulesError | None:
    if army.garrison_of is not None:
        return reject(f"{army.id} is a garrison; garrisons never stealth (AE-23)", "garrison")
    if army.stealthed:
        return reject(f"{army.id} is already stealthed", "already_stealthed")
    if not army.cards():
        return reject(
            f"{army.id} is empty: an army without cards cannot stealth (p.27)",
            "not_stealth_capable",
        )
    if not stealth_level(state, army):
        return reject(
            f"{army.id} can stealth only if every card in it has Stealth X (p.23, p.27)",
            "not_stealth_capable",
        )
    return None


def engage_stealth(batch: Batch[GameState], cmd: EngageStealth) -> None:
    """``stealth_engaged``; RulesError for a garrison, an army already stealthed or with a card
    that cannot stealth, or too little AP."""
    state = batch.state
    army = own_army(state, cmd.player, cmd.army)
    problem = engage_problem(state, army)
    if problem:
        raise problem
    pay_ap(state.empires[cmd.player], STEALTH_AP, "engaging stealth")
    batch.emit(
        StealthEngaged(
            empire=cmd.player, army=army.id, level=stealth_level(state, army), ap_cost=STEALTH_AP
        )
    )


def drop_stealth(batch: Batch[GameState], cmd: DropStealth) -> None:
    """``stealth_dropped``; RulesError for an army not stealthed or too little AP."""
    state = batch.state
    army = own_army(state, cmd.player, cmd.army)
    if not army.stealthed:
        raise reject(f"{army.id} is not stealthed", "not_stealthed")
    pay_ap(state.empires[cmd.player], STEALTH_AP, "dropping stealth")
    batch.emit(StealthDropped(empire=cmd.player, army=army.id, ap_cost=STEALTH_AP))
    seen_at_a_base(batch, army.id)


def legal_stealth_orders(state: GameState, player: str) -> list[EngageStealth | DropStealth]:
    """Every stealth order of ``player`` it can pay for."""
    if state.empires[player].ap < STEALTH_AP:
        return []
    out: list[EngageStealth | DropStealth] = []
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        if army.empire != player:
            continue
        if army.stealthed:
            out.append(DropStealth(player=player, army=army.id))
        elif engage_problem(state, army) is None:
            out.append(EngageStealth(player=player, army=army.id))
    return out
