"""Collateral damage and weapons of mass destruction (p.31–32; digest §4.5–4.6; R14; AE-45..AE-49).

- **Collateral damage** (p.31; AE-45, AE-46): a strike whose card or munition has
  ``Collateral P% N Atk``, once it has made its Air-To-Ground challenge (hit or miss) or found
  its target gone, rolls one hidden die for every army in the hex, whoever owns it, stealthed
  or not, garrisons too: a d10, the army hit at most P/10; a percentage that is not a whole ten
  is rolled on a d100, hit at most P (AE-45). Then, in a roll of its own (AE-37: its size
  depends on those dice), every hero and unit card of every army hit faces a hidden challenge:
  N dice against its defence (a unit) or its fate (a hero), + the hex's terrain (R12). The
  damage is the challenge's (successes − defence successes), less the card's damage modifiers
  (conventional damage, AE-29). A card shot down before it strikes does no collateral damage.
- **WMD** (p.31–32; AE-48): a strike whose card or munition has ``Hydrogen Bomb A, R`` or
  ``Grav Warhead A, R`` makes no Air-To-Ground challenge against one target: it strikes the
  whole hex. Every facility without Hardened is destroyed (the base's own card too: the base is
  razed, AE-34); each Hardened facility left, and every hero and unit card of every army in the
  hex, faces a WMD challenge of A dice against its defence (a hero: its fate) + terrain (R12),
  with no damage modifiers (R14: not conventional damage); a card it does not destroy takes R
  less a random 1..its resistance (AE-47: none taken off at resistance 0). The garrison of a
  Hardened stronghold or outpost takes half the challenge's damage, rounded down, and no
  radiation (R14).
- **Hidden** (p.31; AE-49): the challenges against armies are the referee's: one hidden roll of
  every die (since version 21, AE-66, each hidden roll is made once per empire, in the
  scenario's order, each holding that empire's armies or cards alone, a roll of none recorded,
  so that with the same key an empire's faces never hang on the other empire's cards in the
  hex: ``dice_owners``), then ``fallout_suffered`` for every empire, its own cards' results
  sealed for it alone; a card they destroy goes to the discard pile face down (only its owner sees it), and
  no other empire's sightings change. What happens to a base is public, as bases are: its
  facilities' challenges roll in the open, before the hidden dice.
- The dice are counted before any is rolled (AE-37): the radiation die of every card is
  rolled with the challenge dice, and a card the challenge destroys does not use its own. The
  hidden radiation rolls (``radiation_rolls``): before version 19, one for each resistance of 2
  or more among the scenario's heroes and units, of that many sides (so the number of rolls
  tells nothing of the hex, but the sides tell the resistances); since version 19 (AE-65) the
  same 25 rolls in every game, of ``radiation.RADIATION_SIDES``, each holding one die for every
  exposed card whose resistance its prime divides, which reads its roll from them
  (``radiation.radiation_roll``).
"""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from warlog.domain.armageddon_empires.abilities import Ability, Collateral, Wmd, has
from warlog.domain.armageddon_empires.air_events import AirStrikeAdvanced
from warlog.domain.armageddon_empires.awaiting import may_roll
from warlog.domain.armageddon_empires.battle_events import BaseRazed
from warlog.domain.armageddon_empires.battlefield import modified_damage, terrain_term
from warlog.domain.armageddon_empires.cards import FacilityCard, HeroCard, UnitCard, damage_limit
from warlog.domain.armageddon_empires.challenge import Pool, Term, successes
from warlog.domain.armageddon_empires.challenge_moves import OPEN_TOTAL_SINCE
from warlog.domain.armageddon_empires.fallout_events import (
    ArmyRoll,
    CollateralRolled,
    FalloutHit,
    FalloutKind,
    FalloutSuffered,
    Radiation,
    RadiationDie,
    WmdDetonated,
)
from warlog.domain.armageddon_empires.frames import AirStrike
from warlog.domain.armageddon_empires.munitions import carried
from warlog.domain.armageddon_empires.radiation import (
    RADIATION_DICE_FIXED_SINCE,
    RADIATION_SIDES,
    die_of,
    prime_of,
    prime_powers,
    radiation_roll,
)
from warlog.domain.armageddon_empires.state import Army, Base, GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.owned_rolls import roll_pieces
from warlog.domain.core.procedure import Step

