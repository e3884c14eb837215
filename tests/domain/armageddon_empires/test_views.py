"""What each empire sees: the view hides the other hand and deck orders; the log seals what it
may not see."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tests.domain.armageddon_empires.arena import arena, begin, open_challenge, side
from tests.domain.armageddon_empires.helpers import (
    PICK,
    game,
    only,
    scenario,
    sight,
    start_turns,
)
from tests.domain.armageddon_empires.test_engineers import engineers, walked_in
from tests.domain.armageddon_empires.test_ground_to_air import flak_asked
from tests.recorded import recorded
from warlog.domain.armageddon_empires.challenge_events import CaptureKillBegan, HeroCaptured
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    BuyInitiative,
    DrawCard,
    EndTurn,
    HuntHero,
    LiftMinefield,
    Roll,
)
from warlog.domain.armageddon_empires.events import CardDrawn, RoundBegan, SupplyTraced
from warlog.domain.armageddon_empires.minefield_events import (
    MinefieldLifted,
)
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
    it holds; since version 23 the independent minefields one more, sealed for every player,
    though there are none (AE-67)."""
    by_empire = [
        *HANDS_DECKS_GARRISONS,
        ("empires.0.armies", "red"),
        ("empires.0.minefields", "red"),
        ("empires.1.armies", "blue"),
        ("empires.1.minefields", "blue"),
    ]
    assert RULESET.hidden_setup(scenario()) == [*by_empire, ("independent.minefields", None)]
    older = RULESET.at_version("22")
    assert older is not None and older.hidden_setup(scenario()) == by_empire


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
    before = g.state
    hunt = g.when(HuntHero(player="red", army="red-hunt"), dice=PICK)
    began = next(e for e in hunt if isinstance(e, CaptureKillBegan))
    posted = RULESET.notices(before, g.state, began)
    # the hunted empire learns of the hunt as the hunter does (AE-7), for the round
    assert [(n.empire, n.duration) for n in posted] == [("red", 1), ("blue", 1)]
    g.when(Roll(player="red"), dice=[6, 5, 4, 4, 1, 1, 6, 5, 4, 1])  # AE-37: after the pick
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


def _recipients(event: Any, seats: list[str]) -> list[str]:
    """Whom R9 and AE-7 post ``event``'s entry to: the empire it is news to alone, both sides of
    a hunt, a challenge or a battle, or every empire for what is public."""
    kind = event.type_name()
    if kind in {"resources_collected", "supply_traced", "fallout_suffered", "minefields_checked"}:
        return [event.empire]
    if kind == "armies_sighted":
        return [event.observer]
    if kind == "minefields_reported":
        return [event.controller]
    if kind == "initiative_determined":
        return list(event.order)
    if kind in {"capture_kill_began", "hero_captured", "hero_killed", "hero_escaped"}:
        return [event.frame.hunter, event.frame.target_empire]
    if kind == "challenge_resolved":
        c = event.challenge
        return sorted({c.attacker.empire, *(() if c.defender is None else (c.defender.empire,))})
    if kind == "battle_ended":
        return [event.winner, event.loser]
    return seats


def test_each_events_view_entry_goes_to_the_empires_it_is_news_to_and_no_other() -> None:
    """Given the recorded golden game, when each event's Events-view entries are made, then
    each goes to the empires R9 and AE-7 name: what only one empire knows (its resources, its
    supply, its sightings, its hidden challenges, a minefield's attack or loss) to it alone; a
    hunt, a challenge or a battle to both its sides; what is public to every empire."""
    arb, game = recorded("armageddon-empires", "ae-golden")
    ruleset = arb.ruleset_of(game)
    state = None
    kinds = set()
    for _, event in arb.events(game):
        before, state = state, evolve_event(ruleset, state, event)
        if before is None:
            continue
        posted = [n.empire for n in ruleset.notices(before, state, event)]
        if posted:
            kinds.add(event.type_name())
            assert posted == _recipients(event, list(state.seats)), event.type_name()
    assert {
        "minefields_checked",
        "minefields_reported",
        "battle_ended",
        "fallout_suffered",
    } <= kinds


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


def test_what_the_other_empire_sighted_of_one_s_armies_is_not_in_one_s_view() -> None:
    """Given blue's hidden check sights red-a (R7: its observation is blue's alone), when red
    looks, then red's view is the same as before, its sightings its own alone (none): red learns
    nothing of which of its armies blue has in sight; blue's view holds red-a as blue saw it."""
    g = start_turns(game())
    before = RULESET.view(g.state, "red")
    sight(g, "blue", "red-a")
    assert RULESET.view(g.state, "red") == before
    assert before["sightings"] == {"red": {}}
    blue = RULESET.view(g.state, "blue")
    assert list(blue["sightings"]) == ["blue"] and list(blue["sightings"]["blue"]) == ["red-a"]


