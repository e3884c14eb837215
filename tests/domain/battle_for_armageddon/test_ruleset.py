"""The ruleset contract: registration, tags (pinned: never reused or renamed), command JSON."""

from __future__ import annotations

import msgspec
import pytest

from tests.domain.battle_for_armageddon.helpers import second_war
from warlog.domain import rulesets
from warlog.domain.battle_for_armageddon import commands as c
from warlog.domain.battle_for_armageddon.ruleset import RULESET
from warlog.domain.battle_for_armageddon.state import GameState

EVENT_TAGS = [
    "counter_deployed", "setup_ended", "turn_began", "reinforcements_arrived", "strategy_chosen",
    "initiative_decided", "special_card_drawn", "action_segment_began", "phase_began",
    "build_points_counted", "rebuilds_counted", "phase_ended", "stack_out_of_supply",
    "supply_checked", "victory_checked", "game_ended", "counter_moved", "counter_eliminated",
    "chapter_reduced", "attack_declared", "combat_rolled", "result_kept", "result_stood",
    "loss_taken", "stack_eliminated", "site_ruined", "retreat_ignored", "counter_retreated",
    "retreat_completed", "advanced", "combat_ended", "counter_built", "production_advanced",
    "counter_placed", "counter_rebuilt", "special_card_played", "site_rebuilt",
]  # fmt: skip
COMMAND_TAGS = [
    "deploy", "end_setup", "choose_strategy", "move", "attack", "reroll", "keep_result",
    "take_loss", "retreat", "advance", "build", "finish_building", "place", "rebuild",
    "play_special", "end_phase",
]  # fmt: skip


def test_it_is_registered_as_battle_for_armageddon() -> None:
    assert rulesets.get("battle-for-armageddon") is RULESET
    assert (RULESET.name, RULESET.version) == ("battle-for-armageddon", "8")
    assert RULESET.kept_versions == ("7", "6", "5", "4", "3", "2")
    assert RULESET.players(second_war()) == ["imperials", "orks"]


def test_event_and_command_tags_are_pinned() -> None:
    assert [e.type_name() for e in RULESET.event_types] == EVENT_TAGS
    assert [t.type_name() for t in c.COMMAND_TYPES] == COMMAND_TAGS


def test_commands_decode_from_json() -> None:
    text = b'{"type":"attack","player":"orks","target":"acheron","stacks":["death_mire"]}'
    assert msgspec.json.decode(text, type=RULESET.command_type) == c.Attack(
        player="orks", target="acheron", stacks=["death_mire"]
    )
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(
            b'{"type":"attack","player":"orks","target":"acheron","stacks":[],"x":1}',
            type=RULESET.command_type,
        )


def test_the_state_round_trips_through_msgpack() -> None:
    state = RULESET.initial_state(second_war())
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=GameState) == state
