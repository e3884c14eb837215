"""Since version 10 an empty army counts for nothing to the other empire (AE-59): no move meets
it, it controls and disputes no hex, and which ones the Empty Armies Rule (p.33) destroys when a
battle begins at a base is sealed for the other empire. Before it, an attacker learned the names
and number of the empty armies it walked into, which their creation had sealed (AE-17).

Blue's HQ (7,5, garrisoned) and outpost (7,0); red's army red-x beside the HQ, at 6,5. A scenario
places no empty army, so each test stands blue's where it says, as if blue had created them there
(``army_created`` is sealed for red, AE-17).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
from msgspec.structs import replace

from tests.domain.armageddon_empires.battle_helpers import BATTLE_CARDS, EMPTY_HANDS, GARRISONED
from tests.domain.armageddon_empires.helpers import (
    army_block,
    created_under,
    only,
    scenario,
    sight,
    start_turns,
    toml,
)
from tests.given_when_then import Given
from tests.test_hidden_information import clock, play
from warlog.arbiter.application import Arbiter
from warlog.domain import rulesets
from warlog.domain.armageddon_empires.battle_events import BattleBegan, EmptyArmiesDestroyed
from warlog.domain.armageddon_empires.commands import Engage, MoveArmy
from warlog.domain.armageddon_empires.control import disputed, enemy_held
from warlog.domain.armageddon_empires.ruleset import RULESET, VERSIONS
from warlog.domain.armageddon_empires.sighting_events import ArmiesSighted
from warlog.domain.armageddon_empires.state import Army
from warlog.domain.core.events import Event
from warlog.domain.core.seal import secrets_of, set_path
from warlog.eventstore.memory_store import MemoryStore
from warlog.fuzz.noninterference import blinded, observed

BASES = (
    GARRISONED
    + """
