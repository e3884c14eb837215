"""The sequence of play: set-up, the strategy segment, four action segments, the victory segment.

seed 003 "Setup", "Sequence of Play", "First Turn Surprise". Each function emits the events of
one step of the sequence and runs on to the next step that needs a player.
"""

from __future__ import annotations

from warlog.domain.battle_for_armageddon import board, build, movement, specials, supply
from warlog.domain.battle_for_armageddon.commands import ChooseStrategy, Deploy
from warlog.domain.battle_for_armageddon.rules import (
    ACTION_SEGMENTS,
    DRAWS_PER_TURN,
    FIRST_TURN,
    IMPERIALS,
    LAST_TURN,
    LATER,
    ORKS,
    PLAYERS,
    STARTING_HAND,
    STRATEGY_CARDS_CHOSEN,
    opponent,
)
from warlog.domain.battle_for_armageddon.scenario import StrategyCardSpec
from warlog.domain.battle_for_armageddon.state import GameState
from warlog.domain.battle_for_armageddon.turn_events import (
    ActionSegmentBegan,
    CounterDeployed,
    GameEnded,
    InitiativeDecided,
    PhaseBegan,
    PhaseEnded,
    ReinforcementsArrived,
    SetupEnded,
    StrategyChosen,
    TurnBegan,
)
from warlog.domain.battle_for_armageddon.victory import assess
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import quoted, reject

# -- set-up -------------------------------------------------------------------------------------


def deploy_areas(state: GameState) -> list[str]:
    """seed 003 "Setup": the Orks set up in Ork Territory (BFA-18: from the scenario's default
    deployment, redeploying counter by counter before ``end_setup``)."""
    return [
        a.id for a in state.scenario.areas if a.ork_territory and board.open_to(state, a.id, ORKS)
    ]


def deploy(batch: Batch[GameState], cmd: Deploy) -> None:
    """``counter_deployed``: the Orks redeploy one counter within Ork Territory and stacking
    before ending set-up (BFA-18); RulesError for any other counter, area or moment."""
    state = batch.state
    counter = state.counters.get(cmd.counter)
    if counter is None:
        raise reject(f"there is no counter {quoted(cmd.counter)}", "unknown_counter")
    if counter.side != ORKS or not board.on_map(counter):
        raise reject(f"{cmd.counter} is not an Ork counter on the map", "not_your_counter")
    if cmd.to not in deploy_areas(state):
        raise reject(
            f"{board.area_named(state, cmd.to)} is not an open area of Ork Territory",
            "not_ork_territory",
        )
    if not board.fits(state, cmd.to, [counter]):
        raise reject(f"{cmd.counter} would break stacking in {cmd.to}", "overstacked")
    batch.emit(CounterDeployed(counter=counter.id, area=cmd.to))


def end_setup(batch: Batch[GameState]) -> None:
    """seed 003 "Setup": both players deal themselves 2 special cards; turn 1 begins."""
    batch.emit(SetupEnded())
    for player in PLAYERS:
        for _ in range(STARTING_HAND):
            specials.draw(batch, player)
    begin_turn(batch, FIRST_TURN)


# -- the turn -----------------------------------------------------------------------------------


def begin_turn(batch: Batch[GameState], turn: int) -> None:
    batch.emit(TurnBegan(turn=turn))
    spec_arrives = {c.id: c.arrives for c in batch.state.scenario.counters}
    arriving = [
        x.id
        for x in batch.state.counters.values()
        if x.location == LATER and spec_arrives.get(x.id) == turn
    ]
    if arriving:
        batch.emit(ReinforcementsArrived(turn=turn, counters=arriving))


def strategy_card(state: GameState, card_id: str) -> StrategyCardSpec:
    for c in state.scenario.strategy_cards:
        if c.id == card_id:
            return c
    raise KeyError(card_id)


