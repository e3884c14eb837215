"""Rounds of ground combat (p.34; R13; AE-29, AE-30): battle initiative, the units' strikes and
their follow-ups, and the end of a round.

A round begins with battle initiative (3 dice a side, successes + Aggressive X of the army's
hero; ties to the defender, R13). The sides then alternate, one unit at a time, starting with
the winner; every unit acts at most once a round; a side with no unit left that can act lets
the other go on. A unit acts by attacking an enemy card it reaches (``battlefield``): one
Ground Combat Challenge per strike, then its follow-up strikes (AE-30). The round ends when no
unit of either side can act, or at once when an army in the fight is no longer combat-capable.
"""

from __future__ import annotations

from msgspec.structs import replace

from warlog.domain.armageddon_empires import battlefield as bf
from warlog.domain.armageddon_empires.awaiting import may_roll
from warlog.domain.armageddon_empires.battle_events import (
    AttackBegan,
    AttackEnded,
    BattleAdvanced,
    BattleRoundBegan,
    BattleRoundEnded,
)
from warlog.domain.armageddon_empires.challenge import Side, successes
from warlog.domain.armageddon_empires.challenge_moves import (
    damage_events,
    in_own_turn,
    open_challenge,
)
from warlog.domain.armageddon_empires.commands import Attack
from warlog.domain.armageddon_empires.costs import MAX_AP_OWED
from warlog.domain.armageddon_empires.frames import Battle, Pending, Strike, StrikeKind
from warlog.domain.armageddon_empires.state import Army, GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import reject
from warlog.domain.core.procedure import Decision, Step
from warlog.domain.core.ruleset import Command

#: R13: battle initiative is the successes of 3 dice (+ Aggressive X)
INITIATIVE_DICE = 3
#: AE-31: before version 26, a battle still undecided after this many rounds ends with the
#: attacker retreating all, whatever the rounds dealt (no page has such a cap)
MAX_BATTLE_ROUNDS = 12
#: AE-31: since version 26 a battle is made to end only as a stalemate: after this many rounds
#: in a row in which no strike of either side took a hit point, the attacker retreats all. The
#: manual ends a battle only by a side's defeat or retreat (p.34); the number is the old cap's,
#: so that no battle is cut shorter than before, and in 13 games of ``warlog demo`` (56 battles)
#: no fight that landed a hit again had gone more than 8 rounds without one
STALEMATE_ROUNDS = 12
#: AE-31: the rules version since which ``STALEMATE_ROUNDS`` replaces ``MAX_BATTLE_ROUNDS``
STALEMATE_SINCE = 26
ATTACK_ANSWERS = (Attack.type_name(),)


def emit_step(batch: Batch[GameState], b: Battle, why: str) -> None:
    """``battle_advanced``: the battle as it now stands, and why it moved on."""
    batch.emit(BattleAdvanced(battle=b, why=why))


def holder(state: GameState, card: str) -> Army | None:
    """The army that holds ``card``, if any."""
    return next((a for a in state.armies.values() if card in a.cards()), None)


# ---------------------------------------------------------------------- who acts


#: AE-58: the rules version since which a Sniper Attack's AP is owed in its empire's own turn too
SNIPER_AP_OWED_SINCE = 8


def sniper_owes(state: GameState, empire: str) -> bool:
    """Whether a Sniper Attack of ``empire`` now owes its AP (AE-19) rather than pays it from
    the AP of its turn: outside its own turn; since version 8 in it too (AE-58), so that whether
    a sniper may strike never tells the AP its empire has left, which is sealed (AE-17)."""
    return state.rules_version >= SNIPER_AP_OWED_SINCE or not in_own_turn(state, empire)


def sniper_payable(state: GameState, empire: str) -> bool:
    """A Sniper Attack's 1 AP: owed (``sniper_owes``, within ``MAX_AP_OWED``), or before
    version 8 from the AP of its own turn."""
    emp = state.empires[empire]
    if not sniper_owes(state, empire):
        return emp.ap >= bf.SNIPER_AP
    return emp.ap_owed + bf.SNIPER_AP <= MAX_AP_OWED


