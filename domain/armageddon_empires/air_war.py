"""The air war (manual p.19, p.30–31; digest §4.1–4.4; AE-39..AE-43): an attack card played on a
hex, the intercept window, Ground-To-Air challenges, then the Air-To-Ground challenge.

- **Playing** (AE-39): an aircraft, helo or missile in the hand is played face up on a hex within
  its range, measured in hexes from the nearest stronghold or outpost of its empire that is not
  besieged (p.19); a helo may instead fly from a combat-capable army of its empire that is in
  supply and not stealthed, and then takes ``HELO_FROM_ARMY_DAMAGE`` first; a missile may fly
  from an army holding a Mobile Launcher unit. It costs the card's AP and its resources, every
  time (p.19). The hex must hold what it strikes: an enemy army its empire has sighted there this
  round (a unit, judged by the sighting alone: a target gone since is found out when the card
  arrives) or an enemy base (a facility, AE-42); a missile strikes only a hex with an enemy base.
- **Intercept window** (p.30; AE-40): aircraft and helos only. Every other empire, in seat order,
  is offered it and may answer with an Air To Air card of its hand if it observes the hex, the
  card's range reaches the hex from a base of its own that is not besieged, and it can pay the
  card's AP (owed outside its own turn, AE-19) and resources. An empire with an empty hand lets
  it pass automatically (AE-20); every other is asked, so that being asked tells nothing.
  The Air-To-Air challenge: the interceptor's Air To Air X against the card's defence, or its
  Air To Air level when it has one, a duel (p.31).
- **Ground-To-Air** (p.30–31; AE-41): every card of another empire in the hex with Anti-Air X
  (against aircraft and helos) or Anti-Missile X (against missiles) may challenge the card, free
  of cost. Since version 13 every other empire is asked in seat order, whatever the hex holds,
  and launches its challenges one gunner at a time in the order it chooses
  (``ground_to_air_challenge``) until it launches no more: a gunner shows itself only by firing.
  In version 12 each gunner was asked about in turn (``ground_to_air``), bases first, then
  armies that are not stealthed by id, named to everyone; before, every gunner fired. Against
  HARM X the attack card defends with X dice and the challenge is a duel; there is no HARM
  against Anti-Missile.
- **Air-To-Ground** (p.31; AE-42, AE-43): the surviving card's attack (+ ``FORWARD_AIR_CONTROLLER_
  DICE`` with a Forward Air Controller unit of its empire in the hex, p.46) against the target's
  defence + terrain (R12); a unit defending has no hero's fate. Damage less the target's damage
  modifiers; a Hardened facility takes half (R14).
- The attack card's fate carries over between its challenges (p.30; R6); it stays in the hand
  while it flies: an aircraft or helo that survives is back in the hand, a missile is spent
  (p.19); a destroyed card is discarded (AE-24). A munition loaded onto it adds its damage to a
  hit and is spent at the end, whatever happened (p.31; AE-44, ``munitions.py``).
- Fallout (p.31–32; ``fallout.py``): a card or munition with Collateral strikes the armies of
  the hex after its Air-To-Ground challenge; one with a Hydrogen Bomb or Grav Warhead strikes
  the whole hex instead of one target.
"""

from __future__ import annotations

from msgspec.structs import replace

from warlog.domain.armageddon_empires.abilities import has, level
from warlog.domain.armageddon_empires.air_events import (
    AirStrikeAdvanced,
    AirStrikeEnded,
    AirStrikeLaunched,
    AirStrikeLaunchedSealed,
    AirTargetPicked,
    InterceptAnswered,
)
from warlog.domain.armageddon_empires.awaiting import may_roll
from warlog.domain.armageddon_empires.battlefield import modified_damage, terrain_term
from warlog.domain.armageddon_empires.cards import AttackCard, FacilityCard, UnitCard
from warlog.domain.armageddon_empires.challenge import Pool, Side, Term
from warlog.domain.armageddon_empires.challenge_moves import (
    damage,
    damage_events,
    in_own_turn,
    open_challenge,
)
from warlog.domain.armageddon_empires.commands import (
    GroundToAir,
    GroundToAirChallenge,
    Intercept,
    PlayAttackCard,
)
from warlog.domain.armageddon_empires.costs import MAX_AP_OWED
from warlog.domain.armageddon_empires.fallout import (
    HARDENED,
    HARDENED_DIVISOR,
    fallout_kind,
    fallout_next,
)
from warlog.domain.armageddon_empires.frames import Aim, AirStrike
from warlog.domain.armageddon_empires.guards import BASE_KINDS, hex_on_map
from warlog.domain.armageddon_empires.munitions import loadable, munition_damage, munition_problem
from warlog.domain.armageddon_empires.observation import observation_into
from warlog.domain.armageddon_empires.state import Base, GameState
from warlog.domain.armageddon_empires.supply import is_besieged
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, quoted, reject
from warlog.domain.core.hexgrid import Hex
from warlog.domain.core.procedure import Decision, Step
from warlog.domain.core.ruleset import Command

