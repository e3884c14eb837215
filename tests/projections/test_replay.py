"""Replay's "what each event changed": what the game waits for changes from one batch's end to
the next, never to the passing state between two events of a batch."""

from __future__ import annotations

import json
import re

import msgspec
import pytest

from tests.recorded import recorded
from warlog.arbiter.application import Arbiter
from warlog.domain import rulesets
from warlog.domain.core.events import BATCH_STARTS
from warlog.eventstore.memory_store import MemoryStore
from warlog.projections.changes import changes


def test_what_the_game_waits_for_changes_only_at_batch_ends() -> None:
    """Given Armageddon Empires' golden game, when it is replayed as the referee sees it, then
    no change of what it waits for names a turn of nobody or a purchase by nobody (the state
    between a batch's events, before the initiative is decided), and the first round's changes
    go from the purchase to blue's turn, then red's."""
    arb, game = recorded("armageddon-empires", "ae-golden")
    waits = [
        change
        for step in arb.replay(game, 1, 400)
        for change in step["changes"]
        if change.startswith("waiting:")
    ]
    assert not [w for w in waits if '"\'s turn"' in w or "(by )" in w]
    assert waits[2:4] == [
        'waiting: "round 1\'s initiative purchase (by blue)" → "blue\'s turn"',
        'waiting: "blue\'s turn" → "red\'s turn"',
    ]


def test_a_range_that_stops_inside_a_batch_does_not_show_its_passing_state() -> None:
    """Given the same game, when only seqs 19 to 21 are replayed (21 lies inside a batch), then
    no change names a purchase by nobody."""
    arb, game = recorded("armageddon-empires", "ae-golden")
    changes = [c for step in arb.replay(game, 19, 21) for c in step["changes"]]
    assert not [c for c in changes if "(by )" in c or '"\'s turn"' in c]


def test_a_range_that_starts_inside_a_batch_compares_with_what_the_batch_found() -> None:
    """Given the same game, when it is replayed from seq 25 (inside the batch that decides the
    first round's initiative), then the first change of what it waits for goes from the
    purchase to blue's turn, not from a turn of nobody."""
    arb, game = recorded("armageddon-empires", "ae-golden")
    assert next(iter(arb.records(game, 25, 25))).type not in ("command_issued", "game_created")
    waits = [
        c for step in arb.replay(game, 25, 100) for c in step["changes"] if c.startswith("waiting:")
    ]
    assert waits[0] == 'waiting: "round 1\'s initiative purchase (by blue)" → "blue\'s turn"'


@pytest.mark.parametrize("name", ["armageddon-empires", "battle-for-armageddon", "heroic-battles"])
def test_each_ruleset_names_the_view_keys_that_say_what_its_game_waits_for(name: str) -> None:
    """Given a new game of each bundled ruleset played for 60 commands of its autoplay, when it
    is replayed as each player sees it, then its view holds every one of its
    ``decision_keys``, at least one of them changes during the game, and each change falls on
    a step that ends its batch (the next record starts one, or there is none)."""
    arb = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: bytes(range(32)))
    game = arb.new_game(name, game="g")
    ruleset = arb.ruleset_of(game)
    for _ in range(60):
        state = arb.state(game)
        if not ruleset.active_players(state):
            break
        player = ruleset.active_players(state)[0]
        legal = list(ruleset.legal_commands(state, player))
        arb.play(game, msgspec.json.encode(ruleset.choose(state, player, legal)).decode())
    keys = ruleset.decision_keys
    assert keys
    players = json.loads(next(iter(arb.records(game, 1, 1))).data)["players"]
    for player in players:
        view = ruleset.view(arb.state(game), player)
        assert set(keys) <= set(view)
        steps = list(arb.replay(game, 1, None, player))
        types = [step["type"] for step in steps]
        changed = [
            i
            for i, step in enumerate(steps)
            if step["seq"] > 1  # the first view: everything is new
            and any(re.split(r"[.:]", c, maxsplit=1)[0] in keys for c in step["changes"])
        ]
        assert changed
        for i in changed:
            assert i + 1 == len(steps) or types[i + 1] in BATCH_STARTS, (player, steps[i])


