"""Sabotage (manual p.29, p.45, p.48; digest §8.3; AE-72, since version 27): a saboteur damages a
facility of an enemy base in its hex.

- **Who, where, how often**: a hero or unit with Saboteur X in an army of its empire, stealthed
  or not, in the hex of an enemy stronghold or outpost (the same hex, digest 8.1), once a turn
  each (``SABOTAGES_PER_TURN``), for ``SABOTAGE_AP`` (R11).
- **Target**: the base's own card or one of its facilities (as an air strike's, AE-42), picked
  by a hidden roll made in every sabotage (``targets.pick_target``), unless the saboteur is a
  Master Saboteur, who may name it (p.45). The roll is the referee's, sealed for both empires
  (``targets.REFEREE_PICKS_SINCE``): the facility it picks is shown to the base's empire, which
  defends it, so a secret draw of the saboteur's empire would let what that empire alone holds
  decide what the other is shown.
- **Pools**: the saboteur's Saboteur X (p.45) against the facility's defence + the hex's terrain
  (R12; the defence is inferred, digest 8.3). A hero saboteur spends his own fate (R6); a unit
  has none. With a Counter Intel facility in the hex (the highest level among several), the
  facility defends with fate equal to that facility's level (its printed ``level``, p.48) and
  the challenge is a duel (p.29, p.48).
- **Outcome**: the saboteur's surplus is the facility's damage (R5), less its damage modifiers,
  halved if Hardened (R14), as an air strike's (AE-43); a Demolitionist's single point destroys
  it (p.45 over p.29, R14). A facility is destroyed at its structure, a base's own card razing
  the base (AE-24, AE-34). In a duel the facility's surplus wounds the saboteur, or damages
  it if it is a unit (p.29).
- **What the base's empire learns**: the saboteur card it faces (its type is seen), the
  facility and the outcome; not the army the saboteur stands in, which keeps its stealth and is
  not sighted (AE-72). The command's fields are sealed for the saboteur's empire.
- Destroying stockpiled resources (a secondary source) is not played.
"""

from __future__ import annotations

from typing import NamedTuple

from warlog.domain.armageddon_empires.abilities import (
    COUNTER_INTEL,
    DEMOLITIONIST,
    MASTER_SABOTEUR,
    SABOTEUR,
    has,
    level,
)
from warlog.domain.armageddon_empires.air_targets import enemy_base, facility_targets
from warlog.domain.armageddon_empires.air_to_ground import strike_damage
from warlog.domain.armageddon_empires.awaiting import may_roll
from warlog.domain.armageddon_empires.battlefield import terrain_term
from warlog.domain.armageddon_empires.cards import FacilityCard, HeroCard, UnitCard, damage_limit
from warlog.domain.armageddon_empires.challenge import Pool, Side, Term
from warlog.domain.armageddon_empires.challenge_moves import damage_events, open_challenge
from warlog.domain.armageddon_empires.commands import SABOTAGE_SINCE, Sabotage
from warlog.domain.armageddon_empires.costs import SABOTAGE_AP
from warlog.domain.armageddon_empires.frames import SabotageMission
from warlog.domain.armageddon_empires.sabotage_events import (
    SabotageBegan,
    SabotageEnded,
    SabotagePick,
)
from warlog.domain.armageddon_empires.state import Army, Base, GameState
from warlog.domain.armageddon_empires.targets import named_target, pick_target
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, reject
from warlog.domain.core.procedure import Step

PURPOSE = "sabotage"
#: AE-72: each saboteur sabotages at most once in its empire's turn (as an army hunts once,
#: AE-21); ``Empire.sabotaged`` lists those that have
SABOTAGES_PER_TURN = 1


class Saboteur(NamedTuple):
    """A card of an empire's armies that prints Saboteur X, and what else it prints (p.45)."""

    card: str
    army: Army
    level: int
    master: bool
    demolitionist: bool


def saboteurs(state: GameState, player: str) -> list[Saboteur]:
    """The heroes and units of ``player``'s armies with Saboteur X, by card id (p.45, p.46)."""
    out: list[Saboteur] = []
    for army in state.armies.values():
        if army.empire != player:
            continue
        for card in army.cards():
            abilities = state.card(card).abilities
            x = level(abilities, SABOTEUR)
            if x:
                master, demolitionist = (
                    has(abilities, MASTER_SABOTEUR),
                    has(abilities, DEMOLITIONIST),
                )
                out.append(Saboteur(card, army, x, master, demolitionist))
    return sorted(out, key=lambda s: s.card)


