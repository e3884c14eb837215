"""The moves of a challenge (R5; p.28, p.51): what the open challenge waits for, the commands that
answer it, and their legal options.

A challenge is a frame on the core engine's stack (``frames.py``), on top of the procedure that
opened it. After the roll the defender acts first; the sides then alternate, each spending fate
to re-roll failed dice, playing a tactic card, or accepting; the defender may take the
Defender's Prerogative while the dice deal it no damage and it has not acted. Two accepts in a
row, or the prerogative, end the challenge; its outcome goes to the procedure under it, and if
the challenge deals damage each side's card takes what it was dealt (AE-24).

AE-20: a side whose only move is to accept, as both sides can tell from what they see (no
prerogative, no fate with a failed die to re-roll, and no card in hand or no AP to play a
tactic), accepts automatically: so that battles are not dozens of empty commands, and so that
waiting or not never tells the opponent what the hand holds.

AE-19: an empire acting outside its own turn owes the AP of its moves (a tactic card, R11) and
pays it when its next turn begins, never owing more than ``MAX_AP_OWED``.
"""

from __future__ import annotations

import msgspec

from warlog.domain.armageddon_empires import tactics
from warlog.domain.armageddon_empires.bases import base_of_card
from warlog.domain.armageddon_empires.battle_events import BaseRazed
from warlog.domain.armageddon_empires.cards import AttackCard, HeroCard, TacticCard, damage_limit
from warlog.domain.armageddon_empires.challenge import (
    Challenge,
    ChallengeKind,
    Role,
    Side,
    failed_positions,
)
from warlog.domain.armageddon_empires.challenge_events import (
    CardDamaged,
    ChallengeAccepted,
    ChallengeOpened,
    ChallengeResolved,
    FateSpent,
    PrerogativeTaken,
    StealthedController,
    TacticPlayed,
)
from warlog.domain.armageddon_empires.commands import (
    CHALLENGE_COMMANDS,
    AcceptChallenge,
    PlayTactic,
    SpendFate,
    TakePrerogative,
)
from warlog.domain.armageddon_empires.costs import MAX_AP_OWED, TACTIC_AP
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import reject
from warlog.domain.core.events import Event
from warlog.domain.core.procedure import Decision, Step
from warlog.domain.core.ruleset import Command

#: the commands that answer an open challenge (tags)
ANSWERS: tuple[str, ...] = tuple(c.type_name() for c in CHALLENGE_COMMANDS)
PROCEDURE = "challenge"


# ---------------------------------------------------------------------- reading the state


def top_challenge(state: GameState) -> Challenge:
    """The open challenge (the top frame); callers know one is open."""
    top = state.frames[-1]
    assert isinstance(top, Challenge)
    return top


def hero_fate_left(state: GameState, hero: str | None) -> int:
    """The fate points not spent this round (R6) of a hero, or of an attack card, which carries
    its own and keeps what it spent between the challenges of one attack (p.19, p.30)."""
    if hero is None:
        return 0
    spec = state.card(hero).spec
    fate = spec.fate if isinstance(spec, HeroCard | AttackCard) else 0
    return max(0, fate - state.fate_spent.get(hero, 0))


def fate_left(state: GameState, side: Side) -> int:
    """The fate a side may spend now: what cards gave it in this challenge, then its hero's."""
    return side.fate_bonus + hero_fate_left(state, side.fate_hero)


def in_own_turn(state: GameState, empire: str) -> bool:
    return state.phase == "turns" and state.current == empire


def tactic_payable(state: GameState, empire: str) -> bool:
    """Whether the empire can pay a tactic card's AP now: from its AP in its own turn, as AP
    owed outside it (AE-19)."""
    emp = state.empires[empire]
    if in_own_turn(state, empire):
        return emp.ap >= TACTIC_AP
    return emp.ap_owed + TACTIC_AP <= MAX_AP_OWED


def only_accept(state: GameState, ch: Challenge) -> bool:
    """AE-20: the side to act has no move but accepting, judged only from what both sides see:
    the dice, fate, the hand's size (never its cards) and AP owed (in its own turn an empire's
    AP is its own secret, AE-17, so it is asked whenever it holds a card)."""
    side = ch.side(ch.to_act)
    if ch.prerogative_open():
        return False
    if fate_left(state, side) > 0 and failed_positions(side.faces):
        return False
    if not state.empires[side.empire].hand:
        return True
    return not (in_own_turn(state, side.empire) or tactic_payable(state, side.empire))


# ---------------------------------------------------------------------- the procedure


