"""Ground-To-Air (p.30–31; AE-41): the cards of other empires in the hex that challenge the
flying attack card from the ground, and the window in which their empires fire them.

Every card of another empire in the hex with Anti-Air X (against aircraft and helos) or
Anti-Missile X (against missiles) may challenge the card, free of cost. Since version 13 every
other empire is asked in seat order, whatever the hex holds, and launches its challenges one
gunner at a time in the order it chooses (``ground_to_air_challenge``) until it launches no
more: a gunner shows itself only by firing. In version 12 each gunner was asked about in turn
(``ground_to_air``), bases first, then armies that are not stealthed by id, named to everyone;
before, every gunner fired. Against HARM X the attack card defends with X dice and the challenge
is a duel; there is no HARM against Anti-Missile. A card that survives every challenge goes on
to the Air-To-Ground challenge (``air_to_ground``).
"""

from __future__ import annotations

from msgspec.structs import replace

from warlog.domain.armageddon_empires.abilities import level
from warlog.domain.armageddon_empires.air_events import AirStrikeAdvanced
from warlog.domain.armageddon_empires.air_targets import enemy_base, holder_in_hex
from warlog.domain.armageddon_empires.commands import GroundToAir, GroundToAirChallenge
from warlog.domain.armageddon_empires.flying_card import (
    PROCEDURE,
    challenge_attack_card,
    top_strike,
)
from warlog.domain.armageddon_empires.frames import AirStrike
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, quoted, reject
from warlog.domain.core.procedure import Decision, Step
from warlog.domain.core.ruleset import Command

HARM = "HARM"
ANTI_AIR = "Anti-Air"
ANTI_MISSILE = "Anti-Missile"
GROUND_TO_AIR_ANSWERS: tuple[str, ...] = (GroundToAir.type_name(),)
#: AE-41: since version 12 each gunner's empire chooses whether to fire it (p.30 leaves the
#: challenge to its owner, and closes the window once each is fought or turned down), gunner by
#: gunner in the order of ``gunners``; version 11 and before fired every gunner
GROUND_TO_AIR_ASKED_SINCE = 12
GROUND_TO_AIR_CHALLENGE_ANSWERS: tuple[str, ...] = (GroundToAirChallenge.type_name(),)
#: AE-41: since version 13 every other empire is asked, whatever the hex holds, in seat order,
#: and names each gunner it fires (``ground_to_air_challenge``): a gunner that does not fire is
#: never shown (p.30: the owner chooses to launch the challenge). Version 12 named every gunner
#: in the hex to everyone, units of armies the striker had not sighted among them, and asked
#: about each, so that the striker learnt of gunners that held their fire
GROUND_TO_AIR_UNSEEN_SINCE = 13
#: version 12's answer to the Ground-To-Air window, retired with it (``Rules.retired_commands``)
GROUND_TO_AIR_RETIRED = {
    GroundToAir.type_name(): (
        GROUND_TO_AIR_UNSEEN_SINCE,
        "the Ground-To-Air window asks every other empire which gunner it fires, answered with "
        "ground_to_air_challenge (AE-41)",
    )
}


def gunners(state: GameState, strike: AirStrike) -> tuple[str, ...]:
    """The cards of other empires in the hex that challenge the card from the ground (AE-41):
    Anti-Air against aircraft and helos, Anti-Missile against missiles; the base's first, then
    the units of armies that are not stealthed, by army."""
    name = ANTI_MISSILE if strike.craft == "missile" else ANTI_AIR
    cards: list[str] = []
    base = enemy_base(state, strike.empire, strike.at)
    if base is not None:
        cards += [base.card, *base.facilities]
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        if army.empire != strike.empire and army.at == strike.at and not army.stealthed:
            cards += army.units
    return tuple(c for c in cards if level(state.card(c).abilities, name))


def to_ground(batch: Batch[GameState]) -> None:
    strike = top_strike(batch.state)
    if batch.state.rules_version >= GROUND_TO_AIR_UNSEEN_SINCE:
        _open_ground_window(batch, strike)
        return
    found = gunners(batch.state, strike)
    if not found:
        why = "no Ground-To-Air card in the hex (p.31)"
    elif batch.state.rules_version >= GROUND_TO_AIR_ASKED_SINCE:
        why = (
            f"the Ground-To-Air window: {', '.join(found)} may fire, each empire asked in turn "
            "(p.30–31; AE-41)"
        )
    else:
        why = f"the Ground-To-Air window: {', '.join(found)} challenge (p.31; AE-41)"
    batch.emit(AirStrikeAdvanced(strike=replace(strike, stage="ground", gunners=found), why=why))


