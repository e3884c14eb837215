"""What each player sees: secret strategy choices, hands and draws; notices and explanations."""

from __future__ import annotations

import json

from tests.domain.battle_for_armageddon.helpers import at, game, in_phase
from tests.domain.battle_for_armageddon.test_movement import four_moved_into_plain_a
from tests.domain.battle_for_armageddon.test_supply import SECOND_PHASE
from tests.given_when_then import Given, of, one
from tests.projections.test_events_view import posted_by_kind
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.combat_events import CombatEnded, CombatRolled
from warlog.domain.battle_for_armageddon.rules import LAST_TURN
from warlog.domain.battle_for_armageddon.ruleset import RULESET
from warlog.domain.battle_for_armageddon.special_card_events import SpecialCardDrawn
from warlog.domain.battle_for_armageddon.turn_events import PhaseBegan, StrategyChosen, TurnBegan
from warlog.domain.core.events import DiceRolled, Event
from warlog.domain.core.fold import evolve_event
from warlog.domain.core.seal import secrets_of


def _chosen_by_orks() -> tuple[Given, list[Event]]:
    g = game()
    setup = g.when(c.EndSetup(player="orks"), dice=[1, 1, 1])
    g.when(c.ChooseStrategy(player="orks", cards=["movement-combat", "combat-build"]), dice=[])
    return g, setup


def test_the_view_hides_the_opponents_unrevealed_strategy_choice() -> None:
    g, _ = _chosen_by_orks()
    state = g.state
    imperial = RULESET.view(state, "imperials")
    assert imperial["strategy"]["orks"] == {"chosen": True, "cards": []}
    assert imperial["strategy"]["imperials"] == {"chosen": False, "cards": []}
    assert RULESET.view(state, "orks")["strategy"]["orks"]["cards"] == [
        "movement-combat",
        "combat-build",
    ]
    assert RULESET.view(state, None)["strategy"]["orks"]["cards"] == [
        "movement-combat",
        "combat-build",
    ]
    json.dumps(imperial)  # JSON builtins only


def test_revealed_cards_become_visible() -> None:
    g, _ = _chosen_by_orks()
    g.when(c.ChooseStrategy(player="imperials", cards=["build-movement", "combat-build"]), dice=[])
    assert RULESET.view(g.state, "imperials")["strategy"]["orks"]["cards"] == ["movement-combat"]


def test_the_view_hides_the_opponents_hand_and_every_deck() -> None:
    g, _ = _chosen_by_orks()
    state = g.state
    imperial = RULESET.view(state, "imperials")
    assert imperial["hands"]["orks"] == {"count": 2}
    assert len(imperial["hands"]["imperials"]["cards"]) == 2
    assert imperial["decks"]["orks"] == {"count": 0}
    assert "cards" not in imperial["decks"]["imperials"]
    assert "cards" in RULESET.view(state, None)["decks"]["imperials"]
    # the referee sees each deck's cards by name, not in the order they stand (a die picks each
    # card drawn): the game's first state holds them as dealt
    assert RULESET.view(game().state, None)["decks"]["imperials"]["cards"] == [
        "barrage-1",
        "drop-pod-1",
        "reconstruction-1",
    ]


def test_the_opponents_choice_draws_and_draw_dice_are_sealed_in_the_log() -> None:
    _, setup = _chosen_by_orks()
    drawn = of(setup, SpecialCardDrawn)[0]
    assert drawn.player == "imperials"
    assert secrets_of(drawn) == [("card", "imperials"), ("face", "imperials")]
    roll = next(e for e in setup if isinstance(e, DiceRolled) and e.roller == "imperials")
    assert secrets_of(roll) == [("faces", "imperials")]
    chosen = StrategyChosen(player="orks", cards=["movement-combat", "combat-build"])
    assert secrets_of(chosen) == [("cards", "orks")]
    initiative = [e for e in setup if isinstance(e, DiceRolled) and e.purpose == "initiative"]
    assert all(secrets_of(e) == [] for e in initiative)  # public rolls stay in the clear


def test_a_combat_posts_its_result_to_both_players_events_view() -> None:
    g = game(
        *in_phase("orks", "combat"),
        at("boyz-2", "plain_b"),
        at("boyz-3", "plain_b"),
        at("ig-1", "plain_a"),
    )
    g.when(c.Attack(player="orks", target="plain_a", stacks=["plain_b"]), dice=[6])
    g.when(c.Retreat(player="imperials", counter="ig-1", to="hive_a"))
    before = g.state
    ended = one(g.when(c.Advance(player="orks", counters=["boyz-2"])), CombatEnded)
    notes = RULESET.notices(before, g.state, ended)
    assert {n.empire for n in notes} == {"imperials", "orks"}
    assert all(
        n.text.startswith("turn 2: orks attacked plain_a from plain_b at 2:1: DW") for n in notes
    )


