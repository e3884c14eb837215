"""Battles (p.26, p.33–34; R13): how they begin, the engagement choice, set-up and the commitment
of armies, and the procedure that runs a battle on the core engine's stack.

- **Engagement** (p.33; AE-25): a combat-capable army that is not stealthed and ends its move in
  a hex with enemy armies that are not stealthed and can fight offers its empire a choice:
  attack now, delay the attack to the end of the turn (Delay Attack, p.33), or, where an enemy
  stronghold or outpost stands, lay siege (p.26, p.33). An enemy base with no such army is
  captured on entry (p.18; AE-34); heroes alone are hunted instead (p.30).
- **Assault** (p.26; AE-35): Break Siege and Assault Defenses cost 3 AP: an army attacks the
  enemy armies it sees in its own hex.
- **Set-up** (p.33; AE-26): the armies of each side that stand unstealthed in the hex take part
  and are seen by the enemy; where a base stands, empty armies there are destroyed (the Empty
  Armies Rule, p.33), which ones sealed for the other empire since version 10 (AE-59). Each side, the attacker first, then names the stealthed armies of its own
  in the hex that destealth and join. Both are always asked, so that being asked tells nothing.
- **Order and rows** (p.33; R13; AE-27): armies fight one at a time; when a side has no army in
  the fight its empire commits the next one, choosing which units stand in the back row.
"""

from __future__ import annotations

import itertools

from msgspec import UNSET, UnsetType
from msgspec.structs import replace

from warlog.domain.armageddon_empires import ground_combat, retreat
from warlog.domain.armageddon_empires.bases import capture_base
from warlog.domain.armageddon_empires.battle_events import (
    ArmyCommitted,
    AssaultOrdered,
    AvertedCaller,
    BattleAverted,
    BattleBegan,
    BattleSetUp,
    EmptyArmiesDestroyed,
    EngagementChosen,
    EngagementOffered,
    StartedBy,
)
from warlog.domain.armageddon_empires.battlefield import hero_level, top_battle
from warlog.domain.armageddon_empires.commands import (
    Assault,
    CommitArmy,
    Engage,
    SetUpBattle,
)
from warlog.domain.armageddon_empires.control import (
    EMPTY_ARMIES_NOWHERE_SINCE,
    EMPTY_ARMIES_UNSEEN_SINCE,
)
from warlog.domain.armageddon_empires.frames import (
    Battle,
    BattleSide,
    EngageChoice,
    Engagement,
)
from warlog.domain.armageddon_empires.guards import own_army
from warlog.domain.armageddon_empires.state import Army, GameState
from warlog.domain.armageddon_empires.turns import finish_turn
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, reject
from warlog.domain.core.procedure import Decision, Step
from warlog.domain.core.ruleset import Command

#: p.26: Break Siege and Assault Defenses cost 3 AP each
ASSAULT_AP = 3
PROCEDURE = "battle"
SET_UP_ANSWERS = (SetUpBattle.type_name(),)
COMMIT_ANSWERS = (CommitArmy.type_name(),)
#: AE-35, AE-36: the version since which ``battle_averted`` records what called the battle, an
#: assault or a delayed attack, and its explanation cites that one's ruling alone
AVERTED_CALLER_RECORDED_SINCE = 21


def other_empire(state: GameState, empire: str) -> str:
    """The other empire (this version plays two, AE-2)."""
    return next(e for e in state.seats if e != empire)


def _enemies_in(state: GameState, empire: str, at: str) -> list[Army]:
    """The enemy armies that are not stealthed in hex ``at``, by id."""
    return sorted(
        (a for a in state.armies.values() if a.at == at and a.empire != empire and not a.stealthed),
        key=lambda a: a.id,
    )


def fighters_in(state: GameState, empire: str, at: str) -> list[Army]:
    """The enemy armies in hex ``at`` that would fight a battle there: not stealthed and
    combat-capable (p.33, p.34)."""
    return [a for a in _enemies_in(state, empire, at) if a.combat_capable]


def enemy_base(state: GameState, empire: str, at: str) -> str | None:
    base = state.base_at(at)
    return None if base is None or base.empire == empire else base.id


# ---------------------------------------------------------------------- engagement


