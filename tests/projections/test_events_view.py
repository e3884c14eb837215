"""The Events view (R9): an entry posted in round t for d rounds shows in rounds t..t+d-1 only."""

from __future__ import annotations

import json
from pathlib import Path

from tests.toy import RULESET, SCENARIO, rulesets
from warlog.arbiter.application import Arbiter
from warlog.eventstore.memory_store import MemoryStore
from warlog.projections.events_view import Entry, EventsView


def test_an_entry_is_in_force_from_its_round_for_its_duration() -> None:
    entry = Entry(seq=7, empire="red", round=3, duration=2, text="x")
    assert [r for r in range(1, 7) if entry.in_force(r)] == [3, 4]
    assert entry.last_round == 4


def test_the_view_shows_each_empires_entries_in_force_and_all_of_them_on_request(
    tmp_path: Path,
) -> None:
    path = tmp_path / "race.toml"
    path.write_bytes(SCENARIO)
    arbiter = Arbiter(MemoryStore(), rulesets)
    game = arbiter.new_game("dice-race", str(path), game="g", dice="manual")
    # red and blue each score once a round (the toy posts "scored N" for 2 rounds)
    for player in ["red", "blue"] * 3:
        arbiter.play(game, json.dumps({"type": "roll", "player": player, "count": 1, "dice": [5]}))
    view = EventsView(RULESET).feed(arbiter.events(game))
    assert view.round == 4 and view.players == ["red", "blue"]
    in_force = view.tabs()
    assert [e.round for e in in_force["red"]] == [3]  # round 2's entry expired when round 4 began
    assert [e.round for e in view.tabs(show_all=True)["red"]] == [1, 2, 3]
    assert list(view.tabs("blue")) == ["blue"]
    assert view.position == arbiter.head(game)[0]


def test_the_view_catches_up_from_its_position(tmp_path: Path) -> None:
    path = tmp_path / "race.toml"
    path.write_bytes(SCENARIO)
    arbiter = Arbiter(MemoryStore(), rulesets)
    game = arbiter.new_game("dice-race", str(path), game="g", dice="manual")
    arbiter.play(game, json.dumps({"type": "roll", "player": "red", "count": 1, "dice": [6]}))
    view = EventsView(RULESET).feed(arbiter.events(game))
    arbiter.play(game, json.dumps({"type": "roll", "player": "blue", "count": 1, "dice": [6]}))
    view.feed(arbiter.events(game, view.position + 1))
    whole = EventsView(RULESET).feed(arbiter.events(game))
    assert view.entries == whole.entries and view.position == whole.position


def test_a_view_after_a_state_holds_only_what_the_events_after_it_post(tmp_path: Path) -> None:
    """Given a game, when an Events view starts after its sixth event, then it holds exactly the
    entries the whole view has from the seventh on."""
    path = tmp_path / "race.toml"
    path.write_bytes(SCENARIO)
    arbiter = Arbiter(MemoryStore(), rulesets)
    game = arbiter.new_game("dice-race", str(path), game="g", dice="manual")
    for player in ["red", "blue"] * 3:
        arbiter.play(game, json.dumps({"type": "roll", "player": player, "count": 1, "dice": [5]}))
    whole = EventsView(RULESET).feed(arbiter.events(game))
    part = EventsView.after(RULESET, arbiter.state(game, 6), ["red", "blue"])
    part.feed(arbiter.events(game, 7))
    assert part.entries == [e for e in whole.entries if e.seq >= 7] and part.entries
    assert part.tabs(show_all=True)["blue"] == [
        e for e in whole.tabs(show_all=True)["blue"] if e.seq >= 7
    ]
