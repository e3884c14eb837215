"""The round of turns (digest 6.1): collection, initiative, turns in initiative order, AP.

1. Round start: every empire collects the resources of its base hexes (p.20; AE-4).
2. Initiative: each empire buys dice with Energy (R11; AE-3); when all have bought, each pool
   rolls; faces 4–6 succeed (R1); most successes goes first. Ties re-roll (digest 6.1), an empty
   pool then rolling 1 die, at most ``INITIATIVE_MAX_REROLLS`` times; then AE-3's fallback.
3. Observation: every empire's hidden checks of the round (digest 3.1; R7; ``observation.py``).
4. Turns in initiative order: AP = 12 / 6 for 2 empires (R10, p.11) + AP Bonus X (p.48) + 3 a
   prisoner held (p.24, p.30) − AP owed for moves outside the last turn (AE-19); the supply of
   every army is traced at the start of its empire's turn (p.30).
5. End of turn: unspent AP is lost (R10). An empire without its HQ at the end of a turn is out
   (p.15: it may retake it until then, AE-10). After the last turn, the next round starts, or
   the game ends after the scenario's ``max_rounds`` (AE-10).
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.abilities import AP_BONUS, level
from warlog.domain.armageddon_empires.battle_events import DelayedBattlesCalled
from warlog.domain.armageddon_empires.challenge import successes
from warlog.domain.armageddon_empires.commands import BuyInitiative, EndTurn
from warlog.domain.armageddon_empires.costs import (
    INITIATIVE_DIE_PRICE,
    INITIATIVE_MAX_DICE,
    PRISONER_AP,
)
from warlog.domain.armageddon_empires.events import (
    ApBonus,
    GameEnded,
    InitiativeDetermined,
    InitiativeDiceBought,
    ResourcesCollected,
    RoundBegan,
    SupplyTraced,
    TurnBegan,
    TurnEnded,
)
from warlog.domain.armageddon_empires.observation import round_window
from warlog.domain.armageddon_empires.resources import NOTHING, Resources
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.armageddon_empires.supply import is_besieged, out_of_supply, supply_sources
from warlog.domain.armageddon_empires.victory import without_hq
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError
from warlog.domain.core.events import Event

#: R10: AP per round by initiative place, for 2, 3 and 4 empires
AP_BY_PLACE: dict[int, tuple[int, ...]] = {2: (12, 6), 3: (12, 9, 6), 4: (12, 9, 6, 6)}
#: AE-3: tied initiative rolls are re-rolled at most this many times
INITIATIVE_MAX_REROLLS = 3
INITIATIVE_PURPOSE = "initiative"


def collection(state: GameState, empire: str) -> tuple[Resources, tuple[str, ...]]:
    """What ``empire`` collects at round start and from where (AE-4)."""
    total = NOTHING
    lines: list[str] = []
    for base in sorted(state.bases_of(empire), key=lambda b: b.id):
        gain = state.board.resources.get(base.at, NOTHING)
        if gain.total():
            total = total + gain
            lines.append(f"{base.id} at {base.at}: {gain.text()}")
    return total, tuple(lines)


def round_start(state: GameState, round_: int) -> list[Event]:
    """``round_began`` and every empire's ``resources_collected``."""
    out: list[Event] = [RoundBegan(round=round_, last_round=state.max_rounds)]
    for empire in state.seats:
        gained, sources = collection(state, empire)
        out.append(ResourcesCollected(empire=empire, gained=gained, sources=sources))
    return out


def turn_start(state: GameState, empire: str) -> list[Event]:
    """``turn_began`` (AP by initiative place, R10, + AP Bonus, p.48) and ``supply_traced``."""
    place = state.order.index(empire) + 1
    base_ap = AP_BY_PLACE[len(state.seats)][place - 1]
    bonuses: list[ApBonus] = []
    for base in sorted(state.bases_of(empire), key=lambda b: b.id):
        for card in (base.card, *base.facilities):
            x = level(state.card(card).abilities, AP_BONUS)
            if x:
                bonuses.append(ApBonus(source=card, ap=x))
        if not is_besieged(state, base):
            bonuses += [
                ApBonus(source=f"prisoner {hero} at {base.id}", ap=PRISONER_AP, rule="p.24, p.30")
                for hero in base.prisoners
            ]
    emp = state.empires[empire]
    gross = base_ap + sum(b.ap for b in bonuses)
    ap = max(0, gross - emp.ap_owed)
    return [
        TurnBegan(
            empire=empire,
            place=place,
            base_ap=base_ap,
            bonuses=tuple(bonuses),
            ap=ap,
            owed=emp.ap_owed,
        ),
        SupplyTraced(
            empire=empire,
            supply_range=emp.supply_range,
            sources=tuple(f"{b.id} at {b.at}" for b in supply_sources(state, empire)),
            out_of_supply=out_of_supply(state, empire),
        ),
    ]