def counter_intel(state: GameState, base: Base) -> tuple[str, int]:
    """The Counter Intel facility of ``base`` (its own card or a facility) with the highest
    level, and that level (p.48; AE-72); ``("", 0)`` when there is none. Ties go to the first."""
    best = ("", 0)
    for card in (base.card, *base.facilities):
        spec = state.card(card).spec
        intel = has(state.card(card).abilities, COUNTER_INTEL)
        if intel and isinstance(spec, FacilityCard) and spec.level > best[1]:
            best = (card, spec.level)
    return best


def _saboteur(state: GameState, player: str, card: str) -> Saboteur | RulesError:
    if state.rules_version < SABOTAGE_SINCE:
        return reject(
            f"sabotage is played since version {SABOTAGE_SINCE} of these rules; this game's is "
            f"{state.rules_version} (AE-72)",
            "not_in_this_version",
        )
    found = next((s for s in saboteurs(state, player) if s.card == card), None)
    if found is not None:
        return found
    army = next((a for a in state.armies.values() if card in a.cards()), None)
    if army is None or army.empire != player:
        return reject(f"{player} has no card {card!r} in an army", "unknown_card")
    return reject(
        f"{card} prints no Saboteur X; only a saboteur sabotages (p.45)", "not_a_saboteur"
    )


def sabotage_problem(state: GameState, player: str, card: str) -> RulesError | None:
    """Why ``card`` of ``player`` cannot sabotage now (before its target is known), or None."""
    found = _saboteur(state, player, card)
    if isinstance(found, RulesError):
        return found
    at = found.army.at
    if enemy_base(state, player, at) is None:
        return reject(
            f"no enemy stronghold or outpost stands at {at}; a saboteur sabotages the facilities "
            "of one in its own hex (p.28; AE-72)",
            "no_target",
        )
    done = state.empires[player].sabotaged_cards
    if done.count(card) >= SABOTAGES_PER_TURN:
        return reject(f"{card} has already sabotaged this turn (AE-72)", "already_sabotaged")
    ap = state.empires[player].ap
    if ap < SABOTAGE_AP:
        return reject(f"a sabotage costs {SABOTAGE_AP} AP; {player} has {ap}", "not_enough_ap")
    return None


def sabotage(batch: Batch[GameState], cmd: Sabotage) -> None:
    """``sabotage_began`` after the hidden pick (the referee's, rolled in every sabotage, named
    or not); its challenge opens next. RulesError naming why a card may not sabotage now, or why a
    target may not be named (module doc)."""
    state = batch.state
    problem = sabotage_problem(state, cmd.player, cmd.saboteur)
    if problem:
        raise problem
    agent = _saboteur(state, cmd.player, cmd.saboteur)
    assert not isinstance(agent, RulesError)
    base = enemy_base(state, cmd.player, agent.army.at)
    assert base is not None
    found = facility_targets(state, cmd.player, base.at)
    named = named_target(
        found,
        cmd.target,
        lambda t: t,
        None
        if agent.master
        else reject(
            "only a Master Saboteur names the facility it sabotages; leave 'target' out and "
            "it is picked at random (p.45)",
            "no_master_saboteur",
        ),
        f"not a facility of {base.id} at {base.at}",
        "its facilities are",
    )
    target, how = pick_target(batch, found, named, PURPOSE, cmd.player)
    chosen_by: SabotagePick = "master saboteur" if how == "named" else how
    intel, intel_level = counter_intel(state, base)
    frame = SabotageMission(
        empire=cmd.player,
        saboteur=agent.card,
        at=base.at,
        base=base.id,
        target=target,
        target_empire=base.empire,
        level=agent.level,
        demolitionist=agent.demolitionist,
        unit=isinstance(state.card(agent.card).spec, UnitCard),
        counter_intel=intel,
        intel_level=intel_level,
    )
    batch.emit(
        SabotageBegan(
            frame=frame, ap_cost=SABOTAGE_AP, candidates=tuple(found), chosen_by=chosen_by
        )
    )


