"""Minefields (manual p.32, p.46; AE-50..AE-53, AE-67): the stop on entry and the Minefield
Attack Challenges.

- A minefield is a facility card with ``Minefield X`` (X: its attack dice, AE-50) placed by the
  scenario in a hex without a base, or laid by an Engineer (AE-54), camouflaged: its empire
  alone knows it (AE-53). Since version 23 a scenario may place independent minefields,
  controlled by no empire and known to none (AE-67): they stop and attack every empire's
  armies alike.
- An army of another empire whose move enters the minefield's hex stops there at once; the rest
  of its path is not walked (p.32; AE-51). Leaving is free; entering it again later is attacked
  again; an empire's own minefields never stop its armies.
- Then one hidden Minefield Attack Challenge per card of the army (the hero, then the units, in
  order), Engineer X units immune: the minefield's X dice − the largest Engineer X of the
  mover's units in the hex, against the card's ground defence (AE-29); no fate on either side;
  the card takes the damage less its modifiers (AE-29), destroyed at its points (AE-24) and
  discarded face down (AE-49); the minefield loses the base damage, and at none left it is
  removed and the rest are spared (p.32; AE-52). All the dice are one hidden roll, counted
  before any is rolled.
- What each side learns (AE-53): ``minefields_checked`` for the mover and
  ``minefields_reported`` for the minefields' empire follow every move of a game that holds
  minefield cards, placed or still to be laid by Engineers (AE-54, ``engineers``); since
  version 23 a third, ``minefields_reported`` for nobody, sealed for every player, records
  what an independent minefield lost (AE-67): no empire is told.
"""

from __future__ import annotations

from msgspec import UNSET

from warlog.domain.armageddon_empires import battlefield as bf
from warlog.domain.armageddon_empires.abilities import ENGINEER, MINEFIELD, level
from warlog.domain.armageddon_empires.cards import INDEPENDENT, damage_limit
from warlog.domain.armageddon_empires.challenge import Pool, Term, successes
from warlog.domain.armageddon_empires.limits import MAX_ARMIES_PER_HEX
from warlog.domain.armageddon_empires.minefield_events import (
    MineChallenge,
    MinefieldAttack,
    MinefieldLoss,
    MinefieldsChecked,
    MinefieldsReported,
)
from warlog.domain.armageddon_empires.state import Army, GameState, Minefield
from warlog.domain.core.batch import Batch

#: the purpose of the hidden roll of a move's minefield challenges (the same for every move)
ROLL_PURPOSE = "minefield attack challenges"
#: AE-67: the rules version since which a scenario may place independent minefields,
#: controlled by no empire: sealed for every player in ``game_created``, they stop and attack
#: an army of any empire that walks in, and every checked move reports to nobody too
#: (``minefields_reported`` of controller ``INDEPENDENT``, sealed for every player: the
#: referee's record of what the independent minefield lost); before, none
INDEPENDENT_MINEFIELDS_SINCE = 23
#: AE-53: the rules version since which a minefield's challenges roll as the referee's hidden
#: roll (no roller), as the observation checks and collateral damage do: both empires learn their
#: part of its outcome (the mover its challenges, the minefield's empire its loss), so it is
#: nobody's secret draw; before, it was the mover's
REFEREES_ROLL_SINCE = 9


def enemy_minefields(state: GameState, empire: str) -> dict[str, Minefield]:
    """The standing minefields not of ``empire`` (another empire's or independent), by hex.
    Where a hex holds an independent minefield and an empire's (laid there by an Engineer
    that did not know of it, AE-54), the army meets the empire's (AE-67)."""
    others = [m for m in state.minefields.values() if m.empire != empire and m.standing]
    return {m.at: m for m in sorted(others, key=lambda m: m.empire != INDEPENDENT)}


def stop_at(state: GameState, army: Army, path: list[str]) -> list[str]:
    """``path`` up to the first hex it enters that holds another empire's minefield or an
    independent one (AE-51, AE-67);
    a hex already holding the most armies of the army's empire is crossed, since the army could
    not stop there (p.23)."""
    mines = enemy_minefields(state, army.empire)
    if not mines:
        return path
    for i, at in enumerate(path[1:], start=1):
        if at in mines and len(state.armies_at(army.empire, at)) < MAX_ARMIES_PER_HEX:
            return path[: i + 1]
    return path


def engineer(state: GameState, empire: str, at: str) -> tuple[int, str]:
    """The largest Engineer X among ``empire``'s units in hex ``at`` and its card (p.46)."""
    best, card = 0, ""
    for army in sorted(state.armies_at(empire, at), key=lambda a: a.id):
        for unit in army.units:
            x = level(state.card(unit).abilities, ENGINEER)
            if x > best:
                best, card = x, unit
    return best, card


