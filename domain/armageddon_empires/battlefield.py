"""The battlefield of a battle: rows and reach (R13), the dice pools of its challenges (p.34;
AE-29), damage modifiers (p.34) and the attacks each unit may make (AE-30).

- **Rows** (R13; AE-27): each army in the fight has a front and a back row, chosen when it is
  committed; an army whose front row is empty fights with its back row in front.
- **Reach** (R13): from one's front row, range 1 reaches the enemy front row, range 2 both
  enemy rows, range 3 every row; from one's back row, range 2 reaches the enemy front row and
  range 3 both. Put as a count: rows between = (own row is back) + (target row is back), and a
  unit reaches a card when that is less than its range.
- **Pools** (AE-29): the attacker rolls its attack (+ Military Genius X of its army's hero,
  p.45); the target defends with its defence + the hex's terrain modifier (R12) (+ Military
  Genius X); a hero sniped defends with its fate (p.16). Both sides re-roll with the fate of
  their army's hero (p.23, R6). Since version 26 a unit's attack and defence dice are less its
  army's penalties: over its Command Rating (AE-68) and out of supply (AE-69; ``penalties``).
- **Special attacks** (p.34; AE-30): after a unit's first strike, Double Attack strikes the same
  target again, Area Attack a different target in the same row, Breakthrough Attack (after a
  hit on a front-row target) a back-row target at full strength; Multi-targeting splits the
  attack points among targets, one challenge each. Sniper Attack strikes the enemy army's hero
  for 1 AP.
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.abilities import Armor, has, level
from warlog.domain.armageddon_empires.cards import HeroCard, UnitCard
from warlog.domain.armageddon_empires.challenge import Pool, Term
from warlog.domain.armageddon_empires.frames import Battle, BattleSide
from warlog.domain.armageddon_empires.penalties import penalty_terms
from warlog.domain.armageddon_empires.state import Army, GameState

MILITARY_GENIUS = "Military Genius"
AGGRESSIVE = "Aggressive"
TRICKSTER = "Trickster"
DOUBLE_ATTACK = "Double Attack"
AREA_ATTACK = "Area Attack"
BREAKTHROUGH_ATTACK = "Breakthrough Attack"
MULTI_TARGETING = "Multi-targeting"
SNIPER_ATTACK = "Sniper Attack"
#: p.34: a Sniper Challenge costs 1 AP
SNIPER_AP = 1
#: the follow-up strikes, in the order a unit with several of them is offered the first (AE-30)
FOLLOW_UPS: tuple[tuple[str, str], ...] = (
    (DOUBLE_ATTACK, "double"),
    (AREA_ATTACK, "area"),
    (BREAKTHROUGH_ATTACK, "breakthrough"),
)


def top_battle(state: GameState) -> Battle:
    """The battle on top of the stack (callers know one is)."""
    top = state.frames[-1]
    assert isinstance(top, Battle), f"expected a battle on top, found {type(top).__name__}"
    return top


def army_of(state: GameState, army_id: str | None) -> Army | None:
    return None if army_id is None else state.armies.get(army_id)


def fighting_army(state: GameState, side: BattleSide) -> Army | None:
    """The side's army in the fight, if it still stands."""
    return army_of(state, side.fighting)


def in_fight(state: GameState, side: BattleSide) -> bool:
    """The side has an army in the fight that is still combat-capable (p.34)."""
    army = fighting_army(state, side)
    return army is not None and army.combat_capable


def rows(state: GameState, side: BattleSide) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The units of the side's army in the fight: (front row, back row) as they stand (R13); an
    army with no front row fights with its back row in front (AE-27)."""
    army = fighting_army(state, side)
    if army is None:
        return (), ()
    back = tuple(u for u in army.units if u in side.back)
    front = tuple(u for u in army.units if u not in side.back)
    return (back, ()) if not front else (front, back)


def row_of(state: GameState, side: BattleSide, unit: str) -> str:
    front, _ = rows(state, side)
    return "front" if unit in front else "back"


def reaches(range_: int, own_row: str, target_row: str) -> bool:
    """R13: rows between the two (0, 1 or 2) must be fewer than the unit's range."""
    between = (own_row == "back") + (target_row == "back")
    return between < range_


def unit_range(state: GameState, unit: str) -> int:
    spec = state.card(unit).spec
    return spec.range if isinstance(spec, UnitCard) else 1


def reachable(state: GameState, b: Battle, empire: str, unit: str) -> list[str]:
    """The enemy units ``unit`` reaches from where it stands (R13)."""
    own, enemy = b.side(empire), b.enemy(empire)
    mine = row_of(state, own, unit)
    front, back = rows(state, enemy)
    reach = unit_range(state, unit)
    return [
        t
        for row, cards in (("front", front), ("back", back))
        for t in cards
        if reaches(reach, mine, row)
    ]


def hero_level(state: GameState, army: Army | None, name: str) -> tuple[int, str]:
    """The level X of ``name`` on the army's hero, and the hero's name (0 without one)."""
    if army is None or army.hero is None:
        return 0, ""
    hero = state.card(army.hero)
    return level(hero.abilities, name), hero.name