def arrive(batch: Batch[GameState], army_id: str) -> None:
    """After a move: the engagement the army's arrival calls for (module doc; AE-25)."""
    state = batch.state
    army = state.armies[army_id]
    if army.stealthed or not army.combat_capable:
        return
    at = army.at
    if at in state.delayed:
        return  # it joins the battle its empire delayed there (p.33)
    base = enemy_base(state, army.empire, at)
    if fighters_in(state, army.empire, at):
        choices: tuple[EngageChoice, ...] = ("attack", "delay")
        if base is not None:
            choices += ("siege",)
        frame = Engagement(empire=army.empire, army=army.id, at=at, choices=choices)
        batch.emit(EngagementOffered(engagement=frame))
    elif base is not None:
        capture_base(batch, state.bases[base], army.empire)


def engagement_decision(state: GameState, frame: Engagement) -> Decision:
    return Decision(
        players=(frame.empire,),
        kind="engagement",
        answers=(Engage.type_name(),),
        waiting=f"{frame.empire}'s choice at {frame.at}: {', '.join(frame.choices)} (p.33)",
        procedure="engagement",
        options=frame.choices,
        about={"army": frame.army, "at": frame.at},
    )


def engage(batch: Batch[GameState], cmd: Engage) -> None:
    """``engagement_chosen``, then the battle if it attacks now; ``rules/bad_choice`` for a
    choice not open (siege only where an enemy base stands)."""
    frame = batch.state.frames[-1]
    assert isinstance(frame, Engagement)
    if cmd.choice not in frame.choices:
        raise reject(
            f"{cmd.choice} is not open at {frame.at}: {', '.join(frame.choices)} (p.26, p.33)",
            "bad_choice",
        )
    batch.emit(EngagementChosen(empire=cmd.player, army=frame.army, at=frame.at, choice=cmd.choice))
    if cmd.choice == "attack":
        start_battle(batch, cmd.player, frame.at, "move")


def engage_options(state: GameState, player: str) -> list[Command]:
    frame = state.frames[-1]
    assert isinstance(frame, Engagement)
    return [Engage(player=player, choice=c) for c in frame.choices]


# ---------------------------------------------------------------------- beginning


def end_of_turn_step(batch: Batch[GameState]) -> None:
    """The turn's end (AE-36): the next battle its empire delayed, or, with none left, the end
    of the turn itself."""
    state = batch.state
    if state.delayed and state.current is not None:
        start_battle(batch, state.current, state.delayed[0], "delayed")
    else:
        finish_turn(batch)


def _caller(state: GameState, started_by: StartedBy) -> AvertedCaller | UnsetType:
    """What called a battle that finds no enemy to fight (AE-35, AE-36), recorded in
    ``battle_averted`` since version 21 (``AVERTED_CALLER_RECORDED_SINCE``); left out before."""
    if state.rules_version < AVERTED_CALLER_RECORDED_SINCE:
        return UNSET
    assert started_by != "move", "an engagement is offered only where an enemy can fight (AE-25)"
    return started_by


def start_battle(batch: Batch[GameState], attacker: str, at: str, started_by: StartedBy) -> None:
    """``battle_began``; or, when no enemy army there can fight (a delayed attack, AE-36, or an
    assault, AE-35, whose enemies have gone), the enemy base's capture (p.18; AE-34) and
    ``battle_averted``."""
    state = batch.state
    defender = other_empire(state, attacker)
    if not fighters_in(state, attacker, at):
        base = enemy_base(state, attacker, at)
        why = "no enemy army there that is not stealthed can fight"
        if base is not None:
            capture_base(batch, state.bases[base], attacker)
            why += f"; {base} stands undefended and is captured"
        called_by = _caller(state, started_by)
        batch.emit(BattleAverted(empire=attacker, at=at, why=why, called_by=called_by))
        return
    has_base = state.base_at(at) is not None
    here = sorted((a for a in state.armies.values() if a.at == at), key=lambda a: a.id)
    emptied = tuple(
        a.id for a in here if has_base and not a.cards() and a.garrison_of is None
    )  # the Empty Armies Rule (p.33)
    sealed = state.rules_version >= EMPTY_ARMIES_UNSEEN_SINCE  # AE-59

    # AE-59: since version 12 an empty army counts for nothing anywhere, not only at a base
    holds_cards = state.rules_version >= EMPTY_ARMIES_NOWHERE_SINCE

    def side(empire: str) -> BattleSide:
        armies = tuple(
            a.id
            for a in here
            if a.empire == empire
            and not a.stealthed
            and a.id not in emptied
            and (a.cards() or not holds_cards or a.garrison_of is not None)
        )
        return BattleSide(empire=empire, armies=armies)

    battle = Battle(
        number=state.battles + 1, at=at, attacker=side(attacker), defender=side(defender)
    )
    batch.emit(BattleBegan(battle=battle, started_by=started_by, emptied=() if sealed else emptied))
    if sealed and has_base:
        for empire in state.seats:
            lost = tuple(a for a in emptied if state.armies[a].empire == empire)
            batch.emit(EmptyArmiesDestroyed(empire=empire, at=at, armies=lost))


