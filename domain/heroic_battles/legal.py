"""legal_commands: what a player may do now, every entry accepted by decide as it is.

warlog does not see the table, so the geometry a command declares is the players' to measure.
``legal`` lists each choice once or a few times with **representative declared values** (any
other truthful declaration is accepted by decide as well):

- a movement action straight ahead on open ground, the same in rough terrain, and across a
  barrier; a charge on each enemy's front, flank and rear, on open ground;
- a shot "close" (1 ST, inside the Killing Zone) and "far" (the weapon's full range, outside the
  Killing Zone with none inside it, obscured), and close with 1 Mighty Deed of each hero who may
  spend one;
- a melee declaration with nothing, holding a hill or barrier, the primary fighter in rough
  terrain, each of the first supports on its own, each fighting hero spending all its Mighty
  Deeds, each Inspiring hero spending one;
- a retreat into nothing, blocked, off the table, and into each friendly unit it may reach;
- since version 2 (HB-36), a change of facing, an evade, a shot at a unit and a retreat into
  friends also with the tested unit in rough terrain (the target; the friend).

Where the rules leave a player free to stop (end movement, end shooting, no challenge, accept a
test) that option is always listed, so that play can always go on.
"""

from __future__ import annotations

from warlog.domain.core.procedure import Decision
from warlog.domain.core.ruleset import Command
from warlog.domain.heroic_battles import (
    charges,
    duel,
    melee_fighters,
    movement,
    pieces,
    rulings,
    shooting,
)
from warlog.domain.heroic_battles import commands as cmd
from warlog.domain.heroic_battles.state import GameState, MeleeFrame, Unit

#: supports listed one by one in the melee declarations offered
MAX_LISTED_SUPPORTS = 3

#: the command types whose every accepted form ``options`` lists (``Ruleset.complete_legal``):
#: those without fields, or whose fields name only what the game offers (a hero joining each
#: unit ``movement.join_problem`` allows, one leaving its unit; the charged unit's answer, a
#: charge pressed into contact or not; each hero who may reroll a test, the hero at risk; each
#: challenge ``duel.challengers`` pairs, the challenged hero's answer; every number of Mighty
#: Deeds a hero in single combat may spend; the pursuit, the disengaging unit's choice; the
#: roll). Left out: every command that carries what only the table shows (module doc): a
#: move's direction, rough ground and barrier, a charge's facing and ground, a change of
#: facing's and an evade's rough ground, a shot's distance, Killing Zone, cover and deeds, a
#: melee declaration's supports (``MAX_LISTED_SUPPORTS`` listed, one by one), ground, hill and
#: deeds, a retreat's rough ground: ``legal`` offers representative values of these, and decide
#: accepts any other truthful declaration
COMPLETE: frozenset[str] = frozenset(
    {
        "join_unit",
        "leave_unit",
        "end_movement",
        "counter_charge",
        "receive_charge",
        "press_charge",
        "reroll_test",
        "accept_test",
        "end_shooting",
        "reroll_risk",
        "accept_risk",
        "challenge",
        "no_challenge",
        "accept_challenge",
        "refuse_challenge",
        "spend_deeds",
        "pursue",
        "hold_ground",
        "disengage",
        "stay_engaged",
        "roll",
    }
)


def options(state: GameState, d: Decision, player: str) -> list[Command]:
    """The commands with which ``player`` may answer the decision ``d`` (``Rules.options``)."""
    kind = d.kind
    if kind == "movement":
        return _movement(state, player)
    if kind in ("skirmish", "shooting"):
        return [*_shots(state, player, skirmish=kind == "skirmish"), cmd.EndShooting(player=player)]
    if kind == "charge_response":
        unit = d.about["unit"]
        make = {
            "evade": cmd.Evade,
            "counter_charge": cmd.CounterCharge,
            "receive_charge": cmd.ReceiveCharge,
        }
        answers = [make[a](player=player, unit=unit) for a in d.answers]
        if "evade" in d.answers and _rough(state) and unit in state.units:
            answers.insert(1, cmd.Evade(player=player, unit=unit, rough=True))
        return answers
    if kind == "charge_follow_up":
        return [
            cmd.PressCharge(player=player, contact=True),
            cmd.PressCharge(player=player, contact=False),
        ]
    if kind == "reroll_test":
        return [
            *(cmd.RerollTest(player=player, hero=h) for h in d.options),
            cmd.AcceptTest(player=player),
        ]
    if kind == "risk_reroll":
        at_risk = d.about["hero"]
        return [
            cmd.RerollRisk(player=player, hero=at_risk),
            cmd.AcceptRisk(player=player, hero=at_risk),
        ]
    if kind == "challenge":
        pairs = duel.challengers(state, player)
        return [
            *(cmd.Challenge(player=player, hero=a, opponent=b) for a, b in pairs),
            cmd.NoChallenge(player=player),
        ]
    if kind == "challenge_answer":
        challenged = d.about["hero"]
        out: list[Command] = [cmd.AcceptChallenge(player=player, hero=challenged)]
        if duel.may_refuse(state.heroes[challenged]):
            out.append(cmd.RefuseChallenge(player=player, hero=challenged))
        return out
    if kind == "single_combat_deeds":
        hero = state.heroes[d.about["hero"]]
        return [cmd.SpendDeeds(player=player, hero=hero.id, deeds=n) for n in range(hero.deeds + 1)]
    if kind == "melee":
        return _declarations(state, player, d.about["combat"])
    if kind == "pursuit":
        return [cmd.Pursue(player=player), cmd.HoldGround(player=player)]
    if kind == "disengage":
        unit = d.about["unit"]
        return [cmd.Disengage(player=player, unit=unit), cmd.StayEngaged(player=player, unit=unit)]
    if kind == "retreat":
        return _retreats(state, player, d)
    if kind == "roll":
        return [cmd.Roll(player=player)]
    return []  # pragma: no cover - every decision kind is listed above