def _first_strikes(state: GameState, b: Battle, empire: str, unit: str) -> list[Attack]:
    """The first strikes ``unit`` may make (AE-30): each enemy unit it reaches (a Multi-targeting
    unit with every split of its points), and the enemy hero with Sniper Attack."""
    out: list[Attack] = []
    multi = bf.multi_targeting(state, unit)
    points = bf.attack_points(state, bf.fighting_army(state, b.side(empire)), unit)
    for target in bf.reachable(state, b, empire, unit):
        if multi and points > 1:
            out += [
                Attack(player=empire, unit=unit, target=target, strength=s)
                for s in range(1, points)
            ]
        out.append(Attack(player=empire, unit=unit, target=target))
    hero = bf.sniper_target(state, b, empire, unit)
    if hero is not None and sniper_payable(state, empire):
        out.append(Attack(player=empire, unit=unit, target=hero))
    return out


def _follow_strikes(state: GameState, b: Battle, strike: Strike) -> list[Attack]:
    """The follow-up strikes open to the striking unit now (AE-30)."""
    empire = state.instances[strike.unit].owner
    enemy = b.enemy(empire)
    front, back = bf.rows(state, enemy)
    alive = {c for c in (*front, *back)}
    if strike.follow == "double":
        targets = [t for t in strike.targets[-1:] if t in alive]
    elif strike.follow == "area":
        row = front if strike.row == "front" else back
        targets = [t for t in row if t not in strike.targets]
    elif strike.follow == "breakthrough":
        targets = [t for t in back if t not in strike.targets]
    else:  # multi
        reach = bf.reachable(state, b, empire, strike.unit)
        targets = [t for t in reach if t not in strike.targets]
        return [
            Attack(player=empire, unit=strike.unit, target=t, strength=s)
            for t in targets
            for s in [*range(1, strike.points), None]
        ]
    return [Attack(player=empire, unit=strike.unit, target=t) for t in targets]


def attack_options(state: GameState, b: Battle, empire: str) -> list[Command]:
    """Every strike ``empire`` may make now: the open follow-up, else each unit's first."""
    if b.strike is not None and b.strike.follow:
        return list(_follow_strikes(state, b, b.strike))
    army = bf.fighting_army(state, b.side(empire))
    if army is None:
        return []
    return [
        strike
        for unit in army.units
        if unit not in b.acted
        for strike in _first_strikes(state, b, empire, unit)
    ]


def _actor(state: GameState, b: Battle) -> str | None:
    """The side whose unit acts next: the side to act, or the other if it has none (R13)."""
    other = b.enemy(b.to_act).empire
    for empire in (b.to_act, other):
        if attack_options(state, b, empire):
            return empire
    return None


def round_next(state: GameState, b: Battle) -> Decision | Step:
    """The round's next decision or step (module doc)."""
    if not all(bf.in_fight(state, side) for side in b.sides):
        return _fighter_down
    if not b.to_act:
        return _round_start
    if b.strike is not None and b.strike.follow:
        actor: str | None = state.instances[b.strike.unit].owner
    else:
        actor = _actor(state, b)
    if actor is None:
        return _round_end
    return Decision(
        players=(actor,),
        kind="battle",
        answers=ATTACK_ANSWERS,
        waiting=f"{actor} attacks with a unit in {b.name} at {b.at} (round {b.round})",
        procedure="battle",
        about={"battle": str(b.number), "stage": b.stage, "at": b.at},
    )


# ---------------------------------------------------------------------- steps


def _fighter_down(batch: Batch[GameState]) -> None:
    """An army in the fight has no unit left: the round ends, and its side commits another."""
    state = batch.state
    b = bf.top_battle(state)
    down = [s for s in b.sides if not bf.in_fight(state, s)]
    names = ", ".join(str(s.fighting) for s in down)
    for side in down:
        b = b.with_side(replace(side, fighting=None, back=()))
    b = replace(b, stage="commit", strike=None, to_act="", first="", acted=())
    batch.emit(BattleRoundEnded(battle=b, why=f"{names} is no longer combat-capable (p.34)"))