AIR_TO_AIR = "Air To Air"
HARM = "HARM"
PRECISION_TARGETING = "Precision Targeting"
ANTI_AIR = "Anti-Air"
ANTI_MISSILE = "Anti-Missile"
MOBILE_LAUNCHER = "Mobile Launcher"
FORWARD_AIR_CONTROLLER = "Forward Air Controller"
#: p.46: a Forward Air Controller unit in the hex adds 3 dice to an Air-To-Ground challenge
FORWARD_AIR_CONTROLLER_DICE = 3
#: p.19 (AE-39): a helo in range only of an army takes 1 damage before its challenges
HELO_FROM_ARMY_DAMAGE = 1

PROCEDURE = "air strike"
INTERCEPT_ANSWERS: tuple[str, ...] = (Intercept.type_name(),)
GROUND_TO_AIR_ANSWERS: tuple[str, ...] = (GroundToAir.type_name(),)
#: AE-41: since version 12 each gunner's empire chooses whether to fire it (p.30 leaves the
#: challenge to its owner, and closes the window once each is fought or turned down), gunner by
#: gunner in the order of ``gunners``; version 11 and before fired every gunner
GROUND_TO_AIR_ASKED_SINCE = 12
GROUND_TO_AIR_CHALLENGE_ANSWERS: tuple[str, ...] = (GroundToAirChallenge.type_name(),)
#: AE-41: since version 13 every other empire is asked, whatever the hex holds, in seat order,
#: and names each gunner it fires (``ground_to_air_challenge``): a gunner that does not fire is
#: never shown (p.30: the owner chooses to launch the challenge). Version 12 named every gunner
#: in the hex to everyone, units of armies the striker had not sighted among them, and asked
#: about each, so that the striker learnt of gunners that held their fire
GROUND_TO_AIR_UNSEEN_SINCE = 13
#: version 12's answer to the Ground-To-Air window, retired with it (``Rules.retired_commands``)
GROUND_TO_AIR_RETIRED = {
    GroundToAir.type_name(): (
        GROUND_TO_AIR_UNSEEN_SINCE,
        "the Ground-To-Air window asks every other empire which gunner it fires, answered with "
        "ground_to_air_challenge (AE-41)",
    )
}
#: AE-42: since version 14 the target of an Air-To-Ground challenge is defended by the empire
#: that holds it (``holder_in_hex``: a captured base's facility by its captor), and a Forward Air
#: Controller counts only in an army that is not stealthed (a stealthed army does not give itself
#: away). Version 13 and before let the card's owner defend it, so that striking a captured base
#: the striker answered for both sides, and counted a stealthed army's controller, naming it to
#: the defender
AIR_TO_GROUND_HELD_SINCE = 14


# ---------------------------------------------------------------------- what a card may strike


def enemy_base(state: GameState, empire: str, at: str) -> Base | None:
    """The base of another empire in hex ``at``, if any."""
    base = state.base_at(at)
    return base if base is not None and base.empire != empire else None


#: AE-42: the rules version since which an air strike's unit targets are judged by sightings
SIGHTED_TARGETS_SINCE = 7


def unit_targets(state: GameState, empire: str, at: str) -> list[str]:
    """The units an attack card of ``empire`` may aim at in hex ``at`` (AE-42): those of the
    enemy armies it has sighted there this round, as it saw them, by army. Judged by its
    sightings alone, as AE-38 judges a hunt: a change it has not seen (stealth engaged, cards
    moved out or in) never changes what it is offered or refused; the strike finds it out
    (``standing``). In a game played under version 6, only those still standing there."""
    if state.rules_version < SIGHTED_TARGETS_SINCE:
        return _version_6_targets(state, empire, at)
    seen = state.sightings.get(empire, {})
    out: list[str] = []
    for army in sorted(seen):
        sighted = seen[army]
        if sighted.empire != empire and sighted.at == at and not sighted.stealthed:
            out += sighted.units
    return out


def _version_6_targets(state: GameState, empire: str, at: str) -> list[str]:
    """Version 6's AE-42, kept so that its games play on and re-derive: the units of the enemy
    armies in hex ``at`` that are not stealthed and that ``empire`` has sighted this round,
    those still in them, by army."""
    seen = state.sightings.get(empire, {})
    out: list[str] = []
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        sighted = seen.get(army.id)
        if army.empire == empire or army.at != at or army.stealthed or sighted is None:
            continue
        out += [u for u in army.units if u in sighted.units]
    return out


