"""What the players see: Midgard hides nothing, so every view is the whole state and every event
is shown as it is; the pending decision is described for the table."""

from __future__ import annotations

import json

from tests.domain.heroic_battles.helpers import (
    declare,
    engaged,
    fighting,
    game,
    open_field,
    phase,
)
from tests.domain.heroic_battles.test_melee import fought, melee
from tests.given_when_then import Given, one
from tests.projections.test_events_view import posted_by_kind
from warlog.arbiter.application import Arbiter
from warlog.arbiter.autoplay import autoplay
from warlog.domain import rulesets
from warlog.domain.core.summary import Table
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.ruleset import RULESET
from warlog.eventstore.memory_store import MemoryStore


def test_every_player_and_the_referee_see_the_same_whole_state() -> None:
    g = game(*engaged("red-brutes", "blue-horde"), *fighting())
    referee = RULESET.view(g.state, None)
    assert RULESET.view(g.state, "red") == referee == RULESET.view(g.state, "blue")
    json.dumps(referee)  # JSON builtins only
    assert referee["pending"] == {
        "players": ["red"],
        "kind": "melee",
        "procedure": "melee",
        "combat": "melee-1",
        "options": [],
    }
    assert referee["units"]["red-brutes"]["charging"] is True
    assert referee["combats"] == [
        {
            "id": "melee-1",
            "sides": {"red": ["red-brutes"], "blue": ["blue-horde"]},
            "flanked": [],
            "flankers": [],
        }
    ]
    assert referee["forces"]["red"] == {"name": "Red", "tokens": 10, "on_table": 7}


def test_every_player_reads_the_same_log_as_the_referee() -> None:
    arbiter = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: bytes(range(32)))
    game_id = arbiter.new_game("heroic-battles", game="hb")
    autoplay(arbiter, game_id, 40)
    referee = [(r.seq, r.type, r.data) for r in arbiter.records_as(game_id, None)]
    assert any(t == "dice_rolled" for _, t, _ in referee)
    for player in ("britons", "saxons"):
        assert [(r.seq, r.type, r.data) for r in arbiter.records_as(game_id, player)] == referee
        assert arbiter.view(game_id, player=player)["state"] == arbiter.view(game_id)["state"]


def test_the_view_of_the_bundled_battle_before_the_first_command() -> None:
    view = RULESET.view(RULESET.initial_state(open_field()), None)
    assert (view["turn"], view["phase"], view["phasing"], view["last_turn"]) == (
        1,
        "movement",
        "saxons",
        6,
    )
    assert view["pending"] == {"players": ["saxons"], "kind": "movement"}
    assert view["heroes"]["artos"]["unit"] == "mounted-comitatus-1"


def test_an_awaited_roll_is_what_the_view_shows_pending() -> None:
    g: Given = game(*engaged("red-brutes", "blue-steadfast"), *fighting())
    g.when(c.DeclareMelee(player="red", combat="melee-1"), dice=[])
    g.when(c.DeclareMelee(player="blue", combat="melee-1"), dice=[1] + [3] * 9 + [3] * 13)
    pending = RULESET.view(g.state, "blue")["pending"]
    assert pending["kind"] == "roll" and pending["players"] == ["red"]
    assert pending["dice"] == "1"


def test_the_summary_reads_the_battle_in_the_games_words() -> None:
    g = game(*engaged("red-brutes", "blue-horde"), *fighting())
    summary = RULESET.summary(RULESET.view(g.state, "blue"), "blue")
    assert summary.headline == "Turn 1 of 3 — the melee phase of red (red attack, blue defend)"
    assert summary.waiting == (
        "red must declare for melee-1: supports, hill or barrier, rough terrain, Mighty Deeds"
    )
    tables = {t.title: t for t in summary.tables}
    assert tables["forces"].rows[0] == ["red", "Red", "10 tokens", "7"]
    brutes = next(r for r in tables["units"].rows if r[0] == "red-brutes")
    assert brutes[3:] == ["4/4", "8", "2", "charging", "-", "melee-1"]
    assert tables["melees"].rows == [["melee-1", "red-brutes", "blue-horde", "-"]]
    assert "warlog keeps no positions" in summary.legend
    assert (RULESET.round_word, RULESET.seat_word) == ("turn", "force")


