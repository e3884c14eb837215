"""Hypothesis: random challenges answered at random never count more successes than dice, never
make fate negative, and end only by the prerogative or by two accepts in a row (R5, R6)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.domain.armageddon_empires.arena import arena, begin, open_challenge, side
from warlog.domain.armageddon_empires.challenge import Challenge, successes
from warlog.domain.armageddon_empires.challenge_events import (
    ChallengeAccepted,
    ChallengeResolved,
    PrerogativeTaken,
)
from warlog.domain.armageddon_empires.challenge_moves import fate_left
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.core.dice import SeededDice

faces = st.lists(st.integers(1, 6), min_size=0, max_size=7)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    attacker=faces,
    defender=faces,
    kind=st.sampled_from(["opposed", "duel", "threshold"]),
    red_hero=st.booleans(),
    blue_hero=st.booleans(),
    threshold=st.integers(0, 4),
    seed=st.integers(0, 2**16),
    data=st.data(),
)
def test_a_challenge_keeps_its_dice_and_fate_sound_and_ends_only_as_r5_says(
    attacker: list[int],
    defender: list[int],
    kind: str,
    red_hero: bool,
    blue_hero: bool,
    threshold: int,
    seed: int,
    data: st.DataObject,
) -> None:
    g = begin(arena())
    open_challenge(
        g,
        side("red", attacker, hero="red.captain.1" if red_hero else None),
        None
        if kind == "threshold"
        else side("blue", defender, hero="blue.quarry.1" if blue_hero else None),
        kind=kind,
        threshold=threshold,
    )
    log = list(g.history)
    for step in range(40):
        if not g.state.frames:
            break
        ch = g.state.frames[-1]
        assert isinstance(ch, Challenge)
        for s in (ch.attacker, ch.defender):
            if s is not None:
                assert successes(s.faces) == sum(1 for f in s.faces if f >= 4)  # R1
                assert fate_left(g.state, s) >= 0
        player = RULESET.active_players(g.state)[0]
        legal = RULESET.legal_commands(g.state, player)
        command = data.draw(st.sampled_from(legal), label=f"answer {step}")
        events = RULESET.decide(
            g.state, command, SeededDice(seed.to_bytes(32, "big"), "p", "", step)
        )
        g.events(*events)
        log += events
    assert not g.state.frames, "a challenge that never ends"
    assert all(v >= 0 for v in g.state.fate_spent.values())
    moves = [
        e for e in log if isinstance(e, PrerogativeTaken | ChallengeAccepted | ChallengeResolved)
    ]
    (end,) = [i for i, e in enumerate(moves) if isinstance(e, ChallengeResolved)]
    resolved = moves[end]
    assert isinstance(resolved, ChallengeResolved)
    if resolved.outcome.ended_by == "prerogative":
        assert isinstance(moves[end - 1], PrerogativeTaken)
    else:
        need = resolved.challenge.accepts_needed
        last = moves[end - need : end]
        assert all(isinstance(e, ChallengeAccepted) for e in last)
        assert [e.challenge.accepts for e in last] == list(range(1, need + 1))  # type: ignore[attr-defined]
        assert len({e.role for e in last}) == need  # type: ignore[attr-defined]
