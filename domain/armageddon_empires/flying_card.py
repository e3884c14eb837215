"""The attack card in flight (p.30–31; AE-40, AE-41): the air strike on top of the stack, the
card's side in its challenges, and a challenge of an interceptor or a gunner against it.

The attack card's fate carries over between its challenges (p.30; R6): it re-rolls with its own
fate in each. An interceptor re-rolls with its own fate too (p.19); a gunner has none (AE-41).
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.abilities import level
from warlog.domain.armageddon_empires.awaiting import may_roll
from warlog.domain.armageddon_empires.cards import AttackCard
from warlog.domain.armageddon_empires.challenge import Pool, Side, Term
from warlog.domain.armageddon_empires.challenge_moves import open_challenge
from warlog.domain.armageddon_empires.frames import AirStrike
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.batch import Batch

PROCEDURE = "air strike"


def top_strike(state: GameState) -> AirStrike:
    top = state.frames[-1]
    assert isinstance(top, AirStrike)
    return top


def attack_card_side(state: GameState, strike: AirStrike, pool: Pool) -> Side:
    """The flying attack card's side of a challenge: its empire's, with its own fate."""
    return Side(
        empire=strike.empire,
        name=f"{state.card(strike.card).name} ({strike.card})",
        pool=pool,
        fate_hero=strike.card,
        card=strike.card,
    )


def challenge_attack_card(
    batch: Batch[GameState],
    card: str,
    owner: str,
    ability: str,
    counter: str,
    what: str,
    purpose: str,
) -> None:
    """A challenge of ``card``, rolled by ``owner``, against the flying attack card (p.30–31):
    ``card``'s ``ability`` X against the attack card's defence, or against its ``counter`` X in
    a duel (Air To Air against Air To Air, Anti-Air against HARM; no counter: "")."""
    state = batch.state
    strike = top_strike(state)
    entry, target = state.card(card), state.card(strike.card)
    x = level(entry.abilities, ability)
    a_pool = Pool((Term(x, f"{ability} {x} of {entry.name}, p.30–31"),))
    duel = level(target.abilities, counter) if counter else 0
    spec = target.spec
    assert isinstance(spec, AttackCard)
    if duel:
        d_pool = Pool((Term(duel, f"{counter} {duel} of {target.name}: a duel, p.31"),))
    else:
        d_pool = Pool((Term(spec.defense, f"defense of {target.name}"),))
    if not may_roll(
        batch, owner, f"{strike.name}: {entry.name} {what} {target.name}", a_pool.size + d_pool.size
    ):
        return
    open_challenge(
        batch,
        kind="duel" if duel else "opposed",
        purpose=f"{strike.name} {purpose}",
        attacker=Side(
            empire=owner,
            name=f"{entry.name} ({card})",
            pool=a_pool,
            # an interceptor re-rolls with its own fate (p.19); a gunner has none (AE-41)
            fate_hero=card if isinstance(entry.spec, AttackCard) else None,
            card=card,
        ),
        defender=attack_card_side(state, strike, d_pool),
        deals_damage=True,
    )