def standing(state: GameState, empire: str, at: str, target: str) -> bool:
    """Whether ``target`` is still there to strike when the card arrives (AE-42): a unit in an
    enemy army in hex ``at`` that is not stealthed, or a facility of the enemy base there."""
    if target in facility_targets(state, empire, at):
        return True
    return any(
        army.empire != empire and army.at == at and not army.stealthed and target in army.units
        for army in state.armies.values()
    )


def facility_targets(state: GameState, empire: str, at: str) -> list[str]:
    """The facilities of the enemy base in hex ``at``: its own card first (AE-42)."""
    base = enemy_base(state, empire, at)
    return [] if base is None else [base.card, *base.facilities]


def targets(state: GameState, empire: str, at: str, aim: Aim) -> list[str]:
    return unit_targets(state, empire, at) if aim == "unit" else facility_targets(state, empire, at)


#: AE-39: since version 12 a card flies from a base whenever one is in range, from an army only
#: when none is (p.19: a helo takes its launch damage when only an army is in range); version
#: 11 and before flew from the nearest of them, so that a helo took that damage flying from an
#: army nearer than a base in range
BASE_FIRST_SINCE = 12
#: AE-39: since version 12 where a card flew from, and how far, is sealed for its empire
#: (``air_strike_launched_sealed``): version 11 and before named it to everyone, and a launch
#: from an army named an army the other empire may not have seen and ringed its hex
LAUNCH_POINT_SEALED_SINCE = 12


def launch_point(
    state: GameState, empire: str, spec: AttackCard, at: str
) -> tuple[str, int, bool] | None:
    """Where the card flies from to reach hex ``at`` (AE-39): ``(base or army, distance, from
    an army)``: the nearest base in range, else the nearest army in range that may launch it
    (before version 12 the nearest of both, ``BASE_FIRST_SINCE``); None when nothing of its
    empire is in range."""
    target = Hex.parse(at)
    options: list[tuple[int, bool, str]] = []
    for base in state.bases_of(empire):
        if base.kind in BASE_KINDS and not is_besieged(state, base):
            options.append((Hex.parse(base.at).distance(target), False, base.id))
    emp = state.empires[empire]
    for army in state.armies.values():
        if army.empire != empire or army.stealthed:
            continue
        if spec.craft == "helo":
            ok = army.combat_capable and army.id not in emp.out_of_supply
        elif spec.craft == "missile":
            ok = any(has(state.card(u).abilities, MOBILE_LAUNCHER) for u in army.units)
        else:
            ok = False
        if ok:
            options.append((Hex.parse(army.at).distance(target), True, army.id))
    in_range = [o for o in options if o[0] <= spec.range]
    if not in_range:
        return None
    if state.rules_version >= BASE_FIRST_SINCE:
        from_army, distance, source = min((o[1], o[0], o[2]) for o in in_range)
    else:
        distance, from_army, source = min(in_range)
    return source, distance, from_army and spec.craft == "helo"


def strike_problem(
    state: GameState,
    player: str,
    card: str,
    at: str,
    aim: Aim | None,
    target: str | None,
    munition: str | None = None,
) -> RulesError | None:
    """Why ``player`` may not play ``card`` on ``at`` so aimed and loaded (AE-39, AE-42,
    AE-44), or None."""
    emp = state.empires[player]
    if card not in emp.hand:
        return reject(f"card {card!r} is not in {player}'s hand", "not_in_hand")
    entry = state.card(card)
    spec = entry.spec
    if not isinstance(spec, AttackCard):
        return reject(f"{card} is not an attack card (p.19)", "not_an_attack_card")
    if munition is not None:
        problem = munition_problem(state, player, card, munition)
        if problem is not None:
            return problem
    precise = has(entry.abilities, PRECISION_TARGETING)
    if target is not None:
        if not precise:
            return reject(
                f"{card} has no Precision Targeting: it strikes a random target; leave 'target' "
                "out (p.31)",
                "no_precision_targeting",
            )
        allowed = facility_targets(state, player, at)
        if spec.craft != "missile":
            allowed = unit_targets(state, player, at) + allowed
        if target not in allowed:
            return reject(
                f"{target!r} is not a target {card} may strike at {at}; targets: "
                f"{', '.join(allowed) or 'none'} (p.31; AE-42)",
                "no_air_target",
            )
    else:
        if spec.craft == "missile" and aim == "unit":
            return reject(
                "a missile strikes a facility, never an army (p.31)", "missile_strikes_facility"
            )
        chosen: Aim = "facility" if spec.craft == "missile" else (aim or "unit")
        if aim is None and spec.craft != "missile":
            return reject(
                f"{card} is a {spec.craft}: say 'aim' (unit or facility) (p.31)", "no_aim"
            )
        if not targets(state, player, at, chosen):
            where = (
                "enemy base"
                if chosen == "facility"
                else "unit of an enemy army you have sighted there"
            )
            return reject(
                f"{card} strikes a random {chosen} and {at} holds no {where} (p.31; AE-42)",
                "no_air_target",
            )
    if launch_point(state, player, spec, at) is None:
        return reject(
            f"{at} is beyond the range {spec.range} of {card} from every base (or army) of "
            f"{player} that may launch it (p.19; AE-39)",
            "out_of_range",
        )
    if emp.ap < spec.ap:
        return reject(f"{card} costs {spec.ap} AP; {player} has {emp.ap}", "not_enough_ap")
    if not emp.resources.covers(spec.cost):
        return reject(
            f"{card} costs {spec.cost.text()}; {player} has {emp.resources.text()}",
            "not_enough_resources",
        )
    return None