def _movement(state: GameState, player: str) -> list[Command]:
    out: list[Command] = []
    movers = movement.movable(state, player)
    enemies = charges.targets(state, player)
    for p in movers:
        out.append(cmd.Move(player=player, unit=p.id))
        if isinstance(p, Unit):
            out.append(cmd.Move(player=player, unit=p.id, rough=True))
            out.append(cmd.Move(player=player, unit=p.id, barrier=True))
            if movement.facing_problem(state, player, p.id) is None:
                out.append(cmd.ChangeFacing(player=player, unit=p.id))
                if _rough(state):
                    out.append(cmd.ChangeFacing(player=player, unit=p.id, rough=True))
        for target in enemies:
            out.extend(
                cmd.Charge(player=player, unit=p.id, target=target.id, facing=facing)
                for facing in charges.FACINGS
            )
    for hero in state.heroes.values():
        if hero.force != player or hero.gone:
            continue
        if hero.unit:
            out.append(cmd.LeaveUnit(player=player, hero=hero.id))
            continue
        for unit in state.units.values():
            if movement.join_problem(state, player, hero.id, unit.id) is None:
                out.append(cmd.JoinUnit(player=player, hero=hero.id, unit=unit.id))
    out.append(cmd.EndMovement(player=player))
    return out


def _shots(state: GameState, player: str, skirmish: bool) -> list[Command]:
    out: list[Command] = []
    targets = shooting.targets(state, player)
    for p in shooting.shooters(state, player, skirmish):
        reach = shooting.weapon_range(p)
        spenders = [h for h in shooting.deed_heroes(state, p) if h.deeds > 0]
        for target in targets:
            out.append(cmd.Shoot(player=player, shooter=p.id, target=target.id, distance=1))
            out.append(
                cmd.Shoot(
                    player=player,
                    shooter=p.id,
                    target=target.id,
                    distance=reach,
                    in_killing_zone=False,
                    none_in_killing_zone=True,
                    obscured=True,
                )
            )
            out.extend(
                cmd.Shoot(
                    player=player, shooter=p.id, target=target.id, distance=1, deeds={h.id: 1}
                )
                for h in spenders
            )
            if _rough(state) and target.id in state.units:
                out.append(
                    cmd.Shoot(
                        player=player,
                        shooter=p.id,
                        target=target.id,
                        distance=1,
                        target_rough=True,
                    )
                )
    return out


def _declarations(state: GameState, player: str, combat_id: str) -> list[Command]:
    frame = state.frames[-1]
    assert isinstance(frame, MeleeFrame)
    c = pieces.combat(state, combat_id)
    assert c is not None
    base = cmd.DeclareMelee(player=player, combat=combat_id)
    out: list[Command] = [base, cmd.DeclareMelee(player=player, combat=combat_id, holding=True)]
    mine = pieces.fighters(c, player)
    if mine:
        out.append(cmd.DeclareMelee(player=player, combat=combat_id, rough=[mine[0]]))
    for unit in melee_fighters.supporters(state, player)[:MAX_LISTED_SUPPORTS]:
        out.append(cmd.DeclareMelee(player=player, combat=combat_id, supports=[unit.id]))
    for hero in melee_fighters.fighting_heroes(state, c, player):
        if hero.deeds and not pieces.has(hero, "non_combatant"):
            out.append(
                cmd.DeclareMelee(player=player, combat=combat_id, deeds={hero.id: hero.deeds})
            )
    for hero in melee_fighters.inspirers(state, player):
        out.append(cmd.DeclareMelee(player=player, combat=combat_id, inspire={hero.id: 1}))
    return out


def _rough(state: GameState) -> bool:
    """Rough terrain is declared for every command test in this game's rules version (HB-36)."""
    return rulings.rough_terrain_tests(state.rules_version)


def _retreats(state: GameState, player: str, d: Decision) -> list[Command]:
    unit = d.about["unit"]
    out: list[Command] = []
    for into in rulings.RETREAT_OUTCOMES:
        if into in d.options:
            out.append(cmd.DeclareRetreat(player=player, unit=unit, into=into))
    for option in d.options:
        if option.startswith("friends:"):
            friend = option.removeprefix("friends:")
            out.append(cmd.DeclareRetreat(player=player, unit=unit, into="friends", friend=friend))
            if _rough(state) and not pieces.has(state.units[friend], "steadfast"):
                out.append(
                    cmd.DeclareRetreat(
                        player=player, unit=unit, into="friends", friend=friend, rough=[friend]
                    )
                )
    return out