def _gunner_gone(batch: Batch[GameState]) -> None:
    """The gunner the window would ask about next no longer stands in the hex (destroyed by
    a duel before it, its base razed): it is passed over (AE-41)."""
    strike = top_strike(batch.state)
    gunner = strike.gunners[0]
    why = f"{gunner} no longer stands in {strike.at}: it does not fire (AE-41)"
    batch.emit(AirStrikeAdvanced(strike=replace(strike, gunners=strike.gunners[1:]), why=why))


def ground_to_air(batch: Batch[GameState], cmd: GroundToAir) -> None:
    """``air_strike_advanced``: the gunner the strike names next fires (its challenge opens
    next) or holds its fire (the next gunner is asked) (p.30–31; AE-41)."""
    strike = top_strike(batch.state)
    gunner = strike.gunners[0]
    if cmd.fire:
        why = f"{cmd.player} fires {gunner} at {strike.card} from the ground (p.30–31; AE-41)"
        batch.emit(AirStrikeAdvanced(strike=replace(strike, challenger=gunner), why=why))
        return
    why = f"{cmd.player} holds the fire of {gunner}: it does not challenge {strike.card} (p.30)"
    batch.emit(AirStrikeAdvanced(strike=replace(strike, gunners=strike.gunners[1:]), why=why))


def ground_to_air_options(state: GameState, player: str) -> list[Command]:
    """Fire the gunner asked about, or hold its fire."""
    return [GroundToAir(player=player, fire=True), GroundToAir(player=player, fire=False)]


# ---------------------------------------------------------------------- since version 13


def _open_ground_window(batch: Batch[GameState], strike: AirStrike) -> None:
    """The Ground-To-Air window since version 13 (AE-41): every other empire, in seat order,
    is to be asked, whatever the hex holds: whether the game waits for an empire must not tell
    what it has there."""
    asked = tuple(e for e in batch.state.seats if e != strike.empire)
    why = (
        f"the Ground-To-Air window: {', '.join(asked)} asked in turn whether to challenge "
        f"{strike.card} from the ground (p.30–31; AE-41)"
    )
    window = replace(strike, stage="ground", to_ask=asked, fired=())
    batch.emit(AirStrikeAdvanced(strike=window, why=why))


def empire_gunners(state: GameState, strike: AirStrike, empire: str) -> list[str]:
    """The gunners of ``empire`` that may still challenge ``strike``: those of ``gunners``
    that it fires (``holder_in_hex``: a base's cards by the base's holder) and that have not
    fired at it yet (AE-41)."""
    fired = strike.fired_gunners
    return [
        g
        for g in gunners(state, strike)
        if g not in fired and holder_in_hex(state, strike, g) == empire
    ]


def ground_to_air_problem(
    state: GameState, strike: AirStrike, empire: str, gunner: str
) -> RulesError | None:
    """Why ``empire`` may not fire ``gunner`` at ``strike`` (AE-41), or None. The refusal of a
    card that is not one of its gunners in the hex says the same whatever that card is (an
    enemy card, one of its own elsewhere, a name that is nothing), so that it tells nothing
    of the other empires' cards; one that has fired already was seen firing."""
    if gunner in strike.fired_gunners:
        return reject(
            f"{gunner} has already challenged {strike.name} from the ground: each gunner "
            "challenges once (p.31; AE-41)",
            "already_fired",
        )
    if gunner not in empire_gunners(state, strike, empire):
        craft = ANTI_MISSILE if strike.craft == "missile" else ANTI_AIR
        return reject(
            f"{quoted(gunner)} is not a gunner of {empire}'s in {strike.at} that may challenge "
            f"{strike.name}: one of its {craft} cards there that has not fired at it "
            "(p.31; AE-41)",
            "not_a_gunner",
        )
    return None


def ground_to_air_challenge(batch: Batch[GameState], cmd: GroundToAirChallenge) -> None:
    """``air_strike_advanced``: the asked empire's gunner challenges the attack card now, in
    the open (its challenge opens next; the empire is asked again after it), or the empire
    launches no more challenges (the next empire is asked) (p.30–31; AE-41). RulesError as
    ``ground_to_air_problem`` says."""
    strike = top_strike(batch.state)
    if cmd.gunner is None:
        why = (
            f"{cmd.player} launches no more Ground-To-Air challenges against {strike.name} "
            "(p.30; AE-41)"
        )
        batch.emit(AirStrikeAdvanced(strike=replace(strike, to_ask=strike.to_ask[1:]), why=why))
        return
    problem = ground_to_air_problem(batch.state, strike, cmd.player, cmd.gunner)
    if problem:
        raise problem
    why = f"{cmd.player} fires {cmd.gunner} at {strike.card} from the ground (p.30–31; AE-41)"
    fired = (*strike.fired_gunners, cmd.gunner)
    batch.emit(
        AirStrikeAdvanced(strike=replace(strike, challenger=cmd.gunner, fired=fired), why=why)
    )