def play_attack_card(batch: Batch[GameState], cmd: PlayAttackCard) -> None:
    """``air_strike_launched`` (and the helo's launch damage); RulesError as
    ``strike_problem`` says."""
    state = batch.state
    at = hex_on_map(state, cmd.at)
    problem = strike_problem(state, cmd.player, cmd.card, at, cmd.aim, cmd.target, cmd.munition)
    if problem:
        raise problem
    spec = state.card(cmd.card).spec
    assert isinstance(spec, AttackCard)
    found = launch_point(state, cmd.player, spec, at)
    assert found is not None
    source, distance, from_army = found
    if cmd.target is not None:
        aim: Aim = "unit" if cmd.target in unit_targets(state, cmd.player, at) else "facility"
    else:
        aim = "facility" if spec.craft == "missile" else (cmd.aim or "unit")
    others = () if spec.craft == "missile" else tuple(e for e in state.seats if e != cmd.player)
    strike = AirStrike(
        number=state.air_strikes + 1,
        empire=cmd.player,
        card=cmd.card,
        craft=spec.craft,
        at=at,
        aim=aim,
        target=cmd.target,
        to_ask=others,
        munition=cmd.munition or "",
    )
    launch_damage = HELO_FROM_ARMY_DAMAGE if from_army else 0
    if state.rules_version >= LAUNCH_POINT_SEALED_SINCE:
        launched: AirStrikeLaunched = AirStrikeLaunchedSealed(
            strike=strike,
            ap_cost=spec.ap,
            paid=spec.cost,
            empire=cmd.player,
            launched_from=source,
            distance=distance,
            launch_damage=launch_damage,
        )
    else:
        launched = AirStrikeLaunched(
            strike=strike,
            ap_cost=spec.ap,
            paid=spec.cost,
            launched_from=source,
            distance=distance,
            launch_damage=launch_damage,
        )
    batch.emit(launched)
    if launch_damage:
        batch.emit(damage(batch.state, cmd.card, launch_damage, 0, "a helo launched from an army"))


# ---------------------------------------------------------------------- the intercept window


def observes(state: GameState, empire: str, at: str) -> bool:
    """AE-40: ``empire`` observes hex ``at`` this round when it has an army or a base there, or
    its observation reaches it with at least one die (R7)."""
    if any(a.empire == empire and a.at == at for a in state.armies.values()):
        return True
    base = state.base_at(at)
    if base is not None and base.empire == empire:
        return True
    return observation_into(state, empire, at, stealthed=False) is not None


def intercept_payable(state: GameState, empire: str, spec: AttackCard) -> bool:
    """The empire can pay the card's resources and AP: from its AP in its own turn, as AP owed
    outside it (AE-19)."""
    emp = state.empires[empire]
    if not emp.resources.covers(spec.cost):
        return False
    if in_own_turn(state, empire):
        return emp.ap >= spec.ap
    return emp.ap_owed + spec.ap <= MAX_AP_OWED


def intercept_problem(state: GameState, empire: str, strike: AirStrike, card: str) -> str:
    """Why ``card`` may not intercept ``strike`` (AE-40), "" if it may."""
    if card not in state.empires[empire].hand:
        return f"{card!r} is not in {empire}'s hand"
    entry = state.card(card)
    spec = entry.spec
    if not isinstance(spec, AttackCard) or not level(entry.abilities, AIR_TO_AIR):
        return f"{card} has no Air To Air (p.30)"
    if not observes(state, empire, strike.at):
        return f"{empire} does not observe {strike.at} this round (p.30; AE-40)"
    target = Hex.parse(strike.at)
    if not any(
        Hex.parse(b.at).distance(target) <= spec.range
        for b in state.bases_of(empire)
        if b.kind in BASE_KINDS and not is_besieged(state, b)
    ):
        return (
            f"{strike.at} is beyond the range {spec.range} of {card} from every base of {empire} "
            "that is not besieged (p.30; AE-40)"
        )
    if not intercept_payable(state, empire, spec):
        emp = state.empires[empire]
        if not emp.resources.covers(spec.cost):
            return f"{card} costs {spec.cost.text()}; {empire} has {emp.resources.text()}"
        if in_own_turn(state, empire):
            return f"{card} costs {spec.ap} AP; {empire} has {emp.ap}"
        return (
            f"{card} costs {spec.ap} AP, owed until {empire}'s next turn; {empire} already owes "
            f"{emp.ap_owed} of at most {MAX_AP_OWED} (AE-19)"
        )
    return ""


