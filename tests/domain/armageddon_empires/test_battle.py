"""Ground battles (p.33–34; AE-25, AE-26, AE-36): the engagement offered on moving into enemies
in sight, set-up and rows, a delayed attack fought at the turn's end, and every battle of a
random game ending. The set-up: ``battle_helpers``.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.domain.armageddon_empires.battle_helpers import VERSUS_FOX, field
from tests.domain.armageddon_empires.games import play
from tests.domain.armageddon_empires.helpers import only
from tests.domain.armageddon_empires.invariants import check_invariants
from warlog.domain.armageddon_empires.autoplay import choose
from warlog.domain.armageddon_empires.battle_events import (
    BattleBegan,
    BattleEnded,
    DelayedBattlesCalled,
    EngagementOffered,
)
from warlog.domain.armageddon_empires.commands import (
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