def challenge_next(state: GameState, ch: Challenge) -> Decision | Step:
    """What the open challenge waits for (module doc)."""
    if ch.ended is not None:
        return _resolve
    if only_accept(state, ch):
        return _accept_automatically
    side = ch.side(ch.to_act)
    return Decision(
        players=(side.empire,),
        kind="challenge",
        answers=ANSWERS,
        waiting=(
            f"{side.empire}'s answer as the {ch.to_act} ({side.name}) in challenge {ch.number} "
            f"({ch.purpose})"
        ),
        procedure=PROCEDURE,
        about={"challenge": str(ch.number), "role": ch.to_act, "purpose": ch.purpose},
    )


#: AE-49: since version 12 a card's public ``card_damaged`` tells the damage it has taken in the
#: open, not what hidden challenges (collateral damage, WMD, minefields) dealt it: before, its
#: ``total`` counted those too, so that the other empire learnt them from the card's next open
#: damage
OPEN_TOTAL_SINCE = 12


def damage(state: GameState, card: str, amount: int, challenge: int, note: str = "") -> CardDamaged:
    """``card_damaged``: the card takes ``amount``; destroyed at its points (AE-24). ``note``:
    how the amount was reached (the challenge's damage and its modifiers). Its ``total`` is the
    damage taken in the open (``OPEN_TOTAL_SINCE``; the whole before version 12)."""
    whole = state.damage.get(card, 0) + amount
    total = whole
    if state.rules_version >= OPEN_TOTAL_SINCE:
        total -= state.hidden_damage.get(card, 0)
    limit = damage_limit(state.card(card).spec)
    return CardDamaged(
        card=card,
        owner=state.instances[card].owner,
        amount=amount,
        total=total,
        limit=limit,
        destroyed=whole >= limit,
        challenge=challenge,
        note=note,
    )


def damage_events(
    state: GameState, card: str, amount: int, challenge: int, note: str = ""
) -> list[Event]:
    """``card_damaged`` (AE-24), and ``base_razed`` when it destroys a base's own card (AE-34)."""
    hit = damage(state, card, amount, challenge, note)
    out: list[Event] = [hit]
    base = base_of_card(state, card)
    if hit.destroyed and base is not None:
        out.append(
            BaseRazed(
                base=base.id,
                empire=base.empire,
                at=base.at,
                facilities=base.facilities,
                freed=base.prisoners,
            )
        )
    return out


def _resolve(batch: Batch[GameState]) -> None:
    ch = top_challenge(batch.state)
    assert ch.ended is not None
    outcome = ch.outcome(ch.ended)
    batch.emit(ChallengeResolved(challenge=ch, outcome=outcome))
    if not ch.deals_damage:
        return
    hits = [(ch.defender, outcome.damage_to_defender), (ch.attacker, outcome.damage_to_attacker)]
    for side, amount in hits:
        if side is not None and side.card in batch.state.instances and amount > 0:
            assert side.card is not None
            batch.emit(*damage_events(batch.state, side.card, amount, ch.number))


def _accepted(ch: Challenge, role: Role, line: str) -> Challenge:
    accepts = ch.accepts + 1
    return msgspec.structs.replace(
        ch,
        accepts=accepts,
        to_act=ch.other(role) or role,
        story=(*ch.story, line),
        ended="accepts" if accepts >= ch.accepts_needed else None,
    )


def _acted(ch: Challenge, role: Role, line: str) -> Challenge:
    """The challenge after a side's move other than accepting: the defender cedes the
    prerogative, the accepts in a row start again, and the other side is to act (R5)."""
    return msgspec.structs.replace(
        ch,
        ceded=ch.ceded or role == "defender",
        accepts=0,
        to_act=ch.other(role) or role,
        story=(*ch.story, line),
    )


def _accept_automatically(batch: Batch[GameState]) -> None:
    ch = top_challenge(batch.state)
    empire = ch.side(ch.to_act).empire
    line = f"{empire} ({ch.to_act}) accepts automatically: no other move (AE-20)"
    batch.emit(
        ChallengeAccepted(
            empire=empire,
            role=ch.to_act,
            automatic=True,
            challenge=_accepted(ch, ch.to_act, line),
        )
    )


# ---------------------------------------------------------------------- opening one