def interceptors(state: GameState, empire: str, strike: AirStrike) -> list[str]:
    """The cards of ``empire``'s hand that may intercept ``strike`` now (AE-40)."""
    return [
        c for c in state.empires[empire].hand if not intercept_problem(state, empire, strike, c)
    ]


def top_strike(state: GameState) -> AirStrike:
    top = state.frames[-1]
    assert isinstance(top, AirStrike)
    return top


def intercept(batch: Batch[GameState], cmd: Intercept) -> None:
    """``intercept_answered``; ``rules/cannot_intercept`` naming the condition not met."""
    state = batch.state
    strike = top_strike(state)
    rest = strike.to_ask[1:]
    if cmd.card is None:
        batch.emit(InterceptAnswered(strike=replace(strike, to_ask=rest), empire=cmd.player))
        return
    why = intercept_problem(state, cmd.player, strike, cmd.card)
    if why:
        raise reject(f"{cmd.card} cannot intercept {strike.name}: {why}", "cannot_intercept")
    spec = state.card(cmd.card).spec
    assert isinstance(spec, AttackCard)
    batch.emit(
        InterceptAnswered(
            strike=replace(strike, to_ask=rest, challenger=cmd.card),
            empire=cmd.player,
            card=cmd.card,
            ap_cost=spec.ap,
            paid=spec.cost,
            owed=not in_own_turn(state, cmd.player),
        )
    )


def intercept_options(state: GameState, player: str) -> list[Command]:
    """Each card that may intercept the strike, then letting it pass."""
    strike = top_strike(state)
    return [
        *(Intercept(player=player, card=c) for c in interceptors(state, player, strike)),
        Intercept(player=player),
    ]


def _pass_automatically(batch: Batch[GameState]) -> None:
    strike = top_strike(batch.state)
    batch.emit(
        InterceptAnswered(
            strike=replace(strike, to_ask=strike.to_ask[1:]),
            empire=strike.to_ask[0],
            automatic=True,
        )
    )


# ---------------------------------------------------------------------- the challenges


def _attack_card_side(state: GameState, strike: AirStrike, pool: Pool) -> Side:
    return Side(
        empire=strike.empire,
        name=f"{state.card(strike.card).name} ({strike.card})",
        pool=pool,
        fate_hero=strike.card,
        card=strike.card,
    )


def _challenge_attack_card(
    batch: Batch[GameState], card: str, ability: str, counter: str, what: str, purpose: str
) -> None:
    """A challenge of ``card`` against the flying attack card (p.30–31): ``card``'s ``ability``
    X against the attack card's defence, or against its ``counter`` X in a duel (Air To Air
    against Air To Air, Anti-Air against HARM; no counter: "")."""
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
    owner = state.instances[card].owner
    if strike.stage == "ground" and state.rules_version >= GROUND_TO_AIR_ASKED_SINCE:
        owner = holder_in_hex(state, strike, card)  # a captured base's card: its holder's
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
        defender=_attack_card_side(state, strike, d_pool),
        deals_damage=True,
    )


def _open_intercept(batch: Batch[GameState]) -> None:
    """The Air-To-Air challenge (p.30–31): a duel against an Air To Air card."""
    card = top_strike(batch.state).challenger
    _challenge_attack_card(batch, card, AIR_TO_AIR, AIR_TO_AIR, "intercepts", "air to air")


def gunners(state: GameState, strike: AirStrike) -> tuple[str, ...]:
    """The cards of other empires in the hex that challenge the card from the ground (AE-41):
    Anti-Air against aircraft and helos, Anti-Missile against missiles; the base's first, then
    the units of armies that are not stealthed, by army."""
    name = ANTI_MISSILE if strike.craft == "missile" else ANTI_AIR
    cards: list[str] = []
    base = enemy_base(state, strike.empire, strike.at)
    if base is not None:
        cards += [base.card, *base.facilities]
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        if army.empire != strike.empire and army.at == strike.at and not army.stealthed:
            cards += army.units
    return tuple(c for c in cards if level(state.card(c).abilities, name))


