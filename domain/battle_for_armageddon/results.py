"""Applying a combat result: rerolls, losses, eliminations, retreats and the advance, step by step.

``need(state)`` says what the combat in progress waits for: a player's choice (reroll or keep,
which counter is lost, where a counter retreats, who advances) or an automatic step. ``resolve``
runs the automatic steps, and the choices with a single option, until a real choice is needed or
the combat is over. The commands that answer a choice use the same ``apply_*`` functions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from warlog.domain.battle_for_armageddon import board
from warlog.domain.battle_for_armageddon.context import Ctx
from warlog.domain.battle_for_armageddon.events import (
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
from warlog.domain.battle_for_armageddon.losses import eliminate, outcome
from warlog.domain.battle_for_armageddon.rules import (
    ADVANCE_MAX,
    ADVANCE_MIN_MOVE,
    IMPERIALS,
)
from warlog.domain.battle_for_armageddon.state import Combat, Counter, State, Step


@dataclass(frozen=True)
class Need:
    """What the combat waits for. ``run`` is set for an automatic step."""

    kind: str
    player: str = ""
    side: str = ""
    area: str = ""
    counter: str = ""
    options: tuple[str, ...] = ()
    run: Callable[[Ctx], None] | None = None


def _combat(state: State) -> Combat:
    assert state.combat is not None
    return state.combat


def owner(combat: Combat, side: str) -> str:
    return combat.attacker if side == "attacker" else combat.defender


def group(state: State, side: str, area: str) -> list[Counter]:
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


def _companions(state: State, player: str, area: str) -> bool:
    """True if a counter other than a leader stands with the leaders (an intact hive or
    factory counts for the Imperials)."""
    if player == IMPERIALS and board.intact_site_in(state, area) is not None:
        return True
    return any(not board.is_leader(state, x) for x in board.counters_in(state, area, player))


def steps_for(result: str, c: Combat) -> list[Step]:
    """seed 003 result definitions, as steps (BFA-4: losses before retreats, attacker first)."""
    t = c.target
    atk_loss = [Step("loss", "attacker", s) for s in c.sources]
    defender_tail = [Step("retreat", "defender", t), Step("advance", "attacker", t)]
    if result == "AE":
        return [Step("eliminate", "attacker", s) for s in c.sources]
    if result == "AR":
        return atk_loss + [Step("retreat", "attacker", s) for s in c.sources]
    if result == "AS":
        return atk_loss
    if result == "EX":
        return [*atk_loss, Step("loss", "defender", t), *defender_tail]
    if result == "DW":
        return defender_tail
    if result == "DR":
        return [Step("loss", "defender", t), *defender_tail]
    if result == "DE":
        return [Step("eliminate", "defender", t), *defender_tail]
    # leaders attacked on their own (seed 003 Special Units): killed without a roll
    return [Step("eliminate", "defender", t), Step("advance", "attacker", t)]


def reroll_leader(state: State, player: str) -> Counter | None:
    """The leader who lets ``player`` reroll this combat (Ghazghkull, Dante), if in it.

    digest Rulings "Rerolls" and BFA-14: one reroll per combat in all; the attacker is asked
    first, the defender only if the attacker keeps the result; the new result stands.
    """
    c = _combat(state)
    ids = list(c.attackers) if player == c.attacker else list(c.defenders)
    for cid in ids:
        x = state.counters[cid]
        if board.on_map(x) and board.has_ability(state, x, "reroll"):
            return x
    return None


def need(state: State) -> Need | None:
    """What the combat in progress waits for (None: no combat)."""
    c = state.combat
    if c is None:
        return None
    if not c.settled:
        if not c.rerolled:
            for player in (c.attacker, c.defender):
                if player not in c.kept and reroll_leader(state, player) is not None:
                    return Need("reroll", player=player, options=("reroll", "keep_result"))
        return Need("auto", run=_settle)
    doomed = _doomed_leaders(state, c)
    if doomed:
        return Need(
            "auto", run=lambda ctx: _kill(ctx, doomed, "all the counters with him are gone")
        )
    if not c.steps:
        return Need("auto", run=_end)
    step = c.steps[0]
    if step.kind == "loss":
        return _loss_need(state, c, step)
    if step.kind == "eliminate":
        return Need("auto", run=lambda ctx: _eliminate_stack(ctx, step))
    if step.kind == "retreat":
        return _retreat_need(state, c, step)
    return _advance_need(state, c, step)


def _settle(ctx: Ctx) -> None:
    c = _combat(ctx.state)
    ctx.emit(ResultStood(result=c.result, steps=steps_for(c.result, c)))


def _kill(ctx: Ctx, ids: list[str], reason: str) -> None:
    for cid in ids:
        eliminate(ctx, cid, f"{reason} (seed 003 Special Units)")


def _doomed_leaders(state: State, c: Combat) -> list[str]:
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


def loss_options(state: State, side: str, area: str) -> list[Counter]:
    """digest Rulings "Losses": the owner chooses among the stack's counters that count for
    stacking (leaders, fortifications, hives and factories cannot be taken)."""
    return [x for x in _here(group(state, side, area), area) if board.counts_for_stacking(state, x)]


def _loss_need(state: State, c: Combat, step: Step) -> Need:
    options = loss_options(state, step.side, step.area)
    player = owner(c, step.side)
    if len(options) > 1:
        return Need(
            "loss",
            player=player,
            side=step.side,
            area=step.area,
            options=tuple(x.id for x in options),
        )
    if len(options) == 1:
        only = options[0].id
        return Need("auto", run=lambda ctx: apply_loss(ctx, step, only))
    return Need("auto", run=lambda ctx: _no_loss(ctx, step))


def apply_loss(ctx: Ctx, step: Step, counter_id: str) -> None:
    counter = ctx.state.counters[counter_id]
    what, to = outcome(ctx.state, counter)
    ctx.emit(LossTaken(side=step.side, area=step.area, counter=counter_id, outcome=what, to=to))


def _no_loss(ctx: Ctx, step: Step) -> None:
    """BFA-5: a stack with no counter that counts for stacking loses its leaders instead, unless
    a hive, factory or other counter stands with them."""
    c = _combat(ctx.state)
    player = owner(c, step.side)
    if not _companions(ctx.state, player, step.area):
        leaders = [
            x.id
            for x in _here(group(ctx.state, step.side, step.area), step.area)
            if board.is_leader(ctx.state, x)
        ]
        _kill(ctx, leaders, "no other counter to take the loss")
    ctx.emit(LossTaken(side=step.side, area=step.area, counter="", outcome="none"))


def _eliminate_stack(ctx: Ctx, step: Step) -> None:
    """AE / DE: every counter of the stack is eliminated (chapters flip), the hive or factory
    flips to smoking ruins, fortifications and already-retreated counters go too."""
    c = _combat(ctx.state)
    player = owner(c, step.side)
    members = _here(group(ctx.state, step.side, step.area), step.area)
    reason = "attacker eliminated" if step.side == "attacker" else "defender eliminated"
    affected: list[str] = []
    for x in members:
        if not board.is_leader(ctx.state, x):
            eliminate(ctx, x.id, f"{reason} (seed 003 CRT)")
            affected.append(x.id)
    if step.side == "defender":
        _ruin_site(ctx, step.area)
        for x in board.counters_in(ctx.state, step.area, player):
            if x.id in c.passive or board.is_fortification(ctx.state, x):  # BFA-20
                eliminate(ctx, x.id, f"{reason} (seed 003 CRT)")
                affected.append(x.id)
    if not _companions(ctx.state, player, step.area):
        leaders = [x.id for x in members if board.is_leader(ctx.state, x)]
        _kill(ctx, leaders, "all the counters with him are gone")
        affected.extend(leaders)
    ctx.emit(StackEliminated(side=step.side, area=step.area, counters=affected))


def _ruin_site(ctx: Ctx, area: str) -> None:
    site = board.intact_site_in(ctx.state, area)
    if site is not None:
        track = board.build_track(ctx.state) - site.defence
        ctx.emit(SiteRuined(site=site.id, area=area, defence=site.defence, track=track))


# -- retreats -----------------------------------------------------------------------------------


def retreat_options(state: State, counter: Counter, area: str) -> list[str]:
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


def _retreat_need(state: State, c: Combat, step: Step) -> Need:
    player = owner(c, step.side)
    area = step.area
    here = board.counters_in(state, area, player)
    yarrick = next((x for x in here if board.has_ability(state, x, "ignore_retreat")), None)
    if yarrick is not None:
        return Need(
            "auto",
            run=lambda ctx: ctx.emit(RetreatIgnored(side=step.side, area=area, leader=yarrick.id)),
        )
    if step.side == "defender" and board.intact_site_in(state, area) is not None:
        return Need("auto", run=lambda ctx: _ruin_site(ctx, area))
    forts = [x.id for x in here if board.is_fortification(state, x)]
    if forts:
        return Need(
            "auto",
            run=lambda ctx: _kill_plain(ctx, forts, "its stack was forced to retreat"),
        )
    # seed 003: counters that already retreated this phase die if forced to retreat again (BFA-20)
    twice = [x.id for x in here if step.side == "defender" and x.id in c.passive]
    if twice:
        return Need(
            "auto",
            run=lambda ctx: _kill_plain(ctx, twice, "forced to retreat a second time in the phase"),
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
            return Need(
                "auto", run=lambda ctx: _kill(ctx, ids, "all the counters with him are gone")
            )
        return _retreat_choice(state, player, step, members[0])
    return Need("auto", run=lambda ctx: ctx.emit(RetreatCompleted(side=step.side, area=area)))


def _kill_plain(ctx: Ctx, ids: list[str], reason: str) -> None:
    for cid in ids:
        eliminate(ctx, cid, f"{reason} (seed 003)")


def _retreat_choice(state: State, player: str, step: Step, counter: Counter) -> Need:
    options = retreat_options(state, counter, step.area)
    if len(options) > 1:
        return Need(
            "retreat",
            player=player,
            side=step.side,
            area=step.area,
            counter=counter.id,
            options=tuple(options),
        )
    only = options[0] if options else ""
    return Need("auto", run=lambda ctx: apply_retreat(ctx, counter.id, step.area, only))


def apply_retreat(ctx: Ctx, counter_id: str, area: str, to: str) -> None:
    """Move the counter one area, or eliminate it when it has nowhere to go (``to == ""``)."""
    if to:
        ctx.emit(CounterRetreated(counter=counter_id, from_area=area, to=to))
    else:
        eliminate(ctx, counter_id, "could not retreat (seed 003 Retreating)")


# -- advance ------------------------------------------------------------------------------------


def advance_options(state: State) -> list[Counter]:
    """seed 003 CRT: attacking counters with Move 2+ still in the area they attacked from."""
    c = _combat(state)
    out: list[Counter] = []
    for cid, src in c.attackers.items():
        x = state.counters[cid]
        if x.location == src and board.move_of(state, x) >= ADVANCE_MIN_MOVE:
            out.append(x)
    return out


def _advance_need(state: State, c: Combat, step: Step) -> Need:
    vacated = not board.occupied_by(state, c.target, c.defender)
    options = advance_options(state) if vacated else []
    if not options:
        return Need("auto", run=lambda ctx: ctx.emit(Advanced(counters=[], to=c.target)))
    return Need(
        "advance",
        player=c.attacker,
        side="attacker",
        area=c.target,
        options=tuple(x.id for x in options),
    )


def advance_problem(state: State, chosen: list[str]) -> str | None:
    """Why the attacker may not advance ``chosen``, or None (BFA-7: leaders go free of the 3)."""
    c = _combat(state)
    allowed = {x.id for x in advance_options(state)}
    if len(set(chosen)) != len(chosen):
        return "a counter is named twice"
    for cid in chosen:
        if cid not in allowed:
            return f"{cid} may not advance (it must have attacked, still stand where it attacked from and have Move {ADVANCE_MIN_MOVE}+)"
    counters = [state.counters[cid] for cid in chosen]
    normal = sum(1 for x in counters if board.counts_for_stacking(state, x))
    if normal > ADVANCE_MAX:
        return f"{normal} counters advance; at most {ADVANCE_MAX} may (seed 003 CRT)"
    if not board.fits(state, c.target, counters):
        return f"the advance would break stacking in {c.target}"
    return None


# -- the driver ---------------------------------------------------------------------------------


def _end(ctx: Ctx) -> None:
    c = _combat(ctx.state)
    ctx.emit(CombatEnded(target=c.target, result=c.result, summary=summary(ctx.state, c)))


def summary(state: State, c: Combat) -> str:
    """One line: who attacked what at which odds, the result, and what it cost each side."""
    lost_a = [cid for cid in c.attackers if not board.on_map(state.counters[cid])]
    lost_d = [cid for cid in (*c.defenders, *c.passive) if not board.on_map(state.counters[cid])]
    reduced = [cid for cid in (*c.attackers, *c.defenders) if state.counters[cid].reduced]
    moved = [cid for cid, src in c.attackers.items() if state.counters[cid].location == c.target]
    fled = [cid for cid in c.defenders if cid in c.retreated and board.on_map(state.counters[cid])]
    site = board.site_in(state, c.target)
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


def resolve(ctx: Ctx) -> None:
    """Run automatic steps until a player must choose or the combat is over."""
    while True:
        n = need(ctx.state)
        if n is None or n.run is None:
            return
        n.run(ctx)