def terrain_term(state: GameState, at: str) -> Term | None:
    """The hex's terrain defence modifier as a pool term (R12; p.27, p.30), if any."""
    terrain = state.board.terrain.get(at, "")
    mod = state.board.table[terrain].defense if terrain in state.board.table else 0
    return Term(mod, f"{terrain} {mod}, R12") if mod else None


def attack_points(state: GameState, army: Army | None, unit: str) -> int:
    """A unit's attack points: its attack + its hero's Military Genius X (p.45), less its
    penalties since version 26 (AE-68, AE-69), never below 0 (R3)."""
    spec = state.card(unit).spec
    attack = spec.attack if isinstance(spec, UnitCard) else 0
    penalty = sum(t.value for t in penalty_terms(state, army, unit, "attack"))
    return max(0, attack + hero_level(state, army, MILITARY_GENIUS)[0] + penalty)


def attack_pool(state: GameState, army: Army | None, unit: str, strength: int | None) -> Pool:
    """The attacker's pool of a strike (AE-29), with the penalties of its army since version 26
    (AE-68, AE-69); ``strength``: the points a Multi-targeting unit spends on this target (its
    whole attack when None)."""
    entry = state.card(unit)
    spec = entry.spec
    attack = spec.attack if isinstance(spec, UnitCard) else 0
    genius, hero = hero_level(state, army, MILITARY_GENIUS)
    penalties = penalty_terms(state, army, unit, "attack")
    points = attack_points(state, army, unit)
    if strength is not None and strength < points:
        # since version 26 the points are the attack less its penalties: say how (AE-68, AE-69)
        after = ""
        if penalties:
            sums = f" + {genius} (Military Genius of {hero}, p.45)" if genius else ""
            sums += "".join(f" − {-t.value} ({t.label})" for t in penalties)
            after = f"; {points} = {attack} attack{sums}"
        return Pool(
            (
                Term(
                    strength,
                    f"{strength} of the {points} attack points of {entry.name} "
                    f"(Multi-targeting, p.34{after})",
                ),
            )
        )
    terms = [Term(attack, f"attack of {entry.name}")]
    if genius:
        terms.append(Term(genius, f"Military Genius {genius} of {hero}, p.45"))
    return Pool((*terms, *penalties))


def defense_pool(
    state: GameState, army: Army | None, card: str, at: str, battle: bool = True
) -> Pool:
    """The pool of a card attacked on the ground (AE-29): a unit's defence + terrain + Military
    Genius X of its hero, and in a battle (``battle``; not a minefield's challenge) since
    version 26 its army's penalties (AE-68, AE-69); a hero's fate (p.16)."""
    entry = state.card(card)
    spec = entry.spec
    if isinstance(spec, HeroCard):
        return Pool((Term(spec.fate, f"fate of {entry.name}, p.16"),))
    defense = spec.defense if isinstance(spec, UnitCard) else 0
    terms = [Term(defense, f"defense of {entry.name}")]
    terrain = terrain_term(state, at)
    if terrain is not None:
        terms.append(terrain)
    genius, hero = hero_level(state, army, MILITARY_GENIUS)
    if genius:
        terms.append(Term(genius, f"Military Genius {genius} of {hero}, p.45"))
    if battle:
        terms += penalty_terms(state, army, card, "defense")
    return Pool(tuple(terms))


def damage_modifier(state: GameState, card: str) -> tuple[int, str]:
    """The card's damage modifiers (Composite Armor −1 and the like, p.34) and their label."""
    found = [a for a in state.card(card).abilities if isinstance(a, Armor)]
    return sum(a.damage for a in found), ", ".join(a.printed() for a in found)


def modified_damage(state: GameState, card: str, raw: int) -> tuple[int, int, str]:
    """(damage, modifier, label): a hit's damage after the card's modifiers, never below 0;
    no hit (``raw`` ≤ 0) deals nothing (p.28: modifiers apply once a hit is scored)."""
    if raw <= 0:
        return 0, 0, ""
    mod, label = damage_modifier(state, card)
    return max(0, raw + mod), mod, label


def sniper_target(state: GameState, b: Battle, empire: str, unit: str) -> str | None:
    """The enemy hero a Sniper Attack unit may strike: the hero of the enemy army in the fight
    (AE-30), if it has one."""
    if not has(state.card(unit).abilities, SNIPER_ATTACK):
        return None
    enemy = fighting_army(state, b.enemy(empire))
    return None if enemy is None else enemy.hero


def follow_up(state: GameState, unit: str) -> str:
    """The follow-up strike a unit may make after its first (AE-30), "" for none."""
    abilities = state.card(unit).abilities
    return next((kind for name, kind in FOLLOW_UPS if has(abilities, name)), "")


def multi_targeting(state: GameState, unit: str) -> bool:
    return has(state.card(unit).abilities, MULTI_TARGETING)
