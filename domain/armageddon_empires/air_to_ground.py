"""The Air-To-Ground challenge and its damage (p.31; AE-42, AE-43): the target picked, the
card's pool against the target's, the hit less the target's damage modifiers.

A card that survived its challenges strikes a target picked at random among what it may strike
(``air_targets``), or the one it named with Precision Targeting; a card carrying a weapon of
mass destruction strikes the whole hex instead (p.31–32; AE-48, ``fallout.py``). Its pool: its
attack (+ ``FORWARD_AIR_CONTROLLER_DICE`` with a Forward Air Controller unit of its empire in
the hex, p.46; since version 14 not one in a stealthed army, which does not give itself away,
and since version 20 the challenge's opening records, sealed for the striker, those it left
out) against the target's defence + terrain (R12); a unit defending has no hero's fate.
Damage less the target's damage modifiers; a Hardened facility takes half (R14). A munition
loaded onto the card adds its damage to a hit (p.31; AE-44, ``munitions.py``); a card or
munition with Collateral then strikes the armies of the hex (p.31; AE-46).
"""

from __future__ import annotations

from msgspec import UNSET
from msgspec.structs import replace

from warlog.domain.armageddon_empires.abilities import has
from warlog.domain.armageddon_empires.air_events import (
    AirStrikeAdvanced,
    AirStrikeEnded,
    AirTargetPicked,
)
from warlog.domain.armageddon_empires.air_targets import (
    SIGHTED_TARGETS_SINCE,
    holder_in_hex,
    standing,
    targets,
)
from warlog.domain.armageddon_empires.awaiting import may_roll
from warlog.domain.armageddon_empires.battlefield import modified_damage, terrain_term
from warlog.domain.armageddon_empires.cards import AttackCard, FacilityCard, UnitCard
from warlog.domain.armageddon_empires.challenge import Pool, Side, Term
from warlog.domain.armageddon_empires.challenge_events import StealthedController
from warlog.domain.armageddon_empires.challenge_moves import damage_events, open_challenge
from warlog.domain.armageddon_empires.fallout import (
    HARDENED,
    HARDENED_DIVISOR,
    fallout_kind,
)
from warlog.domain.armageddon_empires.flying_card import attack_card_side, top_strike
from warlog.domain.armageddon_empires.frames import AirStrike
from warlog.domain.armageddon_empires.munitions import munition_damage
from warlog.domain.armageddon_empires.state import Army, GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.procedure import Step

FORWARD_AIR_CONTROLLER = "Forward Air Controller"
#: p.46: a Forward Air Controller unit in the hex adds 3 dice to an Air-To-Ground challenge
FORWARD_AIR_CONTROLLER_DICE = 3
#: AE-42: since version 14 the target of an Air-To-Ground challenge is defended by the empire
#: that holds it (``holder_in_hex``: a captured base's facility by its captor), and a Forward Air
#: Controller counts only in an army that is not stealthed (a stealthed army does not give itself
#: away). Version 13 and before let the card's owner defend it, so that striking a captured base
#: the striker answered for both sides, and counted a stealthed army's controller, naming it to
#: the defender
AIR_TO_GROUND_HELD_SINCE = 14
#: AE-42: since version 20 the Air-To-Ground challenge's opening records the Forward Air
#: Controllers of the striker's empire in the hex that its pool leaves out because their army is
#: stealthed, sealed for the striker and present even when there are none
#: (``challenge_opened.stealthed_controllers``), so that the striker, or a referee settling its
#: complaint, reads why a controller did not count and the defender learns nothing. Version 19
#: and before recorded nothing: the pool read "attack of X" alone
STEALTHED_CONTROLLERS_RECORDED_SINCE = 20