def test_the_armies_a_collateral_strike_will_challenge_are_the_referee_s_alone() -> None:
    """Given an air strike's collateral damage is to challenge blue-a, unseen by red (p.31;
    AE-46: the list is the referee's), when each empire looks, then no player's view holds the
    list nor names the army; the referee's does."""
    g = start_turns(game())
    g.state = msgspec.structs.replace(g.state, collateral=("blue-a",))
    assert RULESET.view(g.state, None)["collateral"] == ["blue-a"]
    for empire in ("red", "blue"):
        assert "collateral" not in RULESET.view(g.state, empire)
    assert "blue-a" not in msgspec.json.encode(RULESET.view(g.state, "red")).decode()


def test_a_hero_s_fate_spent_shows_only_while_the_hero_is_in_view() -> None:
    """Given blue's quarry has spent a fate point this round (R6) in an army red has not
    sighted, when red looks, then its view holds no fate spent of the quarry (which would tell
    the hero is in play); once red sights the army, it shows the point spent."""
    g = begin(arena())
    g.state = msgspec.structs.replace(g.state, fate_spent={"blue.quarry.1": 1})
    assert RULESET.view(g.state, "red")["fate_spent"] == {}
    assert RULESET.view(g.state, "blue")["fate_spent"] == {"blue.quarry.1": 1}
    sight(g, "red", "blue-quarry")
    assert RULESET.view(g.state, "red")["fate_spent"] == {"blue.quarry.1": 1}


def test_a_hero_held_prisoner_stays_in_view_of_the_empire_holding_it() -> None:
    """Given red's hunters captured blue's quarry, held at red-camp (p.30), when the next round
    begins and red's sighting of the quarry's army ends (AE-17), then red still sees the hero
    card among its base's prisoners: a base and what it holds are public (p.24)."""
    g = sight(begin(arena()), "red", "blue-quarry")
    g.when(HuntHero(player="red", army="red-hunt"), dice=PICK)
    g.when(Roll(player="red"), dice=[6, 5, 4, 4, 1, 1, 6, 5, 4, 1])
    g.when(AcceptChallenge(player="blue"))
    g.when(AcceptChallenge(player="red"))
    g.events(RoundBegan(round=2, last_round=4))
    red = RULESET.view(g.state, "red")
    assert red["bases"]["red-camp"]["prisoners"] == ["blue.quarry.1"]
    assert red["sightings"] == {"red": {}}
    assert red["instances"]["blue.quarry.1"]["card"] == "quarry"


def test_the_hero_whose_fate_a_challenge_side_spends_is_in_view_while_it_is_open() -> None:
    """Given blue's quarry, in an army red has not sighted, when a challenge opens in which
    blue's side may spend the quarry's fate (R6), then red sees the hero's card while the
    challenge is open: the fate it spends is played in the open (AE-20)."""
    g = begin(arena())
    assert "blue.quarry.1" not in RULESET.view(g.state, "red")["instances"]
    open_challenge(g, side("red", [6, 6]), side("blue", [1, 1], hero="blue.quarry.1"))
    assert RULESET.view(g.state, "red")["instances"]["blue.quarry.1"]["card"] == "quarry"


def test_a_minefield_lifted_is_news_to_the_minefield_s_empire_alone() -> None:
    """Given red's Engineer lifts blue's minefield it walked into (p.46), when the lift's entry
    is posted, then it goes to blue, the minefield's empire, for 2 rounds (AE-55), naming the
    minefield and not the army; red, which lifted it, gets none."""
    g = walked_in(engineers())
    lifted = only(g.when(LiftMinefield(player="red", army="red-eng")), MinefieldLifted)
    [notice] = RULESET.notices(g.state, g.state, lifted)
    assert (notice.empire, notice.duration) == ("blue", 2)
    assert "blue-mines" in notice.text and "red-eng" not in notice.text


def test_an_empire_with_every_army_in_supply_gets_no_out_of_supply_entry() -> None:
    """Given red's turn starts with every army in supply (p.26), when its supply is traced,
    then no entry is posted: R9's entry names the armies out of supply, and there are none."""
    g = start_turns(game())
    traced = SupplyTraced(
        empire="red", supply_range=4, sources=("red-hq at 0,0",), out_of_supply=()
    )
    assert RULESET.notices(g.state, g.state, traced) == []


def test_a_gunner_an_air_strike_names_is_in_the_striker_s_view_in_a_game_of_version_12() -> None:
    """Given a game of version 12, whose Ground-To-Air window names every gunner in the hex to
    every empire (AE-41, closed since version 13), when red's harrier strikes blue's base
    garrisoned by flak, then red's view holds the flak the event named, while the strike lasts."""
    g, _ = flak_asked(version=12)
    assert RULESET.view(g.state, "red")["instances"]["blue.flak.1"]["card"] == "flak"
