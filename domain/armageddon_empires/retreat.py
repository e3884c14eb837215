"""Next Round, retreat challenges and the end of a battle (p.34; R8; AE-28, AE-31..AE-33).

- **Next Round** (p.34; AE-31): after each round in which both armies in the fight survive,
  each empire, the attacker first, chooses to continue, to retreat the army in the fight, or to
  retreat all its armies in the battle; a Trickster may do so before its army's first round.
  Garrisons never retreat: chosen, they only leave the fight, and fall with the battle.
- **Retreat challenges** (p.34; R8; AE-28): every unit of a retreating army that is not a
  garrison defends, alone, against the pursuers: floor(the mean printed attack of the unit
  cards of the enemy army it last fought) + 1 − its hero's Trickster X, with its defence +
  terrain and its hero's fate, never reset between them; no damage modifier applies.
- **The end** (p.34; AE-32, AE-33): a side that has no combat-capable army left to fight, or
  has retreated all, loses. Each hero of the loser left alone in an army faces the winner's
  Capture Kill; then every army of the loser in the battle retreats one hex toward its
  empire's nearest stronghold or outpost, into a hex free of enemy bases and of combat-capable
  enemy armies that are not stealthed — destroyed if there is none — and its garrisons there
  whose retreat was chosen are destroyed (since version 12; before, all its garrisons there).
  The winner takes the loser's base in the hex, a hero left in its garrison prisoner (AE-34).
"""

from __future__ import annotations

from msgspec.structs import replace

from warlog.domain.armageddon_empires import battlefield as bf
from warlog.domain.armageddon_empires.awaiting import may_roll
from warlog.domain.armageddon_empires.bases import capture_base
from warlog.domain.armageddon_empires.battle_events import (
    ArmyDestroyed,
    ArmyRetreated,
    BattleAdvanced,
    BattleEnded,
    NextRoundChosen,
    RetreatEnded,
)
from warlog.domain.armageddon_empires.cards import UnitCard
from warlog.domain.armageddon_empires.challenge import Pool, Side, Term
from warlog.domain.armageddon_empires.challenge_moves import damage_events, open_challenge
from warlog.domain.armageddon_empires.commands import NextRound
from warlog.domain.armageddon_empires.frames import Battle, NextRoundChoice, Pending, RetreatItem
from warlog.domain.armageddon_empires.guards import BASE_KINDS
from warlog.domain.armageddon_empires.limits import MAX_ARMIES_PER_HEX
from warlog.domain.armageddon_empires.state import Army, GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.hexgrid import Hex
from warlog.domain.core.procedure import Step
from warlog.domain.core.ruleset import Command

CHOOSE_ANSWERS = (NextRound.type_name(),)
#: AE-32: since version 12 a beaten side's garrison falls with the battle only when its retreat
#: was chosen (p.34); one that fought to its last unit stays, and a hero left in it is taken
#: prisoner with the base (AE-34). Version 11 and before destroyed every garrison of the loser
#: there, its hero discarded. Since 12 too, an army destroyed for want of a retreat hex is told
#: every condition of AE-32, not p.34's alone
GARRISON_FALLS_IF_CHOSEN_SINCE = 12
#: R8 / p.34: the pursuers' pool is the average attack + 1
RETREAT_EXTRA_DIE = 1


# ---------------------------------------------------------------------- choosing


def choose_options(state: GameState, player: str) -> list[Command]:
    return [NextRound(player=player, choice=c) for c in ("continue", "retreat_army", "retreat_all")]


def next_round(batch: Batch[GameState], cmd: NextRound) -> None:
    """``next_round_chosen`` (p.34; AE-31): on continue the next empire chooses or the round
    begins; a retreat withdraws the army (or all) and its retreat challenges come next."""
    b = bf.top_battle(batch.state)
    if cmd.choice != "continue":
        withdraw(batch, b, cmd.player, cmd.choice)
        return
    choosing = b.choosing[1:]
    if choosing:
        after = replace(b, choosing=choosing)
    else:
        after = replace(b, choosing=(), before_round=False, stage="round", to_act="", first="")
    batch.emit(NextRoundChosen(battle=after, empire=cmd.player, choice="continue"))