def _nothing_to_strike(batch: Batch[GameState], strike: AirStrike, why: str) -> None:
    """The strike finds nothing to strike: it is over, or its collateral damage comes, which
    strikes whether or not the missile could strike its target (p.31; AE-46)."""
    if fallout_kind(batch.state, strike) == "collateral":
        why += "; then collateral damage on the armies of the hex (p.31; AE-46)"
        batch.emit(AirStrikeAdvanced(strike=replace(strike, stage="fallout"), why=why))
        return
    batch.emit(AirStrikeAdvanced(strike=replace(strike, stage="done"), why=why))


def _to_wmd(batch: Batch[GameState]) -> None:
    strike = top_strike(batch.state)
    why = (
        "it survived every challenge and carries a weapon of mass destruction: it strikes the "
        "whole hex, not one target (p.31–32; AE-48)"
    )
    batch.emit(AirStrikeAdvanced(strike=replace(strike, stage="fallout"), why=why))


def _pick_target(batch: Batch[GameState]) -> None:
    """A random target among what the card may strike, as its empire sighted it (p.31; AE-42),
    or none left; whether the one picked is still there, the strike finds out (``_open_strike``)."""
    state = batch.state
    strike = top_strike(state)
    found = targets(state, strike.empire, strike.at, strike.aim)
    if not found:
        _nothing_to_strike(batch, strike, f"no {strike.aim} left to strike at {strike.at} (AE-42)")
        return
    index = 0
    if len(found) > 1:
        if not may_roll(batch, strike.empire, f"{strike.name}: its target", 1):
            return
        (face,) = batch.roll(1, len(found), purpose=f"{strike.name} target", roller=strike.empire)
        index = face - 1
    batch.emit(
        AirTargetPicked(strike=replace(strike, target=found[index]), candidates=tuple(found))
    )


def strike_pool(state: GameState, strike: AirStrike) -> Pool:
    """The attack card's Air-To-Ground pool: its attack + 3 with a Forward Air Controller of its
    empire in the hex (p.31, p.46), since version 14 in an army that is not stealthed (AE-42)."""
    spec = state.card(strike.card).spec
    assert isinstance(spec, AttackCard)
    terms = [Term(spec.attack, f"attack of {spec.name}")]
    unseen = state.rules_version >= AIR_TO_GROUND_HELD_SINCE  # AE-42: not a stealthed army's
    controllers = [c for c, army in _controllers(state, strike) if not (unseen and army.stealthed)]
    if controllers:
        terms.append(
            Term(FORWARD_AIR_CONTROLLER_DICE, f"Forward Air Controller {controllers[0]}, p.46")
        )
    return Pool(tuple(terms))


def stealthed_controllers(state: GameState, strike: AirStrike) -> tuple[StealthedController, ...]:
    """The Forward Air Controllers that ``strike_pool`` leaves out because their army is
    stealthed (AE-42; none before version 14, which counted them)."""
    if state.rules_version < AIR_TO_GROUND_HELD_SINCE:
        return ()
    return tuple(
        StealthedController(card=c, army=army.id)
        for c, army in _controllers(state, strike)
        if army.stealthed
    )


def _controllers(state: GameState, strike: AirStrike) -> list[tuple[str, Army]]:
    """The Forward Air Controller units of the striker's empire in the hex, each with its army
    (p.46)."""
    return [
        (u, a)
        for a in state.armies.values()
        if a.empire == strike.empire and a.at == strike.at
        for u in a.units
        if has(state.card(u).abilities, FORWARD_AIR_CONTROLLER)
    ]


def target_pool(state: GameState, card: str, at: str) -> Pool:
    """A ground target's pool: its defence + the hex's terrain (R12); no hero's fate (p.31), nor
    his Military Genius (AE-42: the unit is on its own, and the open pool would name its army's
    hero to a striker whose sightings may not show him)."""
    entry = state.card(card)
    spec = entry.spec
    defense = spec.defense if isinstance(spec, UnitCard | FacilityCard) else 0
    terms = [Term(defense, f"defense of {entry.name}; no hero's fate, p.31")]
    terrain = terrain_term(state, at)
    if terrain is not None:
        terms.append(terrain)
    return Pool(tuple(terms))