def assault_problem(state: GameState, player: str, army: Army) -> RulesError | None:
    """Why ``army`` cannot assault now (module doc), judged by what its empire sees."""
    if army.stealthed or not army.combat_capable:
        return reject(
            f"{army.id} must be combat-capable and not stealthed to attack (p.26, p.33; AE-35)",
            "cannot_attack",
        )
    seen = state.sightings.get(player, {}).values()
    sighted = any(s.at == army.at and s.units and not s.stealthed for s in seen)
    if not sighted and enemy_base(state, player, army.at) is None:
        return reject(
            f"{player} sees no enemy army that can fight nor an enemy base at {army.at}",
            "no_enemy",
        )
    if army.at in state.delayed:
        return reject(f"{player} has delayed its attack at {army.at} (p.33)", "delayed")
    ap = state.empires[player].ap
    if ap < ASSAULT_AP:
        return reject(
            f"an assault costs {ASSAULT_AP} AP (p.26); {player} has {ap}", "not_enough_ap"
        )
    return None


def assault(batch: Batch[GameState], cmd: Assault) -> None:
    """``assault_ordered`` (3 AP) and the battle; RulesError for an army that cannot assault."""
    state = batch.state
    army = own_army(state, cmd.player, cmd.army)
    problem = assault_problem(state, cmd.player, army)
    if problem:
        raise problem
    batch.emit(AssaultOrdered(empire=cmd.player, army=army.id, at=army.at, ap_cost=ASSAULT_AP))
    start_battle(batch, cmd.player, army.at, "assault")


def legal_assaults(state: GameState, player: str) -> list[Assault]:
    return [
        Assault(player=player, army=a.id)
        for a in sorted(state.armies.values(), key=lambda a: a.id)
        if a.empire == player and assault_problem(state, player, a) is None
    ]


# ---------------------------------------------------------------------- set-up


def joinable(state: GameState, b: Battle, empire: str) -> list[str]:
    """The empire's stealthed armies in the battle's hex that may join it (p.33)."""
    return sorted(
        a.id
        for a in state.armies.values()
        if a.at == b.at and a.empire == empire and a.stealthed and a.cards()
    )


def set_up_battle(batch: Batch[GameState], cmd: SetUpBattle) -> None:
    """``battle_set_up``; ``rules/cannot_join`` for an army that may not join."""
    state = batch.state
    b = top_battle(state)
    may = joinable(state, b, cmd.player)
    for army in cmd.join:
        if cmd.join.count(army) > 1:
            raise reject(f"{army!r} is named twice", "cannot_join")
        if army not in may:
            raise reject(
                f"{army!r} is not a stealthed army of {cmd.player} at {b.at} that may join "
                f"(p.33); these may: {', '.join(may) or 'none'}",
                "cannot_join",
            )
    side = b.side(cmd.player)
    side = replace(side, ready=True, armies=(*side.armies, *cmd.join))
    b = b.with_side(side)
    if b.attacker.ready and b.defender.ready:
        b = replace(b, stage="commit")
    batch.emit(BattleSetUp(battle=b, empire=cmd.player, joined=tuple(cmd.join)))


def set_up_options(state: GameState, player: str) -> list[Command]:
    may = joinable(state, top_battle(state), player)
    return [
        SetUpBattle(player=player, join=tuple(chosen))
        for n in range(len(may) + 1)
        for chosen in itertools.combinations(may, n)
    ]


# ---------------------------------------------------------------------- commitment