def retreat_pool(state: GameState, b: Battle, empire: str, army: Army) -> Pool:
    """AE-28 (R8, p.34): floor(mean printed attack of the unit cards of the enemy army this side
    last fought, as it stands) + 1 − the retreating army's hero's Trickster X. A side retreats
    only while both armies in the fight are combat-capable (after a round both survive, before a
    Trickster's first round, at the end of the last round), each the other's last enemy."""
    enemy = bf.army_of(state, b.side(empire).last_enemy)
    assert enemy is not None and enemy.units, "a retreat is chosen only while both fight"
    attacks = []
    for unit in enemy.units:
        spec = state.card(unit).spec
        attacks.append(spec.attack if isinstance(spec, UnitCard) else 0)
    mean = sum(attacks) // len(attacks)
    label = (
        f"average attack of {enemy.id}: "
        f"({' + '.join(map(str, attacks))}) / {len(attacks)} rounded down (R8; AE-28)"
    )
    terms = [Term(mean, label), Term(RETREAT_EXTRA_DIE, "+1, p.34")]
    trickster, hero = bf.hero_level(state, army, bf.TRICKSTER)
    if trickster:
        terms.append(Term(-trickster, f"Trickster {trickster} of {hero}, p.34"))
    return Pool(tuple(terms))


def withdraw(
    batch: Batch[GameState], b: Battle, empire: str, choice: NextRoundChoice, forced: str = ""
) -> None:
    """``next_round_chosen`` for a retreat: the army in the fight (or every army of the empire
    in the battle) leaves the fight; its units that are not a garrison's face retreat
    challenges (p.34)."""
    state = batch.state
    side = b.side(empire)
    chosen: tuple[str, ...]
    if choice == "retreat_army":
        chosen = (side.fighting,) if side.fighting else ()
    else:
        chosen = tuple(a for a in side.armies if a in state.armies and a not in side.out)
    armies = [state.armies[a] for a in chosen if a in state.armies]
    garrisons = tuple(a.id for a in armies if a.garrison_of is not None)
    items = tuple(
        RetreatItem(unit=u, army=a.id, pool=retreat_pool(state, b, empire, a))
        for a in armies
        if a.garrison_of is None
        for u in a.units
    )
    fighting = None if side.fighting in chosen else side.fighting
    side = replace(
        side,
        out=(*side.out, *(a for a in chosen if a not in side.out)),
        fighting=fighting,
        back=() if fighting is None else side.back,
        gave_up=side.gave_up or choice == "retreat_all",
    )
    after = replace(
        b.with_side(side),
        choosing=(),
        before_round=False,
        strike=None,
        retreats=items,
        stage="retreat",
        to_act="",
        first="",
    )
    batch.emit(
        NextRoundChosen(
            battle=after,
            empire=empire,
            choice=choice,
            retreating=tuple(chosen),
            garrisons=garrisons,
            forced=forced,
        )
    )


# ---------------------------------------------------------------------- retreat challenges


def retreat_next(state: GameState, b: Battle) -> Step:
    return open_retreat if b.retreats else _retreats_done


def open_retreat(batch: Batch[GameState]) -> None:
    """The next retreat challenge (p.34; R8): the pursuers' pool against the unit's defence +
    terrain, with its army's hero's fate (no fate for the pursuers, AE-28)."""
    state = batch.state
    b = bf.top_battle(state)
    item = b.retreats[0]
    empire = state.instances[item.unit].owner
    pursuer = b.enemy(empire).empire
    army = state.armies.get(item.army)
    d_pool = bf.defense_pool(state, army, item.unit, b.at)
    what = f"{b.name}: the retreat of {state.card(item.unit).name} ({item.unit})"
    if not may_roll(batch, pursuer, what, item.pool.size + d_pool.size):
        return
    if b.pending is None:
        b = replace(b, pending=Pending(kind="retreat", card=item.unit, by=pursuer), outcome=None)
        batch.emit(BattleAdvanced(battle=b, why=f"{item.unit} retreats under pursuit (p.34)"))
    open_challenge(
        batch,
        kind="opposed",
        purpose=f"{b.name} retreat",
        attacker=Side(empire=pursuer, name=f"pursuers of {item.army}", pool=item.pool),
        defender=Side(
            empire=empire,
            name=f"{state.card(item.unit).name} ({item.unit})",
            pool=d_pool,
            fate_hero=None if army is None else army.hero,
        ),
    )