def _to_ground(batch: Batch[GameState]) -> None:
    strike = top_strike(batch.state)
    if batch.state.rules_version >= GROUND_TO_AIR_UNSEEN_SINCE:
        _open_ground_window(batch, strike)
        return
    found = gunners(batch.state, strike)
    if not found:
        why = "no Ground-To-Air card in the hex (p.31)"
    elif batch.state.rules_version >= GROUND_TO_AIR_ASKED_SINCE:
        why = (
            f"the Ground-To-Air window: {', '.join(found)} may fire, each empire asked in turn "
            "(p.30–31; AE-41)"
        )
    else:
        why = f"the Ground-To-Air window: {', '.join(found)} challenge (p.31; AE-41)"
    batch.emit(AirStrikeAdvanced(strike=replace(strike, stage="ground", gunners=found), why=why))


def holder_in_hex(state: GameState, strike: AirStrike, card: str) -> str:
    """The empire that holds ``card`` in the strike's hex, fires it as a gunner (AE-41) and
    defends it as a target (AE-42, since version 14): the holder of the base it stands at (a
    captured base's cards are its captor's, AE-34), else its army's."""
    base = enemy_base(state, strike.empire, strike.at)
    if base is not None and card in (base.card, *base.facilities):
        return base.empire
    army = next((a for a in state.armies.values() if card in a.units), None)
    return state.instances[card].owner if army is None else army.empire


def _gunner_gone(batch: Batch[GameState]) -> None:
    """The gunner the window would ask about next no longer stands in the hex (destroyed by
    a duel before it, its base razed): it is passed over (AE-41)."""
    strike = top_strike(batch.state)
    gunner = strike.gunners[0]
    why = f"{gunner} no longer stands in {strike.at}: it does not fire (AE-41)"
    batch.emit(AirStrikeAdvanced(strike=replace(strike, gunners=strike.gunners[1:]), why=why))


def ground_to_air(batch: Batch[GameState], cmd: GroundToAir) -> None:
    """``air_strike_advanced``: the gunner the strike names next fires (its challenge opens
    next) or holds its fire (the next gunner is asked) (p.30–31; AE-41)."""
    strike = top_strike(batch.state)
    gunner = strike.gunners[0]
    if cmd.fire:
        why = f"{cmd.player} fires {gunner} at {strike.card} from the ground (p.30–31; AE-41)"
        batch.emit(AirStrikeAdvanced(strike=replace(strike, challenger=gunner), why=why))
        return
    why = f"{cmd.player} holds the fire of {gunner}: it does not challenge {strike.card} (p.30)"
    batch.emit(AirStrikeAdvanced(strike=replace(strike, gunners=strike.gunners[1:]), why=why))


def ground_to_air_options(state: GameState, player: str) -> list[Command]:
    """Fire the gunner asked about, or hold its fire."""
    return [GroundToAir(player=player, fire=True), GroundToAir(player=player, fire=False)]


# ---------------------------------------------------------------------- since version 13


def _open_ground_window(batch: Batch[GameState], strike: AirStrike) -> None:
    """The Ground-To-Air window since version 13 (AE-41): every other empire, in seat order,
    is to be asked, whatever the hex holds: whether the game waits for an empire must not tell
    what it has there."""
    asked = tuple(e for e in batch.state.seats if e != strike.empire)
    why = (
        f"the Ground-To-Air window: {', '.join(asked)} asked in turn whether to challenge "
        f"{strike.card} from the ground (p.30–31; AE-41)"
    )
    window = replace(strike, stage="ground", to_ask=asked, fired=())
    batch.emit(AirStrikeAdvanced(strike=window, why=why))


def empire_gunners(state: GameState, strike: AirStrike, empire: str) -> list[str]:
    """The gunners of ``empire`` that may still challenge ``strike``: those of ``gunners``
    that it fires (``holder_in_hex``: a base's cards by the base's holder) and that have not
    fired at it yet (AE-41)."""
    fired = strike.fired_gunners
    return [
        g
        for g in gunners(state, strike)
        if g not in fired and holder_in_hex(state, strike, g) == empire
    ]