[[bases]]
id = "blue-post"
empire = "blue"
kind = "outpost"
at = "7,0"
card = "camp"
"""
)

RED_X = army_block("red-x", "red", "6,5", units=("trooper",))
LATEST_VERSION = RULESET.version


def given(version: str, spares: dict[str, str], armies: str = RED_X) -> Given:
    """Red's turn under ``version``, red sighting blue's garrison; blue's empty armies (id →
    hex) standing where ``spares`` says."""
    g = start_turns(
        Given(
            VERSIONS[version],
            scenario(armies=BATTLE_CARDS + armies, empires=EMPTY_HANDS, bases=BASES),
        )
    )
    g = sight(g, "red", "blue-hq-garrison")
    added = {a: Army(id=a, empire="blue", at=at) for a, at in spares.items()}
    g.state = replace(g.state, armies={**g.state.armies, **added})
    return g


def as_seen_by(player: str, events: list[Event]) -> list[dict[str, Any]]:
    """The events as ``player`` receives them: every value sealed from it a placeholder."""
    out = []
    for event in events:
        data = msgspec.to_builtins(event)
        for path, owner in secrets_of(event):
            if owner != player:
                set_path(data, path, {"sealed": "…"})
        out.append({"type": event.type_name(), **data})
    return out


def attacked(g: Given) -> list[Event]:
    """Red's red-x moves into blue's HQ and attacks at once."""
    return g.when(MoveArmy(player="red", army="red-x", to="7,5")) + g.when(
        Engage(player="red", choice="attack")
    )


TWO_AT_THE_HQ = {"blue-spare-1": "7,5", "blue-spare-2": "7,5"}
TWO_AWAY = {"blue-spare-1": "7,0", "blue-spare-2": "7,0"}


def test_a_battle_at_a_base_destroys_its_empty_armies_telling_only_their_empire_which() -> None:
    # given blue's two empty armies in its HQ's hex
    g = given("10", TWO_AT_THE_HQ)
    # when red moves in and attacks: the battle begins, and the Empty Armies Rule destroys them
    events = attacked(g)
    assert only(events, BattleBegan).emptied == ()
    lost = [e for e in events if isinstance(e, EmptyArmiesDestroyed)]
    # then each empire is told of its own, in one event each, whatever the hex held
    assert [(e.empire, e.armies) for e in lost] == [
        ("red", ()),
        ("blue", ("blue-spare-1", "blue-spare-2")),
    ]
    assert lost[1].explain() == (
        "blue loses 2 empty armies at 7,5: blue-spare-1, blue-spare-2 (Empty Armies Rule, p.33; "
        "AE-59)"
    )
    assert (
        lost[0].explain() == "red has no empty army at 7,5 to lose (Empty Armies Rule, p.33; AE-59)"
    )
    assert not {"blue-spare-1", "blue-spare-2"} & set(g.state.armies)
    # and the move met none of them: red sighted nobody new by contact
    assert not any(isinstance(e, ArmiesSighted) and e.observer == "red" and e.seen for e in events)


def test_red_receives_the_same_whether_blue_had_empty_armies_in_the_hex_or_elsewhere() -> None:
    there, away = given("10", TWO_AT_THE_HQ), given("10", TWO_AWAY)
    seen_there, seen_away = attacked(there), attacked(away)
    # blue's own record differs (it lost two armies in one game only) ...
    assert as_seen_by("blue", seen_there) != as_seen_by("blue", seen_away)
    assert set(away.state.armies) - set(there.state.armies) == {"blue-spare-1", "blue-spare-2"}
    # ... red's events, view and legal commands do not
    assert as_seen_by("red", seen_there) == as_seen_by("red", seen_away)
    ruleset = VERSIONS["10"]
    assert ruleset.view(there.state, "red") == ruleset.view(away.state, "red")
    assert ruleset.legal_commands(there.state, "red") == ruleset.legal_commands(away.state, "red")


def test_a_game_of_version_9_keeps_its_rules_the_empty_armies_named_to_the_attacker() -> None:
    there, away = given("9", TWO_AT_THE_HQ), given("9", TWO_AWAY)
    seen_there, seen_away = attacked(there), attacked(away)
    assert only(seen_there, BattleBegan).emptied == ("blue-spare-1", "blue-spare-2")
    assert not any(isinstance(e, EmptyArmiesDestroyed) for e in seen_there)
    assert as_seen_by("red", seen_there) != as_seen_by("red", seen_away)


def test_a_move_walks_past_an_empty_army_in_the_field_without_meeting_it() -> None:
    # given blue's empty army left in the field at 2,0 (as when its base is razed, AE-34), and
    # red-x beside it, by red's HQ
    spare = {"blue-spare-1": "2,0"}
    g = given("10", spare, armies=army_block("red-x", "red", "1,0", units=("trooper",)))
    # when red-x moves through it: it walks the whole way and sights nothing by contact
    events = g.when(MoveArmy(player="red", army="red-x", to="3,0"))
    assert g.state.armies["red-x"].at == "3,0"
    assert "blue-spare-1" not in g.state.sightings.get("red", {})
    assert not any(isinstance(e, ArmiesSighted) and e.seen for e in events)
    # under version 9 the same move stops before it, and red learns its name by contact
    old = given("9", spare, armies=army_block("red-x", "red", "1,0", units=("trooper",)))
    old.when(MoveArmy(player="red", army="red-x", to="3,0"))
    assert old.state.armies["red-x"].at == "1,0"
    assert old.state.sightings["red"]["blue-spare-1"].how == "contact"


def test_an_empty_army_holds_no_hex_against_supply_and_disputes_no_base() -> None:
    # given blue's empty army in the field at 3,0 and another in red's HQ's hex (left there when
    # red took it back, say)
    spares = {"blue-spare-1": "3,0", "blue-spare-2": "0,0"}
    g = given("10", spares)
    # then neither holds its hex against red's supply nor disputes red's HQ (no repairs there)
    assert "3,0" not in enemy_held(g.state, "red")
    assert not disputed(g.state, "red", "0,0")
    # as they did under version 9
    old = given("9", spares)
    assert "3,0" in enemy_held(old.state, "red")
    assert disputed(old.state, "red", "0,0")


KEY = bytes(range(32))


def public(i: int, sides: int) -> int:
    """The faces of every roll of these games, alike in both (manual dice)."""
    return (i * 7) % sides + 1


def arbitrated(tmp: Path, where: str, version: str) -> tuple[Arbiter, str]:
    """Through the application, on manual dice: blue (first in both rounds) creates two empty
    armies at ``where`` in round 1 (sealed for red, AE-17); in round 2 red's red-x moves into
    blue's HQ and attacks."""
    folder = tmp / f"{version}-{where.replace(',', '-')}"
    folder.mkdir()
    text = toml(armies=BATTLE_CARDS + RED_X, empires=EMPTY_HANDS, bases=BASES)
    (folder / "ni.toml").write_text(text)  # the scenario's name is the file's: alike in both
    arb = Arbiter(MemoryStore(), rulesets.get, clock=clock(), seeds=lambda: KEY)
    game = arb.create(created_under(version, text, KEY), KEY)
    script: list[dict[str, Any]] = [
        {"type": "buy_initiative", "player": "red", "count": 0},
        {"type": "buy_initiative", "player": "blue", "count": 0},
        {"type": "create_army", "player": "blue", "army": "blue-spare-1", "at": where},
        {"type": "create_army", "player": "blue", "army": "blue-spare-2", "at": where},
        {"type": "end_turn", "player": "blue"},
        {"type": "end_turn", "player": "red"},
        {"type": "buy_initiative", "player": "red", "count": 0},
        {"type": "buy_initiative", "player": "blue", "count": 0},
        {"type": "end_turn", "player": "blue"},
        {"type": "move_army", "player": "red", "army": "red-x", "to": "7,5"},
        {"type": "engage", "player": "red", "choice": "attack"},
    ]
    for command in script:
        play(arb, game, command, public)
    return arb, game


