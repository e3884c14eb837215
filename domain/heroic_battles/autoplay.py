"""A deterministic policy that plays a whole battle: ``choose(state, player, legal)``.

No randomness: the same state and legal list give the same command. The table it imagines is
simple: on the first turn both lines advance and the skirmishers shoot; from the second turn
every formed unit charges an enemy to its front (spreading its charges over the enemy line);
heroes spend their Mighty Deeds in melee, challenge enemies of their level or lower, re-roll the
tests that would break a unit; winners pursue; retreats run into nothing. Used by the demo, the
recorded fixture game and the benchmarks.
"""

from __future__ import annotations

from collections.abc import Sequence

from warlog.domain.core.ruleset import Command
from warlog.domain.heroic_battles import commands as cmd
from warlog.domain.heroic_battles import pieces
from warlog.domain.heroic_battles.decisions import decision
from warlog.domain.heroic_battles.shooting import SKIRMISH_TYPES
from warlog.domain.heroic_battles.state import GameState, Unit

#: the turn from which formed units charge
CHARGE_FROM_TURN = 2
#: command tests worth a Mighty Deed's re-roll
REROLLED_TESTS = frozenset({"break", "shot", "charge"})


def choose(state: GameState, player: str, legal: list[Command]) -> Command:
    """The command this policy plays from ``legal`` (which must not be empty)."""
    d = decision(state)
    if d is None or not legal:
        raise ValueError("nothing to choose from")
    kind = d.kind
    if kind == "movement":
        return _movement(state, player, legal)
    if kind in ("skirmish", "shooting"):
        return _shooting(legal)
    if kind == "charge_response":
        return _first(legal, (cmd.Evade, cmd.CounterCharge, cmd.ReceiveCharge))
    if kind == "reroll_test":
        wanted = d.about.get("purpose", "") in REROLLED_TESTS
        return _first(legal, (cmd.RerollTest, cmd.AcceptTest) if wanted else (cmd.AcceptTest,))
    if kind == "risk_reroll":
        hero = state.heroes[d.about["hero"]]
        frame_faces = _risk_ones(state)
        dying = hero.stamina <= frame_faces
        return _first(legal, (cmd.RerollRisk, cmd.AcceptRisk) if dying else (cmd.AcceptRisk,))
    if kind == "challenge":
        return _challenge(state, legal)
    if kind == "challenge_answer":
        return _answer(state, d.about["hero"], d.about["challenger"], legal)
    if kind == "single_combat_deeds":
        return max(legal, key=lambda c: c.deeds if isinstance(c, cmd.SpendDeeds) else -1)
    if kind == "melee":
        with_deeds = [c for c in legal if isinstance(c, cmd.DeclareMelee) and c.deeds]
        return with_deeds[0] if with_deeds else legal[0]
    if kind == "retreat":
        return _first(legal, (cmd.DeclareRetreat,))
    if kind == "roll":
        return _first(legal, (cmd.Roll,))
    # charge_follow_up (make contact), pursuit (pursue), disengage (stay engaged)
    preferred: dict[str, tuple[type[Command], ...]] = {
        "charge_follow_up": (cmd.PressCharge,),
        "pursuit": (cmd.Pursue,),
        "disengage": (cmd.StayEngaged,),
    }
    return _first(legal, preferred.get(kind, ()))


def _first(legal: Sequence[Command], kinds: tuple[type[Command], ...]) -> Command:
    for kind in kinds:
        for c in legal:
            if type(c) is kind:
                return c
    return legal[0]


def _risk_ones(state: GameState) -> int:
    frame = state.frames[-1]
    entries = getattr(frame, "entries", ())
    return sum(1 for f in entries[0].faces if f == 1) if entries else 0


def _skirmisher(state: GameState, pid: str) -> bool:
    p = pieces.piece(state, pid)
    return isinstance(p, Unit) and p.type in SKIRMISH_TYPES and p.shooting_dice > 0


def _movement(state: GameState, player: str, legal: list[Command]) -> Command:
    fresh = [
        c
        for c in legal
        if isinstance(c, cmd.Move | cmd.Charge)
        and pieces.find(state, c.unit).actions == 0
        and not pieces.find(state, c.unit).done
    ]
    if state.turn >= CHARGE_FROM_TURN:
        charges = [
            c
            for c in fresh
            if isinstance(c, cmd.Charge) and c.facing == "front" and not _skirmisher(state, c.unit)
        ]
        if charges:
            return _spread(state, charges)
    else:
        moves = [
            c
            for c in fresh
            if isinstance(c, cmd.Move) and not c.rough and not c.barrier and c.direction == "ahead"
        ]
        if moves:
            return moves[0]
    return _first(legal, (cmd.EndMovement,))


def _spread(state: GameState, charges: list[cmd.Charge]) -> Command:
    """The first charger's charge on the enemy fewest of its side are fighting already, free
    enemies first."""
    charger = charges[0].unit
    mine = [c for c in charges if c.unit == charger]

    def engaged(target: str) -> tuple[bool, int]:
        combat = pieces.combat_of(state, target)
        return (combat is not None, len(combat.sides) if combat is not None else 0)

    return min(mine, key=lambda c: engaged(c.target))


def _shooting(legal: list[Command]) -> Command:
    shots = [c for c in legal if isinstance(c, cmd.Shoot) and c.distance == 1 and not c.deeds]
    return shots[0] if shots else _first(legal, (cmd.EndShooting,))


def _challenge(state: GameState, legal: list[Command]) -> Command:
    best: cmd.Challenge | None = None
    margin = -1
    for c in legal:
        if isinstance(c, cmd.Challenge):
            m = state.heroes[c.hero].level - state.heroes[c.opponent].level
            if m > margin:
                best, margin = c, m
    return best if best is not None and margin >= 0 else _first(legal, (cmd.NoChallenge,))


def _answer(state: GameState, hero: str, challenger: str, legal: list[Command]) -> Command:
    brave = state.heroes[hero].level >= state.heroes[challenger].level
    return _first(legal, (cmd.AcceptChallenge,) if brave else (cmd.RefuseChallenge,))
