"""The combat procedure: rerolls, losses, eliminations, retreats and the advance, step by step.

``combat_next(state, combat)`` says what the combat in progress waits for: a player's choice
(reroll or keep, which counter is lost, where a counter retreats, who advances) as a Decision,
or an automatic step (a choice with a single option is one). The core procedure engine takes the
automatic steps until a real choice is needed or the combat is over; the commands that answer a
choice use the same ``apply_*`` functions.
"""

from __future__ import annotations

from typing import Literal

from warlog.domain.battle_for_armageddon import board
from warlog.domain.battle_for_armageddon.combat_events import (
    Advanced,
    CombatEnded,
    CounterRetreated,
    LossTaken,
    ResultStood,
    RetreatCompleted,
    RetreatIgnored,
    SiteRuined,
    StackEliminated,
)
from warlog.domain.battle_for_armageddon.combat_events import (
    Step as ResultStep,
)
from warlog.domain.battle_for_armageddon.losses import eliminate, outcome
from warlog.domain.battle_for_armageddon.rules import (
    ADVANCE_MAX,
    ADVANCE_MIN_MOVE,
    IMPERIALS,
    RETREATING,
    SPECIAL_UNITS,
)
from warlog.domain.battle_for_armageddon.state import Combat, Counter, GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, reject
from warlog.domain.core.procedure import Decision, Step

#: the choices a combat waits for, and the commands that answer each
ChoiceKind = Literal["reroll", "loss", "retreat", "advance"]
ANSWERS: dict[str, tuple[str, ...]] = {
    "reroll": ("reroll", "keep_result"),
    "loss": ("take_loss",),
    "retreat": ("retreat",),
    "advance": ("advance",),
}
_CHOOSING = {
    "reroll": "choice to reroll the combat result or keep it",
    "loss": "choice of the counter lost",
    "retreat": "choice of where {counter} retreats",
    "advance": "choice of the counters that advance",
}


def choice(
    kind: ChoiceKind,
    player: str,
    options: tuple[str, ...],
    side: str = "",
    area: str = "",
    counter: str = "",
) -> Decision:
    """The combat waits for ``player``'s choice of ``kind`` among ``options``."""
    about = {k: v for k, v in (("side", side), ("area", area), ("counter", counter)) if v}
    where = f" in {area}" if area else ""
    return Decision(
        players=(player,),
        kind=kind,
        answers=ANSWERS[kind],
        waiting=f"the {player}' {_CHOOSING[kind].format(counter=counter)}{where}",
        procedure="combat",
        options=options,
        about=about,
    )


def _combat(state: GameState) -> Combat:
    assert state.combat is not None
    return state.combat


def owner(combat: Combat, side: str) -> str:
    return combat.attacker if side == "attacker" else combat.defender


def group(state: GameState, side: str, area: str) -> list[Counter]:
    """The counters of one side that took part from ``area`` (alive or not, wherever now)."""
    c = _combat(state)
    if side == "attacker":
        ids = [cid for cid, src in c.attackers.items() if src == area]
    else:
        ids = list(c.defenders)
    return [state.counters[cid] for cid in ids]


def _groups(c: Combat) -> list[tuple[str, str]]:
    return [("attacker", src) for src in c.sources] + [("defender", c.target)]


def _here(counters: list[Counter], area: str) -> list[Counter]:
    return [x for x in counters if x.location == area]


def _companions(state: GameState, player: str, area: str) -> bool:
    """True if a counter other than a leader stands with the leaders (an intact hive or
    factory counts for the Imperials)."""
    if player == IMPERIALS and board.intact_site_in(state, area) is not None:
        return True
    return any(not board.is_leader(state, x) for x in board.counters_in(state, area, player))


def steps_for(result: str, c: Combat) -> list[ResultStep]:
    """seed 003 result definitions, as steps (BFA-4: losses before retreats, attacker first)."""
    t = c.target
    atk_loss = [ResultStep("loss", "attacker", s) for s in c.sources]
    defender_tail = [ResultStep("retreat", "defender", t), ResultStep("advance", "attacker", t)]
    if result == "AE":
        return [ResultStep("eliminate", "attacker", s) for s in c.sources]
    if result == "AR":
        return atk_loss + [ResultStep("retreat", "attacker", s) for s in c.sources]
    if result == "AS":
        return atk_loss
    if result == "EX":
        return [*atk_loss, ResultStep("loss", "defender", t), *defender_tail]
    if result == "DW":
        return defender_tail
    if result == "DR":
        return [ResultStep("loss", "defender", t), *defender_tail]
    if result == "DE":
        return [ResultStep("eliminate", "defender", t), *defender_tail]
    # leaders attacked on their own (rules: Special Units): killed without a roll
    return [ResultStep("eliminate", "defender", t), ResultStep("advance", "attacker", t)]


