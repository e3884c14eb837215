"""What each empire sees: the view hides the other hand and deck orders; the log seals what it
may not see."""

from __future__ import annotations

import msgspec
import pytest

from tests.domain.armageddon_empires.arena import arena, begin
from tests.domain.armageddon_empires.helpers import game, scenario, sight, start_turns
from tests.recorded import recorded
from warlog.domain.armageddon_empires.challenge_events import HeroCaptured
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    BuyInitiative,
    DrawCard,
    EndTurn,
    HuntHero,
)
from warlog.domain.armageddon_empires.events import CardDrawn, RoundBegan
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import DiceRolled
from warlog.domain.core.fold import evolve_event
from warlog.domain.core.seal import secrets_of


def test_an_empire_sees_the_size_of_the_other_hand_but_not_its_cards() -> None:
    g = start_turns(game())
    red_view = RULESET.view(g.state, "red")
    assert red_view["empires"]["red"]["hand"] == list(g.state.empires["red"].hand)
    assert "hand" not in red_view["empires"]["blue"]
    assert red_view["empires"]["blue"]["hand_size"] == 1
    assert "blue.trooper.2" not in msgspec.json.encode(red_view).decode()


def test_no_empire_sees_a_deck_s_order_and_each_sees_its_own_deck_s_contents() -> None:
    g = start_turns(game())
    red_view = RULESET.view(g.state, "red")
    assert "deck" not in red_view["empires"]["red"] and "deck" not in red_view["empires"]["blue"]
    assert red_view["empires"]["red"]["deck_contents"] == sorted(g.state.empires["red"].deck)
    assert red_view["empires"]["blue"]["deck_size"] == 2
    assert "deck_contents" not in red_view["empires"]["blue"]


def test_the_referee_sees_everything() -> None:
    g = start_turns(game())
    full = RULESET.view(g.state, None)
    assert full["empires"]["blue"]["hand"] == ["blue.trooper.2"]
    assert full["empires"]["red"]["deck"] == list(g.state.empires["red"].deck)
    assert full["active"] == ["red"]
    msgspec.json.encode(full)  # plain JSON builtins


def test_a_pending_initiative_bid_is_sealed_for_the_other_empire() -> None:
    g = game()
    command = BuyInitiative(player="red", count=3)
    events = g.when(command)
    assert RULESET.view(g.state, "blue")["bids"] == {"red": "hidden"}
    assert RULESET.view(g.state, "red")["bids"] == {"red": 3}
    # sealed in the log: in the command and in its event, opened for red alone
    assert secrets_of(command, "command.") == [("command.count", "red")]
    assert secrets_of(events[0]) == [("count", "red")]


def test_the_other_empire_s_draw_seals_the_card_and_the_die_that_picked_it() -> None:
    g = start_turns(game())
    roll, drawn = g.when(DrawCard(player="red"), dice=[3])
    assert isinstance(roll, DiceRolled) and isinstance(drawn, CardDrawn)
    assert secrets_of(roll) == [("faces", "red")]
    assert secrets_of(drawn) == [("card", "red")]


#: what ``game_created`` seals of the test scenario under every version: hands, decks, garrisons
HANDS_DECKS_GARRISONS = [
    ("empires.0.hand", "red"),
    ("empires.0.deck", "red"),
    ("empires.1.hand", "blue"),
    ("empires.1.deck", "blue"),
    ("bases.0.garrison", "red"),
    ("bases.1.garrison", "red"),
    ("bases.2.garrison", "blue"),
]


def test_the_game_s_first_event_seals_each_empire_s_hand_deck_garrisons_and_armies() -> None:
    """Since version 15 (AE-61) each empire's armies and minefields are one list each under
    it, sealed whole for it, its minefields too though it has none: two seals per empire, whatever
    it holds."""
    assert RULESET.hidden_setup(scenario()) == [
        *HANDS_DECKS_GARRISONS,
        ("empires.0.armies", "red"),
        ("empires.0.minefields", "red"),
        ("empires.1.armies", "blue"),
        ("empires.1.minefields", "blue"),
    ]


def test_a_game_of_version_14_keeps_a_seal_for_each_army() -> None:
    """Before version 15 each army was sealed on its own, so that its empire's count showed."""
    old = RULESET.at_version("14")
    assert old is not None
    assert old.hidden_setup(scenario()) == [
        *HANDS_DECKS_GARRISONS,
        ("armies.0", "red"),
        ("armies.1", "red"),
        ("armies.2", "blue"),
    ]


def test_an_empire_s_catalogue_holds_only_the_cards_it_has_seen() -> None:
    g = start_turns(game())
    red = RULESET.view(g.state, "red")
    blue_only = {
        g.state.instances[c].card
        for c in (*g.state.empires["blue"].hand, *g.state.empires["blue"].deck)
    }
    in_sight = {v["card"] for v in red["instances"].values()}
    assert set(red["catalogue"]) == in_sight
    assert set(RULESET.view(g.state, None)["catalogue"]) >= in_sight | blue_only


def test_an_unknown_viewer_is_an_input_error() -> None:
    with pytest.raises(InputError):
        RULESET.view(game().state, "green")