def _round_start(batch: Batch[GameState]) -> None:
    """Battle initiative (R13): 3 dice a side, successes + Aggressive X; ties to the defender."""
    state = batch.state
    b = bf.top_battle(state)
    what = f"{b.name}: initiative of round {b.round + 1}"
    if not may_roll(batch, b.attacker.empire, what, INITIATIVE_DICE * 2):
        return
    rolls: dict[str, tuple[int, ...]] = {}
    aggressive: dict[str, int] = {}
    score: dict[str, int] = {}
    for side in b.sides:
        faces = batch.roll(INITIATIVE_DICE, purpose=what, roller=side.empire)
        rolls[side.empire] = tuple(faces)
        aggressive[side.empire] = bf.hero_level(
            state, bf.fighting_army(state, side), bf.AGGRESSIVE
        )[0]
        score[side.empire] = successes(faces) + aggressive[side.empire]
    a, d = b.attacker.empire, b.defender.empire
    first = a if score[a] > score[d] else d
    b = replace(
        b,
        round=b.round + 1,
        first=first,
        to_act=first,
        acted=(),
        strike=None,
        attacker=replace(b.attacker, rounds=b.attacker.rounds + 1),
        defender=replace(b.defender, rounds=b.defender.rounds + 1),
    )
    batch.emit(BattleRoundBegan(battle=b, rolls=rolls, aggressive=aggressive))


def stalemate(state: GameState, b: Battle) -> str:
    """Why battle ``b``, its round just ended, must end now (AE-31), "" if it goes on: since
    version 26 when no strike of either side has taken a hit point for ``STALEMATE_ROUNDS``
    rounds in a row (``GameState.hurt_round``, which a strike's ``AttackEnded`` moves, not a
    pursuit's damage after a retreat); before, after ``MAX_BATTLE_ROUNDS`` rounds."""
    if state.rules_version < STALEMATE_SINCE:
        if b.round >= MAX_BATTLE_ROUNDS:
            return f"the battle is still undecided after {MAX_BATTLE_ROUNDS} rounds"
        return ""
    if b.round - state.hurt_round >= STALEMATE_ROUNDS:
        return (
            f"no strike of either side has taken a hit point for {STALEMATE_ROUNDS} rounds, "
            "a stalemate"
        )
    return ""


def _round_end(batch: Batch[GameState]) -> None:
    """No unit can act: each empire chooses what next, the attacker first (AE-31); a battle
    that must end (``stalemate``) ends with the attacker retreating all."""
    from warlog.domain.armageddon_empires.retreat import withdraw

    state = batch.state
    b = bf.top_battle(state)
    forced = stalemate(state, b)
    if forced:
        withdraw(batch, b, b.attacker.empire, "retreat_all", forced=forced)
        return
    b = replace(b, stage="choose", choosing=(b.attacker.empire, b.defender.empire))
    batch.emit(BattleRoundEnded(battle=b, why="no unit of either side can act any more (R13)"))


# ---------------------------------------------------------------------- a strike


def attack(batch: Batch[GameState], cmd: Attack) -> None:
    """``attack_began`` (and a sniper's AP); its challenge opens next. ``rules/bad_attack`` for
    a strike that is not open now (the legal strikes are named)."""
    state = batch.state
    b = bf.top_battle(state)
    options = attack_options(state, b, cmd.player)
    if replace(cmd, dice=()) not in options:  # a referee's faces are no part of the strike
        names = sorted({f"{o.unit}→{o.target}" for o in options if isinstance(o, Attack)})
        strengths = sorted(
            {
                o.strength
                for o in options
                if isinstance(o, Attack) and (o.unit, o.target) == (cmd.unit, cmd.target)
            },
            key=lambda s: -1 if s is None else s,
        )
        if strengths:
            allowed = ", ".join("none" if s is None else str(s) for s in strengths)
            raise reject(
                f"{cmd.unit} may strike {cmd.target} now, but not with strength "
                f"{cmd.strength}: 'strength' may be {allowed} (none: its whole attack; a part "
                "only with Multi-targeting, p.34; AE-30)",
                "bad_attack",
            )
        raise reject(
            f"{cmd.unit} cannot strike {cmd.target} now (R13, p.34); open: {', '.join(names)}",
            "bad_attack",
        )
    army = bf.fighting_army(state, b.side(cmd.player))
    points = bf.attack_points(state, army, cmd.unit)
    kind: StrikeKind
    if b.strike is not None and b.strike.follow:
        kind = b.strike.follow  # type: ignore[assignment]
        strike = b.strike
    else:
        kind = "attack"
        enemy = b.enemy(cmd.player)
        row = bf.row_of(state, enemy, cmd.target)
        strike = Strike(unit=cmd.unit, row=row, points=points)
    target_entry = state.card(cmd.target)
    ap = 0
    if target_entry.kind == "hero":
        kind, ap = "sniper", bf.SNIPER_AP
    strength = cmd.strength if cmd.strength is not None else (strike.points or points)
    if kind == "multi" or (cmd.strength is not None and kind == "attack"):
        strike = replace(strike, points=strike.points - strength)
    elif kind == "attack":
        strike = replace(strike, points=0)
    pending = Pending(kind=kind, card=cmd.target, by=cmd.unit, strength=strength)
    b = replace(b, strike=replace(strike, follow=""), pending=pending, outcome=None)
    batch.emit(
        AttackBegan(
            battle=b,
            empire=cmd.player,
            unit=cmd.unit,
            target=cmd.target,
            kind=kind,
            strength=strength,
            ap_cost=ap,
            owed=bool(ap) and sniper_owes(state, cmd.player),
        )
    )


