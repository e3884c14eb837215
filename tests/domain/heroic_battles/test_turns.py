"""The turn sequence (p.27): Mighty Deeds each turn, each force's movement, its skirmishers'
shooting and its melee, the shooting phase alternating from the defender (HB-19), and the end of
the turn with the victory conditions and Reputation Tokens (HB-20)."""

from __future__ import annotations

from tests.domain.heroic_battles.helpers import engaged, game, phase
from tests.given_when_then import Given, of, one, tags
from warlog.domain.core.events import Event
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.rulings import victory


def kind(g: Given) -> tuple[str, tuple[str, ...]]:
    d = g.ruleset.decision(g.state)
    assert d is not None
    return d.kind, d.players


def test_the_phases_follow_the_sheet_attacker_then_defender_then_shooting() -> None:
    g = game()
    assert kind(g) == ("movement", ("red",))
    g.when(c.EndMovement(player="red"), dice=[])
    assert kind(g) == ("skirmish", ("red",))  # red skirmishers and the red champion may shoot
    events = g.when(c.EndShooting(player="red"), dice=[])
    assert [(e.phase, e.force) for e in of(events, ev.PhaseBegan)] == [
        ("melee", "red"),
        ("movement", "blue"),
    ]
    assert kind(g) == ("movement", ("blue",))
    g.when(c.EndMovement(player="blue"), dice=[])
    assert kind(g) == ("skirmish", ("blue",))
    events = g.when(c.EndShooting(player="blue"), dice=[])
    assert [(e.phase, e.force) for e in of(events, ev.PhaseBegan)] == [
        ("melee", "blue"),
        ("shooting", ""),
    ]
    assert kind(g) == ("shooting", ("blue",))  # the defender shoots first


def test_a_skirmish_phase_nobody_can_shoot_in_is_passed_over() -> None:
    g = game(ev.UnitDestroyed(unit="red-skirmishers", reason="test set-up"))
    g.when(c.Move(player="red", unit="red-champion"), dice=[])
    g.when(c.JoinUnit(player="red", hero="red-champion", unit="red-archers"), dice=[])
    events = g.when(c.EndMovement(player="red"), dice=[])
    assert "skirmish" not in [e.phase for e in of(events, ev.PhaseBegan)]


def test_the_attacker_may_issue_one_challenge_in_its_melee_phase() -> None:
    g = game(*engaged("red-warriors", "blue-warriors"))
    g.when(c.EndMovement(player="red"), dice=[])
    g.when(c.EndShooting(player="red"), dice=[])
    assert kind(g) == ("challenge", ("red",))
    events = g.when(c.NoChallenge(player="red"), dice=[])
    assert tags(events)[:2] == ["challenge_forgone", "melee_began"]
    assert one(events, ev.ChallengeForgone).explain() == (
        "red issue no challenge this melee phase: in its melee phase a side may issue one "
        "challenge to Single Combat with a Hero, or none (Turn Sequence, p.27; HB-17)"
    )
    assert kind(g) == ("melee", ("red",))


def shooting(*setup: Event) -> Given:
    return game(*setup, *phase("shooting"))


def test_shooting_alternates_from_the_defender_until_both_are_done() -> None:
    g = shooting()
    g.when(
        c.Shoot(player="blue", shooter="blue-giant", target="red-archers", distance=3), dice=[3] * 5
    )
    assert kind(g) == ("shooting", ("red",))
    g.when(
        c.Shoot(player="red", shooter="red-archers", target="blue-giant", distance=3), dice=[3] * 11
    )
    assert kind(g) == ("shooting", ("blue",))
    g.when(c.EndShooting(player="blue"), dice=[])
    assert kind(g) == ("shooting", ("red",))  # blue passed: red shoots on alone
    g.when(
        c.Shoot(player="red", shooter="red-riders", target="blue-giant", distance=1), dice=[3] * 7
    )
    assert kind(g) == ("shooting", ("red",))