def reroll_leader(state: GameState, player: str) -> Counter | None:
    """The leader who lets ``player`` reroll this combat (Ghazghkull, Dante), if in it.

    BFA-14: one reroll per combat in all; the attacker is asked
    first, the defender only if the attacker keeps the result; the new result stands.
    """
    c = _combat(state)
    ids = list(c.attackers) if player == c.attacker else list(c.defenders)
    for cid in ids:
        x = state.counters[cid]
        if board.on_map(x) and board.has_ability(state, x, "reroll"):
            return x
    return None


def combat_next(state: GameState, c: Combat) -> Decision | Step:
    """What the combat in progress waits for, or the automatic step that moves it on."""
    if not c.settled:
        if not c.rerolled:
            for player in (c.attacker, c.defender):
                if player not in c.kept and reroll_leader(state, player) is not None:
                    return choice("reroll", player, ("reroll", "keep_result"))
        return _settle
    doomed = _doomed_leaders(state, c)
    if doomed:
        return lambda batch: _kill(batch, doomed, "all the counters with him are gone")
    if not c.steps:
        return _end
    step = c.steps[0]
    if step.kind == "loss":
        return _loss_need(state, c, step)
    if step.kind == "eliminate":
        return lambda batch: _eliminate_stack(batch, step)
    if step.kind == "retreat":
        return _retreat_need(state, c, step)
    return _advance_need(state, c, step)


def _settle(batch: Batch[GameState]) -> None:
    c = _combat(batch.state)
    batch.emit(ResultStood(result=c.result, steps=steps_for(c.result, c)))


def _kill(batch: Batch[GameState], ids: list[str], reason: str) -> None:
    for cid in ids:
        eliminate(batch, cid, f"{reason} (rules: Special Units)")


def _doomed_leaders(state: GameState, c: Combat) -> list[str]:
    """seed 003: leaders are killed when all the counters with them are eliminated (BFA-15: no
    other counter of theirs, an intact hive or factory included, is left in the area and none of
    their stack is alive elsewhere). Checked for stacks that had other counters."""
    out: list[str] = []
    for side, area in _groups(c):
        members = group(state, side, area)
        if all(board.is_leader(state, x) for x in members):
            continue
        player = owner(c, side)
        if _companions(state, player, area):
            continue
        if any(board.on_map(x) and not board.is_leader(state, x) for x in members):
            continue  # they retreated (the leader follows) or advanced (he stays behind)
        out.extend(x.id for x in _here(members, area) if board.is_leader(state, x))
    return out


# -- losses -------------------------------------------------------------------------------------


def loss_options(state: GameState, side: str, area: str) -> list[Counter]:
    """BFA-26: the owner chooses among the stack's counters that count for
    stacking (leaders, fortifications, hives and factories cannot be taken)."""
    return [x for x in _here(group(state, side, area), area) if board.counts_for_stacking(state, x)]


def _loss_need(state: GameState, c: Combat, step: ResultStep) -> Decision | Step:
    options = loss_options(state, step.side, step.area)
    player = owner(c, step.side)
    if len(options) > 1:
        return choice("loss", player, tuple(x.id for x in options), step.side, step.area)
    if len(options) == 1:
        only = options[0].id
        return lambda batch: apply_loss(batch, step, only)
    return lambda batch: _no_loss(batch, step)


def apply_loss(batch: Batch[GameState], step: ResultStep, counter_id: str) -> None:
    counter = batch.state.counters[counter_id]
    what, to = outcome(batch.state, counter)
    batch.emit(LossTaken(side=step.side, area=step.area, counter=counter_id, outcome=what, to=to))


def _no_loss(batch: Batch[GameState], step: ResultStep) -> None:
    """BFA-5: a stack with no counter that counts for stacking loses its leaders instead, unless
    a hive, factory or other counter stands with them."""
    c = _combat(batch.state)
    player = owner(c, step.side)
    if not _companions(batch.state, player, step.area):
        leaders = [
            x.id
            for x in _here(group(batch.state, step.side, step.area), step.area)
            if board.is_leader(batch.state, x)
        ]
        _kill(batch, leaders, "no other counter to take the loss")
    batch.emit(LossTaken(side=step.side, area=step.area, counter="", outcome="none"))


