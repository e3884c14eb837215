"""The handlers of the commands: each checks what only it can check and emits its events.

Whose turn it is, which phase the round is in and whether a challenge waits for an answer are
checked before a handler runs, once, by the core (``Rules.admit``, from ``decisions.py``). Pure;
never touches the state it reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warlog.domain.armageddon_empires import (
    air_launch,
    armies,
    assassination,
    awaiting,
    battle,
    capture,
    challenge_moves,
    engineers,
    ground_combat,
    ground_to_air,
    hand,
    intercept,
    movement,
    repair,
    research,
    retreat,
    sabotage,
    stealth,
    turns,
)
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    Assassinate,
    Assault,
    Attack,
    BuyInitiative,
    CommitArmy,
    CreateArmy,
    CreateCard,
    DeployCard,
    DisbandArmy,
    DrawCard,
    DropStealth,
    EndTurn,
    Engage,
    EngageStealth,
    GroundToAir,
    GroundToAirChallenge,
    HuntHero,
    Intercept,
    LayMinefield,
    LiftMinefield,
    MoveArmy,
    NextRound,
    PlayAttackCard,
    PlayTactic,
    RepairCard,
    Roll,
    Sabotage,
    SetUpBattle,
    SpendFate,
    TakePrerogative,
    TransferCards,
)
from warlog.domain.core.rules import Handler

#: every command of Armageddon Empires and its handler
HANDLERS: Mapping[type[Any], Handler] = {
    BuyInitiative: turns.buy_initiative,
    EndTurn: turns.end_turn,
    CreateArmy: armies.create_army,
    DisbandArmy: armies.disband_army,
    TransferCards: armies.transfer_cards,
    MoveArmy: movement.move_army,
    DrawCard: hand.draw_card,
    DeployCard: hand.deploy_card,
    EngageStealth: stealth.engage_stealth,
    DropStealth: stealth.drop_stealth,
    HuntHero: capture.hunt_hero,
    RepairCard: repair.repair_card,
    TakePrerogative: challenge_moves.take_prerogative,
    SpendFate: challenge_moves.spend_fate,
    PlayTactic: challenge_moves.play_tactic,
    AcceptChallenge: challenge_moves.accept_challenge,
    Roll: awaiting.roll,
    Engage: battle.engage,
    Assault: battle.assault,
    SetUpBattle: battle.set_up_battle,
    CommitArmy: battle.commit_army,
    Attack: ground_combat.attack,
    NextRound: retreat.next_round,
    PlayAttackCard: air_launch.play_attack_card,
    Intercept: intercept.intercept,
    GroundToAir: ground_to_air.ground_to_air,
    GroundToAirChallenge: ground_to_air.ground_to_air_challenge,
    LayMinefield: engineers.lay_minefield,
    LiftMinefield: engineers.lift_minefield,
    Assassinate: assassination.assassinate,
    Sabotage: sabotage.sabotage,
    CreateCard: research.create_card,
}