def test_a_side_with_nobody_left_to_shoot_passes_by_itself_and_the_turn_ends() -> None:
    g = shooting()
    g.when(c.EndShooting(player="blue"), dice=[])
    events = g.when(c.EndShooting(player="red"), dice=[])
    assert tags(events)[:5] == [
        "shooting_passed",
        "phase_ended",
        "turn_ended",
        "victory_checked",
        "turn_began",
    ]


def test_each_turn_begins_with_mighty_deeds_equal_to_each_heros_level_the_rest_lost() -> None:
    g = shooting(ev.DeedsSpent(hero="red-lord", deeds=1, purpose="test set-up"))
    g.when(c.EndShooting(player="blue"), dice=[])
    events = g.when(c.EndShooting(player="red"), dice=[])
    refreshed = one(events, ev.DeedsRefreshed)
    assert refreshed.turn == 2
    assert refreshed.deeds["red-lord"] == 3 and refreshed.lost["red-lord"] == 2
    assert "red-lord 3 (2 unused lost)" in refreshed.explain()
    assert g.state.turn == 2 and kind(g) == ("movement", ("red",))


def test_shot_markers_go_at_the_end_of_the_turn() -> None:
    g = shooting()
    g.when(
        c.Shoot(player="blue", shooter="blue-giant", target="red-archers", distance=3), dice=[3] * 5
    )
    assert g.state.units["blue-giant"].shot
    g.when(c.EndShooting(player="red"), dice=[])
    g.when(c.EndShooting(player="blue"), dice=[])
    assert not g.state.units["blue-giant"].shot


# -- the end of the battle (HB-20) ----------------------------------------------------------------------


def end_turn(*setup: Event) -> list[Event]:
    g = shooting(*setup)
    g.when(c.EndShooting(player="blue"), dice=[])
    return g.when(c.EndShooting(player="red"), dice=[])


def test_a_force_left_without_reputation_tokens_loses_at_the_end_of_the_turn() -> None:
    events = end_turn(ev.ReputationLost(force="blue", tokens=10, due=10, reason="test set-up"))
    checked = one(events, ev.VictoryChecked)
    assert (checked.result, checked.tokens) == ("red", {"red": 10, "blue": 0})
    assert one(events, ev.GameEnded).result == "red"


def test_the_game_over_refuses_every_command() -> None:
    g = shooting(ev.ReputationLost(force="blue", tokens=10, due=10, reason="test set-up"))
    g.when(c.EndShooting(player="blue"), dice=[])
    g.when(c.EndShooting(player="red"), dice=[])
    assert g.ruleset.is_terminal(g.state)
    g.when_rejected(c.EndMovement(player="red"), code="rules/game_over")


def test_after_the_last_turn_the_force_with_more_tokens_wins() -> None:
    assert victory({"red": 5, "blue": 4}, {"red": 3, "blue": 3}, last_turn=True) == "red"
    assert victory({"red": 4, "blue": 4}, {"red": 3, "blue": 3}, last_turn=True) == "draw"
    assert victory({"red": 5, "blue": 4}, {"red": 3, "blue": 3}, last_turn=False) == ""
    assert victory({"red": 0, "blue": 0}, {"red": 3, "blue": 3}, last_turn=False) == "draw"
    assert victory({"red": 9, "blue": 1}, {"red": 0, "blue": 3}, last_turn=False) == "blue"
    g = shooting(
        ev.TurnBegan(turn=3),  # the proving ground lasts 3 turns
        ev.ReputationGained(force="blue", tokens=1, reason="test set-up"),
    )
    g.when(c.EndShooting(player="blue"), dice=[])
    events = g.when(c.EndShooting(player="red"), dice=[])
    checked = one(events, ev.VictoryChecked)
    assert (checked.last_turn, checked.result) == (True, "blue")
    assert "the scenario's last turn" in checked.explain()
