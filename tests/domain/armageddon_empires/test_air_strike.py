"""The air strike from the card played to its end (p.19, p.30–31; AE-39..AE-43): a missile's,
never intercepted and spent, and random strikes that all end with every card in one place. The
set-up: ``air_helpers``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.domain.armageddon_empires.air_helpers import accept_all, skies
from tests.domain.armageddon_empires.helpers import only
from tests.domain.armageddon_empires.invariants import check_invariants
from warlog.domain.armageddon_empires.air_events import InterceptAnswered
from warlog.domain.armageddon_empires.challenge_events import ChallengeOpened
from warlog.domain.armageddon_empires.commands import GroundToAir, PlayAttackCard
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.core.dice import SeededDice


def test_a_missile_faces_anti_missile_is_never_intercepted_and_is_spent() -> None:
    g = skies(["bolt"], ["jay"], garrison=("flak",), version=12)
    g.when_rejected(
        PlayAttackCard(player="red", card="red.bolt.1", at="3,2", aim="unit"),
        code="rules/missile_strikes_facility",
    )
    events = g.when(PlayAttackCard(player="red", card="red.bolt.1", at="4,2"))
    assert not any(isinstance(e, InterceptAnswered) for e in events)
    # blue fires its flak: Anti-Missile 2 against the bolt's defence 1, opposed, no duel
    events = g.when(GroundToAir(player="blue", fire=True), dice=[1, 1, 6])
    assert only(events, ChallengeOpened).challenge.kind == "opposed"
    # a random facility of two (a d2: the keep), then the bolt's 5 dice against its defence 5
    accept_all(g, [1], [1] * 10)
    assert "red.bolt.1" in g.state.empires["red"].discard
    assert "red.bolt.1" not in g.state.empires["red"].hand
    assert g.state.frames == ()


# ---------------------------------------------------------------------- properties


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_every_air_strike_ends_with_every_card_in_one_place(data: st.DataObject) -> None:
    """Random strikes, intercepts and answers: every strike ends, and after every event each card
    is in exactly one place, no damage reaches past a card's limit while it is in play."""
    g = skies(["hawk", "harrier", "bolt"], ["jay", "plate"], garrison=("flak",))
    strikes = 0
    for _ in range(60):
        waiting = RULESET.decision(g.state)
        assert waiting is not None
        player = waiting.players[0]
        legal = RULESET.legal_commands(g.state, player)
        if waiting.kind == "turn":
            plays = [c for c in legal if isinstance(c, PlayAttackCard)]
            if not plays or strikes >= 2:
                break
            command: Any = data.draw(st.sampled_from(plays))
            strikes += 1
        else:
            command = data.draw(st.sampled_from(legal))
        seed = data.draw(st.integers(0, 2**16))
        for event in RULESET.decide(g.state, command, SeededDice(seed.to_bytes(32), "p", "", 2)):
            g.events(event)
            check_invariants(g.state)
    assert strikes >= 1
    assert g.state.frames == ()
    assert RULESET.decision(g.state).kind == "turn"  # type: ignore[union-attr]