def after_retreat(batch: Batch[GameState]) -> None:
    """The retreat challenge's damage, with no damage modifier (p.34)."""
    state = batch.state
    b = bf.top_battle(state)
    p, outcome = b.pending, b.outcome
    assert p is not None and outcome is not None
    damage = max(0, outcome.damage_to_defender)
    if damage:
        batch.emit(*damage_events(state, p.card, damage, state.challenges, "no modifier, p.34"))
    after = replace(b, pending=None, outcome=None, retreats=b.retreats[1:])
    batch.emit(RetreatEnded(battle=after, unit=p.card, damage=damage))


def _retreats_done(batch: Batch[GameState]) -> None:
    """The retreat is over: a side that retreated all has lost; a side that retreated one army
    commits its next (or has lost if it has none, p.34)."""
    b = bf.top_battle(batch.state)
    quitter = next((s for s in b.sides if s.gave_up), None)
    if quitter is not None:
        winner = b.enemy(quitter.empire).empire
        after = replace(b, stage="end", winner=winner)
        why = f"{quitter.empire} retreated all its armies (p.34)"
    else:
        after, why = replace(b, stage="commit"), "the retreat is over"
    batch.emit(BattleAdvanced(battle=after, why=why))


def no_army_left(batch: Batch[GameState]) -> None:
    """A side with no army in the fight and none left to commit has lost (p.34)."""
    state = batch.state
    b = bf.top_battle(state)
    from warlog.domain.armageddon_empires.battle import committable

    loser = next(s for s in b.sides if s.fighting is None and not committable(state, s))
    after = replace(b, stage="end", winner=b.enemy(loser.empire).empire)
    batch.emit(
        BattleAdvanced(
            battle=after, why=f"{loser.empire} has no combat-capable army left to fight (p.34)"
        )
    )


# ---------------------------------------------------------------------- the end


def _lone_heroes(state: GameState, b: Battle, loser: str) -> list[Army]:
    """The loser's armies in the battle left with a hero and no unit, not yet hunted (AE-33)."""
    out = []
    for army_id in b.side(loser).armies:
        army = state.armies.get(army_id)
        if army is None or army.at != b.at or army.garrison_of is not None:
            continue
        if army.hero is not None and not army.units and army.id not in b.hunted:
            out.append(army)
    return out


def _hunters(state: GameState, b: Battle, winner: str) -> list[Army]:
    """The winner's combat-capable armies in the hex, the army in the fight first."""
    here = [
        a
        for a in state.armies.values()
        if a.at == b.at and a.empire == winner and a.combat_capable and not a.stealthed
    ]
    first = b.side(winner).fighting
    return sorted(here, key=lambda a: (a.id != first, a.id))


def end_next(state: GameState, b: Battle) -> Step:
    assert b.winner is not None
    loser = b.enemy(b.winner).empire
    if _lone_heroes(state, b, loser) and _hunters(state, b, b.winner):
        return _hunt_lone_hero
    return _finish


