"""Each invariant of Armageddon Empires fires when a state breaks it the way an evolve bug would,
names what broke in words a rules developer acts on, and holds at its limit."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from tests.domain.armageddon_empires.arena import arena, begin, open_challenge, side
from tests.domain.armageddon_empires.battle_helpers import VERSUS_FOX, attack_at, field
from tests.domain.armageddon_empires.games import with_independent_minefields
from tests.domain.armageddon_empires.helpers import army_block, game, sight, start_turns
from warlog.domain.armageddon_empires.cards import entry
from warlog.domain.armageddon_empires.challenge import Challenge
from warlog.domain.armageddon_empires.frames import Battle
from warlog.domain.armageddon_empires.invariants import violations
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.scenario_checks import bundled
from warlog.domain.armageddon_empires.state import Army, GameState

CAPTAIN = "red.captain.1"  # leads red-a (fate 2, 2 wounds)
TROOPER = "red.trooper.2"  # in red-a (2 hit points)


def opening() -> GameState:
    """The test scenario's opening: red-a (the captain, two troopers) at 1,0, red-b (a scout) at
    0,1, blue-a at 6,5; red holds 5 cards of its limit of 6; round 1 of 3, initiative."""
    return game().state


def broken(state: GameState) -> list[str]:
    return [v.line() for v in violations(state)]


def with_empire(state: GameState, empire: str, **changes: Any) -> GameState:
    emp = replace(state.empires[empire], **changes)
    return replace(state, empires={**state.empires, empire: emp})


def with_army(state: GameState, army: str, **changes: Any) -> GameState:
    return replace(state, armies={**state.armies, army: replace(state.armies[army], **changes)})


def with_base(state: GameState, base: str, **changes: Any) -> GameState:
    return replace(state, bases={**state.bases, base: replace(state.bases[base], **changes)})


def test_the_opening_breaks_no_invariant() -> None:
    assert broken(opening()) == []


def test_ap_is_never_negative() -> None:
    """Given the opening, when red is left with -1 AP, then ap_never_negative names it; 0 AP
    holds."""
    state = opening()
    assert broken(with_empire(state, "red", ap=-1)) == ["ap_never_negative: red has -1 AP"]
    assert broken(with_empire(state, "red", ap=0)) == []


def test_ap_owed_stays_within_what_the_next_turn_can_pay() -> None:
    """AE-19: an empire owes at most 6 AP, and never less than none."""
    state = opening()
    assert broken(with_empire(state, "red", ap_owed=6)) == []
    assert broken(with_empire(state, "red", ap_owed=7)) == [
        "ap_owed_within_bound: red owes 7 AP, at most 6"
    ]
    assert broken(with_empire(state, "blue", ap_owed=-1)) == [
        "ap_owed_within_bound: blue owes -1 AP, at most 6"
    ]


def test_a_stockpile_is_never_negative() -> None:
    state = opening()
    short = replace(state.empires["blue"].resources, energy=-1)
    assert broken(with_empire(state, "blue", resources=short)) == [
        "stockpile_never_negative: blue holds "
        "Resources(humans=9, materials=9, energy=-1, technology=0)"
    ]
    spent = replace(short, humans=0, materials=0, energy=0)
    assert broken(with_empire(state, "blue", resources=spent)) == []


def test_a_hand_holds_at_most_its_limit() -> None:
    """AE-6: given red's 5 cards of 6, when a draw puts a sixth in the hand the hand is full;
    a seventh breaks hand_limit."""
    state = opening()
    red = state.empires["red"]
    full = with_empire(state, "red", hand=(*red.hand, red.deck[0]), deck=red.deck[1:])
    assert broken(full) == []
    over = with_empire(state, "red", hand=(*red.hand, *red.deck[:2]), deck=red.deck[2:])
    assert broken(over) == ["hand_limit: red holds 7 cards"]


def test_a_card_is_held_by_its_owner() -> None:
    """Given the opening, when blue's card is dealt into red's hand, then cards_held_by_owner
    names the card and who holds it."""
    state = opening()
    blue = state.empires["blue"]
    stray = with_empire(state, "red", hand=(*state.empires["red"].hand, "blue.trooper.2"))
    stray = with_empire(stray, "blue", hand=blue.hand[1:])
    assert broken(stray) == ["cards_held_by_owner: red holds blue.trooper.2"]
    joined = with_army(state, "red-b", units=(*state.armies["red-b"].units, "blue.trooper.2"))
    joined = with_empire(joined, "blue", hand=blue.hand[1:])
    assert broken(joined) == ["cards_held_by_owner: red-b holds ['blue.trooper.2']"]


def test_a_card_lost_face_down_lies_in_its_owner_s_discard_pile() -> None:
    """AE-49: a card face down that is not in the discard pile breaks face_down_in_discard."""
    state = opening()
    red = state.empires["red"]
    lost = with_empire(state, "red", face_down=("red.scout.3",))
    assert broken(lost) == ["face_down_in_discard: red: ('red.scout.3',)"]
    discarded = with_empire(lost, "red", deck=red.deck[:1] + red.deck[2:], discard=("red.scout.3",))
    assert broken(discarded) == []


def test_every_card_is_in_exactly_one_place() -> None:
    """Given the opening, when a drawn card stays in the deck too, or leaves the deck for
    nowhere, then cards_in_one_place names that card alone."""
    state = opening()
    red = state.empires["red"]
    twice = with_empire(state, "red", hand=(*red.hand, red.deck[0]))
    assert broken(twice) == [
        "cards_in_one_place: cards not in exactly one place: ['red.trooper.5']"
    ]
    lost = with_empire(state, "red", deck=red.deck[1:])
    assert broken(lost) == ["cards_in_one_place: cards not in exactly one place: ['red.trooper.5']"]


def test_an_army_holds_at_most_eight_units() -> None:
    """p.22–23: an army of 8 units holds; a ninth, deployed from the hand, breaks army_size."""
    eight = army_block("red-horde", "red", "2,2", units=("trooper",) * 8)
    state = game(armies=eight).state
    assert broken(state) == []
    red = state.empires["red"]
    horde = state.armies["red-horde"]
    nine = with_army(state, "red-horde", units=(*horde.units, red.hand[0]))
    nine = with_empire(nine, "red", hand=red.hand[1:])
    assert broken(nine) == ["army_size: red-horde holds 9 units"]


def test_a_hero_stands_in_the_hero_s_slot_and_units_in_the_units() -> None:
    """p.22–23: given red-a, when its captain and a trooper swap slots, then army_slots names
    each card in the wrong slot."""
    state = opening()
    swapped = with_army(state, "red-a", hero=TROOPER, units=(CAPTAIN, "red.trooper.3"))
    assert broken(swapped) == [
        f"army_slots: red-a holds {TROOPER}, a unit, as a hero",
        f"army_slots: red-a holds {CAPTAIN}, a hero, as a unit",
    ]


def test_an_army_stealths_only_when_every_card_can() -> None:
    """p.23, p.27: given red's shade (Stealth 5) and wisp (Stealth 4) stealthed in the arena,
    when a trooper joins them, then stealth_needs_every_card names the trooper."""
    ghosts = army_block("red-ghosts", "red", "3,2", hero="shade", units=("wisp",))
    state = arena(ghosts).state
    state = with_army(state, "red-ghosts", stealthed=True)
    assert broken(state) == []
    wisp = state.catalogue["wisp"].spec
    faint = {**state.catalogue, "wisp": entry(replace(wisp, abilities=["Stealth 1"]))}
    assert broken(replace(state, catalogue=faint)) == []  # the lowest level that stealths
    garrison = state.armies["red-hq-garrison"]
    trooper = garrison.units[0]
    joined = with_army(state, "red-hq-garrison", units=())
    joined = with_army(joined, "red-ghosts", units=(*state.armies["red-ghosts"].units, trooper))
    assert broken(joined) == [
        f"stealth_needs_every_card: red-ghosts is stealthed with ['{trooper}'], which cannot "
        "stealth"
    ]


def test_armies_stand_on_the_map() -> None:
    state = opening()
    assert broken(with_army(state, "red-b", at="9,9")) == ["armies_on_the_map: red-b is at 9,9"]
    assert broken(with_army(state, "red-b", at="7,0")) == []


def test_at_most_eight_armies_of_an_empire_share_a_hex() -> None:
    """p.22–23: red-b and 7 empty armies at 0,1 hold; an eighth empty army breaks
    armies_per_hex."""
    state = opening()

    def crowd(n: int) -> GameState:
        more = {f"red-c{i}": Army(id=f"red-c{i}", empire="red", at="0,1") for i in range(n)}
        return replace(state, armies={**state.armies, **more})

    assert broken(crowd(7)) == []
    assert broken(crowd(8)) == ["armies_per_hex: more than 8: ['red at 0,1']"]


def test_a_garrison_stands_at_its_base() -> None:
    """AE-8: a garrison that walks off, or a base whose garrison is gone, breaks garrisons."""
    state = opening()
    assert broken(with_army(state, "red-hq-garrison", at="1,1")) == [
        "garrisons: red-hq-garrison is not at its base"
    ]
    assert broken(with_base(state, "red-camp", garrison="red-nobody")) == [
        "garrisons: red-camp lost its garrison",
        "garrisons: red-camp-garrison is not at its base",
    ]


def test_a_base_s_garrison_is_its_owner_s() -> None:
    """AE-8, AE-34: given blue's empty garrison, when it is made red's but its base stays
    blue's, then garrisons names the base and who holds it."""
    state = opening()
    assert broken(with_army(state, "blue-hq-garrison", empire="red")) == [
        "garrisons: blue-hq of blue is held by red"
    ]


