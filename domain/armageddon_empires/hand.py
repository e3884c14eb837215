"""The hand: drawing from the deck and deploying heroes, units and facilities at bases.

- Draw (AE-6): 2 AP (R11); one die with as many sides as the deck has cards picks the card
  (R1: "random 1..N" is an N-sided die); the hand holds at most ``hand_limit`` cards.
- Deploy (p.18, p.22, p.48): pay the card's resource cost and half of it in AP, rounded down
  (R3); Rapid Reaction cards deploy for 0 AP (p.45). Heroes and units join the garrison of a
  stronghold or outpost whose cards include a Barracks (p.48); facilities take a free facility
  slot (one per level of the base's card, p.18). Attack cards are played against a hex, which
  arrives with air combat in a later version.
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.abilities import BARRACKS, HQ, RAPID_REACTION, has
from warlog.domain.armageddon_empires.armies import limits_broken
from warlog.domain.armageddon_empires.cards import FacilityCard
from warlog.domain.armageddon_empires.commands import DeployCard, DrawCard
from warlog.domain.armageddon_empires.costs import DRAW_CARD_AP, deploy_ap
from warlog.domain.armageddon_empires.events import CardDealt, CardDeployed, CardDrawn
from warlog.domain.armageddon_empires.guards import own_base, pay_ap
from warlog.domain.armageddon_empires.state import Base, Empire, GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError

#: the ``purpose`` of the die that picks a drawn card (sealed for the other empire)
DRAW_PURPOSE = "card draw"
#: the ``purpose`` of the die that picks a card of the starting hand (AE-15)
DEAL_PURPOSE = "starting hand"


def draw_card(batch: Batch[GameState], cmd: DrawCard) -> None:
    """``dice_rolled`` (unless one card is left) and ``card_drawn``; RulesError for an empty
    deck, a full hand or too little AP."""
    empire = batch.state.empires[cmd.player]
    if not empire.deck:
        raise RulesError(f"{empire.id}'s deck is empty", "rules/deck_empty")
    if len(empire.hand) >= empire.hand_limit:
        raise RulesError(
            f"{empire.id}'s hand is full ({empire.hand_limit} cards, AE-6)", "rules/hand_full"
        )
    pay_ap(empire, DRAW_CARD_AP, "drawing a card")
    index = 0
    if len(empire.deck) > 1:
        (face,) = batch.roll(
            1, len(empire.deck), purpose=DRAW_PURPOSE, roller=empire.id, hidden=True
        )
        index = face - 1
    batch.emit(
        CardDrawn(
            empire=empire.id,
            card=empire.deck[index],
            ap_cost=DRAW_CARD_AP,
            deck_left=len(empire.deck) - 1,
        )
    )


def deal_starting_hands(batch: Batch[GameState]) -> None:
    """AE-15: when the game is created, each empire is dealt ``deal`` cards from its deck, one
    at a time, each picked by one die with as many sides as the deck has cards (as a draw,
    AE-6, for no AP); the die and the card are sealed for the other empire."""
    for empire_id in batch.state.seats:
        for _ in range(batch.state.empires[empire_id].deal):
            deck = batch.state.empires[empire_id].deck
            index = 0
            if len(deck) > 1:
                (face,) = batch.roll(
                    1, len(deck), purpose=DEAL_PURPOSE, roller=empire_id, hidden=True
                )
                index = face - 1
            batch.emit(CardDealt(empire=empire_id, card=deck[index], deck_left=len(deck) - 1))


def _barracks(state: GameState, base: Base) -> bool:
    return any(has(state.card(c).abilities, BARRACKS) for c in (base.card, *base.facilities))


def _slots(state: GameState, base: Base) -> int:
    spec = state.card(base.card).spec
    return spec.level if isinstance(spec, FacilityCard) else 0


def _deploy_problem(state: GameState, empire: Empire, card: str, base: Base) -> RulesError | None:
    """Why ``card`` cannot be deployed at ``base`` now, or None."""
    entry = state.card(card)
    if entry.kind in ("hero", "unit"):
        if not _barracks(state, base):
            return RulesError(
                f"{base.id} has no Barracks to deploy {entry.kind}s into (p.48)",
                "rules/no_barracks",
            )
        garrison = state.armies[base.garrison]
        why = limits_broken(state, garrison.hero, garrison.units, (card,))
        if why:
            return RulesError(f"the garrison of {base.id} is full: {why}", "rules/army_full")
    elif entry.kind == "facility":
        if has(entry.abilities, HQ):
            return RulesError(
                f"{card} has HQ and an empire has one stronghold (p.15)", "rules/second_hq"
            )
        if len(base.facilities) >= _slots(state, base):
            return RulesError(
                f"{base.id} has no free facility slot (level {_slots(state, base)}, p.18)",
                "rules/no_facility_slot",
            )
    else:
        how = {
            "munition": "loaded onto an attack card as it is played (play_attack_card's "
            "munition, p.22)",
            "tactic": "played in a challenge (play_tactic, p.51)",
        }.get(entry.kind, "played on a hex (play_attack_card, p.19)")
        return RulesError(
            f"{card} is a {entry.kind} card: it is {how}, not deployed", "rules/not_deployable"
        )
    if not empire.resources.covers(entry.spec.cost):
        return RulesError(
            f"{card} costs {entry.spec.cost.text()}; {empire.id} has {empire.resources.text()}",
            "rules/not_enough_resources",
        )
    if empire.ap < _ap(state, card):
        return RulesError(
            f"deploying {card} costs {_ap(state, card)} AP; {empire.id} has {empire.ap}",
            "rules/not_enough_ap",
        )
    return None


def _ap(state: GameState, card: str) -> int:
    entry = state.card(card)
    return 0 if has(entry.abilities, RAPID_REACTION) else deploy_ap(entry.spec.cost)


def deploy_card(batch: Batch[GameState], cmd: DeployCard) -> None:
    """``card_deployed``; RulesError if the card is not in the hand or cannot go to the base."""
    state = batch.state
    empire = state.empires[cmd.player]
    if cmd.card not in empire.hand:
        raise RulesError(f"card {cmd.card!r} is not in {empire.id}'s hand", "rules/not_in_hand")
    base = own_base(state, cmd.player, cmd.base)
    problem = _deploy_problem(state, empire, cmd.card, base)
    if problem:
        raise problem
    entry = state.card(cmd.card)
    ap = _ap(state, cmd.card)
    batch.emit(
        CardDeployed(
            empire=empire.id,
            card=cmd.card,
            base=base.id,
            army=base.garrison if entry.kind in ("hero", "unit") else None,
            paid=entry.spec.cost,
            ap_cost=ap,
            rapid_reaction=has(entry.abilities, RAPID_REACTION),
        )
    )


def legal_hand_plays(state: GameState, player: str) -> list[DrawCard | DeployCard]:
    """Draw (if allowed) and every deployment of every hand card at every own base."""
    empire = state.empires[player]
    out: list[DrawCard | DeployCard] = []
    if empire.deck and len(empire.hand) < empire.hand_limit and empire.ap >= DRAW_CARD_AP:
        out.append(DrawCard(player=player))
    bases = sorted(state.bases_of(player), key=lambda b: b.id)
    for card in empire.hand:
        for base in bases:
            if _deploy_problem(state, empire, card, base) is None:
                out.append(DeployCard(player=player, card=card, base=base.id))
    return out