def attack_pool(state: GameState, mine: Minefield, army: Army) -> Pool:
    """The minefield's dice against a card of ``army`` (AE-52)."""
    entry = state.card(mine.card)
    x = level(entry.abilities, MINEFIELD)
    terms = [Term(x, f"Minefield {x} of {entry.name}, AE-50")]
    eng, card = engineer(state, army.empire, mine.at)
    if eng:
        terms.append(Term(-eng, f"Engineer {eng} of {state.card(card).name}, p.46"))
    return Pool(tuple(terms))


def spring(batch: Batch[GameState], army_id: str, entered: bool) -> None:
    """After army ``army_id`` moved (``entered``: it entered at least one hex), in a game that
    holds minefield cards (AE-54): the hidden roll, ``minefields_checked`` and
    ``minefields_reported`` for each other empire, and since version 23 for nobody
    (``INDEPENDENT``, AE-67), whether or not it stands in an enemy or independent minefield
    (AE-53); its Minefield Attack Challenges, one card at a time (AE-52)."""
    state = batch.state
    if not state.mined:
        return
    army = state.armies[army_id]
    others = [e for e in state.seats if e != army.empire]
    mine = enemy_minefields(state, army.empire).get(army.at) if entered else None
    targets: list[tuple[str, Pool, Pool]] = []
    if mine is not None:
        attack = attack_pool(state, mine, army)
        targets = [
            (card, attack, bf.defense_pool(state, army, card, army.at, battle=False))
            for card in army.cards()
            if not level(state.card(card).abilities, ENGINEER)
        ]
    count = sum(a.size + d.size for _, a, d in targets)
    roller = "" if state.rules_version >= REFEREES_ROLL_SINCE else army.empire
    faces = batch.roll(count, 6, purpose=ROLL_PURPOSE, roller=roller, hidden=True)
    report, loss = (None, None) if mine is None else _attack(state, army, mine, targets, faces)
    batch.emit(MinefieldsChecked(empire=army.empire, attack=report))
    if state.rules_version >= INDEPENDENT_MINEFIELDS_SINCE:
        others.append(INDEPENDENT)  # AE-67: nobody to tell; the referee's record, whatever
    for other in others:
        mine_loss = loss if mine is not None and mine.empire == other else None
        batch.emit(MinefieldsReported(controller=other, loss=mine_loss))


def _attack(
    state: GameState,
    army: Army,
    mine: Minefield,
    targets: list[tuple[str, Pool, Pool]],
    faces: list[int],
) -> tuple[MinefieldAttack, MinefieldLoss]:
    """The challenges, one card at a time, until the minefield is spent (AE-52)."""
    limit = damage_limit(state.card(mine.card).spec)
    spent = state.damage.get(mine.card, 0)
    lost = 0
    done: list[MineChallenge] = []
    i = 0
    for card, attack, defense in targets:
        if spent >= limit:
            break
        mine_faces = tuple(faces[i : i + attack.size])
        i += attack.size
        card_faces = tuple(faces[i : i + defense.size])
        i += defense.size
        base = max(0, successes(mine_faces) - successes(card_faces))
        damage, mod, label = bf.modified_damage(state, card, base)
        total = state.damage.get(card, 0) + damage
        card_limit = damage_limit(state.card(card).spec)
        done.append(
            MineChallenge(
                card=card,
                attack=attack,
                defense=defense,
                attack_faces=mine_faces,
                defense_faces=card_faces,
                base_damage=base,
                modifier=mod,
                modifier_label=label,
                damage=damage,
                total=total,
                limit=card_limit,
                destroyed=total >= card_limit,
            )
        )
        spent += base
        lost += base
    removed = spent >= limit
    immune = tuple(c for c in army.units if level(state.card(c).abilities, ENGINEER))
    attacked = {c.card for c in done}
    eng, eng_card = engineer(state, army.empire, mine.at)
    report = MinefieldAttack(
        minefield=mine.id,
        card=mine.card,
        at=mine.at,
        army=army.id,
        dice=level(state.card(mine.card).abilities, MINEFIELD),
        engineer=eng,
        engineer_card=eng_card,
        immune=immune,
        challenges=tuple(done),
        spared=tuple(c for c, _, _ in targets if c not in attacked),
        removed=removed,
        disbanded=not immune and all(c.destroyed for c in done) and len(done) == len(targets),
        independent=True if mine.empire == INDEPENDENT else UNSET,
    )
    loss = MinefieldLoss(
        minefield=mine.id,
        card=mine.card,
        at=mine.at,
        lost=lost,
        total=spent,
        limit=limit,
        removed=removed,
    )
    return report, loss