def test_a_player_s_replay_of_a_range_is_that_range_of_its_whole_replay() -> None:
    """Given Armageddon Empires' golden game, when red replays it from seq 118 (inside the
    batch seq 117 starts), then each step is the same step of red's whole replay: its data as
    red's own feed gives it (its own seals opened, every other closed until the reveal) and what
    changed compared with red's own view before it, never with the referee's (which would name
    what red may not see: blue's hand, its armies out of sight); so too when the range stops at
    a batch's end."""
    arb, game = recorded("armageddon-empires", "ae-golden")
    assert next(iter(arb.records(game, 118, 118))).type not in BATCH_STARTS
    whole = list(arb.replay(game, 1, 160, "red"))
    part = list(arb.replay(game, 118, 160, "red"))
    assert part == whole[117:]
    # a range that ends where the next batch starts ends its batch too: at seq 153 the game
    # comes to wait for another decision
    assert next(iter(arb.records(game, 154, 154))).type in BATCH_STARTS
    assert list(arb.replay(game, 118, 153, "red")) == whole[117:153]
    feed = [json.loads(r.data) for r in arb.records_as(game, "red", 118, 160)]
    assert [step["data"] for step in part] == feed


def test_a_player_s_replay_shows_what_a_batch_changed_on_its_last_event_only() -> None:
    """Given Armageddon Empires' golden game, when red replays its first 400 events, then every
    event inside a batch is listed with no changes of its own, and each batch's last event
    shows what the whole batch changed in red's view (red's view at the batch's end compared
    with red's view at the previous one), so no view between two events of a batch is shown;
    the referee's replay still shows changes on events inside a batch."""
    arb, game = recorded("armageddon-empires", "ae-golden")
    ruleset = arb.ruleset_of(game)
    steps = list(arb.replay(game, 1, 400, "red"))
    types = [step["type"] for step in steps] + [next(iter(arb.records(game, 401, 401))).type]
    ends = [step["seq"] for i, step in enumerate(steps) if types[i + 1] in BATCH_STARTS]
    assert all(step["seq"] in ends for step in steps if step["changes"])
    before: dict[str, object] = {}
    for end in ends:
        after = ruleset.view(arb.state(game, end), "red")
        assert steps[end - 1]["changes"] == changes(before, after), end
        before = after
    referee = list(arb.replay(game, 1, 400))
    assert [s for s in referee if s["changes"] and s["seq"] not in ends]


@pytest.mark.parametrize(
    ("ruleset", "name"),
    [
        ("armageddon-empires", "ae-golden"),
        ("battle-for-armageddon", "bfa-golden"),
        ("heroic-battles", "hb-golden"),
    ],
)
def test_no_change_replay_shows_reads_the_same_on_both_sides(ruleset: str, name: str) -> None:
    """Given each ruleset's golden game, when it is replayed as the referee sees it, then every
    change shown as 'before → after' shows two different texts: a long value is cut where it
    differs, or a list shown by what it gained and lost."""
    arb, game = recorded(ruleset, name)
    head, _ = arb.head(game)
    same = [
        (step["seq"], change)
        for step in arb.replay(game, 1, head)
        for change in step["changes"]
        if " → " in change
        and len(parts := change.split(": ", 1)[1].split(" → ")) == 2
        and parts[0] == parts[1]
    ]
    assert same == []


def test_a_card_seen_is_named_in_replay_s_change_of_what_an_empire_has_seen() -> None:
    """Given Armageddon Empires' golden game, when it is replayed, then a change of what an
    empire has seen (a list too long to show whole) names the cards it gained."""
    arb, game = recorded("armageddon-empires", "ae-golden")
    head, _ = arb.head(game)
    seen = [
        change
        for step in arb.replay(game, 1, head)
        for change in step["changes"]
        if re.match(r"empires\.\w+\.seen: ", change)
    ]
    gained = r'empires\.\w+\.seen: added "[\w-]+"(, "[\w-]+")* \(\d+ → \d+ entries\)'
    assert any(re.fullmatch(gained, change) for change in seen)
    assert not [change for change in seen if "…" in change]