def test_a_base_holds_facility_cards() -> None:
    """p.18: given red-hq, when its card is swapped with the scout in red's hand, then
    bases_hold_facilities names the scout."""
    state = opening()
    red = state.empires["red"]
    base = with_base(state, "red-hq", card="red.scout.2")
    base = with_empire(
        base, "red", hand=tuple("red.keep.1" if c == "red.scout.2" else c for c in red.hand)
    )
    assert broken(base) == ["bases_hold_facilities: red-hq holds red.scout.2, a unit"]
    depot = with_base(state, "red-hq", facilities=("red.depot.1",))
    depot = with_empire(depot, "red", hand=tuple(c for c in red.hand if c != "red.depot.1"))
    assert broken(depot) == []
    built = with_base(depot, "red-hq", facilities=("red.scout.2",))
    built = with_empire(built, "red", hand=tuple(c for c in red.hand if c != "red.scout.2"))
    assert broken(built) == ["bases_hold_facilities: red-hq holds red.scout.2, a unit"]


def test_prisoners_are_enemy_heroes() -> None:
    """p.24, p.30: given red's captain taken from red-a, blue-hq may hold him; red's own base
    may not, nor may blue's hold a trooper."""
    state = with_army(opening(), "red-a", hero=None)
    assert broken(with_base(state, "blue-hq", prisoners=(CAPTAIN,))) == []
    assert broken(with_base(state, "red-hq", prisoners=(CAPTAIN,))) == [
        f"prisoners_are_enemy_heroes: red-hq of red holds {CAPTAIN}, a hero of red"
    ]
    trooper = with_army(opening(), "red-a", units=("red.trooper.3",))
    assert broken(with_base(trooper, "blue-hq", prisoners=(TROOPER,))) == [
        f"prisoners_are_enemy_heroes: blue-hq of blue holds {TROOPER}, a unit of red"
    ]