def test_the_summary_shows_the_melee_being_fought_as_far_as_it_has_gone() -> None:
    """Given red's warriors (with the Red Lord's Legendary Weapon) in melee with blue's
    steadfast, when red has declared, the summary shows red's declaration and blue's still to
    come; when blue has declared holding a hill and every die is rolled, it shows the hits each
    scored (the Legendary ones apart), blue's saves and the hits each primary fighter takes."""
    g = game(*engaged("red-warriors", "blue-steadfast"), *fighting())
    g.when(c.DeclareMelee(player="red", combat="melee-1", deeds={"red-lord": 1}), dice=[])

    def fought() -> Table:
        tables = RULESET.summary(RULESET.view(g.state, "blue"), "blue").tables
        return next(t for t in tables if t.title.startswith("melee-1 being fought"))

    declared = fought()
    assert declared.title == "melee-1 being fought: declarations"
    assert declared.rows == [
        ["red", "Mighty Deeds red-lord 1", "-", "-", "-"],
        ["blue", "not yet", "-", "-", "-"],
    ]
    red = [3] * 12 + [6, 6, 6] + [3]  # warriors no hit; the Legendary Weapon 3; the deed's die a 3
    g.when(
        c.DeclareMelee(player="blue", combat="melee-1", holding=True),
        dice=red + [5, 5] + [3] * 11 + [5, 2],  # blue: 2 hits; holding the hill: 1 save
    )
    counted = fought()
    assert counted.rows == [
        ["red", "Mighty Deeds red-lord 1", "3 (3 Legendary)", "0", "2 on red-warriors"],
        ["blue", "holds a hill or barrier", "2", "1", "2 on blue-steadfast"],
    ]


def test_each_kind_of_events_view_entry_goes_to_both_sides_for_its_turn() -> None:
    """Given the recorded golden battle, when its Events view is built, then every deed's
    reputation gained or lost, a challenge refused, units and heroes lost, each melee's result
    and each turn's victory check go to both sides for their turn; the battle's end stays to
    the last turn (6): the Events view posts nothing else."""
    posted = posted_by_kind("heroic-battles", "hb-golden")
    both = {("britons", 1), ("saxons", 1)}
    assert posted == {
        **dict.fromkeys(
            [
                "reputation_gained",
                "reputation_lost",
                "challenge_refused",
                "unit_destroyed",
                "hero_killed",
                "melee_decided",
                "victory_checked",
            ],
            both,
        ),
        "game_ended": {("britons", 6), ("saxons", 6)},
    }


def test_a_round_of_single_combat_posts_its_result_to_both_sides_for_the_turn() -> None:
    """Given the Red Lord's challenge accepted by the Blue King, when the first round of single
    combat is rolled (2 hits to 1, the lord's Legendary Weapon counting double, HB-12), then its
    result goes to both sides' Events view for the turn, as a melee's does."""
    g = game(*engaged("red-warriors", "blue-warriors"), *phase("melee", "red"))
    g.when(c.Challenge(player="red", hero="red-lord", opponent="blue-king"), dice=[])
    g.when(c.AcceptChallenge(player="blue", hero="blue-king"), dice=[])
    g.when(c.SpendDeeds(player="red", hero="red-lord", deeds=0), dice=[])
    before = g.state
    events = g.when(c.SpendDeeds(player="blue", hero="blue-king", deeds=0), dice=[6, 3, 3, 5, 3])
    fought = one(events, ev.SingleCombatRound)
    posted = RULESET.notices(before, g.state, fought)
    assert [(n.empire, n.duration) for n in posted] == [("red", 1), ("blue", 1)]
    assert posted[0].text == f"turn {g.state.turn}: {fought.explain()}"


def test_the_summary_of_a_drawn_melee_waiting_on_a_disengage_says_it_was_a_draw() -> None:
    """Given red's riders (Disengage) in melee with blue's steadfast, when blue declares the
    Blue King's Inspiring deed and every die is a 3, then red is asked whether the riders
    disengage, and the summary's melee reads a draw and names the inspiration."""
    g = melee(*engaged("red-riders", "blue-steadfast"))
    fought(g, blue=declare("blue", inspire={"blue-king": 1}))
    assert g.ruleset.decision(g.state).kind == "disengage"
    tables = RULESET.summary(RULESET.view(g.state, "blue"), "blue").tables
    melee_1 = next(t for t in tables if t.title.startswith("melee-1 being fought"))
    assert melee_1.title == "melee-1 being fought: disengaging — a draw"
    assert melee_1.rows[1][:2] == ["blue", "Inspiring blue-king 1"]