def test_the_turn_clock_is_the_game_turn() -> None:
    g = game(TurnBegan(turn=4))
    assert RULESET.round_of(g.state) == 4
    assert RULESET.is_round_start(TurnBegan(turn=4))
    assert not RULESET.is_round_start(PhaseBegan(phase="movement", player="orks", index=0))


def test_the_pending_decision_is_in_the_view() -> None:
    g = game(
        *in_phase("orks", "combat"),
        at("boyz-2", "plain_b"),
        at("ghazghkull", "plain_b"),
        at("ig-1", "plain_a"),
    )
    g.when(c.Attack(player="orks", target="plain_a", stacks=["plain_b"]), dice=[1])
    pending = RULESET.view(g.state, "imperials")["pending"]
    assert pending == {
        "players": ["orks"],
        "kind": "reroll",
        "procedure": "combat",
        "options": ["reroll", "keep_result"],
    }
    assert RULESET.view(g.state, None)["combat"]["column"] == "2:1"


def test_every_event_with_arithmetic_explains_itself() -> None:
    g = game(
        *in_phase("orks", "combat", turn=1),
        at("boyz-2", "river_a"),
        at("ig-1", "plain_a"),
        at("fort-1", "hive_a"),
    )
    events = g.when(c.Attack(player="orks", target="plain_a", stacks=["river_a"]), dice=[5])
    text = one(events, CombatRolled).explain()
    assert text == (
        "attack 3 vs defence 3 → 1:1; d6 5 +1 (Ork attack on turn 1, rules: First Turn Surprise) "
        "−1 (every attacker across a river, rules: Terrain Effects) = 5 → EX (Exchange; "
        "rules: Combat Results Table; BFA-25)"
    )


def test_the_opponents_strategy_command_is_sealed_too() -> None:
    choose = c.ChooseStrategy(player="orks", cards=["movement-combat", "combat-build"], dice=(3, 4))
    # the choice for its chooser alone; a referee's dice for nobody (each roll is its own event)
    assert secrets_of(choose, "command.") == [("command.cards", "orks"), ("command.dice", None)]
    move = c.Move(player="orks", counter="x", to="y")
    assert secrets_of(move, "command.") == []


def test_each_kind_of_events_view_entry_goes_to_both_players_for_its_turns() -> None:
    """Given the recorded golden game, when its Events view is built, then each kind of entry
    goes to both players (nothing of an entry is secret) for its turns: a site ruined or
    rebuilt for 2, the game's end to the last turn (8), everything else for its turn; a supply
    check with nothing cut off and a counter lost otherwise than overstacked post none (the
    combat's or the segment's entry tells of them)."""
    posted = posted_by_kind("battle-for-armageddon", "bfa-golden")
    both = {("orks", 1), ("imperials", 1)}
    assert posted == {
        **dict.fromkeys(
            [
                "initiative_decided",
                "action_segment_began",
                "special_card_played",
                "combat_ended",
                "counter_built",
                "counter_placed",
                "counter_rebuilt",
                "victory_checked",
                "reinforcements_arrived",
            ],
            both,
        ),
        "site_ruined": {("orks", 2), ("imperials", 2)},
        "site_rebuilt": {("orks", 2), ("imperials", 2)},
        "game_ended": {("orks", LAST_TURN), ("imperials", LAST_TURN)},
    }


def _posted(g: Given, command: c.Command) -> list[str]:
    """The Events-view entries ``command``'s events post, each once (both players get each)."""
    state, texts = g.state, []
    for event in g.when(command, dice=[]):
        after = evolve_event(RULESET, state, event)
        notes = RULESET.notices(state, after, event)
        assert {n.empire for n in notes} in ({"orks", "imperials"}, set())
        texts.extend(n.text for n in notes if n.empire == "orks")
        state = after
    return texts


def test_a_supply_check_posts_the_counters_lost_apart_from_the_chapters_that_flipped() -> None:
    """Given ig-1 and the Blood Angels cut off in river_a, when the Imperials' card ends, then
    the Events view says ig-1 was lost and the chapter flipped to its detachment (BFA-13)."""
    g = game(
        *in_phase("imperials", "combat"),
        *SECOND_PHASE,
        at("ig-1", "river_a"),
        at("blood_angels", "river_a"),
        at("boyz-2", "plain_a"),
        at("boyz-3", "ash_b"),
    )
    assert _posted(g, c.EndPhase(player="imperials"))[0] == (
        "turn 2: supply: the imperials cut off in river_a; lost: ig-1; flipped to detachments: "
        "blood_angels"
    )


def test_a_counter_lost_to_overstacking_is_posted_to_both_players() -> None:
    g = four_moved_into_plain_a()
    assert _posted(g, c.EndPhase(player="imperials")) == [
        "turn 2: ig-4 in plain_a: overstacked at the end of the movement phase (BFA-2) → pool"
    ]
