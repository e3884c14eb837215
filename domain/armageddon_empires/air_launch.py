"""Playing an attack card on a hex (p.19, p.31; AE-39, AE-42, AE-44): where it flies from, what
stops it, and every strike a hand offers.

An aircraft, helo or missile in the hand is played face up on a hex within its range, measured
in hexes from the nearest stronghold or outpost of its empire that is not besieged (p.19); a
helo may instead fly from a combat-capable army of its empire that is in supply and not
stealthed, and then takes ``HELO_FROM_ARMY_DAMAGE`` first; a missile may fly from an army
holding a Mobile Launcher unit. It costs the card's AP and its resources, every time (p.19). The
hex must hold what it strikes (``air_targets``): an enemy army its empire has sighted there this
round or an enemy base; a missile strikes only a hex with an enemy base. A munition may be
loaded onto it as it is played (p.22; AE-44, ``munitions.py``). The card stays in the hand while
it flies (``air_strike``).
"""

from __future__ import annotations

from msgspec.structs import replace

from warlog.domain.armageddon_empires.abilities import has
from warlog.domain.armageddon_empires.air_events import AirStrikeLaunched, AirStrikeLaunchedSealed
from warlog.domain.armageddon_empires.air_targets import facility_targets, targets, unit_targets
from warlog.domain.armageddon_empires.cards import AttackCard
from warlog.domain.armageddon_empires.challenge_moves import damage
from warlog.domain.armageddon_empires.commands import PlayAttackCard
from warlog.domain.armageddon_empires.frames import Aim, AirStrike
from warlog.domain.armageddon_empires.guards import BASE_KINDS, hex_on_map
from warlog.domain.armageddon_empires.munitions import loadable, munition_problem
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.armageddon_empires.supply import is_besieged
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, reject
from warlog.domain.core.hexgrid import Hex

PRECISION_TARGETING = "Precision Targeting"
MOBILE_LAUNCHER = "Mobile Launcher"
#: p.19 (AE-39): a helo in range only of an army takes 1 damage before its challenges
HELO_FROM_ARMY_DAMAGE = 1

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
