"""Ground battles (p.33–34; AE-25, AE-26, AE-35, AE-36): the engagement offered on moving into
enemies in sight, set-up and rows, a delayed attack fought at the turn's end, a siege's assault,
and every battle of a random game ending. The set-up: ``battle_helpers``.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.domain.armageddon_empires.battle_helpers import GARRISONED, VERSUS_FOX, field
from tests.domain.armageddon_empires.games import play
from tests.domain.armageddon_empires.helpers import army_block, only, with_ap
from tests.domain.armageddon_empires.invariants import check_invariants
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.autoplay import choose
from warlog.domain.armageddon_empires.battle_events import (
    AssaultOrdered,
    BattleBegan,
    BattleEnded,
    DelayedBattlesCalled,
    EngagementOffered,
)
from warlog.domain.armageddon_empires.commands import (
    Assault,
    CommitArmy,
    EndTurn,
    Engage,
    MoveArmy,
    SetUpBattle,
)
from warlog.domain.armageddon_empires.frames import Battle
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.state import GameState


def test_moving_into_enemies_in_sight_offers_attack_or_delay_and_attacking_begins_a_battle() -> (
    None
):
    g = field(VERSUS_FOX)
    events = g.when(MoveArmy(player="red", army="red-x", to="4,0"))
    assert only(events, EngagementOffered).engagement.choices == ("attack", "delay")
    began = only(g.when(Engage(player="red", choice="attack")), BattleBegan)
    assert (began.battle.attacker.armies, began.battle.defender.armies) == (("red-x",), ("blue-y",))
    # both sides are asked to set up, whether or not they have a stealthed army to join (AE-26)
    assert RULESET.legal_commands(g.state, "red") == [SetUpBattle(player="red")]
    g.when(SetUpBattle(player="red"))
    assert RULESET.legal_commands(g.state, "blue") == [SetUpBattle(player="blue")]
    g.when(SetUpBattle(player="blue"))
    # the rows are the committing empire's choice (R13): every split of its units is offered
    backs = {c.back for c in RULESET.legal_commands(g.state, "red") if isinstance(c, CommitArmy)}
    assert backs == {(), ("red.lancer.1",), ("red.plated.1",), ("red.lancer.1", "red.plated.1")}


def test_a_delayed_attack_is_fought_when_its_empire_ends_the_turn() -> None:
    g = field(VERSUS_FOX)
    g.when(MoveArmy(player="red", army="red-x", to="4,0"))
    g.when(Engage(player="red", choice="delay"))
    assert g.state.delayed == ("4,0",) and not g.state.frames
    events = g.when(EndTurn(player="red"))
    assert only(events, DelayedBattlesCalled).hexes == ("4,0",)
    assert only(events, BattleBegan).started_by == "delayed"


def besieging() -> Given:
    """Red's trooper walks into blue's garrisoned HQ at 7,5 and lays siege (p.26, p.33)."""
    g = field(army_block("red-x", "red", "6,5", units=("trooper",)), bases=GARRISONED)
    g.when(MoveArmy(player="red", army="red-x", to="7,5"))
    g.when(Engage(player="red", choice="siege"))
    return g


def test_a_besieging_army_assaults_the_enemy_in_its_own_hex_for_3_ap() -> None:
    # given red's army laying siege to blue's garrisoned HQ: no battle yet
    g = besieging()
    assert not g.state.frames
    ap = g.state.empires["red"].ap
    assert Assault(player="red", army="red-x") in RULESET.legal_commands(g.state, "red")
    # when it assaults (Break Siege / Assault Defenses, p.26)
    events = g.when(Assault(player="red", army="red-x"))
    # then it pays 3 AP, and a battle begins in its hex against the garrison
    ordered = only(events, AssaultOrdered)
    assert (ordered.army, ordered.at, ordered.ap_cost) == ("red-x", "7,5", 3)
    assert g.state.empires["red"].ap == ap - 3
    began = only(events, BattleBegan)
    assert began.started_by == "assault"
    assert (began.battle.attacker.armies, began.battle.defender.armies) == (
        ("red-x",),
        ("blue-hq-garrison",),
    )
    assert "assaulted in its own hex for 3 AP (p.26; AE-35)" in began.explain()


def test_an_assault_needs_3_ap() -> None:
    # given red's besieging army and 2 AP left
    g = with_ap(besieging(), "red", 2)
    # when it assaults, then it is refused, naming the price, and is not offered
    refused = g.when_rejected(Assault(player="red", army="red-x"), "rules/not_enough_ap")
    assert str(refused) == "an assault costs 3 AP (p.26); red has 2"
    assert not any(isinstance(c, Assault) for c in RULESET.legal_commands(g.state, "red"))


def test_an_assault_needs_an_enemy_its_empire_sees_in_the_hex() -> None:
    # given red's army with no enemy in its hex
    g = field(VERSUS_FOX)
    # when it assaults, then it is refused: there is nothing there to attack
    refused = g.when_rejected(Assault(player="red", army="red-x"), "rules/no_enemy")
    assert str(refused) == "red sees no enemy army that can fight nor an enemy base at 3,0"


def test_an_army_that_delayed_its_attack_does_not_assault_before_the_turn_s_end() -> None:
    # given red's army that walked into blue's and delayed its attack to the end of the turn
    g = field(VERSUS_FOX)
    g.when(MoveArmy(player="red", army="red-x", to="4,0"))
    g.when(Engage(player="red", choice="delay"))
    # when it assaults, then it is refused: the delayed battle comes at the turn's end (p.33)
    refused = g.when_rejected(Assault(player="red", army="red-x"), "rules/delayed")
    assert str(refused) == "red has delayed its attack at 4,0 (p.33)"


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**16), picks=st.randoms(use_true_random=False))
def test_every_battle_of_a_random_game_ends_and_the_game_ends_with_nothing_legal_after(
    seed: int, picks: random.Random
) -> None:
    """Random legal choices (half of them the autoplay policy's, so that games move on) from
    the bundled scenario: every battle that begins ends, no state leaves a card in two places or
    damage at a card's points (``check_invariants``), and once the game is over nobody may act."""

    def chooser(state: GameState, player: str, legal: list[Any]) -> Any:
        return picks.choice(legal) if picks.random() < 0.5 else choose(state, player, legal)

    began = ended = 0
    final = None
    for _, _, events, after in play(seed=seed, chooser=chooser, max_commands=3000):
        began += sum(isinstance(e, BattleBegan) for e in events)
        ended += sum(isinstance(e, BattleEnded) for e in events)
        check_invariants(after)
        final = after
    assert final is not None and RULESET.is_terminal(final)
    assert began == ended + sum(isinstance(f, Battle) for f in final.frames)
    assert not any(isinstance(f, Battle) for f in final.frames)
    assert all(RULESET.legal_commands(final, p) == [] for p in final.seats)
