"""The legal options of an empire: every command it may issue now, each one ``decide`` accepts.

Every option is judged by what the empire itself may see (AE-7, AE-17, AE-38): its own cards
and armies, the enemy armies it has sighted this round, the public bases, the open procedures.
"""

from __future__ import annotations

from warlog.domain.armageddon_empires import (
    air_launch,
    battle,
    ground_combat,
    ground_to_air,
    intercept,
    retreat,
)
from warlog.domain.armageddon_empires.armies import legal_army_orders
from warlog.domain.armageddon_empires.assassination import legal_assassinations
from warlog.domain.armageddon_empires.battlefield import top_battle
from warlog.domain.armageddon_empires.capture import legal_hunts
from warlog.domain.armageddon_empires.challenge_moves import legal_answers
from warlog.domain.armageddon_empires.commands import Roll
from warlog.domain.armageddon_empires.engineers import legal_engineer_orders
from warlog.domain.armageddon_empires.hand import legal_hand_plays
from warlog.domain.armageddon_empires.movement import legal_moves
from warlog.domain.armageddon_empires.repair import legal_repairs
from warlog.domain.armageddon_empires.research import legal_research
from warlog.domain.armageddon_empires.sabotage import legal_sabotage
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.armageddon_empires.stealth import legal_stealth_orders
from warlog.domain.armageddon_empires.turns import legal_turn_orders
from warlog.domain.core.procedure import Decision
from warlog.domain.core.ruleset import Command

#: the command types whose every accepted form ``options`` lists (``Ruleset.complete_legal``):
#: those without fields, every initiative purchase, every deployment and the hex of every move
#: its empire may make, each army that may hunt (and each target a Bounty Hunter names), stealth,
#: assault, disband, lay or lift a minefield, each card it may repair, each challenge answer
#: (the fate spends, the tactics), each engagement choice, each strike a battle's decide
#: checks against these very options, each round's choice, intercept and gunner, each card that
#: may make an assassination attempt (and each target a Master Assassin names). Left out:
#: ``create_army`` (any free name is accepted; one is offered), ``transfer_cards`` (one card
#: at a time offered, several accepted), ``set_up_battle`` and ``commit_army`` (their lists
#: offered in one order), ``play_attack_card`` (an aim or munition left implicit may be named)
COMPLETE: frozenset[str] = frozenset(
    {
        "buy_initiative",
        "end_turn",
        "move_army",
        "draw_card",
        "deploy_card",
        "disband_army",
        "engage_stealth",
        "drop_stealth",
        "hunt_hero",
        "repair_card",
        "take_prerogative",
        "spend_fate",
        "play_tactic",
        "accept_challenge",
        "roll",
        "engage",
        "assault",
        "attack",
        "next_round",
        "intercept",
        "ground_to_air",
        "ground_to_air_challenge",
        "lay_minefield",
        "lift_minefield",
        "assassinate",
        # AE-72: each saboteur that may act, its target left to the pick, and each facility a
        # Master Saboteur may name: every form ``sabotage`` accepts
        "sabotage",
        # AE-73: each hero that may try a card and each card he may try: every form
        # ``create_card`` accepts (it has no other field; he spends no fate in it)
        "create_card",
    }
)


def _battle_options(state: GameState, player: str) -> list[Command]:
    b = top_battle(state)
    if b.stage == "setup":
        return battle.set_up_options(state, player)
    if b.stage == "commit":
        return battle.commit_options(state, player)
    if b.stage == "choose":
        return retreat.choose_options(state, player)
    return ground_combat.attack_options(state, b, player)


def options(state: GameState, decision: Decision, player: str) -> list[Command]:
    """Initiative purchases in the initiative phase; the answers of the procedure that waits
    for the player (a roll, an engagement, a battle, a challenge); in the player's turn:
    deployments and the draw, air strikes, hunts, assassinations, sabotage, cards created,
    assaults, moves to every reachable hex, stealth orders,
    minefields laid and lifted, repairs, army orders, and ending the turn (last)."""
    if decision.kind == "initiative":
        return list(legal_turn_orders(state, player))
    if decision.kind == "roll":
        return [Roll(player=player)]
    if decision.kind == "challenge":
        return legal_answers(state, player)
    if decision.kind == "engagement":
        return battle.engage_options(state, player)
    if decision.kind == "battle":
        return _battle_options(state, player)
    if decision.kind == "intercept":
        return intercept.intercept_options(state, player)
    if decision.kind == "ground_to_air":
        return ground_to_air.ground_to_air_options(state, player)
    if decision.kind == "ground_to_air_challenge":
        return ground_to_air.ground_to_air_challenge_options(state, player)
    return [
        *legal_hand_plays(state, player),
        *air_launch.legal_strikes(state, player),
        *legal_hunts(state, player),
        *legal_assassinations(state, player),
        *legal_sabotage(state, player),
        *legal_research(state, player),
        *battle.legal_assaults(state, player),
        *legal_moves(state, player),
        *legal_stealth_orders(state, player),
        *legal_engineer_orders(state, player),
        *legal_repairs(state, player),
        *legal_army_orders(state, player),
        *legal_turn_orders(state, player),
    ]
