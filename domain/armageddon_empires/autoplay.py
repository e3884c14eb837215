"""A deterministic policy that plays whole games (the demo, fuzzing, and the tests use it).

``choose`` picks from the legal commands without any randomness: in a challenge, take the
prerogative when offered, play a tactic card or else spend fate while the dice go against it,
else accept; in a turn, buy initiative dice (up to two, keeping Energy for later
rounds), lift a known enemy minefield an Engineer's army stands in, lay a minefield card where
an Engineer's army stands next to an enemy base or a spotted enemy army, deploy what the hand
allows, play an attack card on the first hex it may strike, loaded with a munition when the
hand holds one it may carry (its intercept window answered with the first card that may
intercept; from the ground, fire each gunner but one whose Anti-Air the attack card's HARM
outnumbers, then launch no more), hunt a spotted hero, assassinate one (AE-71), sabotage (AE-72), create a card whose threshold
the hero's dice reach (AE-73), repair, stealth an army that can, send
garrison units beyond the first into a field army at the base (creating one if there is
none), move a combat-capable army onto a spotted hero alone, move field armies toward the
nearest enemy stronghold or outpost, draw while the hand has room, end the turn.
Every command it returns is one of ``legal``; with an end_turn always legal in a turn, and
max_rounds ending the game, repeated play always finishes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from warlog.domain.armageddon_empires.abilities import level
from warlog.domain.armageddon_empires.challenge_moves import top_challenge
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    Assassinate,
    BuyInitiative,
    CreateArmy,
    CreateCard,
    DeployCard,
    DrawCard,
    EndTurn,
    EngageStealth,
    GroundToAirChallenge,
    HuntHero,
    LayMinefield,
    LiftMinefield,
    MoveArmy,
    PlayAttackCard,
    PlayTactic,
    RepairCard,
    Sabotage,
    SpendFate,
    TakePrerogative,
    TransferCards,
)
from warlog.domain.armageddon_empires.flying_card import top_strike
from warlog.domain.armageddon_empires.ground_to_air import ANTI_AIR, HARM
from warlog.domain.armageddon_empires.movement import huntable
from warlog.domain.armageddon_empires.research import research_of
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.hexgrid import Hex
from warlog.domain.core.ruleset import Command

#: initiative dice the policy buys each round when it can afford them
INITIATIVE_DICE = 2


def _enemy_targets(state: GameState, player: str) -> list[Hex]:
    return [Hex.parse(b.at) for b in state.bases.values() if b.empire != player]


def _distance(h: Hex, targets: list[Hex]) -> int:
    return min((h.distance(t) for t in targets), default=0)


def _near_enemy(state: GameState, player: str, at: str) -> bool:
    """An enemy base, or an enemy army ``player`` has spotted, stands in or next to hex ``at``."""
    here = Hex.parse(at)
    spotted = [s.at for s in state.sightings.get(player, {}).values()]
    return (
        any(here.distance(Hex.parse(a)) <= 1 for a in spotted)
        or _distance(here, _enemy_targets(state, player)) <= 1
    )


def _unranked(card: str) -> bytes:
    """A key to pick among cards that does not follow their numbers: the lowest of k numbers
    drawn at random is smaller the more there are (AE-62), so a card picked by its number would
    tell the other empire, once it sees it, how many of its kind stood beside it."""
    return hashlib.sha256(card.encode()).digest()


def _muster(state: GameState, legal: Sequence[Command]) -> Command | None:
    """A transfer of a spare garrison unit into a field army that has not moved (the spare
    picked by ``_unranked``, not by its number), or the creation of a field army at a base
    whose garrison has a spare unit and no field army."""
    transfers = [c for c in legal if isinstance(c, TransferCards)]
    for transfer in sorted(transfers, key=lambda t: _unranked(t.cards[0])):
        giver, taker = state.armies[transfer.from_army], state.armies[transfer.to_army]
        spare = (
            giver.garrison_of is not None
            and len(giver.units) > 1
            and transfer.cards[0] in giver.units
        )
        fresh = taker.garrison_of is None and taker.id not in state.empires[taker.empire].moved
        if spare and fresh:
            return transfer
    for c in legal:
        if isinstance(c, CreateArmy):
            here = state.armies_at(c.player, c.at)
            if any(a.garrison_of is not None and len(a.units) > 1 for a in here) and all(
                a.garrison_of is not None for a in here
            ):
                return c
    return None


def _answer(state: GameState, legal: Sequence[Command]) -> Command:
    """A challenge's answer: the prerogative; a tactic card, then fate, while the dice go
    against this side; else accept."""
    for c in legal:
        if isinstance(c, TakePrerogative):
            return c
    ch = top_challenge(state)
    side = ch.side(ch.to_act)
    if ch.defender is None:
        losing = side.successes < ch.threshold
    elif ch.to_act == "defender":
        losing = ch.attacker.successes > ch.defender.successes
    else:
        losing = ch.attacker.successes <= ch.defender.successes
    if losing:
        for c in legal:
            if isinstance(c, PlayTactic):
                return c
        fates = [c for c in legal if isinstance(c, SpendFate)]
        if fates:
            return max(fates, key=lambda c: c.count)
    return next(c for c in legal if isinstance(c, AcceptChallenge))


def _ground_fire(state: GameState, legal: Sequence[GroundToAirChallenge]) -> Command:
    """A Ground-To-Air answer (AE-41): the first gunner whose duel is not lost before it
    begins, a HARM X above its Anti-Air level (p.31); else launching no more."""
    strike = top_strike(state)
    harm = level(state.card(strike.card).abilities, HARM) if strike.craft != "missile" else 0
    for c in legal:
        if c.gunner is not None and level(state.card(c.gunner).abilities, ANTI_AIR) >= harm:
            return c
    return next(c for c in legal if c.gunner is None)


def _research(state: GameState, legal: Sequence[Command]) -> CreateCard | None:
    """The first card a hero may try to create whose threshold his dice reach (AE-73)."""
    for c in legal:
        if isinstance(c, CreateCard):
            found = research_of(state, c.hero, c.card)
            if found is not None:
                ability, entry = found
                if entry.threshold <= level(state.card(c.hero).abilities, ability):
                    return c
    return None


def choose(state: GameState, player: str, legal: Sequence[Command]) -> Command:
    """The command the policy issues for ``player``; ``legal`` must be non-empty."""
    if not legal:
        raise ValueError(f"{player} has no legal command")
    if any(isinstance(c, AcceptChallenge) for c in legal):
        return _answer(state, legal)
    fires = [c for c in legal if isinstance(c, GroundToAirChallenge)]
    if fires:
        return _ground_fire(state, fires)
    buys = [c for c in legal if isinstance(c, BuyInitiative)]
    if buys:
        return max((c for c in buys if c.count <= INITIATIVE_DICE), key=lambda c: c.count)
    for c in legal:
        if isinstance(c, LiftMinefield):
            return c
    for c in legal:
        if isinstance(c, LayMinefield) and _near_enemy(state, player, state.armies[c.army].at):
            return c
    deploys = [c for c in legal if isinstance(c, DeployCard)]
    if deploys:
        return deploys[0]
    strikes = [c for c in legal if isinstance(c, PlayAttackCard)]
    if strikes:  # the first card on the first hex, a unit before a facility (AE-39, AE-42),
        loaded = [c for c in strikes if c.munition]  # loaded with a munition if it can (AE-44)
        return (loaded or strikes)[0]
    for kind in (HuntHero, Assassinate, Sabotage):
        for c in legal:
            if isinstance(c, kind):
                return c
    research = _research(state, legal)
    if research is not None:
        return research
    for later in (RepairCard, EngageStealth):
        for c in legal:
            if isinstance(c, later):
                return c
    for c in legal:
        if isinstance(c, MoveArmy) and c.to in huntable(state, state.armies[c.army]):
            return c
    muster = _muster(state, legal)
    if muster is not None:
        return muster
    targets = _enemy_targets(state, player)
    best: tuple[int, str, str] | None = None
    best_move: MoveArmy | None = None
    for c in legal:
        if not isinstance(c, MoveArmy):
            continue
        here = _distance(Hex.parse(state.armies[c.army].at), targets)
        there = _distance(Hex.parse(c.to), targets)
        if there < here and (best is None or (there, c.army, c.to) < best):
            best, best_move = (there, c.army, c.to), c
    if best_move is not None:
        return best_move
    draws = [c for c in legal if isinstance(c, DrawCard)]
    if draws:
        return draws[0]
    ends = [c for c in legal if isinstance(c, EndTurn)]
    return ends[0] if ends else legal[0]