def test_everything_red_is_given_is_the_same_whether_blue_s_empty_armies_stood_there(
    tmp_path: Path,
) -> None:
    # given two games through the application that differ only in where blue created its two
    # empty armies (in the HQ red attacks, or at its outpost)
    there, away = arbitrated(tmp_path, "7,5", "10"), arbitrated(tmp_path, "7,0", "10")
    # the battle began and destroyed them in one game only
    assert "blue-spare-1" not in there[0].view("ni")["state"]["armies"]
    assert "blue-spare-1" in away[0].view("ni")["state"]["armies"]
    assert blinded(observed(*there, "blue")) != blinded(observed(*away, "blue"))
    # then red's feed of the log, views, legal commands, replay, explain and Events view are
    # the same, commitments aside
    assert blinded(observed(*there, "red")) == blinded(observed(*away, "red"))
    # under version 9 they were not: the contact and battle_began named blue's empty armies
    old = arbitrated(tmp_path, "7,5", "9"), arbitrated(tmp_path, "7,0", "9")
    assert blinded(observed(*old[0], "red")) != blinded(observed(*old[1], "red"))


def field_battle(version: str, ghost_at: str) -> list[Event]:
    """Red's red-x attacks blue-lance at 6,4, where no base stands; blue's empty army
    blue-ghost stands at ``ghost_at``."""
    lance = army_block("blue-lance", "blue", "6,4", units=("trooper",))
    g = sight(given(version, {"blue-ghost": ghost_at}, RED_X + lance), "red", "blue-lance")
    return g.when(MoveArmy(player="red", army="red-x", to="6,4")) + g.when(
        Engage(player="red", choice="attack")
    )


def test_an_empty_army_is_no_side_of_a_battle_where_no_base_stands() -> None:
    # given blue's empty army beside blue-lance in the field, or away at blue's outpost
    there, away = field_battle(LATEST_VERSION, "6,4"), field_battle(LATEST_VERSION, "7,0")
    # when red attacks blue-lance, then the battle's sides name blue-lance alone, and red
    # receives the same events whether or not the empty army stood there (AE-59)
    assert only(there, BattleBegan).battle.defender.armies == ("blue-lance",)
    assert as_seen_by("red", there) == as_seen_by("red", away)


def test_a_game_of_version_11_keeps_its_rules_the_empty_army_in_the_field_named() -> None:
    there = field_battle("11", "6,4")
    assert only(there, BattleBegan).battle.defender.armies == ("blue-ghost", "blue-lance")
