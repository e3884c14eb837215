"""Assassinate (manual p.28, p.45, p.16; digest §8.1, §8.2; AE-71): a special operation on a hero.

- **Who**: a card printing Assassin X (a hero or a unit, p.28, p.45), in an army of its empire,
  in the hex of an enemy army holding a hero that its empire has spotted there this round,
  outside a stealthed army (p.28: the assassin must be in its target's hex; AE-35, AE-38: what
  an empire may do is judged by its sightings). Since version 27 (``ASSASSINATION_SINCE``)
  only. It costs ``ASSASSINATE_AP`` (R11) and a card makes one attempt a turn (AE-71).
- **Target**: one picked at random among the heroes spotted there, unless the assassin is a
  Master Assassin, who may name it (p.45). The pick is the referee's hidden roll, the hunt's
  (``targets.pick_target``), made alike in every attempt, named, alone or among several, foiled
  or not (AE-21, AE-71).
- **Pools** (an opposed challenge, p.28): assassin = X (digest §8.2, inferred); target = the
  hero's fate as printed (p.16). The target re-rolls with his unspent fate; the assassin with
  his own if he is a hero, a unit having none (AE-71). The target's empire has the Defender's
  Prerogative (R5).
- **Outcome**: assassin successes − target successes, when positive, are wounds to the hero
  (``assassination_ended``): he dies at his wound points, or at a single wound from a Slayer
  (p.45), and is discarded; an army he leaves empty is disbanded (AE-24).
  A failed attempt costs the assassin nothing more (AE-71).
- **What the target's empire learns** (AE-71): the attempt on its hero, by which card, and
  its challenge, as every side of a challenge knows them (p.28); never the army the assassin
  stands in, which keeps its stealth and is not sighted (the hunt's p.30 loss of stealth is the
  hunt's), nor which heroes the assassin's empire had spotted, nor how it chose. A foiled
  attempt (its hero gone from the army seen, or hidden by stealth) tells it only that one of
  the other empire's was foiled.
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.abilities import (
    ASSASSIN,
    MASTER_ASSASSIN,
    SLAYER,
    has,
    level,
)
from warlog.domain.armageddon_empires.assassination_events import (
    AssassinationBegan,
    AssassinationEnded,
    AssassinationFoiled,
    AssassinChosenBy,
)
from warlog.domain.armageddon_empires.awaiting import may_roll
from warlog.domain.armageddon_empires.cards import HeroCard, damage_limit
from warlog.domain.armageddon_empires.challenge import Pool, Side, Term
from warlog.domain.armageddon_empires.challenge_moves import open_challenge
from warlog.domain.armageddon_empires.commands import ASSASSINATION_SINCE, Assassinate
from warlog.domain.armageddon_empires.costs import ASSASSINATE_AP
from warlog.domain.armageddon_empires.fog import Sighting
from warlog.domain.armageddon_empires.frames import Assassination
from warlog.domain.armageddon_empires.state import Army, GameState
from warlog.domain.armageddon_empires.targets import named_target, pick_target
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, reject
from warlog.domain.core.procedure import Step

PURPOSE = "assassination"


def played(state: GameState) -> bool:
    """Whether this game's rules play assassination: since version 27 (AE-71)."""
    return state.rules_version >= ASSASSINATION_SINCE


def army_of(state: GameState, empire: str, card: str) -> Army | None:
    """The army of ``empire`` that holds ``card``, if any."""
    return next(
        (a for a in state.armies.values() if a.empire == empire and card in a.cards()), None
    )


def candidates(state: GameState, empire: str, at: str) -> list[Sighting]:
    """The enemy armies holding a hero that ``empire`` has sighted in hex ``at`` this round,
    outside a stealthed army, by army id: judged by its sightings alone (AE-38, AE-71). A hero
    seen in a stealthed army is no target: the attempt would only be foiled (as the hunt's,
    AE-38)."""
    seen = state.sightings.get(empire, {}).values()
    return sorted(
        (s for s in seen if s.at == at and s.hero is not None and not s.stealthed),
        key=lambda s: s.army,
    )


def attempt_problem(state: GameState, player: str, card: str) -> RulesError | None:
    """Why ``card`` of ``player`` cannot make an assassination attempt now (before its target
    is known), or None."""
    army = army_of(state, player, card)
    if army is None:
        return reject(f"{player} has no card {card!r} in an army", "not_in_army")
    x = level(state.card(card).abilities, ASSASSIN)
    if not x:
        return reject(
            f"{card} has no Assassin X; only a card with it assassinates (p.45)", "not_an_assassin"
        )
    if card in state.empires[player].assassin_cards:
        return reject(
            f"{card} has already made an assassination attempt this turn (AE-71)",
            "already_assassinated",
        )
    if not candidates(state, player, army.at):
        return reject(
            f"{player} has spotted no enemy hero at {army.at} this round outside a stealthed "
            "army (p.28; AE-71)",
            "no_target",
        )
    ap = state.empires[player].ap
    if ap < ASSASSINATE_AP:
        return reject(f"Assassinate costs {ASSASSINATE_AP} AP; {player} has {ap}", "not_enough_ap")
    return None