def open_challenge(
    batch: Batch[GameState],
    *,
    kind: ChallengeKind,
    purpose: str,
    attacker: Side,
    defender: Side | None,
    threshold: int = 0,
    deals_damage: bool = False,
    stealthed_controllers: tuple[StealthedController, ...] | msgspec.UnsetType = msgspec.UNSET,
) -> Challenge:
    """Roll both pools (each side's own public roll) and put the challenge on the stack with
    ``challenge_opened``; the defender acts first (R5), the single side of a threshold one.
    ``stealthed_controllers``: what an Air-To-Ground pool left out, recorded with it (AE-42)."""
    n = batch.state.challenges + 1
    a = batch.roll(
        attacker.pool.size, purpose=f"challenge {n}: {attacker.name}", roller=attacker.empire
    )
    attacker = msgspec.structs.replace(attacker, faces=tuple(a))
    line = f"rolled: {attacker.name} {attacker.dice_text()}"
    if defender is not None:
        d = batch.roll(
            defender.pool.size, purpose=f"challenge {n}: {defender.name}", roller=defender.empire
        )
        defender = msgspec.structs.replace(defender, faces=tuple(d))
        line += f"; {defender.name} {defender.dice_text()}"
    ch = Challenge(
        number=n,
        kind=kind,
        purpose=purpose,
        round=batch.state.round,
        attacker=attacker,
        defender=defender,
        threshold=threshold,
        to_act="defender" if defender is not None else "attacker",
        deals_damage=deals_damage,
        story=(line,),
    )
    batch.emit(ChallengeOpened(challenge=ch, stealthed_controllers=stealthed_controllers))
    return ch


def threshold_at_once(
    batch: Batch[GameState], *, purpose: str, side: Side, threshold: int
) -> Challenge:
    """A threshold challenge resolved at once, out of every other empire's sight (p.28; AE-73):
    the side's pool rolled by the referee's hidden roll, its successes against ``threshold``,
    ties succeeding. No fate is spent in it: fate spent where the other empire cannot see would
    leave the hero with less than it counts, which the next open challenge of the round would
    show it (AE-73). Nobody answers it, so neither its moves nor what the game waits for tell
    another empire anything, and the dice are the referee's, since every empire learns a part
    of the outcome (a card more in a hand, AE-7). Returns the challenge, numbered next and
    resolved (``ended``), for the event of the procedure that opened it to carry, sealed."""
    n = batch.state.challenges + 1
    rolled = batch.roll(side.pool.size, purpose=f"challenge {n}: {purpose}", roller="", hidden=True)
    side = msgspec.structs.replace(side, faces=tuple(rolled))
    story = (
        f"rolled: {side.name} {side.dice_text()}",
        f"{side.empire} accepts: nobody else answers a threshold challenge (p.28)",
    )
    return Challenge(
        number=n,
        kind="threshold",
        purpose=purpose,
        round=batch.state.round,
        attacker=side,
        defender=None,
        threshold=threshold,
        to_act="attacker",
        accepts=1,
        story=story,
        ended="accepts",
    )


# ---------------------------------------------------------------------- the commands


def take_prerogative(batch: Batch[GameState], cmd: TakePrerogative) -> None:
    """``prerogative_taken``; ``rules/no_prerogative`` unless the defender may take it (R5)."""
    ch = top_challenge(batch.state)
    if not ch.prerogative_open():
        if ch.to_act != "defender" or ch.defender is None:
            why = "only the defender has the prerogative"
        elif ch.ceded:
            why = "the defender acted in this challenge and so ceded its prerogative"
        else:
            why = (
                f"the dice deal the defender damage ({ch.attacker.successes} > "
                f"{ch.defender.successes} successes)"
            )
        raise reject(f"no Defender's Prerogative now: {why} (p.28; R5)", "no_prerogative")
    line = f"{cmd.player} (defender) takes the Defender's Prerogative"
    done = msgspec.structs.replace(ch, story=(*ch.story, line), ended="prerogative")
    batch.emit(PrerogativeTaken(empire=cmd.player, challenge=done))


def spend_fate(batch: Batch[GameState], cmd: SpendFate) -> None:
    """A fate re-roll of the side's first ``count`` failed dice and ``fate_spent``;
    ``rules/not_enough_fate`` or ``rules/no_failed_dice`` (R5, R6; AE-16)."""
    state = batch.state
    ch = top_challenge(state)
    role = ch.to_act
    side = ch.side(role)
    left = fate_left(state, side)
    failed = failed_positions(side.faces)
    if cmd.count > left:
        raise reject(
            f"{side.name} has {left} fate to spend, not {cmd.count} (R6)", "not_enough_fate"
        )
    if cmd.count > len(failed):
        raise reject(
            f"{side.name} has {len(failed)} failed dice to re-roll, not {cmd.count} (R5)",
            "no_failed_dice",
        )
    from_bonus = min(cmd.count, side.fate_bonus)
    positions = failed[: cmd.count]
    rolled = batch.roll(
        cmd.count, purpose=f"challenge {ch.number}: {side.name} fate re-roll", roller=side.empire
    )
    faces = list(side.faces)
    for i, face in zip(positions, rolled, strict=True):
        faces[i] = face
    side = msgspec.structs.replace(
        side,
        faces=tuple(faces),
        fate_bonus=side.fate_bonus - from_bonus,
        fate_spent=side.fate_spent + cmd.count,
    )
    line = f"{side.empire} ({role}) spends {cmd.count} fate: dice {positions} re-rolled → {rolled}"
    batch.emit(
        FateSpent(
            empire=side.empire,
            role=role,
            count=cmd.count,
            hero=side.fate_hero,
            from_hero=cmd.count - from_bonus,
            positions=tuple(positions),
            rolled=tuple(rolled),
            challenge=_acted(ch.with_side(role, side), role, line),
        )
    )