def _eliminate_stack(batch: Batch[GameState], step: ResultStep) -> None:
    """AE / DE: every counter of the stack is eliminated (chapters flip), the hive or factory
    flips to smoking ruins, fortifications and already-retreated counters go too."""
    c = _combat(batch.state)
    player = owner(c, step.side)
    members = _here(group(batch.state, step.side, step.area), step.area)
    reason = "attacker eliminated" if step.side == "attacker" else "defender eliminated"
    affected: list[str] = []
    for x in members:
        if not board.is_leader(batch.state, x):
            eliminate(batch, x.id, f"{reason} (Combat Results Table)")
            affected.append(x.id)
    if step.side == "defender":
        _ruin_site(batch, step.area)
        for x in board.counters_in(batch.state, step.area, player):
            if x.id in c.passive or board.is_fortification(batch.state, x):  # BFA-20
                eliminate(batch, x.id, f"{reason} (Combat Results Table)")
                affected.append(x.id)
    if not _companions(batch.state, player, step.area):
        leaders = [x.id for x in members if board.is_leader(batch.state, x)]
        _kill(batch, leaders, "all the counters with him are gone")
        affected.extend(leaders)
    batch.emit(StackEliminated(side=step.side, area=step.area, counters=affected))


def _ruin_site(batch: Batch[GameState], area: str) -> None:
    site = board.intact_site_in(batch.state, area)
    if site is not None:
        track = board.build_track(batch.state) - site.defence
        batch.emit(SiteRuined(site=site.id, area=area, defence=site.defence, track=track))


# -- retreats -----------------------------------------------------------------------------------


def retreat_options(state: GameState, counter: Counter, area: str) -> list[str]:
    """seed 003 "Retreating": one area, within stacking limits and terrain restrictions (not
    mountains, sea or an enemy-occupied area); none at all for a counter with Move 0.

    BFA-16: counters retreat one by one (a stack may split), leaders last, following the others.
    """
    if board.move_of(state, counter) <= 0:
        return []
    return [
        a
        for a in board.graph(state).neighbours(area)
        if board.open_to(state, a, counter.side) and board.fits(state, a, [counter])
    ]


def _retreat_need(state: GameState, c: Combat, step: ResultStep) -> Decision | Step:
    player = owner(c, step.side)
    area = step.area
    here = board.counters_in(state, area, player)
    yarrick = next((x for x in here if board.has_ability(state, x, "ignore_retreat")), None)
    if yarrick is not None:
        return lambda batch: batch.emit(
            RetreatIgnored(side=step.side, area=area, leader=yarrick.id)
        )
    if step.side == "defender" and board.intact_site_in(state, area) is not None:
        return lambda batch: _ruin_site(batch, area)
    forts = [x.id for x in here if board.is_fortification(state, x)]
    if forts:
        rule = SPECIAL_UNITS if state.rules_version >= SPECIAL_UNITS_CITED_SINCE else RETREATING
        return lambda batch: _kill_plain(batch, forts, "its stack was forced to retreat", rule)
    # seed 003: counters that already retreated this phase die if forced to retreat again (BFA-20)
    twice = [x.id for x in here if step.side == "defender" and x.id in c.passive]
    if twice:
        return lambda batch: _kill_plain(
            batch, twice, "forced to retreat a second time in the phase", RETREATING
        )
    members = _here(group(state, step.side, area), area)
    for x in members:
        if not board.is_leader(state, x):
            return _retreat_choice(state, player, step, x)
    if members:  # leaders only now: they follow the counters that retreated, or fall
        followed = any(
            m.id in c.retreated and board.on_map(m) and not board.is_leader(state, m)
            for m in group(state, step.side, area)
        )
        if not followed:
            ids = [x.id for x in members]
            return lambda batch: _kill(batch, ids, "all the counters with him are gone")
        return _retreat_choice(state, player, step, members[0])
    return lambda batch: batch.emit(RetreatCompleted(side=step.side, area=area))


#: since this rules version a fortification destroyed because its stack is forced to retreat
#: cites the rule that destroys it, seed 003 "Special Units" (before, "Retreating"; the reason is
#: part of the logged event, so games begun under 4 and before keep it)
SPECIAL_UNITS_CITED_SINCE = 5


def _kill_plain(batch: Batch[GameState], ids: list[str], reason: str, rule: str) -> None:
    """Eliminate ``ids`` for ``reason``, citing ``rule`` (a section of the rules sheet)."""
    for cid in ids:
        eliminate(batch, cid, f"{reason} ({rule})")


def _retreat_choice(
    state: GameState, player: str, step: ResultStep, counter: Counter
) -> Decision | Step:
    options = retreat_options(state, counter, step.area)
    if len(options) > 1:
        return choice("retreat", player, tuple(options), step.side, step.area, counter.id)
    only = options[0] if options else ""
    return lambda batch: apply_retreat(batch, counter.id, step.area, only)


