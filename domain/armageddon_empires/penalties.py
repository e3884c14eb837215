"""An army's penalties in battle: over its Command Rating (AE-68) and out of supply (AE-69).

Both are played since version 26 (``COMBAT_PENALTIES_SINCE``); before, an army fought at full
strength whatever its size and supply. They reach the pools a battle builds from a unit of a
field army (``battlefield.attack_pool``, ``battlefield.defense_pool``): its strikes (a
sniper's too), the defence of a card it strikes, and a retreating unit's defence (p.34). Not a
minefield's challenges (AE-52), collateral damage and WMD (p.31–32), an Air-To-Ground strike
(p.31) nor a gunner's Ground-To-Air challenge (AE-41): those are fought by each card alone,
outside a battle. A hero sniped defends with his fate (p.16), which no penalty touches.

- **Command Rating** (p.8, p.16, p.23): an army commands its hero's Command Rating in unit
  cards, 2 without a hero; the manual gives its units an attack and defence penalty the bigger
  the more cards over, and Wave Attack units neither count nor take it (p.16).
- **Out of supply** (p.26, p.46): an army out of supply at the start of its empire's turn
  (``supply_traced``, AE-12) has penalties to attack and defence, its Commando units exempt.
  The penalty is its units' until their empire's next trace, wherever they go meanwhile: a
  unit moved into an army traced in supply takes it along (it was not supplied).
"""

from __future__ import annotations

from typing import Literal

from warlog.domain.armageddon_empires.abilities import COMMANDO, has
from warlog.domain.armageddon_empires.cards import HeroCard
from warlog.domain.armageddon_empires.challenge import Term
from warlog.domain.armageddon_empires.state import Army, GameState
from warlog.domain.core.summary import plural

#: AE-68, AE-69: the rules version since which an army's units fight with these penalties
COMBAT_PENALTIES_SINCE = 26
#: p.8, p.16: the Command Rating of an army without a hero (AE-68: the Empire of Man's 3, p.8,
#: is not played, since a scenario's empire names no faction)
BASE_COMMAND_RATING = 2
#: AE-68: a unit's attack and defence dice lost per unit card its army holds over its Command
#: Rating (p.16 gives no size; the secondary remake notes' "−1/2 per unit over CR" taken at
#: its smaller number for both, so that each card over costs every unit one die)
OVER_COMMAND_ATTACK = 1
OVER_COMMAND_DEFENSE = 1
#: AE-69: a unit's attack and defence dice lost while its army is out of supply (p.26 gives no
#: size; the secondary remake notes' −3/−2 would leave most units, which print 1 to 5 attack,
#: no dice at all, and one die each already weighs with the move limit of p.30)
OUT_OF_SUPPLY_ATTACK = 1
OUT_OF_SUPPLY_DEFENSE = 1
#: p.16: a Wave Attack unit does not count toward its army's Command Rating nor take its penalty
WAVE_ATTACK = "Wave Attack"

Stat = Literal["attack", "defense"]


def penalized(state: GameState) -> bool:
    """Whether this game's armies fight with AE-68 and AE-69: since version 26."""
    return state.rules_version >= COMBAT_PENALTIES_SINCE


def command_rating(state: GameState, army: Army) -> int:
    """The army's Command Rating (p.16): its hero's, ``BASE_COMMAND_RATING`` without one."""
    if army.hero is None:
        return BASE_COMMAND_RATING
    spec = state.card(army.hero).spec
    return spec.command if isinstance(spec, HeroCard) else BASE_COMMAND_RATING


def commanded(state: GameState, army: Army) -> tuple[str, ...]:
    """The army's unit cards that count toward its Command Rating: all but Wave Attack ones
    (p.16); its hero is not counted (AE-68)."""
    return tuple(u for u in army.units if not has(state.card(u).abilities, WAVE_ATTACK))


def over_command(state: GameState, army: Army) -> int:
    """How many unit cards the army holds over its Command Rating, as it stands now (AE-68);
    0 for a garrison, which no hero needs to lead (p.22)."""
    if army.garrison_of is not None:
        return 0
    return max(0, len(commanded(state, army)) - command_rating(state, army))


def unsupplied(state: GameState, army: Army, unit: str) -> bool:
    """Whether ``unit`` of ``army`` fights out of supply (AE-69): it stood in an army its
    empire's last trace found out of supply (``Empire.unsupplied``, the units, so that a unit
    moved since into an army traced in supply keeps it), and is not in a garrison, which is
    never traced (AE-12)."""
    return army.garrison_of is None and unit in state.empires[army.empire].unsupplied


def penalty_terms(state: GameState, army: Army | None, unit: str, stat: Stat) -> tuple[Term, ...]:
    """The terms by which ``unit`` of ``army`` loses ``stat`` dice in a battle's pool, each
    negative, since version 26: over the Command Rating (AE-68) unless it has Wave Attack, and
    out of supply at its empire's turn start (AE-69, ``unsupplied``) unless it has Commando
    (p.46). None for a garrison (``over_command``; never traced for supply, AE-12), for a card
    that is not one of the army's units, and before version 26."""
    if army is None or not penalized(state) or unit not in army.units:
        return ()
    abilities = state.card(unit).abilities
    out: list[Term] = []
    over = over_command(state, army)
    if over and not has(abilities, WAVE_ATTACK):
        per = OVER_COMMAND_ATTACK if stat == "attack" else OVER_COMMAND_DEFENSE
        rating = command_rating(state, army)
        whose = (
            f"of {state.card(army.hero).name}" if army.hero is not None else "without a hero, p.8"
        )
        out.append(
            Term(
                -per * over,
                f"{plural(over, 'unit card')} of {army.id} over its Command Rating {rating} "
                f"{whose}, p.16, AE-68",
            )
        )
    if unsupplied(state, army, unit) and not has(abilities, COMMANDO):
        size = OUT_OF_SUPPLY_ATTACK if stat == "attack" else OUT_OF_SUPPLY_DEFENSE
        out.append(Term(-size, f"out of supply since {army.empire}'s turn began, p.26, AE-69"))
    return tuple(out)