def test_fate_spent_stays_within_the_hero_s_fate() -> None:
    """R6: the captain's 2 fate may all be spent this round, never 3, never less than none; a
    trooper has no fate to spend."""
    state = opening()
    assert broken(replace(state, fate_spent={CAPTAIN: 2})) == []
    assert broken(replace(state, fate_spent={CAPTAIN: 0})) == []
    assert broken(replace(state, fate_spent={TROOPER: 1})) == [
        f"fate_spent_within_fate: {TROOPER} spent 1 fate of 0"
    ]
    assert broken(replace(state, fate_spent={CAPTAIN: 3})) == [
        f"fate_spent_within_fate: {CAPTAIN} spent 3 fate of 2"
    ]
    assert broken(replace(state, fate_spent={CAPTAIN: -1})) == [
        f"fate_spent_within_fate: {CAPTAIN} spent -1 fate of 2"
    ]


def test_damage_stays_short_of_the_card_s_limit() -> None:
    """AE-24: a trooper of 2 hit points keeps 1 damage; at 2 it is destroyed, so keeping it
    breaks damage_short_of_the_limit, and so does an entry of none."""
    state = opening()
    assert broken(replace(state, damage={TROOPER: 1})) == []
    assert broken(replace(state, damage={TROOPER: 2})) == [
        f"damage_short_of_the_limit: {TROOPER} has taken 2 of 2"
    ]
    assert broken(replace(state, damage={TROOPER: 0})) == [
        f"damage_short_of_the_limit: {TROOPER} has taken 0 of 2"
    ]