def test_initiative_and_collection_post_one_round_notices_to_each_empire() -> None:
    g = game()
    g.when(BuyInitiative(player="red", count=0))
    before = g.state
    events = g.when(BuyInitiative(player="blue", count=0), dice=[6, 1])
    determined = events[3]
    notes = RULESET.notices(before, g.state, determined)
    assert [(n.empire, n.duration) for n in notes] == [("red", 1), ("blue", 1)]
    # both bought no dice: the tie is re-rolled with a die each (AE-3), and the entry says so
    assert notes[0].text == (
        "Round 1 initiative: 1. red, 1 success on 0 dice bought (1 die when re-rolled, AE-3), "
        "12 AP before bonuses; 2. blue, 0 successes on 0 dice bought (1 die when re-rolled, "
        "AE-3), 6 AP before bonuses (after 1 tied roll re-rolled, AE-3)"
    )
    g.when(EndTurn(player="red"))
    before = g.state
    events = g.when(EndTurn(player="blue"))
    collected = [n for e in events for n in RULESET.notices(before, g.state, e)]
    assert [n.text for n in collected] == [
        "Round 2: collected humans 1, materials 1, energy 2",
        "Round 2: collected energy 1",
    ]
    assert RULESET.round_of(g.state) == 2


# ---------------------------------------------------------------- fog of war (AE-17)


def test_an_empire_sees_only_the_enemy_armies_it_sighted_this_round_as_it_saw_them() -> None:
    g = start_turns(game())
    red = RULESET.view(g.state, "red")
    assert set(red["armies"]) == {"red-a", "red-b", "red-hq-garrison", "red-camp-garrison"}
    assert "blue.trooper.1" not in red["instances"]  # blue-a's card, unseen
    sight(g, "red", "blue-a")
    red = RULESET.view(g.state, "red")
    assert (
        red["armies"]["blue-a"]["at"] == "6,5" and red["armies"]["blue-a"]["how"] == "observation"
    )
    assert red["instances"]["blue.trooper.1"]["card"] == "trooper"
    assert "trooper" in red["catalogue"]
    g.events(RoundBegan(round=2, last_round=3))
    assert "blue-a" not in RULESET.view(g.state, "red")["armies"]


def test_an_empire_sees_nothing_of_the_enemy_s_turn_that_names_an_army_nor_its_ap() -> None:
    g = start_turns(game())
    blue = RULESET.view(g.state, "blue")["empires"]["red"]
    assert not {"moved", "out_of_supply", "hunted", "seen", "ap"} & set(blue)
    assert "ap" in RULESET.view(g.state, "red")["empires"]["red"]
    ended = g.when(EndTurn(player="red"))[0]
    assert secrets_of(ended) == [("ap_lost", "red")]


def test_the_events_view_posts_sightings_to_the_observer_and_hunt_outcomes_to_both() -> None:
    g = begin(arena())
    before = g.state
    sight(g, "red", "blue-quarry")
    posted = RULESET.notices(before, g.state, g.history[-1])
    assert [(n.empire, n.duration) for n in posted] == [("red", 1)]
    assert "sighted blue-quarry at 2,1 (observation)" in posted[0].text
    g.when(HuntHero(player="red", army="red-hunt"), dice=[6, 5, 4, 4, 1, 1, 6, 5, 4, 1])
    g.when(AcceptChallenge(player="blue"))
    before = g.state
    events = g.when(AcceptChallenge(player="red"))
    captured = next(e for e in events if isinstance(e, HeroCaptured))
    state = before
    for event in events[: events.index(captured)]:
        state = RULESET.evolve(state, event)
    posted = RULESET.notices(state, RULESET.evolve(state, captured), captured)
    assert [(n.empire, n.duration) for n in posted] == [("red", 2), ("blue", 2)]
    assert posted[0].text == "Round 1: blue.quarry.1 captured by red, held at red-camp"


def test_each_kind_of_events_view_entry_stays_as_long_as_r9_and_ae7_say() -> None:
    """Given the recorded golden game, when each event's Events-view entries are made, then each
    kind stays its rounds (R9, AE-7): news of the round for 1 (initiative, resources, supply,
    sightings, a challenge's or a hunt's result, a battle's end, hidden challenges that destroy
    nothing, a hero escaping, the game's end); a card destroyed, a hero captured or killed, a
    minefield walked into and a base captured for 2."""
    arb, game = recorded("armageddon-empires", "ae-golden")
    ruleset = arb.ruleset_of(game)
    durations: dict[str, set[int]] = {}
    state = None
    for _, event in arb.events(game):
        before, state = state, evolve_event(ruleset, state, event)
        if before is not None:
            for notice in ruleset.notices(before, state, event):
                durations.setdefault(event.type_name(), set()).add(notice.duration)
    one = {
        "initiative_determined",
        "resources_collected",
        "supply_traced",
        "armies_sighted",
        "challenge_resolved",
        "capture_kill_began",
        "battle_ended",
        "fallout_suffered",
        "hero_escaped",
        "game_ended",
    }
    two = {"card_damaged", "hero_captured", "hero_killed", "minefields_checked", "base_captured"}
    two |= {"minefields_reported"}
    assert durations == {**{kind: {1} for kind in one}, **{kind: {2} for kind in two}}


def test_an_empire_s_view_lists_armies_and_cards_by_id_whatever_order_they_came_in() -> None:
    """Given red has sighted blue-a, when the state holds the armies and the cards in another
    order (as an army created in play, or a card dealt into a garrison rather than an army,
    stands elsewhere in it), then red's view is the same, byte for byte: it lists them by id,
    so where a blue card or army stands among red's tells nothing of where it came from."""
    g = sight(start_turns(game()), "red", "blue-a")
    state = g.state
    turned = msgspec.structs.replace(
        state,
        armies=dict(reversed(state.armies.items())),
        instances=dict(reversed(state.instances.items())),
    )
    views = [msgspec.json.encode(RULESET.view(s, "red")) for s in (state, turned)]
    assert views[0] == views[1]
    red = RULESET.view(state, "red")
    for listed in ("armies", "instances", "fate_spent", "minefields", "damage"):
        assert list(red[listed]) == sorted(red[listed])
    assert "blue-a" in red["armies"]