def _hunt_lone_hero(batch: Batch[GameState]) -> None:
    """A hero of the loser left alone faces the winner's Capture Kill (p.34; AE-33)."""
    from warlog.domain.armageddon_empires.capture import begin_capture_kill

    state = batch.state
    b = bf.top_battle(state)
    assert b.winner is not None
    loser = b.enemy(b.winner).empire
    target = _lone_heroes(state, b, loser)[0]
    hunter = _hunters(state, b, b.winner)[0]
    after = replace(b, hunted=(*b.hunted, target.id))
    batch.emit(
        BattleAdvanced(
            battle=after,
            why=f"{target.hero} of {loser} is left alone: {hunter.id} hunts him (p.34; AE-33)",
        )
    )
    begin_capture_kill(batch, b.winner, hunter.id, target, battle=b.number)


def retreat_hex(state: GameState, army: Army) -> tuple[str, str] | None:
    """AE-32: the hex a beaten army retreats to — the neighbour on the map nearest (by hex
    distance) to its empire's nearest stronghold or outpost, holding no enemy base, no
    combat-capable enemy army that is not stealthed, and not already 8 armies of its empire;
    ties by the hex's name — and that base's id; None when no neighbour is free."""
    here = Hex.parse(army.at)
    bases = [b for b in state.bases_of(army.empire) if b.kind in BASE_KINDS and b.at != army.at]
    options: list[tuple[int, str, str]] = []
    for hex_ in here.neighbours():
        at = str(hex_)
        if at not in state.board.terrain:
            continue
        base = state.base_at(at)
        if base is not None and base.empire != army.empire:
            continue
        others = [a for a in state.armies.values() if a.at == at]
        if any(a.empire != army.empire and a.combat_capable and not a.stealthed for a in others):
            continue
        if sum(1 for a in others if a.empire == army.empire) >= MAX_ARMIES_PER_HEX:
            continue
        if bases:
            dist, toward = min((hex_.distance(Hex.parse(b.at)), b.id) for b in bases)
        else:
            dist, toward = 0, ""
        options.append((dist, at, toward))
    if not options:
        return None
    _, at, toward = min(options)
    return at, toward


def _finish(batch: Batch[GameState]) -> None:
    """The loser's armies retreat (or are destroyed), its garrisons fall, the winner takes its
    base, and the battle leaves the stack (p.34; AE-32..AE-34)."""
    state = batch.state
    b = bf.top_battle(state)
    assert b.winner is not None
    loser = b.enemy(b.winner)
    for army_id in loser.armies:
        army = batch.state.armies.get(army_id)
        if army is None or army.at != b.at:
            continue
        since_12 = state.rules_version >= GARRISON_FALLS_IF_CHOSEN_SINCE
        if army.garrison_of is not None:
            if not since_12:
                why = "a garrison never retreats, and its battle is lost (p.34)"
            elif army.id in loser.out:
                why = "its retreat was chosen, and a garrison never retreats: its battle is lost (p.34)"
            else:
                continue  # fought to its last unit: its hero is taken with the base (AE-34)
            batch.emit(_destroyed(army, why, b.number))
            continue
        found = retreat_hex(batch.state, army)
        if found is None:
            why = (
                "no neighbour is free of enemy bases and of un-stealthed combat-capable enemies "
                "with room for it (p.34; AE-32)"
                if since_12
                else "no hex to retreat to is free of un-stealthed combat-capable enemies (p.34)"
            )
            batch.emit(_destroyed(army, why, b.number))
        else:
            to, toward = found
            batch.emit(
                ArmyRetreated(
                    empire=army.empire,
                    army=army.id,
                    origin=army.at,
                    to=to,
                    toward=toward,
                    battle=b.number,
                )
            )
    base = batch.state.base_at(b.at)
    if base is not None and base.empire == loser.empire:
        capture_base(batch, base, b.winner, battle=b.number)
    why = (
        f"{loser.empire} retreated all its armies"
        if loser.gave_up
        else f"{loser.empire} has no combat-capable army left to fight"
    )
    batch.emit(BattleEnded(battle=b, winner=b.winner, loser=loser.empire, why=why))


def _destroyed(army: Army, why: str, battle: int) -> ArmyDestroyed:
    return ArmyDestroyed(
        empire=army.empire, army=army.id, at=army.at, cards=army.cards(), why=why, battle=battle
    )
