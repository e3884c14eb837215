"""State and events as data: msgpack snapshots, JSON events without floats, pure evolve."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from tests.domain.armageddon_empires.games import encoded, play
from tests.domain.armageddon_empires.helpers import game
from tests.domain.armageddon_empires.invariants import check_invariants
from warlog.domain.armageddon_empires.events import EVENT_TYPES
from warlog.domain.armageddon_empires.invariants import violations
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.state import GameState


def test_the_initial_state_round_trips_through_msgpack() -> None:
    state = game().state
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=RULESET.state_type) == state
    check_invariants(state)


def test_every_state_of_a_whole_game_round_trips_and_keeps_the_invariants() -> None:
    for _, _, _, after in play(seed=1):
        assert msgspec.msgpack.decode(encoded(after), type=GameState) == after
        check_invariants(after)


def test_evolve_never_changes_the_state_it_is_given() -> None:
    for before, _, events, _ in play(seed=2):
        state = before
        for event in events:
            snapshot = encoded(state)
            after = RULESET.evolve(state, event)
            assert encoded(state) == snapshot, f"evolve changed its input on {event.type_name()}"
            state = after


def test_every_event_round_trips_through_json_and_holds_no_float() -> None:
    for _, _, events, _ in play(seed=3):
        for event in events:
            raw = msgspec.json.encode(event)
            assert msgspec.json.decode(raw, type=type(event)) == event
            assert not _has_float(msgspec.json.decode(raw))


def _has_float(obj: object) -> bool:
    if isinstance(obj, float):
        return True
    if isinstance(obj, dict):
        return any(_has_float(v) for v in obj.values())
    if isinstance(obj, list):
        return any(_has_float(v) for v in obj)
    return False


def test_the_event_tags_are_pinned() -> None:
    # tags are a contract: never rename or reuse one
    assert [e.type_name() for e in EVENT_TYPES] == [
        "round_began",
        "resources_collected",
        "initiative_dice_bought",
        "initiative_determined",
        "turn_began",
        "supply_traced",
        "turn_ended",
        "army_created",
        "army_disbanded",
        "cards_transferred",
        "army_moved",
        "card_drawn",
        "card_deployed",
        "game_ended",
        "card_dealt",
        "cards_numbered",
    ]


def test_events_that_carry_arithmetic_explain_it() -> None:
    kinds = set()
    for _, _, events, _ in play(seed=4):
        for event in events:
            if type(event) in EVENT_TYPES:
                assert event.explain(), type(event).__name__
                kinds.add(type(event))
    assert len(kinds) >= 12


def test_an_army_holding_another_empire_s_card_breaks_an_invariant() -> None:
    # given the opening state, whose red garrison holds red's trooper
    state = game().state
    assert violations(state) == []
    # when the trooper is made blue's while red's army still holds it
    trooper = state.instances["red.trooper.1"]
    stray = replace(
        state, instances={**state.instances, "red.trooper.1": replace(trooper, owner="blue")}
    )
    # then the state breaks "held by its owner": the fallout's dice are rolled per empire, an
    # army's under its empire and its cards' under their owner, which must be one (AE-66)
    assert [(v.name, v.detail) for v in violations(stray)] == [
        ("cards_held_by_owner", "red-hq-garrison holds ['red.trooper.1']")
    ]