def assassinate(batch: Batch[GameState], cmd: Assassinate) -> None:
    """The referee's hidden pick, then ``assassination_began`` (its challenge opening next),
    or ``assassination_foiled`` when the hero its empire saw is no longer in the army it saw
    him in, or that army is gone or hidden by stealth (AE-71). RulesError
    ``rules/not_in_this_version`` before version 27, and for a card that may not assassinate
    now or a bad target."""
    state = batch.state
    if not played(state):
        raise RulesError(
            f"assassinate is not played under version {state.rules_version} of these rules "
            f"(since version {ASSASSINATION_SINCE}, AE-71)",
            "rules/not_in_this_version",
        )
    problem = attempt_problem(state, cmd.player, cmd.card)
    if problem:
        raise problem
    army = army_of(state, cmd.player, cmd.card)
    assert army is not None
    found = candidates(state, cmd.player, army.at)
    abilities = state.card(cmd.card).abilities
    named = named_target(
        found,
        cmd.target,
        lambda s: s.hero,
        None
        if has(abilities, MASTER_ASSASSIN)
        else reject(
            "only a Master Assassin names the target; leave 'target' out and it is picked "
            "at random (p.45)",
            "no_master_assassin",
        ),
        f"not an enemy hero spotted at {army.at}",
    )
    target, how = pick_target(batch, found, named, PURPOSE, cmd.player)
    chosen_by: AssassinChosenBy = "master assassin" if how == "named" else how
    actual = state.armies.get(target.army)
    if actual is None or actual.at != army.at or actual.hero != target.hero or actual.stealthed:
        batch.emit(
            AssassinationFoiled(
                empire=cmd.player,
                card=cmd.card,
                at=army.at,
                target=str(target.hero),
                target_army=target.army,
                ap_cost=ASSASSINATE_AP,
            )
        )
        return
    assert actual.hero is not None
    frame = Assassination(
        empire=cmd.player,
        assassin=cmd.card,
        at=army.at,
        target=actual.hero,
        target_army=actual.id,
        target_empire=actual.empire,
        level=level(abilities, ASSASSIN),
        slayer=has(abilities, SLAYER),
    )
    batch.emit(
        AssassinationBegan(
            frame=frame,
            ap_cost=ASSASSINATE_AP,
            candidates=tuple(str(s.hero) for s in found),
            chosen_by=chosen_by,
        )
    )


def _open(batch: Batch[GameState]) -> None:
    """The attempt's opposed challenge (p.28): Assassin X dice against the hero's fate (p.16)."""
    state = batch.state
    frame = state.frames[-1]
    assert isinstance(frame, Assassination)
    assassin, hero = state.card(frame.assassin), state.card(frame.target)
    assassin_pool = Pool((Term(frame.level, f"Assassin {frame.level} of {assassin.name}, p.45"),))
    target_pool = Pool((Term(_fate(state, frame.target), f"fate of {hero.name}, p.16"),))
    what = f"the assassination of {hero.name} ({frame.target})"
    if not may_roll(batch, frame.empire, what, assassin_pool.size + target_pool.size):
        return
    open_challenge(
        batch,
        kind="opposed",
        purpose=PURPOSE,
        attacker=Side(
            empire=frame.empire,
            name=f"assassin {assassin.name}",
            pool=assassin_pool,
            fate_hero=frame.assassin if isinstance(assassin.spec, HeroCard) else None,
        ),
        defender=Side(
            empire=frame.target_empire,
            name=f"target {hero.name}",
            pool=target_pool,
            fate_hero=frame.target,
        ),
    )


def _fate(state: GameState, hero: str) -> int:
    spec = state.card(hero).spec
    assert isinstance(spec, HeroCard)
    return spec.fate


def assassination_next(state: GameState, frame: Assassination) -> Step:
    """The attempt's next step: its challenge opens (``_open``; it waits for the assassin's
    roll after the hidden pick, AE-37), and once resolved, its outcome (``_finish``)."""
    return _open if frame.outcome is None else _finish


def _finish(batch: Batch[GameState]) -> None:
    """``assassination_ended``: the wounds dealt and whether they kill (p.16, p.45; AE-71)."""
    state = batch.state
    frame = state.frames[-1]
    assert isinstance(frame, Assassination)
    assert frame.outcome is not None, "the step runs once its challenge is resolved"
    wounds = frame.outcome.damage_to_defender
    limit = damage_limit(state.card(frame.target).spec)
    whole = state.damage.get(frame.target, 0)
    killed = bool(wounds) and (frame.slayer or whole + wounds >= limit)
    # AE-49: the event tells the wounds he took in the open, never those hidden challenges dealt
    # him (collateral damage, WMD, minefields), as a card's public damage does (OPEN_TOTAL_SINCE)
    before = whole - state.hidden_damage.get(frame.target, 0)
    batch.emit(
        AssassinationEnded(
            frame=frame, wounds=wounds, killed=killed, wounded_before=before, wound_points=limit
        )
    )


def legal_assassinations(state: GameState, player: str) -> list[Assassinate]:
    """Every attempt a card of ``player`` may make now: a random target, and for a Master
    Assassin each target named; none before version 27."""
    if not played(state):
        return []
    out: list[Assassinate] = []
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        if army.empire != player:
            continue
        for card in army.cards():
            if attempt_problem(state, player, card) is not None:
                continue
            out.append(Assassinate(player=player, card=card))
            if has(state.card(card).abilities, MASTER_ASSASSIN):
                out += [
                    Assassinate(player=player, card=card, target=s.hero)
                    for s in candidates(state, player, army.at)
                ]
    return out