def choose(batch: Batch[GameState], cmd: ChooseStrategy) -> None:
    """seed 003: each player secretly chooses 2 strategy cards, in the order he will play them
    (BFA-21: all six return to the hand every turn)."""
    state = batch.state
    known = {c.id for c in state.scenario.strategy_cards}
    if len(cmd.cards) != STRATEGY_CARDS_CHOSEN or len(set(cmd.cards)) != len(cmd.cards):
        raise reject(f"choose {STRATEGY_CARDS_CHOSEN} different strategy cards", "bad_strategy")
    for card in cmd.cards:
        if card not in known:
            raise reject(
                f"no strategy card {card!r}; known: {', '.join(sorted(known))}", "bad_strategy"
            )
    batch.emit(StrategyChosen(player=cmd.player, cards=list(cmd.cards)))
    if all(p in batch.state.choices for p in PLAYERS):
        _initiative(batch)
        for player in PLAYERS:
            for _ in range(DRAWS_PER_TURN):
                specials.draw(batch, player)
        begin_segment(batch, 1)


def _initiative(batch: Batch[GameState]) -> None:
    """seed 003: initiative is rolled (BFA-1: a d6 each, higher wins, a tie goes to the side that
    did not hold it last turn); on turn 1 the Orks have it (First Turn Surprise)."""
    state = batch.state
    if state.turn == FIRST_TURN:
        batch.emit(
            InitiativeDecided(
                player=ORKS, turn=state.turn, reason="rules: First Turn Surprise: Ork initiative"
            )
        )
        return
    (imp,) = batch.roll(1, 6, purpose="initiative", roller=IMPERIALS)
    (ork,) = batch.roll(1, 6, purpose="initiative", roller=ORKS)
    if imp != ork:
        winner, reason = (IMPERIALS if imp > ork else ORKS), "higher roll"
    else:
        winner = opponent(state.initiative) if state.initiative else ORKS
        reason = "tie: to the side without the initiative last turn (BFA-1)"
    batch.emit(
        InitiativeDecided(
            player=winner, turn=state.turn, imperial_roll=imp, ork_roll=ork, reason=reason
        )
    )


def segment_player(state: GameState, segment: int) -> str:
    """seed 003: segments 1 and 3 to the initiative winner, 2 and 4 to the loser."""
    return state.initiative if segment % 2 == 1 else opponent(state.initiative)


def begin_segment(batch: Batch[GameState], segment: int) -> None:
    state = batch.state
    player = segment_player(state, segment)
    card = state.choices[player][(segment - 1) // 2]
    spec = strategy_card(state, card)
    batch.emit(
        ActionSegmentBegan(segment=segment, player=player, card=card, phases=list(spec.phases))
    )
    begin_phase(batch, 0)


def current_phases(state: GameState) -> list[str]:
    return list(strategy_card(state, state.card).phases)


def begin_phase(batch: Batch[GameState], index: int) -> None:
    state = batch.state
    phase = current_phases(state)[index]
    batch.emit(PhaseBegan(phase=phase, player=state.phasing, index=index))
    if phase == "build":
        build.begin(batch, state.phasing)


def end_phase(batch: Batch[GameState]) -> None:
    """The phasing player ends his phase; the sequence runs on to the next decision."""
    state = batch.state
    if state.phase == "movement":
        movement.enforce_stacking(batch, state.phasing)
    elif state.phase == "build" and state.build_step == "buy":
        build.finish_building(batch)
    batch.emit(PhaseEnded(phase=state.phase, player=state.phasing))
    if state.phase_index == 0:
        begin_phase(batch, 1)
        return
    supply.check(batch, state.phasing)
    if state.segment < ACTION_SEGMENTS:
        begin_segment(batch, state.segment + 1)
    else:
        _victory_segment(batch)


def _victory_segment(batch: Batch[GameState]) -> None:
    check = assess(batch.state)
    batch.emit(check)
    if check.result:
        batch.emit(GameEnded(result=check.result, reason=check.explain()))
    elif batch.state.turn >= LAST_TURN:
        batch.emit(
            GameEnded(
                result="draw",
                reason=f"nobody has won by the end of turn {LAST_TURN} (rules: Victory Conditions)",
            )
        )
    else:
        begin_turn(batch, batch.state.turn + 1)