def _roll_initiative(
    b: Batch[GameState], state: GameState, bids: dict[str, int]
) -> InitiativeDetermined:
    paid = {e: INITIATIVE_DIE_PRICE.times(bids[e]) for e in state.seats}
    for attempt in range(INITIATIVE_MAX_REROLLS + 1):
        purpose = INITIATIVE_PURPOSE if attempt == 0 else f"{INITIATIVE_PURPOSE} re-roll {attempt}"
        succ: dict[str, int] = {}
        for e in state.seats:
            pool = bids[e] if attempt == 0 else max(bids[e], 1)
            succ[e] = successes(b.roll(pool, 6, purpose=purpose, roller=e))
        if len(set(succ.values())) == len(succ):
            order = tuple(sorted(state.seats, key=lambda e: -succ[e]))
            return InitiativeDetermined(order, dict(bids), succ, paid, rerolls=attempt)
    # AE-3: still tied: the empire that went last in the previous round goes first
    prev = state.order
    order = (prev[-1], *prev[:-1])
    return InitiativeDetermined(
        order, dict(bids), succ, paid, rerolls=INITIATIVE_MAX_REROLLS, fallback=True
    )


def buy_initiative(batch: Batch[GameState], cmd: BuyInitiative) -> None:
    """``initiative_dice_bought``; once every empire has bought, the rolls,
    ``initiative_determined`` and the first turn's start. RulesError for too many dice or too
    little Energy."""
    state = batch.state
    empire = state.empires[cmd.player]
    if cmd.count > INITIATIVE_MAX_DICE:
        raise RulesError(
            f"at most {INITIATIVE_MAX_DICE} initiative dice a round (AE-3)", "rules/too_many_dice"
        )
    price = INITIATIVE_DIE_PRICE.times(cmd.count)
    if not empire.resources.covers(price):
        raise RulesError(
            f"{cmd.count} initiative dice cost {price.text()}; {cmd.player} has {empire.resources.text()}",
            "rules/not_enough_resources",
        )
    batch.emit(InitiativeDiceBought(empire=cmd.player, count=cmd.count))
    bids = batch.state.bids
    if all(e in bids for e in state.seats):
        batch.emit(_roll_initiative(batch, state, dict(bids)))
        round_window(batch)
        batch.emit(*turn_start(batch.state, batch.state.order[0]))


def end_turn(batch: Batch[GameState], cmd: EndTurn) -> None:
    """``delayed_battles_called`` when the empire delayed attacks this turn (they are fought
    first, p.33; AE-36); else the end of the turn (``finish_turn``)."""
    if batch.state.delayed:
        batch.emit(DelayedBattlesCalled(empire=cmd.player, hexes=batch.state.delayed))
        return
    finish_turn(batch)


def finish_turn(batch: Batch[GameState]) -> None:
    """``turn_ended``, then the next empire's turn start, the next round's start, or
    ``game_ended``: an empire without its HQ at the end of a turn is out (AE-10), and the game
    ends after the last round."""
    state = batch.state
    assert state.current is not None
    empire = state.empires[state.current]
    batch.emit(TurnEnded(empire=empire.id, ap_lost=empire.ap))
    after = batch.state
    place = state.order.index(empire.id)
    fallen = without_hq(after)
    if fallen:
        rest = [e for e in state.seats if e not in fallen]
        winner = rest[0] if len(rest) == 1 else None
        batch.emit(GameEnded(reason=f"{', '.join(fallen)} lost the HQ (p.15)", winner=winner))
    elif place + 1 < len(state.order):
        batch.emit(*turn_start(after, state.order[place + 1]))
    elif state.round >= state.max_rounds:
        batch.emit(
            GameEnded(
                reason=f"round {state.round}, the scenario's last, is over (AE-10)", winner=None
            )
        )
    else:
        batch.emit(*round_start(after, state.round + 1))


def legal_turn_orders(state: GameState, player: str) -> list[BuyInitiative | EndTurn]:
    """Every initiative purchase the player can afford, or ending the turn."""
    if state.phase == "initiative" and player not in state.bids:
        energy = state.empires[player].resources
        return [
            BuyInitiative(player=player, count=n)
            for n in range(INITIATIVE_MAX_DICE + 1)
            if energy.covers(INITIATIVE_DIE_PRICE.times(n))
        ]
    if state.phase == "turns" and state.current == player:
        return [EndTurn(player=player)]
    return []
