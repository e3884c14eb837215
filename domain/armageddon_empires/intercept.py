"""The intercept window (p.30–31; AE-40): aircraft and helos only; every other empire, in seat
order, may answer with an Air To Air card of its hand, then the Air-To-Air challenge.

An empire may intercept if it observes the hex, the card's range reaches the hex from a base of
its own that is not besieged, and it can pay the card's AP (owed outside its own turn, AE-19)
and resources. An empire with an empty hand lets the strike pass automatically (AE-20); every
other is asked, so that being asked tells nothing. The Air-To-Air challenge: the interceptor's
Air To Air X against the card's defence, or its Air To Air level when it has one, a duel (p.31).
When every empire has answered, the Ground-To-Air window opens (``ground_to_air``).
"""

from __future__ import annotations

from msgspec.structs import replace

from warlog.domain.armageddon_empires.abilities import level
from warlog.domain.armageddon_empires.air_events import AirStrikeAdvanced, InterceptAnswered
from warlog.domain.armageddon_empires.cards import AttackCard
from warlog.domain.armageddon_empires.challenge_moves import in_own_turn
from warlog.domain.armageddon_empires.commands import Intercept
from warlog.domain.armageddon_empires.costs import MAX_AP_OWED
from warlog.domain.armageddon_empires.flying_card import (
    PROCEDURE,
    challenge_attack_card,
    top_strike,
)
from warlog.domain.armageddon_empires.frames import AirStrike
from warlog.domain.armageddon_empires.ground_to_air import to_ground
from warlog.domain.armageddon_empires.guards import BASE_KINDS
from warlog.domain.armageddon_empires.observation import observation_into
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.armageddon_empires.supply import is_besieged
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import reject
from warlog.domain.core.hexgrid import Hex
from warlog.domain.core.procedure import Decision, Step
from warlog.domain.core.ruleset import Command

AIR_TO_AIR = "Air To Air"
INTERCEPT_ANSWERS: tuple[str, ...] = (Intercept.type_name(),)


def observes(state: GameState, empire: str, at: str) -> bool:
    """AE-40: ``empire`` observes hex ``at`` this round when it has an army or a base there (a
    base's garrison is an army of its empire there, AE-8), or its observation reaches it with at
    least one die (R7)."""
    if any(a.empire == empire and a.at == at for a in state.armies.values()):
        return True
    return observation_into(state, empire, at, stealthed=False) is not None


def intercept_payable(state: GameState, empire: str, spec: AttackCard) -> bool:
    """The empire can pay the card's resources and its AP as AP owed (AE-19): an intercept
    answers the other empire's strike, so it is never made in the interceptor's own turn."""
    emp = state.empires[empire]
    if not emp.resources.covers(spec.cost):
        return False
    return emp.ap_owed + spec.ap <= MAX_AP_OWED


def intercept_problem(state: GameState, empire: str, strike: AirStrike, card: str) -> str:
    """Why ``card`` may not intercept ``strike`` (AE-40), "" if it may."""
    if card not in state.empires[empire].hand:
        return f"{card!r} is not in {empire}'s hand"
    entry = state.card(card)
    spec = entry.spec
    if not isinstance(spec, AttackCard) or not level(entry.abilities, AIR_TO_AIR):
        return f"{card} has no Air To Air (p.30)"
    if not observes(state, empire, strike.at):
        return f"{empire} does not observe {strike.at} this round (p.30; AE-40)"
    target = Hex.parse(strike.at)
    if not any(
        Hex.parse(b.at).distance(target) <= spec.range
        for b in state.bases_of(empire)
        if b.kind in BASE_KINDS and not is_besieged(state, b)
    ):
        return (
            f"{strike.at} is beyond the range {spec.range} of {card} from every base of {empire} "
            "that is not besieged (p.30; AE-40)"
        )
    if not intercept_payable(state, empire, spec):
        emp = state.empires[empire]
        if not emp.resources.covers(spec.cost):
            return f"{card} costs {spec.cost.text()}; {empire} has {emp.resources.text()}"
        return (
            f"{card} costs {spec.ap} AP, owed until {empire}'s next turn; {empire} already owes "
            f"{emp.ap_owed} of at most {MAX_AP_OWED} (AE-19)"
        )
    return ""


def interceptors(state: GameState, empire: str, strike: AirStrike) -> list[str]:
    """The cards of ``empire``'s hand that may intercept ``strike`` now (AE-40)."""
    return [
        c for c in state.empires[empire].hand if not intercept_problem(state, empire, strike, c)
    ]


def intercept(batch: Batch[GameState], cmd: Intercept) -> None:
    """``intercept_answered``; ``rules/cannot_intercept`` naming the condition not met."""
    state = batch.state
    strike = top_strike(state)
    rest = strike.to_ask[1:]
    if cmd.card is None:
        batch.emit(InterceptAnswered(strike=replace(strike, to_ask=rest), empire=cmd.player))
        return
    why = intercept_problem(state, cmd.player, strike, cmd.card)
    if why:
        raise reject(f"{cmd.card} cannot intercept {strike.name}: {why}", "cannot_intercept")
    spec = state.card(cmd.card).spec
    assert isinstance(spec, AttackCard)
    batch.emit(
        InterceptAnswered(
            strike=replace(strike, to_ask=rest, challenger=cmd.card),
            empire=cmd.player,
            card=cmd.card,
            ap_cost=spec.ap,
            paid=spec.cost,
            owed=not in_own_turn(state, cmd.player),
        )
    )


def intercept_options(state: GameState, player: str) -> list[Command]:
    """Each card that may intercept the strike, then letting it pass."""
    strike = top_strike(state)
    return [
        *(Intercept(player=player, card=c) for c in interceptors(state, player, strike)),
        Intercept(player=player),
    ]


def _pass_automatically(batch: Batch[GameState]) -> None:
    strike = top_strike(batch.state)
    batch.emit(
        InterceptAnswered(
            strike=replace(strike, to_ask=strike.to_ask[1:]),
            empire=strike.to_ask[0],
            automatic=True,
        )
    )


def _open_intercept(batch: Batch[GameState]) -> None:
    """The Air-To-Air challenge (p.30–31): a duel against an Air To Air card."""
    card = top_strike(batch.state).challenger
    owner = batch.state.instances[card].owner
    challenge_attack_card(batch, card, owner, AIR_TO_AIR, AIR_TO_AIR, "intercepts", "air to air")


def after_intercept(batch: Batch[GameState]) -> None:
    """The Air-To-Air challenge is over: the strike goes on with the next empire asked."""
    strike = top_strike(batch.state)
    cleared = replace(strike, challenger="", outcome=None)
    why = "the Air-To-Air challenge is over (p.31)"
    batch.emit(AirStrikeAdvanced(strike=cleared, why=why))


def intercept_next(state: GameState, strike: AirStrike) -> Decision | Step:
    """The intercept window: the challenge of the card that intercepts, the empire asked now,
    or the Ground-To-Air window once every empire has answered."""
    if strike.challenger:
        return _open_intercept
    if not strike.to_ask:
        return to_ground
    asked = strike.to_ask[0]
    if not state.empires[asked].hand:
        return _pass_automatically
    return Decision(
        players=(asked,),
        kind="intercept",
        answers=INTERCEPT_ANSWERS,
        waiting=f"{asked}'s answer to the intercept window of {strike.name} at {strike.at}",
        procedure=PROCEDURE,
        about={"strike": str(strike.number), "at": strike.at, "card": strike.card},
    )