def challenged() -> GameState:
    """Red's turn in the arena, a challenge of red's two dice against blue's two open."""
    g = begin(arena())
    open_challenge(g, side("red", [4, 1]), side("blue", [5, 6]))
    return g.state


def with_side(state: GameState, role: str, **changes: Any) -> GameState:
    (frame,) = state.frames
    assert isinstance(frame, Challenge)
    moved = replace(frame, **{role: replace(getattr(frame, role), **changes)})
    return replace(state, frames=(moved,))


def test_a_battle_and_a_threshold_challenge_of_one_side_break_nothing() -> None:
    """The checks of a challenge read challenges alone (a battle in progress is a frame too)
    and a threshold challenge's one side (p.15)."""
    battle = attack_at(field(VERSUS_FOX), "red-x", "4,0").state
    assert [type(f).__name__ for f in battle.frames] == ["Battle"] and broken(battle) == []
    g = begin(arena())
    open_challenge(g, side("red", [4, 1]), None, kind="threshold", threshold=2)
    assert g.state.frames and broken(g.state) == []


def test_a_battle_goes_no_more_than_twelve_rounds_without_a_hit_point_lost() -> None:
    """AE-31 since version 26: a battle in round 12 with no card hurt yet holds; in round 13,
    or counting from a round after its own (an evolve that kept the last battle's), it breaks
    battle_ends_in_stalemate; a version-25 battle's rounds are not bounded so."""
    state = attack_at(field(VERSUS_FOX), "red-x", "4,0").state
    (b,) = state.frames
    assert isinstance(b, Battle)
    assert broken(replace(state, frames=(replace(b, round=12),))) == []
    assert broken(replace(state, frames=(replace(b, round=13),))) == [
        "battle_ends_in_stalemate: battle 1 is in round 13; a strike last took a hit point in its "
        "round 0 (at most 12 rounds without)"
    ]
    assert broken(replace(state, frames=(replace(b, round=14),), hurt_round=2)) == []
    assert broken(replace(state, frames=(replace(b, round=1),), hurt_round=2)) == [
        "battle_ends_in_stalemate: battle 1 is in round 1; a strike last took a hit point in its "
        "round 2 (at most 12 rounds without)"
    ]
    old = replace(state, frames=(replace(b, round=13),), rules_version=25)
    assert broken(old) == []


def test_a_challenge_s_dice_are_d6() -> None:
    """R1: faces 1 to 6 hold; a 7 or a 0 (an evolve that added a modifier to a face) breaks
    challenge_dice_are_d6, naming the challenge and side."""
    state = challenged()
    assert broken(with_side(state, "attacker", faces=(6, 1))) == []
    assert broken(with_side(state, "attacker", faces=(7, 1))) == [
        "challenge_dice_are_d6: challenge 1's attacker shows [7, 1]"
    ]
    assert broken(with_side(state, "defender", faces=(0, 6))) == [
        "challenge_dice_are_d6: challenge 1's defender shows [0, 6]"
    ]


def test_a_challenge_s_fate_is_never_negative() -> None:
    """R6, AE-16: fate given by a tactic card and fate spent are never below none."""
    state = challenged()
    assert broken(with_side(state, "defender", fate_bonus=0, fate_spent=0)) == []
    assert broken(with_side(state, "defender", fate_bonus=-1)) == [
        "challenge_fate_never_negative: challenge 1's defender was given -1 fate and spent 0"
    ]
    assert broken(with_side(state, "attacker", fate_spent=-1)) == [
        "challenge_fate_never_negative: challenge 1's attacker was given 0 fate and spent -1"
    ]


def test_an_empire_sights_enemy_armies_that_stand() -> None:
    """AE-17: given red's sighting of blue-a, when the sighting names red's own army or an army
    that is gone, then sightings_of_enemies names it."""
    state = sight(start_turns(game()), "red", "blue-a").state
    assert broken(state) == []
    seen = state.sightings["red"]["blue-a"]
    own = replace(state, sightings={"red": {"red-b": replace(seen, army="red-b", empire="red")}})
    assert broken(own) == ["sightings_of_enemies: red sights its own red-b"]
    gone = replace(state, sightings={"red": {"blue-z": replace(seen, army="blue-z")}})
    assert broken(gone) == ["sightings_of_enemies: red sights blue-z, which is gone"]