def play_tactic(batch: Batch[GameState], cmd: PlayTactic) -> None:
    """The card's rolls (if any) and ``tactic_played``; ``rules/not_in_hand``,
    ``rules/not_a_tactic``, ``rules/tactic_not_playable`` or ``rules/not_enough_ap``."""
    state = batch.state
    ch = top_challenge(state)
    role = ch.to_act
    side = ch.side(role)
    emp = state.empires[cmd.player]
    if cmd.card not in emp.hand:
        raise reject(f"card {cmd.card!r} is not in {cmd.player}'s hand", "not_in_hand")
    spec = state.card(cmd.card).spec
    if not isinstance(spec, TacticCard):
        raise reject(f"{cmd.card} is not a tactic card (p.51)", "not_a_tactic")
    why = tactics.unplayable(ch, role, spec.effect)
    if why:
        raise reject(
            f"{cmd.card} '{spec.printed()}' cannot be played: {why}", "tactic_not_playable"
        )
    own = in_own_turn(state, cmd.player)
    if not tactic_payable(state, cmd.player):
        if own:
            have = f"{cmd.player} has {emp.ap}"
        else:
            have = f"{cmd.player} already owes {emp.ap_owed} of at most {MAX_AP_OWED} (AE-19)"
        raise reject(f"a tactic card costs {TACTIC_AP} AP; {have}", "not_enough_ap")
    count = tactics.dice_to_roll(ch, role, spec.effect, spec.amount)
    rolled = batch.roll(count, purpose=f"challenge {ch.number}: {spec.name}", roller=cmd.player)
    other = ch.other(role)
    enemy_hero = None if other is None else ch.side(other).fate_hero
    played = tactics.play(
        ch, role, spec.effect, spec.amount, rolled, hero_fate_left(state, enemy_hero)
    )
    line = f"{side.empire} ({role}) plays {spec.name}: {played.line}"
    batch.emit(
        TacticPlayed(
            empire=cmd.player,
            role=role,
            card=cmd.card,
            printed=spec.printed(),
            ap_cost=TACTIC_AP,
            owed=not own,
            burnt_hero=enemy_hero if played.burnt_hero_fate else None,
            burnt=played.burnt_hero_fate,
            rolled=tuple(rolled),
            line=played.line,
            challenge=_acted(played.challenge, role, line),
        )
    )


def accept_challenge(batch: Batch[GameState], cmd: AcceptChallenge) -> None:
    """``challenge_accepted`` (R5); two in a row end the challenge."""
    ch = top_challenge(batch.state)
    line = f"{cmd.player} ({ch.to_act}) accepts"
    batch.emit(
        ChallengeAccepted(
            empire=cmd.player,
            role=ch.to_act,
            automatic=False,
            challenge=_accepted(ch, ch.to_act, line),
        )
    )


# ---------------------------------------------------------------------- legal options


def legal_answers(state: GameState, player: str) -> list[Command]:
    """Every answer ``player`` (the side to act) may give: the prerogative, each fate spend,
    each tactic card it can play, and accepting (last)."""
    ch = top_challenge(state)
    role = ch.to_act
    side = ch.side(role)
    out: list[Command] = []
    if ch.prerogative_open():
        out.append(TakePrerogative(player=player))
    most = min(fate_left(state, side), len(failed_positions(side.faces)))
    out += [SpendFate(player=player, count=n) for n in range(1, most + 1)]
    if tactic_payable(state, player):
        for card in state.empires[player].hand:
            spec = state.card(card).spec
            if isinstance(spec, TacticCard) and tactics.unplayable(ch, role, spec.effect) is None:
                out.append(PlayTactic(player=player, card=card))
    out.append(AcceptChallenge(player=player))
    return out