def open_strike(batch: Batch[GameState]) -> None:
    """The strike's Ground Combat Challenge (AE-29): the unit's attack against the card's
    defence (+ terrain) or a hero's fate; each side re-rolls with its army's hero's fate."""
    state = batch.state
    b = bf.top_battle(state)
    p = b.pending
    assert p is not None
    empire = state.instances[p.by].owner
    enemy = b.enemy(empire).empire
    army, target_army = holder(state, p.by), holder(state, p.card)
    full = bf.attack_points(state, army, p.by)
    a_pool = bf.attack_pool(state, army, p.by, p.strength if p.strength < full else None)
    d_pool = bf.defense_pool(state, target_army, p.card, b.at)
    what = f"{b.name}: {state.card(p.by).name} strikes {state.card(p.card).name}"
    if not may_roll(batch, empire, what, a_pool.size + d_pool.size):
        return
    purpose = "sniper" if p.kind == "sniper" else "ground combat"
    open_challenge(
        batch,
        kind="opposed",
        purpose=f"{b.name} {purpose}",
        attacker=Side(
            empire=empire,
            name=f"{state.card(p.by).name} ({p.by})",
            pool=a_pool,
            fate_hero=None if army is None else army.hero,
        ),
        defender=Side(
            empire=enemy,
            name=f"{state.card(p.card).name} ({p.card})",
            pool=d_pool,
            fate_hero=None if target_army is None else target_army.hero,
        ),
    )


def _follow(state: GameState, b: Battle, strike: Strike, kind: str) -> str:
    """The follow-up the unit may make after this strike (AE-30), "" for none."""
    if kind == "sniper":
        return ""
    probe = replace(b, strike=strike)
    if kind == "attack" and len(strike.targets) == 1:
        follow = bf.follow_up(state, strike.unit)
        if follow == "breakthrough" and not (strike.row == "front" and strike.hit):
            follow = ""
        if follow and _follow_strikes(state, probe, replace(strike, follow=follow)):
            return follow
    multi = bf.multi_targeting(state, strike.unit) and strike.points > 0
    if multi and _follow_strikes(state, probe, replace(strike, follow="multi")):
        return "multi"
    return ""


def after_strike(batch: Batch[GameState]) -> None:
    """The strike's damage, less the target's damage modifiers (p.34), and the unit's
    follow-up, or the turn passes to the other side (R13; AE-30)."""
    state = batch.state
    b = bf.top_battle(state)
    p, outcome, strike = b.pending, b.outcome, b.strike
    assert p is not None and outcome is not None and strike is not None
    empire = state.instances[p.by].owner
    raw = outcome.damage_to_defender
    damage, mod, label = bf.modified_damage(state, p.card, raw)
    if damage:
        note = f"{raw} {mod:+d} ({label})" if mod else ""
        batch.emit(*damage_events(state, p.card, damage, state.challenges, note))
    state = batch.state
    strike = replace(strike, targets=(*strike.targets, p.card), hit=raw > 0)
    follow = _follow(state, b, strike, p.kind)
    if follow:
        after = replace(b, strike=replace(strike, follow=follow), pending=None, outcome=None)
    else:
        after = replace(
            b,
            strike=None,
            pending=None,
            outcome=None,
            acted=(*b.acted, p.by),
            to_act=b.enemy(empire).empire,
        )
    batch.emit(
        AttackEnded(
            battle=after,
            empire=empire,
            unit=p.by,
            target=p.card,
            raw=raw,
            modifier=mod,
            modifier_label=label,
            damage=damage,
        )
    )