def _open_strike(batch: Batch[GameState]) -> None:
    """The Air-To-Ground challenge (p.31; AE-42)."""
    state = batch.state
    strike = top_strike(state)
    target = strike.target
    assert target is not None
    if state.rules_version >= SIGHTED_TARGETS_SINCE:
        there = standing(state, strike.empire, strike.at, target)
    else:  # version 6: among the targets as they stand
        there = target in targets(state, strike.empire, strike.at, strike.aim)
    if not there:
        _nothing_to_strike(batch, strike, f"{target} is no longer there (AE-42)")
        return
    a_pool, d_pool = strike_pool(state, strike), target_pool(state, target, strike.at)
    what = f"{strike.name}: {state.card(strike.card).name} strikes {state.card(target).name}"
    if not may_roll(batch, strike.empire, what, a_pool.size + d_pool.size):
        return
    attacker = attack_card_side(state, strike, a_pool)
    recorded = state.rules_version >= STEALTHED_CONTROLLERS_RECORDED_SINCE
    open_challenge(
        batch,
        kind="opposed",
        purpose=f"{strike.name} air to ground",
        attacker=replace(attacker, card=None),
        defender=Side(
            empire=(
                holder_in_hex(state, strike, target)
                if state.rules_version >= AIR_TO_GROUND_HELD_SINCE
                else state.instances[target].owner
            ),
            name=f"{state.card(target).name} ({target})",
            pool=d_pool,
        ),
        stealthed_controllers=stealthed_controllers(state, strike) if recorded else UNSET,
    )


def strike_damage(state: GameState, card: str, raw: int) -> tuple[int, int, str]:
    """(damage, modifier, label) of an Air-To-Ground hit (AE-43): the target's damage modifiers
    (p.34), then half for a Hardened facility (R14, rounded down)."""
    dealt, mod, label = modified_damage(state, card, raw)
    if dealt and has(state.card(card).abilities, HARDENED):
        halved = dealt // HARDENED_DIVISOR
        mod += halved - dealt
        label = ", ".join(x for x in (label, f"Hardened: half of {dealt}, R14") if x)
        dealt = halved
    return dealt, mod, label


def after_strike(batch: Batch[GameState]) -> None:
    """The Air-To-Ground challenge is over: the target takes the hit less its damage modifiers,
    a munition's damage added (AE-43, AE-44); then collateral damage, or the strike ends."""
    state = batch.state
    strike = top_strike(state)
    outcome = strike.outcome
    assert outcome is not None
    cleared = replace(strike, challenger="", outcome=None)
    target = strike.target
    assert target is not None
    raw = outcome.damage_to_defender
    extra = munition_damage(state, strike) if raw > 0 else 0
    dealt, mod, label = strike_damage(state, target, raw + extra)
    if extra:
        mod += extra
        label = ", ".join(x for x in (f"+{extra} munition {strike.munition}, p.31", label) if x)
    if dealt:
        note = f"{raw} {mod:+d} ({label})" if mod else ""
        batch.emit(*damage_events(state, target, dealt, state.challenges, note))
    if fallout_kind(state, strike) == "collateral":
        took = f"{target} took {dealt} damage" if dealt else f"{target} took no damage"
        why = f"{took}; then collateral damage on the armies of {strike.at} (p.31; AE-46)"
        batch.emit(AirStrikeAdvanced(strike=replace(cleared, stage="fallout"), why=why))
        return
    batch.emit(
        AirStrikeEnded(
            strike=replace(cleared, stage="done"),
            survived=True,
            spent=strike.craft == "missile",
            raw=raw,
            modifier=mod,
            modifier_label=label,
            damage=dealt,
        )
    )


def air_to_ground_next(state: GameState, strike: AirStrike) -> Step:
    """The strike's next step once it has survived its challenges: a WMD on the whole hex, its
    target picked, or the Air-To-Ground challenge."""
    if fallout_kind(state, strike) == "wmd":
        return _to_wmd
    return _pick_target if strike.target is None else _open_strike
