"""The Events view (R9): an entry posted in round t for d rounds shows in rounds t..t+d-1 only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.recorded import recorded
from tests.toy import RULESET, SCENARIO, DiceRace, TurnPassed, rulesets
from warlog.arbiter.application import Arbiter
from warlog.domain.core.events import Event
from warlog.domain.core.ruleset import Notice
from warlog.eventstore.memory_store import MemoryStore
from warlog.projections.events_view import Entry, EventsView


def posted_by_kind(ruleset: str, name: str) -> dict[str, set[tuple[str, int]]]:
    """Of the recorded game ``fixtures/<ruleset>/<name>.jsonl``: the kinds of event that post
    Events-view entries, each with the (player, duration) of every entry it posted."""
    arb, game = recorded(ruleset, name)
    kinds = {seq: event.type_name() for seq, event in arb.events(game)}
    posted: dict[str, set[tuple[str, int]]] = {}
    for entry in EventsView(arb.ruleset_of(game)).feed(arb.events(game)).entries:
        posted.setdefault(kinds[entry.seq], set()).add((entry.empire, entry.duration))
    return posted


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


class Herald(DiceRace):
    """The dice race, posting each turn passed to the player it passes to, for ``duration``
    rounds; with ``gossip`` it posts a notice for whatever event it is asked about."""

    def __init__(self, duration: int = 1, gossip: bool = False) -> None:
        self.duration, self.gossip = duration, gossip

    def notices(self, before: Any, after: Any, event: Event) -> list[Notice]:
        if self.gossip:
            return [Notice("red", event.type_name())]
        if isinstance(event, TurnPassed):
            return [Notice(event.to, f"round {event.round}: your turn", self.duration)]
        return []


def _herald_view(herald: Herald, tmp_path: Path, rollers: list[str]) -> EventsView:
    """The Events view of a race under ``herald`` after each of ``rollers`` rolls a 5."""
    path = tmp_path / "race.toml"
    path.write_bytes(SCENARIO)
    arbiter = Arbiter(MemoryStore(), lambda name: herald)
    game = arbiter.new_game("dice-race", str(path), game="g", dice="manual")
    for player in rollers:
        arbiter.play(game, json.dumps({"type": "roll", "player": player, "count": 1, "dice": [5]}))
    return EventsView(herald).feed(arbiter.events(game))


def test_an_entry_posted_by_the_event_that_begins_a_round_belongs_to_that_round(
    tmp_path: Path,
) -> None:
    """Given a race that posts each turn passed for 1 round, when blue's roll passes the turn to
    red and so begins round 2, then red's entry is round 2's and in force in round 2 (R9: an
    entry posted in round t shows in rounds t..t+d-1), not round 1's, gone as it appears."""
    view = _herald_view(Herald(), tmp_path, ["red", "blue"])
    assert view.round == 2
    assert [(e.round, e.text) for e in view.tabs()["red"]] == [(2, "round 2: your turn")]


def test_an_entry_is_shown_at_least_in_the_round_it_is_posted(tmp_path: Path) -> None:
    """Given a race whose notices last 0 rounds, when red's roll passes the turn to blue, then
    blue's entry still shows in round 1, as an entry of 1 round: the view lets no notice pass
    unseen (the Notice's duration is at least 1)."""
    view = _herald_view(Herald(duration=0), tmp_path, ["red"])
    [entry] = view.tabs()["blue"]
    assert (entry.round, entry.duration, entry.text) == (1, 1, "round 1: your turn")


def test_the_view_asks_the_ruleset_for_notices_of_its_own_events_only(tmp_path: Path) -> None:
    """Given a ruleset that would post a notice for any event, when a game is created and red
    rolls, then only the ruleset's events post: the engine's own (game created, command issued,
    dice rolled) never reach a ruleset's ``notices``, as they never reach its ``evolve``."""
    view = _herald_view(Herald(gossip=True), tmp_path, ["red"])
    assert [e.text for e in view.tabs(show_all=True)["red"]] == ["scored", "turn_passed"]