def ground_to_air_challenge_options(state: GameState, player: str) -> list[Command]:
    """Each of ``player``'s gunners that may still fire, then launching no more."""
    strike = top_strike(state)
    return [
        *(
            GroundToAirChallenge(player=player, gunner=g)
            for g in empire_gunners(state, strike, player)
        ),
        GroundToAirChallenge(player=player),
    ]


def _ground_window_next(state: GameState, strike: AirStrike) -> Decision | Step:
    """The Ground-To-Air window since version 13: the challenge of the gunner fired, the empire
    asked now, or the strike goes on once every empire has launched all it would."""
    if strike.challenger:
        return _open_ground
    if not strike.to_ask:
        return _to_strike
    asked = strike.to_ask[0]
    return Decision(
        players=(asked,),
        kind="ground_to_air_challenge",
        answers=GROUND_TO_AIR_CHALLENGE_ANSWERS,
        waiting=f"{asked}'s Ground-To-Air challenges against {strike.name} over {strike.at}",
        procedure=PROCEDURE,
        about={"strike": str(strike.number), "at": strike.at, "empire": asked},
    )


def _open_ground(batch: Batch[GameState]) -> None:
    """A Ground-To-Air challenge (p.31; AE-41): Anti-Air, a duel against HARM X; Anti-Missile,
    never a duel."""
    state = batch.state
    strike = top_strike(state)
    missile = strike.craft == "missile"
    gunner = (
        strike.challenger
        if state.rules_version >= GROUND_TO_AIR_UNSEEN_SINCE
        else strike.gunners[0]
    )
    owner = state.instances[gunner].owner
    if state.rules_version >= GROUND_TO_AIR_ASKED_SINCE:
        owner = holder_in_hex(state, strike, gunner)  # a captured base's card: its holder's
    challenge_attack_card(
        batch,
        gunner,
        owner,
        ANTI_MISSILE if missile else ANTI_AIR,
        "" if missile else HARM,
        "fires at",
        "ground to air",
    )


def _to_strike(batch: Batch[GameState]) -> None:
    strike = top_strike(batch.state)
    batch.emit(
        AirStrikeAdvanced(
            strike=replace(strike, stage="strike"),
            why="it survived every challenge: the Air-To-Ground challenge (p.31)",
        )
    )


def after_ground_challenge(batch: Batch[GameState]) -> None:
    """A Ground-To-Air challenge is over: since version 13 the same empire is asked again; in
    version 12 and before the next gunner fires or is asked about (AE-41)."""
    strike = top_strike(batch.state)
    cleared = replace(strike, challenger="", outcome=None)
    if batch.state.rules_version >= GROUND_TO_AIR_UNSEEN_SINCE:
        why = f"the Ground-To-Air challenge of {strike.challenger} is over (p.31)"
        batch.emit(AirStrikeAdvanced(strike=cleared, why=why))
        return
    why = f"the Ground-To-Air challenge of {strike.gunners[0]} is over (p.31)"
    batch.emit(AirStrikeAdvanced(strike=replace(cleared, gunners=strike.gunners[1:]), why=why))


def ground_to_air_next(state: GameState, strike: AirStrike) -> Decision | Step:
    """The Ground-To-Air window: since version 13 ``_ground_window_next``; before, the gunner
    named next fires, or its empire is asked whether it fires (version 12), until none is left
    and the strike goes on."""
    if state.rules_version >= GROUND_TO_AIR_UNSEEN_SINCE:
        return _ground_window_next(state, strike)
    if not strike.gunners:
        return _to_strike
    if strike.challenger or state.rules_version < GROUND_TO_AIR_ASKED_SINCE:
        return _open_ground
    gunner = strike.gunners[0]
    if gunner not in gunners(state, strike):
        return _gunner_gone
    empire = holder_in_hex(state, strike, gunner)
    return Decision(
        players=(empire,),
        kind="ground_to_air",
        answers=GROUND_TO_AIR_ANSWERS,
        waiting=f"{empire}'s chance to fire {gunner} at {strike.name} over {strike.at}",
        procedure=PROCEDURE,
        about={"strike": str(strike.number), "at": strike.at, "gunner": gunner},
    )
