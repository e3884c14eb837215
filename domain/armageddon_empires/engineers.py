"""Engineers lay and lift minefields (p.46: an Engineer X unit "can also remove and deploy
minefields"; AE-54, AE-55).

- Lay (AE-54): an army holding an Engineer X unit lays a minefield card (a facility with
  Minefield X, AE-50) of its empire's hand in the army's hex, for ``LAY_MINEFIELD_AP``; not in
  a hex holding a base (a minefield stands in the open, AE-50), nor in one holding a minefield
  its empire knows of (its own, or another empire's it walked into, AE-53). A minefield it does
  not know of does not stop it: a refusal would reveal it. Camouflaged: the other empire learns
  only that a minefield was laid somewhere.
- Lift (AE-55): an army holding an Engineer X unit, in a hex holding another empire's
  minefield that its empire knows of, lifts it for ``LIFT_MINEFIELD_AP``: the card goes face up
  to its owner's discard pile (both empires know it already). The minefield's empire learns
  that it is gone, not which army lifted it. Since version 23 so is an independent minefield
  its empire knows of lifted (AE-67): its card leaves play and no empire is told; the lift is
  the same whether or not the other empire has spent or lifted it since, as the lifter still
  sees it (``views``).
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.abilities import ENGINEER, MINEFIELD, level
from warlog.domain.armageddon_empires.commands import LayMinefield, LiftMinefield
from warlog.domain.armageddon_empires.costs import LAY_MINEFIELD_AP, LIFT_MINEFIELD_AP
from warlog.domain.armageddon_empires.minefield_events import (
    LiftedBy,
    LiftedFrom,
    MinefieldLaid,
    MinefieldLifted,
)
from warlog.domain.armageddon_empires.state import Army, GameState, Minefield
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, reject


def engineer_of(state: GameState, army: Army) -> str | None:
    """The army's unit with the largest Engineer X (the first among equals), or None."""
    best, found = 0, None
    for unit in army.units:
        x = level(state.card(unit).abilities, ENGINEER)
        if x > best:
            best, found = x, unit
    return found


def known_minefields(state: GameState, empire: str, at: str) -> list[Minefield]:
    """The minefields in hex ``at`` that ``empire`` knows of: its own and those it walked into,
    an independent one though the other empire has spent or lifted it since (AE-67)."""
    return [
        m
        for m in state.minefields.values()
        if m.at == at and (m.empire == empire or empire in m.known_to)
    ]


def minefield_id(card: str) -> str:
    """The id of the minefield a card is laid as: its card's (card ids hold dots, a
    scenario's minefield ids never do, so the two never meet)."""
    return card


def _engineer_army(state: GameState, player: str, army_id: str) -> tuple[Army, str] | RulesError:
    army = state.armies.get(army_id)
    if army is None or army.empire != player:
        return reject(f"{player} has no army {army_id!r}", "unknown_army")
    engineer = engineer_of(state, army)
    if engineer is None:
        return reject(
            f"{army.id} holds no Engineer X unit; only Engineers lay and lift minefields (p.46)",
            "no_engineer",
        )
    return army, engineer


def _ap_problem(state: GameState, player: str, cost: int, what: str) -> RulesError | None:
    ap = state.empires[player].ap
    return (
        None
        if ap >= cost
        else reject(f"{what} costs {cost} AP; {player} has {ap}", "not_enough_ap")
    )


def lay_problem(state: GameState, player: str, army_id: str, card: str) -> RulesError | None:
    """Why ``player``'s army ``army_id`` cannot lay ``card`` now (module doc), or None."""
    found = _engineer_army(state, player, army_id)
    if isinstance(found, RulesError):
        return found
    army, _ = found
    if card not in state.empires[player].hand:
        return reject(f"card {card!r} is not in {player}'s hand", "not_in_hand")
    entry = state.card(card)
    if entry.kind != "facility" or level(entry.abilities, MINEFIELD) < 1:
        return reject(f"{card} is not a minefield card (Minefield X, AE-50)", "not_a_minefield")
    if state.base_at(army.at) is not None:
        return reject(
            f"hex {army.at} holds a base; a minefield stands in the open (p.32; AE-50)", "base_hex"
        )
    if known_minefields(state, player, army.at):
        return reject(f"hex {army.at} already holds a minefield (AE-54)", "minefield_there")
    return _ap_problem(state, player, LAY_MINEFIELD_AP, "laying a minefield")


def lift_problem(state: GameState, player: str, army_id: str) -> RulesError | None:
    """Why ``player``'s army ``army_id`` cannot lift a minefield now (module doc), or None."""
    found = _engineer_army(state, player, army_id)
    if isinstance(found, RulesError):
        return found
    army, _ = found
    if _target(state, army) is None:
        return reject(
            f"{army.id} stands in no enemy minefield {player} knows of (AE-55)",
            "no_known_minefield",
        )
    return _ap_problem(state, player, LIFT_MINEFIELD_AP, "lifting a minefield")


def _target(state: GameState, army: Army) -> Minefield | None:
    mines = [m for m in known_minefields(state, army.empire, army.at) if m.empire != army.empire]
    return min(mines, key=lambda m: m.id, default=None)


def lay_minefield(batch: Batch[GameState], cmd: LayMinefield) -> None:
    """``minefield_laid``; RulesError naming why not (module doc)."""
    state = batch.state
    problem = lay_problem(state, cmd.player, cmd.army, cmd.card)
    if problem:
        raise problem
    army = state.armies[cmd.army]
    batch.emit(
        MinefieldLaid(
            empire=cmd.player,
            army=army.id,
            engineer=engineer_of(state, army) or "",
            minefield=minefield_id(cmd.card),
            card=cmd.card,
            at=army.at,
            ap_cost=LAY_MINEFIELD_AP,
        )
    )


def lift_minefield(batch: Batch[GameState], cmd: LiftMinefield) -> None:
    """``minefield_lifted``; RulesError naming why not (module doc)."""
    state = batch.state
    problem = lift_problem(state, cmd.player, cmd.army)
    if problem:
        raise problem
    army = state.armies[cmd.army]
    mine = _target(state, army)
    assert mine is not None  # lift_problem checked it
    batch.emit(
        MinefieldLifted(
            empire=cmd.player,
            controller=mine.empire,
            lifted_by=LiftedBy(
                army=army.id,
                engineer=engineer_of(state, army) or "",
                minefield=mine.id,
                card=mine.card,
                at=mine.at,
            ),
            lifted_from=LiftedFrom(minefield=mine.id, card=mine.card, at=mine.at),
            ap_cost=LIFT_MINEFIELD_AP,
        )
    )


def legal_engineer_orders(state: GameState, player: str) -> list[LayMinefield | LiftMinefield]:
    """Every lift, then every lay, ``player``'s armies may order now."""
    armies = sorted(
        (a for a in state.armies.values() if a.empire == player and engineer_of(state, a)),
        key=lambda a: a.id,
    )
    out: list[LayMinefield | LiftMinefield] = [
        LiftMinefield(player=player, army=a.id)
        for a in armies
        if lift_problem(state, player, a.id) is None
    ]
    for a in armies:
        for card in sorted(set(state.empires[player].hand)):
            if lay_problem(state, player, a.id, card) is None:
                out.append(LayMinefield(player=player, army=a.id, card=card))
    return out