def apply_retreat(batch: Batch[GameState], counter_id: str, area: str, to: str) -> None:
    """Move the counter one area, or eliminate it when it has nowhere to go (``to == ""``)."""
    if to:
        batch.emit(CounterRetreated(counter=counter_id, from_area=area, to=to))
    else:
        eliminate(batch, counter_id, "could not retreat (rules: Retreating)")


# -- advance ------------------------------------------------------------------------------------


def advance_options(state: GameState) -> list[Counter]:
    """seed 003 CRT: attacking counters with Move 2+ still in the area they attacked from."""
    c = _combat(state)
    out: list[Counter] = []
    for cid, src in c.attackers.items():
        x = state.counters[cid]
        if x.location == src and board.move_of(state, x) >= ADVANCE_MIN_MOVE:
            out.append(x)
    return out


def _advance_need(state: GameState, c: Combat, step: ResultStep) -> Decision | Step:
    vacated = not board.occupied_by(state, c.target, c.defender)
    options = advance_options(state) if vacated else []
    if not options:
        return lambda batch: batch.emit(Advanced(counters=[], to=c.target))
    return choice("advance", c.attacker, tuple(x.id for x in options), "attacker", c.target)


def advance_problem(state: GameState, chosen: list[str]) -> RulesError | None:
    """Why the attacker may not advance ``chosen`` (``rules/bad_choice``), or None (BFA-7:
    leaders go free of the 3)."""
    c = _combat(state)
    allowed = {x.id for x in advance_options(state)}
    if len(set(chosen)) != len(chosen):
        return reject("a counter is named twice", "bad_choice")
    for cid in chosen:
        if cid not in allowed:
            return reject(
                f"{cid} may not advance (it must have attacked, still stand where it attacked "
                f"from and have Move {ADVANCE_MIN_MOVE}+)",
                "bad_choice",
            )
    counters = [state.counters[cid] for cid in chosen]
    normal = sum(1 for x in counters if board.counts_for_stacking(state, x))
    if normal > ADVANCE_MAX:
        return reject(
            f"{normal} counters advance; at most {ADVANCE_MAX} may (rules: Combat Results Table; "
            "BFA-7)",
            "bad_choice",
        )
    if not board.fits(state, c.target, counters):
        return reject(f"the advance would break stacking in {c.target}", "bad_choice")
    return None


# -- the driver ---------------------------------------------------------------------------------


def _end(batch: Batch[GameState]) -> None:
    c = _combat(batch.state)
    batch.emit(CombatEnded(target=c.target, result=c.result, summary=summary(batch.state, c)))


#: since version 3 ``combat_ended``'s summary names only what this combat did: the chapters it
#: reduced (not those reduced before), both sides' retreats (before, the defender's alone), and
#: the target's site only if this combat ruined it
COMBAT_SUMMARY_SINCE = 3


def summary(state: GameState, c: Combat) -> str:
    """One line: who attacked what at which odds, the result, and what it cost each side."""
    lost_a = [cid for cid in c.attackers if not board.on_map(state.counters[cid])]
    lost_d = [cid for cid in (*c.defenders, *c.passive) if not board.on_map(state.counters[cid])]
    reduced = [cid for cid in (*c.attackers, *c.defenders) if state.counters[cid].reduced]
    moved = [cid for cid, src in c.attackers.items() if state.counters[cid].location == c.target]
    fled = [cid for cid in c.defenders if cid in c.retreated and board.on_map(state.counters[cid])]
    site = board.site_in(state, c.target)
    if state.rules_version >= COMBAT_SUMMARY_SINCE:
        reduced = [cid for cid in reduced if cid not in c.reduced_before]
        fled = [
            cid
            for cid in (*c.attackers, *c.defenders)
            if cid in c.retreated and board.on_map(state.counters[cid])
        ]
        site = None if c.ruined_before else site
    parts = [
        f"{c.attacker} attacked {c.target} from {', '.join(c.sources)} at {c.column}: "
        f"{c.result or 'leaders attacked alone'}"
    ]
    if lost_a:
        parts.append(f"{c.attacker} lost {', '.join(lost_a)}")
    if lost_d:
        parts.append(f"{c.defender} lost {', '.join(lost_d)}")
    if reduced:
        parts.append(f"reduced to detachments: {', '.join(reduced)}")
    if fled:
        parts.append(f"retreated: {', '.join(fled)}")
    if site is not None and site.ruined:
        parts.append(f"{site.id} in smoking ruins")
    if moved:
        parts.append(f"advanced into {c.target}: {', '.join(moved)}")
    return "; ".join(parts)
