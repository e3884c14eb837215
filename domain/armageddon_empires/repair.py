"""Repairing damage and healing heroes (manual p.34; AE-22).

- Heroes and units only in a hex that holds a stronghold or outpost of their empire, and never
  in a stealthed army (p.34).
- Facilities at any time of the owner's turn, unless their hex is disputed (an enemy army that
  is not stealthed stands in it) or besieged (p.34, p.26). Since version 11 a base's facilities
  are repaired by the empire that holds the base, whoever's deck they came from (AE-60), and
  since version 12 the base's own card too.
- Attack cards from the hand, where a damaged one always lies (it stays there while it flies);
  missiles are never repaired (p.19, digest 7.1).
- Every repair restores the card to full strength (p.34) for ``REPAIR_AP`` and ``REPAIR_COST``
  (R11; one price for every card, AE-22).
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.cards import AttackCard
from warlog.domain.armageddon_empires.challenge_events import CardRepaired
from warlog.domain.armageddon_empires.commands import RepairCard
from warlog.domain.armageddon_empires.control import disputed
from warlog.domain.armageddon_empires.costs import REPAIR_AP, REPAIR_COST
from warlog.domain.armageddon_empires.guards import own_base_hex
from warlog.domain.armageddon_empires.state import Base, GameState
from warlog.domain.armageddon_empires.supply import is_besieged
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, reject

#: AE-60: since version 11 a facility is repaired by the empire that holds its base (a captured
#: base's facilities go to the captor, p.34; AE-34): before, by the empire whose deck it came
#: from, so that whether the loser's repair of a facility it no longer held was refused told it
#: of armies in that hex it had not seen
REPAIRED_BY_HOLDER_SINCE = 11
#: AE-60: since version 12 the base's own card too (version 11 looked among its facilities
#: only, so that the holder could not repair a captured base's card and the empire that lost it
#: still could, whenever no army of the holder stood in the hex)
BASE_CARD_TOO_SINCE = 12


def _held_by(state: GameState, card: str) -> tuple[Base, str] | None:
    """The base ``card`` stands at as a facility (or, since version 12, as the base's own card),
    and the empire that repairs it (AE-60): the base's holder since version 11, else the card's
    owner; None for any other card."""
    own_card = state.rules_version >= BASE_CARD_TOO_SINCE
    base = next(
        (b for b in state.bases.values() if card in b.facilities or (own_card and card == b.card)),
        None,
    )
    if base is None:
        return None
    if state.rules_version >= REPAIRED_BY_HOLDER_SINCE:
        return base, base.empire
    return base, state.instances[card].owner


def repair_problem(state: GameState, player: str, card: str) -> RulesError | None:
    """Why ``player`` cannot repair ``card`` now (module doc), or None."""
    instance = state.instances.get(card)
    if instance is None:
        return reject(f"{player} has no card {card!r}", "unknown_card")
    held = _held_by(state, card)
    if held is not None and held[1] != player:
        at, holder = held
        if instance.owner == player:
            return reject(
                f"{card} stands at {at.id}, which {holder} now holds: the holder repairs it "
                "(p.34; AE-34, AE-60)",
                "not_held",
            )
        return reject(f"{player} has no card {card!r}", "unknown_card")
    if held is None and instance.owner != player:
        return reject(f"{player} has no card {card!r}", "unknown_card")
    if not state.damage.get(card):
        return reject(f"{card} is not damaged", "not_damaged")
    entry = state.card(card)
    if entry.kind in ("hero", "unit"):
        army = next((a for a in state.armies.values() if card in a.cards()), None)
        if army is None:
            return reject(f"{card} is in no army", "not_repairable")
        if army.stealthed:
            return reject(
                f"{card} is in the stealthed army {army.id}: drop stealth first (p.34)", "stealthed"
            )
        if own_base_hex(state, player, army.at) is None:
            return reject(
                f"{card} is repaired only at a stronghold or outpost of {player} (p.34)",
                "not_at_base",
            )
    elif entry.kind == "facility":
        base = next(
            (b for b in state.bases.values() if card == b.card or card in b.facilities), None
        )
        if base is None:
            return reject(f"{card} stands at no base", "not_repairable")
        if disputed(state, player, base.at) or is_besieged(state, base):
            return reject(
                f"{card}'s hex {base.at} is disputed or besieged: no repairs there (p.34)",
                "hex_disputed",
            )
    elif isinstance(entry.spec, AttackCard) and entry.spec.craft == "missile":
        return reject(f"{card} is a missile; missiles are not repaired (p.19)", "not_repairable")
    emp = state.empires[player]
    if emp.ap < REPAIR_AP:
        return reject(f"a repair costs {REPAIR_AP} AP; {player} has {emp.ap}", "not_enough_ap")
    if not emp.resources.covers(REPAIR_COST):
        return reject(
            f"a repair costs {REPAIR_COST.text()}; {player} has {emp.resources.text()}",
            "not_enough_resources",
        )
    return None


def repair_card(batch: Batch[GameState], cmd: RepairCard) -> None:
    """``card_repaired``; RulesError naming why not (module doc)."""
    state = batch.state
    problem = repair_problem(state, cmd.player, cmd.card)
    if problem:
        raise problem
    batch.emit(
        CardRepaired(
            empire=cmd.player,
            card=cmd.card,
            repaired=state.damage[cmd.card],
            ap_cost=REPAIR_AP,
            paid=REPAIR_COST,
        )
    )


def legal_repairs(state: GameState, player: str) -> list[RepairCard]:
    """Every repair ``player`` may order now."""
    return [
        RepairCard(player=player, card=card)
        for card in sorted(state.damage)
        if repair_problem(state, player, card) is None
    ]