def committable(state: GameState, side: BattleSide) -> list[str]:
    """The side's armies that may go into the fight: in the battle, not out of it, not fought
    before, still there and combat-capable (p.33, p.34)."""
    out = []
    for army_id in side.armies:
        army = state.armies.get(army_id)
        if army is None or army_id in side.out or army_id in side.fought:
            continue
        if army.combat_capable:
            out.append(army_id)
    return out


def commit_army(batch: Batch[GameState], cmd: CommitArmy) -> None:
    """``army_committed``; ``rules/cannot_commit`` or ``rules/bad_rows``."""
    state = batch.state
    b = top_battle(state)
    side = b.side(cmd.player)
    if cmd.army not in committable(state, side):
        raise reject(
            f"{cmd.army!r} cannot go into the fight; these can: "
            f"{', '.join(committable(state, side)) or 'none'} (p.33)",
            "cannot_commit",
        )
    army = state.armies[cmd.army]
    if len(set(cmd.back)) != len(cmd.back) or not set(cmd.back) <= set(army.units):
        raise reject(
            f"the back row names units of {army.id} once each: {', '.join(army.units)} (R13)",
            "bad_rows",
        )
    back = tuple(u for u in army.units if u in cmd.back)
    front = tuple(u for u in army.units if u not in cmd.back)
    side = replace(side, fighting=army.id, back=back, fought=(*side.fought, army.id), rounds=0)
    batch.emit(
        ArmyCommitted(
            battle=b.with_side(side), empire=cmd.player, army=army.id, front=front, back=back
        )
    )


def commit_options(state: GameState, player: str) -> list[Command]:
    """Every army the side may commit, with every choice of its back row (R13)."""
    side = top_battle(state).side(player)
    out: list[Command] = []
    for army_id in committable(state, side):
        units = state.armies[army_id].units
        for n in range(len(units) + 1):
            for back in itertools.combinations(units, n):
                out.append(CommitArmy(player=player, army=army_id, back=back))
    return out


# ---------------------------------------------------------------------- the procedure


def _decision(b: Battle, player: str, answers: tuple[str, ...], what: str) -> Decision:
    return Decision(
        players=(player,),
        kind="battle",
        answers=answers,
        waiting=f"{player} {what} in {b.name} at {b.at}",
        procedure=PROCEDURE,
        about={"battle": str(b.number), "stage": b.stage, "at": b.at},
    )


def battle_next(state: GameState, b: Battle) -> Decision | Step:
    """What the battle waits for, or its next step (module docs of this module,
    ``ground_combat`` and ``retreat``)."""
    if b.pending is not None:
        if b.pending.kind == "retreat":
            return retreat.after_retreat if b.outcome is not None else retreat.open_retreat
        return ground_combat.after_strike if b.outcome is not None else ground_combat.open_strike
    if b.stage == "setup":
        side = next(s for s in b.sides if not s.ready)
        return _decision(b, side.empire, SET_UP_ANSWERS, "sets up its side (p.33)")
    if b.stage == "commit":
        for side in b.sides:
            if side.fighting is None:
                if not committable(state, side):
                    return retreat.no_army_left
                return _decision(b, side.empire, COMMIT_ANSWERS, "commits an army (p.33)")
        return _begin_fight
    if b.stage == "choose":
        return _decision(
            b, b.choosing[0], retreat.CHOOSE_ANSWERS, "chooses to continue or retreat (p.34)"
        )
    if b.stage == "round":
        return ground_combat.round_next(state, b)
    if b.stage == "retreat":
        return retreat.retreat_next(state, b)
    return retreat.end_next(state, b)


def _begin_fight(batch: Batch[GameState]) -> None:
    """Both sides have an army in the fight: each side's last enemy is the other's army (R8);
    a Trickster may retreat before its army's first round (p.34), else the round begins."""
    state = batch.state
    b = top_battle(state)
    a, d = b.attacker, b.defender
    a = replace(a, last_enemy=d.fighting)
    d = replace(d, last_enemy=a.fighting)
    b = replace(b, attacker=a, defender=d)
    tricksters = tuple(
        s.empire
        for s in (a, d)
        if s.rounds == 0 and hero_level(state, state.armies.get(s.fighting or ""), "Trickster")[0]
    )
    if tricksters:
        b = replace(b, stage="choose", choosing=tricksters, before_round=True)
    else:
        b = replace(b, stage="round", to_act="", first="")
    ground_combat.emit_step(batch, b, "both sides have an army in the fight")