def _open(batch: Batch[GameState]) -> None:
    """The sabotage's challenge (p.29): Saboteur X against the facility's defence, a duel where
    Counter Intel stands (p.48)."""
    state = batch.state
    frame = state.frames[-1]
    assert isinstance(frame, SabotageMission)
    agent, target = state.card(frame.saboteur), state.card(frame.target)
    spec = target.spec
    defense = spec.defense if isinstance(spec, FacilityCard) else 0
    terms = [Term(defense, f"defense of {target.name}, inferred (digest 8.3)")]
    terrain = terrain_term(state, frame.at)
    if terrain is not None:
        terms.append(terrain)
    attacker_pool = Pool((Term(frame.level, f"Saboteur {frame.level} of {agent.name}, p.45"),))
    defender_pool = Pool(tuple(terms))
    what = f"the sabotage of {target.name} ({frame.target})"
    if not may_roll(batch, frame.empire, what, attacker_pool.size + defender_pool.size):
        return
    fate = (
        f", {frame.intel_level} fate of Counter Intel {frame.counter_intel}"
        if frame.counter_intel
        else ""
    )
    open_challenge(
        batch,
        kind="duel" if frame.counter_intel else "opposed",
        purpose=PURPOSE,
        attacker=Side(
            empire=frame.empire,
            name=f"saboteur {agent.name} ({frame.saboteur})",
            pool=attacker_pool,
            fate_hero=frame.saboteur if isinstance(agent.spec, HeroCard) else None,
        ),
        defender=Side(
            empire=frame.target_empire,
            name=f"{target.name} ({frame.target}{fate})",
            pool=defender_pool,
            fate_bonus=frame.intel_level,
        ),
    )


def _finish(batch: Batch[GameState]) -> None:
    """The facility's damage and the saboteur's wounds (module doc)."""
    state = batch.state
    frame = state.frames[-1]
    assert isinstance(frame, SabotageMission)
    assert frame.outcome is not None, "the step runs once its challenge is resolved"
    raw = frame.outcome.damage_to_defender
    dealt, mod, label = strike_damage(state, frame.target, raw)
    note = f"{raw} {mod:+d} ({label})" if mod else ""
    if frame.demolitionist and dealt:
        # the structure left as the saboteur's empire may know it: the damage the facility took
        # in the open (AE-49; a hidden challenge's stays its holder's secret); with the hidden
        # damage on top it reaches the structure all the same
        shown = state.damage.get(frame.target, 0) - state.hidden_damage.get(frame.target, 0)
        left = damage_limit(state.card(frame.target).spec) - shown
        why = (
            f"Demolitionist: one point destroys it, p.45; R14, AE-72 ({left} structure left of "
            "the damage taken in the open)"
        )
        note = ", ".join(x for x in (note, why) if x)
        dealt = left
    wounds = frame.outcome.damage_to_attacker
    batch.emit(SabotageEnded(frame=frame, dealt=dealt, wounds=wounds, note=note))
    number = state.challenges
    if dealt:
        batch.emit(*damage_events(batch.state, frame.target, dealt, number, note))
    if wounds and frame.saboteur in batch.state.instances:
        batch.emit(*damage_events(batch.state, frame.saboteur, wounds, number))


def sabotage_next(state: GameState, frame: SabotageMission) -> Step:
    """The sabotage's next step: its challenge opens (it may wait for the saboteur's roll,
    AE-37), and once resolved, its damage."""
    return _open if frame.outcome is None else _finish


def legal_sabotage(state: GameState, player: str) -> list[Sabotage]:
    """Every sabotage ``player`` may order now: each saboteur that may act, its target left to
    the pick, and a Master Saboteur's with each facility named."""
    if state.rules_version < SABOTAGE_SINCE:
        return []
    out: list[Sabotage] = []
    for agent in saboteurs(state, player):
        if sabotage_problem(state, player, agent.card) is not None:
            continue
        out.append(Sabotage(player=player, saboteur=agent.card))
        if agent.master:
            out += [
                Sabotage(player=player, saboteur=agent.card, target=t)
                for t in facility_targets(state, player, agent.army.at)
            ]
    return out
