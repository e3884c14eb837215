"""Munitions (p.22, p.31; AE-44): a munition card of the hand loaded onto an attack card.

- **Loading** (AE-44): the manual attaches a munition to an attack card in the hand (p.22);
  warlog loads it as the attack card is played, named in ``play_attack_card``'s ``munition``,
  for no AP and no resources (its cost was paid when it was made). It must be in the same hand
  and fit the card's kind (its ``fits``); one munition per strike.
- **Spent** (p.31): at the end of the strike, whether or not the card hit, survived or was shot
  down: the munition is discarded.
- **On a hit** (p.31; AE-44): its ``damage`` is added to the Air-To-Ground challenge's damage,
  before the target's damage modifiers and the Hardened halving (R14).
- Its abilities fly with the card (p.31): a Hydrogen Bomb or Grav Warhead makes the strike a
  WMD, a Collateral ability makes it strike the armies of the hex too (``fallout.py``).
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.abilities import Ability
from warlog.domain.armageddon_empires.cards import AttackCard, MunitionCard
from warlog.domain.armageddon_empires.frames import AirStrike
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.errors import RulesError, reject


def munition_problem(state: GameState, player: str, card: str, munition: str) -> RulesError | None:
    """Why ``munition`` may not be loaded onto attack card ``card`` of ``player`` (AE-44)."""
    if munition not in state.empires[player].hand:
        return reject(f"munition {munition!r} is not in {player}'s hand", "not_in_hand")
    spec = state.card(munition).spec
    if not isinstance(spec, MunitionCard):
        return reject(f"{munition} is not a munition (p.22)", "not_a_munition")
    craft = state.card(card).spec
    assert isinstance(craft, AttackCard)
    if craft.craft not in spec.fits:
        return reject(
            f"{munition} fits {' or '.join(spec.fits)} cards, and {card} is a {craft.craft} "
            "(p.22; AE-44)",
            "munition_does_not_fit",
        )
    return None


def loadable(state: GameState, player: str, card: str) -> list[str]:
    """The munitions of ``player``'s hand that ``card`` may carry (AE-44)."""
    return [
        m
        for m in state.empires[player].hand
        if isinstance(state.card(m).spec, MunitionCard)
        and munition_problem(state, player, card, m) is None
    ]


def carried(state: GameState, strike: AirStrike) -> tuple[Ability, ...]:
    """The abilities the strike flies with: its card's, then its munition's (p.31)."""
    own = state.card(strike.card).abilities
    return own + state.card(strike.munition).abilities if strike.munition else own


def munition_damage(state: GameState, strike: AirStrike) -> int:
    """The damage the strike's munition adds to a hit (p.31; AE-44), 0 without one."""
    if not strike.munition:
        return 0
    spec = state.card(strike.munition).spec
    return spec.damage if isinstance(spec, MunitionCard) else 0