def ground_to_air_problem(
    state: GameState, strike: AirStrike, empire: str, gunner: str
) -> RulesError | None:
    """Why ``empire`` may not fire ``gunner`` at ``strike`` (AE-41), or None. The refusal of a
    card that is not one of its gunners in the hex says the same whatever that card is (an
    enemy card, one of its own elsewhere, a name that is nothing), so that it tells nothing
    of the other empires' cards; one that has fired already was seen firing."""
    if gunner in strike.fired_gunners:
        return reject(
            f"{gunner} has already challenged {strike.name} from the ground: each gunner "
            "challenges once (p.31; AE-41)",
            "already_fired",
        )
    if gunner not in empire_gunners(state, strike, empire):
        craft = ANTI_MISSILE if strike.craft == "missile" else ANTI_AIR
        return reject(
            f"{quoted(gunner)} is not a gunner of {empire}'s in {strike.at} that may challenge "
            f"{strike.name}: one of its {craft} cards there that has not fired at it "
            "(p.31; AE-41)",
            "not_a_gunner",
        )
    return None


def ground_to_air_challenge(batch: Batch[GameState], cmd: GroundToAirChallenge) -> None:
    """``air_strike_advanced``: the asked empire's gunner challenges the attack card now, in
    the open (its challenge opens next; the empire is asked again after it), or the empire
    launches no more challenges (the next empire is asked) (p.30–31; AE-41). RulesError as
    ``ground_to_air_problem`` says."""
    strike = top_strike(batch.state)
    if cmd.gunner is None:
        why = (
            f"{cmd.player} launches no more Ground-To-Air challenges against {strike.name} "
            "(p.30; AE-41)"
        )
        batch.emit(AirStrikeAdvanced(strike=replace(strike, to_ask=strike.to_ask[1:]), why=why))
        return
    problem = ground_to_air_problem(batch.state, strike, cmd.player, cmd.gunner)
    if problem:
        raise problem
    why = f"{cmd.player} fires {cmd.gunner} at {strike.card} from the ground (p.30–31; AE-41)"
    fired = (*strike.fired_gunners, cmd.gunner)
    batch.emit(
        AirStrikeAdvanced(strike=replace(strike, challenger=cmd.gunner, fired=fired), why=why)
    )


def ground_to_air_challenge_options(state: GameState, player: str) -> list[Command]:
    """Each of ``player``'s gunners that may still fire, then launching no more."""
    strike = top_strike(state)
    return [
        *(
            GroundToAirChallenge(player=player, gunner=g)
            for g in empire_gunners(state, strike, player)
        ),
        GroundToAirChallenge(player=player),
    ]


def _ground_window_next(state: GameState, strike: AirStrike) -> Decision | Step:
    """The Ground-To-Air window since version 13: the challenge of the gunner fired, the empire
    asked now, or the strike goes on once every empire has launched all it would."""
    if strike.challenger:
        return _open_ground
    if not strike.to_ask:
        return _to_strike
    asked = strike.to_ask[0]
    return Decision(
        players=(asked,),
        kind="ground_to_air_challenge",
        answers=GROUND_TO_AIR_CHALLENGE_ANSWERS,
        waiting=f"{asked}'s Ground-To-Air challenges against {strike.name} over {strike.at}",
        procedure=PROCEDURE,
        about={"strike": str(strike.number), "at": strike.at, "empire": asked},
    )


def _open_ground(batch: Batch[GameState]) -> None:
    """A Ground-To-Air challenge (p.31; AE-41): Anti-Air, a duel against HARM X; Anti-Missile,
    never a duel."""
    strike = top_strike(batch.state)
    missile = strike.craft == "missile"
    unseen = batch.state.rules_version >= GROUND_TO_AIR_UNSEEN_SINCE
    _challenge_attack_card(
        batch,
        strike.challenger if unseen else strike.gunners[0],
        ANTI_MISSILE if missile else ANTI_AIR,
        "" if missile else HARM,
        "fires at",
        "ground to air",
    )


def _to_strike(batch: Batch[GameState]) -> None:
    strike = top_strike(batch.state)
    batch.emit(
        AirStrikeAdvanced(
            strike=replace(strike, stage="strike"),
            why="it survived every challenge: the Air-To-Ground challenge (p.31)",
        )
    )


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
    controllers = [
        u
        for a in state.armies.values()
        if a.empire == strike.empire and a.at == strike.at and not (unseen and a.stealthed)
        for u in a.units
        if has(state.card(u).abilities, FORWARD_AIR_CONTROLLER)
    ]
    if controllers:
        terms.append(
            Term(FORWARD_AIR_CONTROLLER_DICE, f"Forward Air Controller {controllers[0]}, p.46")
        )
    return Pool(tuple(terms))


def target_pool(state: GameState, card: str, at: str) -> Pool:
    """A ground target's pool: its defence + the hex's terrain (R12); no hero's fate (p.31)."""
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
    attacker = _attack_card_side(state, strike, a_pool)
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