HARDENED = "Hardened"
#: AE-45: a percentage of whole tens is rolled on a d10 (p.31), any other on a d100
COLLATERAL_DIE = 10
PERCENTILE_DIE = 100
#: AE-66: the version since which each hidden roll of a strike's fallout is made once per empire,
#: each holding that empire's armies or cards alone (``dice_owners``)
DICE_BY_EMPIRE_SINCE = 21
#: R14: half, rounded down — the conventional damage to a Hardened facility (AE-43) and the WMD
#: challenge's damage to the garrison of a Hardened base (AE-48)
HARDENED_DIVISOR = 2


# ---------------------------------------------------------------------- what a strike carries


def collateral_of(abilities: tuple[Ability, ...]) -> Collateral | None:
    return next((a for a in abilities if isinstance(a, Collateral)), None)


def wmd_of(abilities: tuple[Ability, ...]) -> Wmd | None:
    return next((a for a in abilities if isinstance(a, Wmd)), None)


def fallout_kind(state: GameState, strike: AirStrike) -> FalloutKind | None:
    """What the strike does to the whole hex: a WMD, collateral damage, or nothing."""
    abilities = carried(state, strike)
    if wmd_of(abilities) is not None:
        return "wmd"
    return "collateral" if collateral_of(abilities) is not None else None


def collateral_die(percent: int) -> int:
    """AE-45: the die of each army, a d10 for whole tens (p.31), a d100 otherwise."""
    return COLLATERAL_DIE if percent % 10 == 0 else PERCENTILE_DIE


