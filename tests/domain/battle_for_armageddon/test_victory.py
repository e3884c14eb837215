"""The victory segment: Ork captures, Imperial control with Ghazghkull gone, a draw after turn 8."""

from __future__ import annotations

from tests.domain.battle_for_armageddon.helpers import at, game, off
from tests.given_when_then import Given, one
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.combat_events import SiteRuined
from warlog.domain.battle_for_armageddon.ruleset import RULESET
from warlog.domain.battle_for_armageddon.turn_events import (
    ActionSegmentBegan,
    GameEnded,
    InitiativeDecided,
    PhaseBegan,
    StrategyChosen,
    TurnBegan,
    VictoryChecked,
)
from warlog.domain.core.events import Event


def last_phase_of(turn: int, *setup: Event) -> Given:
    """The Orks' fourth action segment of ``turn``, in its second phase (movement)."""
    return game(
        TurnBegan(turn=turn),
        StrategyChosen(player="orks", cards=["movement-combat", "combat-movement"]),
        StrategyChosen(player="imperials", cards=["movement-combat", "combat-build"]),
        InitiativeDecided(player="imperials", turn=turn, reason="test"),
        ActionSegmentBegan(
            segment=4, player="orks", card="combat-movement", phases=["combat", "movement"]
        ),
        PhaseBegan(phase="movement", player="orks", index=1),
        *setup,
    )


def ruin(site: str, track: int = 0) -> SiteRuined:
    return SiteRuined(site=site, area=site, defence=0, track=track)


def test_the_orks_win_with_three_hives_captured() -> None:
    g = last_phase_of(
        3,
        ruin("hive_b"),
        at("boyz-2", "hive_b"),
        ruin("hive_c"),
        at("boyz-3", "hive_c"),
        ruin("hive_d"),
        at("boyz-4", "hive_d"),
    )
    events = g.when(c.EndPhase(player="orks"))
    check = one(events, VictoryChecked)
    assert (check.captured, check.result) == (["hive_b", "hive_c", "hive_d"], "orks")
    assert one(events, GameEnded).result == "orks"
    assert RULESET.is_terminal(g.state)
    assert RULESET.active_players(g.state) == []
    assert RULESET.legal_commands(g.state, "orks") == []
    g.when_rejected(c.EndPhase(player="orks"), code="rules/game_over")


def test_ruins_without_an_ork_on_them_are_not_captured() -> None:
    g = last_phase_of(
        3,
        ruin("hive_b"),
        at("boyz-2", "hive_b"),
        ruin("hive_c"),
        at("boyz-3", "hive_c"),
        ruin("hive_d"),
    )
    events = g.when(c.EndPhase(player="orks"))
    assert one(events, VictoryChecked).result == ""
    assert one(events, TurnBegan).turn == 4
    assert g.state.stage == "strategy"


def test_the_imperials_win_holding_all_five_hives_with_ghazghkull_gone() -> None:
    g = last_phase_of(5, ruin("hive_b"), at("ig-1", "hive_b"), off("ghazghkull", "removed"))
    check = one(g.when(c.EndPhase(player="orks")), VictoryChecked)
    assert len(check.held) == 5 and not check.ghazghkull_in_play
    assert check.result == "imperials"


def test_the_imperials_do_not_win_while_ghazghkull_is_in_play() -> None:
    g = last_phase_of(5, at("ghazghkull", "ork_c"))
    check = one(g.when(c.EndPhase(player="orks")), VictoryChecked)
    assert check.ghazghkull_in_play and check.result == ""


def test_a_ruined_hive_nobody_stands_on_is_not_held() -> None:
    g = last_phase_of(5, ruin("hive_b"), off("ghazghkull", "removed"))
    check = one(g.when(c.EndPhase(player="orks")), VictoryChecked)
    assert "hive_b" not in check.held and check.result == ""


def test_the_game_is_a_draw_after_turn_8() -> None:
    g = last_phase_of(8, at("ghazghkull", "ork_c"))
    events = g.when(c.EndPhase(player="orks"))
    ended = one(events, GameEnded)
    assert ended.result == "draw"
    assert "turn 8" in ended.reason
    assert g.state.result == "draw"