def _after_challenge(batch: Batch[GameState]) -> None:
    state = batch.state
    strike = top_strike(state)
    outcome = strike.outcome
    assert outcome is not None
    cleared = replace(strike, challenger="", outcome=None)
    if strike.stage == "intercept":
        why = "the Air-To-Air challenge is over (p.31)"
        batch.emit(AirStrikeAdvanced(strike=cleared, why=why))
        return
    if strike.stage == "ground" and state.rules_version >= GROUND_TO_AIR_UNSEEN_SINCE:
        # the same empire is asked again (AE-41)
        why = f"the Ground-To-Air challenge of {strike.challenger} is over (p.31)"
        batch.emit(AirStrikeAdvanced(strike=cleared, why=why))
        return
    if strike.stage == "ground":
        why = f"the Ground-To-Air challenge of {strike.gunners[0]} is over (p.31)"
        batch.emit(AirStrikeAdvanced(strike=replace(cleared, gunners=strike.gunners[1:]), why=why))
        return
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


def _end(batch: Batch[GameState]) -> None:
    state = batch.state
    strike = top_strike(state)
    flying = strike.card in state.empires[strike.empire].hand
    batch.emit(
        AirStrikeEnded(
            strike=replace(strike, stage="done"),
            survived=flying,
            spent=flying and strike.craft == "missile",
            after_fallout=flying and fallout_kind(state, strike) is not None,
        )
    )


def air_strike_next(state: GameState, strike: AirStrike) -> Decision | Step:
    """What the air strike waits for, or its next automatic step (module doc)."""
    if strike.outcome is not None:
        return _after_challenge
    if strike.stage == "done" or strike.card not in state.empires[strike.empire].hand:
        return _end
    if strike.stage == "intercept":
        if strike.challenger:
            return _open_intercept
        if not strike.to_ask:
            return _to_ground
        asked = strike.to_ask[0]
        if not state.empires[asked].hand:
            return _pass_automatically
        return Decision(
            players=(asked,),
            kind="intercept",
            answers=INTERCEPT_ANSWERS,
            waiting=f"{asked}'s answer to the intercept window of {strike.name} at {strike.at}",
            procedure=PROCEDURE,
            about={"strike": str(strike.number), "at": strike.at, "card": strike.card},
        )
    if strike.stage == "ground" and state.rules_version >= GROUND_TO_AIR_UNSEEN_SINCE:
        return _ground_window_next(state, strike)
    if strike.stage == "ground":
        if not strike.gunners:
            return _to_strike
        if strike.challenger or state.rules_version < GROUND_TO_AIR_ASKED_SINCE:
            return _open_ground
        gunner = strike.gunners[0]
        if gunner not in gunners(state, strike):
            return _gunner_gone
        empire = holder_in_hex(state, strike, gunner)
        return Decision(
            players=(empire,),
            kind="ground_to_air",
            answers=GROUND_TO_AIR_ANSWERS,
            waiting=f"{empire}'s chance to fire {gunner} at {strike.name} over {strike.at}",
            procedure=PROCEDURE,
            about={"strike": str(strike.number), "at": strike.at, "gunner": gunner},
        )
    if strike.stage == "fallout":
        return fallout_next(state, strike)
    if fallout_kind(state, strike) == "wmd":
        return _to_wmd
    return _pick_target if strike.target is None else _open_strike


# ---------------------------------------------------------------------- legal strikes


def legal_strikes(state: GameState, player: str) -> list[PlayAttackCard]:
    """Every strike of every attack card in ``player``'s hand on a hex holding an enemy base or
    an enemy army it has sighted: each aim, or with Precision Targeting each target; each
    without a munition and with each munition of the hand it may carry (AE-44)."""
    emp = state.empires[player]
    cards = [c for c in emp.hand if isinstance(state.card(c).spec, AttackCard)]
    if not cards:
        return []
    hexes = {b.at for b in state.bases.values() if b.empire != player}
    hexes |= {s.at for s in state.sightings.get(player, {}).values()}
    out: list[PlayAttackCard] = []
    for card in cards:
        entry = state.card(card)
        spec = entry.spec
        assert isinstance(spec, AttackCard)
        for at in sorted(hexes):
            if has(entry.abilities, PRECISION_TARGETING):
                found = facility_targets(state, player, at)
                if spec.craft != "missile":
                    found = unit_targets(state, player, at) + found
                tries = [PlayAttackCard(player=player, card=card, at=at, target=t) for t in found]
            elif spec.craft == "missile":
                tries = [PlayAttackCard(player=player, card=card, at=at)]
            else:
                tries = [
                    PlayAttackCard(player=player, card=card, at=at, aim=aim)
                    for aim in ("unit", "facility")
                ]
            ok = [
                t for t in tries if strike_problem(state, player, card, at, t.aim, t.target) is None
            ]
            munitions = loadable(state, player, card) if ok else []
            out += ok + [replace(t, munition=m) for t in ok for m in munitions]
    return out