def collateral_hit(percent: int, face: int, sides: int) -> bool:
    """AE-45: a d10 at most the percentage's tens (60 %: 1–6, p.31); a d100 at most P."""
    return face * (100 // sides) <= percent


# ---------------------------------------------------------------------- what is in the hex


def hex_armies(state: GameState, at: str) -> list[Army]:
    """Every army in hex ``at``, whoever owns it, stealthed or not, garrisons too, by id."""
    return sorted((a for a in state.armies.values() if a.at == at), key=lambda a: a.id)


def card_pool(state: GameState, card: str, at: str) -> Pool:
    """A card's pool in a hidden challenge (p.31–32): its defence, or a hero's fate, + the
    hex's terrain (R12)."""
    entry = state.card(card)
    spec = entry.spec
    if isinstance(spec, HeroCard):
        terms = [Term(spec.fate, f"fate of {entry.name}, p.31")]
    else:
        defense = spec.defense if isinstance(spec, UnitCard | FacilityCard) else 0
        terms = [Term(defense, f"defense of {entry.name}")]
    terrain = terrain_term(state, at)
    return Pool((*terms, terrain) if terrain is not None else tuple(terms))


def resistance(state: GameState, card: str) -> int:
    spec = state.card(card).spec
    return spec.resistance if isinstance(spec, HeroCard | UnitCard | FacilityCard) else 0


def scenario_resistances(state: GameState) -> tuple[int, ...]:
    """The resistances of 2 or more among the scenario's heroes and units: one hidden radiation
    roll each before version 19, whatever the hex holds (module doc). Each roll's sides are
    public: in version 18, whose hidden set-up's catalogue is sealed by empire (AE-64), they told
    every player the resistances of both empires' hidden types; since version 19 the rolls are
    ``radiation.RADIATION_SIDES`` whatever the catalogue (AE-65)."""
    found = {
        e.spec.resistance
        for e in state.catalogue.values()
        if isinstance(e.spec, HeroCard | UnitCard) and e.spec.resistance >= 2
    }
    return tuple(sorted(found))


def radiation_rolls(state: GameState, exposed: list[str]) -> list[tuple[int, list[str]]]:
    """The hidden radiation rolls of a WMD strike on the ``exposed`` cards (in the order the
    challenges take them), each as its sides and the cards that hold a die of it, in order:
    since version 19 one roll of each of ``RADIATION_SIDES``, each holding a die for every card
    whose resistance its prime divides, the dice ``radiation.radiation_roll`` reads (AE-65;
    a resistance of 0 or 1 has no prime); before, one roll for each of
    ``scenario_resistances``, holding the cards of that resistance."""
    if state.rules_version >= RADIATION_DICE_FIXED_SINCE:
        res = {c: resistance(state, c) for c in exposed}
        return [
            (sides, [c for c in exposed if res[c] >= 2 and res[c] % prime_of(sides) == 0])
            for sides in RADIATION_SIDES
        ]
    return [
        (r, [c for c in exposed if resistance(state, c) == r]) for r in scenario_resistances(state)
    ]


def sheltered(state: GameState, base: Base | None) -> str | None:
    """The garrison a Hardened stronghold or outpost shelters (R14), if any."""
    if base is None or not has(state.card(base.card).abilities, HARDENED):
        return None
    return base.garrison


def dice_owners(state: GameState) -> tuple[str, ...] | None:
    """AE-66: the empires, in the scenario's order, each of which the hidden rolls of a strike's
    fallout are made once for, holding its own armies or cards alone, since version 21 (so that
    with the same key an empire's faces never hang on the other's cards in the hex); None
    before: one roll over every empire's."""
    return state.seats if state.rules_version >= DICE_BY_EMPIRE_SINCE else None


def _owner(state: GameState, card: str) -> str:
    return state.instances[card].owner


# ---------------------------------------------------------------------- one hidden challenge


class _Faces:
    """Faces handed out in order."""

    def __init__(self, faces: list[int]) -> None:
        self._it: Iterator[int] = iter(faces)

    def take(self, n: int) -> tuple[int, ...]:
        return tuple(next(self._it) for _ in range(n))


def _pools(state: GameState, cards: list[str], at: str) -> dict[str, Pool]:
    return {c: card_pool(state, c, at) for c in cards}


def _dice(pools: dict[str, Pool], attack: int) -> int:
    """The dice of one challenge per card: ``attack`` dice and the card's pool each."""
    return sum(attack + pool.size for pool in pools.values())


def _hidden_challenge_dice(
    batch: Batch[GameState], pools: dict[str, Pool], attack: int, purpose: str
) -> list[_Faces]:
    """The faces of each card's hidden challenge, in the order of ``pools``: one hidden roll
    over every card's, or one per empire since version 21 (AE-66, ``dice_owners``)."""
    state = batch.state
    pieces = [(_owner(state, c), attack + pool.size) for c, pool in pools.items()]
    rolled = roll_pieces(batch, pieces, 6, purpose=purpose, owners=dice_owners(state))
    return [_Faces(list(faces)) for faces in rolled]


def _challenge(
    state: GameState,
    card: str,
    pool: Pool,
    attack: int,
    dice: _Faces,
    *,
    conventional: bool,
    halved: bool = False,
) -> FalloutHit:
    """One challenge (before radiation): ``attack`` dice against the card's ``pool``."""
    a_faces, d_faces = dice.take(attack), dice.take(pool.size)
    raw = max(0, successes(a_faces) - successes(d_faces))
    dealt, note = raw, ""
    if conventional:
        dealt, mod, label = modified_damage(state, card, raw)
        note = f"{raw} {mod:+d}: {label}" if mod else ""
    elif halved and raw:
        dealt = raw // HARDENED_DIVISOR
        note = f"half of {raw}: the garrison of a Hardened base, R14"
    total = state.damage.get(card, 0) + dealt
    limit = damage_limit(state.card(card).spec)
    return FalloutHit(
        card=card,
        owner=state.instances[card].owner,
        attack=attack,
        attack_faces=a_faces,
        pool=pool,
        defense_faces=d_faces,
        damage=dealt,
        note=note,
        total=total,
        limit=limit,
        destroyed=total >= limit,
    )


def _in_the_open(state: GameState, hit: FalloutHit) -> FalloutHit:
    """A facility's hit as everyone sees it: since version 12 its ``total`` counts only the
    damage dealt in the open (a repair out of the other empires' sight not told, AE-49,
    ``challenge_moves.OPEN_TOTAL_SINCE``); whether it is destroyed counts everything."""
    if state.rules_version < OPEN_TOTAL_SINCE:
        return hit
    return replace(hit, total=hit.total - state.hidden_damage.get(hit.card, 0))


def _irradiated(
    hit: FalloutHit, strength: int, res: int, die: int, dice: tuple[RadiationDie, ...] = ()
) -> FalloutHit:
    """The hit with radiation added, unless the challenge destroyed the card (p.31–32): the
    random 1..resistance is ``die`` (a resistance of 1 needs none; of 0 takes nothing, AE-47),
    read from ``dice`` since version 19 (AE-65)."""
    if hit.destroyed:
        return hit
    roll = min(res, 1) if res < 2 else die
    rad = Radiation(strength=strength, resistance=res, roll=roll, dice=dice)
    total = hit.total + rad.damage
    return replace(hit, radiation=rad, total=total, destroyed=total >= hit.limit)


def _hidden_radiation(
    state: GameState, res: int, faces: dict[int, int]
) -> tuple[int, tuple[RadiationDie, ...]]:
    """A card's random 1..``res`` from its faces on the hidden radiation rolls (sides → face)
    and the dice it read: before version 19 its one die of ``res`` sides; since, those of the
    primes dividing ``res`` (AE-65)."""
    if res < 2:
        return 0, ()
    if state.rules_version < RADIATION_DICE_FIXED_SINCE:
        return faces[res], ()
    dice = tuple(RadiationDie(die_of(p), faces[die_of(p)]) for p, _ in prime_powers(res))
    return radiation_roll(res, faces), dice


def _by_empire(
    batch: Batch[GameState], strike: AirStrike, kind: FalloutKind, hits: list[FalloutHit]
) -> None:
    """``fallout_suffered`` for every empire, hit or not (AE-49)."""
    for empire in batch.state.seats:
        mine = tuple(h for h in hits if h.owner == empire)
        batch.emit(FalloutSuffered(strike=strike.number, kind=kind, empire=empire, hits=mine))


def _done(batch: Batch[GameState], strike: AirStrike, why: str) -> None:
    batch.emit(AirStrikeAdvanced(strike=replace(strike, stage="done"), why=why))


# ---------------------------------------------------------------------- collateral damage


def _roll_collateral(batch: Batch[GameState]) -> None:
    """The hidden die of every army in the hex (AE-45, AE-46), rolled once per empire since
    version 21 (AE-66)."""
    state = batch.state
    strike = state.frames[-1]
    assert isinstance(strike, AirStrike)
    found = collateral_of(carried(state, strike))
    assert found is not None
    armies = hex_armies(state, strike.at)
    what = f"{strike.name}: collateral damage"
    if not may_roll(batch, strike.empire, what, len(armies), hidden=True):
        return
    sides = collateral_die(found.percent)
    pieces = [(a.empire, 1) for a in armies]
    purpose = f"{strike.name} collateral"
    faces = roll_pieces(batch, pieces, sides, purpose=purpose, owners=dice_owners(state))
    rolls = tuple(
        ArmyRoll(army=a.id, face=f, hit=collateral_hit(found.percent, f, sides))
        for a, (f,) in zip(armies, faces, strict=True)
    )
    batch.emit(
        CollateralRolled(
            strike=replace(strike, collateral_rolled=True),
            percent=found.percent,
            attack=found.attack,
            rolls=rolls,
        )
    )


def _collateral_challenges(batch: Batch[GameState]) -> None:
    """The hidden challenges of every card of the armies hit (p.31; AE-46), rolled once per
    empire since version 21 (AE-66)."""
    state = batch.state
    strike = state.frames[-1]
    assert isinstance(strike, AirStrike)
    found = collateral_of(carried(state, strike))
    assert found is not None
    cards = [c for a in state.collateral if a in state.armies for c in state.armies[a].cards()]
    n, pools = found.attack, _pools(state, cards, strike.at)
    total = _dice(pools, n)
    if not may_roll(batch, strike.empire, f"{strike.name}: collateral damage", total, hidden=True):
        return
    purpose = f"{strike.name} collateral challenges"
    dice = _hidden_challenge_dice(batch, pools, n, purpose)
    hits = [
        _challenge(state, c, p, n, d, conventional=True)
        for (c, p), d in zip(pools.items(), dice, strict=True)
    ]
    _by_empire(batch, strike, "collateral", hits)
    _done(batch, strike, "collateral damage is over (p.31)")


# ---------------------------------------------------------------------- WMD


def _detonate(batch: Batch[GameState]) -> None:
    """A Hydrogen Bomb or Grav Warhead on the whole hex (p.31–32; AE-48; R14): the base's
    challenges in the open, then the hidden challenges and each radiation roll, each once per
    empire since version 21 (AE-66)."""
    state = batch.state
    strike = state.frames[-1]
    assert isinstance(strike, AirStrike)
    weapon = wmd_of(carried(state, strike))
    assert weapon is not None
    at, a = strike.at, weapon.attack
    base = state.base_at(at)
    facilities = [] if base is None else [base.card, *base.facilities]
    destroyed = [f for f in facilities if not has(state.card(f).abilities, HARDENED)]
    razed = base is not None and base.card in destroyed
    spared = [] if razed else [f for f in facilities if f not in destroyed]
    shelter = None if razed else sheltered(state, base)
    army_of = {c: army.id for army in hex_armies(state, at) for c in army.cards()}
    exposed = [c for c, army in army_of.items() if army != shelter]
    rolls = radiation_rolls(state, exposed)
    open_pools, hidden_pools = _pools(state, spared, at), _pools(state, list(army_of), at)
    open_res = [f for f in spared if resistance(state, f) >= 2]
    count = _dice(open_pools, a) + len(open_res) + _dice(hidden_pools, a)
    count += sum(len(cards) for _, cards in rolls)
    if not may_roll(batch, strike.empire, f"{strike.name}: {weapon.name}", count, hidden=True):
        return
    # the base's challenges in the open, then the hidden ones (module doc)
    purpose = f"{strike.name} WMD challenges of the facilities"
    open_dice = _Faces(batch.roll(_dice(open_pools, a), 6, purpose=purpose))
    open_hits = []
    for f, pool in open_pools.items():
        hit = _challenge(state, f, pool, a, open_dice, conventional=False)
        res = resistance(state, f)
        die = batch.roll(1, res, purpose=f"{strike.name} radiation of {f}")[0] if res >= 2 else 0
        open_hits.append(_in_the_open(state, _irradiated(hit, weapon.radiation, res, die)))
    hidden = _hidden_challenge_dice(batch, hidden_pools, a, f"{strike.name} hidden WMD challenges")
    faces: dict[str, dict[int, int]] = {}
    for sides, cards in rolls:
        pieces = [(_owner(state, c), 1) for c in cards]
        purpose = f"{strike.name} radiation"
        rolled = roll_pieces(batch, pieces, sides, purpose=purpose, owners=dice_owners(state))
        for c, (face,) in zip(cards, rolled, strict=True):
            faces.setdefault(c, {})[sides] = face
    hits = []
    for (c, pool), own in zip(hidden_pools.items(), hidden, strict=True):
        sheltered_here = army_of[c] == shelter
        hit = _challenge(state, c, pool, a, own, conventional=False, halved=sheltered_here)
        if not sheltered_here:
            res = resistance(state, c)
            die, dice = _hidden_radiation(state, res, faces.get(c, {}))
            hit = _irradiated(hit, weapon.radiation, res, die, dice)
        hits.append(hit)
    batch.emit(
        WmdDetonated(
            strike=strike,
            weapon=weapon.name,
            attack=a,
            radiation=weapon.radiation,
            destroyed=tuple(destroyed),
            hits=tuple(open_hits),
        )
    )
    if base is not None and (razed or any(h.card == base.card and h.destroyed for h in open_hits)):
        batch.emit(
            BaseRazed(
                base=base.id,
                empire=base.empire,
                at=base.at,
                facilities=tuple(f for f in base.facilities if f not in destroyed),
                freed=base.prisoners,
            )
        )
    _by_empire(batch, strike, "wmd", hits)
    _done(batch, strike, f"the {weapon.name} is spent on {at} (p.31–32)")


# ---------------------------------------------------------------------- the procedure


def fallout_next(state: GameState, strike: AirStrike) -> Step:
    """The strike's fallout step (module doc)."""
    if fallout_kind(state, strike) == "wmd":
        return _detonate
    return _collateral_challenges if strike.collateral_rolled else _roll_collateral