def test_the_round_stays_within_the_game_s_rounds() -> None:
    state = opening()
    assert broken(replace(state, round=3)) == []
    assert broken(replace(state, round=4)) == ["rounds: round 4 of 3"]
    assert broken(replace(state, round=0)) == ["rounds: round 0 of 3"]


def test_whose_turn_follows_the_phase() -> None:
    """AE-3, p.22: in the initiative phase nobody plays and bids come from the seats; in the
    turns the player is one of the order and the bids are paid; when the game is over nobody
    plays."""
    state = opening()
    assert broken(replace(state, bids={"red": 2, "blue": 0})) == []
    assert broken(replace(state, current="red")) == [
        "whose_turn: initiative phase with 'red' to play in the order ['red', 'blue'] and bids from []"
    ]
    assert broken(replace(state, bids={"green": 1})) == [
        "whose_turn: initiative phase with None to play in the order ['red', 'blue'] and bids from ['green']"
    ]
    turns = start_turns(game()).state
    assert broken(turns) == []
    assert broken(replace(turns, bids={"red": 1})) == [
        "whose_turn: turns phase with 'red' to play in the order ['red', 'blue'] and bids from "
        "['red']"
    ]
    assert broken(replace(turns, current="green")) == [
        "whose_turn: turns phase with 'green' to play in the order ['red', 'blue'] and bids from []"
    ]
    over = replace(turns, phase="over")
    assert broken(over) == [
        "whose_turn: over phase with 'red' to play in the order ['red', 'blue'] and bids from []"
    ]
    assert broken(replace(over, current=None)) == []


def test_minefields_stand_in_the_open_one_of_an_empire_in_a_hex() -> None:
    """p.32; AE-50, AE-54: given the bundled scenario's two minefields, when one stands at a
    base, off the map, beside another of its empire, or holds another empire's card, then
    minefields_in_the_open (or cards_held_by_owner) names it."""
    state = RULESET.initial_state(bundled("cinder-and-glass"))
    assert broken(state) == []
    mine = state.minefields["red-tanglewire"]

    def moved(**changes: Any) -> GameState:
        return replace(state, minefields={**state.minefields, mine.id: replace(mine, **changes)})

    assert broken(moved(at="5,3")) == ["minefields_in_the_open: red-tanglewire is at 5,3"]
    assert broken(moved(at="99,99")) == ["minefields_in_the_open: red-tanglewire is at 99,99"]
    assert broken(moved(at="6,5")) == []  # blue's minefield's hex: one of each empire
    assert broken(moved(at="6,5", empire="blue")) == [
        "minefields_in_the_open: two in one hex: [('blue', '6,5')]",
        f"cards_held_by_owner: blue holds {mine.card}",
    ]


def test_a_minefield_is_an_empire_s_or_no_empire_s_and_only_the_latter_is_kept_out_of_play() -> (
    None
):
    """AE-50, AE-67: given the bundled scenario with independent minefields (``dust-a`` among
    them), when a minefield's controller is no empire of the game, its own empire is among those
    that walked into it, an empire's is kept spent, or a spent independent one keeps damage,
    then minefield_controllers or minefields_out_of_play names it; an independent one kept out
    of play, for an empire that walked into it, holds."""
    state = RULESET.initial_state(with_independent_minefields())
    assert broken(state) == []

    def changed(mine: str, **changes: Any) -> GameState:
        changed = replace(state.minefields[mine], **changes)
        return replace(state, minefields={**state.minefields, mine: changed})

    tangle = state.minefields["red-tanglewire"]
    assert broken(changed("red-tanglewire", empire="green")) == [
        f"cards_held_by_owner: green holds {tangle.card}",
        "minefield_controllers: red-tanglewire of 'green'",
    ]
    assert broken(changed("red-tanglewire", known_to=("red",))) == [
        "minefield_controllers: red-tanglewire known to ['red']"
    ]
    assert broken(changed("red-tanglewire", removed=True)) == [
        "minefields_out_of_play: red-tanglewire of 'red'"
    ]
    spent = changed("dust-a", removed=True, known_to=("blue",))
    assert broken(spent) == []
    card = state.minefields["dust-a"].card
    assert broken(replace(spent, damage={**spent.damage, card: 1})) == [
        "minefields_out_of_play: dust-a of ''"
    ]
